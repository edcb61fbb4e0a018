"""A whole game replayed from its deals: dealers, throw-ins, scores, the end, refusals.

RULES.md, all sections together, and "Worked example".
"""
import pytest

from scorekeeper.rules import (
    PASS,
    Deal,
    HandRejected,
    HouseRules,
    RuleViolation,
    Suit,
    Tally,
    VerdictKind,
    replay,
)

P = PASS
THROW_IN = Deal((P, P, P, P, P, P))


def tally(owners, game=None, game_values=None):
    """owners: five team letters for High, Low, Right, Left, Joker, e.g. "ABBCC"."""
    names = ("high", "low", "right", "left", "joker")
    return Tally(dict(zip(names, owners, strict=True)), game=game, game_values=game_values)


def hand(calls, owners, game=None, trump="hearts", game_values=None):
    return Deal(tuple(calls), trump, tally(owners, game, game_values))


def rejected(rules, first_dealer, deals):
    with pytest.raises(HandRejected) as caught:
        replay(rules, first_dealer, deals)
    return caught.value


# --- the worked example --------------------------------------------------------------

@pytest.mark.parametrize(
    "dealer, calls",
    [
        (1, (4, P, P, P, P, P)),  # seat 2 calls first
        (6, (P, 4, P, P, P, P)),  # seats 1, 2, ...
        (4, (P, P, P, 4, P, P)),  # seats 5, 6, 1, 2, ...
        (2, (P, P, P, P, P, 4)),  # seat 2 is the dealer and calls last
    ],
)
def test_worked_example(dealer, calls):
    # Seat 2 (team B) bids 4, hearts trump. A takes High and Game; B takes Low and Right;
    # C takes Left and Joker. P(A)=2, P(B)=2, P(C)=2. B was set: A +2, B -4, C +2.
    state = replay(HouseRules(), dealer, [hand(calls, "ABBCC", "A", trump="hearts")])
    (result,) = state.deals
    assert result.number == 1
    assert result.dealer_seat == dealer
    assert result.bidder_seat == 2
    assert result.bid == 4
    assert result.bidding_team == "B"
    assert result.trump is Suit.HEARTS
    assert result.taken == {"A": 2, "B": 2, "C": 2}
    assert result.made is False
    assert result.score_change == {"A": 2, "B": -4, "C": 2}
    assert result.scores_after == {"A": 2, "B": -4, "C": 2}
    assert state.scores == {"A": 2, "B": -4, "C": 2}
    assert state.verdict.kind is VerdictKind.PLAYING
    assert not state.finished
    assert state.winner is None
    assert state.hands_played == 1
    assert state.next_dealer == dealer % 6 + 1


def test_worked_example_with_game_from_game_values():
    deal = hand((4, P, P, P, P, P), "ABBCC", game_values={"A": 33, "B": 20, "C": 28})
    state = replay(HouseRules(), 1, [deal])
    assert state.deals[0].tally.game == "A"
    assert state.scores == {"A": 2, "B": -4, "C": 2}


# --- the deal passes left, throw-ins do not move it ----------------------------------

def test_the_deal_passes_left_after_every_played_hand():
    rules = HouseRules(target=999)
    calls = (3, P, P, P, P, P)
    state = replay(rules, 5, [hand(calls, "ABCAB", "C")] * 7)
    assert [d.dealer_seat for d in state.deals] == [5, 6, 1, 2, 3, 4, 5]
    assert state.next_dealer == 6
    assert state.hands_played == 7


def test_after_a_throw_in_the_same_dealer_deals_again():
    state = replay(HouseRules(), 3, [THROW_IN])
    (result,) = state.deals
    assert result.thrown_in
    assert result.dealer_seat == 3
    assert result.trump is None
    assert result.tally is None
    assert result.bidder_seat is None
    assert result.score_change is None
    assert state.next_dealer == 3
    assert state.hands_played == 0
    assert state.scores == {"A": 0, "B": 0, "C": 0}
    assert state.verdict.kind is VerdictKind.PLAYING


