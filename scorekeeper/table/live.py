"""Live at the table: every phone on a game sees each change within a second.

Phones poll with the version of the game they show, and the server holds the poll while
the game is as the page shows it (``waiting.py``). An unchanged game answers ``204 No
Content`` after two small indexed reads (no replay, no page), so a poll costs a few
hundred bytes of headers; a changed one answers with the new page part. A poll held
rather than server-sent events: the same endpoint and its kept answers serve both, it
passes any proxy as a plain request, and it keeps no state in a process but the polls
it holds, so any app server can answer any poll.

A watcher's version also counts the hand in progress: each step a scorer takes is
noted (``note_draft``, in the background: no tap waits for it) so watchers see the bids,
trump and points as they are chosen. A scorer's page follows another phone's entry too,
never its own: the phone entering a hand gets it back when it comes back to the game
(a hand it undid too: the undo makes it that phone's entry, ``enter_again``).

Every phone follows the table, too: the same read says whether the evening has a newer
game in play (``GameHead.moved_on_to``), so a page left on a finished game goes to the
next one once a scorer starts it (``views.games``).
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from datetime import datetime
from typing import Mapping

from sqlalchemy import (
    Integer, Select, and_, any_, bindparam, false, func, literal, not_, select, update,
)
from sqlalchemy.dialects import postgresql
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import aliased
from sqlmodel import Session

from scorekeeper.store.db import dialect_insert
from scorekeeper.store.models import MAX_ID, ChangeKind, Evening, Game, LiveDraft, aware, utcnow
from scorekeeper.store.replay import Replay
from scorekeeper.table.draft import FIELDS

POLL_SECONDS = 2  # a page's poll is asked again this often while one is not held
# The form fields a hand in progress is made of (see draft.py).
DRAFT_KEYS = frozenset(("number", "revision", *FIELDS))


def draft_args(args: Mapping[str, str]) -> dict[str, str]:
    return {key: value[:200] for key, value in args.items() if key in DRAFT_KEYS}


@dataclass(frozen=True)
class SharedDraft:
    """The hand in progress as a scorer's form holds it, and who is entering it."""

    args: dict[str, str]
    seq: int  # the number of its last step (0: none yet)
    device_id: int | None  # the phone entering it

    def is_from(self, device_id: int | None) -> bool:
        """Whether this is the entry of ``device_id``'s own, still for the next hand."""
        return bool(self.args) and self.is_by(device_id)

    def is_by(self, device_id: int | None) -> bool:
        return device_id is not None and self.device_id == device_id

    def followed_by(self, device_id: int | None) -> int | None:
        """The draft's number a scorer's page on ``device_id`` follows."""
        return followed_by_scorer(self.seq, self.device_id, device_id)


def followed_by_scorer(seq: int, drafting: int | None, device_id: int | None) -> int | None:
    """A scorer's page follows another phone's steps, never its own (None: the game only)."""
    return seq if seq and (device_id is None or drafting != device_id) else None


MAX_STEP = 2**62  # a phone's step numbers are its clock's milliseconds, rising


def note_draft(session: Session, replay: Replay, args: Mapping[str, str],
               device_id: int | None = None, step: int = 0) -> None:
    """Keep the hand a scorer's page is entering, if it is this game's next hand.

    ``step`` is the phone's number for this step (0: not said). A step of the same phone
    with a number no higher than the one kept came late (two quick taps reach the server
    at once) and changes nothing."""
    draft = draft_args(args)
    if replay.state.finished or draft.get("number") != str(replay.state.next_number):
        return
    step = step if 0 < step < MAX_STEP else 0
    row = session.get(LiveDraft, replay.game.id)
    if row is not None and row.args == draft and row.device_id == device_id:
        return
    if row is None and _first_step(session, replay.game.id, draft, device_id, step):
        return
    _next_step(session, replay.game.id, draft, device_id, step)
    if row is not None:
        session.expire(row)  # read again when next asked for, with the database's seq


def _first_step(session: Session, game_id: int, draft: dict[str, str],
                device_id: int | None, step: int) -> bool:
    """Keep the game's first hand in progress; False if another step's landed first."""
    session.add(LiveDraft(game_id=game_id, args=draft, seq=1, device_id=device_id, step=step))
    try:
        session.commit()
        return True
    except IntegrityError:
        session.rollback()
        return False


