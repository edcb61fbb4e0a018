"""Ratings: openskill's Plackett-Luce over a club's finished games, kept game by game.

A small history made by hand is rated here with openskill itself, match by match, and
compared with what the club keeps (a tie on score, two teams of three, an edit that hands
the win to another team, an abandoned game); then many changes of every kind in a row are
compared with a rating of the whole history from its hands, the usual change (a game
ending) is shown to rate that one game alone, and pages rating at the same moment never
fail or keep wrong ratings. The number pages show (1500, 48 points per point of mu, "new"
until 3 games) and each game's change of it are worked out here from openskill's mu.
"""
from __future__ import annotations

import json
import random
from concurrent.futures import ThreadPoolExecutor
from datetime import date, datetime, timezone

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from openskill.models import PlackettLuce
from sqlmodel import Session, select

from scorekeeper import create_app

from scorekeeper.figures import ratings
from scorekeeper.figures.summaries import club_stamp
from scorekeeper.files.exchange import import_game
from scorekeeper.rules import Deal, Tally
from scorekeeper.store.models import (
    Club, ClubRatings, Evening, Game, Player, PlayerRating, RatedGame,
)
from scorekeeper.store.replay import load_replay
from scorekeeper.table.corrections import apply, edit_hand, plan_abandon
from tests.databases import database_url
from tests.members import first_club_id
from tests.table_games import (
    CUTTHROAT_FIVE, CUTTHROAT_FOUR, FIVE, FOUR_ALONE, P, PAIRS_AT_FOUR, TWO_PAIRS, game_at,
)
from tests.test_summaries import EVERY_TABLE, SIXES, fresh_club
from tests.test_summaries_incremental import (
    STEPS, a_hand_on_the_newest_game, each_change, runs_of, take_step,
)

ALL_A = {"high": "A", "low": "A", "right": "A", "left": "A", "joker": "A", "game": "A"}


def game_file(seats, teams, hands, target=3, first_dealer=6) -> str:
    return json.dumps({"format": "schmier-game/1",
                       "rules": {"teams": teams, "target": target, "bidder_goes_out": False},
                       "seats": seats, "first_dealer": first_dealer, "hands": hands})


# Seat 1 (left of the dealer, seat 6) bids 3; A = seats 1 & 4, B = 2 & 5, C = 3 & 6.
# A takes High, Low, Right: 3, made, and out at the target of 3.
TIE = game_file(["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"], "3x2", [
    {"auction": [3, P, P, P, P, P], "trump": "hearts",
     "points": {"high": "A", "low": "A", "right": "A", "left": "B", "joker": "C",
                "game": None}}])  # A 3, B 1, C 1: B and C share second place
# Two teams of three, A = seats 1, 3, 5: A bids 3 and takes everything.
TRIOS = game_file(["Ann", "Gus", "Bob", "Hal", "Cid", "Ida"], "2x3", [
    {"auction": [3, P, P, P, P, P], "trump": "clubs", "points": ALL_A}])
# Seat 1 (Gus, A with Eve) bids 3 and takes High, Low, Game; B (Ann, Cid) takes Right,
# Left, Joker: both reach 3, tied on the highest score, and the bidding team wins (RULES.md,
# end of the game). B, level with the winner, is second; C (Bob, Dan) third with 0.
CLOSE = game_file(["Gus", "Ann", "Bob", "Eve", "Cid", "Dan"], "3x2", [
    {"auction": [3, P, P, P, P, P], "trump": "spades",
     "points": {"high": "A", "low": "A", "right": "B", "left": "B", "joker": "B",
                "game": "A"}}])
# Abandoned once over: it counts for nothing.
LOST = game_file(["Hal", "Ida", "Ann", "Bob", "Cid", "Dan"], "3x2", [
    {"auction": [3, P, P, P, P, P], "trump": "diamonds", "points": ALL_A}])


@pytest.fixture
def club_session():
    app = create_app({"TESTING": True, "DATABASE_URL": database_url(), "SECRET_KEY": "t"})
    with Session(app.extensions["db_engine"], expire_on_commit=False) as session:
        yield session, session.get(Club, first_club_id(app))


def by_openskill(history) -> dict[str, tuple[float, float, int]]:
    """The history (teams of names, ranks) rated by openskill itself, in order."""
    model = PlackettLuce()
    rated, games = {}, {}
    for teams, ranks in history:
        before = [[rated.get(name, model.rating()) for name in team] for team in teams]
        for team, after in zip(teams, model.rate(before, ranks=ranks)):
            for name, rating in zip(team, after):
                rated[name], games[name] = rating, games.get(name, 0) + 1
    return {name: (rating.mu, rating.sigma, games[name]) for name, rating in rated.items()}


