"""A substitute from hand 9, on a phone (390x844): Ann leaves after hand 8, Gil takes
seat 1; the page says what that changes before it is made, and from hand 9 on the
table's seat 1 is Gil.

Table (3 teams of 2, to 21, Ann deals first): A = Ann & Dan, B = Bob & Eve,
C = Cid & Fay.
hand 1     Ann deals; Bob (B) bids 4 ♥ and B takes everything: B +6.  -> A 0, B 6, C 0
hand 2     Bob deals; Cid (C) bids 3 ♠, C takes High, Low, Right, A the rest: C +3,
           A +3.                                                      -> A 3, B 6, C 3
hands 3-8  Cid deals, all pass: thrown in, Cid deals again.
hand 9     Cid deals; Gil (seat 1, A) bids 4 ♦ and A takes everything: A +6.
                                                                      -> A 9, B 6, C 3
"""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.table_steps import (
    MIN_TAP, OVERFLOW_JS, TAP_TARGETS_JS, Taps, button, choose, everyone_passed,
    expect_notice, expect_scores, history_row, name_trump, quick_bid, record, start_game,
    tally,
)

pytestmark = pytest.mark.browser

EVERYTHING = ("High", "Low", "Right Bauer", "Left Bauer", "Joker", "Game")
HAND_2 = {"High": "C", "Low": "C", "Right Bauer": "C", "Left Bauer": "A", "Joker": "A",
          "Game": "A"}


def layout_problems(page: Page, where: str) -> list[str]:
    """No sideways scroll at the phone's own width, every tap target 44x44 CSS px."""
    sizes = page.evaluate(OVERFLOW_JS)
    problems = [f"{where}: scrolls sideways {sizes}"] \
        if sizes["scrollWidth"] > sizes["innerWidth"] else []
    return problems + [f"{where}: {t['tag']} {t['name']!r} is {t['width']}x{t['height']}"
                       for t in page.evaluate(TAP_TARGETS_JS)
                       if t["width"] < MIN_TAP or t["height"] < MIN_TAP]


def test_a_substitute_from_hand_9_with_its_preview(page: Page, live_server: str):
    taps = Taps()
    start_game(page, live_server, taps, target=21)
    quick_bid(page, taps, bidder=2, bid=4)
    name_trump(page, taps, "Hearts")
    tally(page, taps, {point: "B" for point in EVERYTHING})
    record(page, taps, 1)
    quick_bid(page, taps, bidder=3, bid=3)
    name_trump(page, taps, "Spades")
    tally(page, taps, HAND_2)
    record(page, taps, 2)
    for number in range(3, 9):
        everyone_passed(page, taps)
        taps(button(page, "Record the throw-in"))
        expect_notice(page, f"Hand {number}: thrown in.")
    expect_scores(page, {"A": 3, "B": 6, "C": 3})
    game_url = page.url

    # Ann leaves; Gil takes her seat for hand 9, the next to be dealt.
    page.goto(f"{game_url}/fix")
    card = page.locator("section").filter(
        has=page.get_by_role("heading", name="Someone took over a seat during the game"))
    card.get_by_label("Seat", exact=True).select_option(label="Seat 1: Ann")
    expect(card.get_by_label("From hand", exact=True)).to_have_value("9")
    card.get_by_label("Who took the seat", exact=True).fill("Gil")
    assert layout_problems(page, "the substitute's card") == []
    taps(button(page, "Check the substitute"))
    check = page.locator("#check")
    expect(check.get_by_role("heading")).to_have_text(
        "Ann leaves, Gil takes seat 1 from hand 9 on?")
    expect(check).to_contain_text("From hand 9 on, seat 1 is Gil (Ann played hands 1–8).")
    expect(check).to_contain_text(
        "Gil plays for team A with Dan: what seat 1 bids and takes from hand 9 on counts "
        "for Gil.")
    expect(check).to_contain_text("the scores stay as they are.")
    assert layout_problems(page, "the substitute's preview") == []
    taps(button(page, "Make this change"))

    expect_notice(page, "Gil sits in seat 1 from hand 9 on.")
    expect(page.locator(".team-A .team-names")).to_have_text("Gil & Dan")
    expect(page.get_by_text("Dealer: Cid (seat 3).")).to_be_visible()
    expect_scores(page, {"A": 3, "B": 6, "C": 3})
    bid = page.get_by_role("group", name="Gil", exact=True).get_by_role(
        "radio", name="Bid 4", exact=True)
    choose(page, bid, taps)
    name_trump(page, taps, "Diamonds")
    tally(page, taps, {point: "A" for point in EVERYTHING})
    record(page, taps, 9)
    expect_scores(page, {"A": 9, "B": 6, "C": 3})
    expect(history_row(page, 9)).to_contain_text("Gil (A) bid 4")
    expect(history_row(page, 9)).to_contain_text(
        "From this hand on, Gil sits in seat 1 instead of Ann.")
    expect(history_row(page, 1)).to_contain_text("Ann dealt.")
    assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
