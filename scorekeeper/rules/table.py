"""Seats, teams and house rules.

RULES.md, "Table" and "House rules".
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from scorekeeper.rules.errors import RuleViolation

SEATS = (1, 2, 3, 4, 5, 6)


class TeamLayout(StrEnum):
    """How six seats make teams. Partners never sit side by side."""

    THREE_PAIRS = "3x2"  # the default: A = 1 & 4, B = 2 & 5, C = 3 & 6
    TWO_TRIOS = "2x3"  # house rule: A = 1, 3, 5; B = 2, 4, 6


_TEAMS = {
    TeamLayout.THREE_PAIRS: {"A": (1, 4), "B": (2, 5), "C": (3, 6)},
    TeamLayout.TWO_TRIOS: {"A": (1, 3, 5), "B": (2, 4, 6)},
}


def teams_for(layout: TeamLayout) -> dict[str, tuple[int, ...]]:
    """Team letter -> its seats, team A first (team A always holds seat 1)."""
    return dict(_TEAMS[TeamLayout(layout)])


def team_of(seat: int, layout: TeamLayout) -> str:
    """The team letter of a seat."""
    check_seat(seat)
    for team, seats in _TEAMS[TeamLayout(layout)].items():
        if seat in seats:
            return team
    raise AssertionError("every seat has a team")  # pragma: no cover


def left_of(seat: int) -> int:
    """The next seat clockwise: the deal and the bidding move this way (6 -> 1)."""
    check_seat(seat)
    return seat % 6 + 1


def check_seat(seat: object) -> int:
    if not isinstance(seat, int) or isinstance(seat, bool) or seat not in SEATS:
        raise RuleViolation("seat_invalid", f"{seat!r} is not a seat (1-6)", seat=seat)
    return seat


@dataclass(frozen=True)
class HouseRules:
    """The options a table chooses when a game starts; the game keeps them."""

    teams: TeamLayout = TeamLayout.THREE_PAIRS
    target: int = 21
    bidder_goes_out: bool = False

    MIN_TARGET = 1
    MAX_TARGET = 999

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "teams", TeamLayout(self.teams))
        except ValueError:
            raise RuleViolation(
                "teams_invalid", f"teams must be 3x2 or 2x3, not {self.teams!r}",
                teams=self.teams,
            ) from None
        target = self.target
        if (
            not isinstance(target, int) or isinstance(target, bool)
            or not self.MIN_TARGET <= target <= self.MAX_TARGET
        ):
            raise RuleViolation(
                "target_invalid",
                f"the target must be a whole number from {self.MIN_TARGET} to "
                f"{self.MAX_TARGET}, not {target!r}",
                target=target, low=self.MIN_TARGET, high=self.MAX_TARGET,
            )
        if not isinstance(self.bidder_goes_out, bool):
            raise RuleViolation(
                "bidder_goes_out_invalid", "bidder_goes_out must be true or false",
            )

    @property
    def team_seats(self) -> dict[str, tuple[int, ...]]:
        return teams_for(self.teams)

    @property
    def team_names(self) -> tuple[str, ...]:
        return tuple(teams_for(self.teams))
