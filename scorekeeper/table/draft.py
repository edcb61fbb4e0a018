"""A hand being entered: the state lives in the page's form, not the database.

RULES.md, "Bidding" (as entered at the table) and "The six points of a hand".

The game page carries every choice of a hand in one form: each seat's call, turn by
turn from the dealer's left (``turn_1`` … ``turn_6`` at a table of six, to ``turn_4``
at four: a turn a seat, the dealer's last), where a turn left open is a pass once
anyone has bid (or the dealer has called), so the winning bid alone is one tap;
``bid=passed`` when everyone passed (refused where the dealer is stuck); then
``trump`` and who took each point. The phone reveals each step as the one before it is
chosen, so no tap waits on the server; only "Record" writes. A form (or a link) is
read here, with the game's rules (its bids, its dealer), into a ``HandDraft``.

Links may also give ``calls`` (the auction as comma-separated calls, as files hold it)
or ``bid=<seat>-<bid>`` (the winner, everyone else passing). ``rest`` gives every point
not chosen yet to one team: the last tap of a hand in which one team took all the rest.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Mapping

from scorekeeper.rules import (
    CARD_POINTS, PASS, SEATS, Auction, Deal, HouseRules, RuleViolation, Suit, Tally,
    quick_auction,
)
from scorekeeper.rules.auction import quick_winner, reseated
from scorekeeper.rules.cards import parse_suit
from scorekeeper.rules.table import TEAM_LETTERS
from scorekeeper.text.digits import latin_digits

NOBODY = "none"  # the Game choice when the most game value was tied
PASSED = "passed"  # the ``bid`` of a hand in which everyone passed
TURNS = tuple(f"turn_{turn}" for turn in SEATS)  # the most a table has: six
# Every field a hand in progress is made of (what a watcher's page is shown).
FIELDS = ("calls", "bid", *TURNS, "trump", *(p.value for p in CARD_POINTS), "game",
          *(f"value_{team}" for team in TEAM_LETTERS), "rest")


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
    by_turns: bool = False  # every call was entered, not just the winning bid
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
        """auction | thrown_in | trump | tally: how far the hand has come."""
        if not self.auction.finished:
            return "auction"
        if self.auction.thrown_in:
            return "thrown_in"
        return "tally" if self.trump else "trump"

    @property
    def bid_choice(self) -> str | None:
        """The ``bid`` field to show checked: "passed" for a throw-in not entered by turns."""
        return PASSED if self.auction.thrown_in and not self.by_turns else None

    def turn_choice(self, turn: int) -> str | None:
        """The call to show on ``turn`` (1 = the dealer's left): every call entered, or
        only the winning bid where everyone else passed and no more was entered."""
        calls = self.auction.calls
        if turn > len(calls) or (not self.by_turns and calls[turn - 1] == PASS):
            return None
        return str(calls[turn - 1])

    def calls_text(self) -> str:
        return ",".join(str(c) for c in self.auction.calls)

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

    def fields(self) -> dict[str, str]:
        """The form's fields holding this draft, as ``read_draft`` reads them back."""
        args: dict[str, str] = {}
        if self.bid_choice:
            args["bid"] = self.bid_choice
        for turn in range(1, len(self.auction.calls) + 1):
            call = self.turn_choice(turn)
            if call is not None:
                args[f"turn_{turn}"] = call
        if self.trump:
            args["trump"] = self.trump.value
        args.update(self.card_points)
        if self.game_choice:
            args["game"] = self.game_choice
        for team, value in self.game_values.items():
            args[f"value_{team}"] = str(value)
        return args


def draft_from_deal(dealer_seat: int, rules: HouseRules, deal: Deal) -> HandDraft:
    """A draft holding a stored deal of a game played by ``rules``, for editing it."""
    auction = Auction.of(rules, dealer_seat, tuple(deal.calls))
    draft = HandDraft(dealer_seat, rules.team_names, auction,
                      by_turns=not auction.thrown_in and quick_winner(auction) is None)
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


def _auction(source: Mapping[str, str], auction: Auction,
             problems: list[RuleViolation]) -> tuple[Auction, bool]:
    """(the auction the fields give, from ``auction`` not begun; whether it was entered
    turn by turn)."""
    raw_calls = (source.get("calls") or "").strip()
    if raw_calls:
        try:
            auction = replace(auction, calls=tuple(raw_calls.split(",")))
        except RuleViolation as violation:
            problems.append(violation)
        return auction, not auction.thrown_in and quick_winner(auction) is None
    raw_bid = source.get("bid") or ""
    turns = [(source.get(turn) or "").strip().lower() for turn in TURNS[:auction.seats]]
    if any(turns):
        if raw_bid:
            problems.append(RuleViolation(
                "bid_and_turns", "both a winning bid and the bidding turn by turn were given"))
        someone_bid = any(call not in ("", PASS) for call in turns)
        # Once someone bid, or the dealer (the last to call) has called, a turn left
        # open passed: the page shows the hand as over then, and so it is.
        open_passed = someone_bid or bool(turns[-1])
        entered = 0
        for call in turns:
            if auction.finished:
                break  # a turn after a 6 was never shown
            if not call:
                if not open_passed:
                    break  # nobody has bid yet: the open turns are still to come
                call = PASS
            else:
                entered += 1
            try:
                auction = auction.call(call)
            except RuleViolation as violation:
                problems.append(violation)  # the calls before it stay, to put it right
                return auction, True
        quick = someone_bid and entered == 1 and quick_winner(auction) is not None
        return auction, not quick
    if raw_bid == PASSED:
        return _all_passed(auction, problems), False
    if raw_bid:
        seat, _, bid = raw_bid.partition("-")
        bids = auction.bidding.bids
        # Compared as text: "³".isdigit() is true but int("³") fails.
        if _seat(seat, auction.seats) and bid in {str(b) for b in bids}:
            return quick_auction(auction.dealer_seat, int(seat), int(bid), auction.seats,
                                 auction.bidding), False
        problems.append(RuleViolation("bid_invalid", "the winning bid is not a seat and a bid",
                                      bid=raw_bid, low=bids[0], high=bids[-1]))
    return auction, False


def _all_passed(auction: Auction, problems: list[RuleViolation]) -> Auction:
    """"Everyone passed": every seat's pass, unless the dealer may not pass (the calls
    before the dealer's then stay, and the refusal is noted)."""
    while not auction.finished:
        try:
            auction = auction.call(PASS)
        except RuleViolation as violation:
            problems.append(violation)
            break
    return auction


def read_draft(source: Mapping[str, str], dealer_seat: int, rules: HouseRules) -> HandDraft:
    """Read a draft of a hand of a game played by ``rules`` from query or form fields.
    What can't be read is dropped and noted.

    Digits are read as the reader's keyboard wrote them (Persian ۲۱ is 21). ``dealt_by``,
    when the form gives it, is the dealer the phone entered the hand with: a hand kept on
    the phone while the deal moved (a hand before it turned out thrown in on another
    phone) is read from that dealer's left, and then dealt by ``dealer_seat``, every seat
    keeping its call."""
    entered_by = _seat(source.get("dealt_by"), rules.seats) or dealer_seat
    source = {name: latin_digits(source.get(name) or "") for name in FIELDS}
    problems: list[RuleViolation] = []
    teams = rules.team_names
    auction, by_turns = _auction(source, Auction.of(rules, entered_by), problems)
    if entered_by != dealer_seat:
        auction, by_turns = _dealt_by(auction, dealer_seat, by_turns)
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
    game_values = _game_values(source, teams, problems)
    rest = source.get("rest") or None
    if rest is not None:
        if rest in teams:
            # "The rest to C": every point still open, Game too unless values were counted.
            for point in CARD_POINTS:
                card_points.setdefault(point.value, rest)
            if game_choice is None and not game_values:
                game_choice = rest
        else:
            problems.append(_not_a_team("rest", rest, teams))
    return HandDraft(
        dealer_seat, teams, auction, by_turns, trump, card_points, game_choice,
        game_values, tuple(problems),
    )


def _game_values(source: Mapping[str, str], teams: tuple[str, ...],
                 problems: list[RuleViolation]) -> dict[str, int]:
    """The game values counted, team by team (what can't be read noted in ``problems``)."""
    game_values: dict[str, int] = {}
    for team in teams:
        raw = (source.get(f"value_{team}") or "").strip()
        if not raw:
            continue
        # Any whole number is read; the rules then say if the values add up to too much.
        if raw.isascii() and raw.isdigit() and len(raw) <= 6:
            game_values[team] = int(raw)
        else:
            problems.append(RuleViolation(
                "game_value_invalid", f"team {team}'s game value is not a whole number",
                team=team, value=raw,
            ))
    return game_values


def _seat(text: object, seats: int) -> int | None:
    """A seat of a table of ``seats``, as a form gives it; None if it is none."""
    at_table = {str(seat) for seat in range(1, seats + 1)}
    return int(text) if isinstance(text, str) and text in at_table else None


def _dealt_by(auction: Auction, dealer_seat: int, by_turns: bool) -> tuple[Auction, bool]:
    """The auction as ``dealer_seat`` dealt it (rules: ``reseated``); one not over yet
    starts again from that dealer's left."""
    if not auction.finished:
        return replace(auction, dealer_seat=dealer_seat, calls=()), False
    moved, whole = reseated(auction, dealer_seat)
    return moved, by_turns and whole and not moved.thrown_in


def _not_a_team(point: str, team: str, teams: tuple[str, ...]) -> RuleViolation:
    return RuleViolation(
        "point_not_a_team", f"{point}: {team!r} is not a team of this game",
        point=point, team=team, teams=teams,
    )
