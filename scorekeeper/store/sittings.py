"""Who sat in which seat at each hand, once a substitute takes a seat during the game.

A seat's players over a game are its sittings: the player the game started with sits
from hand 1, a substitute from the hand they took the seat at, each until the seat's
next sitting begins. A player sits in one seat, once, in a game: the hands they played
are one unbroken stretch.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence



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
    """The players a game starts with, each in their seat from hand 1."""
    return tuple(Sitting(seat, 1, names[seat]) for seat in sorted(names))


def sitting_at(seating: Sequence[Sitting], seat: int, number: int) -> Sitting:
    """Who sat in ``seat`` at hand ``number``."""
    return max((s for s in seating if s.seat == seat and s.from_hand <= number),
               key=lambda s: s.from_hand)


def names_at(seating: Sequence[Sitting], number: int) -> dict[int, str]:
    """Seat -> the name of who sat there at hand ``number``."""
    return {seat: sitting_at(seating, seat, number).name for seat in seats_of(seating)}


def seats_of(seating: Sequence[Sitting]) -> tuple[int, ...]:
    """The table's seats, 1 first (4, 5 or 6 of them: every seat has a sitting from
    hand 1)."""
    return tuple(sorted({sitting.seat for sitting in seating}))


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
