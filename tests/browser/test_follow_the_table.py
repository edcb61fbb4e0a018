"""A viewer following from game 1 to game 2: the scorer's phone ends game 1 and starts
game 2; the viewer's phone, left on game 1's page, moves to game 2 by itself and says so.
Back on game 1 (the Back button), it stays there: a look back is not taken away.

A club of its own (its first evening), games to 5, three pairs, Ann deals game 1. Bob
(seat 2, team B) bids 3 in hearts and takes all six points: Bob & Eve win at hand 1.
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.phones import GLANCE_MS, within_polls
from tests.browser.table_steps import (
    Taps, button, expect_notice, game_id, name_trump, quick_bid, record, start_game, tally,
)

pytestmark = pytest.mark.browser

SWEEP = {"High": "B", "Low": "B", "Right Bauer": "B", "Left Bauer": "B", "Joker": "B",
         "Game": "B"}


def test_a_viewer_following_from_game_1_to_game_2(scorer: Page, viewer: Page, live_server):
    taps = Taps()
    start_game(scorer, live_server, taps, target=5)
    one = game_id(scorer)
    viewer.goto(scorer.url)
    expect(viewer.get_by_text("You are watching")).to_be_visible()

    # Game 1 ends on the scorer's phone: the viewer's shows it over, live.
    quick_bid(scorer, taps, bidder=2, bid=3)
    name_trump(scorer, taps, "Hearts")
    tally(scorer, taps, SWEEP)
    record(scorer, taps, 1)
    expect(scorer.get_by_text("Bob & Eve win!")).to_be_visible()
    within_polls(viewer, lambda: expect(viewer.get_by_text("Bob & Eve win!")).to_be_visible(
        timeout=GLANCE_MS))
    expect(viewer.get_by_role("heading", name="Game over")).to_be_visible()

    # The scorer starts game 2, the same seats: the viewer's phone follows by itself.
    taps(scorer.get_by_role("link", name="Next game, same seats"))
    taps(button(scorer, "Start the game"))
    expect(scorer).to_have_url(re.compile(r"/games/\d+$"))
    two = game_id(scorer)
    assert two != one
    within_polls(viewer, lambda: expect(viewer).to_have_url(
        f"{live_server}/games/{two}", timeout=GLANCE_MS))
    expect_notice(viewer, f"Game {one} is over and game {two} has started: you're on it now.")
    expect(viewer.get_by_role("heading", name="Hand 1", exact=True)).to_be_visible()
    expect(viewer.get_by_text("You are watching")).to_be_visible()
    expect(viewer.locator("#connection")).to_be_hidden()

    # ... and on with game 2's hands, as ever.
    quick_bid(scorer, taps, bidder=3, bid=4)
    within_polls(viewer, lambda: expect(viewer.locator("#live-bid")).to_contain_text(
        "Cid bid 4.", timeout=GLANCE_MS))

    # The Back button to game 1: it stays, poll after poll (a look back is not undone).
    viewer.go_back()
    expect(viewer).to_have_url(f"{live_server}/games/{one}")
    expect(viewer.get_by_text("Bob & Eve win!")).to_be_visible()
    for _ in range(2):
        with viewer.expect_response(re.compile(rf"/games/{one}/live\?")) as polled:
            pass
        assert polled.value.status == 204 and polled.value.header_value("HX-Redirect") is None
    expect(viewer).to_have_url(f"{live_server}/games/{one}")
