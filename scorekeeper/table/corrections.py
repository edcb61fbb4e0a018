"""Corrections that reach past one hand: a forgotten hand put in, a hand changed between
played and thrown in, two seats swapped, a seat's player renamed, a substitute who took a
seat from a hand on (and that taken back), a game abandoned.

Each is planned first (``plan_*``): the game as it would be afterwards, replayed through
the rules engine, with what moves, so the page can show the consequences before anyone
confirms. ``apply`` then writes exactly that plan, checked against the game's revision,
and keeps it in the change log. Nothing here decides a score: the replay does. Each
form's correction is a ``TableChange`` (``changes``): ``EditHand``, ``InsertHand``,
``SwapSeats``, ``RenameSeat``, ``TakeSeat``, ``TakeBackSeat`` and ``AbandonGame``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from typing import Sequence

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError
from sqlmodel import Session, select

from scorekeeper.rules import (
    Deal, GameState, HandRejected, RuleViolation, replay as replay_deals,
)
from scorekeeper.rules.auction import Auction, reseated
from scorekeeper.rules.table import left_of
from scorekeeper.store.models import (
    ChangeKind, Club, Game, GameChange, GameSeat, Hand, aware, utcnow,
)
from scorekeeper.store.replay import (
    Replay, deal_from_hand, hand_fields, load_replay, recent_changes, stored_fields,
)
from scorekeeper.store.rosters import find_or_add_player
from scorekeeper.store.sittings import Sitting, names_at, sitting_at
from scorekeeper.table.changes import GameChanged, TableChange
from scorekeeper.table.draft import TallyIncomplete
from scorekeeper.table.entry import Mode, entry_for
from scorekeeper.table.recording import (
    Actor, AlreadyRecorded, check_revision, hand_by_entry, log_change, mark_writer, read_deal,
    sent_again,
)
from scorekeeper.table.seating import name_problems, sits_elsewhere, substitute_problem
from scorekeeper.text.names import clean_name, name_key


@dataclass(frozen=True)
class Moved:
    """A later hand now dealt by another seat than recorded."""

    number: int  # its number after the correction
    dealer_before: int
    dealer_after: int
    whole: bool  # its calls kept call by call (else kept as its winning bid)


@dataclass(frozen=True)
class Plan:
    """A correction, worked out and replayed, not yet written."""

    kind: ChangeKind  # as the change log names it
    number: int  # the hand it is about (0: the whole game)
    deals: tuple[Deal, ...]  # every live hand afterwards, in order
    before: GameState
    after: GameState
    names_after: dict[int, str]
    moved: tuple[Moved, ...] = ()
    details: dict = field(default_factory=dict)
    seats: tuple[int, ...] = ()  # the seats whose player changes
    new_name: str = ""
    seating: tuple[Sitting, ...] = ()  # every seat's players afterwards (a substitute)


def _dealt_again(replay: Replay, deals: list[Deal], later_from: int, shift: int) -> tuple[
        list[Deal], tuple[Moved, ...]]:
    """``deals`` with every hand from index ``later_from`` on (the table's hands from
    index ``later_from - shift`` on) reseated to the dealer the replay now gives it."""
    dealer = replay.game.first_dealer
    moved: list[Moved] = []
    out: list[Deal] = []
    for index, deal in enumerate(deals):
        if index >= later_from:
            old = replay.state.deals[index - shift]
            if old.dealer_seat != dealer:
                auction, whole = reseated(old.auction, dealer)
                deal = Deal(auction.calls, deal.trump, deal.tally)
                moved.append(Moved(index + 1, old.dealer_seat, dealer, whole))
        out.append(deal)
        if not Auction.of(replay.rules, dealer, tuple(deal.calls)).thrown_in:
            dealer = left_of(dealer, replay.rules.seats)
    return out, tuple(moved)


def _replayed(replay: Replay, deals: Sequence[Deal], number: int) -> GameState:
    """The game replayed as it would be; a correction ending it before hands played
    after is refused, naming them."""
    try:
        return replay_deals(replay.rules, replay.game.first_dealer, deals)
    except HandRejected as rejected:
        if rejected.code == "game_over" and rejected.number > number:
            raise RuleViolation(
                "edit_ends_game",
                f"with this correction the game ends after hand {rejected.number - 1}, "
                f"but hands up to {len(deals)} were played after it",
                number=number, ended=rejected.number - 1, first=rejected.number,
                last=len(deals),
            ) from None
        raise


def _points_changed(old: Deal, new: Deal, teams: tuple[str, ...]) -> dict:
    """What a correction changed in a hand, for the change log (e.g. Joker B → C)."""
    before, after = hand_fields(old, teams), hand_fields(new, teams)
    details: dict = {}
    if (old.tally is None) != (new.tally is None):
        details["thrown_in"] = [old.tally is None, new.tally is None]
    if before["trump"] != after["trump"] and before["trump"] and after["trump"]:
        details["trump"] = [before["trump"], after["trump"]]
    points = {name: [(before["points"] or {}).get(name), (after["points"] or {}).get(name)]
              for name in (after["points"] or before["points"] or {})
              if before["points"] and after["points"]
              and before["points"].get(name) != after["points"].get(name)}
    if points:
        details["points"] = points
    return details


def _bid_of(replay: Replay, state: GameState, index: int) -> list | None:
    """[who bid, the bid], by name as the game seats them now (the log keeps it so)."""
    deal = state.deals[index]
    return None if deal.thrown_in else [replay.names_at(index + 1)[deal.bidder_seat],
                                        deal.bid]


def plan_edit(replay: Replay, number: int, deal: Deal) -> Plan:
    """Hand ``number`` replaced by ``deal``. A change between played and thrown in moves
    the dealer of every later hand by one seat, and each keeps who bid what."""
    index = number - 1
    if not 0 <= index < len(replay.hands):
        raise RuleViolation("no_such_hand", f"there is no hand {number}", number=number)
    deals = [deal_from_hand(h) for h in replay.hands]
    old = deals[index]
    deals[index] = deal
    deals, moved = _dealt_again(replay, deals, index + 1, 0)
    after = _replayed(replay, deals, number)
    details = _points_changed(old, deal, replay.rules.team_names)
    if not after.deals[index].thrown_in and not replay.state.deals[index].thrown_in:
        if _bid_of(replay, replay.state, index) != _bid_of(replay, after, index):
            details["bid"] = [_bid_of(replay, replay.state, index), _bid_of(replay, after, index)]
    return Plan(ChangeKind.EDITED, number, tuple(deals), replay.state, after,
                dict(replay.names), moved, details)


def edit_hand(session: Session, replay: Replay, number: int, deal: Deal,
              revision: int | None = None, by: Actor | None = None) -> Plan | None:
    """Replace hand ``number``; everything after it is re-derived by the replay.

    None when the hand already says so (a second tap on Save): nothing is written.
    """
    if 1 <= number <= len(replay.hands) and \
            hand_fields(deal, replay.rules.team_names) == stored_fields(replay.hands[number - 1]):
        return None
    plan = plan_edit(replay, number, deal)
    apply(session, replay, plan, revision, by)
    return plan


def plan_insert(replay: Replay, before: int, deal: Deal) -> Plan:
    """A forgotten hand put in before hand ``before``: dealt by the seat that dealt hand
    ``before`` as recorded, which (if it was played) moves every later hand on one seat."""
    if not 1 <= before <= len(replay.hands):
        raise RuleViolation("no_such_hand", f"there is no hand {before}", number=before)
    deals = [deal_from_hand(h) for h in replay.hands]
    deals.insert(before - 1, deal)
    deals, moved = _dealt_again(replay, deals, before, 1)
    after = _replayed(replay, deals, before)
    return Plan(ChangeKind.INSERTED, before, tuple(deals), replay.state, after,
                dict(replay.names), moved, {"thrown_in": after.deals[before - 1].thrown_in})


def at_table(replay: Replay, seat: int) -> None:
    """RuleViolation unless ``seat`` is one of the game's table (1 to 4, 5 or 6)."""
    if seat not in replay.names:
        raise RuleViolation("no_such_seat", f"there is no seat {seat}", seat=seat,
                            seats=replay.rules.seats)


