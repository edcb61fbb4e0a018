"""A page's poll held until something changes (``wait=1``): answered at once when the page
is behind already, as soon as another phone changes the game or the board, and with an
empty 204 when the time is up."""
from __future__ import annotations

import threading
import time

import pytest
from sqlmodel import select

from tests.members import client_as
from tests.views.test_view_live import CID_BIDS_4, HX, poll_url

HOLD = 1.5  # seconds: the test's own, short, LIVE_WAIT_SECONDS
# Seconds a poll that must be woken by a change may be held: so long that an answer
# well before it was woken, however slow and busy the machine.
LONG_HOLD = 30


@pytest.fixture
def held_app(app):
    app.config["LIVE_WAIT_SECONDS"] = HOLD
    return app


def timed(phone, url: str):
    started = time.monotonic()
    response = phone.get(url, headers=HX)
    return response, time.monotonic() - started


def later(seconds: float, change) -> threading.Thread:
    """``change()`` on another thread (another phone), ``seconds`` from now."""
    def run():
        time.sleep(seconds)
        change()
    thread = threading.Thread(target=run)
    thread.start()
    return thread


def polls_held(app) -> int:
    watch = app.extensions.get("live_watch")
    return watch.held() if watch else 0


def woken_by(app, change, phone, url: str):
    """The answer to a poll held while ``change()`` is made on another phone as soon
    as the poll waits, and how long after that phone's own answer it came (a little
    below 0 when the poll was woken before the change's page was rendered)."""
    changed = []

    def once_held() -> None:
        deadline = time.monotonic() + LONG_HOLD / 3
        while not polls_held(app) and time.monotonic() < deadline:
            time.sleep(0.01)
        changed.append((change(), time.monotonic()))

    scorer = later(0, once_held)
    response, _took = timed(phone, url)
    answered_at = time.monotonic()
    scorer.join()
    return response, answered_at - changed[0][1]


def test_a_held_poll_of_an_unchanged_game_answers_204_when_its_time_is_up(
        held_app, start_game):
    viewer = client_as(held_app, "viewer", name="Vera")
    url = poll_url(viewer.get(f"/games/{start_game()}").text)
    assert "wait=1" in url
    response, took = timed(viewer, url)
    assert response.status_code == 204 and HOLD - 0.1 <= took < LONG_HOLD
    # A poll that does not ask to wait is answered at once, as ever.
    response, took = timed(viewer, url.replace("&wait=1", ""))
    assert response.status_code == 204 and took < HOLD


def test_a_held_poll_is_answered_as_soon_as_another_phone_records_a_hand(
        held_app, start_game, play):
    held_app.config["LIVE_WAIT_SECONDS"] = LONG_HOLD
    game = start_game()
    viewer = client_as(held_app, "viewer", name="Vera")
    url = poll_url(viewer.get(f"/games/{game}").text)
    response, after = woken_by(held_app, lambda: play(game, 1, CID_BIDS_4, "hearts",
                                                       "ABBCC", "A"), viewer, url)
    assert response.status_code == 200 and after < LONG_HOLD / 3
    assert "Hand 2" in response.text
    # Behind already: answered at once, held not at all.
    response, took = timed(viewer, url)
    assert response.status_code == 200 and took < LONG_HOLD / 3


def test_a_held_poll_of_the_scoreboard_wakes_on_a_hand(held_app, start_game, play):
    held_app.config["LIVE_WAIT_SECONDS"] = LONG_HOLD
    game = start_game()
    tv = client_as(held_app, "viewer", name="TV")
    board = tv.get(f"/games/{game}/board").text
    assert "wait=1" in poll_url(board, "board")
    response, after = woken_by(held_app, lambda: play(game, 1, CID_BIDS_4, "hearts",
                                                       "ABBCC", "A"), tv, poll_url(board, "board"))
    assert response.status_code == 200 and after < LONG_HOLD / 3
    assert "Hand 2" in response.text


def test_the_watch_sees_a_game_as_its_polls_do(app, client, start_game, play):
    """The watch compares marks of many games read at once (``game_marks``) with the
    head each poll read (``game_head``): the two agree at every kind of change, and the
    mark moves with each (a hand, another phone's step, the table's next game)."""
    from sqlmodel import Session

    from scorekeeper.store.models import Game
    from scorekeeper.table.live import game_head, game_marks

    engine = app.extensions["db_engine"]
    game = start_game(evening="new")
    with Session(engine) as session:
        club, evening = session.exec(select(Game.club_id, Game.evening_id)
                                     .where(Game.id == game)).one()

    def marks() -> tuple:
        with engine.connect() as connection:
            seen = game_head(connection, club, game).mark
            assert game_marks(connection, [game]) == {(club, game): seen}
            return seen

    seen = [marks()]
    play(game, 1, CID_BIDS_4, "hearts", "ABBCC", "A")
    seen.append(marks())
    client.get(f"/games/{game}?number=2&revision=2&calls=pass,4&step=5", headers=HX)
    seen.append(marks())
    start_game(evening=str(evening), table="1")
    seen.append(marks())
    assert len(set(seen)) == 4, seen
