"""The game page as last rendered, kept by each app process for the next phone to open it.

Rendering a game page (twenty hands, the chart, the entry panel) takes milliseconds;
what it shows is fixed by a few values one small read gives (``live.game_head``): the
game's revision, bumped by every change to the game, its hands and its log, and the
number of the hand in progress's last step. With the reader's role and language (and,
for a finished game, whether its evening is over) they make the key. The role decides
more than the buttons: a notice of who changed what names the device to owners only,
so no page or answer kept for one role ever reaches another.

Both numbers only ever grow and games are never deleted, so a key is never used for two
different pages: nothing needs invalidating, a changed game simply asks for a new key,
and an old page is never read again (the least recently used go when the cache is
full). Each app server keeps its own copies; the database stays the only state, so two
servers still answer alike.

Only the plain page is kept: an address with a hand in progress, an htmx step, or a
page carrying a notice from the last change (a flashed message) is rendered afresh.
The CSRF token is the session's own, so the kept copy holds a marker in its place.

A poll's answer after a change (the game part, or the scoreboard) is kept the same way,
so the second to seventh phone at a table catching up on a hand get it without a render;
those that ask at the same moment, as a hand wakes every phone's held poll at once, wait
in each process for the first one's render (``drawn_once``). It is kept in the database
too (``KeptAnswer``, for a few minutes), under a digest of the same key and of the app's
own files, so a phone that polls another app server gets it without a render as well: a
table costs one render, not one per server. Its key adds what the answer depends on
beyond the page's: the view (game, correction, board), whether it carries the notice of
who changed what (the newest change's, fixed by the revision), the part htmx swaps, and
for a scoreboard its evening's head (the board follows the evening once the game is
over). A scorer's poll when only another phone's entry moved, or the phone entering the
hand, is answered for that phone alone and never kept.
"""
from __future__ import annotations

import hashlib
import hmac
import logging
import sys
import threading
from collections.abc import Hashable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass
from datetime import timedelta
from functools import lru_cache
from pathlib import Path

from flask import Flask, Response, current_app, g, make_response, request, session
from flask_wtf.csrf import generate_csrf
from sqlalchemy import delete, or_, select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.pool import StaticPool

from scorekeeper.clubs.access import current_device, current_member
from scorekeeper.store.db import dialect_insert, get_connection, get_engine, get_session
from scorekeeper.store.kept import GAMES_IN_PLAY, LockedLRU
from scorekeeper.store.models import KeptAnswer, utcnow
from scorekeeper.store.replay import Replay
from scorekeeper.table.evenings import evening_is_over
from scorekeeper.table.live import EveningHead, GameHead, PollView, game_head
from scorekeeper.views.confirming import shown_player
from scorekeeper.table.game_page import PageKey
from scorekeeper.views.pages import wants_fragment
from scorekeeper.web.languages import current_language

log = logging.getLogger(__name__)
# Seconds a poll waits at most for the same answer drawn by another of this process.
DRAWN_ONCE_SECONDS = 5.0


class PageCache:
    """A size-bounded (in bytes of memory), thread-safe LRU of page bodies, each with
    the cache's marker where the CSRF token was."""

    def __init__(self, max_bytes: int, secret: str) -> None:
        self._pages = LockedLRU(max_bytes, getsizeof=_size)
        # Where the CSRF token was: known only to the app servers (it is made from the
        # secret key, the same for all, as what one keeps the others may read), so no
        # text a player typed can be taken for it. (No NUL in it: PostgreSQL's text
        # holds none, and the copies for the other servers are kept there.)
        digest = hmac.new(secret.encode(), b"where the CSRF token was", hashlib.sha256)
        self.marker = f"\ue000{digest.hexdigest()[:32]}\ue000"
        self.hits = self.misses = 0
        self._drawing: dict[Hashable, threading.Event] = {}  # being drawn now: its end
        self._waiting = 0
        self._lock = threading.Lock()
        self.drawn_once_seconds = DRAWN_ONCE_SECONDS

    def get(self, key: tuple):
        kept = self._pages.get(key)
        if kept is None:
            self.misses += 1
        else:
            self.hits += 1
        return kept

    def put(self, key: tuple, body) -> None:
        self._pages.put(key, body)

    @contextmanager
    def drawing(self, key: Hashable) -> Iterator[None]:
        """Draw what ``key`` names once in this process for the requests that ask for
        it together: the first draws; the others wait (``drawn_once_seconds`` at most)
        until it is done, and go on to find the copy it kept."""
        with self._lock:
            drawn = self._drawing.get(key)
            first = drawn is None
            if first:
                drawn = self._drawing[key] = threading.Event()
            else:
                self._waiting += 1
        if first:
            try:
                yield
            finally:
                with self._lock:
                    del self._drawing[key]
                drawn.set()
        else:
            try:
                drawn.wait(self.drawn_once_seconds)
            finally:
                with self._lock:
                    self._waiting -= 1
            yield

    def waiting(self) -> int:
        """How many requests wait for another's drawing now."""
        with self._lock:
            return self._waiting

    def __len__(self) -> int:
        return len(self._pages)


