"""The database engine and one session per request."""
from __future__ import annotations

import fcntl
import struct
import termios
import time
from contextvars import ContextVar
from pathlib import Path
from typing import Callable, TypeVar

from flask import Flask, current_app, g
from sqlalchemy import event
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import DBAPIError, DisconnectionError, OperationalError
from sqlalchemy.pool import StaticPool
from sqlmodel import Session, create_engine

from scorekeeper.store.migrate import StartRefused, check_schema, upgrade


BUSY_TIMEOUT_MS = 15_000  # a writer waits this long for another's lock before giving up
# A worker's connections to a database server: those kept open between requests, and the
# most at once (the rest are closed when given back). A burst of woken polls (a hand
# recorded wakes every phone of its table) finds connections already open: opening one
# costs PostgreSQL a process of its own. Two servers of two workers, with their render
# threads' own (below), stay under the server's default limit of 100 connections.
POOL_KEPT, POOL_MOST = 15, 19
# The render threads and the thread for writes (``web/aside.py``: a page, a poll's
# answer drawn; a record) have connections of their own on a database server, beside the
# greenlets' (the polls): a record never waits for one behind the polls a hand woke,
# each of which holds its connection until its greenlet runs again. A render thread
# holds two at most: its request's, and the one a poll's answer is kept for the other
# servers with (``page_cache.SharedAnswers.put``). One each is kept open. A write's
# thread holds one: no poll's answer is drawn in it.
DRAWING_MOST_EACH = 2
# A pooled connection is pinged before use once it has lain idle this long (a firewall
# may have dropped it without a word). One given back a moment ago is not: at a busy
# table's pace that ping was a third of a poll's round trips.
PING_AFTER_IDLE_SECONDS = 30.0
WRITE_THREADS = 1  # a worker's render threads for writes, beside ``render_threads``
T = TypeVar("T")
_DRAWING: ContextVar[bool] = ContextVar("drawing", default=False)  # in a render thread


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        options: dict = {"connect_args": {"check_same_thread": False,
                                          "timeout": BUSY_TIMEOUT_MS / 1000}}
        in_memory = ":memory:" in url or url in ("sqlite://", "sqlite:///")
        if in_memory:
            options["poolclass"] = StaticPool  # one shared in-memory database
        else:  # the file's folder, made on first start (the instance folder, by default)
            Path(make_url(url).database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, **options)

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection, _record) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            if not in_memory:
                # Write-ahead log: pages (and the 2-second polls) read while a hand is
                # written, instead of waiting for the writer.
                cursor.execute("PRAGMA journal_mode=WAL")
            cursor.close()

        return engine
    return _server_engine(url, POOL_KEPT, POOL_MOST)


def _server_engine(url: str, kept: int, most: int) -> Engine:
    """A database server's engine: ``kept`` connections open between requests, ``most``
    at once, each checked before use (the server may have ended it meanwhile)."""
    engine = create_engine(url, pool_size=kept, max_overflow=most - kept)
    event.listen(engine.pool, "checkin", _given_back)

    @event.listens_for(engine.pool, "checkout")
    def _checked_out(dbapi_connection, record, _proxy) -> None:
        if _ended_or_idle(dbapi_connection, record.info.get("given_back")):
            try:
                engine.dialect.do_ping(dbapi_connection)
            except engine.dialect.loaded_dbapi.Error as lost:
                raise DisconnectionError("the database server did not answer") from lost
    return engine


def _given_back(_dbapi_connection, record) -> None:
    record.info["given_back"] = time.monotonic()


def _ended_or_idle(dbapi_connection, given_back: float | None) -> bool:
    """Whether a pooled connection must be pinged before use: the server said something
    to it while it lay in the pool (as it ends a connection, a restart: it says why
    before it closes it, there to read at once, no round trip), or it lay idle a while.
    One just opened (never given back) need not be."""
    if given_back is None:
        return False
    if dbapi_connection.closed or _unread_bytes(dbapi_connection.fileno()):
        return True
    return time.monotonic() - given_back > PING_AFTER_IDLE_SECONDS


def _unread_bytes(socket: int) -> int:
    """What waits to be read on ``socket``, asked of the system (nothing is read)."""
    return struct.unpack("i", fcntl.ioctl(socket, termios.FIONREAD, b"\0" * 4))[0]


def render_threads(config) -> int:
    """The render threads a worker draws pages in (``web/aside.py``; writes have their
    own, ``WRITE_THREADS``): ``RENDER_THREADS`` if set, else by the database. On SQLite
    one, as more contend for the interpreter. On PostgreSQL two: each statement is a
    round trip the thread waits out (a record makes about fifteen), and a second thread
    draws meanwhile (``bench/capacity.py``: 505 tables held where one held 463)."""
    threads = config["RENDER_THREADS"]
    if threads is None:
        return 2 if config["DATABASE_URL"].startswith("postgresql") else 1
    return threads


