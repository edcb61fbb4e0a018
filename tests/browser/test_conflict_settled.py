"""A hand kept offline that another phone recorded differently: once the player keeps
the recorded one, the page stops offering this phone's version and stops saying that
hands wait, without a reload."""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.phones import connection
from tests.browser.table_steps import Taps, expect_entry, expect_scores
from tests.browser.test_play_offline import (
    HANDS, OTHER_HAND_4, enter, hands_stored, offline_from_hand_3, played, wait_until_sent,
)

pytestmark = pytest.mark.browser


def test_keeping_the_recorded_hand_takes_the_other_version_away(
        page: Page, other_phone: Page, live_server: str, live_app):
    taps = Taps()
    game_url, game = offline_from_hand_3(page, taps, live_server, last=5)
    other_phone.goto(game_url)
    for number, hand in ((3, HANDS[2]), (4, OTHER_HAND_4)):
        enter(other_phone, Taps(), hand, number)
        expect(other_phone.locator("#hand-entry .notice")).to_contain_text(f"Hand {number}")

    connection(page, up=True)
    held = page.locator("#outbox")
    keep = held.get_by_role("button", name="Keep the recorded hand 4")
    expect(keep).to_be_visible(timeout=30_000)
    put_in = page.get_by_role("link", name="Put this phone's entry in hand 4")
    expect(put_in).to_be_visible()
    taps(keep)

    wait_until_sent(page)
    chosen = HANDS[:3] + [OTHER_HAND_4, HANDS[4]]
    assert [hand.number for hand in hands_stored(live_app, game)] == [1, 2, 3, 4, 5]
    expect_scores(page, played(chosen).scores)
    expect_entry(page, 6, played(chosen).next_dealer)
    expect(put_in).to_have_count(0)
    expect(page.get_by_text("This phone's entry was not recorded")).to_have_count(0)
    expect(page.get_by_text("wait")).to_have_count(0)
    expect(held).to_be_hidden()


OTHER_HAND_3 = (3, 3, "spades", {"high": "C", "low": "A", "right": "A", "left": "A",
                                 "joker": "C"}, None)  # A takes 3, not 2


def test_a_last_kept_hand_recorded_differently_says_nothing_waits(
        page: Page, other_phone: Page, live_server: str, live_app):
    """Hand 3 alone kept offline, recorded otherwise meanwhile: both versions are said,
    with the way to put this phone's in, as online; no hand waits, and nothing says one
    does (it said "the hands after it wait" with none after it)."""
    taps = Taps()
    game_url, game = offline_from_hand_3(page, taps, live_server, last=3)
    other_phone.goto(game_url)
    enter(other_phone, Taps(), OTHER_HAND_3, 3)
    expect(other_phone.locator("#hand-entry .notice")).to_contain_text("Hand 3")

    connection(page, up=True)
    said = page.locator("#hand-entry .alert").filter(has_text="Hand 3 was already recorded by")
    expect(said).to_contain_text("This phone's entry was not recorded", timeout=30_000)
    expect(said.get_by_role("link", name="Put this phone's entry in hand 3")).to_be_visible()
    wait_until_sent(page)  # nothing left to send: the recorded hand 3 stands
    chosen = HANDS[:2] + [OTHER_HAND_3]
    expect_scores(page, played(chosen).scores)
    expect_entry(page, 4, played(chosen).next_dealer)
    expect(page.get_by_text("wait on this phone")).to_have_count(0)
    expect(page.locator("#outbox")).to_be_hidden()
    assert [hand.number for hand in hands_stored(live_app, game)] == [1, 2, 3]