def plan_swap(replay: Replay, seat_a: int, seat_b: int) -> Plan:
    """The players of two seats change places; every hand stays as recorded, by seat."""
    for seat in (seat_a, seat_b):
        at_table(replay, seat)
    if seat_a == seat_b:
        raise RuleViolation("swap_same_seat", "choose two different seats")
    names = dict(replay.names)
    names[seat_a], names[seat_b] = names[seat_b], names[seat_a]
    deals = tuple(deal_from_hand(h) for h in replay.hands)
    return Plan(ChangeKind.SEATS, 0, deals, replay.state, replay.state, names, (),
                {"seats": [seat_a, seat_b], "players": [replay.names[seat_a],
                                                        replay.names[seat_b]]},
                seats=(seat_a, seat_b))


def plan_rename(replay: Replay, seat: int, name: str) -> Plan:
    """Seat ``seat``'s player now was someone else than entered (or their name was typed
    wrong); whoever sat there before a substitute took the seat stays as they were."""
    at_table(replay, seat)
    names = dict(replay.names)
    names[seat] = name
    problems = [p for p in name_problems([names[s] for s in replay.rules.seat_numbers],
                                         replay.rules.seats)
                if p.params.get("seat") == seat or p.code == "name_twice"]
    if problems:
        raise problems[0]
    name = clean_name(name)
    old = replay.names[seat]
    if name_key(old) == name_key(name):
        raise RuleViolation("name_same", f"seat {seat} is {old} already", seat=seat)
    now = sitting_at(replay.sittings(), seat, replay.state.next_number)
    elsewhere = sits_elsewhere(replay.sittings(), seat, name, now)
    if elsewhere is not None:
        raise elsewhere
    names[seat] = name
    deals = tuple(deal_from_hand(h) for h in replay.hands)
    return Plan(ChangeKind.RENAMED, 0, deals, replay.state, replay.state, names, (),
                {"seat": seat, "from": old, "to": name}, seats=(seat,), new_name=name)


