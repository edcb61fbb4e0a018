"""Every route of the app, asked by an owner, a scorer, a viewer and a stranger.

Each route says who may use it (``@allow``, ``web.allow``); a route that doesn't fails
the test, and answers nobody, so nobody adds a page without deciding who may use it. A refused request must change nothing:
the rows of every table are compared before and after it.
"""
from __future__ import annotations

import re
from datetime import date

import pytest
from sqlmodel import Session, func, select

from scorekeeper.clubs.access import COOKIE, new_device
from scorekeeper.clubs.membership import new_invite
from scorekeeper.web.allow import Allow, allowed
from scorekeeper.store.models import (
    Club, Device, Evening, Game, GameSeat, Hand, Invite, Member, Player, Season, SeatSummary,
)
from tests.members import client_as

# Who may use each endpoint is declared on its route (``web.allow``): read here, never
# listed again. What each kind lets in:
ROLES = ("owner", "scorer", "viewer", "stranger")
ALLOWED = {
    Allow.PUBLIC: set(ROLES), Allow.FRONT: {"owner", "scorer", "viewer"},
    Allow.READ: {"owner", "scorer", "viewer"}, Allow.SCORE: {"owner", "scorer"},
    Allow.OWN: {"owner"}, Allow.DEVICE: {"owner", "scorer", "viewer"},
    Allow.SCREEN: set(ROLES),
}
# Requests that change things are asked last, so that they can't hide the others.
LAST = ("club.forget_device_", "club.revoke_link", "club.remove_member_", "seasons.delete")
TABLES = (Club, Member, Device, Invite, Player, Evening, Game, GameSeat, Hand, Season)


def access_of(app) -> dict[str, Allow]:
    """Every endpoint and who may use it, as its route declares."""
    return {rule.endpoint: allowed(app, rule.endpoint) for rule in app.url_map.iter_rules()}


def test_every_endpoint_says_who_may_use_it(app):
    assert [endpoint for endpoint, kind in access_of(app).items() if kind is None] == []


def test_a_route_that_says_nothing_answers_nobody(app, client):
    """The safe side: a route added without ``@allow`` is no page, to members too."""
    app.add_url_rule("/undeclared", "undeclared", lambda: "secret")
    assert client.get("/undeclared").status_code == 404
    assert app.test_client().get("/undeclared").status_code == 404


def rows(app) -> dict:
    with Session(app.extensions["db_engine"]) as session:
        return {model.__name__: session.exec(select(func.count()).select_from(model)).one()
                for model in TABLES} | {
            "revoked": session.exec(select(func.count()).select_from(Invite)
                                    .where(Invite.revoked_at.is_not(None))).one(),
            "removed": session.exec(select(func.count()).select_from(Member)
                                    .where(Member.removed_at.is_not(None))).one(),
            "forgotten": session.exec(select(func.count()).select_from(Device)
                                      .where(Device.forgotten_at.is_not(None))).one(),
            "revisions": session.exec(select(func.sum(Game.revision))).one(),
            "closed": session.exec(select(func.count()).select_from(Evening)
                                   .where(Evening.closed_at.is_not(None))).one(),
            "confirming": session.exec(select(func.count()).select_from(Evening)
                                       .where(Evening.confirm_hands)).one(),
            "confirmed": session.exec(select(func.count()).select_from(Hand)
                                      .where(Hand.confirmed_team.is_not(None))).one(),
            "seasons": session.exec(select(Season.name, Season.starts_on, Season.ends_on,
                                           Season.ranked_by, Season.min_evenings,
                                           Season.drop_worst)).all(),
        }


@pytest.fixture
def world(app, client, start_game):
    """A club with a game of one hand, a spare member and a spare device per role."""
    game_id = start_game()
    response = client.post(f"/games/{game_id}/hands", data={
        "number": "1", "calls": "pass,4,pass,pass,pass,pass", "trump": "hearts",
        "high": "A", "low": "B", "right": "B", "left": "C", "joker": "C", "game": "A"})
    assert response.status_code == 303, response.text
    clients = {"owner": client, "scorer": client_as(app, "scorer"),
               "viewer": client_as(app, "viewer"), "stranger": app.test_client()}
    with app.test_request_context(), Session(app.extensions["db_engine"]) as session:
        club = session.exec(select(Club)).one()
        spare_devices = {}
        for role in ("owner", "scorer", "viewer"):
            member = session.exec(select(Member).where(Member.role == role)).first()
            device_cookie = new_device(session, member, "Spare")
            session.commit()
            spare_devices[role] = session.exec(
                select(Device.id).where(Device.member_id == member.id)
                .order_by(Device.id.desc())).first()
            assert device_cookie
        spare_devices["stranger"] = spare_devices["owner"]
        victim = Member(club_id=club.id, name="Leaving", role="viewer")
        session.add(victim)
        session.commit()
        invite = new_invite(session, club, "viewer")
        screen = new_invite(session, club, "screen")
        season = Season(club_id=club.id, name="Spring", starts_on=date(2020, 1, 1),
                        ends_on=date.today(), min_evenings=1)
        session.add(season)
        session.commit()
        ids = {
            "game_id": game_id, "number": 1,
            "evening_id": session.exec(select(Evening.id)).first(),
            "player_id": session.exec(select(Player.id).order_by(Player.id)).first(),
            "other_id": session.exec(select(Player.id).order_by(Player.id.desc())).first(),
            "member_id": victim.id, "invite_id": invite.id, "token": invite.token,
            "screen_token": screen.token,
            "filename": "app.css", "season_id": season.id,
        }
    return clients, ids, spare_devices


