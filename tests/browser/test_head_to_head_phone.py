"""Two players head to head on a 390 px phone: reached from a player's page by the number
of games they played together, with no sideways scroll and every link a 44 px target."""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser import scene
from tests.browser.phones import PHONE
from tests.browser.table_steps import layout_problems

pytestmark = pytest.mark.browser


def test_the_head_to_head_page_opens_from_the_players_page_and_fits(
        page: Page, club, live_app, live_server: str, tmp_path) -> None:
    scene.start_scene(live_app, club.id)
    page.goto(f"{live_server}/players/{scene.player_id(live_app, 'Anna', club.id)}")
    expect(page.locator("#best-partner")).to_contain_text("Best partner: shown once Anna")
    problems = layout_problems(page, "player", PHONE["width"])

    # Anna and Dora (A) played the scene's one game as partners; Bob sat against them.
    page.locator("#partners tbody tr", has_text="Dora").get_by_role("link", name="1").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Anna and Dora: head to head")
    expect(page.locator("#together")).to_contain_text("Won together")
    expect(page.locator("#against")).to_contain_text("Won by Dora")
    problems += layout_problems(page, "head to head, partners", PHONE["width"])
    page.screenshot(path=tmp_path / "head-to-head-390.png", full_page=True)

    page.get_by_role("link", name="Anna", exact=True).click()
    page.locator("#rivals tbody tr", has_text="Bob").get_by_role("link", name="1").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Anna and Bob: head to head")
    expect(page.locator("#against")).to_contain_text("Won by Bob")
    problems += layout_problems(page, "head to head, opponents", PHONE["width"])
    assert problems == [], "\n".join(problems)