def _size(kept) -> int:
    """A page's size; a poll's answer is kept with its htmx headers: (body, headers)."""
    return sys.getsizeof(kept if isinstance(kept, str) else kept[0])


class SharedAnswers:
    """Poll answers kept in the database for every app server, a few minutes each.

    The row's key is a digest of the answer's key and of the app's own files (code,
    templates, catalogues, static files), so a server running other code never reads
    what this one rendered. Keeping is best effort: a write that fails loses only the
    copy, never the answer, which is sent anyway.
    """

    MINUTES = 10

    def __init__(self, dialect: str, build: str) -> None:
        self._build = build
        self._insert = dialect_insert(dialect)
        self.hits = self.misses = self.kept = 0

    def digest(self, key: tuple) -> str:
        return hashlib.sha256(f"{self._build}{key!r}".encode()).hexdigest()

    def get(self, key: tuple):
        row = get_connection().execute(
            select(KeptAnswer.body, KeptAnswer.headers).where(KeptAnswer.key == self.digest(key))
        ).first()
        if row is None:
            self.misses += 1
            return None
        self.hits += 1
        return row.body, [tuple(header) for header in row.headers]

    def put(self, key: tuple, game_id: int, revision: int, kept) -> None:
        body, headers = kept
        now = utcnow()
        try:
            with get_engine().begin() as connection:  # (a render thread's, where it has one)
                # What no phone will ask for again: older revisions, and minutes-old copies.
                connection.execute(delete(KeptAnswer).where(or_(
                    KeptAnswer.kept_at < now - timedelta(minutes=self.MINUTES),
                    (KeptAnswer.game_id == game_id) & (KeptAnswer.revision < revision))))
                connection.execute(self._insert(KeptAnswer).values(
                    key=self.digest(key), game_id=game_id, revision=revision, body=body,
                    headers=[list(header) for header in headers], kept_at=now,
                ).on_conflict_do_nothing())
            self.kept += 1
        except SQLAlchemyError:
            log.warning("a poll's answer could not be kept for the other servers",
                        exc_info=True)


def build_digest(app: Flask) -> str:
    """A digest of what the app renders with: its code, templates, catalogues and static
    files (read once, at start)."""
    package = Path(__file__).resolve().parents[1]  # scorekeeper/, every room of it
    return _digest_of(package, Path(app.template_folder), Path(app.static_folder))


@lru_cache(maxsize=4)
def _digest_of(*folders: Path) -> str:
    """The files of ``folders``, digested once per process (each app of a process renders
    with the same files)."""
    digest = hashlib.sha256()
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(folder)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


def init_app(app: Flask) -> None:
    size = app.config["PAGE_CACHE_BYTES"]
    app.extensions["page_cache"] = PageCache(size, app.config["SECRET_KEY"]) if size else None
    engine = app.extensions["db_engine"]
    # (An in-memory database is one process's alone: no other server to share with.)
    shared = size and app.config["PAGE_CACHE_SHARED"] and not isinstance(engine.pool, StaticPool)
    app.extensions["shared_answers"] = (SharedAnswers(engine.dialect.name, build_digest(app))
                                        if shared else None)


def _cache() -> PageCache | None:
    return current_app.extensions.get("page_cache")


def _marker() -> str:
    return current_app.extensions["page_cache"].marker


def _plain_request() -> bool:
    """The page itself, as a link or a reload asks for it: nothing but its address.
    (Not HEAD: the page's language picker goes back to a GET's own address only.)"""
    return (request.method == "GET" and not request.args and not request.htmx
            and "_flashes" not in session)


