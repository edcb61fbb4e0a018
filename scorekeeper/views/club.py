"""The club page: its members, the links that let people in, and this member's devices."""
from __future__ import annotations

import segno
from flask import Blueprint, abort, flash, redirect, request, session as cookie_session, url_for
from flask_babel import gettext as _
from markupsafe import Markup

from scorekeeper.clubs.access import current_device, current_member
from scorekeeper.clubs.membership import (
    club_invites, club_members, forget_device, game_invite, member_devices, new_invite,
    owners, remove_member, revoke, set_role, shown_code,
)
from scorekeeper.store.db import get_session
from scorekeeper.store.models import MAX_ID, SCREEN, Device, Invite, Member, Player, Role
from scorekeeper.store.rosters import club_row, roster
from scorekeeper.table.attendance import prefer_sixes
from scorekeeper.table.confirming import confirm_by_default, link_player
from scorekeeper.text.names import typed
from scorekeeper.views.lookup import current_club, game_or_404, row_or_404
from scorekeeper.table.game_page import table_arg
from scorekeeper.views.pages import render_page
from scorekeeper.web.forms import (
    ConfirmingForm, NewLinkForm, PlainForm, PlayerForm, TablesForm, all_errors,
)
from scorekeeper.web.words import fill
from scorekeeper.web.allow import Allow, allow

bp = Blueprint("club", __name__, url_prefix="/club")
LINK_ROLE = "link_role"  # the role the owner last made a link for


def link_of(invite: Invite, table: int = 1) -> str:
    """The link's address: the join page, or a screen link's table board (``table``)."""
    if invite.role == SCREEN:
        return url_for("screens.board", screen_token=invite.token, _external=True,
                       **table_arg(table))
    return url_for("join.by_link", token=invite.token, _external=True)


def qr_svg(url: str) -> Markup:
    """The link as a QR code, an SVG drawn on the server (dark on light, 4-module margin)."""
    return Markup(segno.make(url, error="m").svg_inline(scale=4, dark="#111", light="#fff",
                                                      omitsize=True))


def _page(status: int = 200, form: NewLinkForm | None = None):
    session = get_session()
    club = current_club(session)
    member = current_member()
    invites = club_invites(session, club) if member.role == Role.OWNER else []
    remembered = {"role": cookie_session[LINK_ROLE]} if LINK_ROLE in cookie_session else {}
    players = roster(session, club)
    return render_page(
        "club.html", status=status, club=club, members=club_members(session, club),
        invites=invites, devices=member_devices(session, member),
        this_device=current_device(), link_of=link_of, qr_svg=qr_svg, shown_code=shown_code,
        link_form=form or NewLinkForm(**remembered),
        plain_form=PlainForm(), role_names=role_names(),
        tables_form=TablesForm(prefers_sixes=club.prefers_sixes),
        players=players, player_names={player.id: player.name for player in players},
    )


def role_names() -> dict[str, str]:
    return {Role.OWNER: _("owner"), Role.SCORER: _("scorer"), Role.VIEWER: _("viewer")}


@bp.get("")
@allow(Allow.READ)
def show():
    return _page()


@bp.post("/links")
@allow(Allow.OWN)
def new_link():
    """A new invite link and code for a scorer or a viewer (owners only)."""
    form = NewLinkForm()
    if not form.validate_on_submit():
        return _page(400, form)
    session = get_session()
    new_invite(session, current_club(session), form.role.data, current_member())
    cookie_session[LINK_ROLE] = form.role.data  # the picker stays at the role just chosen
    return redirect(url_for("club.show") + "#links", 303)


@bp.post("/links/<int:invite_id>/revoke")
@allow(Allow.OWN)
def revoke_link(invite_id: int):
    if not PlainForm().validate_on_submit():
        abort(400)
    revoke(get_session(), row_or_404(Invite, invite_id))
    return redirect(url_for("club.show") + "#links", 303)


@bp.post("/members/<int:member_id>/remove")
@allow(Allow.OWN)
def remove_member_(member_id: int):
    if not PlainForm().validate_on_submit():
        abort(400)
    member = row_or_404(Member, member_id)
    if member.id == current_member().id:
        abort(403)  # the owner stays: a club always has one
    if remove_member(get_session(), member) is not None:
        flash(fill(_("%(name)s is no longer a member. The link they joined by was revoked "
                     "too, so it can't let them back in: make a new one for anyone else who "
                     "needs it."), name=typed(member.name)), "notice")
    else:
        flash(fill(_("%(name)s is no longer a member."), name=typed(member.name)), "notice")
    return redirect(url_for("club.show") + "#members", 303)


@bp.post("/members/<int:member_id>/role")
@allow(Allow.OWN)
def change_role(member_id: int):
    """Give another member another part (owners only; an owner can't demote themself)."""
    form = PlainForm()
    role = request.form.get("role")
    if not form.validate_on_submit() or role not in role_names():
        abort(400)
    member = row_or_404(Member, member_id)
    if member.id == current_member().id:
        abort(403)
    set_role(get_session(), member, role)
    flash(fill(_("%(name)s is now %(role)s."), name=typed(member.name), role=role_names()[role]),
          "notice")
    return redirect(url_for("club.show") + "#members", 303)


