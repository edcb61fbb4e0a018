"""A game as the pages read it: its rules, seats and stored hands, replayed.

``load_replay`` (and ``load_replays`` for several games, in two queries) reads a game's
live hands and seats and replays them through the rules engine; ``REPLAYS`` keeps each
game's last replay in this process, so the next read carries on from it. Changing the
hands is the table's business (``scorekeeper.table.recording``, ``.corrections``).
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Sequence

from sqlmodel import Session, select

from scorekeeper.rules import Deal, GameState, HouseRules, Tally, carry_on, replay as replay_deals
from scorekeeper.rules.scoring import CARD_POINTS
from scorekeeper.store.kept import GAMES_IN_PLAY, LockedLRU
from scorekeeper.store.models import ChangeKind, Game, GameChange, GameSeat, Hand, Player
from scorekeeper.store.sittings import (
    Sitting, Stretch, names_at, sitting_at, starting_seating, stretches, team_shares,
)


@dataclass(frozen=True)
class Replay:
    """A game as the pages need it: its rules, seats, stored hands and replayed state.

    ``names`` are the players at the table now (for the next hand: a substitute from
    the hand they take the seat at); ``seating`` says who sat where at every hand
    (empty: the six of ``names`` sat all game, as in a replay made without it).
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
        """Each player's stretch of the game's live hands (``sittings.stretches``)."""
        return stretches(self.sittings(), len(self.state.deals))

    def team_shares(self) -> dict[str, dict[int, float]]:
        """For a finished game's rating: each team's players (by id) with the share of
        the game's hands each played, 1 for a player who sat all game (a seat's shares
        add up to 1)."""
        return team_shares(self.sittings(), self.rules.team_seats, len(self.state.deals))

    def moved_on(self, hands: tuple[Hand, ...], state: GameState) -> "Replay":
        """The game after a change to its hands: its players those of the next hand."""
        names = names_at(self.seating, state.next_number) if self.seating else self.names
        return Replay(self.game, self.rules, names, hands, state, self.seating)


def house_rules(game: Game) -> HouseRules:
    return HouseRules(teams=game.teams, target=game.target, **game.house_rules)


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
            state = replay_deals(rules, first_dealer, deals)
            self.replayed += 1
        if kept is None or state is not kept[3]:
            self.keep(game_id, rules, first_dealer, deals, state)
        return state

    def keep(self, game_id: int, rules: HouseRules, first_dealer: int,
             deals: tuple[Deal, ...], state: GameState) -> None:
        self._kept.put(game_id, (rules, first_dealer, deals, state))


REPLAYS = Replays(games=GAMES_IN_PLAY)


def load_replays(session: Session, games: Sequence[Game]) -> list[Replay]:
    """Several games at once: one query for all their live hands, one for all their seats."""
    return [replay for replay, _players in load_seated(session, games)]


def load_seated(
    session: Session, games: Sequence[Game]
) -> list[tuple[Replay, dict[int, int]]]:
    """Each game as a Replay, with who sits in each seat now (seat -> player id: for the
    next hand, as ``Replay.names``); two queries, more only where a game changed
    while they ran.

    Each query sees the database as it is when it runs, not as it was when the game's
    row was read: a change committed in between (another phone's hand) would give the
    hands of one revision under the revision before it. The seats' query reads each
    game's revision too; a game whose revision moved since its row was read is read
    again, with its hands and seats (a change to a game bumps its revision in the
    change's own transaction, so a revision that did not move means no change came in
    between)."""
    for again in range(READS_AT_MOST):
        hands, seating, revisions = _hands_and_seats(session, [game.id for game in games],
                                                     again=again > 0)
        moved = [game for game in games
                 if revisions.get(game.id, game.revision) != game.revision]
        if not moved or again == READS_AT_MOST - 1:
            # (After the last read a game stays at the revision its row had: never a
            # newer revision than its hands, which a poll would take for the game as it
            # stands, nor a change's check passed on hands read before it.)
            break
        for game in moved:
            session.refresh(game)
    seated = []
    for game in games:
        rules = house_rules(game)
        live = tuple(hands[game.id])
        state = REPLAYS.state(game.id, rules, game.first_dealer,
                              tuple(deal_from_hand(h) for h in live))
        sittings = tuple(seating[game.id])
        now = {seat: sitting_at(sittings, seat, state.next_number) for seat in
               sorted({s.seat for s in sittings})}
        replay = Replay(game, rules, {seat: s.name for seat, s in now.items()}, live, state,
                        sittings)
        seated.append((replay, {seat: s.player_id for seat, s in now.items()}))
    return seated


# How many times the games are read while one keeps changing under the read (a table
# records a hand every minute or so: a second read is rare, a third rarer still).
READS_AT_MOST = 3


def _hands_and_seats(session: Session, ids: list[int], again: bool = False) -> tuple[
        dict[int, list[Hand]], dict[int, list[Sitting]], dict[int, int]]:
    """The games' live hands, their seats, and their revisions as the seats' query
    found them (read last): by game. ``again``: the hands read before are read afresh
    too (the session would give them back as it first read them: a hand corrected
    meanwhile as it was)."""
    hands: dict[int, list[Hand]] = defaultdict(list)
    seating: dict[int, list[Sitting]] = defaultdict(list)
    revisions: dict[int, int] = {}
    if not ids:
        return hands, seating, revisions
    for hand in session.exec(
        select(Hand)
        .where(Hand.game_id.in_(ids), Hand.undone_at.is_(None))  # type: ignore[union-attr]
        .order_by(Hand.game_id, Hand.number)
        .execution_options(populate_existing=again)
    ):
        hands[hand.game_id].append(hand)
    for game_id, revision, seat, from_hand, player_id, name in session.exec(
        select(Game.id, Game.revision, GameSeat.seat, GameSeat.from_hand,
               GameSeat.player_id, Player.name)
        .outerjoin(GameSeat, GameSeat.game_id == Game.id)
        .outerjoin(Player, Player.id == GameSeat.player_id)
        .where(Game.id.in_(ids))  # type: ignore[union-attr]
        .order_by(Game.id, GameSeat.seat, GameSeat.from_hand)
    ):
        revisions[game_id] = revision
        if seat is not None:
            seating[game_id].append(Sitting(seat, from_hand, name, player_id))
    return hands, seating, revisions


def load_replay(session: Session, game: Game) -> Replay:
    return load_replays(session, [game])[0]



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
