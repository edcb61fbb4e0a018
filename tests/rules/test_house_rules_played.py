"""The house rules a table may add: *lowest bid* (3, or 2), *when everyone passes* (thrown
in, or the dealer is stuck) and *smudge* (all six points win at once), at tables of
six, four and five. Every number worked out by hand.

RULES.md, "Bidding", "End of the game", "What each team needs" and "House rules".
"""
import pytest

from scorekeeper.rules import (
    PASS,
    Auction,
    Bidding,
    Deal,
    HouseRules,
    RuleViolation,
    Tally,
    VerdictKind,
    judge,
    quick_auction,
    replay,
)
from scorekeeper.rules.auction import reseated
from scorekeeper.rules.game import HandRejected
from scorekeeper.rules.needs import Way, team_needs

P = PASS
LOW_TWO = HouseRules(lowest_bid=2)
STUCK = HouseRules(all_pass="dealer_stuck")
SMUDGE = HouseRules(smudge=True)


def points(high, low, right, left, joker, game=None):
    """A tally in the order of RULES.md's table: High, Low, Right, Left, Joker, Game."""
    return Tally({"high": high, "low": low, "right": right, "left": left, "joker": joker},
                 game)


def refusal(call, *args, **kwargs) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        call(*args, **kwargs)
    return caught.value


def needs_of(rules, scores):
    return {need.team: need for need in team_needs(rules, scores)}


# --- the declarations ------------------------------------------------------------------

def test_the_defaults_are_the_games_own_rules():
    rules = HouseRules()
    assert (rules.lowest_bid, rules.all_pass, rules.smudge) == (3, "throw_in", False)
    assert rules.bids == (3, 4, 5, 6)


@pytest.mark.parametrize("given, rule", [
    ({"lowest_bid": 1}, "lowest_bid"), ({"lowest_bid": "2"}, "lowest_bid"),
    ({"lowest_bid": True}, "lowest_bid"), ({"all_pass": "redeal"}, "all_pass"),
    ({"smudge": 1}, "smudge"),
])
def test_a_value_a_house_rule_doesnt_have_is_refused(given, rule):
    violation = refusal(HouseRules, **given)
    assert (violation.code, violation.params["rule"]) == ("house_rule_invalid", rule)


# --- lowest bid ----------------------------------------------------------------------

def test_with_lowest_bid_2_the_bids_are_2_to_6():
    assert LOW_TWO.bids == (2, 3, 4, 5, 6)
    assert Bidding.of(LOW_TWO) == Bidding((2, 3, 4, 5, 6), False)
    assert Auction.of(LOW_TWO, 1).legal_calls() == (P, 2, 3, 4, 5, 6)


def test_a_bid_of_2_wins_the_auction_where_the_lowest_bid_is_2():
    # Seat 1 deals: seats 2, 3, 4, 5, 6 and 1 call. Seat 3 bids 2, everyone else passes.
    auction = Auction.of(LOW_TWO, 1, (P, 2, P, P, P, P))
    assert auction.finished and not auction.thrown_in
    assert (auction.bidder_seat, auction.highest_bid) == (3, 2)
    assert Auction.of(LOW_TWO, 1, (2,)).legal_calls() == (P, 3, 4, 5, 6)


def test_a_bid_of_2_is_refused_by_the_games_own_rules_saying_the_bids_there_are():
    violation = refusal(Auction.of, HouseRules(), 1, (P, 2))
    assert violation.code == "call_invalid"
    assert (violation.params["low"], violation.params["high"]) == (3, 6)
    assert refusal(Auction.of, LOW_TWO, 1, (P, 1)).params["low"] == 2


def test_a_bid_of_2_must_still_be_higher_than_the_one_before():
    assert refusal(Auction.of, LOW_TWO, 1, (3, 2)).code == "bid_not_higher"
    assert refusal(Auction.of, LOW_TWO, 1, (2, 2)).code == "bid_not_higher"


def test_a_quick_entry_of_a_bid_of_2():
    # Seat 1 deals; seat 4 is the third to call.
    auction = quick_auction(1, 4, 2, bidding=Bidding.of(LOW_TWO))
    assert auction.calls == (P, P, 2, P, P, P)
    assert refusal(quick_auction, 1, 4, 2).code == "call_invalid"


