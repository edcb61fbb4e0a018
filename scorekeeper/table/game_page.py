"""The game page's model: what the page shows, read once, before a word is chosen.

``game_view`` reads it (the hand on the entry and where its draft comes from, how out
of date the request's entry is, whether the game is past, the evening, the hand that
can come back); ``views.pages`` words it and renders it. Besides, what the page offers
from the game as it stands: the next game's form filled (same seats, or new partners),
how long the game and its evening took, what the phone needs to play on offline.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from enum import Enum
from typing import Mapping, Sequence

from sqlmodel import Session

from scorekeeper.rules import SUITS, Suit
from scorekeeper.rules.cards import left_bauer, trump_order
from scorekeeper.rules.house import form_values
from scorekeeper.store.models import Evening, Hand, aware
from scorekeeper.store.replay import Replay
from scorekeeper.table.draft import HandDraft
from scorekeeper.table.entry import NEXT_HAND, Entry, Mode, entry_for
from scorekeeper.table.evenings import is_past_game, new_partners
from scorekeeper.table.live import shared_draft
from scorekeeper.table.recording import last_undone_hand


@dataclass(frozen=True)
class TrumpFacts:
    """What the entry shows once a suit is trump: its order and its Left Bauer."""

    suit: Suit
    order: tuple[str, ...]
    left_bauer: str


TRUMP_FACTS = tuple(TrumpFacts(suit, trump_order(suit), left_bauer(suit)) for suit in SUITS)



def next_game_fields(replay: Replay) -> dict[str, str | int]:
    """The new-game form filled for the next game: same seats, rules and evening, and the
    deal going on to the left of the last dealer."""
    game = replay.game
    fields: dict[str, str | int] = {f"seat_{seat}": name for seat, name in replay.names.items()}
    fields.update(teams=game.teams, target=game.target, first_dealer=replay.state.next_dealer,
                  evening=game.evening_id or "new")
    fields.update(form_values(replay.rules.house_values))
    fields.update(table_arg(game.table_number))  # the next game at the same table
    return fields


def game_time(replay: Replay) -> timedelta | None:
    """How long the game has taken: from its start to its last hand (None: no hand yet)."""
    if not replay.hands:
        return None
    last = max(replay.hands, key=lambda hand: hand.number)
    return aware(last.recorded_at) - aware(replay.game.created_at)


def evening_time(replays: Sequence[Replay]) -> timedelta | None:
    """How long the evening has taken: from its first game's start to the last hand of
    any of its games (None: no hand yet)."""
    ends = [aware(replay.game.created_at) + taken for replay in replays
            if (taken := game_time(replay)) is not None]
    if not ends:
        return None
    return max(ends) - min(aware(replay.game.created_at) for replay in replays)


@dataclass(frozen=True)
class NewPartners:
    """The next game with new partners: the new-game form filled, and who sits with whom."""

    fields: dict[str, str | int]
    teams: list[tuple[str, list[str]]]  # each team's letter and its players, seat by seat
    # The evening's next round, where more are here than this table seats: what comes
    # next for them (sit-outs in turn, tables mixed), before this table's next game.
    next_round: str | None = None


def new_partners_fields(replay: Replay, replays: Sequence[Replay]) -> NewPartners:
    """The new-game form filled for "Next game, new partners": ``replay``'s players, rules and
    evening, partners rotated (``replays``: the evening's games so far); the next dealer
    (left of the last one) stays the same player. Where each played for themselves
    there are no partners to rotate: the same seats, and no teams to show."""
    fields = next_game_fields(replay)
    if replay.rules.teams.cutthroat:
        return NewPartners(fields, [])
    chairs = new_partners(replay, replays)
    fields.update({f"seat_{seat}": name for seat, name in enumerate(chairs, start=1)})
    fields["first_dealer"] = chairs.index(replay.names[replay.state.next_dealer]) + 1
    teams = [(team, [chairs[seat - 1] for seat in seats])
             for team, seats in replay.rules.team_seats.items()]
    return NewPartners(fields, teams)



def in_play(replay: Replay, past: bool) -> bool:
    """Whether there is still something to play for: the game not won, abandoned or past."""
    return not (past or replay.state.finished or replay.game.abandoned_at is not None)



def offline_state(replay: Replay) -> dict:
    """What the phone needs to play on from here with no connection (static/offline.js):
    the game as the server has it now, its rules and seats. The phone's own arithmetic
    starts from this and never replaces it: the server's next answer does."""
    state = replay.state
    verdict = state.verdict
    return {
        "game": replay.game.id, "revision": replay.game.revision, "number": state.next_number,
        "rules": {"teams": str(replay.rules.teams), "target": replay.rules.target,
                  "house": replay.rules.house_values},
        "names": replay.names, "scores": state.scores, "nextDealer": state.next_dealer,
        # As the page says it (its target is the rules'): a throw-in on the phone keeps it.
        "verdict": {"kind": str(verdict.kind), "winner": verdict.winner,
                    "teams": list(verdict.teams), "score": verdict.score},
    }



@dataclass(frozen=True)
class PageKey:
    """What a game page (or part) showed, for page_cache to keep it under: the very
    values its render used. ``draft_seq`` None: a page holding this phone's own entry,
    which no other phone may get."""

    game_id: int
    revision: int
    draft_seq: int | None
    past: bool


@dataclass(frozen=True)
class Shown:
    """Where the entry's draft comes from and what the page's poll follows."""

    source: object  # the draft's fields (query, form or the hand in progress)
    followed: int | None = None  # the draft's number the page's poll follows
    kept_seq: int | None = None  # the one page_cache keeps the page under
    other_phone: HandDraft | None = None  # another phone's entry, told of



def names_for(replay: Replay, entry: Entry) -> dict[int, str]:
    """Who sits where for the hand the entry is about: the table now for the next hand,
    the players of that hand for a correction, and of the hand before it for a forgotten
    hand (a substitute who came in there moves one hand later)."""
    if entry.inserting:
        return replay.names_at(max(entry.number - 1, 1))
    return replay.names_at(entry.number)



def table_arg(table: int) -> dict:
    """A table's number in an address, where it is not the first (the only one, mostly)."""
    return {} if table == 1 else {"table": table}


class Stale(Enum):
    """How out of date the entry a request carries is."""

    FRESH = "fresh"
    GAME = "game"  # entered on an older revision of the game: kept, the scores are now's
    STEP = "step"  # a step of a hand recorded since (Back, or another phone): dropped


def staleness(replay: Replay, mode: Mode, source: Mapping) -> Stale:
    """How out of date the entry ``source`` is against the game as it stands."""
    shown = source.get("number")
    if shown is not None and shown != str(mode.number or replay.state.next_number):
        return Stale.STEP  # its state must not be offered again as the next hand's
    if source.get("revision") not in (None, str(replay.game.revision)):
        return Stale.GAME  # still the hand to enter: kept, with the scores as they are now
    return Stale.FRESH


def shown_draft(session: Session, replay: Replay, mode: Mode, source: Mapping,
                watching: bool, device_id: int | None) -> Shown:
    """The draft the entry holds. A watcher (no right to score) is shown the hand a
    scorer is entering, whatever the request's own address says. A scorer not entering
    one here gets back the hand this phone was entering (after a look at the rules, say),
    or is told of another phone's."""
    if watching:
        shared = shared_draft(session, replay)
        return Shown(shared.args, shared.seq, shared.seq)
    if not mode.next_hand or "number" in source:
        return Shown(source)
    shared = shared_draft(session, replay)
    other_phone = None
    if shared.is_from(device_id):
        source = shared.args  # this phone's own entry, back as it left it
    elif shared.args:
        other_phone = entry_for(replay, NEXT_HAND, shared.args).draft
    kept_seq = None if shared.is_by(device_id) else shared.seq
    return Shown(source, shared.followed_by(device_id), kept_seq, other_phone)


@dataclass(frozen=True)
class GameView:
    """The game page's model, read once for whichever answer is sent."""

    replay: Replay
    mode: Mode
    entry: Entry  # the hand on the entry panel, its draft read from ``shown``
    shown: Shown
    stale: Stale
    past: bool  # a game of an evening that is over: kept as it was
    watching: bool  # no right to score: another phone's entry is shown
    evening: Evening | None
    restorable: Hand | None  # the hand undone last, if it can come back

    @property
    def kept_as_is(self) -> bool:
        """A past game, or an abandoned one: it takes no change but being taken back."""
        return self.past or self.replay.game.abandoned_at is not None

    @property
    def key(self) -> PageKey:
        return PageKey(self.replay.game.id, self.replay.game.revision, self.shown.kept_seq,
                       self.past)


def game_view(session: Session, replay: Replay, mode: Mode, source: Mapping, *,
              watching: bool, device_id: int | None) -> GameView:
    """The game page for ``replay`` in ``mode``, its entry holding the draft from
    ``source`` (a form, an address, or a hand put back in the entry)."""
    shown = shown_draft(session, replay, mode, source, watching, device_id)
    stale = staleness(replay, mode, shown.source)
    entry = entry_for(replay, mode, {} if stale is Stale.STEP else shown.source)
    evening = session.get(Evening, replay.game.evening_id) if replay.game.evening_id else None
    return GameView(replay, mode, entry, shown, stale, is_past_game(session, replay),
                    watching, evening, last_undone_hand(session, replay))
