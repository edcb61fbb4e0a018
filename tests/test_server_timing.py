"""Where a record's time went, said in its answer when the app is made with SERVER_TIMING
on (bench/capacity.py reads it), and not said otherwise."""
from __future__ import annotations

import contextvars
import re
import time

import pytest

from scorekeeper.web.aside import _SetAside
from tests.conftest import close_server, fresh_server
from tests.members import client_as, first_club_id
from tests.new_games import start_game_as

HAND = {"number": 1, "calls": "3,pass,pass,pass,pass,pass", "trump": "hearts", "high": "A",
        "low": "B", "right": "C", "left": "A", "joker": "B", "game": "C"}
PART = re.compile(r'(\w+);dur=([\d.]+)(?:;desc="(\d+) statements")?')


def parts_of(header: str) -> dict[str, float]:
    return {name: float(ms) for name, ms, _ in PART.findall(header)}


@pytest.fixture
def timed_app():
    app = fresh_server(SERVER_TIMING=True)
    first_club_id(app)
    yield app
    close_server(app)


def test_a_record_says_its_pool_wait_sql_commit_and_render(timed_app):
    client = client_as(timed_app)
    game = start_game_as(client, target="999")
    response = client.post(f"/games/{game}/hands", data=HAND,
                           headers={"HX-Request": "true", "HX-Target": "game"})
    assert response.status_code == 200
    header = response.headers["Server-Timing"]
    parts = parts_of(header)
    assert set(parts) == {"pool", "sql", "commit", "render", "app"}
    assert parts["sql"] > 0 and parts["commit"] > 0 and parts["render"] > 0
    # Each part is its own time: together they are within the request's.
    assert sum(parts[name] for name in ("pool", "sql", "commit", "render")) <= parts["app"]
    statements = int(PART.search(header[header.index("sql;"):]).group(3))
    assert statements > 0


def test_a_page_drawn_without_a_commit_says_none(timed_app):
    client = client_as(timed_app)
    game = start_game_as(client)
    parts = parts_of(client.get(f"/games/{game}").headers["Server-Timing"])
    assert parts["commit"] == 0 and parts["render"] > 0


def test_nothing_is_timed_unless_asked(app):
    client = client_as(app)
    game = start_game_as(client, target="999")
    response = client.post(f"/games/{game}/hands", data=HAND)
    assert response.status_code < 400
    assert "Server-Timing" not in response.headers


class SlowPool:
    """A render pool whose threads are all busy for ``wait`` seconds."""

    def __init__(self, wait: float) -> None:
        self.wait = wait

    def apply(self, work, args):
        time.sleep(self.wait)
        return contextvars.copy_context().run(work, *args)  # as a thread of its own


def test_a_record_set_aside_says_how_long_it_queued_for_a_render_thread(timed_app):
    client = client_as(timed_app)
    game = start_game_as(client, target="999")
    timed_app.wsgi_app = _SetAside(timed_app.wsgi_app, SlowPool(0.05), SlowPool(0.05))
    response = client.post(f"/games/{game}/hands", data=HAND,
                           headers={"HX-Request": "true", "HX-Target": "game"})
    assert response.status_code == 200
    parts = parts_of(response.headers["Server-Timing"])
    assert parts["queue"] >= 50
