"""Changing the bid in a correction: "Change the bid", then Pass on the seat that had
the bid, leaves the bidding on the screen to be put right (it folded away with trump,
points and Save, and only "Change the bid" was left).

Ann deals hand 1; Bob (seat 2) bids 4 in hearts, the others passed. A correction opens
with the winning bid alone; Bob's Pass then is one call of the bidding turn by turn.
"""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.table_steps import (
    Taps, button, call, call_radio, choose, enter_hand_1, name_trump, record, start_game,
)

pytestmark = pytest.mark.browser


def correct_hand_1(page: Page, taps: Taps, live_server: str) -> None:
    """Hand 1 recorded, then opened for correction, its bid reopened."""
    start_game(page, live_server, taps)
    enter_hand_1(page, taps)
    record(page, taps, 1)
    taps(page.get_by_role("link", name="Edit hand 1", exact=True))
    expect(page.get_by_role("heading", name="Correcting hand 1")).to_be_visible()
    expect(page.locator("#hand-form .turn:visible")).to_have_count(1)  # folded: Bob's 4
    page.get_by_text("Change the bid", exact=True).click()
    expect(page.locator("#hand-form .turn:visible")).to_have_count(6)


def test_a_pass_on_the_bidders_row_leaves_the_bidding_on_screen(page: Page, live_server: str):
    taps = Taps()
    correct_hand_1(page, taps, live_server)
    call(page, taps, 2, "pass")
    # No bid: every row still there to be changed; trump and Save wait for a bid.
    expect(page.locator("#hand-form .turn:visible")).to_have_count(6)
    expect(call_radio(page, 2, "pass")).to_be_checked()
    expect(page.get_by_role("group", name="Trump?")).to_be_hidden()
    expect(button(page, "Save hand 1")).to_be_hidden()
    # Cid's 5 then: trump (still the one chosen) and the points come back, folded again.
    call(page, taps, 3, 5)
    expect(page.get_by_role("group", name="Trump?")).to_be_visible()
    expect(page.locator("#hand-form .turn:visible")).to_have_count(1)
    expect(button(page, "Save hand 1")).to_be_visible()
    # Everyone passed, after all: the throw-in's Save, with the bidding still in view.
    page.get_by_text("Change the bid", exact=True).click()
    choose(page, page.get_by_role("radio", name="Everyone passed: thrown in", exact=True), taps)
    expect(button(page, "Save hand 1 as thrown in")).to_be_visible()
    expect(page.locator("#hand-form .turn:visible")).to_have_count(6)


def test_a_pass_on_the_bidders_row_of_a_new_hand_leaves_the_bidding_on_screen(
        page: Page, live_server: str):
    taps = Taps()
    start_game(page, live_server, taps)
    call(page, taps, 2, 4)
    name_trump(page, taps, "Hearts")
    page.get_by_text("Change the bid", exact=True).click()
    call(page, taps, 2, "pass")
    expect(page.locator("#hand-form .turn:visible")).to_have_count(6)
    expect(page.get_by_role("group", name="Trump?")).to_be_hidden()
