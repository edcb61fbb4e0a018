"""After a reload with no connection, the page shows only what stands: the phone's own
Undo for the last hand it keeps, not the server's for its last hand, nor the server's
notice of a hand recorded before the connection went."""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.phones import connection
from tests.browser.table_steps import Taps, button, start_game
from tests.browser.test_network import under_the_service_worker
from tests.browser.test_play_offline import (
    TARGET, expect_played_on, play_offline, play_online,
)

pytestmark = pytest.mark.browser

UNDO_JS = """() => [...document.querySelectorAll('button')]
  .filter((b) => b.getClientRects().length && /^Undo hand/.test(b.textContent.trim()))
  .map((b) => b.textContent.trim())"""


def test_an_offline_reload_shows_only_the_phones_own_undo(page: Page, server_to_lose):
    live_server = server_to_lose.url
    taps = Taps()
    under_the_service_worker(page, live_server)
    start_game(page, live_server, taps, target=TARGET)
    play_online(page, taps, 2)
    connection(page, up=False, server=server_to_lose)
    play_offline(page, taps, 3, 5)
    for _ in range(2):
        page.reload()
        expect_played_on(page, 5)
        assert "Hand 2 recorded" not in page.locator("main").inner_text()  # as seen
        assert page.evaluate(UNDO_JS) == ["Undo hand 5"]
    taps(button(page, "Undo hand 5"))
    expect_played_on(page, 4)
    assert page.evaluate(UNDO_JS) == ["Undo hand 4"]


def test_an_undo_not_sent_is_not_said_once_the_table_plays_on(page: Page, live_server: str):
    """Undo tapped with no connection says nothing was changed; once the next hand is
    played on the phone, that is no longer about anything on the screen."""
    taps = Taps()
    start_game(page, live_server, taps, target=TARGET)
    play_online(page, taps, 2)
    connection(page, up=False)
    taps(button(page, "Undo hand 2"))
    failed = page.get_by_text("Not sent: no connection. Nothing was changed.")
    expect(failed).to_be_visible()
    play_offline(page, taps, 3, 3)
    expect(failed).to_be_hidden()
    assert page.evaluate(UNDO_JS) == ["Undo hand 3"]
