"""The database each test's app runs on: SQLite, or PostgreSQL when asked for.

Migrations run once per test process, not for every app: each app a test makes gets a
database of its own copied from a template migrated at the start (the app's own
upgrade then finds it at the newest revision and has nothing to do). On SQLite the
copy is a file, in memory-backed storage where the machine has it; with
``TEST_DATABASE_URL`` naming a PostgreSQL server (``.ci/run`` starts one for its second
run of the suite), a database cloned from a template database. A test that names a
SQLite file of its own gets that file, which its app migrates.
"""
from __future__ import annotations

import atexit
import os
import shutil
import tempfile
import threading
import uuid
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Iterator

from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import make_url

SERVER = os.environ.get("TEST_DATABASE_URL", "")
CREATED: list[str] = []  # this process's databases, dropped when the session ends


def on_postgresql() -> bool:
    return SERVER.startswith("postgresql")


@contextmanager
def statements_sent(engine, thread: int | None = None) -> Iterator[list[tuple[str, object]]]:
    """Each statement the engine sends meanwhile, with its parameters, as sent; from the
    thread ``thread`` names alone, if it names one."""
    sent: list[tuple[str, object]] = []

    def keep(_connection, _cursor, statement, parameters, *_args) -> None:
        if thread is None or threading.get_ident() == thread:
            sent.append((statement, parameters))

    event.listen(engine, "before_cursor_execute", keep)
    try:
        yield sent
    finally:
        event.remove(engine, "before_cursor_execute", keep)


@lru_cache(maxsize=1)
def _admin():
    """This process's connection to the server's own database, kept for its every
    CREATE DATABASE (a connection each would cost as much again as the copy)."""
    return create_engine(SERVER, isolation_level="AUTOCOMMIT").connect()


@lru_cache(maxsize=1)
def _copy_strategy() -> str:
    """How a database is copied from its template: file by file where the server can
    (PostgreSQL 15 on), twice as fast as its default for a database as small as a test's."""
    version = _admin().exec_driver_sql("SHOW server_version_num").scalar_one()
    return " STRATEGY FILE_COPY" if int(version) >= 150000 else ""


def _create(name: str, template: str | None = None) -> str:
    """Make database ``name`` (a copy of ``template``, if given); its URL."""
    CREATED.append(name)
    copy = f' TEMPLATE "{template}"{_copy_strategy()}' if template else ""
    _admin().exec_driver_sql(f'CREATE DATABASE "{name}"{copy}')
    return make_url(SERVER).set(database=name).render_as_string(hide_password=False)


@lru_cache(maxsize=1)
def _template() -> str:
    """A database migrated to the newest schema, to clone each test's from."""
    from scorekeeper.store.db import make_engine
    from scorekeeper.store.migrate import upgrade

    name = f"sk_template_{os.getpid()}_{uuid.uuid4().hex[:6]}"
    engine = make_engine(_create(name))
    upgrade(engine)
    engine.dispose()  # a template can't be copied while anyone is connected to it
    return name


@lru_cache(maxsize=1)
def _sqlite_template() -> Path:
    """A SQLite file migrated to the newest schema, in a folder of this process's own."""
    from scorekeeper.store.db import make_engine
    from scorekeeper.store.migrate import upgrade

    shared_memory = Path("/dev/shm")  # a commit's fsync costs nothing there
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-tests-",
                                   dir=shared_memory if shared_memory.is_dir() else None))
    # Removed when the tests end (conftest.py), or when the process does, whichever is first.
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    template = folder / "template.sqlite"
    engine = make_engine(f"sqlite:///{template}")
    upgrade(engine)
    engine.dispose()  # the last connection checkpoints the write-ahead log into the file
    return template


def database_url(sqlite: str | None = None) -> str:
    """A new database for one app, migrated, with no club yet (``tests.members.
    first_club_id`` makes one); ``sqlite``: the SQLite URL to use instead, when the test
    needs a file of its own."""
    if on_postgresql():
        return _create(f"sk_{uuid.uuid4().hex[:16]}", _template())
    if sqlite is not None:
        return sqlite
    template = _sqlite_template()
    copy = template.with_name(f"{uuid.uuid4().hex[:16]}.sqlite")
    shutil.copyfile(template, copy)
    return f"sqlite:///{copy}"


def empty_database_url(folder: Path) -> str:
    """A new database with nothing in it, not even a schema, for the migrations' own
    tests: on the PostgreSQL server when there is one, else a SQLite file in ``folder``."""
    if on_postgresql():
        return _create(f"sk_empty_{os.getpid()}_{uuid.uuid4().hex[:8]}")
    return f"sqlite:///{folder / f'empty-{uuid.uuid4().hex[:8]}.sqlite'}"


def forget(url: str) -> None:
    """Remove a copy ``database_url`` made, once its app is done with it."""
    if on_postgresql() or _sqlite_template.cache_info().currsize == 0:
        return
    path = Path(url.removeprefix("sqlite:///"))
    if path.parent == _sqlite_template().parent:
        for file in (path, path.with_name(path.name + "-wal"),
                     path.with_name(path.name + "-shm")):
            file.unlink(missing_ok=True)


def end_every_connection(url: str) -> int:
    """What a restart of the server does to the connections to ``url``'s database: each
    ends (the server says so and closes it). How many were ended."""
    return _admin().execute(text(
        "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid, 10000))"
        " FROM pg_stat_activity WHERE datname = :name"),
        {"name": make_url(url).database}).scalar_one()


def drop_created() -> None:
    """Drop the databases this process made (connections still open are closed)."""
    if _sqlite_template.cache_info().currsize:
        shutil.rmtree(_sqlite_template().parent, ignore_errors=True)
        _sqlite_template.cache_clear()
    if not (on_postgresql() and CREATED):
        return
    for name in reversed(CREATED):
        _admin().exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    CREATED.clear()


def restored_database_url(dump: Path) -> str:
    """A new database on the PostgreSQL server holding what ``dump`` (plain SQL, as
    ``pg_dump --inserts`` writes it) holds: a released version's database, as it left it."""
    name = f"sk_restored_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    url = _create(name)
    engine = create_engine(url)
    with engine.begin() as connection:
        connection.exec_driver_sql(dump.read_text())  # with no parameters: many statements
    engine.dispose()
    return url
