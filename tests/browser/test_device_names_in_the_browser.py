"""Device names for owners only, as a phone sees them: an owner records a hand on a named
device; a viewer's and a scorer's phones, on the game page, are told who recorded it by
the live poll without the device, and no page they can reach from the game (every link on
it, and every link on those) names it. The owner's own change log does.

(tests/views/test_device_names_owners_only.py crawls every route and fragment; this is the
same promise in a real browser, kept answers and the page's own script included.)
"""
from __future__ import annotations

import re
from urllib.parse import urljoin, urlsplit

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import Session, select, update

from scorekeeper.store.models import Device, Member
from tests.browser.phones import GLANCE_MS, PHONE, phone_page, within_polls
from tests.browser.table_steps import Taps, name_trump, quick_bid, record, start_game, tally

pytestmark = pytest.mark.browser

DEVICE = "Pixel of Olga"  # the owner's phone, as the app names it
POINTS = {"High": "B", "Low": "B", "Right Bauer": "B", "Left Bauer": "B", "Joker": "C",
          "Game": "C"}


@pytest.fixture
def owner(browser, member_of_club, live_app):
    member = member_of_club("owner", "Olga")
    with Session(live_app.extensions["db_engine"]) as session:  # Olga's phone, named
        session.execute(update(Device).where(Device.member_id == select(Member.id).where(
            Member.name == "Olga").scalar_subquery()).values(label=DEVICE))
        session.commit()
    yield from phone_page(browser, PHONE, member)


def reachable(phone: Page, start: str) -> dict[str, str]:
    """What the phone gets from the app two links deep from ``start``: address -> body
    (downloads included: a CSV or a game file is as much the phone's as a page)."""
    host = urlsplit(start).netloc
    bodies: dict[str, str] = {}
    frontier = [start]
    for _depth in range(3):
        found = []
        for url in frontier:
            bodies[url] = phone.request.get(url).text()
            for link in re.findall(r'href="([^"]+)"', bodies[url]):
                link = urljoin(url, link.replace("&amp;", "&")).split("#")[0]
                if urlsplit(link).netloc == host and link not in bodies and link not in found:
                    found.append(link)
        frontier = found
    return bodies


def test_no_page_a_viewer_or_scorer_reaches_names_a_device(owner: Page, viewer: Page,
                                                          scorer: Page, live_server):
    taps = Taps()
    start_game(owner, live_server, taps)
    game = owner.url
    for phone in (viewer, scorer):
        phone.goto(game)
    quick_bid(owner, taps, bidder=2, bid=4)
    name_trump(owner, taps, "Hearts")
    tally(owner, taps, POINTS)
    record(owner, taps, 1)
    for phone in (viewer, scorer):  # told by the poll, the same kept answer for both
        notice = phone.locator("#hand-entry .notice")
        within_polls(phone, lambda: expect(notice).to_contain_text(
            "Olga: recorded hand 1", timeout=GLANCE_MS))
        assert DEVICE not in phone.content()
    for phone in (viewer, scorer):
        bodies = reachable(phone, game)
        assert len(bodies) > 10  # the history, the players, the evening, the rules...
        for url, body in bodies.items():
            assert DEVICE not in body, url
    # The owner's change log says on which device.
    owner.goto(f"{game}/changes")
    expect(owner.get_by_text(f"Olga ({DEVICE})").first).to_be_visible()
