"""The statistics on a 360 px phone: the leaderboard shows a few columns at a time, chosen
by links above it, and neither it nor a player's page scrolls sideways, in any language.
"""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser import scene
from tests.browser.table_steps import layout_problems
from tests.browser.test_axe import violations

pytestmark = pytest.mark.browser

# The page and the leaderboard's own box: neither may be wider than the screen.
WIDTHS_JS = """() => {
  const box = document.querySelector('.table-scroll');
  return {page: document.scrollingElement.scrollWidth, screen: window.innerWidth,
          table: box ? box.scrollWidth : 0, box: box ? box.clientWidth : 0};
}"""


def widths_fit(page: Page) -> dict:
    widths = page.evaluate(WIDTHS_JS)
    assert widths["page"] <= widths["screen"] == 360, widths
    assert widths["table"] <= widths["box"], widths  # the figures fit without scrolling
    return widths


def headings(page: Page) -> list[str]:
    return [text.strip(" ↓↑") for text in
            page.locator("table.leaderboard thead th").all_inner_texts()]


def test_the_leaderboard_fits_a_small_phone_and_its_columns_are_chosen_by_links(
        small_page: Page, club, live_app, live_server: str, tmp_path) -> None:
    page = small_page
    scene.start_scene(live_app, club.id)
    page.goto(f"{live_server}/players?sort=win_rate")  # the ratings lead once a game is over
    expect(page.get_by_role("table", name="Leaderboard: Games")).to_be_visible()
    assert headings(page) == ["Player", "Played", "Won", "Lost", "Win rate"]
    widths_fit(page)
    problems = layout_problems(page, "leaderboard")
    page.screenshot(path=tmp_path / "statistics-leaderboard-360.png", full_page=True)

    groups = page.get_by_role("navigation", name="Figures to show:")
    for link, columns in (
        ("Bids", ["Bids", "Made", "Set", "Made rate"]),
        ("Hands", ["Hands played", "All points taken per hand", "Points taken per bid",
                   "Throw-ins dealt"]),
        ("High, Low, Bauers", ["High", "Low", "Right Bauer", "Left Bauer"]),
        ("Joker, Game", ["Joker", "Game"]),
        ("Games", ["Played", "Won", "Lost", "Win rate"]),
    ):
        groups.get_by_role("link", name=link, exact=True).click()
        expect(page.get_by_role("table", name=f"Leaderboard: {link}")).to_be_visible()
        expect(groups.get_by_role("link", name=link, exact=True)).to_have_attribute(
            "aria-current", "true")
        assert headings(page) == ["Player", *columns]
        widths_fit(page)
        problems += layout_problems(page, f"leaderboard, {link}")
        if link == "Hands":
            page.screenshot(path=tmp_path / "statistics-leaderboard-hands-360.png", full_page=True)

    # A heading sorts within the group shown; tapped again, the other way round.
    groups.get_by_role("link", name="Bids", exact=True).click()
    header = page.locator("table.leaderboard thead th").nth(2)  # Made
    header.get_by_role("link").click()
    expect(page.locator("table.leaderboard thead th").nth(2)).to_have_attribute(
        "aria-sort", "descending")
    expect(page.get_by_role("table", name="Leaderboard: Bids")).to_be_visible()
    page.locator("table.leaderboard thead th").nth(2).get_by_role("link").click()
    expect(page.locator("table.leaderboard thead th").nth(2)).to_have_attribute(
        "aria-sort", "ascending")
    expect(page.locator("#leaderboard-summary")).to_contain_text("Sorted by Made, lowest first.")
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("language", ["fa", "sk", "lo", "te", "fy"])
def test_every_group_fits_in_every_language(small_page: Page, club, live_app, live_server: str,
                                            language: str, tmp_path) -> None:
    page = small_page
    scene.start_scene(live_app, club.id)
    page.context.add_cookies([{"name": "lang", "value": language, "url": live_server}])
    for sort in ("win_rate", "made_rate", "points", "high", "joker"):
        page.goto(f"{live_server}/players?sort={sort}")
        widths_fit(page)
    if language == "te":
        page.screenshot(path=tmp_path / f"statistics-leaderboard-{language}-360.png", full_page=True)


def test_a_players_page_draws_the_first_evening_and_fits(small_page: Page, club, live_app,
                                                         live_server: str, tmp_path) -> None:
    page = small_page
    scene.start_scene(live_app, club.id)
    page.goto(f"{live_server}/players/{scene.player_id(live_app, 'Bob', club.id)}")
    chart = page.get_by_role("img", name="Bob's win rate and bids made, evening by evening")
    expect(chart).to_be_visible()
    expect(page.locator("#trend-table tbody tr").first).to_be_visible()
    assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
    problems = layout_problems(page, "player")
    page.screenshot(path=tmp_path / "statistics-player-360.png", full_page=True)
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("language", ["en", "fa"])
def test_the_statistics_pages_have_no_accessibility_violation(small_page: Page, club, live_app,
                                                              live_server: str, language):
    page = small_page
    scene.start_scene(live_app, club.id)
    page.context.add_cookies([{"name": "lang", "value": language, "url": live_server}])
    found = {}
    for path in ("/players?sort=made_rate", "/players?sort=points", "/players?sort=high",
                 "/players?sort=joker", "/players?sort=name&show=hands",
                 f"/players/{scene.player_id(live_app, 'Bob', club.id)}"):
        page.goto(f"{live_server}{path}")
        problems = violations(page)
        if problems:
            found[path] = problems
    assert found == {}
