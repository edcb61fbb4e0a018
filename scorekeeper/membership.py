"""Clubs as private spaces: their owners, invite links and codes, members and devices."""
from __future__ import annotations

import secrets
from datetime import timedelta

from sqlmodel import Session, delete, func, select

from scorekeeper.access import OWNER, SCORER, VIEWER, new_device
from scorekeeper.models import Club, Device, Game, Invite, JoinAttempt, Member, utcnow

# A short code is typed at the table: 8 letters and digits that can't be mistaken for
# one another (no I, L, O or U), 40 random bits. Guessing is slowed to a few tries.
CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
CODE_LENGTH = 8
TRIES = 10  # codes one address may try ...
TRY_WINDOW = timedelta(minutes=10)  # ... in this long
# An owner's links make scorers and viewers; the server's commands may make an owner too.
ROLES = (OWNER, SCORER, VIEWER)


def anyone_is_member(session: Session) -> bool:
    return session.exec(select(func.count()).select_from(Member)).one() > 0


def may_create_club(session: Session, open_signup: bool) -> bool:
    """A fresh install's first visitor may; after that only where sign-up is open."""
    return open_signup or not anyone_is_member(session)


def create_club(session: Session, club_name: str, owner_name: str,
                label: str = "") -> tuple[Club, Member, str]:
    """A club with its owner and the owner's device; returns the device cookie too.

    On a fresh install (nobody is a member yet) the club already holding the games
    recorded so far, if any, is the one named: nothing recorded is left behind.
    """
    club = None
    if not anyone_is_member(session):
        club = session.exec(select(Club).order_by(Club.id)).first()
    if club is None:
        club = Club(name=club_name)
    club.name = club_name
    session.add(club)
    session.flush()
    owner = Member(club_id=club.id, name=owner_name, role=OWNER)
    session.add(owner)
    session.flush()
    cookie = new_device(session, owner, label)
    session.commit()
    return club, owner, cookie


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def shown_code(code: str) -> str:
    return f"{code[:4]}-{code[4:]}"


def typed_code(text: str) -> str:
    """What was typed, read as a code: case, spaces and dashes don't matter, nor O for 0."""
    cleaned = "".join(ch for ch in text.upper() if ch.isalnum())
    return cleaned.translate(str.maketrans("OIL", "011"))


def new_invite(session: Session, club: Club, role: str, by: Member | None = None,
               game: Game | None = None) -> Invite:
    """A link and code to join ``club`` as ``role`` (optionally opening one game)."""
    if role not in ROLES:
        raise ValueError(f"an invite is for an owner, a scorer or a viewer, not {role!r}")
    invite = Invite(club_id=club.id, role=role, token=secrets.token_urlsafe(24),
                    code=new_code(), created_by=by.id if by else None,
                    game_id=game.id if game else None)
    session.add(invite)
    session.commit()
    return invite


def game_invite(session: Session, club: Club, role: str, by: Member, game: Game) -> Invite:
    """The game's live link for ``role``, made the first time it is asked for."""
    invite = session.exec(
        select(Invite).where(Invite.club_id == club.id, Invite.game_id == game.id,
                             Invite.role == role, Invite.revoked_at.is_(None))  # type: ignore[union-attr]
        .order_by(Invite.id)
    ).first()
    return invite or new_invite(session, club, role, by, game)


def live_invite(session: Session, *, token: str | None = None,
                code: str | None = None) -> Invite | None:
    """The unrevoked invite with that token or code, else None."""
    query = select(Invite).where(Invite.revoked_at.is_(None))  # type: ignore[union-attr]
    if token is not None:
        query = query.where(Invite.token == token)
    elif code is not None:
        query = query.where(Invite.code == code)
    else:
        return None
    return session.exec(query).first()


def too_many_tries(session: Session, client: str) -> bool:
    """Note one more code typed from ``client``; whether it is over the limit."""
    now = utcnow()
    session.exec(delete(JoinAttempt).where(JoinAttempt.at < now - timedelta(days=1)))
    recent = session.exec(
        select(func.count()).select_from(JoinAttempt)
        .where(JoinAttempt.client == client, JoinAttempt.at > now - TRY_WINDOW)
    ).one()
    session.add(JoinAttempt(client=client[:64], at=now))
    session.commit()
    return recent >= TRIES


def add_member(session: Session, club_id: int, name: str, role: str,
               label: str = "") -> tuple[Member, str]:
    """A new member of the club with their first device; returns the device cookie too."""
    member = Member(club_id=club_id, name=name, role=role)
    session.add(member)
    session.flush()
    cookie = new_device(session, member, label)
    session.commit()
    return member, cookie


def join(session: Session, invite: Invite, name: str, label: str = "") -> tuple[Member, str]:
    """A new member of the invite's club with its role; returns the device cookie too."""
    return add_member(session, invite.club_id, name, invite.role, label)


def revoke(session: Session, invite: Invite) -> None:
    if invite.revoked_at is None:
        invite.revoked_at = utcnow()
        session.add(invite)
        session.commit()


def club_invites(session: Session, club: Club) -> list[Invite]:
    return list(session.exec(
        select(Invite).where(Invite.club_id == club.id, Invite.revoked_at.is_(None))  # type: ignore[union-attr]
        .order_by(Invite.id)
    ))


def club_members(session: Session, club: Club) -> list[Member]:
    return list(session.exec(
        select(Member).where(Member.club_id == club.id, Member.removed_at.is_(None))  # type: ignore[union-attr]
        .order_by(Member.created_at, Member.id)
    ))


def member_devices(session: Session, member: Member) -> list[Device]:
    return list(session.exec(
        select(Device).where(Device.member_id == member.id,
                             Device.forgotten_at.is_(None))  # type: ignore[union-attr]
        .order_by(Device.created_at, Device.id)
    ))


def forget_device(session: Session, device: Device) -> None:
    device.forgotten_at = utcnow()
    session.add(device)
    session.commit()


def remove_member(session: Session, member: Member) -> None:
    """The member leaves the club: their devices no longer open it."""
    member.removed_at = utcnow()
    session.add(member)
    session.commit()
