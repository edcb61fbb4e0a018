"""Under gevent, a poll's answer after a change is drawn in the render pool (web/aside.py):
the poll waits for it holding no database connection, as a held poll waits, and the
drawing gives its connection back as soon as it is drawn."""
from __future__ import annotations

import re

from flask import g

from scorekeeper.web.aside import _body_to_read_first, _SetAside
from tests.views.test_view_table_board import C_IS_SET
from tests.views.view_helpers import HTMX

POLL = re.compile(r'hx-get="(/games/\d+/live\?[^"]*)"')


class WatchedPool:
    """A render pool that runs its work at once, noting what the poll held as it asked,
    and what was still held once the work was done."""

    def __init__(self) -> None:
        self.held: list[tuple[bool, bool]] = []
        self.held_after: list[tuple[bool, bool]] = []

    def apply(self, run, args):
        self.held.append(("db_connection" in g, "db_session" in g))
        answer = run(*args)
        self.held_after.append(("db_connection" in g, "db_session" in g))
        return answer


def test_a_poll_waits_for_its_render_holding_no_connection(app, client, evening, play):
    pool = app.extensions["render_pool"] = WatchedPool()
    evening.game()
    two = evening.game()
    poll = POLL.search(client.get(f"/games/{two}").text).group(1).replace("&amp;", "&")
    assert client.get(poll, headers=HTMX).status_code == 204  # unchanged: no render
    assert pool.held == []
    play(two, 1, *C_IS_SET)
    answer = client.get(poll, headers=HTMX)
    assert answer.status_code == 200 and "Hand 2" in answer.text
    assert pool.held == [(False, False)]  # drawn in the pool, asked for with no connection
    # and given back by the render thread, not left for the poll's end: a render thread
    # goes on to its next drawing while the poll's greenlet waits its turn to answer
    assert pool.held_after == [(False, False)]


class NotingPool:
    """A render pool that notes the method of each request given it, and draws nothing."""

    def __init__(self) -> None:
        self.drew: list[str] = []

    def apply(self, _run, args):
        self.drew.append(args[1]["REQUEST_METHOD"])
        return []


def test_a_write_is_drawn_in_the_writes_thread_and_a_page_in_a_render_thread():
    pages, writes, greenlet = NotingPool(), NotingPool(), []
    served = _SetAside(lambda environ, _start: greenlet.append(environ["REQUEST_METHOD"]),
                       pages, writes)
    for method in ("GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS"):
        served({"REQUEST_METHOD": method, "PATH_INFO": "/games/3/hands"}, None)
    assert pages.drew == ["GET", "HEAD"]
    assert writes.drew == ["POST", "PUT", "DELETE"]
    assert greenlet == ["OPTIONS"]  # Flask's own answer draws nothing: not set aside


def test_polls_static_files_and_large_bodies_stay_on_their_greenlet():
    def read_first(path: str, **environ) -> int | None:
        return _body_to_read_first({"PATH_INFO": path, **environ})

    for stays in (read_first("/games/3/live"), read_first("/evenings/2/tables/live"),
                  read_first("/static/app.js"), read_first("/healthz"),
                  read_first("/backups/restore", CONTENT_LENGTH=str(5 * 1024 * 1024)),
                  read_first("/games/3/hands", HTTP_TRANSFER_ENCODING="chunked"),
                  read_first("/games/3/hands", CONTENT_LENGTH="many"),
                  read_first("/games/3/hands", CONTENT_LENGTH="²")):
        assert stays is None
    assert read_first("/games/3") == 0  # set aside, no body to read first
    assert read_first("/games/3/hands", CONTENT_LENGTH="412") == 412  # read first, then aside
