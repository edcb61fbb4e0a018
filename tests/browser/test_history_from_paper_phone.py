"""A club's history from paper on a phone: an evening already played is added on the
evenings page, a game file is imported into it with the day it was played, and the
evening's page lists the game under that date; each page fits the phone, its date
fields as the phone's own picker takes them (a past day, within the page's bounds)."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.table_steps import layout_problems
from tests.test_ratings import TIE

pytestmark = pytest.mark.browser

WIDTH = 390  # the ``page`` fixture's phone


def test_a_game_file_is_imported_into_an_evening_already_played(page: Page, live_server: str,
                                                                tmp_path) -> None:
    page.goto(f"{live_server}/evenings")
    page.get_by_label("Date", exact=True).fill("2024-03-07")
    page.get_by_label("Place (optional)").fill("Back room")
    page.get_by_role("button", name="Add the evening").click()
    expect(page.get_by_role("heading", name="Evening of Mar 7, 2024")).to_be_visible()
    expect(page.get_by_role("status")).to_have_text(
        "The evening already played is added: record or import its games here.")
    expect(page.get_by_role("button", name="I'm in")).to_have_count(0)
    problems = layout_problems(page, "evening already played", WIDTH)

    page.goto(f"{live_server}/games/import")
    game_file = tmp_path / "game.json"
    game_file.write_text(TIE)
    page.get_by_label("Game file (JSON)").set_input_files(game_file)
    page.get_by_label("Date played").fill("2024-03-07")
    problems += layout_problems(page, "import", WIDTH)
    page.get_by_role("button", name="Import the game").click()
    expect(page.get_by_text(re.compile(r"^Game imported as game \d+\.$"))).to_be_visible()

    page.get_by_role("link", name=re.compile("^Evening of")).click()
    expect(page.get_by_role("heading", name="Evening of Mar 7, 2024")).to_be_visible()
    expect(page.locator(".game-list")).to_contain_text("Ann & Dan won.")
    expect(page.locator("#night-ranking")).to_contain_text("Ann")
    problems += layout_problems(page, "evening with its game", WIDTH)
    assert problems == [], "\n".join(problems)
