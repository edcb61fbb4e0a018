"""Games at any table the rules seat (four, five or six, in any layout), started and
recorded through the store as the pages start and record them: ``seating.new_game``
and ``seat_game``, then ``recording.record_hand`` hand by hand."""
from __future__ import annotations

from typing import Sequence

from sqlmodel import Session

from scorekeeper.rules import Deal, HouseRules, Tally
from scorekeeper.store.models import Club, Evening, Game
from scorekeeper.store.replay import load_replay
from scorekeeper.table.recording import record_hand
from scorekeeper.table.seating import in_evening, new_game, seat_game

P = "pass"


def played(calls, trump: str, owners: str, game: str) -> Deal:
    """A played hand: the teams that took High, Low, Right, Left and Joker (a letter
    each), and Game ("-": tied)."""
    points = dict(zip(("high", "low", "right", "left", "joker"), owners, strict=True))
    return Deal(tuple(calls), trump, Tally(points, None if game == "-" else game))


def game_at(session: Session, club: Club, layout: str, names: Sequence[str],
            first_dealer: int, deals: Sequence[Deal] = (), *, target: int = 21,
            evening: Evening | None = None, table: int = 1) -> Game:
    """A game of ``names`` (seat 1 first) at ``layout``, its ``deals`` recorded."""
    rules = HouseRules(layout, target)
    game = seat_game(session, club, names, new_game(
        club, rules, first_dealer, drawn=False, table_number=table,
        **in_evening(session, evening)))
    session.commit()
    record(session, game, deals)
    return game


def record(session: Session, game: Game, deals: Sequence[Deal]) -> None:
    """The next hands of ``game``, recorded one by one."""
    replay = load_replay(session, game)
    for deal in deals:
        replay = record_hand(session, replay, replay.state.next_number, deal, game.revision)
