"""The six points of a hand and what a hand scores.

RULES.md, "The six points of a hand" and "Scoring after each hand".
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Mapping

from scorekeeper.rules.cards import GAME_TOTAL
from scorekeeper.rules.errors import RuleViolation


class Point(StrEnum):
    HIGH = "high"
    LOW = "low"
    RIGHT = "right"
    LEFT = "left"
    JOKER = "joker"
    GAME = "game"


# High, Low, both Bauers and the Joker are in play in every hand: each goes to one team.
CARD_POINTS = (Point.HIGH, Point.LOW, Point.RIGHT, Point.LEFT, Point.JOKER)
POINTS = (*CARD_POINTS, Point.GAME)


def _check_team(point: str, team: object, teams: tuple[str, ...]) -> str:
    if team not in teams:
        raise RuleViolation(
            "point_not_a_team",
            f"{point}: {team!r} is not a team of this game ({', '.join(teams)})",
            point=point, team=team, teams=teams,
        )
    return team  # type: ignore[return-value]


def decide_game(game_values: Mapping[str, object], teams: tuple[str, ...]) -> str | None:
    """The team with the most game value, or None when the most is tied."""
    values: dict[str, int] = {}
    for team, value in game_values.items():
        _check_team("game_values", team, teams)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise RuleViolation(
                "game_value_invalid",
                f"team {team}'s game value must be a whole number of 0 or more, not {value!r}",
                team=team, value=value,
            )
        values[team] = value
    total = sum(values.values())
    if total > GAME_TOTAL:
        raise RuleViolation(
            "game_values_over",
            f"game values add up to {total}, more than the {GAME_TOTAL} the deck holds",
            total=total, limit=GAME_TOTAL,
        )
    most = max(values.values(), default=0)
    leaders = [team for team in teams if values.get(team, 0) == most]
    return leaders[0] if len(leaders) == 1 else None


@dataclass(frozen=True)
class Tally:
    """Who took which point in one hand.

    ``card_points`` maps High, Low, Right, Left and Joker to a team. ``game`` is the team
    that took Game, or None when the most game value was tied. Give ``game_values`` (a
    number per team) instead and Game is decided from them.
    """

    card_points: Mapping[str, str]
    game: str | None = None
    game_values: Mapping[str, int] | None = field(default=None)

    def checked(self, teams: tuple[str, ...]) -> "Tally":
        """This tally, checked against the game's teams; Game decided if values given."""
        card_points: dict[str, str] = {}
        unknown = set(self.card_points) - {p.value for p in CARD_POINTS}
        if unknown:
            name = sorted(unknown)[0]
            raise RuleViolation("point_unknown", f"{name!r} is not a point", point=name)
        for point in CARD_POINTS:
            team = self.card_points.get(point.value)
            if team is None:
                raise RuleViolation(
                    "point_unassigned",
                    f"{point.value} must go to exactly one team; none was chosen",
                    point=point.value,
                )
            card_points[point.value] = _check_team(point.value, team, teams)
        game = self.game
        values = None
        if self.game_values is not None:
            values = dict(self.game_values)
            decided = decide_game(values, teams)
            if game is not None and game != decided:
                raise RuleViolation(
                    "game_disagrees",
                    "the Game team does not match the game values",
                    game=game, decided=decided,
                )
            game = decided
        elif game is not None:
            _check_team("game", game, teams)
        return Tally(card_points, game, values)

    def points_taken(self, teams: tuple[str, ...]) -> dict[str, int]:
        """Points per team: one for each card point, one for Game (if anybody won it)."""
        taken = {team: 0 for team in teams}
        for team in self.card_points.values():
            taken[team] += 1
        if self.game is not None:
            taken[self.game] += 1
        return taken


@dataclass(frozen=True)
class HandScore:
    """What one played hand did to the scores."""

    bidding_team: str
    bid: int
    taken: dict[str, int]
    made: bool
    score_change: dict[str, int]


def score_hand(
    teams: tuple[str, ...], bidding_team: str, bid: int, tally: Tally
) -> HandScore:
    """Score a hand: the bidding team scores +P if P >= bid, else -bid; others score +P."""
    tally = tally.checked(teams)
    taken = tally.points_taken(teams)
    made = taken[bidding_team] >= bid
    change = dict(taken)
    if not made:
        change[bidding_team] = -bid  # set: the points it took are lost
    return HandScore(bidding_team, bid, taken, made, change)
