"""Clubs as private spaces: their owners, invite links and codes, members and devices."""
from __future__ import annotations

import ipaddress
import secrets
from datetime import timedelta

from sqlalchemy import insert, literal, text, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, delete, func, select

from scorekeeper.clubs.access import (
    device_cookie_value, joined_device_token, new_device, token_hash,
)
from scorekeeper.store.models import (
    SCREEN, Club, Device, Game, Invite, JoinAttempt, Member, Role, utcnow,
)
from scorekeeper.store.rosters import live_invites
from scorekeeper.text.digits import latin_digits

# A short code is typed at the table: 8 letters and digits that can't be mistaken for
# one another (no I, L, O or U), 40 random bits. Guessing is slowed to a few tries per
# address. There is no cap on all addresses together: it would let anyone's guessing
# lock everyone out, and it isn't needed: even ten thousand addresses at their limit
# try about 1.4e7 codes a day against 1.1e12, so finding one takes about 200 years.
CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
CODE_LENGTH = 8
TRIES = 10  # codes one address (an IPv6 network's /64) may try ...
TRY_WINDOW = timedelta(minutes=10)  # ... in this long
SHARE_LINK_LIFE = timedelta(hours=16)  # a game's share links: the evening, and the night
# A join whose answer was lost is answered again if the phone sends it again this soon.
JOIN_SENT_AGAIN_WITHIN = timedelta(hours=1)
# An owner's links make scorers and viewers; the server's commands may make an owner too.
ROLES = tuple(Role)
# What a link may be: one of those, or a screen link, which makes nobody a member.
LINK_ROLES = (*ROLES, SCREEN)


def anyone_is_member(session: Session) -> bool:
    return session.exec(select(func.count()).select_from(Member)).one() > 0


def _first_club(session: Session) -> Club | None:
    return session.exec(select(Club).order_by(Club.id)).first()


def waiting_club(session: Session) -> Club | None:
    """The club a server holds before anyone is a member: made by ``create-club``,
    restored from a backup, or keeping games from before clubs had members. No visitor
    may take it: its owner gets in by the one-time link a command prints
    (``fresh_owner_link``)."""
    return None if anyone_is_member(session) else _first_club(session)


def may_create_club(session: Session, open_signup: bool, on_the_server: bool) -> bool:
    """Anyone may where sign-up is open; else only the first club, and only from a
    browser on the server's own machine (``on_the_server``): a server reachable from
    elsewhere is never taken by whoever finds it first."""
    return open_signup or (on_the_server and _first_club(session) is None)


class ClubTaken(Exception):
    """Someone else made the first club a moment ago."""


def create_club(session: Session, club_name: str, owner_name: str,
                label: str = "", open_signup: bool = False) -> tuple[Club, Member, str]:
    """A club with its owner and the owner's device; returns the device cookie too.

    Where sign-up is open, a club of the visitor's own. Else it is the server's first
    club, made only while there is none, so two first visitors at the same moment can't
    both become owners (ClubTaken for the later one). Who may ask is the caller's
    question (``may_create_club``).
    """
    club = Club(name=club_name) if open_signup else _made_first_club(session, club_name)
    session.add(club)
    session.flush()
    owner, cookie = add_member(session, club.id, owner_name, Role.OWNER, label)
    return club, owner, cookie


def _made_first_club(session: Session, club_name: str) -> Club:
    """The first club, made by one statement that inserts it only into a server with
    no club: SQLite runs it under its one writer's lock; PostgreSQL checks under a lock
    on the clubs that every other maker of a first club waits for."""
    if session.get_bind().dialect.name == "postgresql":
        session.execute(text("LOCK TABLE club IN SHARE ROW EXCLUSIVE MODE"))
    created_at = literal(utcnow(), Club.__table__.c.created_at.type)
    made = session.execute(insert(Club).from_select(
        ["name", "created_at"],
        select(literal(club_name), created_at).where(~select(Club.id).exists()),
    ).returning(Club.id)).scalar_one_or_none()
    if made is None:
        session.rollback()
        raise ClubTaken()
    return session.get(Club, made)


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def shown_code(code: str) -> str:
    return f"{code[:4]}-{code[4:]}"


def typed_code(text: str) -> str:
    """What was typed, read as a code: case, spaces and dashes don't matter, nor O for 0."""
    # Persian (or Arabic) digits, as a Persian keyboard types the code, read as 0-9.
    cleaned = "".join(ch for ch in latin_digits(text).upper() if ch.isalnum())
    return cleaned.translate(str.maketrans("OIL", "011"))


