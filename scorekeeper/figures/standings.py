"""A season's ladder: each player's evenings in it, their worst ones dropped, one figure
over the rest, and the players who played enough evenings ranked first.

Worked out on every visit from the kept figures, which are proven current by the games'
revisions (``summaries``, ``ratings``): nothing of a ladder is stored, so a correction,
an undo, an abandoned game or one taken back shows on the next visit. README's
"Seasons" defines each ladder's figure; ``standings`` is that definition, pure.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from sqlmodel import Session, select

from scorekeeper.figures.ratings import evening_changes
from scorekeeper.figures.summaries import evenings_between
from scorekeeper.store.models import Ladder, Player, Season

# Which way is better for each ladder's figure: higher (1) or lower (-1).
BETTER = {Ladder.GAMES_WON: 1, Ladder.PLACE: -1, Ladder.RATING: 1}


@dataclass(frozen=True)
class LadderRule:
    """What a season ranks by, the evenings a player must play to qualify, and how many
    of each player's worst evenings are left out of the figure."""

    ranked_by: Ladder
    min_evenings: int = 0
    drop_worst: int = 0


@dataclass(frozen=True)
class EveningResult:
    """What one evening gave one of its players: their counted games that finished and
    those won, and how far those games moved their rating's number."""

    evening_id: int
    player_id: int
    finished: int
    won: int
    rating_change: int = 0


@dataclass(frozen=True)
class Standing:
    """A player's line of the ladder: evenings played in the season, evenings counted
    (the worst dropped), the figure over those, and the place on the ladder (None: not
    qualified, listed below the qualified)."""

    player_id: int
    name: str
    played: int
    counted: int
    figure: int | Fraction
    place: int | None
    # Each evening played: its id -> (its figure, whether it was dropped as a worst one).
    evenings: dict[int, tuple[int, bool]] = field(default_factory=dict)

    @property
    def qualified(self) -> bool:
        return self.place is not None


def evening_places(results: list[EveningResult]) -> dict[tuple[int, int], int]:
    """(evening id, player id) -> the player's finishing place that evening: one more
    than the number of the evening's players who won more of its games (equal games won
    share the better place)."""
    won: dict[int, list[int]] = {}
    for result in results:
        won.setdefault(result.evening_id, []).append(result.won)
    return {(result.evening_id, result.player_id):
            1 + sum(other > result.won for other in won[result.evening_id])
            for result in results}


def evening_figure(ranked_by: Ladder, result: EveningResult, place: int) -> int:
    """One evening's share of a player's figure, by the ladder's choice."""
    if ranked_by == Ladder.PLACE:
        return place
    if ranked_by == Ladder.RATING:
        return result.rating_change
    return result.won


def _figure(ranked_by: Ladder, counted: list[int]) -> int | Fraction:
    """The figure over the evenings counted: an average of places, else a sum."""
    if ranked_by == Ladder.PLACE:
        return Fraction(sum(counted), len(counted))
    return sum(counted)


def _standing(rule: LadderRule, player_id: int, name: str, evenings: dict[int, int]
              ) -> Standing:
    """A player's line before the ladder is ranked (qualified: place 0 for now), from
    each evening's figure (evening id -> figure). The worst evenings are dropped while
    one is left; of two equal, the later one."""
    best_first = sorted(evenings, key=lambda evening: (
        -BETTER[rule.ranked_by] * evenings[evening], evening))
    counted = best_first[:max(1, len(evenings) - rule.drop_worst)]
    qualified = len(evenings) >= rule.min_evenings
    return Standing(player_id, name, len(evenings), len(counted),
                    _figure(rule.ranked_by, [evenings[evening] for evening in counted]),
                    0 if qualified else None,
                    {evening: (figure, evening not in counted)
                     for evening, figure in evenings.items()})


def standings(results: list[EveningResult], rule: LadderRule, names: dict[int, str]
              ) -> list[Standing]:
    """The season's ladder from its evenings' results: the qualified first, best figure
    first, an equal figure sharing the better place; then the others, best figure
    first, with no place. Equal figures are listed by name."""
    places = evening_places(results)
    evenings: dict[int, dict[int, int]] = {}
    for result in results:
        evenings.setdefault(result.player_id, {})[result.evening_id] = evening_figure(
            rule.ranked_by, result, places[result.evening_id, result.player_id])
    lines = sorted((_standing(rule, player, names.get(player, ""), figures)
                    for player, figures in evenings.items()),
                   key=lambda line: (not line.qualified, -BETTER[rule.ranked_by] * line.figure,
                                     line.name.casefold(), line.player_id))
    qualified = [line.figure for line in lines if line.qualified]
    return [line if not line.qualified else replace(line, place=1 + sum(
        BETTER[rule.ranked_by] * (other - line.figure) > 0 for other in qualified))
        for line in lines]


def rule_of(season: Season) -> LadderRule:
    return LadderRule(Ladder(season.ranked_by), season.min_evenings, season.drop_worst)


def season_results(session: Session, season: Season) -> list[EveningResult]:
    """Each player's result of each of the season's evenings, from the kept figures
    brought up to date (the rating's moves only where the ladder ranks by them)."""
    games = evenings_between(session, season.club_id, season.starts_on, season.ends_on)
    moves = (evening_changes(session, season.club_id, {row.evening_id for row in games})
             if season.ranked_by == Ladder.RATING else {})
    return [EveningResult(row.evening_id, row.player_id, row.finished, row.won,
                          moves.get((row.evening_id, row.player_id), 0)) for row in games]


def season_standings(session: Session, season: Season) -> list[Standing]:
    """The season's ladder as it stands now."""
    names = dict(session.exec(select(Player.id, Player.name)
                              .where(Player.club_id == season.club_id)).all())
    return standings(season_results(session, season), rule_of(season), names)
