"""A season's ladder, against a plain count written here from README's words: each
ladder's figure, the worst evenings dropped, the minimum to qualify, and ties; then the
ladder of a club's season after many random changes, against a replay of every game.
"""
from __future__ import annotations

import random
from datetime import date, timedelta
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from sqlmodel import Session, select

from scorekeeper.figures.ratings import club_matches, rated_one_by_one, NEW
from scorekeeper.figures.standings import (
    EveningResult, LadderRule, season_standings, standings,
)
from scorekeeper.figures.stats import SeatedGame, player_stats
from scorekeeper.store.models import Evening, Game, Ladder, Player, Season
from scorekeeper.store.replay import load_seated
from tests.test_summaries import EVERY_TABLE, SIXES, fresh_club
from tests.test_summaries_incremental import STEPS, each_change, runs_of, take_step


# --- the ladder, counted by hand -----------------------------------------------------

def plain_ladder(results: list[EveningResult], rule: LadderRule, names: dict[int, str]):
    """README's "Seasons", in loops: [(place or None, name, played, counted, figure)]."""
    places = {}
    for result in results:
        ahead = 0
        for other in results:
            if other.evening_id == result.evening_id and other.won > result.won:
                ahead += 1
        places[result.evening_id, result.player_id] = ahead + 1
    lines = []
    for player in sorted({result.player_id for result in results}):
        figures = []
        for result in results:
            if result.player_id != player:
                continue
            if rule.ranked_by == Ladder.GAMES_WON:
                figures.append(result.won)
            elif rule.ranked_by == Ladder.PLACE:
                figures.append(places[result.evening_id, player])
            else:
                figures.append(result.rating_change)
        # The worst first: fewest won, the highest place, the least gained.
        worst_first = sorted(figures, reverse=rule.ranked_by == Ladder.PLACE)
        kept = list(worst_first)
        dropped = 0
        while dropped < rule.drop_worst and len(kept) > 1:
            kept.pop(0)
            dropped += 1
        figure = (Fraction(sum(kept), len(kept)) if rule.ranked_by == Ladder.PLACE
                  else sum(kept))
        lines.append([len(figures) >= rule.min_evenings, names[player], len(figures),
                      len(kept), figure])
    sign = -1 if rule.ranked_by == Ladder.PLACE else 1
    lines.sort(key=lambda line: (not line[0], -sign * line[4], line[1]))
    ladder = []
    for qualified, name, played, counted, figure in lines:
        place = None
        if qualified:
            place = 1 + len([line for line in lines if line[0] and sign * line[4] > sign * figure])
        ladder.append((place, name, played, counted, figure))
    return ladder


def as_rows(lines):
    return [(line.place, line.name, line.played, line.counted, line.figure) for line in lines]


NAMES = {1: "Ann", 2: "Bob", 3: "Cid", 4: "Dan", 5: "Eve", 6: "Fay", 7: "Gus"}


def random_results(rng: random.Random, evenings: int) -> list[EveningResult]:
    results = []
    for evening in range(1, evenings + 1):
        for player in rng.sample(sorted(NAMES), rng.randint(1, len(NAMES))):
            finished = rng.randint(0, 4)
            results.append(EveningResult(evening, player, finished, rng.randint(0, finished),
                                         rng.randint(-40, 40)))
    return results


@pytest.mark.parametrize("ranked_by", list(Ladder))
@pytest.mark.parametrize("seed", range(25))
def test_each_ladder_equals_a_plain_count(ranked_by, seed):
    rng = random.Random(seed)
    rule = LadderRule(ranked_by, rng.randint(0, 4), rng.randint(0, 3))
    results = random_results(rng, rng.randint(1, 6))
    assert as_rows(standings(results, rule, NAMES)) == plain_ladder(results, rule, NAMES)


def test_games_won_with_a_drop_and_a_minimum():
    results = [EveningResult(1, 1, 3, 3), EveningResult(1, 2, 3, 1), EveningResult(1, 3, 3, 0),
               EveningResult(2, 1, 2, 0), EveningResult(2, 2, 2, 2),
               EveningResult(3, 1, 2, 1), EveningResult(3, 2, 2, 1)]
    rule = LadderRule(Ladder.GAMES_WON, min_evenings=2, drop_worst=1)
    # Ann 3, 0, 1 -> 3 + 1; Bob 1, 2, 1 -> 2 + 1 (one of the 1s dropped); Cid one evening.
    assert as_rows(standings(results, rule, NAMES)) == [
        (1, "Ann", 3, 2, 4), (2, "Bob", 3, 2, 3), (None, "Cid", 1, 1, 0)]


def test_each_evening_is_kept_with_its_figure_and_whether_it_was_dropped():
    results = [EveningResult(1, 1, 3, 3), EveningResult(1, 2, 3, 1), EveningResult(1, 3, 3, 0),
               EveningResult(2, 1, 2, 0), EveningResult(2, 2, 2, 2),
               EveningResult(3, 1, 2, 1), EveningResult(3, 2, 2, 1)]
    rule = LadderRule(Ladder.GAMES_WON, min_evenings=2, drop_worst=1)
    ann, bob, cid = standings(results, rule, NAMES)
    # Ann's 0 of evening 2 dropped; of Bob's two 1s the later one (evening 3).
    assert ann.evenings == {1: (3, False), 2: (0, True), 3: (1, False)}
    assert bob.evenings == {1: (1, False), 2: (2, False), 3: (1, True)}
    assert cid.evenings == {1: (0, False)}  # one evening: never dropped