def _next_step(session: Session, game_id: int, draft: dict[str, str],
               device_id: int | None, step: int) -> None:
    # seq + 1 in the database, not in Python: two scorers' steps at once get two
    # numbers, so no phone (nor a kept page) takes one draft for the other. The same
    # phone's later step kept already is checked there too, in the same statement.
    came_late = (and_(LiveDraft.device_id == device_id, LiveDraft.step >= step)
                 if step and device_id is not None else false())
    session.execute(
        update(LiveDraft).where(LiveDraft.game_id == game_id, not_(came_late))
        .values(args=draft, seq=LiveDraft.seq + 1, updated_at=utcnow(),
                device_id=device_id, step=step)
        .execution_options(synchronize_session=False))
    session.commit()


def enter_again(session: Session, game_id: int, args: Mapping[str, str],
                device_id: int) -> None:
    """Make ``args`` the entry ``device_id`` is entering, in the caller's transaction
    (a hand undone, back in the entry of the phone that undid it, with the undo): the
    draft's next step, whoever entered the last."""
    draft, now = draft_args(args), utcnow()
    session.execute(
        dialect_insert(session.get_bind().dialect.name)(LiveDraft)
        .values(game_id=game_id, args=draft, seq=1, device_id=device_id, step=0,
                updated_at=now)
        .on_conflict_do_update(index_elements=["game_id"], set_={
            "args": draft, "seq": LiveDraft.seq + 1, "device_id": device_id, "step": 0,
            "updated_at": now}))


def shared_draft(session: Session, replay: Replay) -> SharedDraft:
    """The hand in progress, if it is still this game's next hand, entered on the game
    as it stands (not before another change: an undo, say). The phone entering it keeps
    its own copy too, and restores that itself (app.js)."""
    row = session.get(LiveDraft, replay.game.id)
    if row is None:
        return SharedDraft({}, 0, None)
    current = (row.args.get("number") == str(replay.state.next_number)
               and row.args.get("revision") in (None, str(replay.game.revision))
               and not replay.state.finished)
    return SharedDraft(dict(row.args) if current else {}, row.seq, row.device_id)


def version(revision: int, draft_seq: int | None) -> str:
    """What a page shows, in a word: the game's revision (and the draft it follows)."""
    return str(revision) if draft_seq is None else f"{revision}.{draft_seq}"


@dataclass(frozen=True)
class GameHead:
    """What a phone's page of a game depends on, read without the hands: the game's
    revision (bumped by every change to it, its hands and its log) and the number of the
    hand in progress's last step; and where the table has gone since: its evening's game
    in play, if newer than this one, and when that game began."""

    id: int
    created_at: datetime
    revision: int
    evening_id: int | None
    draft_seq: int
    draft_device: int | None
    changed_at: datetime | None = None
    newer_game: int | None = None
    newer_since: datetime | None = None
    table_number: int = 1

    def moved_on_to(self) -> int | None:
        """The evening's game in play, if the table has moved on to it from this game and
        left this one as it was. A game changed after the table left it is being put
        right: its phones stay with it."""
        if self.newer_game is None or self.newer_since is None:
            return None
        if self.changed_at is not None and aware(self.changed_at) > aware(self.newer_since):
            return None
        return self.newer_game

    def version(self, with_draft: bool) -> str:
        return version(self.revision, self.draft_seq if with_draft else None)

    @property
    def mark(self) -> tuple:
        """What moves when anything a page depends on does, in whole numbers: the head
        as the watch compares it, four times a second (``game_marks``). The times need
        no place here: the game's changes move its revision, and a newer game's start
        is that game's own."""
        return (self.revision, self.evening_id, self.draft_seq, self.draft_device,
                self.newer_game, self.table_number)

    def followed_draft(self, watching: bool, device_id: int | None) -> int | None:
        """The draft's number a page follows: a watcher's, every step; a scorer's, only
        another phone's (None: the page follows the game alone)."""
        if watching:
            return self.draft_seq
        return followed_by_scorer(self.draft_seq, self.draft_device, device_id)


_later = aliased(Game)
_newer = aliased(Game)
# The newest game of the same evening at the same table not abandoned (the table
# board's game), if it is newer than this one: a few rows of one evening, by its index.
_NEWER = (select(func.max(_later.id))
          .where(_later.evening_id == Game.evening_id, _later.club_id == Game.club_id,
                 _later.table_number == Game.table_number,
                 _later.abandoned_at.is_(None), _later.id > Game.id)
          .correlate(Game).scalar_subquery())
