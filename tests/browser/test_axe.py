"""axe-core, the accessibility checker, on every page a player meets: no violation.

Run in the real Chromium at phone size, on each step of a hand as well as on the
lists, the statistics, the club and the join pages, in English and in Persian, with the
phone set to light and to dark. Contrast is checked at AAA (axe's enhanced rule: 7:1 for
text, 4.5:1 for large text), which a phone in the sun, or in a dim room, needs.
"""
from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

from tests.browser.table_steps import Taps, start_game

pytestmark = [pytest.mark.browser, pytest.mark.drawn]

AXE = Axe()
AAA = {"resultTypes": ["violations"], "rules": {"color-contrast-enhanced": {"enabled": True}}}
# The page's own background, as drawn: dark (the dark theme) or light.
DARK_PAGE = """() => {
  const [r, g, b] = getComputedStyle(document.body).backgroundColor.match(/\\d+/g).map(Number);
  return r + g + b < 3 * 64;
}"""


def violations(page: Page) -> list[str]:
    results = AXE.run(page, options=AAA)
    return [f"{v['id']}: {v['help']} ({len(v['nodes'])}× e.g. {v['nodes'][0]['target']})"
            for v in results.response["violations"]]


def test_no_page_has_an_accessibility_violation(page: Page, live_server: str):
    """Each page loaded once, and checked with the phone set to light, then to dark (the
    colours follow the setting at once: the page is not loaded again)."""
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
             f"{live_server}/offline", f"{live_server}/join", evening, f"{evening}/board",
             f"{evening}/tables"]
    found = {}
    for language in ("en", "fa"):
        page.context.add_cookies([{"name": "lang", "value": language, "url": live_server}])
        for url in pages:
            page.emulate_media(color_scheme="light")
            page.goto(url)
            for scheme in ("light", "dark"):
                page.emulate_media(color_scheme=scheme)
                assert page.evaluate(DARK_PAGE) == (scheme == "dark"), url
                problems = violations(page)
                if problems:
                    found[f"{language} {scheme} {url}"] = problems
    assert found == {}


def test_the_checker_does_find_a_violation(page: Page, live_server: str):
    """The test above can fail: a button with no name is reported."""
    page.goto(f"{live_server}/rules")
    page.evaluate("document.querySelector('main').append(document.createElement('button'))")
    assert any(problem.startswith("button-name") for problem in violations(page))


def test_the_checker_holds_text_to_7_to_1(page: Page, live_server: str):
    """Grey text readable at AA (4.6:1) is reported: the checker asks for AAA."""
    page.goto(f"{live_server}/rules")
    page.evaluate("document.querySelector('main p:not([hidden])').style.color = '#757575'")
    assert any(problem.startswith("color-contrast-enhanced") for problem in violations(page))
