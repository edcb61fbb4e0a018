"""A table of five, each for themselves, in Persian on a 360 px phone: started on the
new-game page by its Persian words, a hand entered and recorded, nothing sideways,
every button a thumb's size, and the five teams drawn right to left, A first.

Ann deals hand 1 (Latin and Persian names mixed). Bob (seat 2, team B) bids 4 in
hearts and takes High, Low, Right, Left: made, +4; سارا (C) takes the Joker and Game, +2.
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.table_steps import layout_problems
from tests.browser.test_persian import fa, persian_phone, tap  # noqa: F401 (a fixture)

pytestmark = pytest.mark.browser

FIVE = ["Ann", "Bob", "سارا", "مریم", "Eve"]
OWNERS = {"High": "B", "Low": "B", "Right Bauer": "B", "Left Bauer": "B", "Joker": "C",
          "Game": "C"}


def x_of(locator) -> list[float]:
    """Each element's left edge, in the page's order."""
    return [box["x"] for box in (item.bounding_box() for item in locator.all())]


def test_five_each_for_themselves_in_persian_on_a_small_phone(persian_phone: Page,
                                                              live_server: str, tmp_path):
    page = persian_phone
    page.goto(f"{live_server}/games/new")
    five = page.get_by_role("group", name=fa("%(seats)s players", seats=5), exact=True)
    tap(five.get_by_role("radio", name=fa("Each for themselves"), exact=True))
    expect(page.get_by_role("combobox", name=fa("Seat %(seat)s", seat=6), exact=True)
           ).to_have_count(0)
    for seat, name in enumerate(FIVE, start=1):
        page.get_by_role("combobox", name=fa("Seat %(seat)s", seat=seat), exact=True).fill(name)
    page.get_by_text(fa("Seat %(seat)s", seat=1), exact=True).click()
    assert layout_problems(page, "the new-game page at five, in Persian") == []
    page.get_by_role("button", name=fa("Start the game"), exact=True).click()
    expect(page).to_have_url(re.compile(r"/games/\d+$"))

    bob = page.get_by_role("group", name="Bob", exact=True)
    tap(bob.get_by_role("radio", name=f"{fa('Bid')} {fa('4')}", exact=True))
    tap(page.get_by_role("radio", name=fa("Hearts"), exact=True))
    for point, team in OWNERS.items():
        group = page.get_by_role("group", name=fa(point), exact=True)
        # Right to left: A's button the rightmost of the point's five, E's the leftmost.
        assert x_of(group.locator(".choice:not(.tie)")) == sorted(
            x_of(group.locator(".choice:not(.tie)")), reverse=True), point
        tap(group.get_by_role("radio", name=re.compile(rf"^{team}\b")))
    problems = layout_problems(page, "the tally at five, in Persian")
    page.screenshot(path=str(tmp_path / "persian-five.png"), full_page=True)
    page.get_by_role("button", name=fa("Record hand %(number)s", number=1), exact=True).click()
    expect(page.locator(".team-score")).to_have_text(["۰", "۴", "۲", "۰", "۰"])
    problems += layout_problems(page, "after the hand at five, in Persian")
    assert problems == []
    # The first row of teams reads right to left: A, B, C; D and E under them.
    letters = page.locator(".team .team-letter")
    expect(letters).to_have_text(["A", "B", "C", "D", "E"])
    first_row = x_of(page.locator(".team"))[:3]
    assert first_row == sorted(first_row, reverse=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
