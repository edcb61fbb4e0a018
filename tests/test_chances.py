"""Win chances from here (scorekeeper.figures.chances): the rest of the game played out many times
with the rules engine, on hands drawn from the club's own history.

The simulation's quick path is held to the engine itself: a game it plays out is the
game ``carry_on`` gives for the same hands, re-seated to each dealer in turn, at every
table layout (four, five or six seats; two to six teams) and every house rule.
"""
from __future__ import annotations

import random
import re
import tracemalloc
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from scorekeeper.figures import chances as chances_module
from scorekeeper.figures.chances import (
    DEFAULT_WEIGHT, HAND_BUDGET, POOL, Deck, Shape, blended, default_shapes,
    largest_remainder, play_out, reseated, shape_of, simulate, teams_from,
)
from scorekeeper.rules import (
    PASS, Deal, HouseRules, Tally, TeamLayout, carry_on, left_of, replay, team_of,
)
from scorekeeper.rules.game import play_deal
from scorekeeper.store.kept import LockedLRU
from scorekeeper.store.models import Game
from tests.rules.test_properties import legal_games
from tests.views.view_helpers import Page

THREE_PAIRS = HouseRules()
TRIOS = HouseRules(teams="2x3")
DEFAULT = Deck(THREE_PAIRS, default_shapes(THREE_PAIRS))
LAYOUTS = tuple(TeamLayout)


def deal(bidder_step: int, bid: int, owners: str, game: str | None, seats: int = 6) -> Deal:
    """The bid ``bidder_step`` seats left of the dealer, every other seat passing;
    High, Low, Right, Left and Joker to the teams of ``owners``, Game to ``game``."""
    calls = [PASS] * seats
    calls[bidder_step - 1] = bid
    names = ("high", "low", "right", "left", "joker")
    return Deal(tuple(calls[:bidder_step] if bid == 6 else calls), "spades",
                Tally(dict(zip(names, owners)), game))


def at_scores(rules: HouseRules, scores: dict[str, int], dealer: int = 1):
    """A game in play at ``scores``, ``dealer`` dealing next."""
    return replace(replay(rules, dealer, []), scores=scores)


# --- the numbers -------------------------------------------------------------------------

def test_shares_are_whole_numbers_adding_up_to_a_hundred_by_largest_remainder():
    assert largest_remainder([1, 1, 1]) == (34, 33, 33)
    assert largest_remainder([2, 1]) == (67, 33)
    assert largest_remainder([0.625, 0.25, 0.125]) == (63, 25, 12)  # 62.5 gets the 1
    assert largest_remainder([0, 0]) == (50, 50)
    assert sum(largest_remainder([997, 2, 1])) == 100


def test_a_team_that_has_won_has_every_chance_and_the_others_none():
    won = replay(HouseRules(target=3), 1, [deal(1, 3, "BBBBB", "B")])
    assert won.winner == "B"
    assert simulate(won, DEFAULT, "any") == {"A": 0, "B": 100, "C": 0}


def test_chances_add_up_to_a_hundred_from_any_scores():
    for scores in ({"A": 0, "B": 0, "C": 0}, {"A": 20, "B": -4, "C": 19},
                   {"A": 7, "B": 7, "C": 7}, {"A": -10, "B": 3, "C": 12}):
        chances = simulate(at_scores(THREE_PAIRS, scores), DEFAULT, "seed")
        assert sum(chances.values()) == 100, scores
    trios = Deck(TRIOS, default_shapes(TRIOS))
    assert sum(simulate(at_scores(TRIOS, {"A": 5, "B": 9}), trios, "seed").values()) == 100


def test_from_level_scores_the_neutral_default_favours_no_team():
    chances = simulate(at_scores(THREE_PAIRS, {"A": 0, "B": 0, "C": 0}), DEFAULT, "seed")
    assert all(28 <= share <= 39 for share in chances.values()), chances


def test_the_team_that_scored_gains_and_the_others_lose():
    before = at_scores(THREE_PAIRS, {"A": 8, "B": 8, "C": 8})
    after = carry_on(before, [deal(3, 4, "AAAAA", "A")])  # seat 4 (A) bids 4, takes 6
    assert after.scores == {"A": 14, "B": 8, "C": 8}
    was, now = simulate(before, DEFAULT, "one"), simulate(after, DEFAULT, "two")
    assert now["A"] >= was["A"] + 15, (was, now)
    assert now["B"] < was["B"] and now["C"] < was["C"]


