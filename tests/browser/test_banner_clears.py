"""The banner "No connection since…" goes as soon as the connection is back, with
nothing waiting to be sent: a poll that went out on a connection not there yet (a Wi-Fi
coming back: its first packets lost) is given up, not waited for as long as a held poll."""
from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Page, Route, expect

from tests.browser.table_steps import Taps, start_game

pytestmark = pytest.mark.browser

# A poll held by the server waits LIVE_WAIT_SECONDS (3 in these tests) and 10 s more for its
# answer: the banner must go well before a poll lost on the way could time out.
CLEARED_WITHIN_MS = 9_000


def test_the_banner_goes_soon_after_the_connection_is_back(page: Page, live_server: str):
    start_game(page, live_server, Taps())
    banner = page.locator("#connection")
    lost: list[Route] = []
    back = False

    def first_packets_lost(route: Route) -> None:
        if not back:
            route.abort("internetdisconnected")
        elif not lost:
            lost.append(route)  # never answered: it went out before the Wi-Fi was up
        else:
            route.continue_()

    page.route(re.compile(r"/live\?"), first_packets_lost)
    page.context.set_offline(True)
    expect(banner).to_contain_text("No connection since")
    back = True
    page.context.set_offline(False)
    started = time.monotonic()
    expect(banner).to_be_hidden(timeout=CLEARED_WITHIN_MS)
    assert lost, "no poll was lost: the test did not make the case it is about"
    print(f"banner gone {time.monotonic() - started:.1f} s after the connection came back")
