"""Alembic environment: runs against the engine the app hands over."""
from alembic import context
from sqlalchemy import event
from sqlmodel import SQLModel

import scorekeeper.store.models  # noqa: F401  (registers the tables on SQLModel.metadata)
from scorekeeper.store.db import BUSY_TIMEOUT_MS

config = context.config
target_metadata = SQLModel.metadata


# Any number fixed for this app: PostgreSQL's lock that lets one process migrate at once.
MIGRATION_LOCK = 215321
# How long a SQLite worker waits for another's migration: as long as one takes on a busy
# machine (over the 15 s a page's write waits for another's, seen on a loaded machine).
MIGRATION_WAIT_MS = 300_000


def _emit_begin(connection) -> None:
    # IMMEDIATE: the write lock is taken now, so when several workers start at once the
    # others wait (the busy timeout), then find the schema up to date, instead of two
    # upgrades racing and one failing with "database is locked".
    connection.exec_driver_sql("BEGIN IMMEDIATE")


def run_migrations_online() -> None:
    engine = config.attributes["engine"]
    with engine.connect() as connection:
        sqlite = connection.dialect.name == "sqlite"
        if sqlite:
            # SQLite alters a table by copying it and dropping the old one, which the
            # other tables' foreign keys would forbid; they are checked again below.
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
            connection.exec_driver_sql(f"PRAGMA busy_timeout={MIGRATION_WAIT_MS}")
            connection.commit()
            # Python's sqlite3 opens a transaction only before INSERT/UPDATE/DELETE, so
            # the DDL would run unguarded and a migration failing half way would leave
            # half a schema behind. An explicit BEGIN makes the upgrade all or nothing.
            event.listen(connection, "begin", _emit_begin)
        applied = []
        try:
            context.configure(
                connection=connection,
                target_metadata=target_metadata,
                render_as_batch=sqlite,
                # SQLite can roll DDL back; Alembic assumes it can't.
                transactional_ddl=True if sqlite else None,
                on_version_apply=lambda **step: applied.append(step),
            )
            with context.begin_transaction():
                if connection.dialect.name == "postgresql":
                    connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
                context.run_migrations()
                if sqlite and applied:
                    broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                    if broken:
                        raise RuntimeError(f"a migration broke foreign keys: {broken[:5]}")
            connection.commit()
        finally:
            if sqlite:
                event.remove(connection, "begin", _emit_begin)
                connection.rollback()
                connection.exec_driver_sql("PRAGMA foreign_keys=ON")
                connection.exec_driver_sql(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
                connection.commit()


run_migrations_online()