def last_substitute_hand(replay: Replay) -> int:
    """The latest hand a substitute can take a seat from: the next hand of a game in
    play (they sit down now), the last hand of a finished one."""
    return replay.state.next_number - (1 if replay.state.finished else 0)


def plan_substitute(replay: Replay, seat: int, from_hand: int, name: str) -> Plan:
    """Seat ``seat``'s player left after hand ``from_hand - 1``, and ``name`` (on the
    club's roster, or new to it) sat there from hand ``from_hand`` on: the hands before
    stay the leaving player's, those after are the substitute's. Every hand stays as
    recorded, by seat; no score moves."""
    problem = substitute_problem(replay.sittings(), seat, from_hand, name,
                                 last_substitute_hand(replay))
    if problem is not None:
        raise problem
    name = clean_name(name)
    leaving = sitting_at(replay.sittings(), seat, from_hand)
    seating = tuple(sorted((*replay.sittings(), Sitting(seat, from_hand, name)),
                           key=lambda s: (s.seat, s.from_hand)))
    return Plan(ChangeKind.SUBBED, from_hand, _same_deals(replay), replay.state, replay.state,
                names_at(seating, replay.state.next_number), (),
                {"seat": seat, "from": leaving.name, "to": name}, seats=(seat,),
                new_name=name, seating=seating)


def plan_take_back(replay: Replay, seat: int, from_hand: int) -> Plan:
    """The substitute who took ``seat`` at hand ``from_hand`` never did: the seat's
    player before them plays those hands again."""
    gone = next((s for s in replay.substitutes
                 if s.seat == seat and s.from_hand == from_hand), None)
    if gone is None:
        raise RuleViolation("no_substitute", f"nobody took seat {seat} at hand {from_hand}",
                            seat=seat, number=from_hand)
    back = sitting_at(replay.sittings(), seat, from_hand - 1)
    seating = tuple(s for s in replay.sittings() if s != gone)
    return Plan(ChangeKind.UNSUBBED, from_hand, _same_deals(replay), replay.state, replay.state,
                names_at(seating, replay.state.next_number), (),
                {"seat": seat, "from": gone.name, "to": back.name}, seats=(seat,),
                seating=seating)


def _same_deals(replay: Replay) -> tuple[Deal, ...]:
    return tuple(deal_from_hand(h) for h in replay.hands)


def plan_abandon(replay: Replay, abandon: bool) -> Plan:
    """The game set aside (kept, out of the statistics), or taken back into play."""
    deals = tuple(deal_from_hand(h) for h in replay.hands)
    kind = ChangeKind.ABANDONED if abandon else ChangeKind.REINSTATED
    return Plan(kind, 0, deals, replay.state, replay.state, dict(replay.names))