def test_a_set_bidder_loses_ground():
    before = at_scores(THREE_PAIRS, {"A": 12, "B": 12, "C": 12})
    after = carry_on(before, [deal(2, 5, "CCABB", "C")])  # seat 3 (C) bids 5, takes 3
    assert after.scores == {"A": 13, "B": 14, "C": 7}
    was, now = simulate(before, DEFAULT, "one"), simulate(after, DEFAULT, "two")
    assert now["C"] <= was["C"] - 15 and now["B"] > was["B"], (was, now)


def test_the_same_state_and_seed_give_the_same_numbers_with_a_fresh_deck():
    state = at_scores(THREE_PAIRS, {"A": 9, "B": 4, "C": 13}, dealer=5)
    first = simulate(state, DEFAULT, "chances 7 12")
    again = simulate(state, Deck(THREE_PAIRS, default_shapes(THREE_PAIRS)), "chances 7 12")
    assert first == again


def test_a_target_too_far_off_to_tell_gives_no_numbers():
    far = HouseRules(target=999)
    assert simulate(at_scores(far, {"A": 3, "B": 0, "C": 5}),
                    Deck(far, default_shapes(far)), "seed") is None


def test_the_house_rules_decide_the_end_bidder_goes_out_included():
    # Every hand: the dealer's left bids 3 and takes 3, the next team 2, the dealer's 1.
    # Seat 6 (C) deals, so A bids and reaches 21, but B passes it with 22.
    every_hand = {Shape(bidder=1, bid=3, taken=(1, 3, 2)): 1.0}
    scores = {"A": 18, "B": 20, "C": 0}
    for rules, winner in ((THREE_PAIRS, "B"), (HouseRules(bidder_goes_out=True), "A")):
        chances = simulate(at_scores(rules, scores, dealer=6), Deck(rules, every_hand), "s")
        assert chances[winner] == 100, (rules, chances)


# --- every table ---------------------------------------------------------------------------

def level_deck(layout: TeamLayout) -> tuple[HouseRules, Deck]:
    rules = HouseRules(layout)
    return rules, Deck(rules, default_shapes(rules))


def scores_of(rules: HouseRules, *values: int) -> dict[str, int]:
    return dict(zip(rules.team_names, values))


@pytest.mark.parametrize("layout", LAYOUTS)
def test_the_deal_passes_from_each_team_to_the_next_at_every_table(layout):
    """What lets a hand scored once serve every dealer: the teams in the order their
    seats follow any dealer are the teams in order, from the dealer's on."""
    rules = HouseRules(layout)
    teams = rules.team_names
    for dealer in range(1, rules.seats + 1):
        first = teams.index(team_of(dealer, layout))
        assert teams_from(layout, dealer) == teams[first:] + teams[:first]
        assert team_of(left_of(dealer, rules.seats), layout) == teams[(first + 1) % len(teams)]


@pytest.mark.parametrize("layout", LAYOUTS)
def test_at_every_table_a_team_that_has_won_has_every_chance(layout):
    rules = HouseRules(layout, target=3)
    won = replay(rules, 1, [deal(1, 3, "BBBBB", "B", rules.seats)])  # seat 2 (B) takes all
    assert won.winner == "B"
    assert simulate(won, Deck(rules, default_shapes(rules)), "any") == {
        team: 100 if team == "B" else 0 for team in rules.team_names}


@pytest.mark.parametrize("layout", LAYOUTS)
def test_at_every_table_chances_add_up_to_a_hundred_from_any_scores(layout):
    rules, deck = level_deck(layout)
    teams = len(rules.team_names)
    for values in ([0] * teams, [20, -4, 19, 3, 0, 12], [-10, 3, 12, 7, 7, 7],
                   [7] * teams, [18, 2, 2, 2, 2, 2][-teams:]):
        for dealer in (1, rules.seats):
            state = at_scores(rules, scores_of(rules, *values), dealer)
            chances = simulate(state, deck, "seed")
            assert sorted(chances) == sorted(rules.team_names), chances
            assert sum(chances.values()) == 100, (values, dealer, chances)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_at_every_table_a_team_at_match_point_far_ahead_is_favoured(layout):
    """One point from 21, the others at 0: whichever team it is, wherever the deal."""
    rules, deck = level_deck(layout)
    for team in rules.team_names:
        for dealer in (1, rules.seats):
            scores = {other: 20 if other == team else 0 for other in rules.team_names}
            chances = simulate(at_scores(rules, scores, dealer), deck, "seed")
            rest = {other: share for other, share in chances.items() if other != team}
            assert chances[team] > sum(rest.values()), (team, dealer, chances)


