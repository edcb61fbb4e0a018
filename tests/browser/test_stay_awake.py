"""The screen stays on where the table needs it: a scorer's phone while it enters a hand
(the lock let go once the game is over), the table board on a TV; where the browser has
no Wake Lock (plain http://, an older phone), the board says once that it may sleep.

The browser's Wake Lock is stood in for by a fake that counts what the page asks of it:
a headless browser has no screen to keep on.
"""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.phones import wait_until
from tests.browser.table_steps import (
    Taps, button, name_trump, quick_bid, record, start_game, tally,
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