def apply(session: Session, replay: Replay, plan: Plan, revision: int | None,
          by: Actor | None = None, *, entry_key: str | None = None) -> None:
    """Write ``plan`` as it was shown, or nothing (GameChanged) if the game moved since."""
    check_revision(replay, revision)
    try:
        _write(session, replay, plan, by, entry_key)
    except (IntegrityError, StaleDataError):
        # Another phone's change got there first (a hand number, a seat, or a roster
        # name taken meanwhile): nothing of this one is kept.
        session.rollback()
        raise GameChanged() from None


def _write(session: Session, replay: Replay, plan: Plan, by: Actor | None,
           entry_key: str | None) -> None:
    when = utcnow()
    game: Game = replay.game
    # The game's row first (UPDATE ... WHERE revision = the one read): a correction made
    # meanwhile makes this one stop here, before it touches a seat or a hand, and two
    # corrections never wait on each other's rows in turn (PostgreSQL's deadlock).
    game.changed_at = when
    if plan.kind in (ChangeKind.ABANDONED, ChangeKind.REINSTATED):
        game.abandoned_at = when if plan.kind == ChangeKind.ABANDONED else None
    session.add(game)
    session.flush()
    if plan.kind == ChangeKind.INSERTED:
        _put_in(session, replay, plan, by, entry_key, when)
    if plan.kind in (ChangeKind.EDITED, ChangeKind.INSERTED):
        _rewrite_hands(session, replay, plan, by, when)
    if plan.kind in (ChangeKind.SEATS, ChangeKind.RENAMED):
        _reseat_players(session, replay, plan)
    elif plan.kind == ChangeKind.SUBBED:
        club = session.get(Club, game.club_id)
        player = find_or_add_player(session, club, plan.new_name)
        session.add(GameSeat(game_id=game.id, seat=plan.seats[0], from_hand=plan.number,
                             player_id=player.id))
        session.flush()
    elif plan.kind == ChangeKind.UNSUBBED:
        row = session.get(GameSeat, (game.id, plan.seats[0], plan.number))
        if row is None:  # taken back meanwhile, by another phone
            session.rollback()
            raise GameChanged()
        session.delete(row)
        session.flush()
    details = dict(plan.details)
    if plan.moved:
        details["moved"] = [plan.moved[0].number, plan.moved[-1].number,
                            plan.moved[0].dealer_after == left_of(plan.moved[0].dealer_before,
                                                                 replay.rules.seats)]
        details["kept_as_bid"] = [m.number for m in plan.moved if not m.whole]
    log_change(session, replay, plan.kind, plan.number, plan.after, by, when, details or None)
    session.commit()


def _put_in(session: Session, replay: Replay, plan: Plan, by: Actor | None,
            entry_key: str | None, when) -> None:
    """A forgotten hand put in: the later hands move up one number, the highest first,
    so no two live hands ever hold one number, and the forgotten hand goes in the gap."""
    for hand in reversed(replay.hands[plan.number - 1:]):
        hand.number += 1
        hand.updated_at = when
        session.add(hand)
        session.flush()
    _substitutes_move_on(session, replay, plan.number)
    forgotten = Hand(game_id=replay.game.id, number=plan.number, recorded_at=when,
                     entry_key=entry_key or None,
                     **hand_fields(plan.deals[plan.number - 1], replay.rules.team_names))
    mark_writer(session, replay, forgotten, by)
    session.add(forgotten)


def _rewrite_hands(session: Session, replay: Replay, plan: Plan, by: Actor | None,
                   when) -> None:
    """Each stored hand the plan changes written as planned (after a forgotten hand, one
    number later); written again, a hand waits for confirmation again."""
    for index, hand in enumerate(replay.hands):
        number = index + 1 + (1 if plan.kind == ChangeKind.INSERTED and
                              index >= plan.number - 1 else 0)
        fields = hand_fields(plan.deals[number - 1], replay.rules.team_names)
        if fields != stored_fields(hand):
            for name, value in fields.items():
                setattr(hand, name, value)
            hand.updated_at = when
            mark_writer(session, replay, hand, by)
            session.add(hand)


