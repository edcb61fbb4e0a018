"""The stored statistics summaries always add up to a full replay of the hands.

Random clubs come from the benchmark's seed script (legal games played out by the rules
engine); every figure the pages read from the summaries is compared with
``stats.player_stats`` over every game replayed from scratch, before and after hands are
undone, edited and recorded.
"""
from __future__ import annotations

import importlib.util
import random
from datetime import datetime, timezone
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from sqlmodel import Session, func, select

from scorekeeper import create_app
from scorekeeper.figures import summaries
from scorekeeper.figures.stats import SeatedGame, player_stats, trend
from scorekeeper.figures.summaries import (
    catch_up, club_stats, evening_records, game_counts, one_player_stats,
)
from scorekeeper.rules import Deal, RuleViolation, Tally, TeamLayout
from scorekeeper.store.models import (
    Club, ClubSummary, Evening, Game, Hand, Player, PlayerPairs, SeatSummary,
)
from scorekeeper.store.replay import load_seated, load_replay
from scorekeeper.table.corrections import edit_hand
from scorekeeper.table.recording import record_hand, undo_last_hand
from tests.databases import database_url
from tests.members import client_as, first_club_id

SEED_SCRIPT = Path(__file__).resolve().parents[1] / "bench" / "seed.py"


def _seed_module():
    spec = importlib.util.spec_from_file_location("bench_seed", SEED_SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


seeding = _seed_module()


# Every table the rules seat: pairs, threes and cutthroat at six, pairs and cutthroat at
# four, cutthroat at five; and the seed's own, six in pairs or threes.
EVERY_TABLE = tuple(str(layout) for layout in TeamLayout)
SIXES = seeding.SIXES


def fresh_club(evenings: int, games: int, hands: int, rng: random.Random,
               layouts=SIXES):
    """A club of random games at ``layouts`` (by default tables of six in pairs or
    threes, as clubs played before tables of four and five)."""
    app = create_app({"TESTING": True, "DATABASE_URL": database_url(), "SECRET_KEY": "t"})
    session = Session(app.extensions["db_engine"], expire_on_commit=False)
    club = session.get(Club, first_club_id(app))
    counts = seeding.seed(session, club, evenings=evenings, games=games, hands=hands, rng=rng,
                          layouts=layouts)
    return session, club, counts


def replayed(session: Session, club: Club) -> list[SeatedGame]:
    """Every game the statistics count (all but the abandoned), replayed from scratch."""
    games = session.exec(select(Game).where(Game.club_id == club.id,
                                            Game.abandoned_at.is_(None)).order_by(Game.id)).all()
    return [SeatedGame(replay, players) for replay, players in load_seated(session, games)]


FIGURES = ("played", "won", "lost", "bids", "made", "set_back", "taken_as_bidder",
           "hands_played", "throw_ins_dealt", "points_taken")


def figures(stats) -> dict:
    return {
        "figures": {name: getattr(stats, name) for name in FIGURES},
        "levels": {level: (b.bids, b.made, b.change) for level, b in stats.bid_levels.items()},
    }


def assert_summaries_match_a_replay(session: Session, club: Club) -> None:
    expected = player_stats(replayed(session, club))
    summed = {stats.player_id: stats for stats in club_stats(session, club.id)}
    assert summed.keys() == expected.keys()
    for player_id, stats in expected.items():
        assert figures(summed[player_id]) == figures(stats), stats.name
        player = session.get(Player, player_id)
        alone = one_player_stats(session, player)
        assert figures(alone) == figures(stats)
        for together in ("partners", "rivals"):
            assert {pid: (r.played, r.won, r.lost)
                    for pid, r in getattr(alone, together).items()} == {
                pid: (r.played, r.won, r.lost) for pid, r in getattr(stats, together).items()}
        assert alone.names == stats.names
    assert_every_row_counted_at_its_games_revision(session, club)


def assert_every_row_counted_at_its_games_revision(session: Session, club: Club) -> None:
    """Every game has rows, and each of them carries the game's revision (where the
    figures check one row a game)."""
    games = session.exec(select(Game.id, Game.revision).where(Game.club_id == club.id)).all()
    rows = session.exec(select(SeatSummary.game_id, SeatSummary.revision)).all()
    assert {game_id for game_id, _ in rows} == {game_id for game_id, _ in games}
    assert set(rows) <= set(games)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rng=st.randoms(use_true_random=False), games=st.integers(1, 12))
