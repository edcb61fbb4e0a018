"""Getting in: the first club made on the server's own machine (or any club where sign-up
is open); everyone else joins by link or code."""
from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from flask import Blueprint, Response, abort, current_app, redirect, request, url_for
from flask_babel import gettext as _
from itsdangerous import BadSignature, URLSafeTimedSerializer

from scorekeeper.clubs.access import browser_label, current_member, remember_device
from scorekeeper.clubs.membership import (
    JOIN_SENT_AGAIN_WITHIN, ClubTaken, LinkUsed, anyone_is_member, create_club, join,
    join_again, live_invite, may_create_club, too_many_tries, typed_code, waiting_club,
)
from scorekeeper.store.db import get_session
from scorekeeper.store.models import Club, Invite
from scorekeeper.views.pages import render_page
from scorekeeper.web.forms import CodeForm, JoinForm, NewClubForm, all_errors
from scorekeeper.web.allow import Allow, allow

bp = Blueprint("join", __name__)

# The phone's key for its join, kept from the join page in a cookie that only that link's
# address gets: a phone whose join's answer was lost opens the link again, rather than
# send the form again, and is answered as the join was. Signed, so no phone makes one up;
# gone once the phone is in, so nobody later on the same phone is let in by it.
KEPT_KEY = "scorekeeper_join_key"
KEPT_KEY_SECONDS = int(JOIN_SENT_AGAIN_WITHIN.total_seconds())


def _open_signup() -> bool:
    return current_app.config["OPEN_SIGNUP"]


# Headers a proxy or tunnel adds: a request carrying one came through it, from anywhere.
PROXY_HEADERS = ("forwarded", "x-real-ip", "via")
PROXY_HEADER_PREFIX = "x-forwarded-"


def _on_the_server() -> bool:
    """Whether the browser runs on the server's own machine and asks it by one of its own
    names: a loopback address, not through a proxy (behind one, every phone's request
    reaches the app from 127.0.0.1, and with the proxy trusted its address is the
    phone's), and a loopback name (another site's name pointed at this machine is a page
    of that site, in a browser here: DNS rebinding)."""
    return _is_loopback(request.remote_addr or "") \
        and _is_loopback(urlsplit(f"//{request.host}").hostname or "") \
        and not _came_through_a_proxy()


def _came_through_a_proxy() -> bool:
    names = (name.lower() for name in request.headers.keys())
    return any(name in PROXY_HEADERS or name.startswith(PROXY_HEADER_PREFIX) for name in names)


def _is_loopback(name: str) -> bool:
    """localhost, or a loopback address (IPv4, IPv6, or IPv4 written as IPv6)."""
    if name.lower() == "localhost":
        return True
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False
    return (getattr(address, "ipv4_mapped", None) or address).is_loopback


def _may_create() -> bool:
    return may_create_club(get_session(), _open_signup(), _on_the_server())


@bp.route("/welcome", methods=["GET", "POST"])
@allow(Allow.PUBLIC)
def welcome():
    """Make a club and become its owner: the server's first club from the server's own
    machine, or any club where sign-up is open.

    A server whose club waits for its owner (made by a command, restored, or holding
    games) says how they get in, and never offers to take that club over; one with no
    club says how the first is made.
    """
    session = get_session()
    waiting = waiting_club(session)
    may_create = _may_create()
    if not may_create and waiting is None and anyone_is_member(session):
        return redirect(url_for("join.by_code"), 303)
    form = NewClubForm()
    if may_create and form.validate_on_submit():
        try:
            _club, _owner, cookie = create_club(session, form.club_name.data,
                                                form.your_name.data, browser_label(),
                                                open_signup=_open_signup())
        except ClubTaken:  # another first visitor made it (or a command did) just now
            return redirect(url_for("join.welcome"), 303)
        return remember_device(redirect(url_for("games.index"), 303), cookie)
    if not may_create and form.is_submitted():
        return redirect(url_for("join.welcome"), 303)  # the form it answers is gone
    status = 400 if form.is_submitted() else 200
    return render_page("welcome.html", status=status, form=form, messages=all_errors(form),
                       member=current_member(), waiting=waiting, may_create=may_create)


def _after_joining(invite: Invite) -> str:
    if invite.game_id is not None:
        return url_for("games.show", game_id=invite.game_id)
    return url_for("games.index")


def _key_signer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.config["SECRET_KEY"], salt="join-key")


def _link_path(invite: Invite) -> str:
    return url_for("join.by_link", token=invite.token)