def test_a_hand_at_a_bid_of_2_made_and_set():
    # Three pairs. Seat 1 deals; seat 2 (B) bids 2, hearts. Hand 1: A High and Game, B Low
    # and the Right Bauer, C the Left Bauer and the Joker: B took 2, made: A +2, B +2,
    # C +2. Seat 2 deals hand 2; seat 4 (A) bids 2 and takes only the Joker: A is set,
    # -2; B takes High, Low, Right and Game (+4), C the Left (+1): A 0, B 6, C 3.
    state = replay(LOW_TWO, 1, [
        Deal((2, P, P, P, P, P), "hearts", points("A", "B", "B", "C", "C", game="A")),
        Deal((P, 2, P, P, P, P), "clubs", points("B", "B", "B", "C", "A", game="B")),
    ])
    first, second = state.deals
    assert (first.bid, first.bidding_team, first.made) == (2, "B", True)
    assert first.score_change == {"A": 2, "B": 2, "C": 2}
    assert (second.dealer_seat, second.bidder_seat, second.bid, second.made) == (2, 4, 2, False)
    assert second.score_change == {"A": -2, "B": 4, "C": 1}
    assert state.scores == {"A": 0, "B": 6, "C": 3}
    assert state.next_dealer == 3


def test_lowest_bid_2_at_a_table_of_four_in_pairs():
    # Seat 4 deals: seats 1, 2, 3, 4 call. Seat 1 (A) bids 2, the rest pass. A takes High
    # and Low (2): made, +2; B (2 & 4) takes the Right, Left, Joker and Game: +4.
    rules = HouseRules("2x2", lowest_bid=2)
    state = replay(rules, 4, [
        Deal((2, P, P, P), "spades", points("A", "A", "B", "B", "B", game="B"))])
    (hand,) = state.deals
    assert (hand.bidder_seat, hand.bid, hand.bidding_team, hand.made) == (1, 2, "A", True)
    assert state.scores == {"A": 2, "B": 4}
    assert state.next_dealer == 1


def test_lowest_bid_2_at_a_table_of_five_cutthroat():
    # Seat 5 deals: seats 1 to 5 call. Seat 2 bids 2, seat 4 bids 3 over it; a 2 after
    # the 3 is refused.
    rules = HouseRules("c5", lowest_bid=2)
    auction = Auction.of(rules, 5, (P, 2, P, 3, P))
    assert (auction.bidder_seat, auction.highest_bid) == (4, 3)
    assert refusal(Auction.of, rules, 5, (P, 3, 2)).code == "bid_not_higher"


def test_what_each_team_needs_bidding_starts_at_the_lowest_bid():
    # A 19, B 10, C 10, to 21. A bidding 2 and making it reaches 21; B and C take 4 at
    # most and stay at 14: A wins. With the game's own bids A must bid 3 at least. Without
    # the bid A needs 2 either way.
    scores = {"A": 19, "B": 10, "C": 10}
    assert needs_of(LOW_TWO, scores)["A"].bidding == Way(2)
    assert needs_of(HouseRules(), scores)["A"].bidding == Way(3)
    assert needs_of(LOW_TWO, scores)["A"].not_bidding == Way(2)
    assert needs_of(HouseRules(), scores)["A"].not_bidding == Way(2)


def test_what_each_team_needs_at_four_with_lowest_bid_2():
    # Two pairs, A 19, B 0, to 21: A bidding 2 and making it has 21, B 4 at most.
    needs = needs_of(HouseRules("2x2", lowest_bid=2), {"A": 19, "B": 0})
    assert needs["A"].bidding == Way(2)
    assert not needs["B"].can_go_out


# --- when everyone passes: the dealer is stuck -------------------------------------

def test_by_default_six_passes_throw_the_cards_in():
    assert Auction.of(HouseRules(), 1, (P,) * 6).thrown_in


def test_a_stuck_dealer_may_not_pass_when_everyone_before_passed():
    # Seat 1 deals; seats 2 to 6 pass: the dealer must bid, 3 or more.
    auction = Auction.of(STUCK, 1, (P,) * 5)
    assert auction.dealer_must_bid and auction.seat_to_call == 1
    assert auction.legal_calls() == (3, 4, 5, 6)
    violation = refusal(auction.call, P)
    assert violation.code == "dealer_must_bid"
    assert violation.params == {"bid": 3, "seat": 1}
    assert refusal(Auction.of, STUCK, 1, (P,) * 6).code == "dealer_must_bid"


def test_a_stuck_dealer_bids_the_lowest_bid_or_more_and_the_hand_is_played():
    three = Auction.of(STUCK, 1, (P,) * 5 + (3,))
    assert (three.finished, three.thrown_in, three.bidder_seat, three.highest_bid) == (
        True, False, 1, 3)
    assert Auction.of(STUCK, 1, (P,) * 5 + (5,)).highest_bid == 5


