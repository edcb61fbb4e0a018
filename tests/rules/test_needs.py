"""RULES.md, "What each team needs": each team's fewest points to go out next hand,
bidding and without the bid, checked by hand on worked examples and, for random
scores, by playing the hands each answer names through the engine (``carry_on``)."""
from __future__ import annotations

from functools import cache, lru_cache
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    SEATS,
    Deal,
    GameState,
    HouseRules,
    Tally,
    Verdict,
    VerdictKind,
    carry_on,
    quick_auction,
    team_of,
)
from scorekeeper.rules.needs import Way, team_needs

CARD_POINTS = ("high", "low", "right", "left", "joker")


def needs_of(scores, **rules):
    return {need.team: need for need in team_needs(HouseRules(**rules), scores)}


# --- worked by hand ------------------------------------------------------------------

def test_a_team_two_short_goes_out_with_three_either_way():
    # A 19, B 18, C 10, target 21. Taking 2 leaves 4 to the others: B could reach 22.
    # Taking 3 (21+1) leaves 3: B reaches 21 at most, below A's 22. Bidding, 3 is the
    # least bid anyway. C, 11 short, can't go out in one hand.
    needs = needs_of({"A": 19, "B": 18, "C": 10})
    assert needs["A"].short == 2
    assert needs["A"].bidding == Way(3)
    assert needs["A"].not_bidding == Way(3)
    assert needs["B"].bidding == Way(4)  # 22 against A's 21 at most
    assert needs["C"].bidding is None and needs["C"].not_bidding is None
    assert not needs["C"].can_go_out


def test_the_bidder_tie_break_is_named():
    # A 20, B 18, C 20. A bids and makes 3: A 23, C can take the other 3 and tie on 23;
    # A bid, so A wins the tie. Without the bid A needs 4: 24 against C's 22 at most.
    needs = needs_of({"A": 20, "B": 18, "C": 20})
    assert needs["A"].bidding == Way(3, tie_break=True)
    assert needs["A"].not_bidding == Way(4)


def test_bidder_goes_out_is_named_only_where_it_decides():
    # Two teams: A 18, B 20. With the house rule A goes out bidding and making 3 (21),
    # though B may take 3 and reach 23. Without it A needs 4: 22 against 22 at most,
    # a tie that goes to A as the bidder.
    with_rule = needs_of({"A": 18, "B": 20}, teams="2x3", bidder_goes_out=True)
    assert with_rule["A"].bidding == Way(3, goes_out=True)
    without = needs_of({"A": 18, "B": 20}, teams="2x3")
    assert without["A"].bidding == Way(4, tie_break=True)


def test_a_team_out_of_reach_is_told_so():
    # A 14 against B and C on 20: six points bring A to 20, short of 21.
    assert not needs_of({"A": 14, "B": 20, "C": 20})["A"].can_go_out
    # After a tie played on (A and B on 22), C on 16 can win only as the bidder: all six
    # points tie it with A and B on 22, and the tie goes to C only if C bid.
    needs = needs_of({"A": 22, "B": 22, "C": 16})
    assert needs["C"].bidding == Way(6, tie_break=True)
    assert needs["C"].not_bidding is None


def test_after_a_tie_played_on_the_tied_teams_need_to_pass_each_other():
    # A and B tied on 22 past the target (C bid and was set): another hand is played.
    needs = needs_of({"A": 22, "B": 22, "C": 10})
    assert needs["A"].short == 0
    assert needs["A"].bidding == Way(3, tie_break=True)
    assert needs["A"].not_bidding == Way(4)


def test_no_team_can_go_out_at_the_start():
    assert not any(need.can_go_out for need in team_needs(HouseRules(), {"A": 0, "B": 0, "C": 0}))


@pytest.mark.parametrize("teams", ["3x2", "2x3", "2x2", "c4", "c5", "c6"])
def test_a_team_seven_short_cant_go_out_in_one_hand(teams):
    """No hand brings more than six points: played through the engine, no hand of any
    bid, bidder or split of the points takes a team seven short to the target."""
    rules = HouseRules(teams, 21)
    scores = {team: 14 for team in rules.team_names}
    assert [(need.short, need.can_go_out) for need in team_needs(rules, scores)] == \
        [(7, False)] * len(rules.team_names)
    for team in rules.team_names:
        check_way(rules, scores, team, None, bidding=True)
        check_way(rules, scores, team, None, bidding=False)
    scores["A"] = 15  # six short: A can go out, taking all six
    assert needs_of(scores, teams=teams)["A"].not_bidding == Way(6)


# --- every answer played through the engine -------------------------------------------