# Built once: a statement made anew costs more than running it (every phone asks it,
# and each process's watch four times a second). The club's id is in the WHERE: another
# club's game is no game.
_HEADS = (
    select(Game.id, Game.club_id, Game.created_at, Game.revision, Game.evening_id,
           func.coalesce(LiveDraft.seq, 0), LiveDraft.device_id, Game.changed_at, _newer.id,
           _newer.created_at, Game.table_number)
    .outerjoin(LiveDraft, LiveDraft.game_id == Game.id)
    .outerjoin(_newer, _newer.id == _NEWER)
)
_HEAD = _HEADS.where(Game.id == bindparam("game_id"), Game.club_id == bindparam("club_id"))
# Many games' marks at once (the heads' whole numbers alone): each process's watch over
# the games its polls wait on. Of the newer game, its number alone, as the index gives
# it: its row is not read.
_MARKS = (
    select(Game.id, Game.club_id, Game.revision, Game.evening_id,
           func.coalesce(LiveDraft.seq, 0), LiveDraft.device_id, _NEWER, Game.table_number)
    .outerjoin(LiveDraft, LiveDraft.game_id == Game.id)
)


def _of_many(statement: Select) -> dict[str, Select]:
    """``statement`` for many games at once, by dialect. On PostgreSQL the games' ids go
    as one array: the statement's text is the same for any number of games, where a list
    of hundreds of placeholders was a new text each time, read through by the driver and
    planned by the server four times a second."""
    return {
        "postgresql": statement.where(
            Game.id == any_(bindparam("game_ids", type_=postgresql.ARRAY(Integer)))),
        "sqlite": statement.where(Game.id.in_(bindparam("game_ids", expanding=True))),
    }


_MANY_MARKS = _of_many(_MARKS)
# The whole heads of the games whose marks moved, in one read: the polls woken take them.
_MANY_HEADS = _of_many(_HEADS)


def game_head(connection: Connection, club_id: int, game_id: int) -> GameHead | None:
    """The club's game's head (one indexed read, no ORM objects), or None."""
    if not 0 < game_id <= MAX_ID:
        return None
    row = connection.execute(_HEAD, {"game_id": game_id, "club_id": club_id}).first()
    return GameHead(game_id, *row[2:]) if row is not None else None


def game_heads(connection: Connection, game_ids: list[int]) -> dict[tuple[int, int], GameHead]:
    """The heads of many games in one read, by (club, game): those the watch saw move,
    for the polls it wakes (none of which reads its own again)."""
    if not game_ids:
        return {}
    rows = connection.execute(_MANY_HEADS[connection.dialect.name], {"game_ids": game_ids})
    return {(row[1], row[0]): GameHead(row[0], *row[2:]) for row in rows}


def game_marks(connection: Connection, game_ids: list[int]) -> dict[tuple[int, int], tuple]:
    """The marks (``GameHead.mark``) of many games in one read, by (club, game): whole
    numbers as the database gives them, with no time to convert nor head to build."""
    if not game_ids:
        return {}
    rows = connection.execute(_MANY_MARKS[connection.dialect.name], {"game_ids": game_ids})
    return {(row[1], row[0]): tuple(row[2:]) for row in rows}


@dataclass(frozen=True)
class EveningHead:
    """What the table board of an evening's table depends on, read without the hands:
    the table's current game (its newest not abandoned), that game's hand in progress,
    and every game's revision at every table (a correction to an earlier game changes
    the evening's tally; a hand at another table, the board's line for it). The head of
    every table at once (the evening board) has the evening's newest game, and no hand
    in progress: that board shows none."""

    evening_id: int
    game_id: int | None
    draft_seq: int
    revisions: int
    abandoned: int

    @property
    def version(self) -> str:
        return f"{self.game_id or 0}.{self.revisions}.{self.abandoned}.{self.draft_seq}"


@dataclass(frozen=True)
class TonightHead:
    """What a screen link's board depends on: its club, which evening is tonight's there
    (None: none is), and that evening's head at the board's table, or at every table."""

    club_id: int
    evening: EveningHead | None

    @property
    def version(self) -> str:
        """The evening's version, under its id: a new evening tonight (or none any more)
        moves the board as a hand does."""
        return tonight_version(self.evening)


def tonight_version(head: EveningHead | None) -> str:
    """The version a screen's board shows of tonight's evening at ``head`` (None: none)."""
    return f"{head.evening_id}-{head.version}" if head else "none"


_EVENING_GAMES = (Game.evening_id == bindparam("evening_id"),
                  Game.club_id == bindparam("club_id"))


