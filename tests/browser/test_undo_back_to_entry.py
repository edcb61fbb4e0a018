"""Undo puts the hand back in the entry, online as with no connection: a table that
undoes a hand to fix one point taps that point and records it again."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, Route, expect

from scorekeeper.clubs.access import COOKIE
from tests.browser.phones import PHONE, connection, ready_to_play_on
from tests.browser.table_steps import (
    AFTER_HAND_1, HAND_1, Taps, button, call, enter_hand_1, expect_entry, expect_notice,
    expect_scores, name_trump, point_group, record, start_game, tally,
)

pytestmark = pytest.mark.browser

# Hand 2, dealt by Bob: Eve (seat 5, B) bids 3 in spades; the cards as in hand 1.
HAND_2_CHOICES = [("turn_3", "3"), ("trump", "spades"), ("high", "B"), ("low", "B"),
                  ("right", "B"), ("left", "B"), ("joker", "C"), ("game", "C")]

CHOSEN_JS = """() => [...document.querySelectorAll('#hand-form input:checked')]
  .map((input) => [input.name, input.value])"""


def enter_hand_2(page: Page, taps: Taps) -> None:
    call(page, taps, 5, 3)
    name_trump(page, taps, "Spades")
    tally(page, taps, HAND_1)


@pytest.mark.parametrize("connected", [True, False], ids=["online", "offline"])
def test_undo_puts_the_hand_back_in_the_entry(page: Page, live_server: str, connected: bool):
    taps = Taps()
    start_game(page, live_server, taps)
    enter_hand_1(page, taps)
    record(page, taps, 1)
    ready_to_play_on(page)
    if not connected:
        connection(page, up=False)
    enter_hand_2(page, taps)
    taps(button(page, "Record hand 2"))
    expect_entry(page, 3, dealer=3)

    taps(button(page, "Undo hand 2"))
    expect_entry(page, 2, dealer=2)
    expect_scores(page, AFTER_HAND_1)
    expect(button(page, "Record hand 2")).to_be_visible()
    assert sorted(map(tuple, page.evaluate(CHOSEN_JS))) == sorted(HAND_2_CHOICES)
    if connected:  # kept on the phone as any hand being entered: a reload loses nothing
        page.reload()
        expect_entry(page, 2, dealer=2)
        expect(button(page, "Record hand 2")).to_be_visible()
        assert sorted(map(tuple, page.evaluate(CHOSEN_JS))) == sorted(HAND_2_CHOICES)

    # One point put right, and the hand recorded again: nothing else to tap.
    choice = point_group(page, "Joker").get_by_role("radio", name="B", exact=False).first
    choice.locator("xpath=ancestor::label[1]").click()
    if connected:
        record(page, taps, 2)
        expect_notice(page, "Hand 2 recorded: A +0, B +5, C +1.")
    else:
        taps(button(page, "Record hand 2"))
        expect_entry(page, 3, dealer=3)


def test_an_undo_whose_answer_is_lost_still_puts_the_hand_back_in_the_entry(page: Page,
                                                                          live_server: str):
    """The server undid the hand but its answer never reached the phone: the poll brings
    the game as it stands, and the hand is back in the entry there too."""
    taps = Taps()
    start_game(page, live_server, taps)
    enter_hand_1(page, taps)
    record(page, taps, 1)
    enter_hand_2(page, taps)
    record(page, taps, 2)

    def answer_lost(route: Route) -> None:
        route.fetch()  # the server acts
        route.abort("connectionreset")

    page.route(re.compile(r"/hands/undo$"), answer_lost)
    taps(button(page, "Undo hand 2"))
    expect_entry(page, 2, dealer=2)
    expect_scores(page, AFTER_HAND_1)
    expect(button(page, "Record hand 2")).to_be_visible()
    assert sorted(map(tuple, page.evaluate(CHOSEN_JS))) == sorted(HAND_2_CHOICES)
    page.unroute(re.compile(r"/hands/undo$"))

    choice = point_group(page, "Joker").get_by_role("radio", name="B", exact=False).first
    choice.locator("xpath=ancestor::label[1]").click()
    record(page, taps, 2)
    expect_notice(page, "Hand 2 recorded: A +0, B +5, C +1.")


def test_without_javascript_undo_puts_the_hand_back_in_the_entry_too(browser, member_of_club,
                                                                      live_server: str):
    url, cookie = member_of_club()
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                  java_script_enabled=False)
    context.add_cookies([{"name": COOKIE, "value": cookie, "url": url}])
    page = context.new_page()
    try:
        taps = Taps()
        start_game(page, live_server, taps)
        enter_hand_1(page, taps)
        record(page, taps, 1)
        taps(button(page, "Undo hand 1"))
        expect_notice(page, "Hand 1 undone.")
        expect_entry(page, 1, dealer=1)
        expect(page.locator("#preview")).to_have_text("B bid 4, took 4: made, +4. A +0, C +2.")
        record(page, taps, 1)
        expect_scores(page, AFTER_HAND_1)
    finally:
        context.close()
