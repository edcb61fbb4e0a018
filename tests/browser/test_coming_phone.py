"""Who is coming, on a 360 px phone with no script needed: the organiser plans an
evening with the plain form, a member taps "I'm in" and sees the count; nothing sideways,
every target 44 px."""
from __future__ import annotations

from datetime import timedelta

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.store.models import utcnow
from tests.browser.table_steps import layout_problems
from tests.browser.test_two_tables_phone import NAMES, all_say_in

pytestmark = pytest.mark.browser

FOURTEEN = [*NAMES, "Mo", "Ned"]


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
    expect(page.locator("#tables-tonight")).to_have_text("In: 1. 3 more are needed for a table.")
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
    expect(viewer.locator("#tables-tonight")).to_have_text(
        "In: 1. 3 more are needed for a table.")
    viewer.goto(live_server)  # the home page has the answer too
    expect(viewer.locator("#next-evening").get_by_role("button", name="I'm in")
           ).to_have_attribute("aria-pressed", "true")


def test_a_round_of_three_tables_and_the_clubs_choice_on_a_small_phone(
        small_page: Page, club, live_server: str):
    """Fourteen in, on a 360 px phone in English and in Persian: two fives for themselves
    and two pairs of four, nothing sideways; the club prefers sixes with one tap on the
    club page's box, and the round is a six and two fours."""
    page = small_page
    page.goto(f"{live_server}/evenings")
    page.get_by_label("Date", exact=True).fill(utcnow().date().isoformat())
    page.get_by_role("button", name="Add the evening").click()
    expect(page.get_by_role("heading", name="Who is coming")).to_be_visible()
    evening_url = page.url
    all_say_in(club, int(evening_url.rsplit("/", 1)[1]), FOURTEEN)
    page.goto(evening_url)
    expect(page.locator("#tables-tonight")).to_have_text(
        "3 tables: 5 + 5 + 4 players. Sitting out: 0.")
    for number, words in enumerate(["5 players, each for themselves"] * 2
                                   + ["4 players in two pairs"], start=1):
        expect(page.locator(f"#next-table-{number}-layout")).to_have_text(words)
    assert layout_problems(page, "three tables of four and five") == []
    page.context.add_cookies([{"name": "lang", "value": "fa", "url": live_server}])
    page.reload()
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    assert layout_problems(page, "three tables of four and five, in Persian") == []
    page.context.add_cookies([{"name": "lang", "value": "en", "url": live_server}])

    page.goto(f"{live_server}/club")
    page.get_by_label("Prefer tables of six", exact=True).check()
    page.get_by_role("button", name="Save how tables are made").click()
    expect(page.get_by_role("status")).to_contain_text("as many tables of six as fit")
    expect(page.get_by_label("Prefer tables of six", exact=True)).to_be_checked()
    assert layout_problems(page, "the club's choice of tables") == []
    page.goto(evening_url)
    expect(page.locator("#tables-tonight")).to_have_text(
        "3 tables: 6 + 4 + 4 players. Sitting out: 0.")
    expect(page.locator("#next-table-1-layout")).to_have_text("6 players in three pairs")
