"""The database each test's app runs on: SQLite, or PostgreSQL when asked for.

With ``TEST_DATABASE_URL`` naming a PostgreSQL server (``.ci/run`` starts one for its
second run of the suite), every app a test makes gets a database of its own, cloned
from a template migrated once per test process. Without it, tests use SQLite, in
memory or in the file they name.
"""
from __future__ import annotations

import os
import uuid
from functools import lru_cache

from sqlalchemy import create_engine
from sqlalchemy.engine import make_url

SERVER = os.environ.get("TEST_DATABASE_URL", "")
CREATED: list[str] = []  # this process's databases, dropped when the session ends


def on_postgresql() -> bool:
    return SERVER.startswith("postgresql")


def _admin():
    return create_engine(SERVER, isolation_level="AUTOCOMMIT")


def _create(name: str, template: str | None = None) -> str:
    """Make database ``name`` (a copy of ``template``, if given); its URL."""
    CREATED.append(name)
    admin = _admin()
    with admin.connect() as connection:
        copy = f' TEMPLATE "{template}"' if template else ""
        connection.exec_driver_sql(f'CREATE DATABASE "{name}"{copy}')
    admin.dispose()
    return make_url(SERVER).set(database=name).render_as_string(hide_password=False)


@lru_cache(maxsize=1)
def _template() -> str:
    """A database migrated to the newest schema, to clone each test's from."""
    from scorekeeper.db import make_engine
    from scorekeeper.migrate import upgrade

    name = f"sk_template_{os.getpid()}_{uuid.uuid4().hex[:6]}"
    engine = make_engine(_create(name))
    upgrade(engine)
    engine.dispose()  # a template can't be copied while anyone is connected to it
    return name


def database_url(sqlite: str = "sqlite://") -> str:
    """A new, empty database (migrated, with its first club) for one app."""
    if not on_postgresql():
        return sqlite
    return _create(f"sk_{uuid.uuid4().hex[:16]}", _template())


def drop_created() -> None:
    """Drop the databases this process made (connections still open are closed)."""
    if not (on_postgresql() and CREATED):
        return
    admin = _admin()
    with admin.connect() as connection:
        for name in reversed(CREATED):
            connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    admin.dispose()
    CREATED.clear()
