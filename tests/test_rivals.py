"""Partners, rivals, head to head and the bidding figures, against a plain count of the
hands written here.

The count reads who sat in each seat at each hand from the seats' own rows (a
substitute from their first hand on), the teams by seat as RULES.md lays them out (three
pairs: 1 & 4, 2 & 5, 3 & 6; two teams of three: odd and even seats; two pairs at four:
1 & 3, 2 & 4; cutthroat: each seat a team of its own, so no partners), and each played
hand's bidder, bid and points from the replay; it works out what the bid did to the
bidding team's score itself (made: the points taken; set: minus the bid). Two players
sat at one table when both sat at one live hand (a game with none yet: its first six).
Clubs of random games, with substitutes and an abandoned game, are compared whole, and
again after every change of a run of corrections; at six in pairs and threes, and at
every table the rules seat.
"""
from __future__ import annotations

import random
from collections import defaultdict
from datetime import datetime, timezone

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from sqlalchemy import text
from sqlmodel import Session, select

from scorekeeper.figures import stats as figures_module
from scorekeeper.figures.stats import (
    SHARED_GAMES, PlayerStats, Record, best_partner, player_stats, toughest_rival,
)
from scorekeeper.figures.summaries import head_to_head, one_player_stats
from scorekeeper.rules import BIDS, RuleViolation
from scorekeeper.store.db import make_engine
from scorekeeper.store.kept import stamp_of
from scorekeeper.store.migrate import upgrade
from scorekeeper.store.models import Club, ClubSummary, Game, GameSeat, Player, SeatSummary
from scorekeeper.store.replay import load_replay
from scorekeeper.table.corrections import apply, last_substitute_hand, plan_substitute
from tests.test_summaries import EVERY_TABLE, fresh_club, replayed
from tests.test_summaries_incremental import STEPS, each_change, runs_of, take_step
from tests.test_upgrades import fill_first_schema

# Seat 1's team, seat 2's, ...: the letters repeat round the table.
TEAM_LETTERS = {"3x2": "ABC", "2x3": "AB", "2x2": "AB", "c4": "ABCD", "c5": "ABCDE",
                "c6": "ABCDEF"}


def team_of(teams: str, seat: int) -> str:
    letters = TEAM_LETTERS[teams]
    return letters[(seat - 1) % len(letters)]


def seated_at_each_hand(session: Session, game: Game, hands: int) -> dict[int, dict[int, int]]:
    """Hand number -> seat -> player id, from the seats' rows alone."""
    rows = session.exec(select(GameSeat).where(GameSeat.game_id == game.id)).all()
    seats = {row.seat for row in rows}
    return {number: {seat: max((row for row in rows
                                if row.seat == seat and row.from_hand <= number),
                               key=lambda row: row.from_hand).player_id for seat in seats}
            for number in range(1, max(hands, 1) + 1)}


def counted_by_hand(session: Session, club: Club) -> tuple[dict, dict]:
    """(player, other, partners?) -> [played, finished, won by the player], and
    (player, bid) -> [bids, summed score change], over the games that count."""
    pairs: dict = defaultdict(lambda: [0, 0, 0])
    bids: dict = defaultdict(lambda: [0, 0])
    games = session.exec(select(Game).where(Game.club_id == club.id,
                                            Game.abandoned_at.is_(None))).all()
    for game in games:
        replay = load_replay(session, game)
        at_hand = seated_at_each_hand(session, game, len(replay.hands))
        together = {(player, other, team_of(game.teams, seat) == team_of(game.teams, other_seat),
                     team_of(game.teams, seat))
                    for sitting in at_hand.values() for seat, player in sitting.items()
                    for other_seat, other in sitting.items() if other_seat != seat}
        state = replay.state
        for player, other, partners, team in together:
            count = pairs[player, other, partners]
            count[0] += 1
            count[1] += state.finished
            count[2] += state.finished and state.winner == team
        for deal in state.deals:
            if deal.thrown_in:
                continue
            team = team_of(game.teams, deal.bidder_seat)
            taken = sum(owner == team for owner in deal.tally.card_points.values()) \
                + (deal.tally.game == team)
            count = bids[at_hand[deal.number][deal.bidder_seat], deal.bid]
            count[0] += 1
            count[1] += taken if taken >= deal.bid else -deal.bid
    return dict(pairs), dict(bids)


def as_counts(record: Record) -> list[int]:
    return [record.played, record.finished, record.won]


def kept_pairs(stats: PlayerStats) -> dict:
    return {(stats.player_id, other, partners): as_counts(record)
            for partners, records in ((True, stats.partners), (False, stats.rivals))
            for other, record in records.items()}


def kept_bids(stats: PlayerStats) -> dict:
    return {(stats.player_id, bid): [level.bids, level.change]
            for bid, level in stats.bid_levels.items() if level.bids}


