"""A hand being entered: the state lives in the page's URL and form, not the database.

Each tap in the auction or on a trump button is a GET to the game page with the
state so far (``calls``, ``bidder``, ``trump`` and the tally), so a reload or a
second look changes nothing and loses nothing. Only "Record" writes.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Mapping

from scorekeeper.rules import (
    CARD_POINTS, PASS, SEATS, Auction, Deal, RuleViolation, Suit, Tally, quick_auction,
)
from scorekeeper.rules.cards import parse_suit

NOBODY = "none"  # the Game choice when the most game value was tied


class TallyIncomplete(Exception):
    """Some points have no team yet."""

    def __init__(self, missing: list[str]) -> None:
        super().__init__(", ".join(missing))
        self.missing = missing


@dataclass(frozen=True)
class HandDraft:
    dealer_seat: int
    teams: tuple[str, ...]
    auction: Auction
    quick_bidder: int | None = None
    trump: Suit | None = None
    card_points: dict[str, str] = field(default_factory=dict)
    game_choice: str | None = None  # a team, NOBODY, or None (not chosen)
    game_values: dict[str, int] = field(default_factory=dict)
    # What could not be read from the URL/form, kept whole so its message can name it.
    unreadable: tuple[RuleViolation, ...] = ()

    @property
    def problems(self) -> tuple[str, ...]:
        """Codes of what could not be read from the URL/form."""
        return tuple(dict.fromkeys(violation.code for violation in self.unreadable))

    @property
    def step(self) -> str:
        """auction | quick_bid | thrown_in | trump | tally"""
        if not self.auction.finished:
            return "quick_bid" if self.quick_bidder else "auction"
        if self.auction.thrown_in:
            return "thrown_in"
        return "tally" if self.trump else "trump"

    def calls_text(self, auction: Auction | None = None) -> str:
        return ",".join(str(c) for c in (auction or self.auction).calls)

    def after_call(self, call: object) -> str:
        """The ``calls`` value once the seat to call makes ``call``."""
        return self.calls_text(self.auction.call(call))

    def quick_calls(self, bid: int) -> str:
        return self.calls_text(quick_auction(self.dealer_seat, self.quick_bidder, bid))

    def all_pass_calls(self) -> str:
        return ",".join([PASS] * len(SEATS))

    def without_last_call(self) -> str:
        return ",".join(str(c) for c in self.auction.calls[:-1])

    def missing_points(self) -> list[str]:
        missing = [p.value for p in CARD_POINTS if p.value not in self.card_points]
        if self.game_choice is None and not self.game_values:
            missing.append("game")
        return missing

    def to_deal(self) -> Deal:
        """The deal to record; RuleViolation or TallyIncomplete if it isn't whole."""
        if not self.auction.finished:
            raise RuleViolation("auction_unfinished", "the auction is not over")
        if self.auction.thrown_in:
            return Deal(self.auction.calls)
        if self.trump is None:
            raise RuleViolation("trump_missing", "the bidder must name trump")
        missing = self.missing_points()
        if missing:
            raise TallyIncomplete(missing)
        values = dict(self.game_values) if self.game_values else None
        # Counted values are the more careful answer: when given, they decide Game.
        game = None if values or self.game_choice in (None, NOBODY) else self.game_choice
        return Deal(self.auction.calls, self.trump, Tally(dict(self.card_points), game, values))

    def tally_args(self) -> dict[str, str]:
        args = dict(self.card_points)
        if self.game_choice:
            args["game"] = self.game_choice
        for team, value in self.game_values.items():
            args[f"value_{team}"] = str(value)
        return args


def draft_from_deal(dealer_seat: int, teams: tuple[str, ...], deal: Deal) -> HandDraft:
    """A draft holding a stored deal, for editing it."""
    draft = HandDraft(dealer_seat, teams, Auction(dealer_seat, tuple(deal.calls)))
    if deal.tally is None:
        return draft
    tally = deal.tally
    return replace(
        draft,
        trump=parse_suit(deal.trump),
        card_points=dict(tally.card_points),
        game_choice=tally.game if tally.game_values is None else None,
        game_values=dict(tally.game_values or {}),
    )


def read_draft(
    source: Mapping[str, str], dealer_seat: int, teams: tuple[str, ...]
) -> HandDraft:
    """Read a draft from query or form fields. What can't be read is dropped and noted."""
    problems: list[RuleViolation] = []
    auction = Auction(dealer_seat)
    raw_calls = (source.get("calls") or "").strip()
    if raw_calls:
        try:
            auction = Auction(dealer_seat, tuple(raw_calls.split(",")))
        except RuleViolation as violation:
            problems.append(violation)
    quick_bidder = None
    raw_bidder = source.get("bidder")
    if raw_bidder and not auction.calls:
        # Compared as text: "³".isdigit() is true but int("³") fails.
        if raw_bidder in {str(seat) for seat in SEATS}:
            quick_bidder = int(raw_bidder)
        else:
            problems.append(RuleViolation("seat_invalid", "the bidder is not a seat (1-6)",
                                          seat=raw_bidder))
    trump = None
    raw_trump = source.get("trump")
    if raw_trump and auction.finished and not auction.thrown_in:
        try:
            trump = parse_suit(raw_trump)
        except RuleViolation as violation:
            problems.append(violation)
    card_points = {}
    for point in CARD_POINTS:
        team = source.get(point.value)
        if team:
            if team in teams:
                card_points[point.value] = team
            else:
                problems.append(_not_a_team(point.value, team, teams))
    game_choice = source.get("game") or None
    if game_choice is not None and game_choice not in (*teams, NOBODY):
        problems.append(_not_a_team("game", game_choice, teams))
        game_choice = None
    game_values: dict[str, int] = {}
    for team in teams:
        raw = (source.get(f"value_{team}") or "").strip()
        if raw:
            # Any whole number is read; the rules then say if the values add up to too much.
            if raw.isascii() and raw.isdigit() and len(raw) <= 6:
                game_values[team] = int(raw)
            else:
                problems.append(RuleViolation(
                    "game_value_invalid", f"team {team}'s game value is not a whole number",
                    team=team, value=raw,
                ))
    return HandDraft(
        dealer_seat, teams, auction, quick_bidder, trump, card_points, game_choice,
        game_values, tuple(problems),
    )


def _not_a_team(point: str, team: str, teams: tuple[str, ...]) -> RuleViolation:
    return RuleViolation(
        "point_not_a_team", f"{point}: {team!r} is not a team of this game",
        point=point, team=team, teams=teams,
    )