SYMMETRIC_WITHIN = 5  # per cent: the same chance, but for the games' luck (2000 at most)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_at_every_table_teams_level_on_points_have_the_same_chance(layout):
    """The neutral default favours no team (above), so two teams on the same score have
    the same chance, whichever they are and whoever deals, from the start and later."""
    rules, deck = level_deck(layout)
    teams = rules.team_names
    for dealer in (1, rules.seats):
        level = simulate(at_scores(rules, scores_of(rules, *[0] * len(teams)), dealer),
                         deck, f"level {dealer}")
        assert all(abs(share - 100 / len(teams)) <= SYMMETRIC_WITHIN
                   for share in level.values()), (dealer, level)
        for first, second in ((0, len(teams) - 1), (0, 1)):
            values = [8] * len(teams)
            values[first] = values[second] = 15
            chances = simulate(at_scores(rules, scores_of(rules, *values), dealer), deck,
                               f"two level {dealer}")
            ahead = (chances[teams[first]], chances[teams[second]])
            assert abs(ahead[0] - ahead[1]) <= SYMMETRIC_WITHIN, (values, dealer, chances)
            assert min(ahead) > max(chances.values(), default=0) - SYMMETRIC_WITHIN


@pytest.mark.parametrize("layout", LAYOUTS)
def test_at_every_table_a_game_gives_the_same_numbers_on_any_server(layout, monkeypatch):
    """Nothing kept from before (a fresh deck, the engine's hands and verdicts worked
    out again): the same game, the same seed, the same numbers."""
    rules, deck = level_deck(layout)
    state = at_scores(rules, scores_of(rules, 9, 4, 13, 2, 11, 6), dealer=rules.seats)
    first = simulate(state, deck, "chances 7 12")
    chances_module.scored.cache_clear()
    monkeypatch.setattr(chances_module, "VERDICTS", LockedLRU(64))
    assert simulate(state, Deck(rules, default_shapes(rules)), "chances 7 12") == first


@pytest.mark.parametrize("layout", LAYOUTS)
def test_a_game_whose_scores_only_fall_runs_out_of_hands_with_no_winner(layout):
    """Every hand the dealer's left bids 6 and takes 5 (Game tied), set, and nobody else
    takes a point: the scores fall for as long as the draws last, a whole budget's worth,
    far below where a game starts, and no team reaches the target by any wrapping."""
    rules = HouseRules(layout)
    teams = len(rules.team_names)
    sinking = Shape(bidder=1, bid=6, taken=(0, 5, *(0,) * (teams - 2)))
    deck = Deck(rules, {sinking: 1.0})
    start = (-6000,) * teams  # a thousand hands set at 6 already
    assert play_out(deck, start, 1, iter([0] * HAND_BUDGET)) == (None, HAND_BUDGET)


# --- the hands ---------------------------------------------------------------------------

def test_a_hand_is_kept_as_seen_from_its_dealer_so_any_seat_can_deal_it_again():
    # Seat 3 deals, seat 5 (B) bids 4: C (the dealer's team) 1, A 1, B 4.
    shape = shape_of(THREE_PAIRS, 3, 5, 4, {"A": 1, "B": 4, "C": 1})
    assert shape == Shape(bidder=2, bid=4, taken=(1, 1, 4))
    # Dealt by seat 1, the bid is seat 3's (C); A (the dealer's) 1, B 1, C 4.
    _auction, _tally, hand = play_deal(THREE_PAIRS, 1, reseated(THREE_PAIRS, shape, 1))
    assert (hand.bidding_team, hand.taken, hand.made) == ("C", {"A": 1, "B": 1, "C": 4}, True)
    # A 6 ends the bidding; Game tied in a hand of 5.
    six = Shape(bidder=6, bid=6, taken=(5, 0, 0))
    _auction, tally, hand = play_deal(THREE_PAIRS, 2, reseated(THREE_PAIRS, six, 2))
    assert (hand.bidding_team, tally.game, hand.score_change) == ("B", None,
                                                                   {"A": 0, "B": -6, "C": 0})


