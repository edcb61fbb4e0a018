"""The screen stays on where the table needs it: a scorer's phone while it enters a hand
(the lock let go once the game is over), the table board on a TV; where the browser has
no Wake Lock (plain http://, an older phone), the board says once that it may sleep.

The browser's Wake Lock is stood in for by a fake that counts what the page asks of it:
a headless browser has no screen to keep on.
"""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.clubs.access import COOKIE
from tests.browser.club_tonight import club_tonight
from tests.browser.phones import wait_until
from tests.browser.table_steps import (
    Taps, button, name_trump, quick_bid, start_game, tally,
)

pytestmark = pytest.mark.browser

FAKE_WAKE_LOCK = """
window.screenHeld = false;
Object.defineProperty(navigator, "wakeLock", {configurable: true, value: {
  async request(type) {
    if (type !== "screen") throw new TypeError(type);
    window.screenHeld = true;
    const lock = {released: false, async release() { lock.released = true; window.screenHeld = false; }};
    return lock;
  },
}});
"""
NO_WAKE_LOCK = 'Object.defineProperty(navigator, "wakeLock", {configurable: true, value: undefined});'
SWEEP = {p: "B" for p in ("High", "Low", "Right Bauer", "Left Bauer", "Joker", "Game")}


def test_a_scorers_phone_stays_awake_while_a_hand_is_entered(page: Page, live_server: str):
    page.add_init_script(FAKE_WAKE_LOCK)
    taps = Taps()
    start_game(page, live_server, taps, target=6)
    wait_until(page, "window.screenHeld === true")
    quick_bid(page, taps, bidder=2, bid=6)
    name_trump(page, taps, "Hearts")
    tally(page, taps, SWEEP)
    taps(button(page, "Record hand 1"))
    expect(page.get_by_role("heading", name="Game over")).to_be_visible()
    wait_until(page, "window.screenHeld === false")  # nothing left to enter: let it sleep


def tv(browser, live_app, live_server, script: str):
    tonight = club_tonight(live_app)
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    context.add_cookies([{"name": COOKIE, "value": tonight.member(live_app, "viewer", "TV"),
                          "url": live_server}])
    context.add_init_script(script)
    screen = context.new_page()
    screen.goto(f"{live_server}/evenings/{tonight.evening}/board")
    return context, screen


def test_the_table_board_keeps_the_tv_awake_and_goes_full_screen_on_a_tap(
        browser, live_app, live_server):
    context, screen = tv(browser, live_app, live_server, FAKE_WAKE_LOCK)
    try:
        wait_until(screen, "window.screenHeld === true")
        expect(screen.locator("#stay-awake-note")).to_be_hidden()
        full = screen.get_by_role("button", name="Full screen")
        expect(full).to_be_visible()
        full.click()
        wait_until(screen, "document.fullscreenElement === document.documentElement")
    finally:
        context.close()


def test_a_board_that_can_not_keep_the_screen_on_says_so(browser, live_app, live_server):
    context, screen = tv(browser, live_app, live_server, NO_WAKE_LOCK)
    try:
        note = screen.locator("#stay-awake-note")
        expect(note).to_be_visible()
        expect(note).to_have_text("This screen may go to sleep: set the TV or tablet to "
                                  "stay on while the table plays.")
    finally:
        context.close()
