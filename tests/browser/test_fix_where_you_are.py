"""A fix is where the player is: after Record, the next hand's entry is on the screen with
Undo of the hand just recorded and "Fix a mistake" beside it (any hand corrected from
there, no scrolling through the history); "Clear this hand" can be taken back.

Ann deals hand 1 (3 teams of 2, play to 21): Bob (B) bids 4 in hearts, B takes High, Low,
Right and Left, C Joker and Game: B +4, C +2, each hand alike.
"""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.table_steps import (
    Taps, button, expect_entry, expect_scores, name_trump, quick_bid, record, start_game,
    tally,
)

pytestmark = pytest.mark.browser

POINTS = {"High": "B", "Low": "B", "Right Bauer": "B", "Left Bauer": "B", "Joker": "C",
          "Game": "C"}
ON_SCREEN = "(e) => { const r = e.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }"


def play(page: Page, taps: Taps, number: int) -> None:
    quick_bid(page, taps, bidder=2, bid=4)
    name_trump(page, taps, "Hearts")
    tally(page, taps, POINTS)
    record(page, taps, number)


@pytest.fixture
def phone(page: Page) -> Page:
    page.set_viewport_size({"width": 390, "height": 844})
    return page


def test_after_record_undo_and_every_correction_are_on_the_same_screen(phone: Page,
                                                                       live_server: str):
    taps = Taps()
    start_game(phone, live_server, taps)
    for number in (1, 2, 3):
        play(phone, taps, number)
    expect_scores(phone, {"A": 0, "B": 12, "C": 6})
    undo = button(phone, "Undo hand 3")
    assert undo.evaluate(ON_SCREEN), "Undo is not on the screen after Record"
    fix = phone.locator("summary", has_text="Fix a mistake")
    assert fix.evaluate(ON_SCREEN)
    # Any hand's correction, from the menu: no scrolling through the history.
    taps(fix)
    hand_2 = phone.get_by_role("group", name="Correct a hand:").get_by_role("link", name="2", exact=True)
    expect(hand_2).to_be_visible()
    assert hand_2.evaluate(ON_SCREEN)
    taps(hand_2)
    expect(phone.get_by_role("heading", name="Correcting hand 2")).to_be_visible()
    taps(phone.get_by_role("link", name="Cancel the correction"))
    # Undo, where it was: hand 3 goes, its entry comes back as hand 3.
    taps(button(phone, "Undo hand 3"))
    expect_scores(phone, {"A": 0, "B": 8, "C": 4})
    expect_entry(phone, 3, dealer=3)
    assert button(phone, "Undo hand 2").evaluate(ON_SCREEN)


def test_a_cleared_hand_can_be_brought_back_until_the_next_choice(phone: Page,
                                                                  live_server: str):
    taps = Taps()
    start_game(phone, live_server, taps)
    quick_bid(phone, taps, bidder=2, bid=4)
    name_trump(phone, taps, "Hearts")
    bring_back = button(phone, "Bring the cleared hand back")
    expect(bring_back).to_be_hidden()
    taps(button(phone, "Clear this hand"))
    expect(phone.get_by_role("group", name="Trump?")).to_be_hidden()
    taps(bring_back)
    expect(phone.get_by_role("radio", name="Hearts", exact=True)).to_be_checked()
    expect(phone.get_by_role("group", name="Bob").get_by_role("radio", name="Bid 4")).to_be_checked()
    expect(bring_back).to_be_hidden()
    # Cleared again and a new choice made: the old hand is gone for good.
    taps(button(phone, "Clear this hand"))
    quick_bid(phone, taps, bidder=3, bid=5)
    expect(bring_back).to_be_hidden()
    # The brought-back entry is the phone's own again: a reload keeps the new one.
    phone.reload()
    expect(phone.get_by_role("group", name="Cid").get_by_role("radio", name="Bid 5")).to_be_checked()
