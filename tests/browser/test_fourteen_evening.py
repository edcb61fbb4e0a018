"""Fourteen in for tonight, on the organiser's 390 px phone: nobody sits out. The first
round is two tables of five each for themselves and one of four in pairs (the fewest
tables, as even as can be); each table's game is started from the proposal and won. The
second round proposed mixes the tables; the club then prefers sixes, and the second
round is a table of six and two of four, started and won."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.store.models import utcnow
from tests.browser.table_steps import layout_problems
from tests.browser.test_axe import violations
from tests.browser.test_two_tables_phone import all_say_in, start_table, sweep

pytestmark = pytest.mark.browser

FOURTEEN = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida", "Joe", "Kim",
            "Lea", "Max", "Ned"]


def proposed_tables(page: Page) -> list[set[str]]:
    """Each proposed table's players, as the evening's page lists them."""
    tables = []
    for number in range(1, page.locator("#next-round h3").count() + 1):
        link = page.get_by_role("link", name=f"Start table {number}", exact=True)
        query = link.get_attribute("href").split("?", 1)[1]
        seats = dict(part.split("=", 1) for part in query.split("&"))
        tables.append({name for key, name in seats.items() if key.startswith("seat_")})
    return tables


def play_round(page: Page, evening_url: str, tables: int) -> None:
    """Start each table of the proposal and win its game at once (seat 2 takes all)."""
    started = [start_table(page, evening_url, number) for number in range(1, tables + 1)]
    for url, seat_two in started:
        page.goto(url)
        sweep(page, seat_two)
        expect(page.get_by_role("heading", name="Game over")).to_be_visible()


def test_fourteen_sit_at_tables_of_four_and_five_round_after_round(page: Page, club,
                                                                   live_server: str):
    page.goto(f"{live_server}/evenings")
    page.get_by_label("Date", exact=True).fill(utcnow().date().isoformat())
    page.get_by_role("button", name="Add the evening").click()
    evening_url = page.url
    all_say_in(club, int(evening_url.rsplit("/", 1)[1]), FOURTEEN)
    page.goto(evening_url)
    expect(page.locator("#tables-tonight")).to_have_text(
        "3 tables: 5 + 5 + 4 players. Sitting out: 0.")
    expect(page.locator("#next-table-1-layout")).to_have_text("5 players, each for themselves")
    expect(page.locator("#next-table-3-layout")).to_have_text("4 players in two pairs")
    expect(page.locator("#sitting-out")).to_have_count(0)
    first = proposed_tables(page)
    assert sorted(map(len, first)) == [4, 5, 5] and set().union(*first) == set(FOURTEEN)
    assert layout_problems(page, "the first round of fourteen", width=390) == []
    assert violations(page) == []
    # In Persian, a table of five's seats are numbered in Persian digits, as its text is.
    page.context.add_cookies([{"name": "lang", "value": "fa", "url": live_server}])
    page.reload()
    seats = page.locator("#next-round ol.new-partners").first
    assert seats.evaluate("list => getComputedStyle(list).listStyleType") == "persian"
    assert layout_problems(page, "the first round of fourteen, in Persian", width=390) == []
    page.context.add_cookies([{"name": "lang", "value": "en", "url": live_server}])

    play_round(page, evening_url, 3)
    page.goto(evening_url)
    second = proposed_tables(page)
    assert set().union(*second) == set(FOURTEEN), "nobody sits out the second round"
    expect(page.locator("#sitting-out")).to_have_count(0)
    # The tables mix: no table of the second round is one of the first.
    assert not [table for table in second if table in first]
    for table in second:  # and no two tables of the first round meet again whole
        assert all(len(table & before) < len(before) for before in first)

    # The club prefers sixes: the next round is a table of six and two of four.
    page.goto(f"{live_server}/club")
    page.get_by_label("Prefer tables of six", exact=True).check()
    page.get_by_role("button", name="Save how tables are made", exact=True).click()
    page.goto(evening_url)
    expect(page.locator("#tables-tonight")).to_have_text(
        "3 tables: 6 + 4 + 4 players. Sitting out: 0.")
    play_round(page, evening_url, 3)
    assert layout_problems(page, "a game of the round of sixes over", width=390) == []
