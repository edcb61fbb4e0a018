"""The database engine and one session per request; and, asked for (``SERVER_TIMING``),
where each answer's time went."""
from __future__ import annotations

from pathlib import Path
from time import perf_counter

from flask import (
    Flask, Response, before_render_template, current_app, g, has_app_context,
    request_started, template_rendered,
)
from jinja2_fragments.flask import (
    before_render_template_block, before_render_template_blocks, template_block_rendered,
    template_blocks_rendered,
)
from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.pool import StaticPool
from sqlmodel import Session, create_engine

from scorekeeper.store.migrate import StartRefused, check_schema, upgrade


BUSY_TIMEOUT_MS = 15_000  # a writer waits this long for another's lock before giving up


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
    return create_engine(url, pool_pre_ping=True)


def init_app(app: Flask) -> None:
    engine = make_engine(app.config["DATABASE_URL"])
    app.extensions["db_engine"] = engine
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
    if app.config.get("SERVER_TIMING"):
        time_the_parts(app, engine)


def driver_said(error: DBAPIError) -> str:
    """A database's failure in a few words: the first line its driver said."""
    said = str(error.orig).strip().splitlines()
    return said[0] if said else type(error.orig).__name__


def get_engine() -> Engine:
    return current_app.extensions["db_engine"]


def get_connection() -> Connection:
    """The request's connection, for the reads (and the one write) done without the ORM:
    who is asking, and a game's head. A poll that finds nothing changed needs no more,
    and never pays for an ORM session."""
    if "db_session" in g:
        return g.db_session.connection()
    if "db_connection" not in g:
        g.db_connection = get_engine().connect()
    return g.db_connection


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
            # Its reads are done (a write is committed as it is made). The session
            # begins at once, so the connection's transaction is the session's from
            # here on: nothing run on it afterwards escapes the session's commit.
            connection.rollback()
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


# Where an answer's time went, in its Server-Timing header, when the app is made with
# SERVER_TIMING on (bench/capacity.py does): off otherwise, and then nothing is timed.
# pool: getting a connection (waiting for one, opening one, the ping before it is used);
# sql: statements and rollbacks; commit; render: templates drawn. Each is the part's own
# time (a query run while a template renders is the query's); app: all of the request
# from its start to the hook, the four parts with the rest (the rules, forms, words).
TIMED_PARTS = ("pool", "sql", "commit", "render")


class _Parts:
    """One request's time by part. A part begun inside another pauses the outer one."""

    def __init__(self) -> None:
        self.began = perf_counter()
        self.spent = dict.fromkeys(TIMED_PARTS, 0.0)
        self.statements = 0
        self.open: list[list] = []  # [part, since], innermost last

    def enter(self, part: str) -> None:
        now = perf_counter()
        if self.open:
            self.spent[self.open[-1][0]] += now - self.open[-1][1]
        self.open.append([part, now])

    def leave(self, part: str) -> None:
        if not self.open or self.open[-1][0] != part:
            return  # ended by an error that skipped its end: closed with the request
        now = perf_counter()
        self.spent[part] += now - self.open.pop()[1]
        if self.open:
            self.open[-1][1] = now

    def header(self) -> str:
        while self.open:
            self.leave(self.open[-1][0])
        said = [f"{part};dur={self.spent[part] * 1000:.2f}" for part in TIMED_PARTS]
        said[1] += f';desc="{self.statements} statements"'
        return ", ".join(said + [f"app;dur={(perf_counter() - self.began) * 1000:.2f}"])


def _request_parts() -> _Parts | None:
    """The request's timer, if this runs within a timed request (not the watch's reads)."""
    return g.get("timed_parts") if has_app_context() else None


def _timed(part: str, work):
    """``work``, its time counted to ``part`` of the request that runs it."""
    def timed(*args, **kwargs):
        parts = _request_parts()
        if parts is None:
            return work(*args, **kwargs)
        parts.enter(part)
        try:
            return work(*args, **kwargs)
        finally:
            parts.leave(part)
    return timed


def _entering(part: str, counted: bool = False):
    def enter(*_args, **_kwargs) -> None:
        parts = _request_parts()
        if parts is not None:
            parts.enter(part)
            parts.statements += counted
    return enter


def _leaving(part: str):
    def leave(*_args, **_kwargs) -> None:
        parts = _request_parts()
        if parts is not None:
            parts.leave(part)
    return leave


def time_the_parts(app: Flask, engine: Engine) -> None:
    """Time each request's parts and say them in its answer's Server-Timing header."""
    engine.pool.connect = _timed("pool", engine.pool.connect)
    engine.dialect.do_commit = _timed("commit", engine.dialect.do_commit)
    engine.dialect.do_rollback = _timed("sql", engine.dialect.do_rollback)
    event.listen(engine, "before_cursor_execute", _entering("sql", counted=True))
    for ended in ("after_cursor_execute", "handle_error"):
        event.listen(engine, ended, _leaving("sql"))
    for began, ended in ((before_render_template, template_rendered),
                         (before_render_template_block, template_block_rendered),
                         (before_render_template_blocks, template_blocks_rendered)):
        began.connect(_entering("render"), app, weak=False)
        ended.connect(_leaving("render"), app, weak=False)
    request_started.connect(lambda _app, **_extra: setattr(g, "timed_parts", _Parts()),
                            app, weak=False)

    @app.after_request
    def say_the_parts(response: Response) -> Response:
        parts = g.pop("timed_parts", None)
        if parts is not None:
            response.headers["Server-Timing"] = parts.header()
        return response
