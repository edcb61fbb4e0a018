"""Ratings with substitutes: a player who sat part of a game is rated for the part they
played, and a game without substitutes is rated exactly as openskill rates it.

The rule, worked out here with openskill itself (never with the code under test): each
player goes into the game's update with their mu times their share of the game's hands,
and with their variance times that share, the variance being sigma squared with
openskill's dynamics for one game (tau squared) added, as openskill adds them; the model
then adds no dynamics of its own. They come out having moved by that share of a whole
game's step: mu by what the update gave the shared mu, the variance divided by the share
again. So a player who sat all game (a share of 1) gets openskill's own update, and one
who sat a few hands moves a few hands' worth, the same way as their team.

The games are tests/test_substitutes.py's, laid out and worked out by hand there (seat 1:
Ann hands 1-2, Gil 3-5, Ivy 6-7; seat 4: Dan 1-3, Hal 4-7; C wins, A second with 6, B
third with 4), after tests/test_ratings.py's tied game of the same six.
"""
from __future__ import annotations

import math
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from openskill.models import PlackettLuce
from sqlmodel import select

from scorekeeper.figures import ratings
from scorekeeper.figures.summaries import club_stamp
from scorekeeper.files.exchange import import_game
from scorekeeper.rules import RuleViolation
from scorekeeper.store.db import get_session
from scorekeeper.store.models import ClubRatings, Game, Player, PlayerRating
from scorekeeper.store.replay import load_replay
from scorekeeper.table.corrections import (
    apply, last_substitute_hand, plan_substitute, plan_take_back,
)
from tests.members import first_club
from tests.test_ratings import TIE, points
from tests.test_substitutes import HANDS, SITTINGS, TEAM, play_live, play_then_fix, substitute
from tests.table_games import CUTTHROAT_FIVE, FIVE, PAIRS_AT_FOUR, TWO_PAIRS, game_at
from tests.test_summaries import EVERY_TABLE, SIXES, fresh_club
from tests.test_summaries_incremental import STEPS, each_change, runs_of, take_step
from tests.views.test_view_players import player_id, table_rows
from tests.views.view_helpers import Page

OPENSKILL = PlackettLuce()
WITHOUT_DYNAMICS = PlackettLuce(tau=0.0)  # they are added to each player's variance first

# The tied game: A (Ann, Dan) wins, B (Bob, Eve) and C (Cid, Fay) share second place.
TIE_MATCH = ([{"Ann": 1.0, "Dan": 1.0}, {"Bob": 1.0, "Eve": 1.0}, {"Cid": 1.0, "Fay": 1.0}],
             [1, 2, 2])
RANKS = {"C": 1, "A": 2, "B": 3}  # C 12 wins; A 6; B 4


@pytest.fixture
def session(app):
    with app.app_context():
        yield get_session()


def match_of(sittings: dict[int, list[tuple[int, str]]], hands: int = len(HANDS)):
    """The substitutes' game as a match: each team's players with the share of the
    game's hands each sat (``sittings``: seat -> (first hand, player) in order)."""
    teams: dict[str, dict[str, float]] = {"A": {}, "B": {}, "C": {}}
    for seat, sat in sittings.items():
        firsts = [first for first, _ in sat] + [hands + 1]
        for (first, name), following in zip(sat, firsts[1:]):
            teams[TEAM[seat]][name] = (following - first) / hands
    return [teams[team] for team in "ABC"], [RANKS[team] for team in "ABC"]


def openskill_update(ratings_before, shares, ranks):
    """One game's update by the rule above, team by team: (mu, sigma) pairs in and out."""
    dynamics = OPENSKILL.tau * OPENSKILL.tau
    entered = [[WITHOUT_DYNAMICS.rating(mu=mu * share,
                                        sigma=math.sqrt(share * (sigma * sigma + dynamics)))
                for (mu, sigma), share in zip(team, team_shares)]
               for team, team_shares in zip(ratings_before, shares)]
    rated = WITHOUT_DYNAMICS.rate(entered, ranks=list(ranks))
    return [[(mu + after.mu - mu * share, after.sigma / math.sqrt(share))
             for (mu, _), share, after in zip(team, team_shares, team_after)]
            for team, team_shares, team_after in zip(ratings_before, shares, rated)]


def by_openskill(history) -> tuple[dict[str, tuple[float, float, int]], dict[str, list]]:
    """The history (teams of {name: share}, ranks) rated in order by the rule above:
    each player's (mu, sigma, games) at the end, and their games in the order rated as
    (the game's index, the team's rank, the number before, the number after)."""
    rated: dict[str, tuple[float, float, int]] = {}
    games: dict[str, list] = {}
    start = (OPENSKILL.mu, OPENSKILL.sigma, 0)
    for index, (teams, ranks) in enumerate(history):
        before = [[rated.get(name, start)[:2] for name in team] for team in teams]
        after = openskill_update(before, [list(team.values()) for team in teams], ranks)
        for team, rank, team_after in zip(teams, ranks, after):
            for name, (mu, sigma) in zip(team, team_after):
                was = rated.get(name, start)
                games.setdefault(name, []).append((index, rank, points(was[0]), points(mu)))
                rated[name] = (mu, sigma, was[2] + 1)
    return rated, games


