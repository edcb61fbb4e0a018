"""Joining over a lossy connection, in a real browser: the server lets the phone in by a
single-use owner link, the answer (and the device cookie in it) is lost on the way back,
and the phone tries again, by sending the form again or by opening the link again. It
gets in, as the one member the link made.
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


def join_with_the_answer_lost(stranger: Page, name: str) -> list[str]:
    """Join on the page shown: the server lets the phone in, and its answer never
    arrives (the phone's cookies stay as they were before Join). Returns the address of
    each answer lost."""
    before = stranger.context.cookies()
    lost = []

    def lose_the_answer(route):
        if route.request.method != "POST":
            return route.continue_()
        route.fetch(max_redirects=0)  # the server lets the phone in ...
        stranger.context.clear_cookies()  # ... and its answer never arrives
        stranger.context.add_cookies(before)
        lost.append(route.request.url)
        return route.abort("connectionreset")

    stranger.route(JOIN, lose_the_answer)
    stranger.get_by_label("Your name").fill(name)
    with stranger.expect_event("requestfailed"):
        stranger.get_by_role("button", name="Join").click()
    stranger.unroute(JOIN)
    return lost


def assert_in_as_the_one_member(stranger: Page, live_server: str, live_app, club_id: int):
    """The phone is in, as the club's one member (the heir, its owner), on the one device
    the join made: its cookie."""
    expect(stranger).to_have_url(f"{live_server}/")
    stranger.goto(f"{live_server}/club")
    expect(stranger.get_by_text("You are this club's owner.")).to_be_visible()
    ((heir, devices),) = members_of(live_app, club_id)
    assert (heir.name, heir.role, len(devices)) == ("Heir", "owner", 1)
    signer = URLSafeSerializer(live_app.config["SECRET_KEY"], salt="device")
    assert devices[0].token_hash == token_hash(signer.loads(device_cookie(stranger)))


def test_an_owner_link_whose_answer_is_lost_lets_the_phone_in_when_it_tries_again(
        stranger: Page, live_server: str, live_app, owner_link):
    club_id, token = owner_link
    stranger.goto(f"{live_server}/join/{token}")
    assert join_with_the_answer_lost(stranger, "Heir") == [f"{live_server}/join/{token}"]
    assert [member.name for member, _devices in members_of(live_app, club_id)] == ["Heir"]
    assert device_cookie(stranger) is None  # the link is used up, and the phone not in

    stranger.reload()  # tries again: the same form sent again
    assert_in_as_the_one_member(stranger, live_server, live_app, club_id)


def test_an_owner_link_whose_answer_is_lost_lets_the_phone_in_when_the_link_is_opened_again(
        stranger: Page, live_server: str, live_app, owner_link, browser):
    """What a person does, rather than send the form again: opens the link again. The
    phone kept its join's key from the page, and gets in as the one member the link made;
    another phone opening the used-up link still finds nothing."""
    club_id, token = owner_link
    link = f"{live_server}/join/{token}"
    stranger.goto(link)
    assert join_with_the_answer_lost(stranger, "Heir") == [link]
    assert device_cookie(stranger) is None

    stranger.goto(link)  # the link opened again, from the chat it came in
    assert_in_as_the_one_member(stranger, live_server, live_app, club_id)

    for other in phone_page(browser, PHONE):  # a second phone, with the same link
        assert other.goto(link).status == 404
        assert device_cookie(other) is None
    assert len(members_of(live_app, club_id)) == 1
