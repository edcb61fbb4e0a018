"""Starting a game: four, five or six players in seats, the house rules and the first
dealer; and the checks on a substitute taking a seat (who sat where is
``store.sittings``).
"""
from __future__ import annotations

import secrets
from typing import Sequence

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from scorekeeper.rules import HouseRules, RuleViolation
from scorekeeper.rules.table import check_seat
from scorekeeper.store.models import PLAYER_NAME_LENGTH as MAX_NAME, Club, Evening, Game, GameSeat
from scorekeeper.store.rosters import find_or_add_player
from scorekeeper.store.sittings import Sitting, seats_of, sitting_at
from scorekeeper.text.names import clean_name, name_key


def name_problems(names: Sequence[str], seats: int = 6) -> list[RuleViolation]:
    """Everything wrong with the names of a table of ``seats``: too few or too many, an
    empty seat, a name too long or sitting twice."""
    if len(names) != seats:
        return [RuleViolation("seats_count", f"this table needs exactly {seats} players",
                              count=len(names), seats=seats)]
    problems: list[RuleViolation] = []
    seen: dict[str, int] = {}
    for seat, name in enumerate((clean_name(name or "") for name in names), start=1):
        if not name:
            problems.append(RuleViolation("seat_empty", f"seat {seat} has no player", seat=seat))
        elif len(name) > MAX_NAME:
            problems.append(RuleViolation(
                "name_too_long", f"seat {seat}: a name may have at most {MAX_NAME} letters",
                seat=seat, limit=MAX_NAME,
            ))
        elif name_key(name) in seen:
            problems.append(RuleViolation(
                "name_twice", f"{name} can't sit in seats {seen[name_key(name)]} and {seat}",
                name=name, first=seen[name_key(name)], seat=seat,
            ))
        else:
            seen[name_key(name)] = seat
    return problems


def check_names(names: Sequence[str], seats: int = 6) -> list[str]:
    """The names of a table of ``seats``, cleaned; RuleViolation (the first problem) if
    any is wrong."""
    problems = name_problems(names, seats)
    if problems:
        raise problems[0]
    return [clean_name(name or "") for name in names]


def substitute_problem(seating: Sequence[Sitting], seat: int, from_hand: int, name: str,
                       last_hand: int) -> RuleViolation | None:
    """What is wrong with ``name`` taking ``seat`` from hand ``from_hand`` on, in a game
    whose seating is ``seating``; None if nothing. A substitute comes in at hand 2 at
    the earliest (from hand 1 it is a wrong name, not a substitute) and at ``last_hand``
    at the latest (the next hand of a game in play, the last of a finished one)."""
    seats = seats_of(seating)
    if seat not in seats:
        return RuleViolation("no_such_seat", f"there is no seat {seat}", seat=seat,
                             seats=len(seats))
    if from_hand == 1:
        return RuleViolation("substitute_from_start",
                             f"from hand 1 on, seat {seat} was someone else all game: "
                             "that is a wrong name, not a substitute", seat=seat)
    if not 2 <= from_hand <= last_hand:
        return RuleViolation("no_such_hand", f"there is no hand {from_hand}",
                             number=from_hand)
    name = clean_name(name or "")
    if not name:
        return RuleViolation("seat_empty", f"seat {seat} has no player", seat=seat)
    if len(name) > MAX_NAME:
        return RuleViolation("name_too_long",
                             f"seat {seat}: a name may have at most {MAX_NAME} letters",
                             seat=seat, limit=MAX_NAME)
    leaving = sitting_at(seating, seat, from_hand)
    if name_key(leaving.name) == name_key(name):
        return RuleViolation("name_same", f"seat {seat} is {leaving.name} already",
                             seat=seat)
    if leaving.from_hand == from_hand:
        return RuleViolation(
            "substitute_there", f"{leaving.name} took seat {seat} at hand {from_hand} "
            "already", seat=seat, number=from_hand, name=leaving.name)
    return sits_elsewhere(seating, seat, name, leaving)


def sits_elsewhere(seating: Sequence[Sitting], seat: int, name: str,
                   replaced: Sitting) -> RuleViolation | None:
    """``name`` sits in another sitting of the game than ``replaced`` (in ``seat``):
    in another seat, or in the same seat at another stretch of the game."""
    for sitting in seating:
        if sitting != replaced and name_key(sitting.name) == name_key(name):
            if sitting.seat != seat:
                return RuleViolation(
                    "name_twice", f"{sitting.name} can't sit in seats {sitting.seat} and "
                    f"{seat}", name=sitting.name, first=sitting.seat, seat=seat)
            return RuleViolation(
                "sits_once", f"{sitting.name} sat in seat {seat} already in this game: a "
                "player sits in one seat, once, in a game", name=sitting.name, seat=seat)
    return None


def draw_dealer(seats: int) -> int:
    """The first dealer drawn at random, as the table would by cutting cards."""
    return secrets.choice(range(1, seats + 1))


def start_game(
    session: Session,
    club: Club,
    names: Sequence[str],
    rules: HouseRules,
    first_dealer: int | None,
    evening: Evening | None = None,
    table: int = 1,
) -> Game:
    """Seat the players and start a game (``first_dealer`` None: draw one).

    ``evening`` is the evening the game belongs to, stored or new (written with it);
    ``table``, which of its tables plays it.
    """
    cleaned = check_names(names, rules.seats)
    drawn = first_dealer is None
    dealer = draw_dealer(rules.seats) if drawn else check_seat(first_dealer, rules.seats)
    try:
        return _seat(session, club, cleaned, rules, dealer, drawn, evening, table)
    except IntegrityError:
        # Another phone added one of these players to the roster at the same moment:
        # now that they are there, seating them again finds them.
        session.rollback()
        return _seat(session, club, cleaned, rules, dealer, drawn, evening, table)


def new_game(club: Club, rules: HouseRules, first_dealer: int, *, drawn: bool,
             **kept) -> Game:
    """The one way a game row is made: seated at a table, imported or restored.

    ``kept`` are the columns a restored game brings with it (its id, evening, times).
    """
    return Game(club_id=club.id, teams=str(rules.teams), target=rules.target,
                house_rules=rules.house_values, first_dealer=first_dealer,
                first_dealer_drawn=drawn, **kept)


def seat_game(session: Session, club: Club, names: Sequence[str], game: Game,
              substitutes: Sequence[Sitting] = ()) -> Game:
    """Add a new game and its seats (and, for an imported game, its substitutes),
    each name found in the roster or added to it (flushed, not committed)."""
    session.add(game)
    session.flush()
    sittings = [Sitting(seat, 1, name) for seat, name in enumerate(names, start=1)]
    for sitting in (*sittings, *substitutes):
        player = find_or_add_player(session, club, sitting.name)
        session.add(GameSeat(game_id=game.id, seat=sitting.seat, from_hand=sitting.from_hand,
                             player_id=player.id))
    return game


def in_evening(session: Session, evening: Evening | None) -> dict:
    """The column that puts a new game in ``evening`` (written first, if new); none for
    a game of no evening."""
    if evening is None:
        return {}
    session.add(evening)
    session.flush()
    return {"evening_id": evening.id}


def _seat(session, club, names, rules, dealer, drawn, evening, table) -> Game:
    game = seat_game(session, club, names, new_game(
        club, rules, dealer, drawn=drawn, table_number=table, **in_evening(session, evening)))
    session.commit()
    return game
