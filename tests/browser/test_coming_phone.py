"""Who is coming, on a 360 px phone with no script needed: the organiser plans an
evening with the plain form, a member taps "I'm in" and sees the count; nothing sideways,
every target 44 px."""
from __future__ import annotations

from datetime import timedelta

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.store.models import utcnow
from tests.browser.table_steps import layout_problems

pytestmark = pytest.mark.browser


def test_an_evening_planned_and_answered_on_a_phone(small_page: Page, live_server: str):
    page = small_page
    page.goto(f"{live_server}/evenings")
    day = utcnow().date() + timedelta(days=2)
    page.get_by_label("Date", exact=True).fill(day.isoformat())
    page.get_by_label("Place (optional)").fill("Kitchen")
    page.get_by_role("button", name="Add the evening").click()
    expect(page.get_by_role("heading", name="Who is coming")).to_be_visible()
    page.get_by_role("button", name="I'm in").click()
    expect(page.get_by_role("status")).to_have_text("You're in.")
    expect(page.get_by_role("button", name="I'm in")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#tables-of-six")).to_have_text("In: 1. 5 more are needed for a table.")
    assert layout_problems(page, "who is coming") == []
    page.goto(f"{live_server}/evenings")
    expect(page.get_by_role("link", name="coming up")).to_have_count(1)


def test_the_next_evening_is_answered_from_the_home_page(page: Page, viewer: Page,
                                                        live_server: str):
    """On a 390 px phone: the organiser plans an evening; a member opening the club finds
    it on the home page, with their own answer to give there and a way to who is coming."""
    page.goto(f"{live_server}/evenings")
    day = utcnow().date() + timedelta(days=3)
    page.get_by_label("Date", exact=True).fill(day.isoformat())
    page.get_by_role("button", name="Add the evening").click()
    expect(page.get_by_role("heading", name="Who is coming")).to_be_visible()

    viewer.goto(live_server)
    card = viewer.locator("#next-evening")
    expect(card).to_be_visible()
    expect(card.get_by_role("link", name="Who is coming")).to_be_visible()
    assert layout_problems(viewer, "the next evening on the home page", width=390) == []
    card.get_by_role("button", name="I'm in").click()
    expect(viewer.get_by_role("status")).to_have_text("You're in.")
    expect(viewer.locator("#tables-of-six")).to_have_text(
        "In: 1. 5 more are needed for a table.")
    viewer.goto(live_server)  # the home page has the answer too
    expect(viewer.locator("#next-evening").get_by_role("button", name="I'm in")
           ).to_have_attribute("aria-pressed", "true")