def new_invite(session: Session, club: Club, role: str, by: Member | None = None,
               game: Game | None = None) -> Invite:
    """A link and code to join ``club`` as ``role`` (optionally opening one game), or a
    screen link (``SCREEN``: its code is never shown, nor taken).

    A game's links last the evening (SHARE_LINK_LIFE); the club's last until revoked: a
    screen link too, as it shows whichever evening is tonight's, every week.
    """
    if role not in LINK_ROLES:
        raise ValueError(f"an invite is for an owner, a scorer, a viewer or a screen, "
                         f"not {role!r}")
    invite = Invite(club_id=club.id, role=role, token=secrets.token_urlsafe(24),
                    code=new_code(), created_by=by.id if by else None,
                    game_id=game.id if game else None,
                    expires_at=utcnow() + SHARE_LINK_LIFE if game else None)
    session.add(invite)
    session.commit()
    return invite


def fresh_owner_link(session: Session, club: Club) -> tuple[Invite, int]:
    """A one-time link that makes whoever opens it first the club's owner (``join``
    uses it up), in place of the club's earlier owner links nobody has used: only the
    newest printed lets anyone in. Returns it and how many were revoked."""
    revoked = session.execute(
        update(Invite).where(Invite.club_id == club.id, Invite.role == Role.OWNER,
                             Invite.revoked_at.is_(None))  # type: ignore[union-attr]
        .values(revoked_at=utcnow())
    ).rowcount
    return new_invite(session, club, Role.OWNER), revoked  # committed with the revoking


def game_invite(session: Session, club: Club, role: str, game: Game) -> Invite | None:
    """The game's live link for ``role``, if there is one."""
    return session.exec(
        live_invites().where(Invite.club_id == club.id, Invite.game_id == game.id,
                              Invite.role == role).order_by(Invite.id)
    ).first()


def live_invite(session: Session, *, token: str | None = None,
                code: str | None = None, screens: bool = False) -> Invite | None:
    """The live invite with that token or code, else None; a screen link only where
    asked (``screens``): it lets nobody join."""
    query = live_invites() if screens else live_invites().where(Invite.role != SCREEN)
    if token is not None:
        query = query.where(Invite.token == token)
    elif code is not None:
        query = query.where(Invite.code == code)
    else:
        return None
    return session.exec(query).first()


def screen_club(connection: Connection, token: str) -> int | None:
    """The club whose live screen link ``token`` is, else None: one small read, without
    the ORM (a screen's poll asks it, and the process's watch four times a second)."""
    return connection.execute(
        live_invites().with_only_columns(Invite.club_id)
        .where(Invite.token == token, Invite.role == SCREEN)).scalar()


def client_key(address: str) -> str:
    """Who is trying, for counting: an IPv4 address, or an IPv6 address's /64 network
    (one household or phone gets a whole /64 and could try from every address in it)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address[:64]
    if ip.version == 6:
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def too_many_tries(session: Session, address: str) -> bool:
    """Note one more code typed from ``address``; whether it is over a limit."""
    now = utcnow()
    client = client_key(address)
    session.exec(delete(JoinAttempt).where(JoinAttempt.at < now - timedelta(days=1)))
    mine = session.exec(select(func.count()).select_from(JoinAttempt).where(
        JoinAttempt.at > now - TRY_WINDOW, JoinAttempt.client == client)).one()
    session.add(JoinAttempt(client=client, at=now))
    session.commit()
    return mine >= TRIES


def add_member(session: Session, club_id: int, name: str, role: str, label: str = "",
               invite: Invite | None = None, device_token: str | None = None
               ) -> tuple[Member, str]:
    """A new member of the club with their first device (its token a random one unless
    given); returns the device cookie too."""
    member = Member(club_id=club_id, name=name, role=role,
                    invite_id=invite.id if invite else None)
    session.add(member)
    session.flush()
    cookie = new_device(session, member, label, device_token)
    session.commit()
    return member, cookie


class LinkUsed(Exception):
    """A single-use link was used a moment ago, by someone else."""


def join(session: Session, invite: Invite, name: str, label: str = "",
         join_key: str = "") -> tuple[Member, str]:
    """A new member of the invite's club with its role; returns the device cookie too.

    A link that makes an owner works once: it is revoked as it is used, by the statement
    that checks it is still live, so of several people tapping it at once one gets in
    (LinkUsed for the others). ``join_key`` is the phone's key for this join (its form
    carries it): sent again because the answer was lost, however many copies come at
    once, the join is made once and each copy answered as the first (``joined_before``).
    """
    earlier = joined_before(session, invite, join_key, name)
    if earlier is not None:
        return earlier
    try:
        return _join_once(session, invite, name, label, join_key)
    except (LinkUsed, IntegrityError):  # used a moment ago: by someone else, or this join
        session.rollback()
        earlier = joined_before(session, invite, join_key, name)
        if earlier is None:
            raise LinkUsed() from None
        return earlier


def _join_once(session: Session, invite: Invite, name: str, label: str,
               join_key: str) -> tuple[Member, str]:
    """The join itself: the member, their device, and an owner's link used up, in one
    transaction. The device's token comes from the join's key, so a copy of the same join
    made at the same moment can't add a second device (its token is taken)."""
    if invite.role == Role.OWNER:
        used = session.execute(
            update(Invite).where(Invite.id == invite.id, Invite.revoked_at.is_(None))
            .values(revoked_at=utcnow())
        ).rowcount
        if used != 1:
            raise LinkUsed()
    token = joined_device_token(invite.token, join_key) if join_key else None
    return add_member(session, invite.club_id, name, invite.role, label, invite, token)