def expected_pick(pairs: dict, player_id: int, partners: bool, names: dict[int, str]):
    """The best partner (highest win rate) or toughest rival (lowest), among those with
    enough finished games; equal rates by more games, then by name."""
    shared = [(other, count) for (player, other, kind), count in pairs.items()
              if player == player_id and kind == partners
              and count[1] >= figures_module.SHARED_GAMES]
    sign = -1 if partners else 1
    ordered = sorted(shared, key=lambda item: (sign * item[1][2] / item[1][1], -item[1][0],
                                               names[item[0]].casefold(), item[0]))
    return ordered[0][0] if ordered else None


def assert_kept_figures_are_the_counted_ones(session: Session, club: Club,
                                             head_to_heads: int = 3,
                                             others: int | None = None) -> None:
    """Every player's kept figures against the count by hand; the head to head of the
    first ``head_to_heads`` players with everyone (``others``: with that many of those
    they met, the first by id: a check after every change in a long run stays quick)."""
    pairs, bids = counted_by_hand(session, club)
    players = session.exec(select(Player).where(Player.club_id == club.id)
                           .order_by(Player.id)).all()
    names = {player.id: player.name for player in players}
    kept: dict = {}
    kept_bid_counts: dict = {}
    fresh = player_stats(replayed(session, club))
    for player in players:
        stats = one_player_stats(session, player)
        if stats is None:
            continue
        kept |= kept_pairs(stats)
        kept_bid_counts |= kept_bids(stats)
        assert kept_pairs(fresh[player.id]) == kept_pairs(stats), player.name
        assert kept_bids(fresh[player.id]) == kept_bids(stats), player.name
        for level in BIDS:
            counted = bids.get((player.id, level))
            assert stats.bid_levels[level].average_change == (
                counted[1] / counted[0] if counted else None), (player.name, level)
        picked = best_partner(stats), toughest_rival(stats)
        assert [pick and pick[0] for pick in picked] == [
            expected_pick(pairs, player.id, True, names),
            expected_pick(pairs, player.id, False, names)], player.name
    assert kept == pairs
    assert kept_bid_counts == bids
    for player in players[:head_to_heads]:
        met = sorted({other for (one, other, _) in pairs if one == player.id})
        for other in players:
            if other.id == player.id or (others is not None and other.id not in met[:others]):
                continue
            pair = head_to_head(session, player, other)
            nothing = [0, 0, 0]
            assert [as_counts(pair.together), as_counts(pair.player_against),
                    as_counts(pair.other_against)] == [
                pairs.get((player.id, other.id, True), nothing),
                pairs.get((player.id, other.id, False), nothing),
                pairs.get((other.id, player.id, False), nothing)], (player.name, other.name)


def with_substitutes(session: Session, rng: random.Random) -> None:
    """A few players replaced from a hand on, in random games (someone at the table
    already, or a hand too late, is refused and skipped)."""
    games = session.exec(select(Game).order_by(Game.id)).all()
    roster = [player.name for player in session.exec(select(Player))]
    for count in range(6):
        game = rng.choice(games)
        replay = load_replay(session, game)
        last = last_substitute_hand(replay)
        if last < 2:
            continue
        try:
            plan = plan_substitute(replay, rng.choice(range(1, replay.rules.seats + 1)),
                                   rng.randint(2, last),
                                   rng.choice([*roster, f"Stand-in {count}"]))
        except RuleViolation:
            continue
        apply(session, replay, plan, game.revision)


def abandon_one(session: Session, rng: random.Random) -> None:
    game = rng.choice(session.exec(select(Game).order_by(Game.id)).all())
    game.abandoned_at = datetime.now(timezone.utc)
    session.add(game)
    session.commit()


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("shared_games", [SHARED_GAMES, 1])
def test_every_pair_and_bid_kept_is_what_a_count_of_the_hands_gives(seed, shared_games,
                                                                     monkeypatch):
    # With a minimum of one game, random clubs have a best partner and toughest
    # opponent for nearly everyone; with the page's, for a few.
    monkeypatch.setattr(figures_module, "SHARED_GAMES", shared_games)
    rng = random.Random(seed)
    session, club, _ = fresh_club(3, 24, 360, rng)
    with session:
        with_substitutes(session, rng)
        abandon_one(session, rng)
        assert_kept_figures_are_the_counted_ones(session, club)


@pytest.mark.parametrize("seed", [4, 5])
def test_at_every_table_every_pair_and_bid_kept_is_what_a_count_of_the_hands_gives(
        seed, monkeypatch):
    monkeypatch.setattr(figures_module, "SHARED_GAMES", 1)
    rng = random.Random(seed)
    session, club, _ = fresh_club(3, 30, 420, rng, EVERY_TABLE)
    with session:
        with_substitutes(session, rng)
        abandon_one(session, rng)
        assert_kept_figures_are_the_counted_ones(session, club)