def requests(app):
    rules = sorted(app.url_map.iter_rules(),
                   key=lambda rule: (rule.endpoint in LAST, LAST.index(rule.endpoint)
                                     if rule.endpoint in LAST else 0, rule.endpoint))
    for rule in rules:
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            yield rule, method


@pytest.mark.parametrize("role", ROLES)
def test_each_route_answers_each_role_as_its_access_says(app, world, role):
    clients, ids, spare_devices = world
    http = clients[role]
    access = access_of(app)
    for rule, method in requests(app):
        args = {name: ids[name] for name in rule.arguments if name != "device_id"}
        if "device_id" in rule.arguments:
            args["device_id"] = spare_devices[role]
        url = rule.build(args)[1]
        kind = access[rule.endpoint]
        before = rows(app)
        response = http.open(url, method=method, data={})
        where = f"{role} {method} {url} ({rule.endpoint}: {kind})"
        assert response.status_code < 500, where
        if role in ALLOWED[kind]:
            assert response.status_code not in (403, 404), where
            continue
        if kind == Allow.FRONT:  # a stranger at the front door is shown the way in
            assert response.status_code == 303, where
            assert response.headers["Location"].endswith("/welcome"), where
        elif role == "stranger":
            assert response.status_code == 404, where  # nothing to learn, not even 403
            assert "Scorekeeper" not in response.text or "no such page" in response.text
        else:
            assert response.status_code == 403, where
        assert rows(app) == before, where  # refused: nothing changed


def test_a_stranger_sees_no_club_name_player_or_game(app, world):
    clients, ids, _ = world
    stranger = clients["stranger"]
    for url in ("/games/1", "/players", "/evenings", f"/players/{ids['player_id']}",
                "/club", "/backup/download", f"/games/{ids['game_id']}/export"):
        response = stranger.get(url)
        assert response.status_code == 404
        # (The page's random CSRF token may spell anything: it is left out.)
        text = re.sub(r'(content|value)="[\w.-]{40,}"', "", response.text)
        assert "Ann" not in text and "Our table" not in text


def test_a_viewer_finds_no_control_that_changes_anything(app, world):
    clients, ids, _ = world
    viewer = clients["viewer"]
    for url in ("/", f"/games/{ids['game_id']}", "/backup", "/club", "/players",
                f"/evenings/{ids['evening_id']}", "/seasons", f"/seasons/{ids['season_id']}"):
        page = viewer.get(url).text
        forms = [chunk for chunk in page.split("<form")[1:]]
        posting = [form for form in forms if 'method="post"' in form.split(">")[0]]
        # The only forms a viewer gets: "forget this device" on the club page, the
        # language picker (which changes nothing but this device's language), and their
        # own answer to a planned evening.
        assert all(any(mine in form.split(">")[0]
                       for mine in ("/forget", 'action="/language"', "/coming"))
                   for form in posting), url
        assert "/games/new" not in page and "/hands/1/edit" not in page, url


def test_a_forged_cookie_is_a_stranger(app, world):
    clients, ids, _ = world
    forged = app.test_client()
    forged.set_cookie(COOKIE, "bm90LXNpZ25lZA.forged")
    assert forged.get(f"/games/{ids['game_id']}").status_code == 404
    assert forged.get("/").status_code == 303


def test_seat_summaries_are_not_a_table_strangers_can_reach(app, world):
    """Figures are counted only for members' pages: a stranger's request counts nothing."""
    clients, _, _ = world
    clients["stranger"].get("/players")
    with Session(app.extensions["db_engine"]) as session:
        assert session.exec(select(func.count()).select_from(SeatSummary)).one() == 0


def test_head_changes_nothing_anywhere_and_answers_as_get_does(app, world):
    """HEAD, on every route that answers GET, with the address a form would fill: the
    same status as GET, and not one row changed."""
    clients, ids, spare_devices = world
    owner = clients["owner"]
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods:
            continue
        args = {name: ids[name] for name in rule.arguments if name != "device_id"}
        if "device_id" in rule.arguments:
            args["device_id"] = spare_devices["owner"]
        url = rule.build(args)[1]
        before = rows(app)
        head = owner.head(url)
        assert rows(app) == before, url
        assert head.status_code == owner.get(url).status_code, url


def test_only_an_owner_sees_or_downloads_the_whole_club_backup(app, world):
    """A backup holds the whole club, its change log and device names too."""
    clients, _ids, _ = world
    for role in ("scorer", "viewer"):
        assert clients[role].get("/backup").status_code == 403, role
        download = clients[role].get("/backup/download")
        assert download.status_code == 403 and "Test browser" not in download.text, role
        assert 'href="/backup"' not in clients[role].get("/").text, role
    assert clients["owner"].get("/backup/download").status_code == 200
    assert 'href="/backup"' in clients["owner"].get("/").text
