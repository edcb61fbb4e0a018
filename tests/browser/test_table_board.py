"""The TV in the middle of the table follows the evening: its table board shows game 2,
the evening's games won once game 2 is over, and game 3 as soon as a phone starts it,
all without anyone touching the TV.

Games to 5 (three pairs, Ann deals game 1). Each is won in one hand: Bob (seat 2,
team B) bids 3 in hearts and takes all six points, 6 >= 5, so Bob & Eve win it.
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.phones import GLANCE_MS, phone_context, within_polls
from tests.browser.table_steps import (
    SEATS, Taps, button, choose, expect_scores, name_trump, quick_bid, record, tally,
)

pytestmark = pytest.mark.browser

SWEEP = {"High": "B", "Low": "B", "Right Bauer": "B", "Left Bauer": "B", "Joker": "B",
         "Game": "B"}


def bob_sweeps(phone: Page, taps: Taps) -> None:
    quick_bid(phone, taps, bidder=2, bid=3)
    name_trump(phone, taps, "Hearts")
    tally(phone, taps, SWEEP)
    record(phone, taps, 1)
    expect(phone.get_by_text("Bob & Eve win!")).to_be_visible()


def next_game(phone: Page, taps: Taps) -> int:
    """"Next game, same seats", and Start: the new game's id."""
    taps(phone.get_by_role("link", name="Next game, same seats"))
    taps(button(phone, "Start the game"))
    expect(phone).to_have_url(re.compile(r"/games/\d+$"))
    return int(phone.url.rsplit("/", 1)[1])


def game_shown(tv: Page) -> str | None:
    return tv.locator("#board").get_attribute("data-game")


def test_the_table_board_moves_from_game_2_to_game_3_by_itself(
        page: Page, browser, member_of_club, live_server: str):
    phone, taps = page, Taps()
    # Game 1 opens an evening of its own (the server may have had evenings today).
    phone.goto(f"{live_server}/games/new")
    new_evening = phone.get_by_role("radio", name=re.compile(r"^A new evening"))
    choose(phone, new_evening, taps)
    for seat, name in SEATS.items():
        phone.get_by_role("combobox", name=f"Seat {seat}", exact=True).fill(name)
    phone.get_by_label("Play to", exact=True).fill("5")
    choose(phone, phone.get_by_role("radio", name="Seat 1 deals first", exact=True), taps)
    taps(button(phone, "Start the game"))
    expect(phone).to_have_url(re.compile(r"/games/\d+$"))
    bob_sweeps(phone, taps)
    two = next_game(phone, taps)

    # The share page offers the table board: the TV opens it.
    taps(phone.get_by_role("link", name="Share this game (QR code)"))
    card = phone.get_by_role("region", name="Table board for a TV")
    expect(card.get_by_role("img", name="QR code of the link below")).to_be_visible()
    board_url = card.locator(".link-text a").inner_text()
    assert re.search(r"/evenings/\d+/board$", board_url)

    context = phone_context(browser, {"width": 1280, "height": 720},
                            member_of_club("viewer", "TV"))
    try:
        tv = context.new_page()
        tv.goto(board_url)
        assert game_shown(tv) == str(two)
        expect(tv.locator("#board-hand")).to_contain_text("Hand 1. Dealer: Bob.")
        tv.evaluate("window.notReloaded = true")

        # Game 2 is played to its end on the phone: the TV shows the winners and tonight's
        # games won (Bob and Eve 2 each, everyone else none).
        phone.goto(f"{live_server}/games/{two}")
        bob_sweeps(phone, taps)
        within_polls(tv, lambda: expect(tv.locator("#board-winner")).to_contain_text(
            "Bob & Eve win!", timeout=GLANCE_MS))
        between = tv.locator("#board-tally")
        expect(between).to_contain_text("Games won this evening")
        for name, won in {"Bob": 2, "Eve": 2, "Ann": 0, "Fay": 0}.items():
            expect(between.get_by_role("listitem").filter(has_text=name)).to_have_text(
                re.compile(rf"^\s*{name}\s+{won}\s*$"))

        # Game 3 starts on the phone: the TV moves to it by itself, with nobody near it.
        three = next_game(phone, taps)
        within_polls(tv, lambda: expect(tv.locator(f'#board[data-game="{three}"]')).to_be_visible(
            timeout=GLANCE_MS))
        expect(tv.locator("#board-hand")).to_contain_text("Hand 1. Dealer: Cid.")
        expect(tv.locator("#board-tally")).to_have_count(0)
        for team in "ABC":
            expect(tv.get_by_label(f"Team {team}: 0 points")).to_be_visible()
        assert tv.evaluate("window.notReloaded") is True
        assert tv.url == board_url

        # ... and follows game 3's hands as they are recorded.
        quick_bid(phone, taps, bidder=4, bid=4)
        within_polls(tv, lambda: expect(tv.locator("#board-hand")).to_contain_text(
            "Dan bid 4.", timeout=GLANCE_MS))
        expect_scores(phone, {"A": 0, "B": 0, "C": 0})
    finally:
        context.close()
