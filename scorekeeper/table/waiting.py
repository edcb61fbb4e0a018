"""A phone's poll held until there is something new: the game (or board) it shows changes.

The page's poll says ``wait=1``; while the game is as the page shows it, the poll is
held up to ``LIVE_WAIT_SECONDS`` (25 s), answered as soon as it changes, and ``204``
when the time is up: an idle phone sends under 150 requests an hour instead of 1,800,
and a change reaches it in a fraction of a second.

A held poll holds no database connection and reads nothing while it waits. Each process
has one ``Watch``: a thread that reads the head of every game and board its polls wait
on (every game's mark at once, ``live.game_marks``; ``live.evening_head``: one small
indexed read each) every ``TICK`` seconds, and wakes the polls whose head moved with
that head as it is now (the games that moved read whole, all in one more read: a poll
woken reads no head of its own). They answer as any poll does (a kept answer where
another phone's poll rendered it). The database is the one truth: a change made by
another process or another server (one PostgreSQL) is seen by every process's watch the
same way, with no broker.

Held polls are cheap only where a request is: under gunicorn's gevent worker (a
greenlet each; README, "In production"), or ``flask run``'s threads for a few phones.
"""
from __future__ import annotations

import logging
import threading
import time
from typing import Callable, Hashable, TypeVar

from flask import current_app, request
from sqlalchemy.engine import Connection, Engine

from scorekeeper.store.db import close_session, get_connection, get_engine, outside_transaction
from scorekeeper.table.live import game_heads, game_marks

TICK = 0.25  # seconds between two reads of the watched heads
FRESH = 2 * TICK  # seconds a head the watch read is taken as current by a new poll
TIME_UP = object()  # a wait that ended with nothing moved
Head = TypeVar("Head")
Read = Callable[[Connection], object]

log = logging.getLogger(__name__)
_making = threading.Lock()


class _Waiter:
    """A held poll: the head it saw (``seen``: a game's as its mark), and the head the
    watch read once that moved, handed to it with its wake-up."""

    def __init__(self, seen: object, saw: object) -> None:
        self.seen = seen
        self.saw = saw  # the head itself
        self.woken = threading.Event()
        self.head: object = None

    def wake(self, head: object) -> None:
        self.head = head
        self.woken.set()


class Watch:
    """One process's watch over the heads its held polls wait on. A game's key is
    ``("game", club_id, game_id)``: all of them are read at once, as marks
    (``GameHead.mark``), compared with the mark of the head each poll saw; the games
    that moved are read whole, at once, for the polls woken."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._lock = threading.Lock()
        self._waiting: dict[Hashable, tuple[Read, list[_Waiter]]] = {}
        self._thread: threading.Thread | None = None
        # Each watched head as the last look found it, and when that look began.
        self._current: dict[Hashable, tuple[object, float]] = {}

    def current(self, key: Hashable) -> object | None:
        """The head ``key`` names as the watch found it at a look begun at most ``FRESH``
        seconds ago (polls wait on it); None if it has none as fresh."""
        found = self._current.get(key)
        if found is None or time.monotonic() - found[1] > FRESH:
            return None
        return found[0]

    def wait(self, key: Hashable, seen: object, read: Read, seconds: float) -> object:
        """Until the head ``read`` gives (``key`` names it) is no longer ``seen``, or
        ``seconds`` have passed: the head as the watch read it then (None: the game is
        gone), or ``TIME_UP``."""
        waiter = _Waiter(seen.mark if key[0] == "game" else seen, seen)
        with self._lock:
            self._waiting.setdefault(key, (read, []))[1].append(waiter)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, daemon=True,
                                                name="scorekeeper-watch")
                self._thread.start()
        try:
            return waiter.head if waiter.woken.wait(seconds) else TIME_UP
        finally:
            with self._lock:
                waiters = self._waiting[key][1]
                waiters.remove(waiter)
                if not waiters:
                    del self._waiting[key]

    def held(self, key: Hashable | None = None) -> int:
        """How many polls wait in this process now (on ``key``'s head, if given)."""
        with self._lock:
            if key is not None:
                return len(self._waiting.get(key, (None, []))[1])
            return sum(len(waiters) for _read, waiters in self._waiting.values())

    def _run(self) -> None:
        while True:
            time.sleep(TICK)
            try:
                self._look()
            except Exception:  # a database away for a moment: the polls time out as usual
                log.exception("reading the watched heads")

    def _look(self) -> None:
        """Read each watched head once (every game's mark in one read); wake every poll
        that saw another, with the head as it is now (the games that moved read whole,
        in one more read)."""
        with self._lock:
            watched = [(key, read, list(waiters))
                       for key, (read, waiters) in self._waiting.items()]
        began = time.monotonic()
        if not watched:
            self._current = {}
            return
        with outside_transaction(self._engine.connect()) as connection:
            marks = game_marks(connection, [key[2] for key, _, _ in watched if key[0] == "game"])
            now = {key: marks.get(key[1:]) if key[0] == "game" else read(connection)
                   for key, read, _ in watched}
            woken = [(key, moved) for key, _, waiters in watched
                     if (moved := [waiter for waiter in waiters if waiter.seen != now[key]])]
            heads = game_heads(connection, [key[2] for key, _ in woken if key[0] == "game"])
        current = {key: (saw[0], began) for key, _, waiters in watched
                   if (saw := [waiter.saw for waiter in waiters if waiter.seen == now[key]])}
        for key, waiters in woken:
            head = heads.get(key[1:]) if key[0] == "game" else now[key]
            if head is not None:
                current[key] = (head, began)
            for waiter in waiters:
                waiter.wake(head)
        self._current = current


def first_look(key: Hashable, read: Callable[[Connection], Head],
               unchanged: Callable[[Head], bool]) -> Head:
    """The head a poll begins with: where other polls wait on it, as the watch found it a
    moment ago if the poll has nothing new in it (it is held; the watch's next look wakes
    it if the head moved meanwhile); else read. (An idle phone's poll every
    ``LIVE_WAIT_SECONDS``, and a phone's next poll once woken, read no head of their own.)"""
    head = _watch().current(key)
    if head is not None and unchanged(head):
        return head
    return read(get_connection())


def held(key: Hashable, head: Head, read: Callable[[Connection], Head],
         unchanged: Callable[[Head], bool]) -> Head:
    """The head once it is no longer ``unchanged`` for the poll, or as it was seen when
    the poll's time is up (at once, for a poll that asks not to wait). A change the
    watch had not seen yet is the phone's next poll's first read: an idle phone's
    poll is not read again at its end."""
    seconds = current_app.config["LIVE_WAIT_SECONDS"] if request.args.get("wait") else 0
    deadline = time.monotonic() + seconds
    while head is not None and unchanged(head) and (left := deadline - time.monotonic()) > 0:
        close_session()  # no connection kept while waiting
        moved = _watch().wait(key, head, read, left)
        if moved is TIME_UP:
            break
        head = moved  # as the watch read it: not read again here
    return head


def _watch() -> Watch:
    """The app's watch in this process, made on the first poll held."""
    extensions = current_app.extensions
    with _making:
        if "live_watch" not in extensions:
            extensions["live_watch"] = Watch(get_engine())
        return extensions["live_watch"]
