"""The hands of a game: recorded and undone, always checked by the rules engine.

Corrections (an edit, a forgotten hand, seats, names) are in ``scorekeeper.corrections``.

Every change builds the game's whole list of deals as it would be afterwards and checks
it through the rules engine first; only a list the rules accept is written. A hand added
at the end is played on from the game as it stood (``carry_on``: the same result as a
replay of every hand, proven by the rules' property tests), so recording hand 60 costs
what recording hand 2 does.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Sequence


from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError
from sqlmodel import Session, select

from scorekeeper.kept import LockedLRU
from scorekeeper.models import (
    WHO_LENGTH, ChangeKind, Game, GameChange, GameSeat, Hand, Player, utcnow,
)
from scorekeeper.rules import (
    Deal, GameState, HouseRules, Tally, carry_on, replay,
)
from scorekeeper.rules.scoring import CARD_POINTS
from scorekeeper.seating import (
    Sitting, Stretch, names_at, sitting_at, starting_seating, stretches, team_shares,
)


class AlreadyRecorded(Exception):
    """The hand the form was for is no longer the one to record (double tap, 2nd phone)."""

    def __init__(self, number: int) -> None:
        super().__init__(f"hand {number} was already recorded")
        self.number = number


class GameChanged(Exception):
    """The game changed (on another phone) after the page that sent the change was shown."""


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


@dataclass(frozen=True)
class Table:
    """A game as the pages need it: its rules, seats, stored hands and replayed state.

    ``names`` are the players at the table now (for the next hand: a substitute from
    the hand they take the seat at); ``seating`` says who sat where at every hand
    (empty: the six of ``names`` sat all game, as in a table made without it).
    """

    game: Game
    rules: HouseRules
    names: dict[int, str]  # seat -> player name
    hands: tuple[Hand, ...]
    state: GameState
    seating: tuple[Sitting, ...] = ()

    def team_label(self, team: str) -> str:
        seats = self.rules.team_seats[team]
        return " & ".join(self.names[seat] for seat in seats)

    def sittings(self) -> tuple[Sitting, ...]:
        """Every seat's players over the game (the six of ``names`` when no seating was
        read with the table)."""
        return self.seating or starting_seating(self.names)

    def names_at(self, number: int) -> dict[int, str]:
        """Seat -> who sat there at hand ``number``."""
        return names_at(self.seating, number) if self.seating else self.names

    @property
    def substitutes(self) -> tuple[Sitting, ...]:
        """The players who took a seat during the game, by the hand they took it at."""
        return tuple(sorted((s for s in self.seating if s.from_hand > 1),
                            key=lambda s: (s.from_hand, s.seat)))

    def took_over_at(self, number: int) -> list[tuple[int, str, str]]:
        """(seat, who left, who took the seat) for each substitute who came in at hand
        ``number``."""
        return [(s.seat, sitting_at(self.seating, s.seat, number - 1).name, s.name)
                for s in self.substitutes if s.from_hand == number]

    def stretches(self) -> list[Stretch]:
        """Each player's stretch of the game's live hands (``seating.stretches``)."""
        return stretches(self.sittings(), len(self.state.deals))

    def team_shares(self) -> dict[str, dict[int, float]]:
        """For a finished game's rating: each team's players (by id) with the share of
        the game's hands each played, 1 for a player who sat all game (a seat's shares
        add up to 1)."""
        return team_shares(self.sittings(), self.rules.team_seats, len(self.state.deals))

    def moved_on(self, hands: tuple[Hand, ...], state: GameState) -> "Table":
        """The table after a change to its hands: its players those of the next hand."""
        names = names_at(self.seating, state.next_number) if self.seating else self.names
        return Table(self.game, self.rules, names, hands, state, self.seating)


def house_rules(game: Game) -> HouseRules:
    return HouseRules(teams=game.teams, target=game.target, bidder_goes_out=game.bidder_goes_out)


def deal_from_hand(hand: Hand) -> Deal:
    if hand.points is None:
        return Deal(tuple(hand.calls), hand.trump, None)
    points = dict(hand.points)
    game = points.pop("game", None)
    return Deal(tuple(hand.calls), hand.trump, Tally(points, game, hand.game_values))


def hand_fields(deal: Deal, teams: tuple[str, ...]) -> dict:
    """The columns a Hand stores for a deal (Game stored as decided, even from values)."""
    if deal.tally is None:
        return {"calls": list(deal.calls), "trump": None, "points": None, "game_values": None}
    tally = deal.tally.checked(teams)
    points = {p.value: tally.card_points[p.value] for p in CARD_POINTS}
    points["game"] = tally.game
    return {
        "calls": list(deal.calls),
        "trump": str(deal.trump),
        "points": points,
        "game_values": dict(deal.tally.game_values) if deal.tally.game_values else None,
    }


def stored_fields(hand: Hand) -> dict:
    """The columns ``hand_fields`` fills, as the hand holds them now."""
    return {"calls": hand.calls, "trump": hand.trump, "points": hand.points,
            "game_values": hand.game_values}


class Replays:
    """The last replay of each game this process made, to carry on from.

    A game is replayed from its deals on every read; most reads find the deals they had
    last time, or those and one more. Each game's last replay is kept with the deals,
    house rules and first dealer it was made from, and used only where those are the
    same, or the kept deals begin the new ones (then only the new ones are played on).
    What is kept is checked against what was read, never trusted by a key alone: another
    server, or a game changed behind this one's back, simply gets a full replay.
    """

    def __init__(self, games: int) -> None:
        self._kept = LockedLRU(games)
        self.carried = self.replayed = 0

    def state(self, game_id: int, rules: HouseRules, first_dealer: int,
              deals: tuple[Deal, ...]) -> GameState:
        """The game after ``deals``, as ``replay`` gives it."""
        kept = self._kept.get(game_id)
        state = None
        if kept is not None:
            kept_rules, kept_dealer, kept_deals, kept_state = kept
            played = len(kept_deals)
            if (kept_rules == rules and kept_dealer == first_dealer
                    and played <= len(deals) and deals[:played] == kept_deals):
                state = kept_state if played == len(deals) else carry_on(
                    kept_state, deals[played:])
                self.carried += 1
        if state is None:
            state = replay(rules, first_dealer, deals)
            self.replayed += 1
        if kept is None or state is not kept[3]:
            self.keep(game_id, rules, first_dealer, deals, state)
        return state

    def keep(self, game_id: int, rules: HouseRules, first_dealer: int,
             deals: tuple[Deal, ...], state: GameState) -> None:
        self._kept.put(game_id, (rules, first_dealer, deals, state))


REPLAYS = Replays(games=2048)


def load_tables(session: Session, games: Sequence[Game]) -> list[Table]:
    """Several games at once: one query for all their live hands, one for all their seats."""
    return [table for table, _players in load_seated(session, games)]


def load_seated(
    session: Session, games: Sequence[Game]
) -> list[tuple[Table, dict[int, int]]]:
    """Each game as a Table, with who sits in each seat now (seat -> player id: for the
    next hand, as ``Table.names``); two queries."""
    ids = [game.id for game in games]
    hands: dict[int, list[Hand]] = defaultdict(list)
    seating: dict[int, list[Sitting]] = defaultdict(list)
    if ids:
        for hand in session.exec(
            select(Hand)
            .where(Hand.game_id.in_(ids), Hand.undone_at.is_(None))  # type: ignore[union-attr]
            .order_by(Hand.game_id, Hand.number)
        ):
            hands[hand.game_id].append(hand)
        for game_id, seat, from_hand, player_id, name in session.exec(
            select(GameSeat.game_id, GameSeat.seat, GameSeat.from_hand, GameSeat.player_id,
                   Player.name)
            .join(Player, Player.id == GameSeat.player_id)
            .where(GameSeat.game_id.in_(ids))  # type: ignore[union-attr]
            .order_by(GameSeat.game_id, GameSeat.seat, GameSeat.from_hand)
        ):
            seating[game_id].append(Sitting(seat, from_hand, name, player_id))
    seated = []
    for game in games:
        rules = house_rules(game)
        live = tuple(hands[game.id])
        state = REPLAYS.state(game.id, rules, game.first_dealer,
                              tuple(deal_from_hand(h) for h in live))
        sittings = tuple(seating[game.id])
        now = {seat: sitting_at(sittings, seat, state.next_number) for seat in
               sorted({s.seat for s in sittings})}
        table = Table(game, rules, {seat: s.name for seat, s in now.items()}, live, state,
                      sittings)
        seated.append((table, {seat: s.player_id for seat, s in now.items()}))
    return seated


def load_table(session: Session, game: Game) -> Table:
    return load_tables(session, [game])[0]


def _replay(table: Table, deals: Sequence[Deal]) -> GameState:
    """Replay the game as it would be; RuleViolation (HandRejected) if it breaks a rule."""
    return replay(table.rules, table.game.first_dealer, deals)


def _check_revision(table: Table, revision: int | None) -> None:
    """Refuse a change sent from a page shown before the game's last change."""
    if revision is not None and revision != table.game.revision:
        raise GameChanged()


