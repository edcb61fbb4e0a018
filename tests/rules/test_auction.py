"""The auction: from the dealer's left, one turn each, strictly higher bids of 3 to 6,
over after the dealer or at once at a 6; six passes throw the cards in.

RULES.md, "Bidding".
"""
import pytest

from scorekeeper.rules import BIDS, PASS, Auction, RuleViolation, bidding_order, quick_auction
from scorekeeper.rules.auction import parse_call, reseated


def code_of(call, *args, **kwargs):
    with pytest.raises(RuleViolation) as caught:
        call(*args, **kwargs)
    return caught.value.code


def test_bids_are_three_to_six():
    assert BIDS == (3, 4, 5, 6)
    assert PASS == "pass"


# --- order ---------------------------------------------------------------------------

@pytest.mark.parametrize(
    "dealer, order",
    [
        (1, (2, 3, 4, 5, 6, 1)),
        (2, (3, 4, 5, 6, 1, 2)),
        (3, (4, 5, 6, 1, 2, 3)),
        (4, (5, 6, 1, 2, 3, 4)),
        (5, (6, 1, 2, 3, 4, 5)),
        (6, (1, 2, 3, 4, 5, 6)),
    ],
)
def test_bidding_starts_left_of_the_dealer_and_the_dealer_bids_last(dealer, order):
    assert bidding_order(dealer) == order
    assert Auction(dealer).order == order


@pytest.mark.parametrize("dealer", [0, 7, "1", None])
def test_the_dealer_must_be_a_seat(dealer):
    assert code_of(bidding_order, dealer) == "seat_invalid"
    assert code_of(Auction, dealer) == "seat_invalid"


def test_seats_call_in_turn_one_turn_each():
    auction = Auction(3)
    seen = []
    for call in (PASS, 3, PASS, 4, PASS, PASS):
        seen.append(auction.seat_to_call)
        auction = auction.call(call)
    assert seen == [4, 5, 6, 1, 2, 3]
    assert auction.seat_to_call is None
    assert auction.turns() == ((4, PASS), (5, 3), (6, PASS), (1, 4), (2, PASS), (3, PASS))


def test_a_call_gives_a_new_auction_and_leaves_the_old_one_alone():
    before = Auction(1)
    after = before.call(3)
    assert before.calls == ()
    assert after.calls == (3,)


# --- when it ends --------------------------------------------------------------------

def test_not_over_before_the_dealer_has_called():
    auction = Auction(1, (PASS, 3, PASS, PASS, PASS))
    assert not auction.finished
    assert auction.seat_to_call == 1  # the dealer


def test_over_after_the_dealer_calls():
    auction = Auction(1, (PASS, 3, PASS, PASS, PASS, PASS))
    assert auction.finished
    assert auction.seat_to_call is None
    assert auction.legal_calls() == ()


@pytest.mark.parametrize("position", range(6))
def test_a_bid_of_six_ends_the_auction_at_once(position):
    calls = (PASS,) * position + (6,)
    auction = Auction(2, calls)
    assert auction.finished
    assert auction.highest_bid == 6
    assert auction.bidder_seat == bidding_order(2)[position]
    assert auction.legal_calls() == ()
    assert not auction.thrown_in


@pytest.mark.parametrize("position", range(5))
def test_nobody_may_call_after_a_six(position):
    auction = Auction(2, (PASS,) * position + (6,))
    assert code_of(auction.call, PASS) == "auction_over"
    assert code_of(Auction, 2, (PASS,) * position + (6, PASS)) == "auction_over"


def test_a_six_after_lower_bids_also_ends_it():
    auction = Auction(6, (3, 4, 6))
    assert auction.finished
    assert auction.bidder_seat == 3
    assert auction.highest_bid == 6


def test_no_seventh_call():
    auction = Auction(1, (PASS, 3, PASS, PASS, PASS, PASS))
    assert code_of(auction.call, PASS) == "auction_over"
    assert code_of(auction.call, 4) == "auction_over"
    assert code_of(Auction, 1, (PASS,) * 7) == "auction_over"


# --- throw-in ------------------------------------------------------------------------

def test_six_passes_throw_the_cards_in():
    auction = Auction(4, (PASS,) * 6)
    assert auction.finished
    assert auction.thrown_in
    assert auction.highest_bid is None
    assert auction.bidder_seat is None