def kept(session: Session, club: Club) -> dict[str, tuple[float, float, int]]:
    names = dict(session.exec(select(Player.id, Player.name)).all())
    return {names[player_id]: (rating.mu, rating.sigma, rating.games)
            for player_id, rating in ratings.club_ratings(session, club.id).items()}


def assert_same(found, expected):
    assert set(found) == set(expected)
    for name, (mu, sigma, games) in expected.items():
        assert found[name] == (pytest.approx(mu, abs=1e-9), pytest.approx(sigma, abs=1e-9),
                               games), name


def assert_kept_equals_a_rating_from_the_hands(session: Session, club: Club) -> None:
    matches = ratings.club_matches(session, club.id)
    assert ratings.club_ratings(session, club.id) == ratings.rate(matches)
    assert session.get(ClubRatings, club.id).stamp == club_stamp(session, club.id)
    # Every kept row too, each player's games counted 1, 2, … in the order rated: a
    # game's change is read from the player's row with one game fewer.
    assert {(game_id, player_id): (mu, sigma, games) for game_id, player_id, mu, sigma, games
            in session.exec(select(PlayerRating.game_id, PlayerRating.player_id,
                                   PlayerRating.mu, PlayerRating.sigma, PlayerRating.games)
                            .join(RatedGame, RatedGame.game_id == PlayerRating.game_id)
                            .where(RatedGame.club_id == club.id))} == {
        (match.game_id, player_id): (rating.mu, rating.sigma, rating.games)
        for match, after in ratings.rated_one_by_one(matches, {})
        for player_id, rating in after.items()}


def test_a_hand_made_history_is_rated_as_openskill_rates_it(club_session):
    session, club = club_session
    tie, trios, close, lost = (import_game(session, club, raw) for raw in (TIE, TRIOS, CLOSE, LOST))
    apply(session, load_replay(session, lost), plan_abandon(load_replay(session, lost), True),
          lost.revision)
    tie_match = ([["Ann", "Dan"], ["Bob", "Eve"], ["Cid", "Fay"]], [1, 2, 2])
    trios_match = ([["Ann", "Bob", "Cid"], ["Gus", "Hal", "Ida"]], [1, 2])
    close_match = ([["Gus", "Eve"], ["Ann", "Cid"], ["Bob", "Dan"]], [1, 2, 3])
    assert_same(kept(session, club), by_openskill([tie_match, trios_match, close_match]))
    assert {row.game_id for row in session.exec(select(PlayerRating))} == {
        tie.id, trios.id, close.id}
    assert session.get(RatedGame, lost.id).finished_at is None

    # The tied game edited: C takes the Joker and the Left, and now C wins.
    replay = load_replay(session, session.get(Game, tie.id))
    edit_hand(session, replay, 1, Deal((3, P, P, P, P, P), "hearts", Tally(
        {"high": "C", "low": "C", "right": "C", "left": "A", "joker": "B"}, None)),
        replay.game.revision)
    # A bid 3 and took 1: set back to -3; C 3 wins; B 1.
    edited = ([["Ann", "Dan"], ["Bob", "Eve"], ["Cid", "Fay"]], [3, 2, 1])
    assert_same(kept(session, club), by_openskill([edited, trios_match, close_match]))

    # Taken back into play, the abandoned game counts, at its own place: last.
    lost_game = session.get(Game, lost.id)
    apply(session, load_replay(session, lost_game),
          plan_abandon(load_replay(session, lost_game), False), lost_game.revision)
    lost_match = ([["Hal", "Bob"], ["Ida", "Cid"], ["Ann", "Dan"]], [1, 2, 2])
    assert_same(kept(session, club),
                by_openskill([edited, trios_match, close_match, lost_match]))
    assert_kept_equals_a_rating_from_the_hands(session, club)


def points(mu: float) -> int:
    """The number pages show, worked out here: 1500 to start, 48 points per point of mu
    (200 points per openskill beta of 25/6, as Elo's scale has it)."""
    return round(1500 + 48 * (mu - 25))