@dataclass(frozen=True)
class Actor:
    """Who makes a change: a member on one of their devices (None: a command line)."""

    member_id: int | None = None
    device_id: int | None = None
    who: str = ""


def _hand_change(state: GameState, number: int) -> dict[str, int] | None:
    if not 1 <= number <= len(state.deals):
        return None
    deal = state.deals[number - 1]
    return dict(deal.score_change) if deal.score_change is not None else None


def _log(session: Session, table: Table, kind: ChangeKind, number: int, after: GameState,
         by: Actor | None, when, details: dict | None = None) -> None:
    """Keep the change in the game's log, in the transaction that makes it."""
    by = by or Actor()
    session.add(GameChange(
        game_id=table.game.id, at=when, kind=kind, number=number,
        member_id=by.member_id, device_id=by.device_id, who=by.who[:WHO_LENGTH],
        # A forgotten hand put in had no score change before: the one at its number moved on.
        hand_before=None if kind == ChangeKind.INSERTED else _hand_change(table.state, number),
        hand_after=_hand_change(after, number),
        totals_before=dict(table.state.scores), totals_after=dict(after.scores),
        details=details,
    ))


def _commit_change(session: Session, table: Table, when) -> None:
    """Commit with the game's revision checked and bumped in the same transaction.

    The UPDATE of the game row carries ``WHERE revision = <the one read>``: if another
    request changed the game since this one read it, nothing matches, nothing of this
    change is kept, and GameChanged says so.
    """
    table.game.changed_at = when
    session.add(table.game)
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
    session: Session, table: Table, number: int, deal: Deal, revision: int | None = None,
    by: Actor | None = None, entry_key: str | None = None,
) -> Table:
    """Add the next hand. ``number`` is the hand the form was for: a repeat is refused.

    ``entry_key`` names the phone's entry: sent again (its answer was lost), it is
    recognised by whoever looks it up with ``hand_by_entry``, and never recorded twice.
    The game as it stands afterwards is returned, from the replay that checked it: the
    answer is shown from it without reading and replaying the game again.
    """
    if number != table.state.next_number:
        raise AlreadyRecorded(number)
    _check_revision(table, revision)
    after = carry_on(table.state, [deal])  # the game as it stood, and this hand
    hand = Hand(game_id=table.game.id, number=number, entry_key=entry_key or None,
                **hand_fields(deal, table.rules.team_names))
    session.add(hand)
    _log(session, table, ChangeKind.RECORDED, number, after, by, hand.recorded_at)
    _commit_change(session, table, hand.recorded_at)
    _keep_replay(table, table.hands + (hand,), after)
    return table.moved_on(table.hands + (hand,), after)


