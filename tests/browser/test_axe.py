"""axe-core, the accessibility checker, on every page a player meets: no violation.

Run in the real Chromium at phone size, on each step of a hand as well as on the
lists, the statistics, the club and the join pages, in English and in Persian.
"""
from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

from tests.browser.table_steps import Taps, start_game

pytestmark = pytest.mark.browser

AXE = Axe()


def violations(page: Page) -> list[str]:
    results = AXE.run(page)
    return [f"{v['id']}: {v['help']} ({len(v['nodes'])}× e.g. {v['nodes'][0]['target']})"
            for v in results.response["violations"]]


def test_no_page_has_an_accessibility_violation(page: Page, live_server: str):
    taps = Taps()
    start_game(page, live_server, taps)
    game = page.url
    game_id = game.rsplit("/", 1)[1]
    evening = live_server + page.locator(".export a[href^='/evenings/']").get_attribute("href")
    steps = [
        game, f"{game}?number=1&calls=pass,4",
        f"{game}?number=1&calls=pass,4,pass,pass,pass,pass",
        f"{game}?number=1&calls=pass,4,pass,pass,pass,pass&trump=hearts&high=A",
        f"{game}?number=1&bidder=2",
    ]
    pages = [*steps, f"{live_server}/", f"{live_server}/games/new",
             f"{live_server}/evenings", f"{live_server}/players", f"{live_server}/club",
             f"{live_server}/rules", f"{live_server}/backup", f"{live_server}/games/import",
             f"{game}/board", f"{game}/changes", f"{game}/fix", f"{live_server}/club/share/{game_id}",
             f"{live_server}/offline", f"{live_server}/join", evening, f"{evening}/board"]
    found = {}
    for language in ("en", "fa"):
        page.context.add_cookies([{"name": "lang", "value": language, "url": live_server}])
        for url in pages:
            page.goto(url)
            problems = violations(page)
            if problems:
                found[f"{language} {url}"] = problems
    assert found == {}


def test_the_checker_does_find_a_violation(page: Page, live_server: str):
    """The test above can fail: a button with no name is reported."""
    page.goto(f"{live_server}/rules")
    page.evaluate("document.querySelector('main').append(document.createElement('button'))")
    assert any(problem.startswith("button-name") for problem in violations(page))