def test_the_number_shown_is_1500_and_48_points_per_point_of_mu_and_new_until_3_games():
    assert ratings.NEW.points == 1500 and ratings.NEW.is_new
    assert ratings.Rating(26.0, 2.0, 5).points == 1548
    assert ratings.Rating(20.0, 8.0, 5).points == 1260  # sigma plays no part
    assert ratings.Rating(20.0, 1.0, 5).points == 1260
    assert ratings.Rating(25.01, 8.0, 2).is_new and not ratings.Rating(25.01, 8.0, 3).is_new


def test_best_first_puts_the_numbers_shown_first_then_the_new_players():
    order = ratings.best_first({
        1: ratings.Rating(30.0, 2.4, 3), 2: ratings.Rating(30.4, 7.0, 9),
        3: ratings.Rating(40.0, 8.0, 2),  # the highest mu, but new: after every number
        4: ratings.Rating(20.0, 1.0, 50), 5: ratings.Rating(24.0, 8.0, 1)})
    assert [player for player, _ in order] == [2, 1, 4, 3, 5]
    # On a leaderboard new players are alike (it orders them by games won) and come
    # after every number, whichever their mu.
    assert not ratings.Rating(40.0, 8.0, 2) < ratings.Rating(10.0, 8.0, 1)
    assert not ratings.Rating(10.0, 8.0, 1) < ratings.Rating(40.0, 8.0, 2)
    assert ratings.Rating(40.0, 8.0, 2) < ratings.Rating(10.0, 8.0, 3)


def test_one_games_update_is_openskills_with_one_more_game_each():
    model = PlackettLuce()
    before = [[ratings.Rating(27.0, 6.0, 4), ratings.Rating(22.0, 8.0, 0)],
              [ratings.Rating(25.0, 5.0, 9), ratings.Rating(30.0, 3.0, 12)]]
    expected = model.rate([[model.rating(mu=r.mu, sigma=r.sigma) for r in team]
                           for team in before], ranks=[2, 1])
    after = ratings.rated_match(before, (2, 1))
    assert [[(r.mu, r.sigma, r.games) for r in team] for team in after] == [
        [(pytest.approx(e.mu), pytest.approx(e.sigma), b.games + 1)
         for e, b in zip(team_expected, team_before)]
        for team_expected, team_before in zip(expected, before)]


def changes_by_openskill(history) -> dict[str, list[tuple[int, int, int, int]]]:
    """Each player's games in the order rated, worked out here with openskill itself:
    (the game's index in ``history``, the team's rank, the number before, the number
    after)."""
    model = PlackettLuce()
    rated: dict = {}
    games: dict[str, list] = {}
    for index, (teams, ranks) in enumerate(history):
        after = model.rate([[rated.get(name, model.rating()) for name in team]
                            for team in teams], ranks=ranks)
        for team, rank, team_after in zip(teams, ranks, after):
            for name, rating in zip(team, team_after):
                before = rated.get(name, model.rating())
                games.setdefault(name, []).append(
                    (index, rank, points(before.mu), points(rating.mu)))
                rated[name] = rating
    return games


HISTORY = [([["Ann", "Dan"], ["Bob", "Eve"], ["Cid", "Fay"]], [1, 2, 2]),
           ([["Ann", "Bob", "Cid"], ["Gus", "Hal", "Ida"]], [1, 2]),
           ([["Gus", "Eve"], ["Ann", "Cid"], ["Bob", "Dan"]], [1, 2, 3])]


def test_each_games_change_is_the_number_after_it_less_the_number_before(club_session):
    session, club = club_session
    ids = [import_game(session, club, raw).id for raw in (TIE, TRIOS, CLOSE)]
    expected = changes_by_openskill(HISTORY)
    players = {player.name: player for player in session.exec(select(Player))}
    for name, games in expected.items():
        history = ratings.player_rating(session, players[name])
        assert [(change.game_id, change.rank, change.teams, change.before.points,
                 change.after.points, change.change) for change in history.games] == [
            (ids[index], rank, len(HISTORY[index][0]), before, after, after - before)
            for index, rank, before, after in reversed(games)], name
        assert history.games[0].after.points == history.rating.points
    # Each game's changes, and the latest game's, player by player.
    for index, game_id in enumerate(ids):
        found = ratings.game_changes(session, club.id, game_id)
        assert {players_name(players, player): (change.rank, change.change)
                for player, change in found.items()} == {
            name: (rank, after - before) for name, games in expected.items()
            for at, rank, before, after in games if at == index}
    latest_id, latest = ratings.latest_changes(session, club.id)
    assert latest_id == ids[-1] and latest == ratings.game_changes(session, club.id, ids[-1])


