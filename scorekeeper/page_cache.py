"""The game page as last rendered, kept by each app process for the next phone to open it.

Rendering a game page (twenty hands, the chart, the entry panel) takes milliseconds;
what it shows is fixed by a few values one small read gives (``live.game_head``): the
game's revision, bumped by every change to the game, its hands and its log, and the
number of the hand in progress's last step. With the reader's role and language (and,
for a finished game, whether its evening is over) they make the key.

Both numbers only ever grow and games are never deleted, so a key is never used for two
different pages: nothing needs invalidating, a changed game simply asks for a new key,
and an old page is never read again (the least recently used go when the cache is
full). Each app server keeps its own copies; the database stays the only state, so two
servers still answer alike.

Only the plain page is kept: an address with a hand in progress, an htmx step, or a
page carrying a notice from the last change (a flashed message) is rendered afresh.
The CSRF token is the session's own, so the kept copy holds a marker in its place.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass

from cachetools import LRUCache
from flask import Flask, Response, current_app, g, make_response, request, session
from flask_wtf.csrf import generate_csrf

from scorekeeper.access import current_member
from scorekeeper.db import get_session
from scorekeeper.evenings import evening_is_over, is_past_game
from scorekeeper.languages import current_language
from scorekeeper.ledger import Table
from scorekeeper.live import GameHead, game_head

DEFAULT_BYTES = 32 * 1024 * 1024  # per process: over a thousand 25 KB pages
MARKER = "\x00csrf\x00"  # never in a rendered page: HTML has no NUL


@dataclass(frozen=True)
class Kept:
    body: str  # with MARKER where the token was


class PageCache:
    """A size-bounded, thread-safe LRU of page bodies."""

    def __init__(self, max_bytes: int) -> None:
        self._pages: LRUCache = LRUCache(maxsize=max_bytes, getsizeof=lambda kept: len(kept.body))
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    def get(self, key: tuple) -> Kept | None:
        with self._lock:
            kept = self._pages.get(key)
            if kept is None:
                self.misses += 1
            else:
                self.hits += 1
            return kept

    def put(self, key: tuple, kept: Kept) -> None:
        with self._lock:
            if len(kept.body) <= self._pages.maxsize:
                self._pages[key] = kept

    def __len__(self) -> int:
        return len(self._pages)


def init_app(app: Flask) -> None:
    size = app.config.get("PAGE_CACHE_BYTES", DEFAULT_BYTES)
    app.extensions["page_cache"] = PageCache(size) if size else None


def _cache() -> PageCache | None:
    return current_app.extensions.get("page_cache")


def _plain_request() -> bool:
    """The page itself, as a link or a reload asks for it: nothing but its address."""
    return (request.method in ("GET", "HEAD") and not request.args and not request.htmx
            and "_flashes" not in session)


def _base_key(head: GameHead) -> tuple:
    member = current_member()
    return (head.id, head.created_at, head.revision, head.draft_seq, member.role,
            current_language(), request.script_root)


def kept_game_page(game_id: int) -> Response | None:
    """The kept page of the member's club's game, if this request may have it."""
    cache = _cache()
    member = current_member()
    if cache is None or member is None or not _plain_request():
        return None
    head = game_head(get_session(), member.club_id, game_id)
    if head is None:
        return None  # not the club's game: the view answers 404
    g.game_head = head  # the key the page rendered next is kept under
    base = _base_key(head)
    kept = cache.get((*base, None))  # a game still being played: the usual case
    if kept is None and head.evening_id is not None:
        # A finished game: read-only once its evening is over, which time alone decides.
        over = evening_is_over(get_session(), member.club_id, head.evening_id)
        kept = cache.get((*base, over))
    if kept is None:
        return None
    return make_response(kept.body.replace(MARKER, generate_csrf()))


def keep_game_page(table: Table, response: Response) -> None:
    """Keep a page ``kept_game_page`` was asked for and didn't have."""
    cache, head = _cache(), g.get("game_head")
    if cache is None or head is None or head.id != table.game.id or response.status_code != 200:
        return
    past_key = None  # a game still being played is never read-only by time
    if table.state.finished and table.game.evening_id is not None:
        past_key = is_past_game(get_session(), table)
    token = generate_csrf()
    body = response.get_data(as_text=True)
    if token not in body:
        return  # not a page this module knows how to keep
    cache.put((*_base_key(head), past_key), Kept(body.replace(token, MARKER)))
