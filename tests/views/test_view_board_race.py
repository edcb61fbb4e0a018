"""A board read while another phone records: never a board older than its version.

A board is drawn from its game, and its poll carries the version of the table's head
(``live.evening_head``). A change committed while the board is read must leave the
version behind the board, never ahead of it: a version from after the change on a
board from before it tells every later poll "unchanged", and the TV shows the old
scores until the table's next change. Here another phone's change is committed before
each read of the TV's request in turn: whatever moment it lands, the TV shows it
at once or its next poll brings it.

The evening's tally, kept per state of the evening for every phone, is likewise never
kept under a state it doesn't count: a game a page read before its change is read again.

Hand-worked games as in test_view_table_board.py (target 5, Ann deals first).
"""
from __future__ import annotations

import threading
from typing import Callable

from sqlalchemy import event
from sqlmodel import Session

from scorekeeper.store.models import Evening, Game
from scorekeeper.store.replay import load_replay
from scorekeeper.table.evenings import evening_tally
from tests.members import client_as
from tests.views.test_view_table_board import B_SWEEPS, C_IS_SET, poll_of
from tests.views.view_helpers import HTMX, Page, calls_for, hand_form

BOB_AND_EVE_WIN = (calls_for(2, {5: 3}), "spades", "BBBBB", "B")  # game 2's hand 2


class ChangeBefore:
    """Another phone's change, committed by its own request in a thread of its own,
    just before the read numbered ``at`` of the request made in this thread. Reads made
    while that request has written and not yet committed are no moment for it: there the
    change would wait for the request's commit."""

    def __init__(self, app, change: Callable[[], None], at: int) -> None:
        self.engine = app.extensions["db_engine"]
        self.change, self.at = change, at
        self.reader = threading.get_ident()
        self.reads = 0
        self.writing = self.made = False
        self.hooks = {"before_cursor_execute": self.before_statement,
                      "commit": self.ended, "rollback": self.ended}

    def __enter__(self) -> "ChangeBefore":
        for name, hook in self.hooks.items():
            event.listen(self.engine, name, hook)
        return self

    def __exit__(self, *_exc) -> None:
        for name, hook in self.hooks.items():
            event.remove(self.engine, name, hook)

    def ended(self, _connection) -> None:
        if threading.get_ident() == self.reader:
            self.writing = False

    def before_statement(self, _conn, _cursor, statement: str, *_rest) -> None:
        if threading.get_ident() != self.reader:
            return
        if not statement.lstrip().upper().startswith("SELECT"):
            self.writing = True
        if self.writing:
            return
        self.reads += 1
        if self.reads - 1 == self.at:
            self.made = True
            self.make()

    def make(self) -> None:
        failed: list[BaseException] = []

        def change() -> None:
            try:
                self.change()
            except BaseException as error:  # told in the reader's thread
                failed.append(error)

        other = threading.Thread(target=change)
        other.start()
        other.join()
        assert not failed, failed


def catches_up(tv, answer, url: str, shown: str) -> bool:
    """Whether the TV shows the change once it has this answer to ``url`` (its poll, or
    the board's page), or else its next poll brings it."""
    if answer.status_code == 200:
        if shown in Page(answer).text:
            return True
        url = poll_of(answer.text)
    # An answer of "unchanged" leaves the TV as it was: its next poll must bring it.
    answer = tv.get(url, headers=HTMX)
    return answer.status_code == 200 and shown in Page(answer).text


def at_every_moment(app, ready: Callable[[], tuple], shown: str) -> None:
    """For each read of the TV's request in turn, a table made ready afresh (``ready``:
    the TV, the address it asks, the other phone's change), the change committed just
    before that read; the TV must catch up each time."""
    at = 0
    while True:
        tv, address, change = ready()
        with ChangeBefore(app, change, at) as moment:
            answer = tv.get(address, headers=HTMX if "/live?" in address else {})
        if not moment.made:
            break  # the request was over before: every moment has been tried
        assert catches_up(tv, answer, address, shown), (
            f"a change before read {at} of {address} never reached the TV: "
            f"{Page(answer).text[:300] if answer.status_code == 200 else answer.status}")
        at += 1
    assert at >= 4, "the request read less than a board needs"


def phone_posting(app, address: str, form: dict) -> Callable[[], None]:
    """A scorer's phone of its own, to post ``form`` to ``address`` when asked."""
    phone = client_as(app, "scorer", name="Phone")

    def post() -> None:
        response = phone.post(address, data=form)
        assert response.status_code == 303, response.get_data(as_text=True)[:500]

    return post


def test_a_hand_recorded_while_the_table_board_opens_reaches_it(app, evening):
    def ready() -> tuple:
        evening.id = None  # each try at a new evening of its own
        evening.game()
        two = evening.game()
        return (client_as(app, "viewer", name="TV"), f"/evenings/{evening.id}/board",
                phone_posting(app, f"/games/{two}/hands", hand_form(1, *C_IS_SET)))

    at_every_moment(app, ready, "Hand 2. Dealer: Bob.")


def test_a_game_won_while_the_table_board_polls_shows_its_winner(app, evening, play):
    def ready() -> tuple:
        evening.id = None
        evening.game()
        two = evening.game()
        tv = client_as(app, "viewer", name="TV")
        url = poll_of(tv.get(f"/evenings/{evening.id}/board").text)
        play(two, 1, *C_IS_SET)  # the TV's next poll brings the board: the win lands then
        return tv, url, phone_posting(app, f"/games/{two}/hands",
                                      hand_form(2, *BOB_AND_EVE_WIN))

    at_every_moment(app, ready, "Bob & Eve win!")


def test_a_won_hand_undone_while_the_games_board_polls_reaches_it(app, evening, play):
    def ready() -> tuple:
        evening.id = None
        one = evening.game()
        tv = client_as(app, "viewer", name="TV")
        url = poll_of(tv.get(f"/games/{one}/board").text)
        play(one, 1, *B_SWEEPS)  # over: its board follows the table now
        return tv, url, phone_posting(app, f"/games/{one}/hands/undo", {"number": "1"})

    at_every_moment(app, ready, "Hand 1. Dealer: Ann.")


def test_the_tally_counts_a_game_changed_after_the_page_read_it(app, evening, play):
    one = evening.game()
    play(one, 1, *B_SWEEPS)  # Bob & Eve win game 1
    two = evening.game()
    play(two, 1, *C_IS_SET)
    with Session(app.extensions["db_engine"]) as session:
        read_before = load_replay(session, session.get(Game, two))
        play(two, 2, *BOB_AND_EVE_WIN)  # another phone wins game 2 meanwhile
        tally = evening_tally(session, session.get(Evening, evening.id), read_before)
    assert (tally.games, tally.finished) == (2, 2)
    assert dict(tally.by_player)["Bob"] == 2 and dict(tally.by_partnership)["Bob & Eve"] == 2
