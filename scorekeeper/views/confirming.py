"""What the game page shows of a night played for a ranking (``table.confirming``): the
hands waiting for another team's phone, with Confirm where this phone may, and the
question "whose phone is this?" to a scorer's phone that has not said for the evening.

What it shows depends on the phone (its team), so a page kept whole is kept per phone
that said whose it is (``page_cache``'s key holds ``shown_phone``).
"""
from __future__ import annotations

from dataclasses import dataclass

from flask_babel import gettext as _
from markupsafe import Markup

from scorekeeper.clubs.access import SCORER, can, current_device, current_phone
from scorekeeper.rules import SEATS
from scorekeeper.store.db import get_session
from scorekeeper.store.models import Evening
from scorekeeper.store.replay import Replay
from scorekeeper.store.sittings import sitting_at
from scorekeeper.table.confirming import (
    CannotConfirm, Phone, may_confirm, phone_team, waiting, written_by,
)
from scorekeeper.text.names import typed
from scorekeeper.web.words import fill, hand_preview


@dataclass(frozen=True)
class WaitingHand:
    """A hand waiting for confirmation, as this phone sees it."""

    number: int
    sentence: Markup  # what the hand did, in words
    recorded_team: str | None  # the team whose phone wrote it (None: a phone that never said)
    confirm_as: str | None  # the team this phone confirms it for (None: it may not)


@dataclass(frozen=True)
class ConfirmPanel:
    """The hands waiting, this phone's team now, and whom it may say it is."""

    hands: tuple[WaitingHand, ...]
    team: str | None  # this phone's team at the next hand (None: not said, or not seated)
    players: tuple[tuple[int, str], ...]  # (player id, name) of the six, to say whose it is
    evening_id: int


def shown_phone(evening_id: int | None) -> int | None:
    """The player this phone said it is, for the evening's pages (None: nobody said)."""
    phone = current_phone()
    if phone is None or evening_id is None or phone.evening_id != evening_id:
        return None
    return phone.player_id


def confirm_panel(replay: Replay, evening: Evening | None, read_only: bool
                  ) -> ConfirmPanel | None:
    """What the page shows of the evening's confirmations (None: it asks for none, and
    no hand of this game waits)."""
    hands = waiting(replay)
    if not hands and (evening is None or not evening.confirm_hands):
        return None
    scorer = can(SCORER) and not read_only
    phone = current_phone()
    number = min(replay.state.next_number, max(len(replay.hands), 1))
    team = phone_team(replay, phone, replay.state.next_number) if scorer else None
    shown = tuple(_waiting_hand(replay, hand, phone, scorer) for hand in hands)
    sittings = replay.sittings()
    players = tuple((sitting.player_id, sitting.name) for sitting in
                    (sitting_at(sittings, seat, number) for seat in SEATS)
                    if sitting.player_id is not None) if scorer and team is None else ()
    return ConfirmPanel(shown, team, players, replay.game.evening_id)


def _waiting_hand(replay: Replay, hand, phone: Phone | None, scorer: bool) -> WaitingHand:
    deal = replay.state.deals[hand.number - 1]
    sentence = hand_preview(deal) if not deal.thrown_in else fill(
        _("Hand %(number)s: thrown in."), number=hand.number)
    team = phone_team(replay, phone, hand.number) if scorer else None
    may = team is not None and may_confirm(
        hand, team, _device_id(), written_by(get_session(), replay.game.id, hand.number)) is None
    return WaitingHand(hand.number, sentence, hand.recorded_team, team if may else None)


def _device_id() -> int | None:
    device = current_device()
    return device.id if device else None


def refusal(why: str, number: int) -> str:
    """Why this phone could not confirm hand ``number``, in words."""
    if why == CannotConfirm.NO_TEAM:
        return _("Say whose phone this is first: a phone of another team than the one "
                 "that recorded hand %(number)s confirms it.", number=number)
    if why == CannotConfirm.OWN_TEAM:
        return _("Hand %(number)s was recorded by this phone's team: a phone of another "
                 "team confirms it.", number=number)
    return _("Hand %(number)s is not waiting for confirmation (undone, or corrected and "
             "shown again). Here is the game as it stands.", number=number)


def said_whose(name: str, team: str | None) -> Markup:
    """The notice once a phone said whose it is."""
    if team is None:
        return fill(_("This phone is %(name)s's."), name=typed(name))
    return fill(_("This phone is %(name)s's, team %(team)s."), name=typed(name), team=team)
