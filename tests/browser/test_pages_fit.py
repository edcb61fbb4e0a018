"""Every page a player opens fits a 360 px phone: no sideways scroll, 44 px targets."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.table_steps import (
    Taps, layout_problems, name_trump, quick_bid, record, start_game, tally,
)

pytestmark = [pytest.mark.browser, pytest.mark.drawn]


def test_the_other_pages_fit_a_small_phone(small_page: Page, live_server: str) -> None:
    page, taps = small_page, Taps()
    start_game(page, live_server, taps, target=5)
    quick_bid(page, taps, bidder=2, bid=3)
    name_trump(page, taps, "Clubs")
    tally(page, taps, {"High": "B", "Low": "B", "Right Bauer": "B", "Left Bauer": "B",
                       "Joker": "B", "Game": "B"})
    record(page, taps, 1)
    expect(page.get_by_role("heading", name="Game over")).to_be_visible()
    problems = layout_problems(page, "game over")

    page.get_by_role("link", name=re.compile("^Evening of")).click()
    expect(page.get_by_role("heading", name=re.compile("^Evening of"))).to_be_visible()
    problems += layout_problems(page, "evening")
    for name, heading, where in (
        ("Players", "Players", "leaderboard"), ("Evenings", "Evenings", "evenings"),
        ("Backups", "Backups", "backups"), ("Import a game (JSON)", "Import a game", "import"),
    ):
        page.goto(f"{live_server}/")
        page.get_by_role("link", name=name, exact=True).click()
        expect(page.get_by_role("heading", name=heading, exact=True)).to_be_visible()
        problems += layout_problems(page, where)
    page.goto(f"{live_server}/players")
    page.get_by_role("link", name="Bob", exact=True).first.click()
    expect(page.get_by_role("heading", name=re.compile("Bob"))).to_be_visible()
    problems += layout_problems(page, "player")
    assert problems == [], "\n".join(problems)


def test_from_the_history_to_a_games_chart_and_a_players_page(page: Page,
                                                             live_server: str) -> None:
    taps = Taps()
    start_game(page, live_server, taps, target=5)
    game_url = page.url
    quick_bid(page, taps, bidder=2, bid=3)
    name_trump(page, taps, "Hearts")
    tally(page, taps, {"High": "B", "Low": "B", "Right Bauer": "B", "Left Bauer": "B",
                       "Joker": "B", "Game": "B"})
    record(page, taps, 1)

    page.goto(f"{live_server}/")
    page.get_by_role("link", name="Evenings", exact=True).click()
    page.get_by_role("link", name=re.compile(r"\d+ games?$")).first.click()
    expect(page.get_by_role("heading", name="Games won")).to_be_visible()
    game_id = game_url.rsplit("/", 1)[1]
    page.get_by_role("link", name=re.compile(rf"^Game {game_id} ")).click()
    chart = page.get_by_role("img", name=re.compile("^Scores after each hand"))
    expect(chart).to_be_visible()
    expect(page.locator("#chart-summary")).to_contain_text("After 1 hand: A (Ann & Dan) 0, "
                                                          "B (Bob & Eve) 6, C (Cid & Fay) 0.")
    page.goto(f"{live_server}/players")
    page.get_by_role("link", name="Bob", exact=True).first.click()
    expect(page.get_by_role("heading", name="Bob", exact=True)).to_be_visible()
