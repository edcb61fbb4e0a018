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
                season_id: int | None = None, made_before: int | None = None
                ) -> Season | None:
    """The club's season (other than ``season_id``; made before season ``made_before``,
    if given) that shares a day with the dates given, both included; None when none
    does."""
    query = select(Season).where(Season.club_id == club_id, Season.starts_on <= ends_on,
                                 Season.ends_on >= starts_on)
    if season_id is not None:
        query = query.where(Season.id != season_id)
    if made_before is not None:
        query = query.where(Season.id < made_before)
    return session.exec(query.order_by(Season.starts_on, Season.id)).first()


def keep_season(session: Session, season: Season, before: dict | None = None
                ) -> Season | None:
    """Write a new season, or a changed one (``before``: its columns as they were),
    unless it shares a day with another: then it is taken back (the new one deleted, the
    changed one as it was) and that other season returned.

    Checked again once written, so that owners (or a double tap) saving at once can't
    keep overlapping seasons: of new ones the first made stays, each later one seeing
    it. The club's row is held from before a new season's write to its commit, so that
    the first made is the first committed: on PostgreSQL an id is handed out at the
    write, and without it the season written first could be committed last and not be
    seen by a later one (SQLite writes one at a time already). Held as FOR NO KEY
    UPDATE: games and players added to the club meanwhile don't wait for it."""
    session.exec(select(Club.id).where(Club.id == season.club_id)
                 .with_for_update(key_share=True))
    session.add(season)
    session.commit()
    session.refresh(season)
    other = overlapping(session, season.club_id, season.starts_on, season.ends_on, season.id,
                        made_before=season.id if before is None else None)
    if other is None:
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
