"""Two owners (or a double tap) saving the same season at once keep one season.

On PostgreSQL a row's id is handed out when it is written, not when it is committed:
the season written first may be committed last. Here one save is held between its
write and its commit while the other runs, and then let go: only one season may stay.
"""
from __future__ import annotations

import threading
import time
from datetime import date

import pytest
from sqlalchemy import text
from sqlmodel import Session, func, select

from scorekeeper.store.models import Club, Season
from scorekeeper.store.seasons import keep_season
from tests.databases import on_postgresql

pytestmark = pytest.mark.skipif(
    not on_postgresql(), reason="SQLite writes one at a time: its ids follow its commits")

PATIENCE = 60  # seconds: at most, on a slow machine, for what must come


def winter(club_id: int) -> Season:
    return Season(club_id=club_id, name="Winter", starts_on=date(2026, 12, 1),
                  ends_on=date(2027, 2, 28))


def waiting_for_a_lock(engine) -> bool:
    with engine.connect() as connection:
        return connection.execute(text("SELECT count(*) FROM pg_locks WHERE NOT granted")
                                  ).scalar_one() > 0


def until(done, patience: float = PATIENCE) -> None:
    """Return as soon as ``done()`` holds; fail if it never comes."""
    deadline = time.monotonic() + patience
    while not done():
        assert time.monotonic() < deadline, "what the test waited for never came"
        time.sleep(0.02)


def test_a_season_written_first_and_committed_last_is_not_kept_twice(app):
    engine = app.extensions["db_engine"]
    with Session(engine) as session:
        club_id = session.exec(select(Club.id)).first()
    written, go = threading.Event(), threading.Event()
    kept_beside: dict[str, Season | None] = {}

    def held_save() -> None:
        with Session(engine) as session:
            commit = session.commit

            def held_commit() -> None:
                session.flush()
                written.set()
                assert go.wait(PATIENCE)
                commit()

            session.commit = held_commit
            kept_beside["held"] = keep_season(session, winter(club_id))

    def quick_save() -> None:
        with Session(engine) as session:
            kept_beside["quick"] = keep_season(session, winter(club_id))

    held = threading.Thread(target=held_save)
    held.start()
    until(written.is_set)
    quick = threading.Thread(target=quick_save)
    quick.start()
    until(lambda: not quick.is_alive() or waiting_for_a_lock(engine))
    go.set()
    held.join(PATIENCE)
    quick.join(PATIENCE)
    with Session(engine) as session:
        assert session.exec(select(func.count()).select_from(Season)).one() == 1
    # One save was kept (nothing beside it), the other told which season it overlaps.
    assert sorted(other is None for other in kept_beside.values()) == [False, True]