def _reseat_players(session: Session, replay: Replay, plan: Plan) -> None:
    """Seat the planned players: the rows of the seats concerned, written afresh (a
    player sits once per game, so a swap can't be two updates in place). A swap moves
    each seat's players, substitutes too; a new name is the seat's player now."""
    rows = list(session.exec(
        select(GameSeat).where(GameSeat.game_id == replay.game.id,
                               GameSeat.seat.in_(plan.seats))  # type: ignore[attr-defined]
        .order_by(GameSeat.seat, GameSeat.from_hand)))
    seated = {(row.seat, row.from_hand): row.player_id for row in rows}
    if plan.kind == ChangeKind.SEATS:
        seat_a, seat_b = plan.seats
        other = {seat_a: seat_b, seat_b: seat_a}
        seated = {(other[seat], from_hand): player
                  for (seat, from_hand), player in seated.items()}
    else:
        club = session.get(Club, replay.game.club_id)
        player = find_or_add_player(session, club, plan.new_name)
        now = sitting_at(replay.sittings(), plan.seats[0], replay.state.next_number)
        seated[(now.seat, now.from_hand)] = player.id
    for row in rows:
        session.delete(row)
    session.flush()
    for (seat, from_hand), player_id in seated.items():
        session.add(GameSeat(game_id=replay.game.id, seat=seat, from_hand=from_hand,
                             player_id=player_id))
    session.flush()


def _substitutes_move_on(session: Session, replay: Replay, before: int) -> None:
    """A forgotten hand put in before hand ``before``: a substitute who came in at that
    hand or later came in one hand later by the new numbers (the forgotten hand stays
    the leaving player's). The latest first, so no two rows ever hold one place."""
    for row in session.exec(
        select(GameSeat).where(GameSeat.game_id == replay.game.id,
                               GameSeat.from_hand >= max(before, 2))
        .order_by(GameSeat.from_hand.desc())  # type: ignore[attr-defined]
    ).all():
        row.from_hand += 1
        session.add(row)
        session.flush()


# A confirm tapped twice: the second finds the game changed by the first, from the same
# phone, a moment ago, and is told it is done rather than that the game moved.
DOUBLE_TAP = timedelta(seconds=60)


def made_here_since(session: Session, replay: Replay, kind: ChangeKind,
                    revision: int | None, by: Actor | None) -> GameChange | None:
    """The game's last change, if it is of ``kind``, was made after the page of
    ``revision`` was shown, and came from ``by``'s phone just now (the same confirm,
    tapped twice: the first made it)."""
    if revision is None or revision == replay.game.revision or by is None \
            or by.device_id is None:
        return None
    last = recent_changes(session, replay.game.id, 1)
    if last and last[0].kind == kind and last[0].device_id == by.device_id \
            and utcnow() - aware(last[0].at) < DOUBLE_TAP:
        return last[0]
    return None


class Correction(TableChange):
    """A correction as a ``Plan``: planned, shown first (its consequences, before
    anyone confirms), then written by ``apply``."""

    entry_key: str | None = None

    def check_first(self, replay, plan) -> bool:
        return True

    def apply(self, session, replay, plan, revision, by) -> Plan:
        shown = replay.game.revision
        try:
            apply(session, replay, plan, revision, by, entry_key=self.entry_key)
        except GameChanged:
            fresh = load_replay(session, replay.game)
            if fresh.game.revision != shown:
                raise
            # The game itself did not move (a roster name added by another game at the
            # same moment): once more, now that the name is there.
            apply(session, fresh, plan, revision, by, entry_key=self.entry_key)
        return plan


@dataclass(frozen=True)
class EditHand(Correction):
    """Hand ``number`` as the entry ``fields`` now say."""

    number: int
    fields: object

    def _deal(self, replay: Replay) -> Deal:
        return read_deal(entry_for(replay, Mode.correcting(self.number), self.fields).draft)

    def already_done(self, session, replay, revision, by) -> Hand | None:
        """The hand, if it says so already (a second tap on Save)."""
        if not 1 <= self.number <= len(replay.hands):
            return None
        try:
            deal = self._deal(replay)
        except (TallyIncomplete, RuleViolation):
            return None
        hand = replay.hands[self.number - 1]
        same = hand_fields(deal, replay.rules.team_names) == stored_fields(hand)
        return hand if same else None

    def plan(self, session, replay, by) -> Plan:
        return plan_edit(replay, self.number, self._deal(replay))

    def check_first(self, replay, plan: Plan) -> bool:
        """Later hands' dealers move, or another team confirmed the hand."""
        return bool(plan.moved) or replay.hands[self.number - 1].confirmed


