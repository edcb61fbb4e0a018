"""A phone's poll held until there is something new: the game (or board) it shows changes.

The page's poll says ``wait=1``; while the game is as the page shows it, the poll is
held up to ``LIVE_WAIT_SECONDS`` (25 s), answered as soon as it changes, and ``204``
when the time is up: an idle phone sends under 150 requests an hour instead of 1,800,
and a change reaches it in a fraction of a second.

A held poll holds no database connection and reads nothing while it waits. Each process
has one ``Watch``: a thread that reads the head of every game and board its polls wait
on (every game's mark at once, ``live.game_marks``; ``live.evening_head``: one small
indexed read each) every ``TICK`` seconds, and wakes the polls whose head moved; they
then read it again and
answer as any poll does (a kept answer where another phone's poll rendered it). The
database is the one truth: a change made by another process or another server (one
PostgreSQL) is seen by every process's watch the same way, with no broker.

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

from scorekeeper.store.db import (
    close_session, get_connection, get_engine, outside_transaction,
)
from scorekeeper.table.live import game_marks

TICK = 0.25  # seconds between two reads of the watched heads
Head = TypeVar("Head")
Read = Callable[[Connection], object]

log = logging.getLogger(__name__)
_making = threading.Lock()


class Watch:
    """One process's watch over the heads its held polls wait on. A game's key is
    ``("game", club_id, game_id)``: all of them are read at once, as marks
    (``GameHead.mark``), compared with the mark of the head each poll saw."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._lock = threading.Lock()
        self._waiting: dict[Hashable, tuple[Read, list[tuple[object, threading.Event]]]] = {}
        self._thread: threading.Thread | None = None

    def wait(self, key: Hashable, seen: object, read: Read, seconds: float) -> bool:
        """Until the head ``read`` gives (``key`` names it) is no longer ``seen``, or
        ``seconds`` have passed; True if it moved, False if the time ran out."""
        waiter = (seen.mark if key[0] == "game" else seen, threading.Event())
        with self._lock:
            self._waiting.setdefault(key, (read, []))[1].append(waiter)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, daemon=True,
                                                name="scorekeeper-watch")
                self._thread.start()
        try:
            return waiter[1].wait(seconds)
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
        """Read each watched head once (every game's in one read); wake every poll that
        saw another."""
        with self._lock:
            watched = [(key, read, list(waiters))
                       for key, (read, waiters) in self._waiting.items()]
        if not watched:
            return
        with outside_transaction(self._engine.connect()) as connection:
            games = game_marks(connection, [key[2] for key, _, _ in watched if key[0] == "game"])
            for key, read, waiters in watched:
                head = games.get(key[1:]) if key[0] == "game" else read(connection)
                for seen, woken in waiters:
                    if head != seen:
                        woken.set()


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
        if not _watch().wait(key, head, read, left):
            break
        head = read(get_connection())
    return head


def _watch() -> Watch:
    """The app's watch in this process, made on the first poll held."""
    extensions = current_app.extensions
    with _making:
        if "live_watch" not in extensions:
            extensions["live_watch"] = Watch(get_engine())
        return extensions["live_watch"]
