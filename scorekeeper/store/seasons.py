"""A club's seasons: listed, checked against each other, kept and deleted. A season
holds no figure: its standings are worked out from the hands (``figures.standings``)."""
from __future__ import annotations

from datetime import date

from sqlmodel import Session, select

from scorekeeper.store.models import Club, Season


def club_seasons(session: Session, club_id: int) -> list[Season]:
    """The club's seasons, the latest first."""
    return list(session.exec(select(Season).where(Season.club_id == club_id)
                             .order_by(Season.starts_on.desc(), Season.id.desc())))  # type: ignore[attr-defined]


def overlapping(session: Session, club_id: int, starts_on: date, ends_on: date,
                season_id: int | None = None) -> Season | None:
    """The club's season (other than ``season_id``) that shares a day with the dates
    given, both included; None when none does."""
    query = select(Season).where(Season.club_id == club_id, Season.starts_on <= ends_on,
                                 Season.ends_on >= starts_on)
    if season_id is not None:
        query = query.where(Season.id != season_id)
    return session.exec(query.order_by(Season.starts_on)).first()


def keep_season(session: Session, season: Season, before: dict | None = None
                ) -> Season | None:
    """Write a new season, or a changed one (``before``: its columns as they were),
    unless it shares a day with another: then it is taken back (the new one deleted, the
    changed one as it was) and that other season returned.

    Checked again once written, so that two owners (or a double tap) saving at once
    can't both keep overlapping seasons: of two new ones the first made stays. The
    club's row is held from before the write to its commit, so that the first made is
    the first committed: on PostgreSQL an id is handed out at the write, and without it
    the season written first could be committed last and both would stay (SQLite writes
    one at a time already)."""
    session.exec(select(Club.id).where(Club.id == season.club_id).with_for_update())
    session.add(season)
    session.commit()
    session.refresh(season)
    other = overlapping(session, season.club_id, season.starts_on, season.ends_on, season.id)
    if other is None or (before is None and other.id > season.id):
        return None
    if before is None:
        session.delete(season)
    else:
        for column, value in before.items():
            setattr(season, column, value)
    session.commit()
    return other


def delete_season(session: Session, season: Season) -> None:
    """Delete a season: its evenings and games stay, and count in the lifetime figures."""
    session.delete(season)
    session.commit()