def players_name(players: dict[str, Player], player_id: int) -> str:
    return next(name for name, player in players.items() if player.id == player_id)


def test_a_game_in_play_or_abandoned_changes_no_rating(club_session):
    session, club = club_session
    assert ratings.latest_changes(session, club.id) is None
    lost = import_game(session, club, LOST)
    apply(session, load_replay(session, lost), plan_abandon(load_replay(session, lost), True),
          lost.revision)
    assert ratings.game_changes(session, club.id, lost.id) == {}
    assert ratings.latest_changes(session, club.id) is None


def test_cutthroat_rates_each_player_alone_and_four_in_pairs_as_two_teams_of_two(
        club_session):
    """At cutthroat every player is a team of one: the winner first, the others by
    their final scores, equal scores sharing a place; at four in pairs, two teams."""
    session, club = club_session
    five = game_at(session, club, "c5", FIVE, 5, CUTTHROAT_FIVE, target=5)
    four = game_at(session, club, "c4", FOUR_ALONE, 4, CUTTHROAT_FOUR, target=5)
    pairs = game_at(session, club, "2x2", PAIRS_AT_FOUR, 1, TWO_PAIRS, target=5)
    assert [load_replay(session, game).state.scores for game in (five, four, pairs)] == [
        {"A": 6, "B": 2, "C": 6, "D": -4, "E": 1}, {"A": 7, "B": 2, "C": 1, "D": 1},
        {"A": 7, "B": 5}]
    # Five: Ann won (A, tied with C on 6 but the bidder); Cid 6, Bob 2, Eve 1, Dan -4.
    five_match = ([["Ann"], ["Bob"], ["Cid"], ["Dan"], ["Eve"]], [1, 3, 2, 5, 4])
    four_match = ([["Ann"], ["Gus"], ["Bob"], ["Hal"]], [1, 2, 3, 3])
    pairs_match = ([["Cid", "Dan"], ["Ann", "Bob"]], [1, 2])
    assert_same(kept(session, club), by_openskill([five_match, four_match, pairs_match]))
    assert_kept_equals_a_rating_from_the_hands(session, club)
    players = {player.name: player for player in session.exec(select(Player))}
    changes = ratings.game_changes(session, club.id, five.id)
    assert {players_name(players, player_id): (change.rank, change.teams)
            for player_id, change in changes.items()} == {
        "Ann": (1, 5), "Bob": (3, 5), "Cid": (2, 5), "Dan": (5, 5), "Eve": (4, 5)}
    assert [(change.game_id, change.rank, change.teams)
            for change in ratings.player_rating(session, players["Bob"]).games] == [
        (pairs.id, 2, 2), (four.id, 3, 4), (five.id, 3, 5)]


@pytest.mark.parametrize("layouts", [SIXES, EVERY_TABLE], ids=["six", "every table"])
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rng=st.randoms(use_true_random=False), steps=runs_of(STEPS, 12))
def test_many_changes_in_a_row_always_equal_a_rating_from_the_hands(layouts, rng, steps):
    session, club, _ = fresh_club(2, 6, 80, rng, layouts)
    with session:
        each_change(session, steps, lambda game, step: take_step(session, rng, game, step),
                    lambda: assert_kept_equals_a_rating_from_the_hands(session, club))


def in_evening(session: Session, game: Game, evening: Evening) -> Game:
    """The game put in ``evening`` (its revision moves, as any change's does)."""
    game.evening_id = evening.id
    session.add(game)
    session.commit()
    return game


def test_a_game_brought_in_from_paper_is_rated_at_its_evenings_date_and_re_rates_what_follows(
        club_session, monkeypatch):
    """Games are rated in the order they were played (their evenings' dates, then the
    order within the evening), not the order they were typed in: a game of last March,
    typed in after tonight's two, goes before them, and theirs are rated again after it."""
    session, club = club_session
    tonight, march = (Evening(club_id=club.id, played_on=day)
                      for day in (datetime.now(timezone.utc).date(), date(2024, 3, 7)))
    session.add_all([tonight, march])
    session.commit()
    close, trios = (in_evening(session, import_game(session, club, raw), tonight)
                    for raw in (CLOSE, TRIOS))
    ratings.club_ratings(session, club.id)
    seen = rated_matches(monkeypatch)
    tie = in_evening(session, import_game(session, club, TIE), march)
    tie_match, trios_match, close_match = HISTORY
    assert_same(kept(session, club), by_openskill([tie_match, close_match, trios_match]))
    assert seen == [tie.id, close.id, trios.id]  # tonight's games rated again after it
    assert_kept_equals_a_rating_from_the_hands(session, club)
    assert ratings.latest_changes(session, club.id)[0] == trios.id  # the last played
    ann = session.exec(select(Player).where(Player.name == "Ann")).one()
    assert [(point.played_on, point.rating.games)
            for point in ratings.player_rating(session, ann).evenings] == [
        (tonight.played_on, 3)]  # drawn from the third game on: tonight's end
    assert [change.game_id for change in ratings.player_rating(session, ann).games] == [
        trios.id, close.id, tie.id]