@dataclass(frozen=True)
class InsertHand(Correction):
    """A forgotten hand put in before hand ``before``, from the entry ``fields`` (its key
    ``entry_key``: sent again, it is recognised and never put in twice)."""

    before: int
    fields: object
    entry_key: str | None = None

    def already_done(self, session, replay, revision, by) -> Hand | None:
        hand = hand_by_entry(session, replay.game.id, self.entry_key)
        if hand is None or hand.undone_at is not None or hand.number != self.before:
            return None
        draft = entry_for(replay, Mode.inserting(self.before), self.fields).draft
        return hand if sent_again(replay, hand, draft) else None

    def plan(self, session, replay, by) -> Plan:
        sent_before = hand_by_entry(session, replay.game.id, self.entry_key)
        if sent_before is not None and sent_before.number == self.before:
            raise GameChanged()  # put in since this request looked: ``make`` asks again
        if sent_before is not None:  # another hand under that key: never taken for it
            raise AlreadyRecorded(sent_before.number)
        draft = entry_for(replay, Mode.inserting(self.before), self.fields).draft
        return plan_insert(replay, self.before, read_deal(draft))


@dataclass(frozen=True)
class SwapSeats(Correction):
    """The players of seats ``first`` and ``second`` change places."""

    first: int
    second: int

    def already_done(self, session, replay, revision, by) -> GameChange | None:
        change = made_here_since(session, replay, ChangeKind.SEATS, revision, by)
        same = change is not None and \
            sorted((change.details or {}).get("seats", ())) == sorted((self.first, self.second))
        return change if same else None

    def plan(self, session, replay, by) -> Plan:
        return plan_swap(replay, self.first, self.second)


@dataclass(frozen=True)
class RenameSeat(Correction):
    """Seat ``seat``'s player is ``name``."""

    seat: int
    name: str

    def already_done(self, session, replay, revision, by) -> str | None:
        """The seat's name, if it is this one already and the game changed since the
        page was shown (a confirm tapped twice, or another phone's same rename)."""
        now = replay.names.get(self.seat)
        if revision is None or revision == replay.game.revision or now is None:
            return None
        return now if name_key(now) == name_key(clean_name(self.name)) else None

    def plan(self, session, replay, by) -> Plan:
        return plan_rename(replay, self.seat, self.name)


def _same_seat_change(change: GameChange | None, seat: int, number: int,
                      name: str | None = None) -> GameChange | None:
    """``change``, if it took seat ``seat``'s substitute at hand ``number`` in or out
    (``name``: this one)."""
    if change is None or change.number != number or (change.details or {}).get("seat") != seat:
        return None
    if name is not None and name_key(change.details.get("to", "")) != name_key(name):
        return None
    return change


@dataclass(frozen=True)
class TakeSeat(Correction):
    """``name`` took seat ``seat`` from hand ``from_hand`` on (a substitute)."""

    seat: int
    from_hand: int
    name: str

    def already_done(self, session, replay, revision, by) -> GameChange | None:
        change = made_here_since(session, replay, ChangeKind.SUBBED, revision, by)
        return _same_seat_change(change, self.seat, self.from_hand, self.name)

    def plan(self, session, replay, by) -> Plan:
        return plan_substitute(replay, self.seat, self.from_hand, self.name)


@dataclass(frozen=True)
class TakeBackSeat(Correction):
    """The substitute who took seat ``seat`` at hand ``from_hand`` never did."""

    seat: int
    from_hand: int

    def already_done(self, session, replay, revision, by) -> GameChange | None:
        change = made_here_since(session, replay, ChangeKind.UNSUBBED, revision, by)
        return _same_seat_change(change, self.seat, self.from_hand)

    def plan(self, session, replay, by) -> Plan:
        return plan_take_back(replay, self.seat, self.from_hand)


@dataclass(frozen=True)
class AbandonGame(Correction):
    """The game set aside (``abandon``), or taken back into play."""

    abandon: bool

    def already_done(self, session, replay, revision, by) -> bool | None:
        return True if (replay.game.abandoned_at is not None) == self.abandon else None

    def plan(self, session, replay, by) -> Plan:
        return plan_abandon(replay, self.abandon)
