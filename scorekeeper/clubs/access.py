"""Who is asking: the member a device belongs to, and what their role lets them do.

A device is remembered by a long-lived signed cookie holding a random token; the
database keeps only the token's hash. A club's pages answer only its members: to anyone
else they don't exist (404), and a viewer's changes are refused whatever the form says.
"""
from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, replace
from datetime import timedelta

from flask import Flask, Response, abort, current_app, g, redirect, request, url_for
from itsdangerous import BadSignature, Signer, URLSafeSerializer
from sqlalchemy import bindparam, select, update
from sqlmodel import Session

from scorekeeper.store.db import commit, get_connection
from scorekeeper.store.models import DEVICE_LABEL_LENGTH, SCREEN, Device, Member, Role, utcnow
from scorekeeper.table.recording import Actor
from scorekeeper.web.allow import Allow, allowed
from scorekeeper.web.extensions import made_once

COOKIE = "scorekeeper_device"
COOKIE_DAYS = 400  # the longest a browser keeps a cookie
SEEN_EVERY = timedelta(hours=1)  # how often a device's "last seen" is written

# The roles by their own names too, as the game page asks ``can(SCORER)``.
OWNER, SCORER, VIEWER = Role.OWNER, Role.SCORER, Role.VIEWER
RANK = {Role.VIEWER: 0, Role.SCORER: 1, Role.OWNER: 2}

# Who may use each route is said on the route (``web.allow``); this module makes it so.
# A member knows the club exists, so members are told they may not (403); strangers get
# 404 from every page of a club: they learn nothing, not even that the page exists.


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _signer() -> URLSafeSerializer:
    key = current_app.config["SECRET_KEY"]
    return made_once(current_app, "device_signer", key,
                     lambda: URLSafeSerializer(key, salt="device"))


def device_cookie_value(token: str) -> str:
    return _signer().dumps(token)


def joined_device_token(invite_token: str, join_key: str) -> str:
    """The token of the device a join makes, from the link and the phone's key for that
    join: the same each time the phone sends the join again, so that its lost answer (the
    cookie) can be given again, and unknown to anyone without the server's secret."""
    key = current_app.config["SECRET_KEY"]
    signer = made_once(current_app, "joined_device_signer", key,
                       lambda: Signer(key, salt="joined-device", digest_method=hashlib.sha256))
    return signer.get_signature(f"{invite_token}:{join_key}").decode()


def new_device(session: Session, member: Member, label: str = "",
               token: str | None = None) -> str:
    """Remember a new device of ``member`` (no commit); returns its cookie's value.
    Its token is a new random one unless given."""
    token = token or secrets.token_urlsafe(32)
    session.add(Device(member_id=member.id, token_hash=token_hash(token),
                       label=" ".join(label.split())[:DEVICE_LABEL_LENGTH]))
    return device_cookie_value(token)


def remember_device(response: Response, cookie: str) -> Response:
    response.set_cookie(COOKIE, cookie, max_age=COOKIE_DAYS * 24 * 3600, httponly=True,
                        samesite="Lax", secure=request.is_secure)
    return response


# What a browser's User-Agent says, most specific first (Edge and Samsung say "Chrome"
# too, Chrome says "Safari" too).
_BROWSERS = (("EdgA/", "Edge"), ("Edg/", "Edge"), ("SamsungBrowser", "Samsung Internet"),
             ("Firefox/", "Firefox"), ("FxiOS", "Firefox"), ("OPR/", "Opera"),
             ("CriOS", "Chrome"), ("Chrome/", "Chrome"), ("Safari/", "Safari"))
_SYSTEMS = (("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"),
            ("Windows", "Windows"), ("Macintosh", "Mac"), ("CrOS", "ChromeOS"),
            ("Linux", "Linux"))


def browser_label(agent: str | None = None) -> str:
    """A few words on the browser ("Chrome on Android"), so a member can tell their
    devices apart in the list and in the change log."""
    agent = request.headers.get("User-Agent", "") if agent is None else agent
    browser = next((name for mark, name in _BROWSERS if mark in agent), None)
    system = next((name for mark, name in _SYSTEMS if mark in agent), None)
    if browser and system:
        return f"{browser} on {system}"
    return browser or system or "A browser"


@dataclass(frozen=True)
class Who:
    """The member a request comes from, as read with their device (not an ORM row: a
    change to the member reads its row by ``id``)."""

    id: int
    club_id: int
    name: str
    role: str
    player_id: int | None  # the player they are at the table (``table.confirming``)