def test_the_summed_figures_equal_a_replay_of_every_hand(rng, games):
    session, club, _ = fresh_club(3, games, games * 12, rng)
    with session:
        assert_summaries_match_a_replay(session, club)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rng=st.randoms(use_true_random=False), games=st.integers(1, 18))
def test_the_summed_figures_equal_a_replay_at_every_table(rng, games):
    session, club, _ = fresh_club(3, games, games * 12, rng, EVERY_TABLE)
    with session:
        assert_summaries_match_a_replay(session, club)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rng=st.randoms(use_true_random=False), data=st.data())
def test_figures_follow_every_change_to_any_game(rng, data):
    """Undo, bring nothing back, edit an earlier hand, record a new one: always a replay."""
    session, club, _ = fresh_club(2, 4, 40, rng)
    with session:
        assert_summaries_match_a_replay(session, club)  # summaries stored at this point
        games = session.exec(select(Game).order_by(Game.id)).all()
        game = data.draw(st.sampled_from(games))
        replay = load_replay(session, game)
        if replay.hands:
            undo_last_hand(session, replay, replay.hands[-1].number, game.revision)
            assert_summaries_match_a_replay(session, club)
        replay = load_replay(session, game)
        played = [hand for hand in replay.hands if hand.points is not None]
        if played:
            hand = data.draw(st.sampled_from(played))
            # Game to nobody instead: a legal correction that moves scores and points.
            deal = Deal(tuple(hand.calls), hand.trump,
                        Tally({k: v for k, v in hand.points.items() if k != "game"}, None))
            try:
                edit_hand(session, replay, hand.number, deal, game.revision)
            except RuleViolation:  # the correction may end the game early: refused
                session.rollback()
            assert_summaries_match_a_replay(session, club)
        replay = load_replay(session, game)
        if not replay.state.finished:
            deal = seeding.random_deal(rng, replay.rules, replay.state.next_dealer)
            try:
                record_hand(session, replay, replay.state.next_number, deal, game.revision)
            except RuleViolation:
                session.rollback()
            assert_summaries_match_a_replay(session, club)


def test_the_seed_script_writes_exactly_what_it_is_asked_for():
    session, club, counts = fresh_club(7, 30, 500, random.Random(5))
    with session:
        assert counts == {"players": 30, "evenings": 7, "games": 30, "hands": 500}
        count = lambda model: session.exec(select(func.count()).select_from(model)).one()  # noqa: E731
        assert (count(Evening), count(Game), count(Hand)) == (7, 30, 500)
        replays = [replay for replay, _ in load_seated(session, session.exec(select(Game)).all())]
        assert sum(len(replay.hands) for replay in replays) == 500  # every hand replays
        assert sum(replay.state.finished for replay in replays) >= 20  # most games end
        assert set(game_counts(session, range(1, 9)).values()) <= {4, 5, 0}


def test_the_seed_script_seats_each_game_as_its_layout_does():
    session, club, _ = fresh_club(2, 24, 700, random.Random(6), EVERY_TABLE)
    with session:
        replays = [replay for replay, _ in load_seated(session, session.exec(select(Game)).all())]
        assert {str(replay.rules.teams) for replay in replays} == set(EVERY_TABLE)
        for replay in replays:
            assert sorted(replay.names) == list(range(1, replay.rules.seats + 1))
            assert len(set(replay.names.values())) == replay.rules.seats
        assert sum(replay.state.finished for replay in replays) >= 16  # most games end


def test_the_trend_adds_up_evening_by_evening():
    session, club, _ = fresh_club(6, 18, 300, random.Random(8))
    with session:
        seated = replayed(session, club)
        for player in session.exec(select(Player)).all():
            points, _ = trend(evening_records(session, player))
            evenings = sorted({g.replay.game.evening_id for g in seated
                               if player.id in g.players.values()})
            assert [p.evening_id for p in points] == evenings  # evening ids follow dates
            for point in points:
                so_far = [g for g in seated if g.replay.game.evening_id <= point.evening_id]
                stats = player_stats(so_far)[player.id]
                assert (point.win_rate, point.made_rate) == (stats.win_rate, stats.made_rate)


def test_a_stored_sum_with_another_stamp_is_never_read():
    """The club's sums are recomputed when the stamp differs, whatever they say."""
    session, club, _ = fresh_club(2, 4, 40, random.Random(3))
    with session:
        before = {s.player_id: figures(s) for s in club_stats(session, club.id)}
        summary = session.get(ClubSummary, club.id)
        summary.players = [{**sums, "won": 999} for sums in summary.players]
        summary.stamp = "0:0:0"
        session.add(summary)
        # A game's rows counted at another revision (a game's rows are only ever written
        # together, so all of them carry it), one of them saying what it can't.
        row = session.exec(select(SeatSummary).order_by(SeatSummary.game_id,
                                                        SeatSummary.seat)).first()
        for other in session.exec(select(SeatSummary)
                                  .where(SeatSummary.game_id == row.game_id)):
            other.revision = -1
            session.add(other)
        row.won = 999
        session.commit()
        assert {s.player_id: figures(s) for s in club_stats(session, club.id)} == before