def test_throw_ins_and_played_hands_mixed():
    rules = HouseRules(target=999)
    played = hand((3, P, P, P, P, P), "ABCAB", "C")
    deals = [played, THROW_IN, played, THROW_IN, THROW_IN, played]
    state = replay(rules, 5, deals)
    assert [d.dealer_seat for d in state.deals] == [5, 6, 6, 1, 1, 1]
    assert [d.thrown_in for d in state.deals] == [False, True, False, True, True, False]
    assert state.next_dealer == 2
    assert state.hands_played == 3
    # a throw-in changes no score
    assert state.deals[1].scores_after == state.deals[0].scores_after
    assert [d.number for d in state.deals] == [1, 2, 3, 4, 5, 6]


def test_the_dealer_after_seat_6_is_seat_1():
    state = replay(HouseRules(), 6, [hand((P, P, P, 3, P, P), "AABCC", "A")])
    assert state.deals[0].dealer_seat == 6
    assert state.next_dealer == 1


def test_a_throw_in_where_the_deal_would_have_reached_seat_1_keeps_seat_6():
    state = replay(HouseRules(), 6, [THROW_IN, THROW_IN])
    assert [d.dealer_seat for d in state.deals] == [6, 6]
    assert state.next_dealer == 6


def test_no_deals_yet():
    state = replay(HouseRules(teams="2x3"), 4, [])
    assert state.scores == {"A": 0, "B": 0}
    assert state.next_dealer == 4
    assert state.first_dealer == 4
    assert state.next_number == 1
    assert state.verdict.kind is VerdictKind.PLAYING
    assert not state.finished


@pytest.mark.parametrize("first_dealer", [0, 7, None, "1"])
def test_the_first_dealer_must_be_a_seat(first_dealer):
    with pytest.raises(RuleViolation) as caught:
        replay(HouseRules(), first_dealer, [])
    assert caught.value.code == "seat_invalid"


# --- the auction within a deal decides bidder, bid and bidding team ------------------

@pytest.mark.parametrize(
    "layout, bidding_team", [("3x2", "A"), ("2x3", "B")],
)
def test_the_bidding_team_is_the_bidders_team_in_the_layout(layout, bidding_team):
    # dealer 1: seats 2, 3, 4 ... seat 4 bids 3
    rules = HouseRules(teams=layout, target=999)
    owners = "AAABB"
    state = replay(rules, 1, [hand((P, P, 3, P, P, P), owners, "B")])
    result = state.deals[0]
    assert result.bidder_seat == 4
    assert result.bidding_team == bidding_team


def test_the_highest_of_several_bids_is_the_bid():
    # dealer 2: seats 3, 4, 5, 6, 1, 2. Seat 3 bids 3, seat 5 bids 4, seat 1 bids 5.
    rules = HouseRules(target=999)
    state = replay(rules, 2, [hand((3, P, 4, P, 5, P), "AAAAB", "C")])
    result = state.deals[0]
    assert (result.bidder_seat, result.bid, result.bidding_team) == (1, 5, "A")
    assert result.made is False  # A took 4 of 5
    assert state.scores == {"A": -5, "B": 1, "C": 1}


def test_calls_as_typed_into_a_form():
    state = replay(HouseRules(), 1, [hand(("4", "pass", "PASS", "pass", "pass", "pass"), "BBBBA", "B")])
    assert state.deals[0].bid == 4
    assert state.scores == {"A": 1, "B": 5, "C": 0}


def test_a_six_ends_the_auction_inside_a_deal():
    state = replay(HouseRules(), 1, [hand((P, 6), "CCCCC", "C", trump="spades")])
    result = state.deals[0]
    assert result.bidder_seat == 3
    assert result.trump is Suit.SPADES
    assert state.scores == {"A": 0, "B": 0, "C": 6}


# --- scores --------------------------------------------------------------------------