def test_five_passes_are_not_yet_a_throw_in():
    auction = Auction(4, (PASS,) * 5)
    assert not auction.finished
    assert not auction.thrown_in


def test_one_bid_is_enough_to_play():
    auction = Auction(4, (PASS,) * 5 + (3,))
    assert auction.finished
    assert not auction.thrown_in
    assert auction.bidder_seat == 4  # the dealer took it for 3
    assert auction.highest_bid == 3


# --- the bidder ----------------------------------------------------------------------

def test_the_highest_bidder_is_the_bidder():
    # dealer 4: seats 5, 6, 1, 2, 3, 4 call in that order
    auction = Auction(4, (PASS, 3, PASS, 4, PASS, PASS))
    assert auction.highest_bid == 4
    assert auction.bidder_seat == 2


def test_the_bidder_can_be_the_first_to_call():
    auction = Auction(6, (5, PASS, PASS, PASS, PASS, PASS))
    assert auction.bidder_seat == 1
    assert auction.highest_bid == 5


def test_bids_from_every_seat_the_last_highest_wins():
    auction = Auction(6, (3, 4, 5, PASS, PASS, PASS))
    assert auction.bidder_seat == 3
    assert auction.highest_bid == 5


# --- strictly higher -----------------------------------------------------------------

@pytest.mark.parametrize(
    "calls, bad",
    [
        ((3,), 3),
        ((4,), 3),
        ((4,), 4),
        ((3, PASS, 5), 4),
        ((3, PASS, 5), 5),
        ((5,), 3),
        ((3, 4, 5), 5),
    ],
)
def test_a_bid_must_be_higher_than_the_highest_so_far(calls, bad):
    auction = Auction(1, calls)
    with pytest.raises(RuleViolation) as caught:
        auction.call(bad)
    assert caught.value.code == "bid_not_higher"
    assert caught.value.params["highest"] == max(c for c in calls if c != PASS)
    assert code_of(Auction, 1, (*calls, bad)) == "bid_not_higher"


@pytest.mark.parametrize("calls, good", [((3,), 4), ((3,), 6), ((3, PASS), 5), ((PASS, 4), 5)])
def test_a_higher_bid_is_accepted(calls, good):
    auction = Auction(1, calls).call(good)
    assert auction.highest_bid == good


def test_a_pass_is_always_allowed_while_the_auction_runs():
    auction = Auction(1, (5,))
    assert auction.call(PASS).calls == (5, PASS)


@pytest.mark.parametrize(
    "calls, legal",
    [
        ((), (PASS, 3, 4, 5, 6)),
        ((PASS, PASS), (PASS, 3, 4, 5, 6)),
        ((3,), (PASS, 4, 5, 6)),
        ((4, PASS), (PASS, 5, 6)),
        ((3, 5), (PASS, 6)),
        ((PASS, PASS, PASS, PASS, PASS), (PASS, 3, 4, 5, 6)),
        ((PASS, PASS, PASS, PASS, PASS, PASS), ()),
        ((6,), ()),
    ],
)
def test_legal_calls(calls, legal):
    assert Auction(5, calls).legal_calls() == legal


# --- calls that are not calls --------------------------------------------------------

@pytest.mark.parametrize(
    "value",
    [2, 7, 0, -3, 1, 3.0, 4.5, True, False, None, "", "x", "bid", "2", "7", "³", "9" * 5000, [3]],
    ids=lambda value: repr(value)[:12],
)
def test_something_that_is_neither_a_pass_nor_a_bid_of_3_to_6_is_refused(value):
    assert code_of(parse_call, value) == "call_invalid"
    assert code_of(Auction(1).call, value) == "call_invalid"
    assert code_of(Auction, 1, (value,)) == "call_invalid"


@pytest.mark.parametrize(
    "text, call", [("pass", PASS), ("PASS", PASS), (" Pass ", PASS), ("3", 3), ("6", 6), (" 4 ", 4)],
)
def test_calls_from_a_form(text, call):
    assert parse_call(text) == call
    assert Auction(1, (text,)).calls == (call,)


# --- out of turn ---------------------------------------------------------------------

def test_a_call_from_the_seat_whose_turn_it_is_is_accepted():
    auction = Auction(1).call(3, seat=2).call(PASS, seat=3)
    assert auction.turns() == ((2, 3), (3, PASS))