def init_app(app: Flask) -> None:
    engine = make_engine(app.config["DATABASE_URL"])
    app.extensions["db_engine"] = engine
    threads = render_threads(app.config)
    if engine.dialect.name == "postgresql" and threads:
        # (On SQLite a statement runs in the process: a connection is never held waiting.)
        app.extensions["db_drawing_engine"] = _server_engine(
            app.config["DATABASE_URL"], threads + WRITE_THREADS,
            DRAWING_MOST_EACH * threads + WRITE_THREADS)
    # The schema is made (or brought up to date) on start, no manual step. Then the
    # tables are checked against the models, whatever revision the database says it is
    # at: a stamp can lie.
    try:
        upgrade(engine)
        check_schema(engine)
    except OperationalError as silent:  # not there, or refusing us: nothing can start
        raise StartRefused(f"The database did not answer ({driver_said(silent)}): the app "
                           f"does not start without it.") from None
    app.teardown_appcontext(close_session)


def dialect_insert(dialect: str) -> Callable:
    """The INSERT of ``dialect`` (a name: "postgresql", else SQLite's), the one with
    ``on_conflict_do_…``: both databases take it."""
    return postgresql.insert if dialect == "postgresql" else sqlite.insert


def driver_said(error: DBAPIError) -> str:
    """A database's failure in a few words: the first line its driver said."""
    said = str(error.orig).strip().splitlines()
    return said[0] if said else type(error.orig).__name__


def get_engine() -> Engine:
    """The app's engine; in a render thread, the render threads' own where there is one."""
    extensions = current_app.extensions
    if _DRAWING.get() and "db_drawing_engine" in extensions:
        return extensions["db_drawing_engine"]
    return extensions["db_engine"]


def engines(app: Flask) -> list[Engine]:
    return [app.extensions[name] for name in ("db_engine", "db_drawing_engine")
            if name in app.extensions]


def drawing(work: Callable[..., T], *args) -> T:
    """``work(*args)``, run in a render thread: its connections are the render threads'."""
    _DRAWING.set(True)
    return work(*args)


def get_connection() -> Connection:
    """The request's connection, for the reads (and the one write) done without the ORM:
    who is asking, and a game's head. A poll that finds nothing changed needs no more,
    and never pays for an ORM session."""
    if "db_session" in g:
        return g.db_session.connection()
    if "db_connection" not in g:
        g.db_connection = outside_transaction(get_engine().connect())
    return g.db_connection


def outside_transaction(connection: Connection) -> Connection:
    """``connection``, each of its statements its own transaction on PostgreSQL: there a
    poll's two reads are two round trips, not four with the BEGIN and the ROLLBACK
    around them. SQLite's driver begins no transaction for a read: its connection is
    left as it is (setting it and setting it back costs a statement each)."""
    if connection.dialect.name == "postgresql":
        connection.execution_options(isolation_level="AUTOCOMMIT")
    return connection


def in_transaction_again(connection: Connection) -> None:
    """Undo ``outside_transaction``: the connection's statements are its transaction's
    again (at the database's own isolation level)."""
    if connection.get_execution_options().get("isolation_level") == "AUTOCOMMIT":
        connection.execution_options(isolation_level=connection.default_isolation_level)


def commit() -> None:
    """Commit what was written on the request's connection (through its session, if one
    is open: the session owns the connection's transaction then)."""
    if "db_session" in g:
        g.db_session.commit()
    elif "db_connection" in g:
        g.db_connection.commit()


def get_session() -> Session:
    """The request's session, opened on first use (on the request's connection, if one
    is open) and closed at teardown."""
    if "db_session" not in g:
        connection = g.get("db_connection")
        if connection is None:
            g.db_session = Session(get_engine(), expire_on_commit=False)
        else:
            # Its reads are done (a write is committed as it is made). It is given
            # transactions again, and the session begins at once, so the connection's
            # transaction is the session's from here on: nothing run on it afterwards
            # escapes the session's commit.
            connection.rollback()
            in_transaction_again(connection)
            g.db_session = Session(bind=connection, expire_on_commit=False)
            g.db_session.connection()
    return g.db_session


def close_session(_exc: BaseException | None = None) -> None:
    session = g.pop("db_session", None)
    if session is not None:
        session.close()
    connection = g.pop("db_connection", None)
    if connection is not None:
        connection.close()

