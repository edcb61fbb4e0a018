"""A club's seasons: listed, checked against each other, kept and deleted. A season
holds no figure: its standings are worked out from the hands (``figures.standings``)."""
from __future__ import annotations

from datetime import date

from sqlmodel import Session, select

from scorekeeper.store.models import Season


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


def keep_season(session: Session, season: Season) -> Season:
    """Write a new or changed season."""
    session.add(season)
    session.commit()
    session.refresh(season)
    return season


def delete_season(session: Session, season: Season) -> None:
    """Delete a season: its evenings and games stay, and count in the lifetime figures."""
    session.delete(season)
    session.commit()