def test_equal_figures_share_the_better_place_and_go_by_name():
    results = [EveningResult(1, 2, 2, 1), EveningResult(1, 1, 2, 1), EveningResult(1, 3, 2, 0)]
    assert as_rows(standings(results, LadderRule(Ladder.GAMES_WON), NAMES)) == [
        (1, "Ann", 1, 1, 1), (1, "Bob", 1, 1, 1), (3, "Cid", 1, 1, 0)]
    # By place that evening: Ann and Bob share first, Cid is third (two won more).
    assert as_rows(standings(results, LadderRule(Ladder.PLACE), NAMES)) == [
        (1, "Ann", 1, 1, 1), (1, "Bob", 1, 1, 1), (3, "Cid", 1, 1, 3)]


def test_average_place_drops_the_highest_places_and_keeps_one_evening():
    results = [EveningResult(1, 1, 2, 2), EveningResult(1, 2, 2, 0),
               EveningResult(2, 1, 2, 0), EveningResult(2, 2, 2, 1)]
    every_evening = LadderRule(Ladder.PLACE)
    assert as_rows(standings(results, every_evening, NAMES)) == [
        (1, "Ann", 2, 2, Fraction(3, 2)), (1, "Bob", 2, 2, Fraction(3, 2))]
    all_dropped = LadderRule(Ladder.PLACE, drop_worst=5)
    assert as_rows(standings(results, all_dropped, NAMES)) == [
        (1, "Ann", 2, 1, 1), (1, "Bob", 2, 1, 1)]


def test_rating_gained_adds_up_the_evenings_kept():
    results = [EveningResult(1, 1, 1, 1, 20), EveningResult(2, 1, 1, 0, -15),
               EveningResult(1, 2, 1, 0, -5), EveningResult(2, 2, 1, 1, 12)]
    assert as_rows(standings(results, LadderRule(Ladder.RATING, drop_worst=1), NAMES)) == [
        (1, "Ann", 2, 1, 20), (2, "Bob", 2, 1, 12)]
    assert as_rows(standings(results, LadderRule(Ladder.RATING, min_evenings=3), NAMES)) == [
        (None, "Bob", 2, 2, 7), (None, "Ann", 2, 2, 5)]


# --- a club's season after many changes, against a replay ----------------------------

def replayed_results(session: Session, club_id: int, first: date, last: date
                     ) -> list[EveningResult]:
    """Every evening's results replayed from the hands: each counted game's figures by
    ``player_stats``, the ratings by rating every finished game from the first."""
    evenings = dict(session.exec(select(Evening.id, Evening.played_on)
                                 .where(Evening.club_id == club_id)).all())
    games = session.exec(select(Game).where(Game.club_id == club_id,
                                            Game.abandoned_at.is_(None))).all()
    counts: dict[tuple[int, int], list[int]] = {}
    for replay, players in load_seated(session, games):
        evening = replay.game.evening_id
        if evening is None or not first <= evenings[evening] <= last:
            continue
        for player, stats in player_stats([SeatedGame(replay, players)]).items():
            count = counts.setdefault((evening, player), [0, 0, 0])
            count[0] += stats.games.finished
            count[1] += stats.won
    evening_of = {game.id: game.evening_id for game in games}
    rating: dict = {}
    for match, after in rated_one_by_one(club_matches(session, club_id), {}):
        for player, new in after.items():
            key = (evening_of[match.game_id], player)
            if key in counts:
                counts[key][2] += new.points - rating.get(player, NEW).points
            rating[player] = new
    return [EveningResult(evening, player, *count) for (evening, player), count in counts.items()]


def assert_season_matches_a_replay(session: Session, season: Season) -> None:
    """Each ladder of the season, as the page reads it, equals the plain count over a
    replay of every game."""
    names = dict(session.exec(select(Player.id, Player.name)).all())
    results = replayed_results(session, season.club_id, season.starts_on, season.ends_on)
    for ranked_by in Ladder:
        season.ranked_by = ranked_by
        rule = LadderRule(ranked_by, season.min_evenings, season.drop_worst)
        assert as_rows(season_standings(session, season)) == \
            plain_ladder(results, rule, names), ranked_by


def club_season(session: Session, club_id: int, rng: random.Random) -> Season:
    """A season over some of the club's evenings, spread over days for it."""
    evenings = session.exec(select(Evening).where(Evening.club_id == club_id)
                            .order_by(Evening.id)).all()
    start = date(2024, 1, 1)
    for number, evening in enumerate(evenings):
        evening.played_on = start + timedelta(days=7 * number)
        session.add(evening)
    season = Season(club_id=club_id, name="Winter", starts_on=start + timedelta(days=7),
                    ends_on=start + timedelta(days=7 * len(evenings)),
                    ranked_by=rng.choice(list(Ladder)), min_evenings=rng.randint(0, 3),
                    drop_worst=rng.randint(0, 2))
    session.add(season)
    session.commit()
    return season


@pytest.mark.parametrize("layouts", [SIXES, EVERY_TABLE], ids=["six", "every table"])
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rng=st.randoms(use_true_random=False), steps=runs_of(STEPS, 10))
def test_a_seasons_ladder_after_many_changes_equals_a_replay(layouts, rng, steps):
    session, club, _ = fresh_club(4, 8, 70, rng, layouts)
    with session:
        season = club_season(session, club.id, rng)
        each_change(session, steps, lambda game, step: take_step(session, rng, game, step),
                    lambda: assert_season_matches_a_replay(session, season))
