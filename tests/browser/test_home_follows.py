"""A viewer waiting on the club's home page: the scorer starts tonight's game and the
viewer's phone goes to it by itself, as a phone left on a finished game goes to the
next. Back on the home page (the Back button), it stays there: the game is listed, and
the page waits for the next one.

A club of its own, with no game yet: Sam scores, Vic watches.
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.phones import GLANCE_MS, within_polls
from tests.browser.table_steps import Taps, game_id, start_game

pytestmark = pytest.mark.browser


def test_the_home_page_goes_to_tonights_game_once_it_starts(scorer: Page, viewer: Page,
                                                              live_server):
    viewer.goto(f"{live_server}/")
    expect(viewer.get_by_role("heading", name="Games")).to_be_visible()

    start_game(scorer, live_server, Taps())
    started = game_id(scorer)
    within_polls(viewer, lambda: expect(viewer).to_have_url(
        f"{live_server}/games/{started}", timeout=GLANCE_MS))
    expect(viewer.get_by_text("You are watching")).to_be_visible()

    # Back on the home page: the game is there, and the page is not taken away again.
    viewer.go_back()
    expect(viewer).to_have_url(f"{live_server}/")
    expect(viewer.get_by_role("link", name=re.compile(rf"^Game {started} "))).to_be_visible()
    for _ in range(2):
        with viewer.expect_response(re.compile(r"/live\?")) as polled:
            pass
        assert polled.value.status == 204 and polled.value.header_value("HX-Redirect") is None
    expect(viewer).to_have_url(f"{live_server}/")
    expect(viewer.locator("#connection")).to_be_hidden()
