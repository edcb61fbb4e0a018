"""The bidding on the phone: one tap on the winning bid, or each call in turn; a wrong
tap put right by tapping the right one; the folded bid saying who bid and leads.

Ann deals hand 1: Bob, Cid, Dan, Eve, Fay call in that order, then Ann.
"""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.table_steps import Taps, call, call_radio, choice_label, name_trump, start_game

pytestmark = pytest.mark.browser


def checked_bids(page: Page) -> list[str]:
    return page.locator("#hand-form .turn input.bid:checked").evaluate_all(
        "inputs => inputs.map(i => i.name + '=' + i.value)")


def test_a_wrong_tap_is_put_right_by_tapping_the_right_bid(page: Page, live_server: str):
    taps = Taps()
    start_game(page, live_server, taps)
    call(page, taps, 5, 5)  # Eve 5, by mistake: it was Dan's 4
    # Nothing is hidden for one tap alone: Dan's 4 is there to be tapped.
    call(page, taps, 4, 4)
    assert checked_bids(page) == ["turn_3=4"]
    call(page, taps, 6, 3)  # and again: Fay won with 3, after all
    assert checked_bids(page) == ["turn_5=3"]
    name_trump(page, taps, "Clubs")
    # Folded: the bidder's row, its bid, and who leads, beside "Change the bid".
    row = page.locator("#hand-form .turn:visible")
    expect(row).to_have_count(1)
    expect(row).to_contain_text("Fay")
    expect(row).to_contain_text("Fay leads.")
    expect(call_radio(page, 6, 3)).to_be_checked()
    page.get_by_text("Change the bid", exact=True).click()
    expect(page.locator("#hand-form .turn:visible")).to_have_count(6)


def test_turn_by_turn_keeps_every_call_and_offers_only_higher_bids(page: Page,
                                                                   live_server: str):
    taps = Taps()
    start_game(page, live_server, taps)
    call(page, taps, 2, "pass")  # a pass entered: turn by turn
    call(page, taps, 3, 3)
    call(page, taps, 4, 4)
    assert checked_bids(page) == ["turn_2=3", "turn_3=4"]
    # After Dan's 4 only 5 and 6 for the seats after him, each in its own column still.
    expect(call_radio(page, 5, 3)).to_have_count(0)
    expect(call_radio(page, 5, 4)).to_have_count(0)
    five = choice_label(call_radio(page, 5, 5)).bounding_box()
    five_above = choice_label(call_radio(page, 2, 5)).bounding_box()
    assert abs(five["x"] - five_above["x"]) < 1
    call(page, taps, 5, 6)  # Eve's 6 ends the bidding: Fay and Ann have no turn
    expect(page.locator("#hand-form .turn-5")).to_be_hidden()
    expect(page.locator("#hand-form .turn-6")).to_be_hidden()