def pairs_of(stats) -> dict:
    return {(together, pid): (r.played, r.won, r.lost) for together in ("partners", "rivals")
            for pid, r in getattr(stats, together).items()}


def test_a_players_partners_are_kept_with_the_clubs_stamp_and_read_only_under_it(monkeypatch):
    """Added up once while no game changes, then read as kept; kept with another stamp
    (a game changed since), whatever they say, they are added up again."""
    session, club, _ = fresh_club(2, 4, 40, random.Random(4))
    with session:
        player = session.exec(select(Player).order_by(Player.id)).first()
        expected = pairs_of(player_stats(replayed(session, club))[player.id])
        assert expected
        added_up = []
        original = summaries._at_one_table
        monkeypatch.setattr(summaries, "_at_one_table",
                            lambda *args: added_up.append(args) or original(*args))
        assert pairs_of(one_player_stats(session, player)) == expected
        assert pairs_of(one_player_stats(session, player)) == expected
        assert len(added_up) == 1
        kept = session.get(PlayerPairs, player.id)
        assert kept.stamp == session.get(ClubSummary, club.id).stamp
        kept.pairs = [[other, partners, 99, 99, 0] for other, partners, *_ in kept.pairs]
        kept.stamp = "0:0:0"
        session.add(kept)
        session.commit()
        assert pairs_of(one_player_stats(session, player)) == expected
        assert len(added_up) == 2


@pytest.mark.parametrize("evenings", [1, 3])
def test_an_empty_club_has_no_figures(evenings):
    app = create_app({"TESTING": True, "DATABASE_URL": database_url(), "SECRET_KEY": "t"})
    with Session(app.extensions["db_engine"]) as session:
        club = session.get(Club, first_club_id(app))
        assert club_stats(session, club.id) == []
        assert game_counts(session, range(evenings)) == dict.fromkeys(range(evenings), 0)


def test_a_player_of_many_evenings_sees_at_most_24_points_of_trend():
    app = create_app({"TESTING": True, "DATABASE_URL": database_url(), "SECRET_KEY": "t"})
    with Session(app.extensions["db_engine"]) as session:
        club = session.get(Club, first_club_id(app))
        seeding.seed(session, club, evenings=100, games=400, hands=4000, rng=random.Random(2))
        catch_up(session, club.id)  # more games than a page counts: counted ahead
        player = session.exec(select(Player).where(Player.name == "Ann")).one()
        evenings = len(evening_records(session, player))
    assert evenings > 48
    page = client_as(app).get(f"/players/{player.id}").text
    every = -(-evenings // 24)
    assert f"One point every {every} evenings, up to the latest." in page
    replay = page[page.index('<caption id="trend-table-caption">Evening by evening</caption>'):]
    replay = replay[:replay.index("</table>")]
    assert replay.count('<tr><th scope="row">') == len(range(evenings - 1, -1, -every))


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rng=st.randoms(use_true_random=False), data=st.data())
def test_an_abandoned_game_leaves_every_figure_and_comes_back_when_taken_back(rng, data):
    """Abandoning bumps the game's revision (as any write does) and the club's stamp
    changes: the sums, each player's page and the trend follow, and back again."""
    session, club, _ = fresh_club(3, 6, 60, rng)
    with session:
        assert_summaries_match_a_replay(session, club)
        games = session.exec(select(Game).order_by(Game.id)).all()
        game = data.draw(st.sampled_from(games))
        before = trends(session)
        for when in (datetime.now(timezone.utc), None):
            revision = game.revision
            game.abandoned_at = when
            session.add(game)
            session.commit()
            assert game.revision == revision + 1
            assert_summaries_match_a_replay(session, club)
            if when is not None:
                left = {g.replay.game.evening_id for g in replayed(session, club)
                        if g.replay.game.id != game.id}
                assert all(point.evening_id in left
                           for points in trends(session).values() for point in points)
        assert trends(session) == before


def trends(session: Session) -> dict[int, list]:
    return {player.id: trend(evening_records(session, player))[0]
            for player in session.exec(select(Player).order_by(Player.id)).all()}