def test_scores_may_go_negative():
    # dealer 1 then 2: seat 1 (team A) bids 5 twice and is set both times
    deals = [
        hand((P, P, P, P, P, 5), "AAABB", "C"),
        hand((P, P, P, P, 5, P), "ABBCC", None),
    ]
    state = replay(HouseRules(), 1, deals)
    assert [d.scores_after for d in state.deals] == [
        {"A": -5, "B": 2, "C": 1},
        {"A": -10, "B": 4, "C": 3},
    ]


def test_two_teams_of_three_game():
    rules = HouseRules(teams="2x3", target=11)
    deals = [
        hand((4, P, P, P, P, P), "BBBAA", "B"),  # dealer 1: seat 2 (B) bids 4, makes 4
        hand((P, P, P, P, 3, P), "AAABB", None),  # dealer 2: seat 1 (A) bids 3, makes 3
        hand((3, P, P, P, P, P), "BBAAA", "A"),  # dealer 3: seat 4 (B) bids 3, set
        hand((P, P, 5, P, P, P), "AAAAB", "A"),  # dealer 4: seat 1 (A) bids 5, takes 6
    ]
    state = replay(rules, 1, deals)
    assert [d.bidding_team for d in state.deals] == ["B", "A", "B", "A"]
    assert [d.scores_after for d in state.deals] == [
        {"A": 2, "B": 4},
        {"A": 5, "B": 6},
        {"A": 9, "B": 3},
        {"A": 14, "B": 4},
    ]
    assert state.winner == "A"
    assert state.verdict.kind is VerdictKind.REACHED


# --- the end of the game -------------------------------------------------------------

A_BIDS_SIX_AND_TAKES_ALL = [
    hand((P, P, 6), "AAAAA", "A"),  # dealer 1: seats 2, 3, then 4 (A) bids 6
    hand((P, 6), "AAAAA", "A"),  # dealer 2: seats 3, then 4
    hand((6,), "AAAAA", "A"),  # dealer 3: seat 4 first
    hand((P, P, 6), "AAAAA", "A"),  # dealer 4: seats 5, 6, then 1 (A)
]


def test_a_game_to_21_by_default():
    state = replay(HouseRules(), 1, A_BIDS_SIX_AND_TAKES_ALL)
    assert [d.scores_after["A"] for d in state.deals] == [6, 12, 18, 24]
    assert [d.verdict.finished for d in state.deals] == [False, False, False, True]
    assert state.finished
    assert state.winner == "A"
    assert state.verdict.kind is VerdictKind.REACHED
    assert state.scores == {"A": 24, "B": 0, "C": 0}


@pytest.mark.parametrize("target, hands", [(11, 2), (15, 3), (18, 3), (19, 4), (24, 4)])
def test_any_target(target, hands):
    state = replay(HouseRules(target=target), 1, A_BIDS_SIX_AND_TAKES_ALL[:hands])
    assert state.winner == "A"
    assert [d.verdict.finished for d in state.deals] == [False] * (hands - 1) + [True]


@pytest.mark.parametrize("after_the_end", [THROW_IN, hand((3, P, P, P, P, P), "BBBBB", "B")])
def test_a_hand_after_the_game_is_over_is_refused(after_the_end):
    error = rejected(HouseRules(target=11), 1, [*A_BIDS_SIX_AND_TAKES_ALL[:2], after_the_end])
    assert error.code == "game_over"
    assert error.number == 3
    assert error.params["winner"] == "A"
    assert isinstance(error, RuleViolation)


def test_a_target_of_31_is_not_reached_at_24():
    state = replay(HouseRules(target=31), 1, A_BIDS_SIX_AND_TAKES_ALL)
    assert not state.finished
    assert state.verdict.kind is VerdictKind.PLAYING


# A tie at the top without the bidding team (target 5, three teams).
TIE_WITHOUT_THE_BIDDER = [
    # dealer 1: seat 2 (B) bids 3. A: High, Low, Game; C: Right, Left; B: Joker. B set.
    hand((3, P, P, P, P, P), "AACCB", "A"),  # A 3, B -3, C 2
    # dealer 2: seats 3, 4, 5: seat 5 (B) bids 3. A: High, Low; C: Right, Left, Joker;
    # Game tied. B set.
    hand((P, P, 3, P, P, P), "AACCC", None),  # A 5, B -6, C 5
]