@bp.post("/members/<int:member_id>/player")
@allow(Allow.OWN)
def link_player_(member_id: int):
    """Put right which player a member is at the table (owners only): the link moves from
    whoever had that player; 0 links them to nobody."""
    form = PlayerForm()
    session = get_session()
    member = row_or_404(Member, member_id)
    chosen = form.player_id.data if form.validate_on_submit() else None
    player = club_row(session, member.club_id, Player, chosen) if chosen else None
    if chosen is None or (chosen and player is None):
        flash(_("That player could not be found; nothing was changed."), "notice")
    else:
        link_player(session, member, player.id if player else None, moved=True)
        flash(fill(_("%(name)s is %(player)s at the table."), name=typed(member.name),
                   player=typed(player.name)) if player else
              fill(_("%(name)s is no player at the table yet."), name=typed(member.name)),
              "notice")
    return redirect(url_for("club.show") + "#members", 303)


@bp.post("/confirming")
@allow(Allow.OWN)
def confirming():
    """Whether the club's new evenings ask for each hand to be confirmed (owners only)."""
    form = ConfirmingForm()
    session = get_session()
    if not form.validate_on_submit():
        flash(" ".join(all_errors(form)), "notice")
    elif confirm_by_default(session, current_club(session), form.confirming.data == "on"):
        flash(_("From the next evening on, each hand waits for a member of another team to "
                "confirm it.") if form.confirming.data == "on" else
              _("New evenings no longer ask for hands to be confirmed."), "notice")
    return redirect(url_for("club.show") + "#confirming-club", 303)


@bp.post("/tables")
@allow(Allow.SCORE)
def tables():
    """Whether an evening's next round seats as many tables of six as fit (scorers)."""
    form = TablesForm()
    session = get_session()
    if not form.validate_on_submit():
        flash(" ".join(all_errors(form)), "notice")
    else:
        prefer_sixes(session, current_club(session), form.prefers_sixes.data)
        flash(_("The next round seats as many tables of six as fit, the rest in fours and "
                "fives.") if form.prefers_sixes.data else
              _("The next round seats the fewest tables, as even as can be."), "notice")
    return redirect(url_for("club.show") + "#tables-club", 303)


@bp.post("/devices/<int:device_id>/forget")
@allow(Allow.DEVICE)
def forget_device_(device_id: int):
    """Forget one of this member's own devices (this one included: it signs out).

    A member whose last device is forgotten leaves the club; the club's only owner
    can't, or nobody could let people in any more.
    """
    if not PlainForm().validate_on_submit():
        abort(400)
    session = get_session()
    member = current_member()
    device = session.get(Device, device_id) if 0 < device_id <= MAX_ID else None
    if device is None or device.member_id != member.id:
        abort(404)  # only the member's own devices: another's is none of their business
    last = len(member_devices(session, member)) == 1
    if last and member.role == Role.OWNER and owners(session, member.club_id) == 1:
        flash(_("This is the only device of the club's only owner: make someone else an "
                "owner first, or nobody could let people in any more."), "notice")
        return redirect(url_for("club.show") + "#devices", 303)
    forget_device(session, device)
    if last:
        remove_member(session, session.get(Member, member.id))
    if current_device() is not None and device.id == current_device().id:
        flash(_("This device was forgotten: it no longer opens the club. Join again with a "
                "link or a code."), "notice")
        return redirect(url_for("join.by_code"), 303)
    return redirect(url_for("club.show") + "#devices", 303)


@bp.get("/share/<int:game_id>")
@allow(Allow.READ)
def share(game_id: int):
    """QR codes and links to watch a game and to join it as a scorer, while they last."""
    session = get_session()
    game = game_or_404(game_id)
    links = []
    if current_member().role == Role.OWNER:
        for role in (Role.VIEWER, Role.SCORER):
            invite = game_invite(session, current_club(session), role, game)
            if invite is not None:
                links.append((role, invite, link_of(invite)))
    # The TV's address: the evening's table board, which moves on to each next game; and
    # for a TV not in the club, the club's screen links (owners'), at the game's table.
    table_board = (url_for("evenings.board", evening_id=game.evening_id, _external=True)
                   if game.evening_id else None)
    screens = [(invite, link_of(invite, game.table_number))
               for invite in club_invites(session, current_club(session))
               if invite.role == SCREEN] if current_member().role == Role.OWNER else []
    return render_page("share.html", game=game, links=links, qr_svg=qr_svg,
                       shown_code=shown_code, plain_form=PlainForm(), table_board=table_board,
                       screens=screens)


@bp.post("/share/<int:game_id>")
@allow(Allow.OWN)
def make_share_links(game_id: int):
    """Make the game's two links (owners only), or keep the ones still live."""
    if not PlainForm().validate_on_submit():
        abort(400)
    session = get_session()
    game = game_or_404(game_id)
    club, member = current_club(session), current_member()
    for role in (Role.VIEWER, Role.SCORER):
        if game_invite(session, club, role, game) is None:
            new_invite(session, club, role, member, game)
    return redirect(url_for("club.share", game_id=game.id), 303)
