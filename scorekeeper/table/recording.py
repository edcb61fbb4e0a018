"""The hands of a game: recorded, undone and brought back, always checked by the rules
engine.

Corrections (an edit, a forgotten hand, seats, names) are in ``corrections``; both keep
every change in the game's log (``log_change``) and commit it with the game's revision
checked (``commit_change``). Each form's change is a ``TableChange`` (``changes``):
``RecordHand``, ``UndoHand``, ``BringBackHand`` and ``ConfirmHand`` here.

Every change builds the game's whole list of deals as it would be afterwards and checks
it through the rules engine first; only a list the rules accept is written. A hand added
at the end is played on from the game as it stood (``carry_on``: the same result as a
replay of every hand, proven by the rules' property tests), so recording hand 60 costs
what recording hand 2 does.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError
from sqlmodel import Session, select

from scorekeeper.rules import (
    Deal, GameState, HouseRules, RuleViolation, carry_on, replay as replay_deals,
)
from scorekeeper.store.models import WHO_LENGTH, ChangeKind, GameChange, Hand, utcnow
from scorekeeper.store.replay import REPLAYS, Replay, deal_from_hand, hand_fields, stored_fields
from scorekeeper.table.changes import GameChanged, TableChange
from scorekeeper.table.confirming import (
    AlreadyConfirmed, CannotConfirm, evening_confirms, mark_written, may_confirm,
    phone_team, written_by,
)
from scorekeeper.table.draft import HandDraft, TallyIncomplete, draft_from_deal, read_draft
from scorekeeper.table.entry import NEXT_HAND, entry_for
from scorekeeper.table.live import enter_again


class AlreadyRecorded(Exception):
    """The hand the form was for is no longer the one to record (double tap, 2nd phone)."""

    def __init__(self, number: int) -> None:
        super().__init__(f"hand {number} was already recorded")
        self.number = number


class NotTheLastHand(Exception):
    """Undo names a hand that is not the last one any more (double tap)."""

    def __init__(self, number: int) -> None:
        super().__init__(f"hand {number} is not the last hand")
        self.number = number


class AlreadyBack(Exception):
    """Bring-back tapped twice: the hand is live again already."""

    def __init__(self, number: int) -> None:
        super().__init__(f"hand {number} is back already")
        self.number = number


def _replay(replay: Replay, deals: Sequence[Deal]) -> GameState:
    """Replay the game as it would be; RuleViolation (HandRejected) if it breaks a rule."""
    return replay_deals(replay.rules, replay.game.first_dealer, deals)


def check_revision(replay: Replay, revision: int | None) -> None:
    """Refuse a change sent from a page shown before the game's last change."""
    if revision is not None and revision != replay.game.revision:
        raise GameChanged()


# Changes that leave every hand before their own as it was.
_LATER_HANDS = frozenset({ChangeKind.RECORDED, ChangeKind.EDITED, ChangeKind.UNDONE,
                          ChangeKind.RESTORED, ChangeKind.INSERTED})


def _leaves_hand(kind: str, changed: int, number: int) -> bool:
    """Whether a change to hand ``changed`` left hand ``number`` as it was."""
    if kind == ChangeKind.CONFIRMED:  # says who agreed; scores nothing
        return changed != number
    return kind in _LATER_HANDS and changed > number


def check_hand_as_shown(session: Session, replay: Replay, number: int,
                        revision: int | None) -> None:
    """Refuse a change to hand ``number`` sent from a page shown before a change to that
    hand or to the game up to it. Later hands recorded or changed, and other hands
    confirmed, meanwhile (a phone back online sends its hands one by one) leave hand
    ``number`` as the page showed it.

    Each change bumps the revision once and keeps one row in the game's log, so the changes
    since the page are the log's last ``revision now - revision shown`` rows."""
    if revision is None or revision == replay.game.revision:
        return
    since = replay.game.revision - revision
    if since < 0:
        raise GameChanged()
    changes = session.exec(
        select(GameChange.kind, GameChange.number).where(GameChange.game_id == replay.game.id)
        .order_by(GameChange.id.desc()).limit(since)).all()
    if len(changes) < since or not all(_leaves_hand(*change, number) for change in changes):
        raise GameChanged()


@dataclass(frozen=True)
class Actor:
    """Who makes a change: a member on one of their devices (None: a command line)."""

    member_id: int | None = None
    device_id: int | None = None
    who: str = ""
    player_id: int | None = None  # the member's player at the table (``table.confirming``)


