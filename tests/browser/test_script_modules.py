"""The phone's script as ES modules, on a phone: the page loads app.js and the modules it
imports at their fingerprinted addresses, and only once the game is up what playing on
needs (offline.js, the rules), imported by app.js. The service worker keeps them all by
those addresses, so the game page reloaded with no connection imports them again from
it and the table plays a hand on the phone.
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.phones import connection, ready_to_play_on, until
from tests.browser.table_steps import (
    AFTER_HAND_1, Taps, button, enter_hand_1, expect_entry, expect_scores, start_game,
)
from tests.browser.test_network import under_the_service_worker

pytestmark = pytest.mark.browser

SCRIPT = re.compile(r"/static/(?!vendor/)([\w-]+\.js)(\?.*)?$")
FINGERPRINT = re.compile(r"^\?v=[0-9a-f]{12}$")
MODULES = {"app.js", "page.js", "kept.js", "offline.js", "rules.js"}


class Scripts:
    """The page's script requests: (module, its query, whether the worker answered)."""

    def __init__(self, page: Page) -> None:
        self.seen: list[tuple[str, str, bool]] = []
        page.on("requestfinished", self.finished)

    def finished(self, request) -> None:
        found = SCRIPT.search(request.url)
        response = request.response()
        if found and response is not None:
            self.seen.append((found[1], found[2] or "", response.from_service_worker))

    def all_seen(self, page: Page) -> None:
        """Until every module has been asked for (the events reach the test after the page
        has them)."""
        until(page, lambda: MODULES <= {name for name, _query, _worker in self.seen},
              f"every module asked for: {MODULES}")


def test_a_game_reloaded_with_no_connection_imports_its_modules_and_plays_a_hand(
        page: Page, server_to_lose):
    base, taps = server_to_lose.url, Taps()
    under_the_service_worker(page, base)
    start_game(page, base, taps)
    page_html = page.content()
    assert "offline.js" not in page_html and "rules.js" not in page_html  # not the first load
    scripts = Scripts(page)
    page.reload()
    ready_to_play_on(page)
    expect(page.locator("html")).to_have_attribute("data-offline-ready", "")
    scripts.all_seen(page)
    assert [(name, query) for name, query, _ in scripts.seen
            if not FINGERPRINT.match(query)] == []

    connection(page, up=False, server=server_to_lose)
    scripts.seen.clear()
    page.reload()  # the worker's copy of the page, and of every module it imports
    ready_to_play_on(page)
    scripts.all_seen(page)
    assert all(worker for _name, _query, worker in scripts.seen), scripts.seen
    enter_hand_1(page, taps)
    taps(button(page, "Record hand 1"))
    expect_entry(page, 2, dealer=2)
    expect_scores(page, AFTER_HAND_1)
    expect(page.locator(".on-phone")).to_contain_text("Hand 1 is on this phone only")
