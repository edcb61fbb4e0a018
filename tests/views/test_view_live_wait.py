"""A page's poll held until something changes (``wait=1``): answered at once when the page
is behind already, as soon as another phone changes the game or the board, and with an
empty 204 when the time is up. What the watch did says which (woken by a change, or its
time ran out): no test here reads a clock."""
from __future__ import annotations

import threading

import pytest
from sqlmodel import select

from scorekeeper.table.waiting import TIME_UP, Watch
from tests.databases import statements_sent
from tests.members import client_as, first_club_id
from tests.patience import until
from tests.views.test_view_live import CID_BIDS_4, HX, poll_url

HOLD = 1.5  # seconds: the test's own, short, LIVE_WAIT_SECONDS
# Seconds a poll that must be woken by a change may be held: a poll that times out
# instead is told apart by the watch, not by the clock.
LONG_HOLD = 30


class TellingWatch(Watch):
    """The app's watch, keeping how each wait ended: True woken by a change, False when
    its time ran out."""

    def __init__(self, engine) -> None:
        super().__init__(engine)
        self.ended: list[bool] = []

    def wait(self, *args) -> object:
        head = super().wait(*args)
        self.ended.append(head is not TIME_UP)
        return head


@pytest.fixture
def held_app(app):
    app.config["LIVE_WAIT_SECONDS"] = HOLD
    app.extensions["live_watch"] = TellingWatch(app.extensions["db_engine"])
    return app


def waits(app) -> list[bool]:
    return app.extensions["live_watch"].ended


def polls_held(app) -> int:
    watch = app.extensions.get("live_watch")
    return watch.held() if watch else 0


def statements_here(app):
    """The statements sent meanwhile from this thread (a request of the test client's),
    not the watch's: (statement, parameters) each."""
    return statements_sent(app.extensions["db_engine"], thread=threading.get_ident())


def woken_by(app, change, phone, url: str):
    """The answer to a poll held while ``change()`` is made on another phone as soon
    as the poll waits."""
    def once_held() -> None:
        until(lambda: polls_held(app) > 0)
        change()
    scorer = threading.Thread(target=once_held)
    scorer.start()
    response = phone.get(url, headers=HX)
    scorer.join()
    return response


def test_a_held_poll_of_an_unchanged_game_answers_204_when_its_time_is_up(
        held_app, start_game):
    viewer = client_as(held_app, "viewer", name="Vera")
    url = poll_url(viewer.get(f"/games/{start_game()}").text)
    assert "wait=1" in url
    response = viewer.get(url, headers=HX)
    assert response.status_code == 204 and waits(held_app) == [False]  # held to the end
    # A poll that does not ask to wait is answered at once, as ever: never held.
    response = viewer.get(url.replace("&wait=1", ""), headers=HX)
    assert response.status_code == 204 and waits(held_app) == [False]


def test_a_held_poll_whose_time_runs_out_reads_nothing_more(held_app, start_game):
    """Its two reads (who is asking, the game's head) and no third once its time is up:
    a game changed since the watch last looked is the next poll's first read. (Every
    idle phone sends one such poll each ``LIVE_WAIT_SECONDS``.)"""
    viewer = client_as(held_app, "viewer", name="Vera")
    url = poll_url(viewer.get(f"/games/{start_game()}").text)
    with statements_here(held_app) as statements:
        response = viewer.get(url, headers=HX)
    assert response.status_code == 204 and waits(held_app) == [False]
    assert len(statements) == 2, statements


def test_a_poll_of_a_game_other_polls_wait_on_begins_from_the_head_the_watch_found(
        held_app, start_game, play, monkeypatch):
    """Every phone at a table holds a poll: a phone's next one (at its time's end, or once
    woken) begins from the head the watch found a moment ago (``FRESH``), with no read of
    its own: one read (who is asking), not two. The watch's next look wakes it if the game
    moved meanwhile. A head the watch found longer ago is read again."""
    from scorekeeper.table import waiting

    held_app.config["LIVE_WAIT_SECONDS"] = LONG_HOLD
    game = start_game()
    first, second = (client_as(held_app, "viewer", name=name) for name in ("Vera", "Vic"))
    urls = [poll_url(phone.get(f"/games/{game}").text) for phone in (first, second)]
    watch = held_app.extensions["live_watch"]
    key = ("game", first_club_id(held_app), game)
    monkeypatch.setattr(waiting, "FRESH", 60.0)  # a moment, however slow the machine
    holding = threading.Thread(target=lambda: first.get(urls[0], headers=HX))
    holding.start()
    until(lambda: watch.current(key) is not None)
    with statements_here(held_app) as statements:
        at_once = urls[1].replace("&wait=1", "")  # answered at once, not held
        assert second.get(at_once, headers=HX).status_code == 204
        assert len(statements) == 1, statements
        monkeypatch.setattr(waiting, "FRESH", 0.0)
        assert second.get(at_once, headers=HX).status_code == 204
        assert len(statements) == 3, statements
    play(game, 1, CID_BIDS_4, "hearts", "ABBCC", "A")  # the first phone's poll woken
    holding.join()