def joined_before(session: Session, invite: Invite, join_key: str, name: str | None
                  ) -> tuple[Member, str] | None:
    """The member a join by ``invite`` with this key and name let in lately, and the
    cookie of the device it made: the join's answer again, for the phone whose answer was
    lost. None if there is none, or that member or device has gone since (or the form
    came back with another name: someone else, after the Back button). ``name`` None:
    the key alone, read from the phone's own cookie, which it loses once it is in."""
    if not join_key:
        return None
    token = joined_device_token(invite.token, join_key)
    query = select(Member).join(Device).where(
        Device.token_hash == token_hash(token), Member.invite_id == invite.id,
        Device.created_at > utcnow() - JOIN_SENT_AGAIN_WITHIN,
        Device.forgotten_at.is_(None), Member.removed_at.is_(None),  # type: ignore[union-attr]
    )
    member = session.exec(query if name is None else query.where(Member.name == name)).first()
    return None if member is None else (member, device_cookie_value(token))


def join_again(session: Session, token: str, join_key: str, name: str | None
               ) -> tuple[Invite, str] | None:
    """A join by the link ``token`` since it let the phone in (the link may be used up,
    revoked or past its time since), sent again or the link opened again (``name`` None):
    the link, and the cookie the join was answered with."""
    invite = session.exec(select(Invite).where(Invite.token == token)).first()
    earlier = joined_before(session, invite, join_key, name) if invite is not None else None
    if earlier is None:
        return None
    _member, cookie = earlier
    return invite, cookie


def revoke(session: Session, invite: Invite) -> None:
    if invite.revoked_at is None:
        invite.revoked_at = utcnow()
        session.add(invite)
        session.commit()


def club_invites(session: Session, club: Club) -> list[Invite]:
    """The club's links that still let people in (a game's link is gone after its evening)."""
    return list(session.exec(live_invites().where(Invite.club_id == club.id).order_by(Invite.id)))


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


def remove_member(session: Session, member: Member) -> Invite | None:
    """The member leaves the club: their devices no longer open it, and the link they
    joined by is revoked so it can't let them back in; their player is free for whoever
    joins as them next. Returns that link, if any."""
    now = utcnow()
    member.removed_at = now
    member.player_id = None
    session.add(member)
    invite = session.get(Invite, member.invite_id) if member.invite_id else None
    if invite is not None and invite.revoked_at is None:
        invite.revoked_at = now
        session.add(invite)
    else:
        invite = None
    session.commit()
    return invite


def owners(session: Session, club_id: int) -> int:
    """How many owners the club has."""
    return session.exec(
        select(func.count()).select_from(Member).where(
            Member.club_id == club_id, Member.role == Role.OWNER,
            Member.removed_at.is_(None))  # type: ignore[union-attr]
    ).one()


def set_role(session: Session, member: Member, role: str) -> None:
    if role not in ROLES:
        raise ValueError(f"no such part: {role!r}")
    member.role = role
    session.add(member)
    session.commit()
