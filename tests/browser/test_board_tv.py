"""The table board on a TV (1920x1080) is the board and nothing else: no site header, no
language buttons, no footer, no links. The "Full screen" button and the note that the
screen may sleep are there, hidden until the page's script finds them of use. On a phone
(360 px), the person holding it still has a small way back.

In a club of its own (``club_tonight.py``): a game's own board, the evening's table
board, and its board of every table.
"""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scorekeeper.clubs.access import COOKIE
from tests.browser.club_tonight import club_tonight
from tests.browser.phones import phone_context, wait_until
from tests.browser.table_steps import SMALL_PHONE

pytestmark = pytest.mark.browser

TV = {"width": 1920, "height": 1080}

# Every element drawn on the page (a box of some size, visible) that is neither the board
# nor inside it, nor one of the board's ancestors: what a TV would show beside the board.
BESIDE_THE_BOARD = """
() => {
  const board = document.getElementById('board');
  return [...document.body.querySelectorAll('*')].filter(el => {
    if (board.contains(el) || el.contains(board)) return false;
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && el.checkVisibility({visibilityProperty: true});
  }).map(el => el.id || el.tagName.toLowerCase()
           + (el.className ? '.' + String(el.className).split(' ').join('.') : ''));
}
"""

# Links and buttons drawn inside the board: a TV has nobody to tap them.
TAPPABLE = """
() => [...document.querySelectorAll('#board a, #board button')]
  .filter(el => el.getBoundingClientRect().width > 0 && el.checkVisibility())
  .map(el => el.textContent.trim())
"""


def boards(tonight) -> tuple[str, str]:
    return f"/evenings/{tonight.evening}/board", f"/games/{tonight.playing}/board"


def test_a_tv_shows_the_board_and_nothing_else(browser, live_app, live_server, tmp_path):
    tonight = club_tonight(live_app)
    context = browser.new_context(viewport=TV)  # a TV: no touch, no phone
    context.add_cookies([{"name": COOKIE, "value": tonight.member(live_app, "viewer", "TV"),
                          "url": live_server}])
    try:
        tv = context.new_page()
        for path in (*boards(tonight), f"/evenings/{tonight.evening}/tables"):
            tv.goto(live_server + path)
            expect(tv.locator("#board .board-team")).to_have_count(3)
            expect(tv.locator("header")).to_have_count(0)
            expect(tv.locator("footer")).to_have_count(0)
            expect(tv.locator("form")).to_have_count(0)  # the language picker is a form
            assert tv.evaluate(TAPPABLE) == [], path
            # Beside the board, only what the page's script shows: "Full screen" where the
            # browser can fill the screen, the note where it can't keep the screen on.
            assert set(tv.evaluate(BESIDE_THE_BOARD)) <= {"full-screen", "stay-awake-note"}
            full_screen = tv.locator("button#full-screen")
            expect(full_screen).to_have_attribute("type", "button")
            expect(full_screen).to_have_text("Full screen")
            tv.screenshot(path=str(tmp_path / f"tv{path.replace('/', '-')}.png"))
            # Chromium can fill the screen (app.js shows the button): the full screen
            # holds the board alone.
            full_screen.click()
            wait_until(tv, "() => document.fullscreenElement === document.documentElement")
            assert tv.evaluate(BESIDE_THE_BOARD) == [], path
            tv.evaluate("document.exitFullscreen()")
            wait_until(tv, "() => document.fullscreenElement === null")
    finally:
        context.close()


def test_shown_the_buttons_sit_below_the_board_and_a_phone_keeps_a_way_back(
        browser, live_app, live_server: str):
    tonight = club_tonight(live_app)
    evening_board, game_board = boards(tonight)
    context = phone_context(browser, SMALL_PHONE, (live_server, tonight.member(live_app)))
    try:
        page = context.new_page()
        page.goto(live_server + game_board)
        expect(page.locator("header")).to_have_count(0)
        expect(page.locator("footer")).to_have_count(0)
        back = page.get_by_role("link", name="Back to the game")
        expect(back).to_be_visible()
        assert back.bounding_box()["height"] >= 44
        # What the page's script shows where the browser can: below the board, in view.
        page.evaluate("document.querySelectorAll('#full-screen, #stay-awake-note')"
                      ".forEach(el => el.hidden = false)")
        button = page.get_by_role("button", name="Full screen")
        expect(button).to_be_visible()
        box, board = button.bounding_box(), page.locator("#board").bounding_box()
        assert box["y"] >= board["y"] + board["height"] and box["height"] >= 44
        expect(page.locator("#stay-awake-note")).to_be_visible()
        page.goto(live_server + evening_board)
        expect(page.get_by_role("link", name="Back to the game")).to_be_visible()
    finally:
        context.close()


def test_a_tv_on_plain_http_says_it_may_sleep_and_full_screen_still_holds_the_board_alone(
        browser_on_lan, live_app, live_server: str):
    """On the club's Wi-Fi over http://, a TV's browser has no Wake Lock: the note says the
    screen may sleep, below the board. Once in full screen, the board is alone again."""
    tonight = club_tonight(live_app)
    base = "http://club.lan:" + live_server.rsplit(":", 1)[1]
    context = browser_on_lan.new_context(viewport=TV)
    context.add_cookies([{"name": COOKIE, "value": tonight.member(live_app, "viewer", "TV"),
                          "url": base}])
    try:
        tv = context.new_page()
        tv.goto(base + boards(tonight)[0])
        assert tv.evaluate("() => [window.isSecureContext, 'wakeLock' in navigator]") \
            == [False, False]
        expect(tv.locator("#stay-awake-note")).to_be_visible()
        tv.locator("button#full-screen").click()
        wait_until(tv, "() => document.fullscreenElement === document.documentElement")
        assert tv.evaluate(BESIDE_THE_BOARD) == []
    finally:
        context.close()