@dataclass(frozen=True)
class ThisDevice:
    id: int
    member_id: int
    label: str


# The device and its member in one query, built once and run without the ORM: every
# request of a member asks it, a phone's poll every 2 seconds.
_DEVICE_AND_MEMBER = (
    select(Device.id, Device.label, Device.last_seen_at,
              Member.id, Member.club_id, Member.name, Member.role, Member.player_id)
    .join(Member, Member.id == Device.member_id)
    .where(Device.token_hash == bindparam("token_hash"),
           Device.forgotten_at.is_(None),  # type: ignore[union-attr]
           Member.removed_at.is_(None))  # type: ignore[union-attr]
)
_SEEN = (update(Device).where(Device.id == bindparam("device_id"))
         .values(last_seen_at=bindparam("now")))


def current_device() -> ThisDevice | None:
    if "device" not in g:
        g.device = _read_device()
    return g.device


def _read_device() -> ThisDevice | None:
    value = request.cookies.get(COOKIE)
    if not value:
        return None
    try:
        token = _signer().loads(value)
    except BadSignature:
        return None
    if not isinstance(token, str):
        return None
    connection = get_connection()
    found = connection.execute(_DEVICE_AND_MEMBER, {"token_hash": token_hash(token)}).first()
    if found is None:
        return None
    device_id, label, seen, *member = found
    g.member = Who(*member)
    now = utcnow()
    if seen is None or now - (seen if seen.tzinfo else seen.replace(tzinfo=now.tzinfo)) > SEEN_EVERY:
        connection.execute(_SEEN, {"device_id": device_id, "now": now})
        commit()
    return ThisDevice(device_id, g.member.id, label)


def current_member() -> Who | None:
    """The member this request comes from, or None for a stranger."""
    if "member" not in g:
        current_device()  # reads the member with it
        g.setdefault("member", None)
    return g.member


def now_plays_as(player_id: int | None) -> None:
    """The member of this request was just linked to a player: its answer shows them so."""
    g.member = replace(current_member(), player_id=player_id)


def actor() -> Actor:
    """The member and device making this request's change, for the game's log."""
    member, device = current_member(), current_device()
    if member is None or device is None:
        return Actor()
    return Actor(member.id, device.id, f"{member.name} ({device.label})" if device.label
                 else member.name, member.player_id)


def without_device(who: str) -> str:
    """Who made a change, without the device ``actor`` named: "Ann (Chrome on Android)"
    is "Ann", and "Ann (big) (Firefox on Linux)" is "Ann (big)". A device's label is
    the browser's few words (``browser_label``): never empty, never holding a bracket."""
    if who.endswith(")") and " (" in who:
        return who[:who.rindex(" (")]
    return who


def change_author(who: str) -> str:
    """Who made a change, as the change log shows it to this reader: which device, to
    owners only (they look after the club's devices; the others need the name)."""
    return who if can(Role.OWNER) else without_device(who)


def can(role: str) -> bool:
    """Whether the member's role is at least ``role``."""
    member = current_member()
    return member is not None and RANK[member.role] >= RANK[role]


def init_app(app: Flask) -> None:
    @app.before_request
    def members_only():
        kind = allowed(app, request.endpoint)
        if kind == Allow.SCREEN:  # its token alone decides: whoever holds the link, member
            g.member, g.device = None, None  # or not, is read as a stranger (no cookie)
            return None
        if request.endpoint is None or kind == Allow.PUBLIC:
            return None  # (no route: the 404 is routing's own)
        if kind is None:
            abort(404)  # a route that says nothing of who may use it answers nobody
        member = current_member()
        if member is None:
            if kind == Allow.FRONT:  # the front door: make a club, or join one
                return redirect(url_for("join.welcome"), 303)
            abort(404)
        if kind == Allow.OWN and member.role != Role.OWNER:
            abort(403)
        if kind == Allow.SCORE and member.role == Role.VIEWER:
            abort(403)
        if kind in (Allow.READ, Allow.FRONT) and member.role == Role.VIEWER \
                and request.method not in ("GET", "HEAD", "OPTIONS"):
            abort(403)  # a page to read changes nothing, whatever it is sent
        return None

    app.jinja_env.globals["change_author"] = change_author
    app.jinja_env.globals.update(Role=Role, SCREEN=SCREEN)  # roles by name, never by string

    @app.context_processor
    def who_is_asking() -> dict:
        return {"member": current_member(), "can_score": can(Role.SCORER),
                "is_owner": can(Role.OWNER)}