def rated_matches(monkeypatch) -> list:
    """A list that gets each match's game id as it is rated."""
    seen: list = []
    original = ratings.rated_one_by_one

    def spy(matches, start):
        for match, after in original(matches, start):
            seen.append(match.game_id)
            yield match, after
    monkeypatch.setattr(ratings, "rated_one_by_one", spy)
    return seen


def test_a_game_ending_rates_that_game_alone_and_an_old_edit_rates_from_there(monkeypatch):
    session, club, _ = fresh_club(2, 8, 90, random.Random(11))
    with session:
        ratings.club_ratings(session, club.id)
        seen = rated_matches(monkeypatch)
        newest = session.exec(select(Game).order_by(Game.id.desc())).first()
        rng = random.Random(2)
        while not load_replay(session, newest).state.finished:
            a_hand_on_the_newest_game(session, rng)
            session.refresh(newest)
        ratings.club_ratings(session, club.id)
        assert seen == [newest.id]
        assert_kept_equals_a_rating_from_the_hands(session, club)
        first = ratings.club_matches(session, club.id)[0].game_id
        replay = load_replay(session, session.get(Game, first))
        hand = next(h for h in replay.hands if h.points is not None)
        edit_hand(session, replay, hand.number, Deal(tuple(hand.calls), hand.trump, Tally(
            {k: v for k, v in hand.points.items() if k != "game"}, None)), replay.game.revision)
        seen.clear()
        ratings.club_ratings(session, club.id)
        assert seen == [match.game_id for match in ratings.club_matches(session, club.id)]
        assert_kept_equals_a_rating_from_the_hands(session, club)


def test_pages_rating_at_the_same_moment_keep_only_right_ratings():
    session, club, _ = fresh_club(2, 6, 60, random.Random(9))
    engine = session.get_bind()
    with session:
        ratings.club_ratings(session, club.id)
        for round_number in range(4):
            a_hand_on_the_newest_game(session, random.Random(round_number))
            expected = ratings.rate(ratings.club_matches(session, club.id))

            def page(_):
                with Session(engine) as other:
                    return ratings.club_ratings(other, club.id)

            with ThreadPoolExecutor(4) as pool:
                answers = list(pool.map(page, range(4)))
            assert all(answer == expected for answer in answers)
            assert_kept_equals_a_rating_from_the_hands(session, club)


def test_a_game_that_changed_while_it_was_rated_is_not_kept(club_session, monkeypatch):
    """A hand recorded between looking at the games and keeping the ratings: nothing
    is kept, and the next page rates the new state."""
    session, club = club_session
    game = import_game(session, club, CLOSE)
    other = session.get_bind()
    original = ratings._looked_at

    def a_hand_meanwhile(session_, games):
        found = original(session_, games)
        with Session(other) as elsewhere:
            changed = elsewhere.get(Game, game.id)
            changed.changed_at = datetime.now(timezone.utc)  # bumps the revision
            elsewhere.add(changed)
            elsewhere.commit()
        return found
    monkeypatch.setattr(ratings, "_looked_at", a_hand_meanwhile)
    ratings.club_ratings(session, club.id)
    monkeypatch.setattr(ratings, "_looked_at", original)
    assert session.exec(select(ClubRatings)).first() is None
    assert_kept_equals_a_rating_from_the_hands(session, club)