def tally_for(taken: dict[str, int]) -> Tally:
    """A tally giving each team ``taken[team]`` points: card points in turn, Game to a
    team with a point left over, or tied when they add up to five."""
    owners = [team for team, count in taken.items() for _ in range(count)]
    game = owners.pop() if len(owners) == 6 else None
    return Tally(dict(zip(CARD_POINTS, owners)), game)


@cache
def every_taking(teams):
    """Every number of points each team may take in a hand (six, or five with Game tied)."""
    return [dict(zip(teams, shares)) for shares in product(range(7), repeat=len(teams))
            if sum(shares) in (5, 6)]


@lru_cache(maxsize=1 << 15)
def played_next(rules, scores, bidding_team, bid, taken):
    """``play_next`` for scores and points taken as tuples of (team, number): a hand is
    played once for all the teams whose ways it checks."""
    return play_next(rules, dict(scores), bidding_team, bid, dict(taken))


def play_next(rules, scores, bidding_team, bid, taken):
    """The verdict after one more hand, played through the engine from these scores."""
    tied_past = [t for t in scores if scores[t] >= rules.target]
    kind = VerdictKind.TIE_PLAY_ON if tied_past else VerdictKind.PLAYING
    state = GameState(rules, 1, (), dict(scores), Verdict(kind, rules.target), 1)
    seats = rules.seats
    bidder = next(seat for seat in range(1, seats + 1)
                  if team_of(seat, rules.teams) == bidding_team)
    auction = quick_auction(1, bidder, bid, seats)
    deal = Deal(auction.calls, "hearts", tally_for(taken))
    return carry_on(state, [deal]).verdict


def played_wins(rules, scores, team, points, bidding):
    """For each hand where ``team`` takes ``points`` in the role given: did it win, and
    how was it decided."""
    outcomes = []
    for taken in every_taking(rules.team_names):
        if taken[team] != points:
            continue
        for bidding_team in rules.team_names:
            if (bidding_team == team) != bidding:
                continue
            for bid in (3, 4, 5, 6):
                if bidding and bid > points:
                    continue  # the way is the bid made
                verdict = played_next(rules, tuple(scores.items()), bidding_team, bid,
                                      tuple(taken.items()))
                outcomes.append((verdict.winner == team, verdict.kind))
    return outcomes


def check_way(rules, scores, team, way, bidding):
    """The way named wins in every hand that gives the team its points, fewer points
    don't; where none is named, no hand in that role wins at all."""
    least = 3 if bidding else 0
    wins_at = lambda p: [won for won, _ in played_wins(rules, scores, team, p, bidding)]
    if way is None:
        assert not any(any(wins_at(p)) for p in range(least, 7))
        return
    assert all(wins_at(way.points))
    assert not any(all(wins_at(p)) for p in range(least, way.points))
    outcomes = played_wins(rules, scores, team, way.points, bidding)
    assert way.tie_break == any(kind is VerdictKind.BIDDER_BREAKS_TIE for _, kind in outcomes)


@st.composite
def close_games(draw):
    """House rules of any table, and scores of a game in play near its end: nobody at the
    target, or (three teams or more) A and B tied past it after a hand another team bid
    and lost, the others below them."""
    layout = draw(st.sampled_from(["3x2", "2x3", "2x2", "c4", "c5", "c6"]))
    target = draw(st.integers(1, 40))
    rules = HouseRules(layout, target, bidder_goes_out=draw(st.booleans()))
    scores = {team: draw(st.integers(target - 9, target - 1)) for team in rules.team_names}
    if len(scores) >= 3 and draw(st.booleans()):
        tied = draw(st.integers(target, target + 6))
        scores.update({team: draw(st.integers(target - 9, tied - 1)) for team in scores})
        scores.update(A=tied, B=tied)
    return rules, scores


@settings(max_examples=25, deadline=None)
@given(close_games())
def test_each_way_named_wins_when_its_hands_are_played(game):
    rules, scores = game
    for need in team_needs(rules, scores):
        check_way(rules, scores, need.team, need.bidding, bidding=True)
        check_way(rules, scores, need.team, need.not_bidding, bidding=False)


@pytest.mark.parametrize("bidder_goes_out", [False, True])
def test_goes_out_is_named_where_only_the_house_rule_wins(bidder_goes_out):
    rules = HouseRules("2x3", 21, bidder_goes_out=bidder_goes_out)
    way = needs_of({"A": 18, "B": 20}, teams="2x3", bidder_goes_out=bidder_goes_out)["A"].bidding
    plain = HouseRules("2x3", 21, bidder_goes_out=False)
    plain_wins = all(won for won, _ in played_wins(plain, {"A": 18, "B": 20}, "A", way.points, True))
    assert way.goes_out == (bidder_goes_out and not plain_wins)
    assert all(won for won, _ in played_wins(rules, {"A": 18, "B": 20}, "A", way.points, True))
