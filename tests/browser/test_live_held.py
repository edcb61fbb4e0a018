"""A watching phone is quiet while nothing happens, and has a hand at once when it is
recorded: its poll is held by the server until the game changes (``LIVE_WAIT_SECONDS``,
here 10 s for the test's own game) instead of asked every 2 seconds."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.phones import until
from tests.browser.table_steps import (
    AFTER_HAND_1, Taps, button, enter_hand_1, expect_scores, start_game,
)

pytestmark = pytest.mark.browser

HOLD = 10
WINDOW = 20


def held_for(live_app, seconds: float):
    before = live_app.config["LIVE_WAIT_SECONDS"]
    live_app.config["LIVE_WAIT_SECONDS"] = seconds
    yield
    live_app.config["LIVE_WAIT_SECONDS"] = before


@pytest.fixture
def held_ten_seconds(live_app):
    yield from held_for(live_app, HOLD)


@pytest.fixture
def held_a_minute(live_app):
    """Polls held a minute: a poll whose answer never comes is given up by the page
    only after 70 s, far later than any test waits for what it checks."""
    yield from held_for(live_app, 60)


def test_an_idle_watcher_asks_a_few_times_and_has_the_hand_at_once(
        page: Page, viewer: Page, live_server: str, held_ten_seconds):
    taps = Taps()
    start_game(page, live_server, taps)
    viewer.goto(page.url)
    expect(viewer.get_by_text("You are watching")).to_be_visible()
    polls: list = []
    viewer.on("request", lambda request: "/live?" in request.url and polls.append(request))
    viewer.wait_for_timeout(WINDOW * 1000)  # (events come in while playwright waits)
    # Every 2 s would be 10 polls; held 10 s, at most 3 (one open at the start).
    assert 1 <= len(polls) <= WINDOW // HOLD + 1, polls
    assert all("wait=1" in poll.url for poll in polls), polls

    enter_hand_1(page, taps)
    with viewer.expect_request(lambda request: "/live?" in request.url,
                               timeout=(HOLD + 10) * 1000):
        pass  # a poll just sent, held for 10 s: far longer than the tap that follows
    empty: list = []
    viewer.on("response", lambda response: "/live?" in response.url
              and response.status == 204 and empty.append(response))
    taps(button(page, "Record hand 1"))
    expect_scores(viewer, AFTER_HAND_1)
    assert not empty  # the held poll answered with the hand: none came back with nothing
    expect(viewer.locator("#connection")).to_be_hidden()


# The phone's screen goes off (true) or on again (false), as its browser tells the page.
SCREEN_OFF = """(off) => {
  Object.defineProperty(document, "visibilityState", {value: off ? "hidden" : "visible", configurable: true});
  Object.defineProperty(document, "hidden", {value: off, configurable: true});
  document.dispatchEvent(new Event("visibilitychange"));
}"""


def test_a_phone_woken_on_a_connection_lost_in_its_sleep_has_the_hand_at_once(
        page: Page, viewer: Page, live_server: str, held_a_minute):
    """A watcher's phone sleeps with its poll out; the Wi-Fi drops the connection
    meanwhile, so no answer to that poll will ever come (it would be given up only at its
    timeout, 70 s here, 35 s at the club). Woken, the phone asks again: it has the hand
    recorded in its sleep within one poll's rhythm, and says nothing of a lost connection."""
    taps = Taps()
    start_game(page, live_server, taps)
    lost: list = []

    def lose_the_first(route) -> None:
        if lost:
            route.continue_()
        else:
            lost.append(route)  # never answered: the connection it went on is gone

    viewer.route(re.compile(r"/live\?"), lose_the_first)
    viewer.goto(page.url)
    expect(viewer.get_by_text("You are watching")).to_be_visible()
    until(viewer, lambda: lost, "the watcher's first poll")
    viewer.evaluate(SCREEN_OFF, True)
    enter_hand_1(page, taps)
    taps(button(page, "Record hand 1"))
    expect_scores(page, AFTER_HAND_1)
    viewer.evaluate(SCREEN_OFF, False)
    expect_scores(viewer, AFTER_HAND_1)
    expect(viewer.locator("#connection")).to_be_hidden()
