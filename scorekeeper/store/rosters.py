"""Clubs and their rosters, as the database holds them."""
from __future__ import annotations

from sqlalchemy import or_
from sqlmodel import Session, select

from scorekeeper.store.models import MAX_ID, Club, Game, Invite, Player, utcnow
from scorekeeper.text.names import clean_name, name_key


def live_invites():
    """The query of invite links that still let someone in: neither revoked nor past
    their time (the join pages, the club page and the server's backups read them)."""
    return select(Invite).where(
        Invite.revoked_at.is_(None),  # type: ignore[union-attr]
        or_(Invite.expires_at.is_(None), Invite.expires_at > utcnow()),  # type: ignore[union-attr]
    )


def roster(session: Session, club: Club) -> list[Player]:
    return list(session.exec(
        select(Player).where(Player.club_id == club.id).order_by(Player.name)
    ))


def find_or_add_player(session: Session, club: Club, name: str) -> Player:
    """The roster's player of that name, added if new (no commit)."""
    key = name_key(name)
    player = session.exec(
        select(Player).where(Player.club_id == club.id, Player.name_key == key)
    ).first()
    if player is None:
        player = Player(club_id=club.id, name=clean_name(name), name_key=key)
        session.add(player)
        session.flush()
    return player


def club_row(session: Session, club_id: int, model, row_id: int):
    """The club's row of that id, or None (another club's rows are none of its business)."""
    if not 0 < row_id <= MAX_ID:
        return None
    row = session.get(model, row_id)
    return row if row is not None and row.club_id == club_id else None


def club_game(session: Session, club: Club, game_id: int) -> Game | None:
    return club_row(session, club.id, Game, game_id)