def test_a_page_that_loses_the_race_to_keep_them_shows_the_ratings_as_kept(club_session,
                                                                          monkeypatch):
    """Another page kept them first, or a hand was recorded meanwhile: the page shows the
    ratings as they are kept, and how many games they are behind, and rates nothing
    from the hands."""
    session, club = club_session
    first = import_game(session, club, TIE).id
    kept_before = ratings.club_ratings(session, club.id)
    ann = session.exec(select(Player).where(Player.name == "Ann")).one()
    import_game(session, club, TRIOS)
    monkeypatch.setattr(ratings, "_stored", lambda *args: False)
    monkeypatch.setattr(ratings, "club_matches", None)  # never called by a page
    assert ratings.club_ratings(session, club.id) == kept_before
    assert ratings.to_go(session, club.id) == 1
    history = ratings.player_rating(session, ann)
    assert history.rating == kept_before[ann.id]
    assert [change.game_id for change in history.games] == [first]
    assert ratings.latest_changes(session, club.id)[0] == first


def test_the_ratings_command_prints_mu_sigma_games_and_the_number_best_first(app, runner, db):
    club = db.exec(select(Club)).first()
    for raw in (TIE, TRIOS, CLOSE):
        import_game(db, club, raw)
    result = runner.invoke(args=["ratings"])
    assert result.exit_code == 0, result.output
    printed = json.loads(result.stdout)
    expected = by_openskill([
        ([["Ann", "Dan"], ["Bob", "Eve"], ["Cid", "Fay"]], [1, 2, 2]),
        ([["Ann", "Bob", "Cid"], ["Gus", "Hal", "Ida"]], [1, 2]),
        ([["Gus", "Eve"], ["Ann", "Cid"], ["Bob", "Dan"]], [1, 2, 3])])
    assert_same({entry["player"]: (entry["mu"], entry["sigma"], entry["games"])
                 for entry in printed}, expected)
    # Best first: the numbers shown (3 games or more), highest first; then the new
    # players, the higher mu first.
    best = sorted(expected, key=lambda name: (expected[name][2] >= 3, expected[name][0]),
                  reverse=True)
    assert [entry["player"] for entry in printed] == best
    assert set(printed[0]) == {"player", "mu", "sigma", "games", "rating"}
    assert {entry["player"]: entry["rating"] for entry in printed} == {
        name: points(mu) if games >= 3 else None for name, (mu, _, games) in expected.items()}
    assert json.loads(runner.invoke(args=["ratings", "--club", str(club.id)]).stdout) == printed
    missing = runner.invoke(args=["ratings", "--club", "999"])
    assert missing.exit_code != 0 and "there is no club 999" in missing.output


def test_the_rating_trend_is_each_evenings_last_rating_thinned_to_end_at_the_newest():
    # Worked out here from the matches, without the kept rows: each evening's point is the
    # rating after the player's last game of it (in the order the games finished), once
    # the player has 3 games rated (before that the number reads "new" and is not drawn);
    # evenings numbered from the player's first; at most ``most`` points, one every so
    # many evenings, the newest always among them.
    session, club, _ = fresh_club(20, 60, 3600, random.Random(12))  # most games end
    with session:
        evening_of = {game.id: game.evening_id for game in session.exec(select(Game))}
        for player in session.exec(select(Player).order_by(Player.id)).all()[:3]:
            after = [(evening_of[match.game_id], rating[player.id]) for match, rating in
                     ratings.rated_one_by_one(ratings.club_matches(session, club.id), {})
                     if player.id in rating]
            last: dict[int, ratings.Rating] = {}
            for evening_id, rating in after:
                last.pop(evening_id, None)
                last[evening_id] = rating
            evenings = list(last)
            numbered = [index for index in range(len(evenings))
                        if last[evenings[index]].games >= 3]
            assert len(numbered) > 3 and numbered[0] > 0  # the first evening: "new"
            for most in (1, 3, 5, len(numbered) - 1, len(numbered), 24):
                every = -(-len(numbered) // most)
                shown = [index for k, index in enumerate(numbered)
                         if (len(numbered) - 1 - k) % every == 0]
                history = ratings.player_rating(session, player, most)
                drawn = history.evenings
                assert history.every == every
                assert len(drawn) <= most and drawn[-1].evening_id == evenings[-1]
                assert [(p.number, p.evening_id) for p in drawn] == [
                    (index + 1, evenings[index]) for index in shown]
                for point, index in zip(drawn, shown):
                    expected = last[evenings[index]]
                    assert (point.rating.mu, point.rating.sigma, point.rating.games) == \
                        pytest.approx((expected.mu, expected.sigma, expected.games))
                assert history.rating.mu == pytest.approx(last[evenings[-1]].mu)
