"""What the game page shows of a night played for a ranking (``table.confirming``): the
hands waiting for a member of another team, with Confirm where this member may (a
viewer too), and the question "which player are you?" to a member who has not said.

What it shows depends on the member's player, so a page kept whole is kept per player
(``page_cache``'s key holds ``shown_player``).
"""
from __future__ import annotations

from dataclasses import dataclass

from flask_babel import gettext as _
from markupsafe import Markup
from sqlmodel import select

from scorekeeper.clubs.access import current_device, current_member
from scorekeeper.store.db import get_session
from scorekeeper.store.models import Evening, Member
from scorekeeper.store.replay import Replay
from scorekeeper.store.sittings import sitting_at
from scorekeeper.table.confirming import CannotConfirm, may_confirm, phone_team, waiting, written_by
from scorekeeper.text.names import typed
from scorekeeper.web.words import fill, hand_preview


@dataclass(frozen=True)
class WaitingHand:
    """A hand waiting for confirmation, as this member sees it."""

    number: int
    sentence: Markup  # what the hand did, in words
    recorded_team: str | None  # the writer's team (None: a member not seated)
    confirm_as: str | None  # the team this member confirms it for (None: they may not)


@dataclass(frozen=True)
class ConfirmPanel:
    """The hands waiting, this member's team now, and whom they may say they are."""

    hands: tuple[WaitingHand, ...]
    team: str | None  # this member's team at the next hand (None: no player, or not seated)
    players: tuple[tuple[int, str], ...]  # (player id, name): the seated ones nobody is yet


def shown_player() -> int | None:
    """The player this member is at the table, for the pages that depend on it."""
    member = current_member()
    return member.player_id if member else None


def confirm_panel(replay: Replay, evening: Evening | None, kept_as_is: bool
                  ) -> ConfirmPanel | None:
    """What the page shows of the evening's confirmations (None: it asks for none, and
    no hand of this game waits)."""
    hands = waiting(replay)
    if not hands and (evening is None or not evening.confirm_hands):
        return None
    player_id = None if kept_as_is else shown_player()
    team = phone_team(replay, player_id, replay.state.next_number)
    shown = tuple(_waiting_hand(replay, hand, player_id) for hand in hands)
    asked = not kept_as_is and current_member() is not None and player_id is None
    return ConfirmPanel(shown, team, free_players(replay) if asked else ())


def free_players(replay: Replay) -> tuple[tuple[int, str], ...]:
    """The players at the table's next hand that no member is yet, to tap one's own."""
    number = min(replay.state.next_number, max(len(replay.hands), 1))
    sittings = replay.sittings()
    seated = [sitting_at(sittings, seat, number) for seat in replay.rules.seat_numbers]
    ids = [sitting.player_id for sitting in seated if sitting.player_id is not None]
    taken = set(get_session().exec(select(Member.player_id).where(
        Member.player_id.in_(ids), Member.removed_at.is_(None))))  # type: ignore[union-attr]
    return tuple((sitting.player_id, sitting.name) for sitting in seated
                 if sitting.player_id is not None and sitting.player_id not in taken)


def _waiting_hand(replay: Replay, hand, player_id: int | None) -> WaitingHand:
    deal = replay.state.deals[hand.number - 1]
    sentence = hand_preview(deal) if not deal.thrown_in else fill(
        _("Hand %(number)s: thrown in."), number=hand.number)
    team = phone_team(replay, player_id, hand.number)
    may = team is not None and may_confirm(
        hand, team, _device_id(), written_by(get_session(), replay.game.id, hand.number)) is None
    return WaitingHand(hand.number, sentence, hand.recorded_team, team if may else None)


def _device_id() -> int | None:
    device = current_device()
    return device.id if device else None


def refusal(why: str, number: int) -> str:
    """Why this phone could not confirm hand ``number``, in words."""
    if why == CannotConfirm.NO_TEAM:
        return _("Say which player you are first: a member seated in another team than "
                 "the one that recorded hand %(number)s confirms it.", number=number)
    if why == CannotConfirm.OWN_TEAM:
        return _("Hand %(number)s was recorded by your team: a member of another team "
                 "confirms it.", number=number)
    return _("Hand %(number)s is not waiting for confirmation (undone, or corrected and "
             "shown again). Here is the game as it stands.", number=number)


def said_player(name: str, team: str | None) -> Markup:
    """The notice once a member said which player they are."""
    if team is None:
        return fill(_("You are %(name)s at the table."), name=typed(name))
    return fill(_("You are %(name)s at the table, team %(team)s."), name=typed(name), team=team)
