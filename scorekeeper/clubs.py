"""Clubs and their rosters."""
from __future__ import annotations

from sqlmodel import Session, select

from scorekeeper.models import Club, Game, Player

DEFAULT_CLUB_NAME = "Our table"
# The largest id an INTEGER column holds (PostgreSQL's; SQLite's is larger): a bigger
# number in a URL or a command is no game, not an overflow in the database driver.
MAX_ID = 2**31 - 1


def ensure_default_club(session: Session) -> Club:
    club = session.exec(select(Club).order_by(Club.id)).first()
    if club is None:
        club = Club(name=DEFAULT_CLUB_NAME)
        session.add(club)
        session.commit()
        session.refresh(club)
    return club


def current_club(session: Session) -> Club:
    """The club of the member this request comes from (views run only for members)."""
    from flask import abort

    from scorekeeper.access import current_member

    member = current_member()
    if member is None:
        abort(404)
    return session.get(Club, member.club_id)


def command_club(session: Session, club_id: int | None) -> Club:
    """The club a command acts for: the one named, else the first (the only one, mostly)."""
    import click

    club = session.get(Club, club_id) if club_id else ensure_default_club(session)
    if club is None:
        raise click.ClickException(f"there is no club {club_id}")
    return club


def name_key(name: str) -> str:
    return clean_name(name).casefold()


def clean_name(name: str) -> str:
    """A name on one line: runs of spaces (and line breaks) become one space."""
    return " ".join(name.split())


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
