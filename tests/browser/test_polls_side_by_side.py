"""Pages of one browser poll side by side: two on one board are held by the server at
once, and a page nobody sees asks nothing until it is seen again.

A browser sends one request for an address at a time while it might answer the next
from its cache (Chromium's cache lock). Two pages on one board (a TV's two windows, a
phone's two tabs) polled one address: the second's poll left only once the first's
held one was answered, was held in turn, and was given up at the page's timeout. Each
page's polls now have an address of their own. And a page out of sight gives its held
poll up, leaving the browser's few connections to a server over http:// to the page
that is seen.
"""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scorekeeper.clubs.access import COOKIE
from tests.browser.phones import until
from tests.browser.test_board_fills_the_tv import evening_of_tables
from tests.browser.test_live_held import SCREEN_OFF, held_for
from tests.members import member_cookie

pytestmark = pytest.mark.browser

HOLD = 30  # s: a poll queued behind another's hold would wait far past any wait below


@pytest.fixture
def held_half_a_minute(live_app):
    yield from held_for(live_app, HOLD)


@pytest.fixture
def one_browser(browser, live_app, live_server):
    """``pages(n)``: n pages of one browser (one device of a club of its own, tonight's
    evening with a game at table 1), and the evening's address and ids."""
    club, evening = evening_of_tables(live_app, 1)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_cookies([{"name": COOKIE, "url": live_server,
                          "value": member_cookie(live_app, "viewer", "TV", club_id=club)}])
    yield lambda n: [context.new_page() for _ in range(n)], f"{live_server}/evenings/{evening}", club, evening
    context.close()


def held_on(live_app, key) -> int:
    watch = live_app.extensions.get("live_watch")
    return watch.held(key) if watch else 0


def test_two_pages_on_one_board_in_one_browser_are_held_at_once(
        one_browser, live_app, held_half_a_minute):
    pages, url, club, evening = one_browser
    boards, tables = pages(2), pages(2)
    for page in boards:
        page.goto(f"{url}/board?table=1")
    for page in tables:
        page.goto(f"{url}/tables")
    until(boards[0], lambda: held_on(live_app, ("evening", club, evening, 1)) == 2,
          "both pages on table 1's board held by the server")
    until(tables[0], lambda: held_on(live_app, ("evening", club, evening, None)) == 2,
          "both pages on every table's board held by the server")
    for page in boards + tables:
        expect(page.locator("#connection")).to_be_hidden()


def test_a_page_out_of_sight_asks_nothing_until_it_is_seen_again(one_browser):
    pages, url, _club, _evening = one_browser
    seen, hidden = pages(2)
    for page in (seen, hidden):
        page.goto(f"{url}/board?table=1")
    asked: list = []
    hidden.on("request", lambda request: "/live?" in request.url and asked.append(request))
    answered: list = []
    seen.on("requestfinished", lambda request: "/live?" in request.url and answered.append(request))
    hidden.evaluate(SCREEN_OFF, True)
    asked.clear()  # one may have left as it went out of sight
    answered.clear()
    until(seen, lambda: len(answered) >= 2, "two polls of the page that is seen", seconds=60)
    assert asked == [], [request.url for request in asked]
    with hidden.expect_request(lambda request: "/live?" in request.url):
        hidden.evaluate(SCREEN_OFF, False)
    expect(hidden.locator("#connection")).to_be_hidden()
