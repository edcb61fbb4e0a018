"""Corrections past one hand: each leaves the game as a replay of its
hands says, the later hands keep who bid what, and the statistics follow.

RULES.md, "Corrections past one hand".
"""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from sqlmodel import select

from scorekeeper.rules import PASS, Deal, RuleViolation, replay as replay_deals
from scorekeeper.rules.auction import Auction
from scorekeeper.store.models import Game, GameChange, GameSeat
from scorekeeper.store.replay import deal_from_hand, load_replay
from scorekeeper.table.corrections import (
    apply, plan_abandon, plan_edit, plan_insert, plan_rename, plan_swap,
)
from tests.test_summaries import assert_summaries_match_a_replay, fresh_club, seeding

THROW_IN = Deal((PASS,) * 6)


def who_bid_what(replay, first: int) -> list[tuple[int | None, int | None, str | None]]:
    """(bidder seat, bid, trump) of every hand from index ``first`` on."""
    return [(deal.bidder_seat, deal.bid, deal.trump) for deal in replay.state.deals[first:]]


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          phases=[Phase.explicit, Phase.reuse, Phase.generate])  # a failure is printed whole
@given(rng=st.randoms(use_true_random=False), data=st.data())
def test_every_kind_of_correction_leaves_a_replay_and_statistics_that_add_up(rng, data):
    session, club, _ = fresh_club(2, 4, 40, rng)
    with session:
        games = session.exec(select(Game).order_by(Game.id)).all()
        game = data.draw(st.sampled_from(games))
        replay = load_replay(session, game)
        kind = data.draw(st.sampled_from(["insert", "throw-in", "flip", "swap", "rename",
                                          "abandon"]))
        count = len(replay.hands)
        try:
            if kind in ("insert", "throw-in", "flip") and not replay.hands:
                return
            number = data.draw(st.integers(1, max(count, 1)))
            if kind == "insert":
                dealer = replay.state.deals[number - 1].dealer_seat
                plan = plan_insert(replay, number, seeding.random_deal(rng, replay.rules, dealer))
            elif kind == "throw-in":
                plan = plan_insert(replay, number, THROW_IN)
            elif kind == "flip":
                old = replay.state.deals[number - 1]
                deal = THROW_IN if not old.thrown_in else seeding.random_deal(
                    rng, replay.rules, old.dealer_seat)
                if deal.tally is None and old.thrown_in:
                    return
                plan = plan_edit(replay, number, deal)
            elif kind == "swap":
                plan = plan_swap(replay, *data.draw(st.lists(st.integers(1, 6), min_size=2,
                                                             max_size=2, unique=True)))
            elif kind == "rename":
                plan = plan_rename(replay, data.draw(st.integers(1, 6)), "Zoë Newcomer")
            else:
                plan = plan_abandon(replay, True)
        except RuleViolation:  # e.g. a hand that would end the game before later ones
            return
        apply(session, replay, plan, game.revision)
        after = load_replay(session, game)
        # What the page showed is what was written: a full replay of the stored hands.
        again = replay_deals(after.rules, after.game.first_dealer,
                             [deal_from_hand(h) for h in after.hands])
        assert again.scores == plan.after.scores == after.state.scores
        assert [h.number for h in after.hands] == list(range(1, len(after.hands) + 1))
        if kind in ("insert", "throw-in"):
            assert len(after.hands) == count + 1
            # Every later hand keeps its bidder, bid and trump, whoever deals it now.
            assert who_bid_what(after, number) == who_bid_what(replay, number - 1)
        if kind == "flip":
            assert who_bid_what(after, number) == who_bid_what(replay, number)
        change = session.exec(select(GameChange).order_by(GameChange.id.desc())).first()
        assert change.game_id == game.id and change.totals_after == plan.after.scores
        assert_summaries_match_a_replay(session, club)


def test_a_forgotten_played_hand_moves_each_later_dealer_one_seat_on(rng_club):
    session, replay = rng_club
    count = len(replay.hands)
    dealers = [deal.dealer_seat for deal in replay.state.deals]
    rng = random.Random(3)
    deal = seeding.random_deal(rng, replay.rules, dealers[1])
    while Auction(dealers[1], deal.calls).thrown_in:
        deal = seeding.random_deal(rng, replay.rules, dealers[1])
    plan = plan_insert(replay, 2, deal)
    apply(session, replay, plan, replay.game.revision)
    after = load_replay(session, replay.game)
    new_dealers = [deal.dealer_seat for deal in after.state.deals]
    assert len(after.hands) == count + 1 and new_dealers[1] == dealers[1]
    # Hand 3 is the old hand 2: dealt by the seat left of the forgotten hand's dealer.
    assert new_dealers[2] == dealers[1] % 6 + 1
    change = session.exec(select(GameChange).order_by(GameChange.id.desc())).first()
    assert change.kind == "inserted" and change.number == 2
    assert change.details["moved"][:2] == [3, count + 1]


def test_a_swap_moves_two_players_and_keeps_every_hand_by_seat(rng_club):
    session, replay = rng_club
    before = dict(replay.names)
    plan = plan_swap(replay, 2, 5)
    apply(session, replay, plan, replay.game.revision)
    after = load_replay(session, replay.game)
    assert after.names[2] == before[5] and after.names[5] == before[2]
    assert after.state.scores == replay.state.scores
    seats = session.exec(select(GameSeat).where(GameSeat.game_id == replay.game.id)).all()
    assert len(seats) == 6 and len({s.player_id for s in seats}) == 6


def test_a_rename_to_someone_sitting_there_already_is_refused(rng_club):
    _session, replay = rng_club
    try:
        plan_rename(replay, 1, replay.names[4])
    except RuleViolation as violation:
        assert violation.code == "name_twice"
    else:
        raise AssertionError("a player sat twice")


@pytest.fixture
def rng_club():
    session, club, _ = fresh_club(1, 1, 8, random.Random(11))
    with session:
        game = session.exec(select(Game)).first()
        replay = load_replay(session, game)
        assert len(replay.hands) >= 3
        yield session, replay