def test_tied_at_the_top_without_the_bidding_team_there_is_no_winner_and_play_goes_on():
    state = replay(HouseRules(target=5), 1, TIE_WITHOUT_THE_BIDDER)
    assert state.scores == {"A": 5, "B": -6, "C": 5}
    assert state.verdict.kind is VerdictKind.TIE_PLAY_ON
    assert set(state.verdict.teams) == {"A", "C"}
    assert state.verdict.score == 5
    assert state.winner is None
    assert not state.finished
    assert state.next_dealer == 3


@pytest.mark.parametrize(
    "next_hands, scores, kind, winner",
    [
        # dealer 3: seat 4 (A) bids 3 and makes it; C takes 3 too: tied 8-8, A bid.
        ([hand((3, P, P, P, P, P), "AAACC", "C")], {"A": 8, "B": -6, "C": 8},
         VerdictKind.BIDDER_BREAKS_TIE, "A"),
        # dealer 3: seat 6 (C) bids 4 and takes 4: C 9 beats A 7.
        ([hand((P, P, 4, P, P, P), "AACCC", "C")], {"A": 7, "B": -6, "C": 9},
         VerdictKind.MORE_POINTS, "C"),
        # dealer 3: seat 5 (B) bids 3, set again, A and C tied at 7: still nobody.
        ([hand((P, 3, P, P, P, P), "AACCB", "B")], {"A": 7, "B": -9, "C": 7},
         VerdictKind.TIE_PLAY_ON, None),
        # ... and the hand after that decides: dealer 4, seat 5 (B) bids 3, set; C ahead.
        ([hand((P, 3, P, P, P, P), "AACCB", "B"), hand((3, P, P, P, P, P), "CCCAB", None)],
         {"A": 8, "B": -12, "C": 10}, VerdictKind.MORE_POINTS, "C"),
        # a throw-in decides nothing; the same dealer 3 deals the hand that does
        ([THROW_IN, hand((3, P, P, P, P, P), "AAACC", "C")], {"A": 8, "B": -6, "C": 8},
         VerdictKind.BIDDER_BREAKS_TIE, "A"),
    ],
)
def test_after_a_tie_without_the_bidding_team_the_next_hand_decides_again(
    next_hands, scores, kind, winner
):
    state = replay(HouseRules(target=5), 1, [*TIE_WITHOUT_THE_BIDDER, *next_hands])
    assert state.scores == scores
    assert state.verdict.kind is kind
    assert state.winner == winner


def test_after_a_throw_in_during_a_tie_the_game_is_still_undecided():
    state = replay(HouseRules(target=5), 1, [*TIE_WITHOUT_THE_BIDDER, THROW_IN])
    assert state.verdict.kind is VerdictKind.TIE_PLAY_ON
    assert state.winner is None
    assert state.next_dealer == 3


BIDDER_REACHES_BUT_C_HAS_MORE = [
    # dealer 1: seats 2, 3: seat 3 (C) bids 3, takes High, Low, Right and Game.
    hand((P, 3, P, P, P, P), "CCCAA", "C"),  # A 2, B 0, C 4
    # dealer 2: seats 3, 4, 5, 6, 1: seat 1 (A) bids 3, takes High, Low, Right; C the rest.
    hand((P, P, P, P, 3, P), "AAACC", "C"),  # A 5, B 0, C 7
]


def test_bidder_goes_out_off_the_higher_score_wins():
    state = replay(HouseRules(target=5), 1, BIDDER_REACHES_BUT_C_HAS_MORE)
    assert state.scores == {"A": 5, "B": 0, "C": 7}
    assert state.verdict.kind is VerdictKind.MORE_POINTS
    assert state.winner == "C"