@pytest.mark.parametrize("layout", LAYOUTS)
def test_the_default_bids_from_every_seat_alike_and_weighs_as_its_hands(layout):
    rules = HouseRules(layout)
    shapes = default_shapes(rules)
    assert abs(sum(shapes.values()) - DEFAULT_WEIGHT) < 1e-9
    by_seat = [sum(w for s, w in shapes.items() if s.bidder == step)
               for step in range(1, rules.seats + 1)]
    assert max(by_seat) - min(by_seat) < 1e-9
    for shape in shapes:  # every one a legal hand, scored by the engine
        assert sum(shape.taken) in (5, 6) and len(shape.taken) == len(rules.team_names)
        play_deal(rules, 1, reseated(rules, shape, 1))


@pytest.mark.parametrize("layout", LAYOUTS)
def test_the_default_favours_no_team_whoever_deals(layout):
    """Every team bids as often, and takes each number of points as often, bidding or
    not: the neutral default knows nothing of one team that it doesn't of another."""
    rules = HouseRules(layout)
    teams = rules.team_names
    for dealer in (1, rules.seats):
        bids = dict.fromkeys(teams, 0.0)
        took: dict[tuple[str, int], float] = {}
        for shape, weight in default_shapes(rules).items():
            hand = play_deal(rules, dealer, reseated(rules, shape, dealer))[2]
            bids[hand.bidding_team] += weight
            for team in teams:
                key = (team, hand.taken[team])
                took[key] = took.get(key, 0.0) + weight
        assert max(bids.values()) - min(bids.values()) < 1e-9, bids
        for points in range(7):
            alike = [took.get((team, points), 0.0) for team in teams]
            assert max(alike) - min(alike) < 1e-9, (points, alike)


def test_the_others_shares_go_to_the_other_teams_in_every_way_alike():
    """The default's commonest hand: seat 2 (B; seat 1 deals) bids 3 and takes 3, two
    other teams 2 and 1. With two teams the other takes both; with three, each way
    round; at five in cutthroat, any two of the four others, each way round."""
    def commonest(layout: str) -> list[tuple[int, ...]]:
        return sorted(shape.taken for shape in default_shapes(HouseRules(layout))
                      if (shape.bidder, shape.bid, shape.taken[1]) == (1, 3, 3))
    assert commonest("2x2") == [(3, 3)]
    assert commonest("3x2") == [(1, 3, 2), (2, 3, 1)]
    five = commonest("c5")
    assert len(five) == 4 * 3 and (0, 3, 0, 2, 1) in five and (1, 3, 2, 0, 0) in five
    assert all(sorted(taken) == [0, 0, 1, 2, 3] for taken in five)


def test_the_clubs_hands_count_one_each_behind_the_default():
    hand = Shape(1, 3, (0, 6, 0))
    weights = blended(THREE_PAIRS, [hand, hand])
    assert weights[hand] == default_shapes(THREE_PAIRS).get(hand, 0) + 2
    deck = Deck(THREE_PAIRS, {hand: 1.0})
    assert [deck.shapes[index] for index in deck.slots] == [hand] * POOL


def test_a_deck_is_small_enough_to_keep_one_for_every_game_in_play():
    """A server keeps a deck per game in play (``DECKS``): a few hundred tables' worth
    must fit in a few megabytes, or the decks are drawn again at every hand. (The
    engine's verdicts, which grow as games are played out, are not the deck's: every
    deck of the same house rules shares them.)"""
    for rules in map(HouseRules, LAYOUTS):
        weights = default_shapes(rules)
        Deck(rules, weights)  # the engine's outcomes and the rules' verdicts, kept once
        tracemalloc.start()
        try:
            deck = Deck(rules, weights)
            size, _peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert size < 64 * 1024, (rules.teams, size)
        assert len(deck.slots) == POOL
        assert Deck(rules, {}).ended is deck.ended  # one rules' verdicts, for all its decks


MOST_TABLES = 1_250  # the most one server held in bench/capacity.py, on either database


def test_a_deck_and_a_replay_are_kept_for_every_game_at_the_most_tables_a_server_holds():
    """The hands come round the tables in turn: kept for fewer games than are in play,
    each table's deck would be gone by its next hand and drawn again at every hand (a
    read of the club's last games), and its game replayed from the first hand."""
    from scorekeeper.store.replay import REPLAYS

    assert chances_module.DECKS.maxsize >= MOST_TABLES
    assert REPLAYS._kept.maxsize >= MOST_TABLES


