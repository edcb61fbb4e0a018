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