def _kept_key() -> str:
    """The key this phone was given with this link's join page within the hour, else ""."""
    try:
        return _key_signer().loads(request.cookies.get(KEPT_KEY, ""), max_age=KEPT_KEY_SECONDS)
    except BadSignature:
        return ""


def _keep_key(response: Response, invite: Invite, join_key: str) -> Response:
    response.set_cookie(KEPT_KEY, _key_signer().dumps(join_key), max_age=KEPT_KEY_SECONDS,
                        path=_link_path(invite), httponly=True, samesite="Lax",
                        secure=request.is_secure)
    return response


def _let_in(invite: Invite, cookie: str) -> Response:
    """The phone in by ``invite``: its device cookie, and its join's key forgotten."""
    response = remember_device(redirect(_after_joining(invite), 303), cookie)
    response.delete_cookie(KEPT_KEY, path=_link_path(invite), httponly=True,
                           samesite="Lax", secure=request.is_secure)
    return response


@bp.route("/join/<token>", methods=["GET", "POST"])
@allow(Allow.PUBLIC)
def by_link(token: str):
    """An invite link: the club's name and the part offered, a name, and Join."""
    if len(token) > 64:
        abort(404)
    if request.method == "GET" and (again := _opened_again(token)) is not None:
        return again
    invite = live_invite(get_session(), token=token)
    if invite is None:
        return _join_sent_again(token)
    return _join_page(invite, url_for("join.by_link", token=token))


def _join_sent_again(token: str):
    """A join the link let in before it was used up (or revoked), sent again by the
    phone whose answer was lost: answered as it was the first time."""
    form = JoinForm()
    joined = join_again(get_session(), token, form.join_key.data, form.your_name.data) \
        if form.validate_on_submit() else None
    if joined is None:
        abort(404)  # revoked or never made: nothing to tell
    return _let_in(*joined)


def _opened_again(token: str) -> Response | None:
    """The link opened again by the phone its join let in, whose answer was lost (the
    phone's kept key finds the join): answered as the join was; else None."""
    key = _kept_key()
    joined = join_again(get_session(), token, key, None) if key else None
    return None if joined is None else _let_in(*joined)


def _join_page(invite: Invite, action: str):
    session = get_session()
    member = current_member()
    if member is not None and member.club_id == invite.club_id:
        # A member opening their own club's link (a QR code scanned twice): they are in
        # already, and joining again would trade their part for the link's.
        return redirect(_after_joining(invite), 303)
    form = JoinForm()
    if not form.is_submitted() and _kept_key():
        form.join_key.data = _kept_key()  # the page shown again: one key for the join
    if form.validate_on_submit() and "your_name" in request.form:
        try:
            _member, cookie = join(session, invite, form.your_name.data, browser_label(),
                                   form.join_key.data)
        except LinkUsed:
            abort(404)  # someone else used it a moment ago: it lets nobody in any more
        return _let_in(invite, cookie)
    if form.join_key.errors:
        abort(400)  # not a key this app's form makes
    status = 400 if form.is_submitted() and "your_name" in request.form else 200
    messages = all_errors(form) if status == 400 else []
    page = render_page("join.html", status=status, form=form, invite=invite, action=action,
                       club=session.get(Club, invite.club_id), messages=messages,
                       member=member)
    return _keep_key(page, invite, form.join_key.data) if form.join_key.data else page


@bp.route("/join", methods=["GET", "POST"])
@allow(Allow.PUBLIC)
def by_code():
    """A short code typed at the table; tries are limited so codes can't be guessed."""
    session = get_session()
    form = CodeForm()
    messages: list[str] = []
    status = 200
    if form.validate_on_submit():
        if too_many_tries(session, request.remote_addr or "unknown"):
            messages, status = [_("Too many tries. Wait a few minutes, then try again.")], 429
        else:
            invite = live_invite(session, code=typed_code(form.code.data))
            if invite is not None:
                return _join_page(invite, url_for("join.by_code_joining", token=invite.token))
            messages, status = [_("No club has that code. Check it with whoever gave it to "
                                  "you: codes can be revoked.")], 400
    elif form.is_submitted():
        messages, status = all_errors(form), 400
    return render_page("join_code.html", status=status, form=form, messages=messages,
                       may_create=_may_create())


@bp.post("/join/<token>/name")
@allow(Allow.PUBLIC)
def by_code_joining(token: str):
    """The name form shown after a right code posts here, with the invite's token."""
    return by_link(token)
