"""Live at the table: every phone on a game sees each change within about 2 seconds.

Phones poll (htmx ``every 2s``) with the version of the game they show. An unchanged
game answers ``204 No Content`` after two small indexed reads (no replay, no page), so a
poll costs a few hundred bytes of headers; a changed one answers with the new page part.
Polling rather than server-sent events: it needs no long-lived connection per phone (a
few gunicorn workers serve many tables), passes any proxy, and keeps no state in a
process, so any app server can answer any poll.

A watcher's version also counts the hand in progress: each step a scorer takes is
noted (``note_draft``) so watchers see the bids, trump and points as they are chosen.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Mapping

from sqlalchemy import bindparam, func, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from scorekeeper.clubs import MAX_ID
from scorekeeper.ledger import Table
from scorekeeper.models import Game, LiveDraft, utcnow

POLL_SECONDS = 2
# The address keys a hand in progress is made of (see draft.py).
DRAFT_KEY = re.compile(r"^(number|revision|calls|bidder|trump|high|low|right|left|joker|game"
                       r"|value_[A-C])$")


def draft_args(args: Mapping[str, str]) -> dict[str, str]:
    return {key: value[:200] for key, value in args.items() if DRAFT_KEY.match(key)}


def note_draft(session: Session, table: Table, args: Mapping[str, str]) -> None:
    """Keep the hand a scorer's page is entering, if it is this game's next hand."""
    draft = draft_args(args)
    if table.state.finished or draft.get("number") != str(table.state.next_number):
        return
    row = session.get(LiveDraft, table.game.id)
    if row is not None and row.args == draft:
        return
    if row is None:
        session.add(LiveDraft(game_id=table.game.id, args=draft, seq=1))
    else:
        # seq + 1 in the database, not in Python: two scorers' steps at once get two
        # numbers, so no phone (nor a kept page) takes one draft for the other.
        session.execute(
            update(LiveDraft).where(LiveDraft.game_id == table.game.id)
            .values(args=draft, seq=LiveDraft.seq + 1, updated_at=utcnow())
            .execution_options(synchronize_session=False))
        session.expire(row)  # read again when next asked for, with the database's seq
    try:
        session.commit()
    except IntegrityError:  # another scorer's first step landed first: theirs is shown
        session.rollback()


def shared_draft(session: Session, table: Table) -> tuple[dict[str, str], int]:
    """(the hand in progress as a page's address holds it, its sequence number)."""
    row = session.get(LiveDraft, table.game.id)
    if row is None:
        return {}, 0
    current = (row.args.get("number") == str(table.state.next_number)
               and row.args.get("revision") in (None, str(table.game.revision))
               and not table.state.finished)
    return (dict(row.args) if current else {}), row.seq


def version(revision: int, draft_seq: int | None) -> str:
    """What a page shows, in a word: the game's revision (and, watching, the draft's)."""
    return str(revision) if draft_seq is None else f"{revision}.{draft_seq}"


@dataclass(frozen=True)
class GameHead:
    """What a phone's page of a game depends on, read without the hands: the game's
    revision (bumped by every change to it, its hands and its log) and the number of the
    hand in progress's last step."""

    id: int
    created_at: datetime
    revision: int
    evening_id: int | None
    draft_seq: int

    def version(self, with_draft: bool) -> str:
        return version(self.revision, self.draft_seq if with_draft else None)


# Built once: a statement made anew costs more than running it (every phone asks it
# every 2 seconds). The club's id is in the WHERE: another club's game is no game.
_HEAD = (
    select(Game.created_at, Game.revision, Game.evening_id, func.coalesce(LiveDraft.seq, 0))
    .outerjoin(LiveDraft, LiveDraft.game_id == Game.id)
    .where(Game.id == bindparam("game_id"), Game.club_id == bindparam("club_id"))
)


def game_head(connection: Connection, club_id: int, game_id: int) -> GameHead | None:
    """The club's game's head (one indexed read, no ORM objects), or None."""
    if not 0 < game_id <= MAX_ID:
        return None
    row = connection.execute(_HEAD, {"game_id": game_id, "club_id": club_id}).first()
    return GameHead(game_id, *row) if row is not None else None