def kept(session, club_id: int) -> dict[str, tuple[float, float, int]]:
    names = dict(session.exec(select(Player.id, Player.name)).all())
    return {names[player]: (rating.mu, rating.sigma, rating.games)
            for player, rating in ratings.club_ratings(session, club_id).items()}


def assert_same(found, expected) -> None:
    assert set(found) == set(expected)
    for name, (mu, sigma, games) in expected.items():
        assert found[name] == (pytest.approx(mu, abs=1e-9), pytest.approx(sigma, abs=1e-9),
                               games), name


def assert_kept_equals_a_full_re_rate(session, club_id: int) -> None:
    assert ratings.club_ratings(session, club_id) == ratings.rate(
        ratings.club_matches(session, club_id))
    assert session.get(ClubRatings, club_id).stamp == club_stamp(session, club_id)


# --- one game's update ----------------------------------------------------------------

def test_the_worked_match_is_the_table_of_sittings():
    teams, ranks = match_of(SITTINGS)
    assert teams == [{"Ann": 2 / 7, "Gil": 3 / 7, "Ivy": 2 / 7, "Dan": 3 / 7, "Hal": 4 / 7},
                     {"Bob": 1.0, "Eve": 1.0}, {"Cid": 1.0, "Fay": 1.0}]
    assert ranks == [2, 3, 1]


def some_ratings(rng: random.Random, sizes) -> list[list[ratings.Rating]]:
    return [[ratings.Rating(rng.uniform(10, 40), rng.uniform(0.3, 9), rng.randrange(40))
             for _ in range(size)] for size in sizes]


@settings(max_examples=300, deadline=None)
@given(rng=st.randoms(use_true_random=False), layout=st.sampled_from([(2, 2, 2), (3, 3)]))
def test_a_game_without_substitutes_is_openskills_own_update_to_the_last_digit(rng, layout):
    before = some_ratings(rng, layout)
    ranks = [rng.randint(1, len(layout)) for _ in layout]
    plain = OPENSKILL.rate([[OPENSKILL.rating(mu=r.mu, sigma=r.sigma) for r in team]
                            for team in before], ranks=list(ranks))
    expected = [[(r.mu, r.sigma, b.games + 1) for r, b in zip(team, team_before)]
                for team, team_before in zip(plain, before)]
    for shares in ((), [[1.0] * size for size in layout]):
        after = ratings.rated_match(before, ranks, shares)
        assert [[(r.mu, r.sigma, r.games) for r in team] for team in after] == expected


@settings(max_examples=200, deadline=None)
@given(rng=st.randoms(use_true_random=False),
       share=st.floats(min_value=1e-9, max_value=1.0, exclude_max=True))
def test_a_part_of_a_game_moves_a_player_by_that_part_of_a_whole_games_step(rng, share):
    # Two teams of three. In A, a substitute sat ``share`` of the game in seat 1 (the
    # player before them the rest), and a partner with the substitute's very rating sat
    # all game in seat 3.
    sub = some_ratings(rng, (1,))[0][0]
    partner = ratings.Rating(sub.mu, sub.sigma, 7)
    before = [[sub, *some_ratings(rng, (2,))[0], partner], some_ratings(rng, (3,))[0]]
    shares = [[share, 1 - share, 1.0, 1.0], [1.0, 1.0, 1.0]]
    ranks = rng.choice([(1, 2), (2, 1)])
    after = ratings.rated_match(before, ranks, shares)
    moved, whole = after[0][0], after[0][3]
    whole_variance = sub.sigma ** 2 + OPENSKILL.tau ** 2  # a game's dynamics, as ever
    # mu: that share of the whole game's step.
    assert moved.mu - sub.mu == pytest.approx(share * (whole.mu - sub.mu), rel=1e-7,
                                              abs=1e-12)
    # sigma: the variance shrinks by that share of the whole game's shrinking.
    assert moved.sigma ** 2 / whole_variance - 1 == pytest.approx(
        share * (whole.sigma ** 2 / whole_variance - 1), rel=1e-6, abs=1e-12)
    assert whole.sigma <= moved.sigma + 1e-12
    assert moved.sigma <= math.sqrt(whole_variance) + 1e-12
    assert (moved.games, whole.games) == (sub.games + 1, 8)
    # The sign of a change follows the result: of two teams, the winner's players rise,
    # the loser's fall, however little each of them played (a step too small for mu's
    # digits leaves it where it was).
    up = 1 if ranks[0] == 1 else -1
    assert all((r.mu - b.mu) * up >= 0 for r, b in zip(after[0], before[0]))
    assert all((r.mu - b.mu) * up <= 0 for r, b in zip(after[1], before[1]))
    assert (whole.mu - partner.mu) * up > 0


