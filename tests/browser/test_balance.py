"""Balancing the teams on a phone: six names typed, "Balance the teams" tapped, the seats
filled with each team's chance shown, the game started with that split, and a hand
played in it moving the chances from here."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.phones import PHONE
from tests.browser.table_steps import (
    SMALL_PHONE, Taps, button, choose, layout_problems, name_trump, record, tally,
)

pytestmark = pytest.mark.browser

# Names of this test alone: the browser tests share one club.
NAMES = ["Una", "Vik", "Wes", "Xia", "Yan", "Zoe"]  # pairs: Una & Xia, Vik & Yan, Wes & Zoe


def type_names(page: Page, base: str) -> None:
    page.goto(f"{base}/games/new")
    for seat, name in enumerate(NAMES, 1):
        page.get_by_role("combobox", name=f"Seat {seat}", exact=True).fill(name)


def seats(page: Page) -> list[str]:
    return [page.get_by_role("combobox", name=f"Seat {seat}", exact=True).input_value()
            for seat in range(1, 7)]


def test_balance_the_teams_and_start_with_that_split(page: Page, live_server: str,
                                                      tmp_path) -> None:
    taps = Taps()
    # One game first: Vik & Yan (B) sweep the only hand, so they are rated above the rest.
    type_names(page, live_server)
    page.get_by_label("Play to", exact=True).fill("3")
    choose(page, page.get_by_role("radio", name="Seat 1 deals first", exact=True), taps)
    taps(button(page, "Start the game"))
    expect(page).to_have_url(re.compile(r"/games/\d+$"))
    # Vik (seat 2) bids 3, everyone else passing.
    choose(page, page.get_by_role("group", name="Vik", exact=True)
           .get_by_role("radio", name="Bid 3", exact=True), taps)
    name_trump(page, taps, "Clubs")
    tally(page, taps, {"High": "B", "Low": "B", "Right Bauer": "B", "Left Bauer": "B",
                       "Joker": "B", "Game": "B"})
    record(page, taps, 1)
    expect(page.get_by_role("heading", name="Game over")).to_be_visible()

    # The same six in the same seats, the winners together again: balancing parts them.
    type_names(page, live_server)
    expect(page.locator("#teams-preview li").first).to_have_text("A: Una & Xia")
    taps(button(page, "Balance the teams"))
    preview = page.locator("#teams-preview li")
    expect(preview).to_have_count(3)
    for line in preview.all_inner_texts():
        assert re.search(r"\d+% to win$", line), line
    chairs = seats(page)
    partners = [{chairs[seat], chairs[seat + 3]} for seat in range(3)]
    assert {"Vik", "Yan"} not in partners, partners
    assert sorted(chairs) == sorted(NAMES)
    expect(page.get_by_text("The most even of the 15 ways to split these six")).to_be_visible()
    others = page.locator("#teams-preview button[name=balance]")
    expect(others).to_have_count(2)
    page.screenshot(path=tmp_path / "balanced-new-game-390.png", full_page=True)
    # On the smallest phone too: no sideways scroll, every button a thumb's size.
    page.set_viewport_size(SMALL_PHONE)
    assert layout_problems(page, "balanced new game") == []

    taps(button(page, "Start the game"))
    expect(page).to_have_url(re.compile(r"/games/\d+$"))
    for team, seat in zip("ABC", range(3)):
        expect(page.locator(f".team-{team}").first).to_contain_text(
            f"{chairs[seat]} & {chairs[seat + 3]}")

    # The balanced game played at 390 px: a hand made moves the chances its team's way.
    from tests.browser.test_chances import chances_shown

    page.set_viewport_size(PHONE)
    expect(page.locator("#chances")).to_contain_text("Chances to win from here:")
    before = chances_shown(page)
    assert max(before.values()) - min(before.values()) <= 15, before  # balanced: close
    # Seat 2 (team B) bids 4, the others passing, and takes all six.
    choose(page, page.get_by_role("group", name=chairs[1], exact=True)
           .get_by_role("radio", name="Bid 4", exact=True), taps)
    name_trump(page, taps, "Hearts")
    tally(page, taps, dict.fromkeys(("High", "Low", "Right Bauer", "Left Bauer", "Joker",
                                     "Game"), "B"))
    record(page, taps, 1)
    expect(page.locator(".team-B .team-score")).to_have_text("6")
    after = chances_shown(page)
    assert after["B"] > before["B"] + 10 and after["B"] > max(after["A"], after["C"]), (
        before, after)