def mark_writer(session: Session, replay: Replay, hand: Hand, by: Actor | None) -> None:
    """Mark a hand just written with what its evening asks of it (``confirming``)."""
    confirming = evening_confirms(session, replay.game)
    team = phone_team(replay, by.player_id, hand.number) if confirming and by else None
    mark_written(hand, confirming, team)


def _hand_change(state: GameState, number: int) -> dict[str, int] | None:
    if not 1 <= number <= len(state.deals):
        return None
    deal = state.deals[number - 1]
    return dict(deal.score_change) if deal.score_change is not None else None


def log_change(session: Session, replay: Replay, kind: ChangeKind, number: int, after: GameState,
         by: Actor | None, when, details: dict | None = None) -> None:
    """Keep the change in the game's log, in the transaction that makes it."""
    by = by or Actor()
    session.add(GameChange(
        game_id=replay.game.id, at=when, kind=kind, number=number,
        member_id=by.member_id, device_id=by.device_id, who=by.who[:WHO_LENGTH],
        # A forgotten hand put in had no score change before: the one at its number moved on.
        hand_before=None if kind == ChangeKind.INSERTED else _hand_change(replay.state, number),
        hand_after=_hand_change(after, number),
        totals_before=dict(replay.state.scores), totals_after=dict(after.scores),
        details=details,
    ))


def commit_change(session: Session, replay: Replay, when) -> None:
    """Commit with the game's revision checked and bumped in the same transaction.

    The UPDATE of the game row carries ``WHERE revision = <the one read>``: if another
    request changed the game since this one read it, nothing matches, nothing of this
    change is kept, and GameChanged says so.
    """
    replay.game.changed_at = when
    session.add(replay.game)
    try:
        session.commit()
    except (StaleDataError, IntegrityError):
        session.rollback()
        raise GameChanged() from None


def hand_by_entry(session: Session, game_id: int, entry_key: str | None) -> Hand | None:
    """The hand (live or undone since) that the phone's entry ``entry_key`` recorded."""
    if not entry_key:
        return None
    return session.exec(
        select(Hand).where(Hand.game_id == game_id, Hand.entry_key == entry_key)
    ).first()


def record_hand(
    session: Session, replay: Replay, number: int, deal: Deal, revision: int | None = None,
    by: Actor | None = None, entry_key: str | None = None,
) -> Replay:
    """Add the next hand. ``number`` is the hand the form was for: a repeat is refused.

    ``entry_key`` names the phone's entry: sent again (its answer was lost), it is
    recognised by whoever looks it up with ``hand_by_entry``, and never recorded twice.
    The game as it stands afterwards is returned, from the replay that checked it: the
    answer is shown from it without reading and replaying the game again.
    """
    if number != replay.state.next_number:
        raise AlreadyRecorded(number)
    check_revision(replay, revision)
    after = carry_on(replay.state, [deal])  # the game as it stood, and this hand
    hand = Hand(game_id=replay.game.id, number=number, entry_key=entry_key or None,
                **hand_fields(deal, replay.rules.team_names))
    mark_writer(session, replay, hand, by)
    session.add(hand)
    log_change(session, replay, ChangeKind.RECORDED, number, after, by, hand.recorded_at)
    commit_change(session, replay, hand.recorded_at)
    _keep_replay(replay, replay.hands + (hand,), after)
    return replay.moved_on(replay.hands + (hand,), after)


def _keep_replay(replay: Replay, hands: tuple[Hand, ...], state: GameState) -> None:
    """The game as a change left it, for the next read to carry on from (as read back
    from the stored hands, which is how the next read will compare it)."""
    REPLAYS.keep(replay.game.id, replay.rules, replay.game.first_dealer,
                 tuple(deal_from_hand(h) for h in hands), state)


def undo_last_hand(
    session: Session, replay: Replay, number: int, revision: int | None = None,
    by: Actor | None = None,
) -> Hand:
    """Take back the last hand. It is kept, marked undone, and can be brought back."""
    if not replay.hands or replay.hands[-1].number != number:
        raise NotTheLastHand(number)
    check_revision(replay, revision)
    hand = replay.hands[-1]
    hand.undone_at = utcnow()
    session.add(hand)
    after = _replay(replay, [deal_from_hand(h) for h in replay.hands[:-1]])
    log_change(session, replay, ChangeKind.UNDONE, number, after, by, hand.undone_at)
    if by is not None and by.device_id is not None:
        # Back in the entry of the phone that undid it, on the game as the undo leaves
        # it (the commit bumps the revision by one): the page that phone has next holds
        # it, whichever answer that is.
        entry = {**undone_entry(after, replay.rules, hand),
                 "revision": str(replay.game.revision + 1)}
        enter_again(session, replay.game.id, entry, by.device_id)
    commit_change(session, replay, hand.undone_at)
    return hand


