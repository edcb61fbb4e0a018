"""Schema migrations (Alembic), run on every start so no one has to remember them."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Engine

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
