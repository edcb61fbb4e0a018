"""Seats, teams and house rules (each house rule is declared in ``house``).

RULES.md, "Table", "Tables of four, five and six", "House rules" and "Bidding" (the
bids there are: the house rule *lowest bid*).
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Iterable

from scorekeeper.rules.errors import RuleViolation
from scorekeeper.rules.house import Value, house_values

SEATS = (1, 2, 3, 4, 5, 6)  # a table of six, the game as the seeds deal it
TABLE_SIZES = (4, 5, 6)  # how many may sit at a table
HIGHEST_BID = 6  # all six points of a hand
TEAM_LETTERS = "ABCDEF"  # team A holds seat 1; cutthroat at six has six teams


class TeamLayout(StrEnum):
    """How a table's seats make teams. Partners never sit side by side."""

    THREE_PAIRS = "3x2"  # six seats, the default: A = 1 & 4, B = 2 & 5, C = 3 & 6
    TWO_TRIOS = "2x3"  # six seats, house rule: A = 1, 3, 5; B = 2, 4, 6
    TWO_PAIRS = "2x2"  # four seats, the default: A = 1 & 3, B = 2 & 4
    CUTTHROAT_FOUR = "c4"  # four seats, house rule: each player a team, A = 1 ... D = 4
    CUTTHROAT_FIVE = "c5"  # five seats: each player a team, A = 1 ... E = 5
    CUTTHROAT_SIX = "c6"  # six seats, house rule: each player a team, A = 1 ... F = 6

    @property
    def seats(self) -> int:
        """How many sit at the table."""
        return _SEATED[self]

    @property
    def seat_numbers(self) -> tuple[int, ...]:
        """The table's seats, 1 first: 1 to 4, 5 or 6."""
        return tuple(range(1, self.seats + 1))

    @property
    def cutthroat(self) -> bool:
        """Each player a team of one."""
        return len(_TEAMS[self]) == self.seats


def _alone(seats: int) -> dict[str, tuple[int, ...]]:
    """Cutthroat: seat 1 is team A, seat 2 team B, and so on."""
    return {TEAM_LETTERS[seat - 1]: (seat,) for seat in range(1, seats + 1)}


_TEAMS = {
    TeamLayout.THREE_PAIRS: {"A": (1, 4), "B": (2, 5), "C": (3, 6)},
    TeamLayout.TWO_TRIOS: {"A": (1, 3, 5), "B": (2, 4, 6)},
    TeamLayout.TWO_PAIRS: {"A": (1, 3), "B": (2, 4)},
    TeamLayout.CUTTHROAT_FOUR: _alone(4),
    TeamLayout.CUTTHROAT_FIVE: _alone(5),
    TeamLayout.CUTTHROAT_SIX: _alone(6),
}
_SEATED = {layout: sum(map(len, teams.values())) for layout, teams in _TEAMS.items()}


def layouts_for(seats: int) -> tuple[TeamLayout, ...]:
    """The layouts a table of ``seats`` may play, its default first."""
    return tuple(layout for layout in TeamLayout if layout.seats == seats)


def check_layout(value: object, among: Iterable[TeamLayout] = tuple(TeamLayout)) -> TeamLayout:
    """``value`` as a layout, if it is one of ``among`` (every layout unless given)."""
    among = tuple(among)
    if isinstance(value, str) and value in among:
        return TeamLayout(value)
    names = [str(layout) for layout in among]
    either = f"{', '.join(names[:-1])} or {names[-1]}" if len(names) > 1 else names[0]
    raise RuleViolation(
        "teams_invalid", f"teams must be {either}, not {value!r}", teams=value,
    )


def teams_for(layout: TeamLayout) -> dict[str, tuple[int, ...]]:
    """Team letter -> its seats, team A first (team A always holds seat 1)."""
    return dict(_TEAMS[TeamLayout(layout)])


def team_of(seat: int, layout: TeamLayout) -> str:
    """The team letter of a seat."""
    layout = TeamLayout(layout)
    check_seat(seat, layout.seats)
    for team, seats in _TEAMS[layout].items():
        if seat in seats:
            return team
    raise AssertionError("every seat has a team")  # pragma: no cover


def left_of(seat: int, seats: int = 6) -> int:
    """The next seat clockwise at a table of ``seats``: the deal and the bidding move
    this way (6 -> 1 at six, 4 -> 1 at four)."""
    check_seat(seat, seats)
    return seat % seats + 1


def check_table(seats: object) -> int:
    """``seats`` if a table may seat that many players (4, 5 or 6)."""
    if not isinstance(seats, int) or isinstance(seats, bool) or seats not in TABLE_SIZES:
        raise RuleViolation("table_invalid", f"a table seats 4, 5 or 6, not {seats!r}",
                            seats=seats)
    return seats


def check_seat(seat: object, seats: int = 6) -> int:
    """``seat`` if it is a seat at a table of ``seats`` (1 to ``seats``)."""
    check_table(seats)
    if not isinstance(seat, int) or isinstance(seat, bool) or not 1 <= seat <= seats:
        raise RuleViolation("seat_invalid", f"{seat!r} is not a seat (1-{seats})", seat=seat,
                            seats=seats)
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
        object.__setattr__(self, "teams", check_layout(teams))
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
    def bids(self) -> tuple[int, ...]:
        """The bids a seat may make, lowest first: from the house rule's lowest bid (3,
        the game's own, or 2) to 6 (RULES.md, "Bidding")."""
        return tuple(range(self.lowest_bid, HIGHEST_BID + 1))

    @property
    def seats(self) -> int:
        """How many sit at the table: the layout says."""
        return self.teams.seats

    @property
    def seat_numbers(self) -> tuple[int, ...]:
        """The table's seats, 1 first: the layout says."""
        return self.teams.seat_numbers

    @property
    def team_seats(self) -> dict[str, tuple[int, ...]]:
        return teams_for(self.teams)

    @property
    def team_names(self) -> tuple[str, ...]:
        return tuple(teams_for(self.teams))