def _key(game_id: int, created_at, revision: int, draft_seq: int, past: bool | None,
         evening_id: int | None = None) -> tuple:
    """The key of a page of a game (``evening_id``: a game page's evening, where what the
    page shows depends on the member's player: ``views.confirming``; None for a board)."""
    return (game_id, created_at, revision, draft_seq, current_member().role,
            current_language(), request.script_root, past, shown_player() if evening_id else None)


@dataclass(frozen=True)
class Asked:
    """What the cache was asked for: the copy it kept (None: none), and whether the
    answer rendered instead may be kept (``head``: the game as the question read it;
    None: an answer for this phone alone, or nothing to keep it in)."""

    kept: Response | None = None
    head: GameHead | None = None
    view: str = "page"


NOTHING_ASKED = Asked()


def kept_game_page(game_id: int) -> Asked:
    """The kept page of the member's club's game, if this request may have it."""
    cache = _cache()
    member = current_member()
    if cache is None or member is None or not _plain_request():
        return NOTHING_ASKED
    head = game_head(get_connection(), member.club_id, game_id)
    if head is None:
        return NOTHING_ASKED  # not the club's game: the view answers 404
    if _entering_the_hand(head):
        return NOTHING_ASKED  # the phone entering the hand in progress gets its own page
    kept = _kept_game(cache.get, head, ())
    if kept is None:
        return Asked(None, head)
    return Asked(make_response(kept.replace(_marker(), generate_csrf())), head)


def _entering_the_hand(head: GameHead) -> bool:
    """Whether this phone is the one entering the game's hand in progress: what it is
    shown is its own."""
    device = current_device()
    return (head.draft_device is not None and device is not None
            and head.draft_device == device.id)


# Whether a game of an evening is finished, per state of the game (key: id, creation,
# revision), as a page or answer drawn here found it: a finished one's copies are kept
# under whether its evening is over (two reads), asked only of a game known finished.
FINISHED = LockedLRU(GAMES_IN_PLAY)


def _kept_game(lookup, head: GameHead, kind: tuple, draft_seq: int | None = None):
    """What is kept of the game at ``head`` for this reader (``kind``: which answer);
    ``lookup``: a key's kept copy, or None. (A finished game drawn by another server
    only, at this state, is drawn here once.)"""
    key = (head.id, head.created_at, head.revision,
           head.draft_seq if draft_seq is None else draft_seq)
    kept = lookup(kind + _key(*key, None, head.evening_id))  # a game still being played
    if kept is None and FINISHED.get(key[:3]):
        # A finished game: read-only once its evening is over, which time alone decides.
        over = evening_is_over(get_session(), current_member().club_id, head.evening_id)
        kept = lookup(kind + _key(*key, over, head.evening_id))
    return kept


def _answer_lookup(cache: PageCache):
    """A poll answer's kept copy: this server's own, else another's (kept here then)."""
    shared = current_app.extensions.get("shared_answers")

    def lookup(key: tuple):
        kept = cache.get(key)
        if kept is None and shared is not None:
            kept = shared.get(key)
            if kept is not None:
                cache.put(key, kept)
        return kept

    return lookup


def page_key(replay: Replay, shown: PageKey) -> tuple | None:
    """The key of a game page (or part) rendered, under the values its render used
    (``shown``: the game may have changed since the head was read); None if it is this
    phone's alone. Notes whether the game is finished (``FINISHED``), for the next lookup."""
    if shown.game_id != replay.game.id or shown.draft_seq is None:
        return None
    # A game still being played is never read-only by time: its key says so.
    finished = replay.state.finished and replay.game.evening_id is not None
    FINISHED.put((replay.game.id, replay.game.created_at, replay.game.revision), finished)
    return _key(shown.game_id, replay.game.created_at, shown.revision, shown.draft_seq,
                shown.past if finished else None, replay.game.evening_id)


def keep_game_page(asked: Asked, key: tuple | None, response: Response) -> None:
    """Keep a page ``kept_game_page`` was asked for and didn't have, under ``key``
    (``page_key``)."""
    cache = _cache()
    if cache is None or asked.head is None or key is None or response.status_code != 200:
        return
    token = generate_csrf()
    body = response.get_data(as_text=True)
    if token not in body:
        return  # not a page this module knows how to keep
    cache.put(key, body.replace(token, _marker()))


# An answer's htmx headers, kept with it (they say where it goes).
_HX_HEADERS = ("HX-Retarget", "HX-Reswap", "HX-Push-Url")