def test_a_tiny_share_moves_a_player_hardly_at_all():
    before = [[ratings.Rating(30.0, 1.0, 50), ratings.Rating(25.0, 8.0, 0)],
              [ratings.Rating(20.0, 1.0, 50), ratings.Rating(25.0, 1.0, 50)]]
    after = ratings.rated_match(before, (2, 1), [[1e-6, 1.0], [1.0, 1.0]])
    barely = after[0][0]
    assert abs(barely.mu - 30.0) < 1e-6
    # Sigma as after any game: openskill's dynamics for one game, nothing more.
    assert barely.sigma == pytest.approx(math.sqrt(1.0 + OPENSKILL.tau ** 2), rel=1e-6)


def test_three_teams_with_substitutes_are_rated_as_openskill_rates_the_rule():
    rng = random.Random(3)
    before = some_ratings(rng, (3, 2, 2))  # a seat of A shared by two players
    shares = [[0.25, 0.75, 1.0], [1.0, 1.0], [1.0, 1.0]]
    for ranks in ((1, 2, 3), (3, 1, 2), (2, 2, 1)):
        expected = openskill_update([[(r.mu, r.sigma) for r in team] for team in before],
                                    shares, ranks)
        after = ratings.rated_match(before, ranks, shares)
        assert [[(r.mu, r.sigma) for r in team] for team in after] == [
            [(pytest.approx(mu, abs=1e-9), pytest.approx(sigma, abs=1e-9))
             for mu, sigma in team] for team in expected]


# --- a club's games -------------------------------------------------------------------

def a_club_with_the_substitutes_game(session, build=play_live) -> tuple[int, Game]:
    club = first_club(session)
    import_game(session, club, TIE)
    return club.id, build(session)


def test_a_club_rates_each_player_for_the_hands_they_sat(session):
    club_id, game = a_club_with_the_substitutes_game(session)
    expected, _ = by_openskill([TIE_MATCH, match_of(SITTINGS)])
    assert_same(kept(session, club_id), expected)
    assert_kept_equals_a_full_re_rate(session, club_id)
    # Kept game by game, with each player's share of the game's hands.
    names = dict(session.exec(select(Player.id, Player.name)).all())
    rows = session.exec(select(PlayerRating).where(PlayerRating.game_id == game.id)).all()
    teams, _ = match_of(SITTINGS)
    assert {names[row.player_id]: (row.team, row.share) for row in rows} == {
        name: (index, pytest.approx(share)) for index, team in enumerate(teams)
        for name, share in team.items()}


def test_a_club_without_substitutes_is_rated_exactly_as_openskill_rates_it(session):
    club = first_club(session)
    import_game(session, club, TIE)
    teams, ranks = TIE_MATCH
    rated = OPENSKILL.rate([[OPENSKILL.rating() for _ in team] for team in teams], ranks=ranks)
    assert kept(session, club.id) == {name: (after.mu, after.sigma, 1)
                                      for team, team_after in zip(teams, rated)
                                      for name, after in zip(team, team_after)}
    assert {row.share for row in session.exec(select(PlayerRating))} == {1.0}


def without(sittings, seat: int, name: str):
    return {s: [(first, who) for first, who in sat if not (s == seat and who == name)]
            for s, sat in sittings.items()}


def test_a_substitute_taken_back_or_put_in_later_re_rates_from_that_game_on(session):
    # Two games with the same substitutes; rated and kept; then the first one corrected,
    # so that the second is rated again from its kept rows (shares and all).
    club_id, first = a_club_with_the_substitutes_game(session, play_then_fix)
    play_live(session)  # the second
    both = match_of(SITTINGS)
    expected, _ = by_openskill([TIE_MATCH, both, both])
    assert_same(kept(session, club_id), expected)

    replay = load_replay(session, first)
    apply(session, replay, plan_take_back(replay, 1, 3), first.revision)  # Gil never came
    taken_back = match_of(without(SITTINGS, 1, "Gil"))
    assert taken_back[0][0] == {"Ann": 5 / 7, "Ivy": 2 / 7, "Dan": 3 / 7, "Hal": 4 / 7}
    expected, _ = by_openskill([TIE_MATCH, taken_back, both])
    assert_same(kept(session, club_id), expected)
    assert_kept_equals_a_full_re_rate(session, club_id)

    substitute(session, first, 2, 5, "Jo")  # Jo took Bob's seat from hand 5 on
    put_in = {**without(SITTINGS, 1, "Gil"), 2: [(1, "Bob"), (5, "Jo")]}
    teams, ranks = match_of(put_in)
    assert teams[1] == {"Bob": 4 / 7, "Jo": 3 / 7, "Eve": 1.0}
    expected, _ = by_openskill([TIE_MATCH, (teams, ranks), both])
    assert_same(kept(session, club_id), expected)
    assert_kept_equals_a_full_re_rate(session, club_id)


