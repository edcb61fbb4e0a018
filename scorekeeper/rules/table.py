"""Seats, teams and house rules (each house rule is declared in ``house``).

RULES.md, "Table" and "House rules".
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from scorekeeper.rules.errors import RuleViolation
from scorekeeper.rules.house import Value, house_values

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


@dataclass(frozen=True, init=False)
class HouseRules:
    """The options a table chooses when a game starts; the game keeps them: its teams,
    its target, and every house rule ``house.HOUSE_RULES`` declares (read by name:
    ``rules.<its name>``), each at its default unless chosen."""

    teams: TeamLayout
    target: int
    house: tuple[tuple[str, Value], ...]  # each house rule's value, as declared

    MIN_TARGET = 1
    MAX_TARGET = 999

    def __init__(self, teams: TeamLayout | str = TeamLayout.THREE_PAIRS, target: int = 21,
                 **house: object) -> None:
        try:
            object.__setattr__(self, "teams", TeamLayout(teams))
        except ValueError:
            raise RuleViolation(
                "teams_invalid", f"teams must be 3x2 or 2x3, not {teams!r}", teams=teams,
            ) from None
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
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "house", tuple(house_values(house).items()))

    def __getattr__(self, name: str) -> Value:
        """A house rule's value, by its name."""
        for rule, value in self.__dict__.get("house", ()):
            if rule == name:
                return value
        raise AttributeError(name)

    @property
    def house_values(self) -> dict[str, Value]:
        """Every house rule's value, by name (as a game keeps them)."""
        return dict(self.house)

    def with_house(self, **changed: object) -> HouseRules:
        """The same rules with some house rules changed."""
        return HouseRules(self.teams, self.target, **{**self.house_values, **changed})

    @property
    def team_seats(self) -> dict[str, tuple[int, ...]]:
        return teams_for(self.teams)

    @property
    def team_names(self) -> tuple[str, ...]:
        return tuple(teams_for(self.teams))
