"""A database whose tables lack what the models need stops the app at start with one
sentence naming what is missing, whatever revision it is stamped at (a migration moved
after a database ran it leaves such a stamp), and /healthz says so instead of "ok".

On the test database: SQLite, and PostgreSQL in CI's second run.
"""
from __future__ import annotations

from importlib import metadata

import pytest
from sqlalchemy import text

from scorekeeper import create_app
from scorekeeper.store.db import make_engine
from scorekeeper.store.migrate import SchemaMismatch, newest
from tests.databases import database_url


def started(url: str):
    return create_app({"TESTING": True, "DATABASE_URL": url, "SECRET_KEY": "t"})


def stamped_at_head_without(statement: str) -> str:
    """A database at the newest revision, then changed by ``statement``: its URL."""
    url = database_url()
    engine = make_engine(url)
    with engine.begin() as connection:
        connection.execute(text(statement))
    engine.dispose()
    return url


def test_a_database_at_the_newest_migration_without_a_table_stops_the_start():
    url = stamped_at_head_without("DROP TABLE player_pairs")
    with pytest.raises(SchemaMismatch) as stopped:
        started(url)
    (revision,) = newest()
    assert str(stopped.value).startswith(
        f"The database is at migration {revision} but lacks table player_pairs: ")
    assert str(stopped.value).count(".") == 1 and str(stopped.value).endswith("new database.")


def test_a_database_at_the_newest_migration_without_a_column_stops_the_start():
    url = stamped_at_head_without("ALTER TABLE hand DROP COLUMN confirmed_team")
    with pytest.raises(SchemaMismatch,
                       match=r"but lacks column hand\.confirmed_team: "):
        started(url)


def test_healthz_is_ok_with_the_version_and_says_what_is_missing_once_it_is():
    app = started(database_url())
    client = app.test_client()
    healthy = client.get("/healthz")
    assert (healthy.status_code, healthy.text) == (200, "ok\n")
    assert healthy.headers["Scorekeeper-Version"] == metadata.version("scorekeeper")
    with app.extensions["db_engine"].begin() as connection:
        connection.execute(text("DROP TABLE player_pairs"))  # after the start, by hand
    broken = client.get("/healthz")
    assert broken.status_code == 503
    assert "but lacks table player_pairs: " in broken.text
    assert broken.headers["Scorekeeper-Version"] == metadata.version("scorekeeper")
    app.extensions["db_engine"].dispose()