@settings(max_examples=120, deadline=None,  # (every layout about twenty times)
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(legal_games(), st.integers(0, 2 ** 32), st.booleans())
def test_a_simulated_game_is_the_game_the_engine_plays_with_those_hands(game, seed, club):
    rules, first_dealer, deals = game
    state = replay(rules, first_dealer, deals)
    if state.finished:
        return
    weights = default_shapes(rules)
    if club:  # the hands just played, as a club's history, re-seated from their dealers
        weights = blended(rules, [shape_of(rules, d.dealer_seat, d.bidder_seat, d.bid, d.taken)
                                  for d in state.deals if not d.thrown_in])
    deck = Deck(rules, weights)
    draws = [random.Random(seed).randrange(POOL) for _ in range(300)]
    winner, hands = play_out(deck, tuple(state.scores[t] for t in rules.team_names),
                             state.next_dealer, iter(draws))
    played, dealer = state, state.next_dealer
    for slot in draws[:hands]:
        played = carry_on(played, [reseated(rules, deck.shapes[deck.slots[slot]], dealer)])
        dealer = played.next_dealer
    if winner is None:
        assert not played.finished
    else:
        assert played.finished and played.winner == rules.team_names[winner]


def test_a_clubs_hand_at_a_bid_the_game_doesnt_have_is_not_drawn():
    """A hand bid at 2 in a club game whose lowest bid was 2 is drawn for a game of the
    same rules, never for a game whose lowest bid is 3 (that game can't play it)."""
    two = Shape(1, 2, (2, 2, 2))  # seat 2 bids 2 and B takes 2, as do A and C
    assert blended(HouseRules(lowest_bid=2), [two])[two] == 1.0
    assert two not in blended(THREE_PAIRS, [two])
    # Played out under the rules that have it, to 4: hand 1, B bids 2 and made, 2 each;
    # hand 2, seat 3 (C) bids 2: 4 each, tied on the target, C bid: C wins.
    deck = Deck(HouseRules(lowest_bid=2, target=4), {two: 1.0})
    assert play_out(deck, (0, 0, 0), 1, iter([0] * 10)) == (2, 2)


def test_a_smudge_ends_a_played_out_game_at_once_far_from_the_target():
    """Seat 1 deals; seat 2 (B) bids 3 and takes all six. With the house rule smudge B
    wins there, 6 against 21; without it the same hand each deal (the seat left of the
    dealer bidding and its team taking all six: B, C, A, B, ...) plays 9 hands to 18 each,
    and the 10th (seat 4 deals, seat 5 bids) takes B to 24."""
    hand = Shape(1, 3, (0, 6, 0))
    assert play_out(Deck(HouseRules(smudge=True), {hand: 1.0}), (0, 0, 0), 1,
                    iter([0] * 30)) == (1, 1)
    assert play_out(Deck(THREE_PAIRS, {hand: 1.0}), (0, 0, 0), 1, iter([0] * 30)) == (1, 10)


# --- on the game page ---------------------------------------------------------------------

SHARE = re.compile(r"\b([A-F])\s(\d+)%")


@pytest.mark.parametrize("layout", LAYOUTS)
def test_the_game_page_says_every_teams_chance_at_every_table(client, db, start_game, layout):
    """Each team's chance, A to F, in the sentence and as its bar: the game is started
    through the new-game page and then given the layout, as the store keeps it."""
    game = start_game()
    row = db.get(Game, game)
    row.teams = layout
    db.add(row)
    db.commit()
    page = Page(client.get(f"/games/{game}"))
    sentence = page.root.find("p", id="chances").text()
    teams = HouseRules(layout).team_names
    assert sentence.startswith("Chances to win from here: ") and sentence.endswith("%."), sentence
    said = {team: int(share) for team, share in SHARE.findall(sentence.removesuffix("."))}
    assert tuple(said) == teams and sum(said.values()) == 100, sentence
    assert re.search(rf"%, {teams[-2]}\s\d+% and {teams[-1]}\s\d+%\.$", sentence) or (
        len(teams) == 2 and re.search(r": A\s\d+% and B\s\d+%\.$", sentence)), sentence
    bars = {item.find("span", class_="team-letter").text(): int(item.find("progress").get("value"))
            for item in page.root.find_all("li", class_="team")}
    assert bars == said