def test_a_held_poll_is_answered_as_soon_as_another_phone_records_a_hand(
        held_app, start_game, play):
    held_app.config["LIVE_WAIT_SECONDS"] = LONG_HOLD
    game = start_game()
    viewer = client_as(held_app, "viewer", name="Vera")
    url = poll_url(viewer.get(f"/games/{game}").text)
    response = woken_by(held_app, lambda: play(game, 1, CID_BIDS_4, "hearts",
                                               "ABBCC", "A"), viewer, url)
    assert response.status_code == 200 and waits(held_app) == [True]  # woken by the hand
    assert "Hand 2" in response.text
    # Behind already: answered at once, held not at all.
    response = viewer.get(url, headers=HX)
    assert response.status_code == 200 and waits(held_app) == [True]


def test_a_woken_poll_answers_from_the_head_the_watch_read_and_reads_none_again(
        held_app, start_game, play):
    """The watch reads the games that moved whole, all at once, and hands each poll it
    wakes its game's head: the poll reads the head once, on arrival, and not again once
    woken (at a hand, every phone at the table is woken)."""
    held_app.config["LIVE_WAIT_SECONDS"] = LONG_HOLD
    game = start_game()
    viewer = client_as(held_app, "viewer", name="Vera")
    url = poll_url(viewer.get(f"/games/{game}").text)
    with statements_here(held_app) as statements:
        response = woken_by(held_app, lambda: play(game, 1, CID_BIDS_4, "hearts",
                                                   "ABBCC", "A"), viewer, url)
    heads = [statement for statement, _ in statements  # a game's head, read by this request
             if "coalesce(live_draft.seq" in statement]
    assert response.status_code == 200 and waits(held_app) == [True]
    assert "Hand 2" in response.text and 'id="deal-1"' in response.text
    assert len(heads) == 1, heads


def test_a_held_poll_of_the_scoreboard_wakes_on_a_hand(held_app, start_game, play):
    held_app.config["LIVE_WAIT_SECONDS"] = LONG_HOLD
    game = start_game()
    tv = client_as(held_app, "viewer", name="TV")
    board = tv.get(f"/games/{game}/board").text
    assert "wait=1" in poll_url(board, "board")
    response = woken_by(held_app, lambda: play(game, 1, CID_BIDS_4, "hearts",
                                               "ABBCC", "A"), tv, poll_url(board, "board"))
    assert response.status_code == 200 and waits(held_app) == [True]
    assert "Hand 2" in response.text


def test_the_watch_sees_a_game_as_its_polls_do(app, client, start_game, play):
    """The watch compares marks of many games read at once (``game_marks``) with the
    head each poll read (``game_head``): the two agree at every kind of change, and the
    mark moves with each (a hand, another phone's step, the table's next game). The
    heads it hands the polls it wakes (``game_heads``) are those a poll reads."""
    from sqlmodel import Session

    from scorekeeper.store.models import Game
    from scorekeeper.table.live import game_head, game_heads, game_marks

    engine = app.extensions["db_engine"]
    game = start_game(evening="new")
    with Session(engine) as session:
        club, evening = session.exec(select(Game.club_id, Game.evening_id)
                                     .where(Game.id == game)).one()

    def marks() -> tuple:
        with engine.connect() as connection:
            head = game_head(connection, club, game)
            assert game_marks(connection, [game]) == {(club, game): head.mark}
            assert game_heads(connection, [game]) == {(club, game): head}  # as woken polls get
            return head.mark

    seen = [marks()]
    play(game, 1, CID_BIDS_4, "hearts", "ABBCC", "A")
    seen.append(marks())
    client.get(f"/games/{game}?number=2&revision=2&calls=pass,4&step=5", headers=HX)
    seen.append(marks())
    start_game(evening=str(evening), table="1")
    seen.append(marks())
    assert len(set(seen)) == 4, seen