@pytest.mark.parametrize("seat", [1, 3, 4, 5, 6])
def test_a_call_out_of_turn_is_refused(seat):
    # dealer 1: seat 2 calls first
    with pytest.raises(RuleViolation) as caught:
        Auction(1).call(3, seat=seat)
    assert caught.value.code == "out_of_turn"
    assert caught.value.params == {"seat": seat, "expected": 2}


def test_the_dealer_may_not_call_before_the_others():
    auction = Auction(3, (PASS, PASS))
    assert code_of(auction.call, 4, seat=3) == "out_of_turn"


def test_a_seat_may_not_call_twice():
    auction = Auction(1).call(3, seat=2)
    assert code_of(auction.call, 4, seat=2) == "out_of_turn"


def test_a_seat_that_calls_after_the_end_is_told_the_auction_is_over():
    auction = Auction(1, (PASS,) * 6)
    assert code_of(auction.call, 3, seat=2) == "auction_over"
    assert code_of(Auction(1, (6,)).call, PASS, seat=3) == "auction_over"


# --- quick entry ---------------------------------------------------------------------

@pytest.mark.parametrize("dealer", range(1, 7))
@pytest.mark.parametrize("bidder", range(1, 7))
@pytest.mark.parametrize("bid", [3, 5])
def test_quick_entry_gives_the_bidder_bid_and_dealer(dealer, bidder, bid):
    auction = quick_auction(dealer, bidder, bid)
    assert auction.finished
    assert auction.dealer_seat == dealer
    assert auction.bidder_seat == bidder
    assert auction.highest_bid == bid
    assert len(auction.calls) == 6
    assert [seat for seat, call in auction.turns() if call != PASS] == [bidder]


def test_quick_entry_of_a_six_ends_at_the_six():
    auction = quick_auction(1, 3, 6)
    assert auction.turns() == ((2, PASS), (3, 6))


@pytest.mark.parametrize("bid", [PASS, 2, 7, None])
def test_quick_entry_needs_a_bid(bid):
    assert code_of(quick_auction, 1, 2, bid) == "call_invalid"


@pytest.mark.parametrize("seat", [0, 7])
def test_quick_entry_needs_real_seats(seat):
    assert code_of(quick_auction, 1, seat, 3) == "seat_invalid"
    assert code_of(quick_auction, seat, 1, 3) == "seat_invalid"


@pytest.mark.parametrize("dealer", range(1, 7))
@pytest.mark.parametrize("bidder", range(1, 7))
@pytest.mark.parametrize("bid", BIDS)
def test_a_quick_entry_is_known_again_by_its_winner(dealer, bidder, bid):
    from scorekeeper.rules.auction import quick_winner

    assert quick_winner(quick_auction(dealer, bidder, bid)) == (bidder, bid)


@pytest.mark.parametrize("calls", [
    (3, 4, PASS, PASS, PASS, PASS),  # two bids: only turn by turn says who bid 3
    (PASS,) * 6,  # thrown in: no winner
    (PASS, 3, PASS),  # not over yet
])
def test_an_auction_with_more_to_it_than_its_winner_has_no_quick_winner(calls):
    from scorekeeper.rules.auction import quick_winner

    assert quick_winner(Auction(1, calls)) is None


# --- dealt by another seat (RULES.md, "Corrections past one hand") ------------------------

def test_a_moved_auction_keeps_each_seats_call_from_the_new_dealers_left():
    recorded = Auction(1, (PASS, 3, PASS, 4, PASS, PASS))  # Cid 3, Eve 4 (seat 5)
    moved, whole = reseated(recorded, 2)
    assert whole and moved.calls == (3, PASS, 4, PASS, PASS, PASS)
    assert (moved.bidder_seat, moved.highest_bid) == (5, 4)


def test_calls_that_no_longer_fit_keep_the_hand_as_its_winning_bid():
    recorded = Auction(6, (3, 4, PASS, PASS, PASS, PASS))  # Ann 3, then Bob 4
    moved, whole = reseated(recorded, 1)  # Bob now speaks first, Ann last: 3 after 4
    assert not whole
    assert moved == quick_auction(1, 2, 4)


def test_a_throw_in_stays_a_throw_in_whoever_deals():
    assert reseated(Auction(3, (PASS,) * 6), 4) == (Auction(4, (PASS,) * 6), True)