def test_substitutes_at_four_and_five_are_rated_for_the_hands_they_sat(session):
    club = first_club(session)
    five = game_at(session, club, "c5", FIVE, 5, CUTTHROAT_FIVE, target=5)
    substitute(session, five, 3, 3, "Gus")  # Cid's seat (C) from hand 3 of 4
    pairs = game_at(session, club, "2x2", PAIRS_AT_FOUR, 1, TWO_PAIRS, target=5)
    substitute(session, pairs, 2, 2, "Hal")  # Ann's seat (B) from hand 2 of 2
    five_match = ([{"Ann": 1.0}, {"Bob": 1.0}, {"Cid": 0.5, "Gus": 0.5}, {"Dan": 1.0},
                   {"Eve": 1.0}], [1, 3, 2, 5, 4])
    pairs_match = ([{"Cid": 1.0, "Dan": 1.0}, {"Ann": 0.5, "Hal": 0.5, "Bob": 1.0}], [1, 2])
    expected, _ = by_openskill([five_match, pairs_match])
    assert_same(kept(session, club.id), expected)
    assert_kept_equals_a_full_re_rate(session, club.id)


SUBSTITUTE_STEPS = STEPS + ("substitute", "take back")


def a_substitute_step(session, rng: random.Random, game: Game, step: str) -> None:
    """A substitute put in or taken back as a scorer would; a refused one changes nothing."""
    replay = load_replay(session, game)
    if step == "take back" and replay.substitutes:
        gone = rng.choice(replay.substitutes)
        apply(session, replay, plan_take_back(replay, gone.seat, gone.from_hand), game.revision)
    elif step == "substitute" and last_substitute_hand(replay) >= 2:
        roster = [p.name for p in session.exec(select(Player))]
        name = rng.choice(roster + [f"Sub {rng.randrange(100)}"])
        try:
            plan = plan_substitute(replay, rng.randint(1, replay.rules.seats),
                                   rng.randint(2, last_substitute_hand(replay)), name)
        except RuleViolation:  # someone at the table already, say
            return
        apply(session, replay, plan, game.revision)
    elif step in STEPS:
        take_step(session, rng, game, step)


@pytest.mark.parametrize("layouts", [SIXES, EVERY_TABLE], ids=["six", "every table"])
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rng=st.randoms(use_true_random=False), steps=runs_of(SUBSTITUTE_STEPS, 12))
def test_substitutes_put_in_and_taken_back_always_leave_a_full_re_rate(layouts, rng, steps):
    session, club, _ = fresh_club(2, 6, 80, rng, layouts)
    with session:
        each_change(session, steps,
                    lambda game, step: a_substitute_step(session, rng, game, step),
                    lambda: assert_kept_equals_a_full_re_rate(session, club.id))


# --- the pages ------------------------------------------------------------------------

def change(before: int, after: int) -> str:
    """A change as the pages write it: +14, −9 (a real minus sign), +0."""
    return f"+{after - before}" if after >= before else f"−{before - after}"


def test_the_pages_give_each_substitutes_change_after_the_game(session, client):
    _club_id, game = a_club_with_the_substitutes_game(session)
    _, games = by_openskill([TIE_MATCH, match_of(SITTINGS)])
    last = {name: change(before, after) for name, played in games.items()
            for index, _rank, before, after in played if index == 1}
    assert set(last) == {"Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gil", "Hal", "Ivy"}
    rises = sorted(last, key=lambda name: (-int(last[name].replace("−", "-")), name))
    line = Page(client.get("/players?sort=rating")).by_id("latest-rated")
    assert line.text() == "After game %d, the latest game over: %s." % (
        game.id, ", ".join(f"{name} {last[name]}" for name in rises))
    for name in ("Gil", "Ivy", "Ann"):
        page = Page(client.get(f"/players/{player_id(session, name)}"))
        played = games[name]
        assert page.section_text("rating-now") == (
            f"new · Rated games: {len(played)} · {last[name]} after game {game.id}"), name
        rated = table_rows(page, "rating-games")[1:]
        assert [row[2] for row in rated] == [
            change(before, after) for _, _, before, after in reversed(played)], name
        assert rated[0][:2] == [f"Game {game.id}", "Second"], name  # A: 6, second
