"""The drill: a whole server back from its nightly backup folder onto a fresh machine.

Two clubs, each with an owner, a scorer and a viewer (a phone each) and games, are backed
up by ``backup-all``; ``restore-all`` brings the folder's newest backup of each club into
a fresh database with the same secret. Every phone's cookie from before still lets it in,
each to its own club only, and a live link still lets a newcomer join; a member who joined
by a link and is removed after the restore can't come back by it.
"""
from __future__ import annotations

import pytest
from sqlmodel import Session, select

from scorekeeper.clubs.access import COOKIE
from scorekeeper.clubs.membership import join, new_invite
from scorekeeper.store.models import Club, Device, Game, Invite, Member, Role
from tests.members import member_cookie, new_club
from tests.new_games import start_game_as
from tests.test_backup import fresh_app

ROLES = (Role.OWNER, Role.SCORER, Role.VIEWER)


def phone(app, cookie: str):
    client = app.test_client()
    client.set_cookie(COOKIE, cookie)
    return client


def rows(app) -> dict[str, list[tuple]]:
    """What lets phones in, and what they see: clubs, members, devices, links, games."""
    with Session(app.extensions["db_engine"]) as session:
        def of(model, *columns):
            return [tuple(getattr(row, column) for column in columns)
                    for row in session.exec(select(model).order_by(model.id))]

        return {"clubs": of(Club, "id", "name"),
                "members": of(Member, "id", "club_id", "name", "role", "created_at",
                              "invite_id"),
                "devices": of(Device, "id", "member_id", "token_hash", "label", "created_at"),
                "invites": of(Invite, "id", "club_id", "role", "token", "code"),
                "games": of(Game, "id", "club_id", "created_at")}


@pytest.fixture
def server(tmp_path):
    """The old server: two clubs of members and games, a live link that let Sam in, and
    the folder its nightly backup wrote."""
    app = fresh_app()
    clubs = {}
    for name, names in (("Thursday table", "Ann Bob Cid Dan Eve Fay"),
                        ("Second table", "Gus Hal Ida Jo Kim Lu")):
        club_id = new_club(app, name)
        cookies = {role: member_cookie(app, role, f"{name} {role}", club_id) for role in ROLES}
        game_id = start_game_as(phone(app, cookies[Role.OWNER]), names=names.split())
        clubs[club_id] = (name, cookies, game_id)
    first = min(clubs)
    with app.test_request_context(), Session(app.extensions["db_engine"]) as session:
        invite = new_invite(session, session.get(Club, first), Role.SCORER)
        link = invite.token
        join(session, invite, "Sam")
    folder = tmp_path / "backups"
    result = app.test_cli_runner().invoke(args=["backup-all", str(folder)])
    assert result.exit_code == 0, result.output
    return app, clubs, link, folder


def test_a_whole_server_comes_back_with_every_phone_still_signed_in(server):
    old, clubs, link, folder = server
    new = fresh_app()  # a fresh machine: an empty database, the same secret
    result = new.test_cli_runner().invoke(args=["restore-all", str(folder)])
    assert result.exit_code == 0, result.output
    assert "Its members are back, and their phones are still signed in." in result.stdout
    assert "owner" not in result.stdout  # no owner link needed: the owners are back
    assert rows(new) == rows(old)

    for club_id, (name, cookies, game_id) in clubs.items():
        (other_game,) = [game for other, (*_, game) in clubs.items() if other != club_id]
        for role, cookie in cookies.items():
            member = phone(new, cookie)
            assert member.get(f"/games/{game_id}").status_code == 200, role
            assert member.get(f"/games/{other_game}").status_code == 404, role
            own_club = member.get("/club")
            assert own_club.status_code == 200 and name in own_club.text, role

    # The live link still lets a newcomer in; a stranger's phone still sees nothing.
    assert new.test_client().get(f"/join/{link}").status_code == 200
    assert new.test_client().get(f"/games/{clubs[min(clubs)][2]}").status_code == 404


def test_a_member_removed_after_the_restore_cant_join_again_by_their_link(server):
    old, clubs, link, folder = server
    new = fresh_app()
    assert new.test_cli_runner().invoke(args=["restore-all", str(folder)]).exit_code == 0
    with Session(new.extensions["db_engine"]) as session:
        sam = session.exec(select(Member).where(Member.name == "Sam")).one()
        assert sam.invite_id is not None
    owner = phone(new, clubs[min(clubs)][1][Role.OWNER])
    removed = owner.post(f"/club/members/{sam.id}/remove", follow_redirects=True)
    assert removed.status_code == 200
    assert "The link they joined by was revoked too" in removed.text
    with Session(new.extensions["db_engine"]) as session:
        (invite,) = session.exec(select(Invite).where(Invite.token == link)).all()
        assert invite.revoked_at is not None
    assert new.test_client().get(f"/join/{link}").status_code == 404


def test_restoring_a_server_into_a_database_in_use_is_refused_and_changes_nothing(server):
    old, _clubs, _link, folder = server
    before = rows(old)
    result = old.test_cli_runner().invoke(args=["restore-all", str(folder)])
    assert result.exit_code == 1
    assert result.stderr.startswith(f"Error: nothing was restored from {folder}: this "
                                    "scorekeeper already has players, evenings or games")
    assert rows(old) == before


def test_a_folder_with_a_bad_backup_restores_no_club_at_all(server):
    _old, _clubs, _link, folder = server
    newest = sorted(folder.iterdir())[-1]
    newest.write_text('{"format": "scorekeeper-backup/1"}', encoding="utf-8")
    new = fresh_app()
    before = rows(new)
    result = new.test_cli_runner().invoke(args=["restore-all", str(folder)])
    assert result.exit_code == 1
    assert result.stderr == f"Error: nothing was restored from {newest}: club: missing (and 3 more)\n"
    assert rows(new) == before


def test_a_folder_without_backups_says_so(tmp_path):
    result = fresh_app().test_cli_runner().invoke(args=["restore-all", str(tmp_path)])
    assert result.exit_code == 1
    assert result.stderr == ("Error: there is no club's backup (club-ID-TIME.json) in "
                             f"{tmp_path}\n")
