"""The auction: one turn each from the dealer's left, strictly higher bids 3-6 (2-6
with the house rule *lowest bid*); when all pass, thrown in, or the dealer is stuck (the
house rule *when everyone passes*).

RULES.md, "Bidding", "Tables of four, five and six" (one turn a seat, however many sit)
and "Corrections past one hand" (an auction dealt by another seat).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from scorekeeper.rules.errors import RuleViolation
from scorekeeper.rules.table import HIGHEST_BID, HouseRules, check_seat

PASS = "pass"
BIDS = (3, 4, 5, 6)  # the game's own bids
MAX_BID = HIGHEST_BID
DEALER_STUCK = "dealer_stuck"  # when everyone before the dealer passed, the dealer must bid

Call = Union[int, str]  # a bid (3-6, or 2-6) or PASS


@dataclass(frozen=True)
class Bidding:
    """How a table bids, as its house rules say: the bids a seat may make (lowest
    first), and whether the dealer is stuck (must bid when everyone before passed) or
    may pass too, the cards then thrown in."""

    bids: tuple[int, ...] = BIDS
    dealer_stuck: bool = False

    @classmethod
    def of(cls, rules: HouseRules) -> "Bidding":
        return cls(rules.bids, rules.all_pass == DEALER_STUCK)

    @property
    def lowest(self) -> int:
        return self.bids[0]


SEEDS = Bidding()  # as the game's own rules bid


def bidding_order(dealer_seat: int, seats: int = 6) -> tuple[int, ...]:
    """The seats of a table of ``seats`` in the order they bid: from the dealer's left,
    the dealer last."""
    check_seat(dealer_seat, seats)
    # Left of the dealer and on round the table to the left: turn k is the k-th seat
    # after the dealer's, the dealer's own turn last.
    return tuple((dealer_seat + turn - 1) % seats + 1 for turn in range(1, seats + 1))


def parse_call(value: object, bids: tuple[int, ...] = BIDS) -> Call:
    """A call from a form or a file: ``"pass"``, or one of ``bids`` as int or digit
    string."""
    if isinstance(value, str):
        text = value.strip().lower()
        if text == PASS:
            return PASS
        if text.isdigit():
            try:
                value = int(text)
            except ValueError:  # a digit int() cannot read ("³"), or far too many digits
                pass
    if isinstance(value, int) and not isinstance(value, bool) and value in bids:
        return value
    raise RuleViolation(
        "call_invalid", f"{value!r} is neither a pass nor a bid of {bids[0]} to {bids[-1]}",
        call=value, low=bids[0], high=bids[-1],
    )


@dataclass(frozen=True)
class Auction:
    """An auction so far at a table of ``seats``: the dealer and the calls made, in
    turn order, bid as ``bidding`` says (the game's own bidding unless given)."""

    dealer_seat: int
    calls: tuple[Call, ...] = ()
    seats: int = 6
    bidding: Bidding = SEEDS

    def __post_init__(self) -> None:
        check_seat(self.dealer_seat, self.seats)
        # Re-check every call so that an Auction can only ever hold a legal one.
        replayed = Auction._checked_already(self.dealer_seat, (), self.seats, self.bidding)
        for call in self.calls:
            replayed = replayed._after(parse_call(call, self.bidding.bids))
        object.__setattr__(self, "calls", replayed.calls)

    @classmethod
    def of(cls, rules: HouseRules, dealer_seat: int, calls: tuple[Call, ...] = ()) -> "Auction":
        """An auction of a game played by ``rules``: its table, its bids, its dealer."""
        return cls(dealer_seat, tuple(calls), rules.seats, Bidding.of(rules))

    @classmethod
    def _checked_already(cls, dealer_seat: int, calls: tuple[Call, ...],
                         seats: int, bidding: Bidding) -> "Auction":
        """An auction from calls already checked, without checking them again."""
        auction = cls.__new__(cls)
        object.__setattr__(auction, "dealer_seat", dealer_seat)
        object.__setattr__(auction, "calls", calls)
        object.__setattr__(auction, "seats", seats)
        object.__setattr__(auction, "bidding", bidding)
        return auction

    @property
    def order(self) -> tuple[int, ...]:
        return bidding_order(self.dealer_seat, self.seats)

    @property
    def highest_bid(self) -> int | None:
        bids = [c for c in self.calls if c != PASS]
        return max(bids) if bids else None

    @property
    def bidder_seat(self) -> int | None:
        """The seat holding the highest bid so far (the bidder, once finished)."""
        best = self.highest_bid
        if best is None:
            return None
        return self.order[self.calls.index(best)]

    @property
    def finished(self) -> bool:
        """Over after the dealer's turn, or at once when someone bids 6."""
        return len(self.calls) == self.seats or MAX_BID in self.calls

    @property
    def thrown_in(self) -> bool:
        """Everyone passed: the cards are thrown in and the same dealer deals again
        (never when the dealer is stuck: the dealer can't pass then)."""
        return self.finished and self.highest_bid is None

    @property
    def dealer_must_bid(self) -> bool:
        """The dealer is stuck: it is the dealer's turn, everyone before passed, and
        the table's bidding doesn't let the dealer pass too."""
        return (self.bidding.dealer_stuck and len(self.calls) == self.seats - 1
                and self.highest_bid is None)

    @property
    def seat_to_call(self) -> int | None:
        return None if self.finished else self.order[len(self.calls)]

    def legal_calls(self) -> tuple[Call, ...]:
        """Pass and the bids allowed now (strictly higher than the highest so far)."""
        if self.finished:
            return ()
        best = self.highest_bid or 0
        bids = tuple(bid for bid in self.bidding.bids if bid > best)
        return bids if self.dealer_must_bid else (PASS, *bids)

    def call(self, value: object, seat: int | None = None) -> "Auction":
        """The auction after one more call; ``seat``, if given, must be the one to call."""
        call = parse_call(value, self.bidding.bids)
        if seat is not None and seat != self.seat_to_call:
            if self.finished:
                raise RuleViolation("auction_over", "the auction is already over")
            raise RuleViolation(
                "out_of_turn",
                f"it is seat {self.seat_to_call}'s turn to bid, not seat {seat}'s",
                seat=seat, expected=self.seat_to_call,
            )
        return self._after(call)

    def _after(self, call: Call) -> "Auction":
        if self.finished:
            raise RuleViolation("auction_over", "the auction is already over")
        best = self.highest_bid
        if call != PASS and best is not None and call <= best:
            raise RuleViolation(
                "bid_not_higher",
                f"a bid must be higher than {best}; {call} is not",
                bid=call, highest=best,
            )
        if call == PASS and self.dealer_must_bid:
            low = self.bidding.lowest
            raise RuleViolation(
                "dealer_must_bid",
                f"everyone before the dealer passed: the dealer is stuck and must bid "
                f"{low} or more", bid=low, seat=self.seat_to_call,
            )
        return Auction._checked_already(self.dealer_seat, (*self.calls, call), self.seats,
                                        self.bidding)

    def turns(self) -> tuple[tuple[int, Call], ...]:
        """(seat, call) for every call so far."""
        return tuple(zip(self.order, self.calls))


def quick_auction(dealer_seat: int, bidder_seat: int, bid: int, seats: int = 6,
                  bidding: Bidding = SEEDS) -> Auction:
    """The auction a table that bids aloud enters in one step: the winner and the bid.

    Recorded as the winning bid with every other seat passing, which gives the same
    bidder, bid and dealer as whatever was said aloud.
    """
    check_seat(bidder_seat, seats)
    bid = parse_call(bid, bidding.bids)
    if bid == PASS:
        raise RuleViolation("call_invalid", "a quick entry needs a bid, not a pass", call=bid,
                            low=bidding.lowest, high=MAX_BID)
    auction = Auction(dealer_seat, seats=seats, bidding=bidding)
    while not auction.finished:
        auction = auction.call(bid if auction.seat_to_call == bidder_seat else PASS)
    return auction


def quick_winner(auction: Auction) -> tuple[int, int] | None:
    """(bidder seat, bid) when ``auction`` is exactly what a quick entry of that winner and
    bid records (every other seat passing), else None: such an auction is shown as its
    winning bid, any other one turn by turn."""
    if not auction.finished or auction.thrown_in:
        return None
    seat, bid = auction.bidder_seat, auction.highest_bid
    quick = quick_auction(auction.dealer_seat, seat, bid, auction.seats, auction.bidding)
    return (seat, bid) if quick == auction else None


def reseated(auction: Auction, dealer_seat: int) -> tuple[Auction, bool]:
    """The same auction dealt by ``dealer_seat`` instead: (auction, kept call by call).

    When a forgotten hand is put in, or a hand changes between played and thrown in,
    every later hand was really dealt one seat further on (or back) than recorded. Each
    seat keeps the call it made, now in turn from the new dealer's left. Where those
    calls are no longer a legal auction in that order (a bid that would come after a
    higher one), the hand keeps its meaning as its winning bid: the same bidder and bid,
    every other seat passing (``quick_auction``); the second value is then False.
    """
    if dealer_seat == auction.dealer_seat:
        return auction, True
    said = dict(auction.turns())
    seats, bidding = auction.seats, auction.bidding
    if auction.thrown_in:
        return Auction(dealer_seat, (PASS,) * seats, seats, bidding), True
    calls: list[Call] = []
    for seat in bidding_order(dealer_seat, seats):
        calls.append(said.get(seat, PASS))  # after a 6 nobody spoke: they passed
        if calls[-1] == MAX_BID:
            break
    try:
        moved = Auction(dealer_seat, tuple(calls), seats, bidding)
    except RuleViolation:
        moved = None
    if moved is not None and moved.finished and moved.bidder_seat == auction.bidder_seat:
        # Whole when every call made is still made: seats that never spoke may now pass,
        # and a pass is not lost when its seat now comes after a 6 (nobody speaks then).
        now = dict(moved.turns())
        return moved, all(now.get(seat) == call for seat, call in said.items()
                          if call != PASS or seat in now)
    return quick_auction(dealer_seat, auction.bidder_seat, auction.highest_bid, seats,
                         bidding), False
