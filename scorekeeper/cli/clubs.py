"""Commands for the person running the server: clubs, their members and their links."""
from __future__ import annotations

from urllib.parse import urlsplit

import click
from flask import Flask, current_app
from flask.cli import with_appcontext
from sqlmodel import Session, func, select

from scorekeeper.clubs.membership import (
    club_invites, club_members, fresh_owner_link, live_invite, member_devices, new_invite,
    revoke, shown_code, typed_code,
)
from scorekeeper.store.db import get_session
from scorekeeper.store.models import CLUB_NAME_LENGTH, SCREEN, Club, Game, Role
from scorekeeper.text.names import clean_name

ROLE_CHOICE = click.Choice([role.value for role in Role])
BASE_URL = click.option("--base-url", default="", metavar="URL",
                        help="The server's address, to print whole links (e.g. https://…); "
                             "else the app's SERVER_NAME, else flask run's own.")
FLASK_RUN_ADDRESS = "http://127.0.0.1:5000"  # where `flask run` serves when told nothing


def link_base(given: str) -> tuple[str, bool]:
    """The server's address for whole links, and whether it is only a guess: as given,
    else the app's SERVER_NAME, else flask run's own address."""
    if given:
        return given, False
    config = current_app.config
    if config.get("SERVER_NAME"):
        return (f"{config.get('PREFERRED_URL_SCHEME') or 'http'}://{config['SERVER_NAME']}"
                f"{config.get('APPLICATION_ROOT') or '/'}", False)
    return FLASK_RUN_ADDRESS, True


def _address(base: str, endpoint: str, **values) -> str:
    """A page's whole address on the server at ``base``, as the app's routes build it."""
    parts = urlsplit(base if "://" in base else f"https://{base}")
    routes = current_app.url_map.bind(parts.netloc, script_name=parts.path or "/",
                                      url_scheme=parts.scheme)
    return routes.build(endpoint, values, force_external=True)


def _link_lines(invite, base_url: str) -> list[str]:
    base, guessed = link_base(base_url)
    lines = [f"link: {_address(base, 'join.by_link', token=invite.token)}",
             f"code: {shown_code(invite.code)}  (typed on {_address(base, 'join.by_code')})"]
    if guessed:
        lines.append(f"({base} is where `flask run` serves: put the server's own address "
                     "in its place, or give --base-url)")
    return lines


def print_owner_link(session: Session, club, base_url: str) -> None:
    """Print a one-time owner link for ``club``, in place of its earlier unused ones."""
    invite, revoked = fresh_owner_link(session, club)
    click.echo(f"Whoever opens this link (or types this code) first becomes the owner of "
               f"club {club.id} ({club.name}); then it stops working:")
    for line in _link_lines(invite, base_url):
        click.echo(f"  {line}")
    if revoked:
        click.echo(f"The owner links printed before it no longer work ({revoked} revoked).")
    click.echo(f"Lost it? Print a new one: flask --app scorekeeper owner-link --club {club.id}")


@click.command("create-club")
@with_appcontext
@click.argument("name")
@BASE_URL
def create_club_command(name: str, base_url: str) -> None:
    """Make a club called NAME; print the link and code that make its owner."""
    name = clean_name(name)
    if not 0 < len(name) <= CLUB_NAME_LENGTH:
        raise click.ClickException(f"a club's name has 1 to {CLUB_NAME_LENGTH} characters")
    session = get_session()
    club = Club(name=name)
    session.add(club)
    session.commit()
    click.echo(f"club {club.id}: {club.name}")
    print_owner_link(session, club, base_url)


@click.command("new-link")
@with_appcontext
@click.argument("club_id", type=int)
@click.option("--role", type=ROLE_CHOICE, default=Role.SCORER.value, show_default=True)
@BASE_URL
def new_link_command(club_id: int, role: str, base_url: str) -> None:
    """A new link and code to join club CLUB_ID (an owner's, when theirs was lost)."""
    session = get_session()
    club = session.get(Club, club_id)
    if club is None:
        raise click.ClickException(f"there is no club {club_id}")
    invite = new_invite(session, club, role)
    click.echo(f"{role} link of club {club.id} ({club.name}), id {invite.id}:")
    for line in _link_lines(invite, base_url):
        click.echo(f"  {line}")


@click.command("clubs")
@with_appcontext
def clubs_command() -> None:
    """List the clubs: id, name, members and games."""
    session = get_session()
    for club in session.exec(select(Club).order_by(Club.id)):
        games = session.exec(
            select(func.count()).select_from(Game).where(Game.club_id == club.id)).one()
        members = len(club_members(session, club))
        click.echo(f"{club.id}\t{club.name}\t{members} members\t{games} games")


@click.command("members")
@with_appcontext
@click.argument("club_id", type=int)
def members_command(club_id: int) -> None:
    """List club CLUB_ID's members (with their devices) and its live links."""
    session = get_session()
    club = session.get(Club, club_id)
    if club is None:
        raise click.ClickException(f"there is no club {club_id}")
    click.echo(f"club {club.id}: {club.name}")
    for member in club_members(session, club):
        click.echo(f"member {member.id}\t{member.role}\t{member.name}")
        for device in member_devices(session, member):
            seen = device.last_seen_at.strftime("%Y-%m-%d %H:%M") if device.last_seen_at else "-"
            click.echo(f"  device {device.id}\t{device.label}\tlast seen {seen}")
    for invite in club_invites(session, club):
        # A screen link's code is taken nowhere: its token is what names it.
        named = (f"token {invite.token}" if invite.role == SCREEN
                 else f"code {shown_code(invite.code)}")
        click.echo(f"link {invite.id}\t{invite.role}\t{named}\t"
                   f"made {invite.created_at.strftime('%Y-%m-%d')}")


@click.command("revoke-link")
@with_appcontext
@click.argument("link")
def revoke_link_command(link: str) -> None:
    """Revoke a link, named by its code, its token or the whole link."""
    session = get_session()
    token = link.rstrip("/").rsplit("/", 1)[-1]
    invite = (live_invite(session, token=token, screens=True)
              or live_invite(session, code=typed_code(link)))
    if invite is None:
        raise click.ClickException("no live link has that code or token")
    revoke(session, invite)
    click.echo(f"revoked link {invite.id} ({invite.role}) of club {invite.club_id}")


def init_app(app: Flask) -> None:
    for command in (create_club_command, new_link_command, clubs_command, members_command,
                    revoke_link_command):
        app.cli.add_command(command)
