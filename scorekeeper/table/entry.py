"""The hand on the game page's entry panel: the next one, a past one corrected, or a
forgotten one put in, with its draft read from a form or an address.

Both the game page (``views.pages``) and every change to a hand (``recording``,
``corrections``) read the entry the same way, through ``entry_for``.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from scorekeeper.rules.table import left_of
from scorekeeper.store.replay import Replay, deal_from_hand
from scorekeeper.table.draft import FIELDS, HandDraft, draft_from_deal, read_draft


class Fixing(Enum):
    """What the entry panel is for: the next hand, a past one corrected, or a forgotten
    one put in."""

    NEXT = "next"
    CORRECTING = "correcting"
    INSERTING = "inserting"


@dataclass(frozen=True)
class Mode:
    """Which hand the game page's entry holds: the next hand, hand ``number`` being
    corrected, or a forgotten hand being put in before hand ``number``."""

    fixing: Fixing = Fixing.NEXT
    number: int | None = None

    @classmethod
    def correcting(cls, number: int) -> Mode:
        return cls(Fixing.CORRECTING, number)

    @classmethod
    def inserting(cls, before: int) -> Mode:
        return cls(Fixing.INSERTING, before)

    @property
    def next_hand(self) -> bool:
        return self.fixing is Fixing.NEXT


NEXT_HAND = Mode()


@dataclass(frozen=True)
class Entry:
    """The hand on the entry panel: the next one, or one being edited."""

    number: int
    dealer_seat: int
    draft: HandDraft
    mode: Mode = NEXT_HAND

    @property
    def editing(self) -> bool:
        """A past hand: corrected, or (``inserting``) a forgotten one put in."""
        return not self.mode.next_hand

    @property
    def inserting(self) -> bool:
        return self.mode.fixing is Fixing.INSERTING

    @property
    def first_bidder(self) -> int:
        return left_of(self.dealer_seat, self.draft.auction.seats)


def entry_for(replay: Replay, mode: Mode, source) -> Entry:
    """The entry panel's hand, with its draft read from ``source`` (query or form).

    A forgotten hand is dealt by the seat that dealt the hand it comes before.
    """
    rules = replay.rules
    state = replay.state
    if mode.fixing is Fixing.INSERTING:
        dealer = state.deals[mode.number - 1].dealer_seat
        return Entry(mode.number, dealer, read_draft(source, dealer, rules), mode)
    if mode.next_hand:
        draft = read_draft(source, state.next_dealer, rules)
        return Entry(state.next_number, state.next_dealer, draft)
    result = state.deals[mode.number - 1]
    if any(source.get(key) for key in FIELDS):  # a correction being made: what it says
        draft = read_draft(source, result.dealer_seat, rules)
    else:
        draft = draft_from_deal(result.dealer_seat, rules,
                                deal_from_hand(replay.hands[mode.number - 1]))
    return Entry(mode.number, result.dealer_seat, draft, mode)
