"""Fixing the past from the phone: a forgotten throw-in put in where it belongs, and two
players who sat the other way round swapped, each shown with its consequences first.

Table (3 teams of 2, play to 11, Ann deals first): A = Ann & Dan, B = Bob & Eve,
C = Cid & Fay.
hand 1  Ann deals; Bob (B) bids 4 ♥ and B takes everything: B +6 (High, Low, Right,
        Left, Joker, Game).                                      -> A 0, B 6, C 0
hand 2  Bob deals; Cid (C) bids 3 ♠, C takes High, Low, Right, A the rest: C +3, A +3
                                                                 -> A 3, B 6, C 3
Then: a throw-in before hand 2 was forgotten (Bob dealt it, all passed; Bob dealt again),
so the scores stay and hand 3 (the old hand 2) is still Bob's deal. Then Bob and Cid
swap seats: team B is Cid & Eve, team C Bob & Fay; every hand stays by seat.
"""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.table_steps import (
    Taps, button, choose, expect_notice, expect_scores, history_row, layout_problems,
    name_trump, quick_bid, record, start_game, tally,
)

pytestmark = pytest.mark.browser

EVERYTHING_B = {p: "B" for p in ("High", "Low", "Right Bauer", "Left Bauer", "Joker", "Game")}
HAND_2 = {"High": "C", "Low": "C", "Right Bauer": "C", "Left Bauer": "A", "Joker": "A",
          "Game": "A"}


def test_a_forgotten_throw_in_and_a_swap_of_seats_from_the_phone(small_page: Page,
                                                                 live_server: str):
    page = small_page
    taps = Taps()
    start_game(page, live_server, taps)
    quick_bid(page, taps, bidder=2, bid=4)
    name_trump(page, taps, "Hearts")
    tally(page, taps, EVERYTHING_B)
    record(page, taps, 1)
    quick_bid(page, taps, bidder=3, bid=3)
    name_trump(page, taps, "Spades")
    tally(page, taps, HAND_2)
    record(page, taps, 2)
    expect_scores(page, {"A": 3, "B": 6, "C": 3})

    # The forgotten throw-in: from hand 2's correction, put in before it.
    taps(page.get_by_role("link", name="Edit hand 2"))
    taps(page.get_by_role("link", name="A hand before this one was forgotten: put it in"))
    expect(page.get_by_role("heading", name="A forgotten hand before hand 2")).to_be_visible()
    choose(page, page.get_by_role("radio", name="Everyone passed: thrown in", exact=True), taps)
    taps(button(page, "Save hand 2 as thrown in"))
    check = page.locator("#check")
    expect(check.get_by_role("heading")).to_have_text(
        "Put the forgotten hand in before hand 2?")
    expect(check).to_contain_text("The scores stay as they are.")
    expect(history_row(page, 3)).to_have_count(0)  # nothing written yet
    taps(button(page, "Make this change"))
    expect_notice(page, "The forgotten hand is in, as hand 2")
    expect(history_row(page, 3)).to_contain_text("Bob dealt.")
    expect(history_row(page, 2)).to_contain_text("All passed: thrown in.")
    expect_scores(page, {"A": 3, "B": 6, "C": 3})

    # Bob and Cid sat the other way round.
    taps(page.locator("summary", has_text="Fix a mistake"))
    taps(page.get_by_role("link", name="A forgotten hand, seats, a substitute, names, abandon"))
    assert layout_problems(page, "fixing a mistake") == []
    page.get_by_label("Swap", exact=True).select_option(label="Seat 2: Bob")
    page.get_by_label("with", exact=True).select_option(label="Seat 3: Cid")
    taps(button(page, "Check the swap"))
    expect(page.locator("#check")).to_contain_text(
        "Cid: seat 2, team B with Eve; what seat 2 bid and took in this game counts for Cid.")
    taps(button(page, "Make this change"))
    expect_notice(page, "Bob and Cid changed seats.")
    expect(page.locator(".team-B .team-names")).to_have_text("Cid & Eve")
    expect(page.locator(".team-C .team-names")).to_have_text("Bob & Fay")
    expect_scores(page, {"A": 3, "B": 6, "C": 3})
    assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
