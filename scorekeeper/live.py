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
from typing import Mapping

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

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
        row = LiveDraft(game_id=table.game.id, args=draft)
    row.args, row.seq, row.updated_at = draft, row.seq + 1, utcnow()
    session.add(row)
    try:
        session.commit()
    except IntegrityError:  # another scorer's step landed first: theirs is shown
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


def version(game: Game, draft_seq: int | None) -> str:
    """What a page shows, in a word: the game's revision (and, watching, the draft's)."""
    return str(game.revision) if draft_seq is None else f"{game.revision}.{draft_seq}"


def current_version(session: Session, game: Game, with_draft: bool) -> str:
    """The version a page would show now; two primary-key reads, no replay."""
    if not with_draft:
        return version(game, None)
    row = session.get(LiveDraft, game.id)
    return version(game, row.seq if row else 0)
