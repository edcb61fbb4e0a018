"""Starting a game: six players in seats, the house rules and the first dealer; and
who sat in which seat at each hand, once a substitute takes a seat during the game.

A seat's players over a game are its sittings: the player the game started with sits
from hand 1, a substitute from the hand they took the seat at, each until the seat's
next sitting begins. A player sits in one seat, once, in a game: the hands they played
are one unbroken stretch.
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Mapping, Sequence

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


@dataclass(frozen=True)
class Sitting:
    """One player in one seat, from hand ``from_hand`` on until the seat's next sitting
    (if any) begins. ``player_id`` is None for a sitting not stored yet (a file read)."""

    seat: int
    from_hand: int
    name: str
    player_id: int | None = None


@dataclass(frozen=True)
class Stretch:
    """The hands one player sat in their seat: ``first`` to ``last``."""

    sitting: Sitting
    first: int
    last: int

    @property
    def hands(self) -> int:
        return self.last - self.first + 1

    def overlaps(self, other: "Stretch") -> bool:
        """Whether the two sat at the table at one hand at least."""
        return self.first <= other.last and other.first <= self.last


def starting_seating(names: Mapping[int, str]) -> tuple[Sitting, ...]:
    """The six a game starts with, each in their seat from hand 1."""
    return tuple(Sitting(seat, 1, names[seat]) for seat in SEATS)


def sitting_at(seating: Sequence[Sitting], seat: int, number: int) -> Sitting:
    """Who sat in ``seat`` at hand ``number``."""
    return max((s for s in seating if s.seat == seat and s.from_hand <= number),
               key=lambda s: s.from_hand)


def names_at(seating: Sequence[Sitting], number: int) -> dict[int, str]:
    """Seat -> the name of who sat there at hand ``number``."""
    return {seat: sitting_at(seating, seat, number).name for seat in SEATS}


def until(seating: Sequence[Sitting], sitting: Sitting) -> int | None:
    """The last hand of ``sitting``'s stretch: the hand before the seat's next sitting
    begins (None: nobody took the seat after them)."""
    later = [s.from_hand for s in seating
             if s.seat == sitting.seat and s.from_hand > sitting.from_hand]
    return min(later) - 1 if later else None


def stretches(seating: Sequence[Sitting], hands: int) -> list[Stretch]:
    """Each player's stretch of a game of ``hands`` live hands, for those who sat at one
    hand at least (a game with no hand yet: the six who start it, at its first hand)."""
    found = []
    for sitting in seating:
        end, game_end = until(seating, sitting), max(hands, 1)
        last = game_end if end is None else min(end, game_end)
        if sitting.from_hand <= last:
            found.append(Stretch(sitting, sitting.from_hand, last))
    return found


def team_shares(seating: Sequence[Sitting], team_seats: Mapping[str, Sequence[int]],
                hands: int) -> dict[str, dict[int, float]]:
    """Each team's players (by id) with the share of the game's ``hands`` each played:
    1 for a player who sat all game, 8/13 and 5/13 for two who shared a seat over 13
    hands. The shares of one seat's players add up to 1."""
    team_of = {seat: team for team, seats in team_seats.items() for seat in seats}
    shares: dict[str, dict[int, float]] = {team: {} for team in team_seats}
    for stretch in stretches(seating, hands):
        player = stretch.sitting.player_id
        if player is not None:
            shares[team_of[stretch.sitting.seat]][player] = stretch.hands / max(hands, 1)
    return shares


def substitute_problem(seating: Sequence[Sitting], seat: int, from_hand: int, name: str,
                       last_hand: int) -> RuleViolation | None:
    """What is wrong with ``name`` taking ``seat`` from hand ``from_hand`` on, in a game
    whose seating is ``seating``; None if nothing. A substitute comes in at hand 2 at
    the earliest (from hand 1 it is a wrong name, not a substitute) and at ``last_hand``
    at the latest (the next hand of a game in play, the last of a finished one)."""
    if seat not in SEATS:
        return RuleViolation("no_such_seat", f"there is no seat {seat}", seat=seat)
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


def seat_game(session: Session, club: Club, names: Sequence[str], game: Game,
              substitutes: Sequence[Sitting] = ()) -> Game:
    """Add a new game and its six seats (and, for an imported game, its substitutes),
    each name found in the roster or added to it (flushed, not committed)."""
    session.add(game)
    session.flush()
    sittings = [Sitting(seat, 1, name) for seat, name in zip(SEATS, names)]
    for sitting in (*sittings, *substitutes):
        player = find_or_add_player(session, club, sitting.name)
        session.add(GameSeat(game_id=game.id, seat=sitting.seat, from_hand=sitting.from_hand,
                             player_id=player.id))
    return game


def _seat(session, club, names, rules, dealer, drawn, evening) -> Game:
    if evening is not None:
        session.add(evening)
        session.flush()
    game = seat_game(session, club, names, new_game(
        club, rules, dealer, drawn=drawn, evening_id=evening.id if evening else None))
    session.commit()
    return game
