"""Every change at the table, its form sent twice from the same page (a double tap, or a
phone sending again an answer it lost): the change is made once, kept once in the game's
log, and the second sending is told it is done, never refused as a conflict.

Each form goes through the one protocol of ``table.changes`` (already done, plan, check,
apply); this walks every kind of change through it as a phone would.
"""
from __future__ import annotations

import pytest
from sqlmodel import select

from scorekeeper.store.models import ChangeKind, Game, GameChange, Hand
from tests.views.test_view_undo_edit import HAND_1, THROW_IN, three_hands
from tests.views.view_helpers import hand_form


def _revision(db, game: int) -> str:
    db.expire_all()
    return str(db.get(Game, game).revision)


def _undone_hand(db, game: int) -> str:
    db.expire_all()
    hand = db.exec(select(Hand).where(Hand.game_id == game, Hand.undone_at.is_not(None))).one()
    return str(hand.id)


def _logged(db, game: int, kind: ChangeKind) -> int:
    db.expire_all()
    return db.exec(select(GameChange.kind).where(GameChange.game_id == game)).all().count(kind)


def _made(client, game: int, path: str, data: dict) -> None:
    assert client.post(f"/games/{game}{path}", data=data).status_code == 303


# Each kind: (what the game needs first, the path, the form, the kind its log keeps).
CASES = {
    "record": (None, "/hands", lambda db, game: {
        **hand_form(4, THROW_IN), "entry_key": "k-record-4"}, ChangeKind.RECORDED),
    "correct": (None, "/hands/1", lambda db, game: {
        **hand_form(1, *HAND_1[:2], "CCBBA", HAND_1[3])}, ChangeKind.EDITED),
    "put in": (None, "/hands/insert", lambda db, game: {
        **hand_form(2, THROW_IN), "entry_key": "k-insert-2", "confirm": "y"},
        ChangeKind.INSERTED),
    "undo": (None, "/hands/undo", lambda db, game: {"number": "3"}, ChangeKind.UNDONE),
    "swap": (None, "/seats/swap", lambda db, game: {
        "first": "1", "second": "2", "confirm": "y"}, ChangeKind.SEATS),
    "rename": (None, "/seats/rename", lambda db, game: {
        "seat": "1", "name": "Zed", "confirm": "y"}, ChangeKind.RENAMED),
    "substitute": (None, "/seats/substitute", lambda db, game: {
        "seat": "1", "from_hand": "4", "name": "Gil", "confirm": "y"}, ChangeKind.SUBBED),
    "take back": (("/seats/substitute", {"seat": "1", "from_hand": "4", "name": "Gil",
                                         "confirm": "y"}),
                  "/seats/take-back", lambda db, game: {
                      "seat": "1", "from_hand": "4", "confirm": "y"}, ChangeKind.UNSUBBED),
    "abandon": (None, "/abandon", lambda db, game: {"confirm": "y"}, ChangeKind.ABANDONED),
    "reinstate": (("/abandon", {"confirm": "y"}), "/reinstate",
                  lambda db, game: {"confirm": "y"}, ChangeKind.REINSTATED),
}


@pytest.mark.parametrize("kind", list(CASES))
def test_a_change_sent_twice_from_one_page_is_made_once_and_told_done(
        client, db, start_game, play, kind):
    first, path, form, logged = CASES[kind]
    game = three_hands(start_game, play)
    if first is not None:
        _made(client, game, first[0], {**first[1], "revision": _revision(db, game)})
    data = {**form(db, game), "revision": _revision(db, game)}
    before = _logged(db, game, logged)
    answers = [client.post(f"/games/{game}{path}", data=data) for _ in range(2)]
    assert [answer.status_code for answer in answers] == [303, 303]
    assert _logged(db, game, logged) == before + 1


def test_bringing_a_hand_back_twice_brings_it_once_and_says_it_is_back(
        client, db, start_game, play):
    game = three_hands(start_game, play)
    _made(client, game, "/hands/undo", {"number": "3", "revision": _revision(db, game)})
    data = {"hand_id": _undone_hand(db, game), "revision": _revision(db, game)}
    answers = [client.post(f"/games/{game}/hands/restore", data=data) for _ in range(2)]
    assert [answer.status_code for answer in answers] == [303, 409]
    assert "Hand 3 is back already." in answers[1].get_data(as_text=True)
    assert _logged(db, game, ChangeKind.RESTORED) == 1
