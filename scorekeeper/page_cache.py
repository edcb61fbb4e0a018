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

import secrets
import sys
import threading

from cachetools import LRUCache
from flask import Flask, Response, current_app, g, make_response, request, session
from flask_wtf.csrf import generate_csrf

from scorekeeper.access import current_device, current_member
from scorekeeper.db import get_connection, get_session
from scorekeeper.evenings import evening_is_over
from scorekeeper.languages import current_language
from scorekeeper.ledger import Table
from scorekeeper.live import game_head


class PageCache:
    """A size-bounded (in bytes of memory), thread-safe LRU of page bodies, each with
    the cache's marker where the CSRF token was."""

    def __init__(self, max_bytes: int) -> None:
        self._pages: LRUCache = LRUCache(maxsize=max_bytes, getsizeof=sys.getsizeof)
        # Where the CSRF token was: random, so no text a player typed can be taken for it.
        self.marker = f"\x00{secrets.token_hex(16)}\x00"
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    def get(self, key: tuple) -> str | None:
        with self._lock:
            kept = self._pages.get(key)
            if kept is None:
                self.misses += 1
            else:
                self.hits += 1
            return kept

    def put(self, key: tuple, body: str) -> None:
        with self._lock:
            if sys.getsizeof(body) <= self._pages.maxsize:
                self._pages[key] = body

    def __len__(self) -> int:
        return len(self._pages)


def init_app(app: Flask) -> None:
    size = app.config["PAGE_CACHE_BYTES"]
    app.extensions["page_cache"] = PageCache(size) if size else None


def _cache() -> PageCache | None:
    return current_app.extensions.get("page_cache")


def _marker() -> str:
    return current_app.extensions["page_cache"].marker


def _plain_request() -> bool:
    """The page itself, as a link or a reload asks for it: nothing but its address.
    (Not HEAD: the page's language picker goes back to a GET's own address only.)"""
    return (request.method == "GET" and not request.args and not request.htmx
            and "_flashes" not in session)


def _key(game_id: int, created_at, revision: int, draft_seq: int, past: bool | None) -> tuple:
    return (game_id, created_at, revision, draft_seq, current_member().role,
            current_language(), request.script_root, past)


def kept_game_page(game_id: int) -> Response | None:
    """The kept page of the member's club's game, if this request may have it."""
    cache = _cache()
    member = current_member()
    if cache is None or member is None or not _plain_request():
        return None
    head = game_head(get_connection(), member.club_id, game_id)
    if head is None:
        return None  # not the club's game: the view answers 404
    device = current_device()
    if head.draft_device is not None and device is not None and head.draft_device == device.id:
        return None  # the phone entering the hand in progress gets its own page
    g.game_page_wanted = head
    key = (head.id, head.created_at, head.revision, head.draft_seq)
    kept = cache.get(_key(*key, None))  # a game still being played: the usual case
    if kept is None and head.evening_id is not None:
        # A finished game: read-only once its evening is over, which time alone decides.
        over = evening_is_over(get_session(), member.club_id, head.evening_id)
        kept = cache.get(_key(*key, over))
    if kept is None:
        return None
    return make_response(kept.replace(_marker(), generate_csrf()))


def keep_game_page(table: Table, response: Response) -> None:
    """Keep a page ``kept_game_page`` was asked for and didn't have, under the values
    its render used (the game may have changed since the head was read)."""
    cache, wanted = _cache(), g.get("game_page_wanted")
    shown = g.get("game_page_shown")
    if (cache is None or wanted is None or shown is None or response.status_code != 200
            or shown[0] != wanted.id or shown[2] is None):
        return
    game_id, revision, draft_seq, past = shown
    # A game still being played is never read-only by time: its key says so.
    finished = table.state.finished and table.game.evening_id is not None
    key = _key(game_id, table.game.created_at, revision, draft_seq, past if finished else None)
    token = generate_csrf()
    body = response.get_data(as_text=True)
    if token not in body:
        return  # not a page this module knows how to keep
    cache.put(key, body.replace(token, _marker()))
