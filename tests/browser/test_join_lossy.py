"""Joining over a lossy connection, in a real browser: the server lets the phone in by a
single-use owner link, the answer (and the device cookie in it) is lost on the way back,
and the phone tries again. It gets in, as the one member the link made.
"""
from __future__ import annotations

import re

import pytest
from itsdangerous import URLSafeSerializer
from playwright.sync_api import Page, expect
from sqlmodel import Session, select

from scorekeeper.clubs.access import COOKIE, token_hash
from scorekeeper.clubs.membership import fresh_owner_link
from scorekeeper.store.models import Club, Device, Member
from tests.browser.phones import PHONE, phone_page
from tests.members import new_club

pytestmark = pytest.mark.browser

JOIN = re.compile(r"/join/[A-Za-z0-9_-]+$")


@pytest.fixture
def owner_link(live_app) -> tuple[int, str]:
    """A club of its own waiting for its owner, and the one-time link that makes them
    (as after a restore): (club id, link token)."""
    with Session(live_app.extensions["db_engine"]) as session:
        club = session.get(Club, new_club(live_app, "Lossy line"))
        invite, _revoked = fresh_owner_link(session, club)
        return club.id, invite.token


@pytest.fixture
def stranger(browser):
    """A phone that belongs to no club."""
    yield from phone_page(browser, PHONE)


def members_of(live_app, club_id: int) -> list[tuple[Member, list[Device]]]:
    with Session(live_app.extensions["db_engine"]) as session:
        members = session.exec(select(Member).where(Member.club_id == club_id)).all()
        return [(member, list(session.exec(select(Device).where(Device.member_id == member.id))))
                for member in members]


def device_cookie(page: Page) -> str | None:
    found = [cookie["value"] for cookie in page.context.cookies() if cookie["name"] == COOKIE]
    return found[0] if found else None


def test_an_owner_link_whose_answer_is_lost_lets_the_phone_in_when_it_tries_again(
        stranger: Page, live_server: str, live_app, owner_link):
    club_id, token = owner_link
    stranger.goto(f"{live_server}/join/{token}")
    lost = []

    def lose_the_answer(route):
        if route.request.method != "POST":
            return route.continue_()
        route.fetch(max_redirects=0)  # the server lets the phone in ...
        stranger.context.clear_cookies(name=COOKIE)  # ... and its answer never arrives
        lost.append(route.request.url)
        return route.abort("connectionreset")

    stranger.route(JOIN, lose_the_answer)
    stranger.get_by_label("Your name").fill("Heir")
    with stranger.expect_event("requestfailed"):
        stranger.get_by_role("button", name="Join").click()
    stranger.unroute(JOIN)
    assert lost == [f"{live_server}/join/{token}"]
    assert [member.name for member, _devices in members_of(live_app, club_id)] == ["Heir"]
    assert device_cookie(stranger) is None  # the link is used up, and the phone not in

    stranger.reload()  # tries again: the same form sent again
    expect(stranger).to_have_url(f"{live_server}/")
    stranger.goto(f"{live_server}/club")
    expect(stranger.get_by_text("You are this club's owner.")).to_be_visible()
    ((heir, devices),) = members_of(live_app, club_id)  # one member, one device: its cookie
    assert (heir.name, heir.role) == ("Heir", "owner")
    assert len(devices) == 1
    signer = URLSafeSerializer(live_app.config["SECRET_KEY"], salt="device")
    assert devices[0].token_hash == token_hash(signer.loads(device_cookie(stranger)))
