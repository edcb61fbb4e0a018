"""Two phones at one table, live: the owner shares the game with a QR code page, a
second phone joins as a watcher from the link, and sees the hand in progress and the
new scores appear without a reload; it finds no control that changes anything.

Ann deals hand 1 (target 11). Bob (seat 2, team B) wins the bid with 4 in hearts.
B takes High, Low, Right and Left (4): made, +4. C takes Joker and Game: +2.
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.phones import GLANCE_MS, phone_context, within_polls
from tests.browser.table_steps import (
    Taps, button, expect_scores, name_trump, quick_bid, start_game, tally,
)

pytestmark = pytest.mark.browser



@pytest.fixture
def stranger_phone(browser):
    context = phone_context(browser, {"width": 360, "height": 740})
    try:
        yield context.new_page()
    finally:
        context.close()


def test_a_watcher_joins_by_the_shared_link_and_follows_the_game_live(
        page: Page, stranger_phone: Page, live_server: str):
    owner, watcher, taps = page, stranger_phone, Taps()
    start_game(owner, live_server, taps, target=11)
    game_url = owner.url

    # The owner's share page: a QR code and the link to watch, read-only.
    owner.get_by_role("link", name="Share this game (QR code)").click()
    owner.get_by_role("button", name="Make the links for this game").click()
    watch = owner.get_by_role("region", name="Watch, read-only")
    expect(watch.get_by_role("img", name="QR code of the link below")).to_be_visible()
    link = watch.locator(".link-text a").inner_text()
    assert re.search(r"/join/[A-Za-z0-9_-]{32,}$", link)

    # The second phone knows nothing of the club until it joins.
    response = watcher.goto(game_url)
    assert response.status == 404
    assert "Ann" not in watcher.content()
    watcher.goto(link)
    watcher.get_by_label("Your name").fill("Vera")
    watcher.get_by_role("button", name="Join").click()
    expect(watcher).to_have_url(game_url)
    expect_scores(watcher, {"A": 0, "B": 0, "C": 0})
    watcher.evaluate("window.notReloaded = true")

    # The owner's taps show on the watcher's phone as they happen.
    owner.goto(game_url)
    steps = []  # each step's number: two sent at once may end in either order
    owner.on("request", lambda request: steps.extend(
        int(n) for n in re.findall(r"[?&]step=(\d+)", request.url)))
    quick_bid(owner, taps, bidder=2, bid=4)
    name_trump(owner, taps, "Hearts")
    within_polls(watcher, lambda: expect(watcher.locator("#live-bid")).to_have_text(
        "Bob bid 4. Trump: Hearts.", timeout=GLANCE_MS))
    assert len(steps) >= 2 and steps == sorted(set(steps)), steps
    tally(owner, taps, {"High": "B", "Low": "B", "Right Bauer": "B", "Left Bauer": "B",
                        "Joker": "C", "Game": "C"})
    taps(button(owner, "Record hand 1"))
    expect_scores(owner, {"A": 0, "B": 4, "C": 2})

    # ... and the scores arrive without a reload, saying who recorded the hand.
    within_polls(watcher, lambda: expect(watcher.get_by_role("status")).to_contain_text(
        "recorded hand 1", timeout=GLANCE_MS))
    expect_scores(watcher, {"A": 0, "B": 4, "C": 2})
    assert watcher.evaluate("window.notReloaded") is True

    # A watcher has nothing to tap that changes the game.
    # (The language picker at the foot of the page changes only this phone's language.)
    assert watcher.locator("main").get_by_role("button").count() == 0
    assert watcher.locator("main form[method=post]").count() == 0
    expect(watcher.get_by_role("link", name=re.compile("^Edit hand"))).to_have_count(0)
    expect(watcher.get_by_text("You are watching")).to_be_visible()


def test_the_scoreboard_follows_the_game_on_a_landscape_tablet(
        page: Page, browser, member_of_club, live_server: str):
    taps = Taps()
    start_game(page, live_server, taps, target=11)
    context = phone_context(browser, {"width": 1024, "height": 600}, member_of_club("viewer"))
    try:
        board = context.new_page()
        board.goto(page.url + "/board")
        expect(board.get_by_text("Hand 1. Dealer: Ann.")).to_be_visible()
        quick_bid(page, taps, bidder=2, bid=4)
        within_polls(board, lambda: expect(board.locator("#board-hand")).to_contain_text(
            "Bob bid 4.", timeout=GLANCE_MS))
        name_trump(page, taps, "Hearts")
        tally(page, taps, {"High": "B", "Low": "B", "Right Bauer": "B", "Left Bauer": "B",
                           "Joker": "C", "Game": "C"})
        taps(button(page, "Record hand 1"))
        within_polls(board, lambda: expect(board.locator("#board-last")).to_contain_text(
            "B bid 4, took 4: made, +4.", timeout=GLANCE_MS))
        score = board.get_by_label("Team B: 4 points")
        expect(score).to_be_visible()
        assert score.bounding_box()["height"] >= 60  # readable from across the table
        assert board.evaluate("document.documentElement.scrollWidth") <= 1024
    finally:
        context.close()