def _head_statement(*at_table) -> Select:
    """The evening's head in one statement: at one table (``at_table``: its condition),
    or, with none, at every table."""
    current = (select(func.max(Game.id)).where(*_EVENING_GAMES, Game.abandoned_at.is_(None),
                                               *at_table).scalar_subquery())
    draft = (func.coalesce(select(LiveDraft.seq).where(LiveDraft.game_id == current)
                           .scalar_subquery(), 0) if at_table else literal(0))
    return select(
        select(Evening.id).where(Evening.id == bindparam("evening_id"),
                                 Evening.club_id == bindparam("club_id")).scalar_subquery(),
        current, draft,
        select(func.coalesce(func.sum(Game.revision), 0)).where(*_EVENING_GAMES)
        .scalar_subquery(),
        select(func.count(Game.abandoned_at)).where(*_EVENING_GAMES).scalar_subquery(),
    )


# Built once: the boards ask them, and each process's watch four times a second.
_EVENING_HEAD = _head_statement(Game.table_number == bindparam("table"))
_TABLES_HEAD = _head_statement()


def evening_head(connection: Connection, club_id: int, evening_id: int,
                 table: int | None = 1) -> EveningHead | None:
    """The club's evening's head at one of its tables, or at every table (``table``
    None), in one indexed read with no ORM objects; None if the club has no such
    evening."""
    if not 0 < evening_id <= MAX_ID:
        return None
    found, game_id, draft_seq, revisions, abandoned = connection.execute(
        _TABLES_HEAD if table is None else _EVENING_HEAD,
        {"evening_id": evening_id, "club_id": club_id, "table": table}).one()
    if found is None:
        return None
    return EveningHead(evening_id, game_id, draft_seq, revisions, abandoned)


class PollView(StrEnum):
    """What page a poll comes from: its ``view=`` in the poll's address."""

    GAME = "game"  # a game's page, for the next hand
    CORRECTION = "correction"  # a game's page correcting a hand: it follows the game only
    BOARD = "board"  # the scoreboard: a watcher's page, whoever holds it


@dataclass(frozen=True)
class Poll:
    """A phone's poll as its page sends it: the page's view (``PollView``), the version
    it shows, and whose page it is (``watching``: it may not score; ``device_id``: the
    phone's). Says what the poll answers; the view renders it."""

    view: PollView
    shown: str
    watching: bool
    device_id: int | None

    @classmethod
    def read(cls, args: Mapping[str, str], scorer: bool, device_id: int | None) -> Poll:
        asked = args.get("view", "")
        view = PollView(asked) if asked in tuple(PollView) else PollView.GAME
        return cls(view, args.get("v", ""), view == PollView.BOARD or not scorer, device_id)

    def unchanged(self, head: GameHead) -> bool:
        """Whether the game is as the page shows it: "revision.draft" where the page
        follows the hand in progress too (a watcher's, the scoreboard, a scorer's while
        another phone enters one); "revision" where it follows the game only (a
        correction always)."""
        followed = (None if self.view == PollView.CORRECTION
                    else head.followed_draft(self.watching, self.device_id))
        return self.shown == version(head.revision, followed)

    def same_game(self, revision: int) -> bool:
        """Whether the page shows the game's revision (only a hand in progress moved)."""
        return self.shown.split(".")[0] == str(revision)

    def one_behind(self, revision: int) -> bool:
        """A game page one change behind: it may take just what that change did, if it
        was a hand recorded (the answer that page's own Record would have had)."""
        return self.view == "game" and self.shown.split(".")[0] == str(revision - 1)

    def tells_change(self, revision: int) -> bool:
        """Whether the answer says who changed what: a game page behind the game."""
        return self.view != "board" and not self.same_game(revision)

    def may_be_kept(self, revision: int) -> bool:
        """Whether another phone's answer may do for this one: any but a scorer's game
        page when only another phone's entry moved (that answer is this page's alone)."""
        return self.watching or self.view != "game" or not self.same_game(revision)

    def other_phone_only(self, revision: int) -> bool:
        """Only another phone's entry moved: this phone's entry is left be."""
        return not self.may_be_kept(revision)

    def recorded_only(self, revision: int, last_change, hands: int) -> bool:
        """Whether the page may take just what the last change did: one behind, and
        that change the last hand recorded (``hands``: how many the game has)."""
        return (self.one_behind(revision) and last_change is not None
                and last_change.kind == ChangeKind.RECORDED and last_change.number == hands)