def test_a_stuck_dealer_may_pass_once_someone_has_bid():
    auction = Auction.of(STUCK, 1, (P, 3, P, P, P, P))
    assert (auction.bidder_seat, auction.highest_bid) == (3, 3)
    assert not Auction.of(STUCK, 1, (P, 3)).dealer_must_bid


def test_stuck_with_lowest_bid_2_the_dealer_must_bid_2_or_more():
    rules = HouseRules(lowest_bid=2, all_pass="dealer_stuck")
    auction = Auction.of(rules, 3, (P,) * 5)
    assert auction.legal_calls() == (2, 3, 4, 5, 6)
    assert refusal(auction.call, P).params == {"bid": 2, "seat": 3}
    assert auction.call(2).bidder_seat == 3


def test_a_game_where_the_dealer_is_stuck_has_no_throw_in():
    # Seat 4 deals; everyone passes to the dealer, who bids 3 and takes High, Low and the
    # Right Bauer (A is seats 1 & 4): made, A +3; B the Left and Game +2; C the Joker +1.
    # The hand was played: the deal passes to seat 5.
    state = replay(STUCK, 4, [
        Deal((P, P, P, P, P, 3), "diamonds", points("A", "A", "A", "B", "C", game="B"))])
    (hand,) = state.deals
    assert (hand.thrown_in, hand.bidder_seat, hand.bidding_team, hand.made) == (
        False, 4, "A", True)
    assert state.scores == {"A": 3, "B": 2, "C": 1}
    assert state.next_dealer == 5
    with pytest.raises(HandRejected) as refused:
        replay(STUCK, 4, [Deal((P,) * 6)])
    assert (refused.value.code, refused.value.number) == ("dealer_must_bid", 1)


def test_stuck_at_a_table_of_four_and_of_five():
    # Four, cutthroat: seat 2 deals, seats 3, 4, 1 pass; the dealer bids 3 (team B).
    four = HouseRules("c4", all_pass="dealer_stuck")
    assert refusal(Auction.of, four, 2, (P, P, P, P)).params == {"bid": 3, "seat": 2}
    assert Auction.of(four, 2, (P, P, P, 3)).bidder_seat == 2
    # Five: seat 5 deals, seats 1 to 4 pass; the dealer must bid.
    five = HouseRules("c5", all_pass="dealer_stuck")
    assert Auction.of(five, 5, (P,) * 4).legal_calls() == (3, 4, 5, 6)
    assert refusal(Auction.of, five, 5, (P,) * 5).code == "dealer_must_bid"


def test_a_stuck_dealers_bid_moved_to_another_dealer_keeps_every_call():
    # Dealt by seat 1: seats 2 to 6 passed, seat 1 bid 3. Dealt by seat 2 instead: seats
    # 3, 4, 5, 6 pass, seat 1 bids 3, and seat 2, the dealer now, passes after a bid.
    auction = Auction.of(STUCK, 1, (P,) * 5 + (3,))
    moved, whole = reseated(auction, 2)
    assert moved.calls == (P, P, P, P, 3, P) and whole
    assert moved.bidder_seat == 1


# --- smudge --------------------------------------------------------------------------

SIX_TO_B = {"A": 0, "B": 6, "C": 0}


def test_smudge_is_off_by_default_a_team_taking_all_six_wins_only_at_the_target():
    verdict = judge(HouseRules(), {"A": 0, "B": 6, "C": 0}, "B", True, SIX_TO_B)
    assert verdict.kind is VerdictKind.PLAYING and not verdict.finished


def test_smudge_the_bidding_team_taking_all_six_wins_at_once():
    # B bids 4 and takes all six: B 6, far from 21, wins.
    verdict = judge(SMUDGE, {"A": 0, "B": 6, "C": 0}, "B", True, SIX_TO_B)
    assert (verdict.kind, verdict.winner, verdict.teams, verdict.score,
            verdict.bidding_team) == (VerdictKind.ALL_SIX, "B", ("B",), 6, "B")


