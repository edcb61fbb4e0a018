"""Schema migrations (Alembic), run on every start so no one has to remember them."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import click
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Engine
from sqlmodel import SQLModel

import scorekeeper.store.models  # noqa: F401  (the tables the schema is checked against)

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def alembic_config(engine: Engine) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["engine"] = engine
    return config


@lru_cache(maxsize=1)
def newest() -> frozenset[str]:
    """The newest revision(s) of the schema, read from the scripts once per process."""
    return frozenset(ScriptDirectory(str(MIGRATIONS)).get_heads())


def revisions_of(engine: Engine) -> frozenset[str]:
    """The revision(s) the database is at (none for an empty one)."""
    with engine.connect() as connection:
        return frozenset(MigrationContext.configure(connection).get_current_heads())


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the database up to ``revision`` (the newest by default). A database already
    at the newest is only read: the scripts are loaded and run when there is work."""
    if revision == "head" and revisions_of(engine) == newest():
        return
    command.upgrade(alembic_config(engine), revision)


class StartRefused(click.ClickException):
    """The app can't start on this database, said in one sentence. A ClickException, so
    a command (the nightly backup's among them) says it on one line and exits with 1,
    where a traceback would bury it; gunicorn's log ends with it."""


class SchemaMismatch(StartRefused):
    """The database's tables lack what the models need: the app must not start on it."""


# Every table and its columns, in one query: a start pays for one round trip, not one
# per table (alembic's compare_metadata reflects each table and costs far more).
COLUMNS_QUERY = {
    "sqlite": "SELECT m.name, c.name FROM sqlite_master AS m, pragma_table_info(m.name) AS c"
              " WHERE m.type = 'table'",
    # pg_catalog's own tables: information_schema's view of them takes twice as long.
    "postgresql": "SELECT t.relname, c.attname FROM pg_class AS t"
                  " JOIN pg_attribute AS c ON c.attrelid = t.oid"
                  " WHERE t.relnamespace = current_schema()::regnamespace AND t.relkind = 'r'"
                  " AND c.attnum > 0 AND NOT c.attisdropped",
}


def missing_from(engine: Engine) -> list[str]:
    """What the models need that the database lacks: "table x", "column x.y". Extra
    tables or columns are no harm and go unsaid."""
    with engine.connect() as connection:
        rows = connection.exec_driver_sql(COLUMNS_QUERY[connection.dialect.name]).all()
    present: dict[str, set[str]] = {}
    for table, column in rows:
        present.setdefault(table, set()).add(column)
    missing = []
    for table in SQLModel.metadata.sorted_tables:
        if table.name not in present:
            missing.append(f"table {table.name}")
            continue
        missing.extend(f"column {table.name}.{column.name}" for column in table.columns
                       if column.name not in present[table.name])
    return missing


def check_schema(engine: Engine) -> None:
    """Stop with one sentence when the database, whatever revision it is stamped at, lacks
    a table or column of the models: a stamp that lies (a migration rewritten after a
    database ran it) would otherwise start an app whose pages fail."""
    missing = missing_from(engine)
    if missing:
        revision = ", ".join(sorted(revisions_of(engine))) or "no migration"
        raise SchemaMismatch(
            f"The database is at migration {revision} but lacks {', '.join(missing)}: "
            "this version's migrations did not make it (one was changed after it ran), "
            "so the app does not start on it; restore a backup into a new database.")