def test_the_count_sees_substitutes_and_leaves_the_abandoned_game_out():
    """The test's own count, checked on what it must tell apart: a substitute's stretch
    and an abandoned game."""
    rng = random.Random(4)
    session, club, _ = fresh_club(1, 3, 45, rng)
    with session:
        game = session.exec(select(Game).order_by(Game.id)).first()
        seat_of = dict(session.exec(select(GameSeat.seat, GameSeat.player_id)
                                    .where(GameSeat.game_id == game.id)).all())
        partner = seat_of[1 + len(TEAM_LETTERS[game.teams])]  # seat 1's: 4, or 3 of three
        replay = load_replay(session, game)
        apply(session, replay, plan_substitute(replay, 1, 2, "Stand-in"), game.revision)
        stand_in = session.exec(select(Player).where(Player.name == "Stand-in")).one()
        pairs, _ = counted_by_hand(session, club)
        assert pairs[stand_in.id, partner, True][0] == 1
        assert pairs[seat_of[1], partner, True][0] >= 1
        before = sum(count[0] for count in pairs.values())
        abandon_one(session, random.Random(0))
        after = sum(count[0] for count in counted_by_hand(session, club)[0].values())
        assert after < before


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rng=st.randoms(use_true_random=False), steps=runs_of((*STEPS, "substitute"), 10))
def test_after_any_run_of_corrections_the_kept_figures_are_a_fresh_count(rng, steps):
    """Games at every layout, sixes among them, corrected in any order."""
    session, club, _ = fresh_club(2, 5, 50, rng, EVERY_TABLE)

    def step(game: Game, what: str) -> None:
        if what == "substitute":
            with_substitutes(session, rng)
        else:
            take_step(session, rng, game, what)

    with session:
        each_change(session, steps, step,
                    lambda: assert_kept_figures_are_the_counted_ones(session, club, 1, 4))


def record(played: int, won: int, lost: int) -> Record:
    return Record(played=played, won=won, lost=lost)


def test_best_partner_and_toughest_opponent_need_enough_games_and_break_ties():
    stats = PlayerStats(1, "Ann")
    stats.names = {2: "bea", 3: "Cid", 4: "Abe", 5: "Dot", 6: "Eli"}
    stats.partners = {
        2: record(6, 4, 1),  # 80% of 5
        3: record(5, 4, 1),  # 80% of 5, fewer games: Bea first
        4: record(9, 2, 0),  # 100%, but only 2 finished
    }
    stats.rivals = {
        5: record(7, 1, 4),  # 20% of 5
        6: record(7, 1, 4),  # the same: by name, Dot first
        4: record(20, 0, 2),  # 0%, only 2 finished
    }
    assert best_partner(stats)[:2] == (2, "bea")
    assert toughest_rival(stats)[:2] == (5, "Dot")
    stats.partners[2] = record(6, 1, 3)
    stats.rivals = {4: stats.rivals[4]}
    assert best_partner(stats)[:2] == (3, "Cid")
    assert toughest_rival(stats) is None


# --- the schema ----------------------------------------------------------------------

FIGURE_COLUMNS = ("finished", "won", "hands", "throw_ins_dealt", "bids_3", "bids_4",
                  "bids_5", "bids_6", "made_3", "made_4", "made_5", "made_6",
                  "taken_as_bidder", "took_high", "took_low", "took_right", "took_left",
                  "took_joker", "took_game")


def test_statistics_kept_before_the_bidding_figures_are_counted_again(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'kept.sqlite'}")
    upgrade(engine, "0001")
    fill_first_schema(engine)
    upgrade(engine, "0016")
    with Session(engine) as session:
        stamp = stamp_of(session, 1).as_kept()
    with engine.begin() as connection:  # kept as current by the schema before, all wrong
        connection.execute(text(
            f"INSERT INTO seat_summary (game_id, seat, from_hand, to_hand, player_id, "
            f"revision, team, {', '.join(FIGURE_COLUMNS)}) SELECT game_id, seat, 1, 1, "
            f"player_id, (SELECT revision FROM game WHERE game.id = gameseat.game_id), 'A', "
            f"{', '.join(['1'] * len(FIGURE_COLUMNS))} FROM gameseat"))
        connection.execute(text("INSERT INTO club_summary (club_id, stamp, players) "
                                "VALUES (1, :stamp, '[]')"), {"stamp": stamp})
    upgrade(engine)
    with Session(engine) as session:
        assert session.exec(select(SeatSummary)).all() == []
        assert session.get(ClubSummary, 1) is None
        assert_kept_figures_are_the_counted_ones(session, session.get(Club, 1))
    engine.dispose()
