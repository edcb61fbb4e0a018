"""Owners (or a double tap) saving overlapping seasons at once keep one season.

Each save is checked once committed: of new seasons that overlap, the first made
stays. Here saves are held at the moments where another can slip in: between a
season's write and its commit (on PostgreSQL a row's id is handed out at the write, so
the season written first may be committed last), and between its commit and its check.
"""
from __future__ import annotations

import threading
from datetime import date

import pytest
from sqlalchemy import text
from sqlmodel import Session, select

from scorekeeper.store.models import Club, Season
from scorekeeper.store.seasons import keep_season
from tests.databases import on_postgresql
from tests.patience import PATIENCE, until


def winter(club_id: int, starts_on: date = date(2026, 12, 1),
           ends_on: date = date(2027, 2, 28)) -> Season:
    return Season(club_id=club_id, name="Winter", starts_on=starts_on, ends_on=ends_on)


def waiting_for_a_lock(engine, backend: int) -> bool:
    """Whether that PostgreSQL connection waits for a lock (the server's other
    databases, other tests', have locks of their own)."""
    with engine.connect() as connection:
        return connection.execute(
            text("SELECT count(*) FROM pg_locks WHERE NOT granted AND pid = :pid"),
            {"pid": backend}).scalar_one() > 0


def seasons_kept(engine) -> list[tuple[date, date]]:
    with Session(engine) as session:
        return list(session.exec(select(Season.starts_on, Season.ends_on).order_by(Season.id)))


def the_club(engine) -> int:
    with Session(engine) as session:
        return session.exec(select(Club.id)).first()


@pytest.mark.skipif(not on_postgresql(),
                    reason="SQLite writes one at a time: its ids follow its commits")
def test_a_season_written_first_and_committed_last_is_not_kept_twice(app):
    engine = app.extensions["db_engine"]
    club_id = the_club(engine)
    written, go = threading.Event(), threading.Event()
    backend: list[int] = []
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
            backend.append(session.connection().exec_driver_sql(
                "SELECT pg_backend_pid()").scalar_one())
            kept_beside["quick"] = keep_season(session, winter(club_id))

    held = threading.Thread(target=held_save)
    quick = threading.Thread(target=quick_save)
    held.start()
    try:
        until(written.is_set)
        quick.start()
        until(lambda: not quick.is_alive() or (backend and waiting_for_a_lock(engine, backend[0])))
    finally:
        go.set()
        held.join(PATIENCE)
        quick.join(PATIENCE)
    assert not held.is_alive() and not quick.is_alive()
    assert len(seasons_kept(engine)) == 1
    # One save was kept (nothing beside it), the other told which season it overlaps.
    assert sorted(other is None for other in kept_beside.values()) == [False, True]


def test_of_seasons_saved_at_once_the_first_made_stays_whatever_their_dates(app):
    """Three owners save three overlapping seasons; the second and third are both
    committed before either is checked. The second must not take the third (which
    starts first) for the one to yield to: the first made stays, alone."""
    engine = app.extensions["db_engine"]
    club_id = the_club(engine)
    with Session(engine) as session:
        assert keep_season(session, winter(club_id, date(2026, 12, 10),
                                           date(2026, 12, 20))) is None
    committed = {name: threading.Event() for name in ("second", "third")}
    check = {name: threading.Event() for name in ("second", "third")}
    told: dict[str, Season | None] = {}

    def save(name: str, season: Season) -> None:
        with Session(engine) as session:
            refresh = session.refresh

            def held_refresh(row) -> None:  # committed; checked once let go
                committed[name].set()
                assert check[name].wait(PATIENCE)
                refresh(row)

            session.refresh = held_refresh
            told[name] = keep_season(session, season)

    second = threading.Thread(target=save, args=(
        "second", winter(club_id, date(2026, 12, 15), date(2026, 12, 25))))
    third = threading.Thread(target=save, args=(
        "third", winter(club_id, date(2026, 12, 1), date(2026, 12, 31))))
    try:
        second.start()
        until(committed["second"].is_set)
        third.start()
        until(committed["third"].is_set)
        check["second"].set()
        second.join(PATIENCE)
    finally:
        for event in check.values():
            event.set()
        second.join(PATIENCE)
        third.join(PATIENCE)
    assert not second.is_alive() and not third.is_alive()
    assert seasons_kept(engine) == [(date(2026, 12, 10), date(2026, 12, 20))]
    assert told["second"] is not None and told["third"] is not None