def _keep_replay(table: Table, hands: tuple[Hand, ...], state: GameState) -> None:
    """The game as a change left it, for the next read to carry on from (as read back
    from the stored hands, which is how the next read will compare it)."""
    REPLAYS.keep(table.game.id, table.rules, table.game.first_dealer,
                 tuple(deal_from_hand(h) for h in hands), state)


def undo_last_hand(
    session: Session, table: Table, number: int, revision: int | None = None,
    by: Actor | None = None,
) -> Hand:
    """Take back the last hand. It is kept, marked undone, and can be brought back."""
    if not table.hands or table.hands[-1].number != number:
        raise NotTheLastHand(number)
    _check_revision(table, revision)
    hand = table.hands[-1]
    hand.undone_at = utcnow()
    session.add(hand)
    after = _replay(table, [deal_from_hand(h) for h in table.hands[:-1]])
    _log(session, table, ChangeKind.UNDONE, number, after, by, hand.undone_at)
    _commit_change(session, table, hand.undone_at)
    return hand


def last_undone_hand(session: Session, table: Table) -> Hand | None:
    """The hand undone last, if it can come back as it was.

    It must be the next hand again, and nothing may have been recorded or corrected
    since it was undone: that could have changed who deals it, and so who bid.
    """
    hand = session.exec(
        select(Hand)
        .where(Hand.game_id == table.game.id, Hand.undone_at.is_not(None))  # type: ignore[union-attr]
        .order_by(Hand.undone_at.desc())  # type: ignore[union-attr]
    ).first()
    if hand is None or hand.number != table.state.next_number:
        return None
    last_written = max((h.updated_at or h.recorded_at for h in table.hands), default=None)
    if last_written is not None and last_written > hand.undone_at:
        return None
    return hand


def bring_back_hand(
    session: Session, table: Table, hand_id: int, revision: int | None = None,
    by: Actor | None = None,
) -> Hand:
    """Bring back the hand undone last (an undo of the undo; the change log's kind keeps
    its stored word, "restored"). A backup is restored; a hand is brought back."""
    live = next((h for h in table.hands if h.id == hand_id), None)
    if live is not None:
        raise AlreadyBack(live.number)
    hand = last_undone_hand(session, table)
    if hand is None or hand.id != hand_id:
        raise GameChanged()
    _check_revision(table, revision)
    after = carry_on(table.state, [deal_from_hand(hand)])
    hand.undone_at = None
    session.add(hand)
    when = utcnow()
    _log(session, table, ChangeKind.RESTORED, hand.number, after, by, when)
    _commit_change(session, table, when)
    return hand



def who_recorded(session: Session, game_id: int, number: int) -> str:
    """Who last recorded (or brought back) hand ``number`` as it stands, "" if unknown."""
    change = session.exec(
        select(GameChange)
        .where(GameChange.game_id == game_id, GameChange.number == number,
               GameChange.kind.in_((ChangeKind.RECORDED, ChangeKind.RESTORED)))  # type: ignore[attr-defined]
        .order_by(GameChange.id.desc())
    ).first()
    return change.who if change else ""


def recent_changes(session: Session, game_id: int, limit: int | None = None
                   ) -> list[GameChange]:
    """The game's change log, newest first."""
    query = select(GameChange).where(GameChange.game_id == game_id).order_by(
        GameChange.id.desc())
    return list(session.exec(query.limit(limit) if limit else query))