def undone_entry(after: GameState, rules: HouseRules, hand: Hand) -> dict[str, str]:
    """The entry holding ``hand``, undone, as it was recorded: the next hand again, dealt
    as it was (``after``: the game without it)."""
    entry = draft_from_deal(after.next_dealer, rules, deal_from_hand(hand)).fields()
    entry["number"] = str(hand.number)
    return entry


def last_undone_hand(session: Session, replay: Replay) -> Hand | None:
    """The hand undone last, if it can come back as it was.

    It must be the next hand again, and nothing may have been recorded or corrected
    since it was undone: that could have changed who deals it, and so who bid.
    """
    hand = session.exec(
        select(Hand)
        .where(Hand.game_id == replay.game.id,
               Hand.undone_at.is_not(None))  # type: ignore[union-attr]
        .order_by(Hand.undone_at.desc())  # type: ignore[union-attr]
    ).first()
    if hand is None or hand.number != replay.state.next_number:
        return None
    last_written = max((h.updated_at or h.recorded_at for h in replay.hands), default=None)
    if last_written is not None and last_written > hand.undone_at:
        return None
    return hand


def bring_back_hand(
    session: Session, replay: Replay, hand_id: int, revision: int | None = None,
    by: Actor | None = None,
) -> Hand:
    """Bring back the hand undone last (an undo of the undo; the change log's kind keeps
    its stored word, "restored"). A backup is restored; a hand is brought back."""
    live = next((h for h in replay.hands if h.id == hand_id), None)
    if live is not None:
        raise AlreadyBack(live.number)
    hand = last_undone_hand(session, replay)
    if hand is None or hand.id != hand_id:
        raise GameChanged()
    check_revision(replay, revision)
    after = carry_on(replay.state, [deal_from_hand(hand)])
    hand.undone_at = None
    session.add(hand)
    when = utcnow()
    log_change(session, replay, ChangeKind.RESTORED, hand.number, after, by, when)
    commit_change(session, replay, when)
    return hand


def confirming_team(session: Session, replay: Replay, number: int, by: Actor
                    ) -> tuple[Hand, str]:
    """(hand ``number``, the team ``by`` confirms it for); AlreadyConfirmed if it was,
    CannotConfirm if this member may not."""
    hand = next((h for h in replay.hands if h.number == number), None)
    if hand is not None and hand.confirmed:
        raise AlreadyConfirmed(number, hand.confirmed_team)
    team = phone_team(replay, by.player_id, number)
    why = CannotConfirm.NOT_WAITING if hand is None else may_confirm(
        hand, team, by.device_id, written_by(session, replay.game.id, number))
    if why is not None:
        raise CannotConfirm(number, why)
    return hand, team


def confirm_hand(session: Session, replay: Replay, number: int, revision: int | None,
                 by: Actor) -> Hand:
    """Confirm hand ``number`` for the team of ``by``'s player, in the game's log.

    AlreadyConfirmed if it was; CannotConfirm if this member may not; GameChanged if the
    game changed since the page was shown (another phone's confirmation, say)."""
    hand, team = confirming_team(session, replay, number, by)
    check_hand_as_shown(session, replay, number, revision)
    hand.confirmed_team = team
    session.add(hand)
    when = utcnow()
    log_change(session, replay, ChangeKind.CONFIRMED, number, replay.state, by, when,
               {"team": team})
    commit_change(session, replay, when)
    return hand


def sent_again(replay: Replay, hand: Hand, draft: HandDraft) -> bool:
    """Whether the entry ``draft`` is the very hand ``hand`` recorded: the same entry
    sent twice (its first answer slow, or lost)."""
    try:
        deal = draft.to_deal()
    except (TallyIncomplete, RuleViolation):
        return False
    return hand_fields(deal, replay.rules.team_names) == stored_fields(hand)


def read_deal(draft: HandDraft) -> Deal:
    """The hand an entry holds; the first thing that can't be read stops it."""
    if draft.unreadable:
        raise draft.unreadable[0]  # carries what its message names
    return draft.to_deal()