def test_smudge_a_team_that_set_the_bidder_by_taking_all_six_wins_at_once():
    # Three pairs, target 21. Seat 1 deals; seat 2 (B) bids 3; C takes all six points:
    # B is set, -3; C +6. The scores were A 12, B 15, C 2: now A 12, B 12, C 8: C wins.
    deals = [Deal((3, P, P, P, P, P), "spades", points("C", "C", "C", "C", "C", game="C"))]
    state = replay(SMUDGE, 1, deals)
    assert state.scores == {"A": 0, "B": -3, "C": 6}
    assert (state.verdict.kind, state.winner) == (VerdictKind.ALL_SIX, "C")
    verdict = judge(SMUDGE, {"A": 12, "B": 12, "C": 8}, "B", False, {"A": 0, "B": 0, "C": 6})
    assert (verdict.kind, verdict.winner, verdict.score, verdict.bidding_team) == (
        VerdictKind.ALL_SIX, "C", 8, "B")


def test_smudge_wins_whatever_the_scores_even_over_a_team_past_the_target():
    # A and B tied on 22 past 21 (a tie without the bidder: play on), C 10. B bids 4 and
    # C takes all six: A 22, B 18, C 16. Without the smudge A alone has 21 and wins; with
    # it C wins.
    after, taken = {"A": 22, "B": 18, "C": 16}, {"A": 0, "B": 0, "C": 6}
    assert judge(HouseRules(), after, "B", False, taken).winner == "A"
    assert judge(SMUDGE, after, "B", False, taken).winner == "C"


def test_smudge_comes_before_bidder_goes_out():
    # A 18 bids 3 and takes all six: 24. Both house rules on: the smudge is the verdict.
    both = HouseRules(smudge=True, bidder_goes_out=True)
    verdict = judge(both, {"A": 24, "B": 0, "C": 0}, "A", True, {"A": 6, "B": 0, "C": 0})
    assert (verdict.kind, verdict.winner) == (VerdictKind.ALL_SIX, "A")


def test_five_points_with_game_tied_are_not_a_smudge():
    # Seat 2 (B) bids 3; B takes all five card points and Game is tied: 5, not all six.
    state = replay(SMUDGE, 1, [
        Deal((3, P, P, P, P, P), "hearts", points("B", "B", "B", "B", "B", game=None))])
    assert state.deals[0].taken == {"A": 0, "B": 5, "C": 0}
    assert state.verdict.kind is VerdictKind.PLAYING


def test_a_smudge_ends_the_game_no_hand_after_it():
    deals = [Deal((4, P, P, P, P, P), "clubs", points("B", "B", "B", "B", "B", game="B")),
             Deal((3, P, P, P, P, P), "clubs", points("A", "A", "A", "A", "A", game="A"))]
    with pytest.raises(HandRejected) as refused:
        replay(SMUDGE, 1, deals)
    assert (refused.value.code, refused.value.number) == ("game_over", 2)


def test_judged_on_the_scores_alone_nothing_is_a_smudge():
    assert judge(SMUDGE, {"A": 0, "B": 6, "C": 0}, "B", True).kind is VerdictKind.PLAYING


def test_smudge_at_a_table_of_five_cutthroat():
    # Seat 5 deals; seat 2 (B) bids 3; seat 5 (E) takes all six: B -3, E +6, E wins.
    state = replay(HouseRules("c5", smudge=True), 5, [
        Deal((P, 3, P, P, P), "hearts", points("E", "E", "E", "E", "E", game="E"))])
    assert state.scores == {"A": 0, "B": -3, "C": 0, "D": 0, "E": 6}
    assert (state.verdict.kind, state.winner) == (VerdictKind.ALL_SIX, "E")


def test_smudge_at_a_table_of_four_in_pairs():
    # Seat 1 deals; seat 2 (B) bids 5 and B takes all six: B 6 wins.
    state = replay(HouseRules("2x2", smudge=True), 1, [
        Deal((5, P, P, P), "spades", points("B", "B", "B", "B", "B", game="B"))])
    assert (state.scores, state.winner) == ({"A": 0, "B": 6}, "B")


def test_what_each_team_needs_doesnt_say_a_win_by_a_smudge_alone():
    # A 10, B 10, C 10, to 21: with the smudge each team wins by taking all six, but no
    # other way; nothing is said, as without it.
    needs = needs_of(SMUDGE, {"A": 10, "B": 10, "C": 10})
    assert not any(need.can_go_out for need in needs.values())


def test_what_each_team_needs_with_smudge_near_the_target_is_as_without():
    # A 15, B 0, C 0, to 21: A goes out with 6 points either way (21 reached, all six).
    for rules in (HouseRules(), SMUDGE):
        needs = needs_of(rules, {"A": 15, "B": 0, "C": 0})
        assert needs["A"].bidding == Way(6) and needs["A"].not_bidding == Way(6)