def test_bidder_goes_out_on_the_bidding_team_that_made_it_wins():
    state = replay(HouseRules(target=5, bidder_goes_out=True), 1, BIDDER_REACHES_BUT_C_HAS_MORE)
    assert state.scores == {"A": 5, "B": 0, "C": 7}
    assert state.verdict.kind is VerdictKind.BIDDER_GOES_OUT
    assert state.winner == "A"
    error = rejected(
        HouseRules(target=5, bidder_goes_out=True), 1, [*BIDDER_REACHES_BUT_C_HAS_MORE, THROW_IN]
    )
    assert (error.code, error.number) == ("game_over", 3)


# --- refused deals -------------------------------------------------------------------

GOOD = hand((3, P, P, P, P, P), "ABCAB", "C")


@pytest.mark.parametrize(
    "deal, code",
    [
        (Deal((P, P, P, P, P, P), trump="hearts"), "throw_in_scored"),
        (Deal((P, P, P, P, P, P), tally=tally("ABCAB", "A")), "throw_in_scored"),
        (Deal((3, P, P, P, P, P), None, tally("ABCAB", "A")), "trump_missing"),
        (Deal((3, P, P, P, P, P), "no trump", tally("ABCAB", "A")), "trump_invalid"),
        (Deal((3, P, P, P, P, P), "♥", tally("ABCAB", "A")), "trump_invalid"),
        (Deal((3, P, P, P, P, P), "hearts", None), "tally_missing"),
        (Deal((3, P, P, P, P), "hearts", tally("ABCAB", "A")), "auction_unfinished"),
        (Deal((), None, None), "auction_unfinished"),
        (Deal((P, P, P, P, P)), "auction_unfinished"),
        (Deal((4, 3, P, P, P, P), "hearts", tally("ABCAB", "A")), "bid_not_higher"),
        (Deal((4, 4, P, P, P, P), "hearts", tally("ABCAB", "A")), "bid_not_higher"),
        (Deal((P, P, P, P, P, P, P)), "auction_over"),
        (Deal((6, P), "hearts", tally("ABCAB", "A")), "auction_over"),
        (Deal((2, P, P, P, P, P), "hearts", tally("ABCAB", "A")), "call_invalid"),
        (Deal((7, P, P, P, P, P), "hearts", tally("ABCAB", "A")), "call_invalid"),
        (Deal((3, P, P, P, P, P), "hearts", Tally({"high": "A"})), "point_unassigned"),
        (hand((3, P, P, P, P, P), "ABCAD", "A"), "point_not_a_team"),
        (hand((3, P, P, P, P, P), "ABCAB", "D"), "point_not_a_team"),
        (hand((3, P, P, P, P, P), "ABCAB", game_values={"A": 41, "B": 41}), "game_values_over"),
        (hand((3, P, P, P, P, P), "ABCAB", game_values={"A": -1}), "game_value_invalid"),
        (hand((3, P, P, P, P, P), "ABCAB", "A", game_values={"B": 9}), "game_disagrees"),
    ],
)
@pytest.mark.parametrize("position", [1, 3])
def test_an_illegal_deal_is_refused_with_its_number(deal, code, position):
    deals = [GOOD] * (position - 1) + [deal]
    error = rejected(HouseRules(target=999), 1, deals)
    assert error.code == code
    assert error.number == position
    assert error.violation.code == code
    assert isinstance(error, RuleViolation)


def test_team_c_is_refused_in_a_game_of_two_teams():
    error = rejected(HouseRules(teams="2x3"), 1, [hand((3, P, P, P, P, P), "ABCAB", "A")])
    assert (error.code, error.number) == ("point_not_a_team", 1)


def test_the_first_refused_deal_is_reported():
    bad = Deal((3, P, P, P, P, P), None, tally("ABCAB", "A"))
    worse = Deal((2,))
    error = rejected(HouseRules(), 1, [GOOD, bad, worse])
    assert (error.code, error.number) == ("trump_missing", 2)


def test_replaying_does_not_change_the_deals_given():
    deals = [GOOD, THROW_IN, GOOD]
    kept = list(deals)
    first = replay(HouseRules(), 2, deals)
    second = replay(HouseRules(), 2, deals)
    assert deals == kept
    assert first.scores == second.scores
    assert first.deals == second.deals