@dataclass(frozen=True)
class RecordHand(TableChange):
    """The next hand, hand ``number`` as the form says, from the entry ``fields`` (its
    key ``entry_key``: the same entry sent again is recognised, never recorded twice)."""

    number: int
    fields: object  # the form's fields
    entry_key: str | None = None

    def already_done(self, session, replay, revision, by) -> Hand | None:
        """The hand this entry recorded (its answer lost), or one the phone kept (offline,
        say) that another phone recorded meanwhile exactly as this one has it."""
        sent_before = hand_by_entry(session, replay.game.id, self.entry_key)
        if sent_before is not None:
            return sent_before if self._is_entry_of(replay, sent_before) else None
        if self.entry_key and 1 <= self.number < replay.state.next_number and \
                self._is_entry_of(replay, replay.hands[self.number - 1]):
            return replay.hands[self.number - 1]  # (a plain form sent twice is told)
        return None

    def _is_entry_of(self, replay: Replay, hand: Hand) -> bool:
        """Whether this entry recorded ``hand``: its number, and the same hand read as it
        was entered (from that hand's dealer's left)."""
        number = self.number
        if hand.number != number:
            return False
        if number <= len(replay.state.deals) and hand.undone_at is None:
            dealer = replay.state.deals[number - 1].dealer_seat
        elif number == replay.state.next_number:
            dealer = replay.state.next_dealer  # undone since: the same seat deals it
        else:
            return True  # undone, and later hands recorded since: its number is the entry's
        return sent_again(replay, hand, read_draft(self.fields, dealer, replay.rules))

    def plan(self, session, replay, by) -> Deal:
        if self.number != replay.state.next_number:
            raise AlreadyRecorded(self.number)
        if hand_by_entry(session, replay.game.id, self.entry_key) is not None:
            # Recorded since this request looked: by this very entry sent at the same
            # moment (``make`` asks again and finds it), or another hand under its key.
            raise GameChanged()
        return read_deal(entry_for(replay, NEXT_HAND, self.fields).draft)

    def apply(self, session, replay, plan, revision, by) -> Replay:
        try:
            return record_hand(session, replay, self.number, plan, revision, by, self.entry_key)
        except AlreadyRecorded:
            raise GameChanged() from None


@dataclass(frozen=True)
class UndoHand(TableChange):
    """Take back hand ``number``, the last one."""

    number: int

    def already_done(self, session, replay, revision, by) -> Hand | None:
        """The hand, undone already (a double tap): the next hand again, as it was."""
        if replay.hands and replay.hands[-1].number == self.number:
            return None
        undone = last_undone_hand(session, replay)
        return undone if undone is not None and undone.number == self.number else None

    def plan(self, session, replay, by) -> Hand:
        if not replay.hands or replay.hands[-1].number != self.number:
            raise GameChanged()
        return replay.hands[-1]

    def check_first(self, replay, plan: Hand) -> bool:
        return plan.confirmed  # another team agreed to it: a scorer's second tap

    def apply(self, session, replay, plan, revision, by) -> Hand:
        try:
            return undo_last_hand(session, replay, self.number, revision, by)
        except NotTheLastHand:
            raise GameChanged() from None


@dataclass(frozen=True)
class BringBackHand(TableChange):
    """Bring back the hand undone last (its id ``hand_id``)."""

    hand_id: int

    def already_done(self, session, replay, revision, by) -> Hand | None:
        return next((h for h in replay.hands if h.id == self.hand_id), None)

    def plan(self, session, replay, by) -> Hand:
        hand = last_undone_hand(session, replay)
        if hand is None or hand.id != self.hand_id:
            raise GameChanged()  # something was recorded or corrected since it was undone
        return hand

    def apply(self, session, replay, plan, revision, by) -> Hand:
        return bring_back_hand(session, replay, self.hand_id, revision, by)


@dataclass(frozen=True)
class ConfirmHand(TableChange):
    """Confirm hand ``number`` for the team of the confirming member's player."""

    number: int

    def already_done(self, session, replay, revision, by) -> Hand | None:
        hand = next((h for h in replay.hands if h.number == self.number), None)
        return hand if hand is not None and hand.confirmed else None

    def plan(self, session, replay, by) -> str:
        """The team it is confirmed for; CannotConfirm if this member may not."""
        return confirming_team(session, replay, self.number, by)[1]

    def apply(self, session, replay, plan, revision, by) -> Hand:
        return confirm_hand(session, replay, self.number, revision, by)
