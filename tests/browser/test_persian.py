"""A hand played in Persian on a 360 px phone: right to left, nothing sideways, and every
control found by its Persian name (as a screen reader would read it).

Ann deals hand 1. Bob (seat 2, team B) wins the bid with 4 in hearts; B takes High,
Low, Right and Left (4): made, +4. C takes Joker and Game: +2.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.support import Translations
from playwright.sync_api import Page, expect

from conftest import phone_context
from table_steps import SEATS, layout_problems
from scorekeeper.languages import DIGITS

pytestmark = pytest.mark.browser

CATALOGUES = Path(__file__).resolve().parents[2] / "scorekeeper" / "translations"
PERSIAN = Translations.load(str(CATALOGUES), ["fa"])


def fa(message: str, **params) -> str:
    """The Persian of an English message, as the page writes it (Persian digits)."""
    text = PERSIAN.gettext(message)
    if params:
        text = text % params
    return text.translate(DIGITS["fa"])


@pytest.fixture
def persian_phone(browser, member_of_club):
    url, cookie = member_of_club()
    context = phone_context(browser, {"width": 360, "height": 740}, (url, cookie))
    context.add_cookies([{"name": "lang", "value": "fa", "url": url}])
    try:
        yield context.new_page()
    finally:
        context.close()


def test_a_hand_in_persian_right_to_left_on_a_small_phone(persian_phone: Page, live_server: str,
                                                          tmp_path):
    page = persian_phone
    page.goto(f"{live_server}/games/new")
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    expect(page.locator("html")).to_have_attribute("lang", "fa")
    for seat, name in SEATS.items():
        page.get_by_role("combobox", name=fa("Seat %(seat)s", seat=seat), exact=True).fill(name)
    page.get_by_label(fa("Play to"), exact=True).fill("11")
    page.get_by_text(fa("Seat %(seat)s", seat=1), exact=True).click()
    page.get_by_role("button", name=fa("Start the game"), exact=True).click()
    expect(page).to_have_url(re.compile(r"/games/\d+$"))

    expect(page.get_by_role("heading", name=fa("Or enter the winning bid: who won it?"))) \
        .to_be_visible()
    page.get_by_role("button", name="Bob", exact=True).click()
    page.get_by_role("button", name=f"{fa('Bid')} {fa('4')}", exact=True).click()
    page.get_by_role("button", name=fa("Hearts")).click()
    expect(page.get_by_role("heading", name=fa("Who took which point?"))).to_be_visible()
    # In right-to-left text the card keeps rank then suit: J then ♦ for the Left Bauer.
    left_bauer = page.locator(".trump-info bdi.playing-card").first
    expect(left_bauer).to_have_text("J♦")
    assert left_bauer.evaluate("el => getComputedStyle(el).direction") == "ltr"

    owners = {"High": "B", "Low": "B", "Right Bauer": "B", "Left Bauer": "B",
              "Joker": "C", "Game": "C"}
    for point, team in owners.items():
        group = page.get_by_role("group", name=fa(point), exact=True)
        group.get_by_role("radio", name=re.compile(rf"^{team}\b")) \
            .locator("xpath=ancestor::label[1]").click()
    problems = layout_problems(page, "tally, in Persian")
    page.screenshot(path=str(tmp_path / "persian-tally.png"), full_page=True)
    page.get_by_role("button", name=fa("Record hand %(number)s", number=1), exact=True).click()

    expect(page.get_by_role("status")).to_contain_text(fa("Hand %(number)s recorded.",
                                                          number=1))
    scores = page.locator(".team-score")
    expect(scores).to_have_text(["۰", "۴", "۲"])
    problems += layout_problems(page, "after the hand, in Persian")
    assert problems == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    # The team names sit on the right, where a right-to-left reader starts.
    first_team = page.locator(".team").first.bounding_box()
    assert first_team["x"] + first_team["width"] > 300
