"""Starting a game: six players in seats, the house rules and the first dealer."""
from __future__ import annotations

import secrets
from typing import Sequence

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from scorekeeper.clubs import find_or_add_player
from scorekeeper.models import PLAYER_NAME_LENGTH as MAX_NAME, Club, Evening, Game, GameSeat
from scorekeeper.names import clean_name, name_key
from scorekeeper.rules import SEATS, HouseRules, RuleViolation
from scorekeeper.rules.table import check_seat


def name_problems(names: Sequence[str]) -> list[RuleViolation]:
    """Everything wrong with six names: an empty seat, a name too long or sitting twice."""
    if len(names) != len(SEATS):
        return [RuleViolation("seats_count", "a game needs exactly six players",
                              count=len(names))]
    problems: list[RuleViolation] = []
    seen: dict[str, int] = {}
    for seat, name in zip(SEATS, (clean_name(name or "") for name in names)):
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


def check_names(names: Sequence[str]) -> list[str]:
    """Six names, cleaned; RuleViolation (the first problem) if any is wrong."""
    problems = name_problems(names)
    if problems:
        raise problems[0]
    return [clean_name(name or "") for name in names]


def draw_dealer() -> int:
    """The first dealer drawn at random, as the table would by cutting cards."""
    return secrets.choice(SEATS)


def start_game(
    session: Session,
    club: Club,
    names: Sequence[str],
    rules: HouseRules,
    first_dealer: int | None,
    evening: Evening | None = None,
) -> Game:
    """Seat six players and start a game (``first_dealer`` None: draw one).

    ``evening`` is the evening the game belongs to, stored or new (written with it).
    """
    cleaned = check_names(names)
    drawn = first_dealer is None
    dealer = draw_dealer() if drawn else check_seat(first_dealer)
    try:
        return _seat(session, club, cleaned, rules, dealer, drawn, evening)
    except IntegrityError:
        # Another phone added one of these players to the roster at the same moment:
        # now that they are there, seating them again finds them.
        session.rollback()
        return _seat(session, club, cleaned, rules, dealer, drawn, evening)


def new_game(club: Club, rules: HouseRules, first_dealer: int, *, drawn: bool,
             **kept) -> Game:
    """The one way a game row is made: seated at a table, imported or restored.

    ``kept`` are the columns a restored game brings with it (its id, evening, times).
    """
    return Game(club_id=club.id, teams=str(rules.teams), target=rules.target,
                bidder_goes_out=rules.bidder_goes_out, first_dealer=first_dealer,
                first_dealer_drawn=drawn, **kept)


def seat_game(session: Session, club: Club, names: Sequence[str], game: Game) -> Game:
    """Add a new game and its six seats, each name found in the roster or added to it
    (flushed, not committed)."""
    session.add(game)
    session.flush()
    for seat, name in zip(SEATS, names):
        player = find_or_add_player(session, club, name)
        session.add(GameSeat(game_id=game.id, seat=seat, player_id=player.id))
    return game


def _seat(session, club, names, rules, dealer, drawn, evening) -> Game:
    if evening is not None:
        session.add(evening)
        session.flush()
    game = seat_game(session, club, names, new_game(
        club, rules, dealer, drawn=drawn, evening_id=evening.id if evening else None))
    session.commit()
    return game
