"""A whole game replayed from its deals: dealers, scores and the verdict.

Nothing here is stored: the app keeps the deals and derives the rest by replaying
them, so an edit or an undo can never leave a stale total behind.
RULES.md, "Scoring after each hand", "End of the game" and "Tables of four, five and
six" (a game is played at the table its layout seats, hand after hand).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from scorekeeper.rules.auction import Auction, Call
from scorekeeper.rules.cards import Suit, parse_suit
from scorekeeper.rules.ending import Verdict, VerdictKind, judge
from scorekeeper.rules.errors import RuleViolation
from scorekeeper.rules.scoring import HandScore, Tally, score_hand
from scorekeeper.rules.table import HouseRules, check_seat, left_of, team_of


@dataclass(frozen=True)
class Deal:
    """What the table records for one deal: the auction, trump and who took what.

    A throw-in (every seat passing) has no trump and no tally.
    """

    calls: tuple[Call, ...]
    trump: Suit | str | None = None
    tally: Tally | None = None


@dataclass(frozen=True)
class DealResult:
    """One deal as replayed: who dealt, who bid, and what it did to the scores."""

    number: int
    dealer_seat: int
    auction: Auction
    thrown_in: bool
    scores_after: dict[str, int]
    verdict: Verdict
    trump: Suit | None = None
    tally: Tally | None = None
    bidder_seat: int | None = None
    bid: int | None = None
    bidding_team: str | None = None
    taken: dict[str, int] | None = None
    made: bool | None = None
    score_change: dict[str, int] | None = None


class HandRejected(RuleViolation):
    """A deal that breaks a rule, with the deal's number (1-based) attached."""

    def __init__(self, number: int, violation: RuleViolation) -> None:
        super().__init__(
            violation.code, f"hand {number}: {violation.english}", **violation.params
        )
        self.number = number
        self.violation = violation


@dataclass(frozen=True)
class GameState:
    rules: HouseRules
    first_dealer: int
    deals: tuple[DealResult, ...]
    scores: dict[str, int]
    verdict: Verdict
    next_dealer: int
    hands_played: int = field(default=0)

    @property
    def finished(self) -> bool:
        return self.verdict.finished

    @property
    def winner(self) -> str | None:
        return self.verdict.winner

    @property
    def next_number(self) -> int:
        return len(self.deals) + 1


_IN_WORDS = {4: "four", 5: "five", 6: "six"}


def play_deal(
    rules: HouseRules, dealer_seat: int, deal: Deal
) -> tuple[Auction, Tally | None, HandScore | None]:
    """Check one deal and score it (tally and score are None for a throw-in)."""
    auction = Auction.of(rules, dealer_seat, tuple(deal.calls))
    if not auction.finished:
        raise RuleViolation(
            "auction_unfinished",
            "the auction is not over: every seat must call, unless someone bid 6",
        )
    if auction.thrown_in:
        if deal.trump is not None or deal.tally is not None:
            raise RuleViolation(
                "throw_in_scored",
                f"all {_IN_WORDS[rules.seats]} passed, so there is no trump and no points",
            )
        return auction, None, None
    if deal.trump is None:
        raise RuleViolation("trump_missing", "the bidder must name trump")
    parse_suit(deal.trump)
    if deal.tally is None:
        raise RuleViolation("tally_missing", "a played hand needs its points")
    tally = deal.tally.checked(rules.team_names)
    bidding_team = team_of(auction.bidder_seat, rules.teams)
    return auction, tally, score_hand(rules.team_names, bidding_team, auction.highest_bid, tally)


def replay(rules: HouseRules, first_dealer: int, deals: Sequence[Deal]) -> GameState:
    """Replay a game's deals in order; raise HandRejected at the first illegal one."""
    check_seat(first_dealer, rules.seats)
    start = GameState(rules, first_dealer, (), {team: 0 for team in rules.team_names},
                      Verdict(VerdictKind.PLAYING, rules.target), first_dealer)
    return carry_on(start, deals)


def carry_on(state: GameState, deals: Sequence[Deal]) -> GameState:
    """The game after ``deals`` more, following ``state`` (a replay's result): exactly
    what replaying every deal would give, but only the new ones are played. A hand
    recorded at hand 60 costs what one at hand 2 does."""
    rules = state.rules
    scores = dict(state.scores)
    verdict = state.verdict
    dealer = state.next_dealer
    results: list[DealResult] = list(state.deals)
    played = state.hands_played
    for number, deal in enumerate(deals, start=len(results) + 1):
        try:
            if verdict.finished:
                raise RuleViolation(
                    "game_over",
                    f"the game is over: team {verdict.winner} won at hand {number - 1}",
                    winner=verdict.winner,
                )
            auction, tally, hand = play_deal(rules, dealer, deal)
        except RuleViolation as violation:
            raise HandRejected(number, violation) from None
        if hand is None:
            results.append(DealResult(number, dealer, auction, True, dict(scores), verdict))
            continue  # thrown in: the same dealer deals again
        played += 1
        scores = {team: scores[team] + hand.score_change[team] for team in scores}
        verdict = judge(rules, scores, hand.bidding_team, hand.made, hand.taken)
        results.append(DealResult(
            number, dealer, auction, False, dict(scores), verdict,
            trump=parse_suit(deal.trump), tally=tally,
            bidder_seat=auction.bidder_seat, bid=auction.highest_bid,
            bidding_team=hand.bidding_team, taken=hand.taken, made=hand.made,
            score_change=hand.score_change,
        ))
        dealer = left_of(dealer, rules.seats)
    return GameState(rules, state.first_dealer, tuple(results), scores, verdict, dealer,
                     played)