def _poll_kind(view: str, notice: bool, one_behind: bool) -> tuple:
    """What tells one poll's answer from another's of the same game and reader
    (``one_behind``: the page shows the revision before, and may take just what the
    last change did)."""
    return ("live", view, notice, one_behind, request.htmx.target)


# What a poll says: its version and view, and that it may be held; as a browser sends
# it, its page's own mark (a browser sends one request for an address at a time) and,
# from the hand's entry, the step's number (app.js). The last three change no answer.
_POLL_ARGS = {"v", "view", "wait", "page", "step"}


def _poll_request() -> bool:
    """A poll as the page sends it, nothing else."""
    return (request.method == "GET" and set(request.args) <= _POLL_ARGS
            and wants_fragment() and "_flashes" not in session)


def kept_poll_answer(head: GameHead, view: str, notice: bool, one_behind: bool = False,
                     table: EveningHead | None = None) -> Asked:
    """The kept answer to this poll of the game at ``head``, if this phone may have it:
    ``view`` is the page's (game, correction or board), ``notice`` whether the answer
    tells who changed what (the phone shows an older revision), ``one_behind`` whether
    that is the revision just before; ``table``: a board's table's head (``table_head``)."""
    cache = _cache()
    if cache is None or not _poll_request():
        return NOTHING_ASKED
    kind = _poll_kind(view, notice, one_behind)
    lookup = _answer_lookup(cache)
    if view == PollView.BOARD:
        kept = lookup(kind + _board_key(head.id, head.created_at, head.revision,
                                        head.draft_seq, table))
    else:
        if _entering_the_hand(head):
            return NOTHING_ASKED  # the phone entering the hand in progress: its own answer
        kept = _kept_game(lookup, head, kind)
    if kept is None:
        return Asked(None, head, view)
    body, headers = kept
    return Asked(make_response(body.replace(_marker(), generate_csrf()), 200, headers),
                 head, view)


def drawn_once(head: GameHead, kept: bool) -> AbstractContextManager[None]:
    """A poll's answer drawn once in this process for the phones that ask for it at the
    same moment: a hand recorded wakes every phone at its table at once, and each would
    miss the kept copy and draw its own. A poll that finds its answer being drawn waits
    for it, then finds it kept (or draws its own, where none was kept). ``kept``: the
    answer may be another phone's (``Poll.may_be_kept``)."""
    cache = _cache()
    if cache is None or not kept or not _poll_request() or _entering_the_hand(head):
        return nullcontext()  # nothing kept, or an answer for this phone alone
    return cache.drawing((request.path, request.args.get("v"), request.args.get("view"),
                          request.htmx.target, head.mark)
                         + _key(head.id, head.created_at, head.revision, head.draft_seq,
                                None, head.evening_id))


def _board_key(game_id: int, created_at, revision: int, draft_seq: int,
               table: EveningHead | None) -> tuple:
    return _key(game_id, created_at, revision, draft_seq, table and table.version)


def board_key(replay: Replay, draft_seq: int, table: EveningHead | None) -> tuple:
    """The key a board answer about to be rendered for a poll is kept under, with the
    head of its table its render uses (read before the game: the answer is never older
    than its key, and the evening's head only grows, so a key once passed is never
    asked for again)."""
    game = replay.game
    return _board_key(game.id, game.created_at, game.revision, draft_seq, table)


def keep_poll_answer(asked: Asked, key: tuple | None, response: Response,
                     notice: bool = False, one_behind: bool = False) -> None:
    """Keep an answer ``kept_poll_answer`` was asked for and didn't have, under ``key``
    (``page_key`` or ``board_key``, read for the values its render used): the game part
    (or what the last change did, ``one_behind``; ``notice``: it tells who changed
    what), or the board."""
    cache = _cache()
    if cache is None or asked.head is None or key is None or response.status_code != 200:
        return  # nothing asked, or this phone's alone (its own entry)
    kind = _poll_kind(asked.view, notice, one_behind)
    body = response.get_data(as_text=True)
    token = g.get(current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token"))
    if token:  # the render put this session's token in: the kept copy holds the marker
        body = body.replace(token, _marker())
    headers = [(name, response.headers[name]) for name in _HX_HEADERS
               if name in response.headers]
    cache.put(kind + key, (body, headers))
    shared = current_app.extensions.get("shared_answers")
    if shared is not None:
        shared.put(kind + key, asked.head.id, key[2], (body, headers))
