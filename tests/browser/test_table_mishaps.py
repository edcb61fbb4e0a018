"""What happens at a real table: a reload mid-hand, the Back button, a double tap.

Ann deals hand 1 (target 11). Bob (seat 2, team B) wins the bid with 4 in hearts.
B takes High, Low, Right and Left (4): made, +4. C takes Joker and Game: +2.
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.phones import until
from tests.browser.table_steps import (
    AFTER_HAND_1, HAND_1_CARDS, Taps, button, call_radio, choice_label, enter_hand_1,
    expect_entry, expect_notice, expect_scores, name_trump, point_group, quick_bid, start_game,
    tally,
)

pytestmark = pytest.mark.browser

def radio(page: Page, point: str, team: str):
    return point_group(page, point).get_by_role("radio", name=re.compile(rf"^{team}\b"))


def missing(page: Page):
    """The points the page says are still to choose, as drawn."""
    return page.locator("#hand-form .missing")


def test_a_reload_mid_hand_keeps_the_bid_trump_and_points_chosen(page: Page, live_server: str):
    taps = Taps()
    start_game(page, live_server, taps)
    quick_bid(page, taps, bidder=2, bid=4)
    name_trump(page, taps, "Hearts")
    tally(page, taps, HAND_1_CARDS)
    expect(missing(page)).to_have_text("Still to choose: Game", use_inner_text=True)
    page.reload()
    expect(call_radio(page, 2, 4)).to_be_checked()
    expect(page.get_by_role("radio", name="Hearts", exact=True)).to_be_checked()
    for point, team in HAND_1_CARDS.items():
        expect(radio(page, point, team)).to_be_checked()
    tally(page, taps, {"Game": "C"})
    expect(missing(page)).to_be_hidden()
    expect(page.locator("#preview")).to_have_text("B bid 4, took 4: made, +4. A +0, C +2.")


def test_back_and_forward_after_recording_do_not_offer_the_hand_again(page: Page,
                                                                      live_server: str):
    taps = Taps()
    start_game(page, live_server, taps)
    enter_hand_1(page, taps)
    taps(button(page, "Record hand 1"))
    expect_notice(page, "Hand 1 recorded:")
    expect_scores(page, AFTER_HAND_1)

    page.go_back()  # the new-game page it came from
    page.go_forward()
    expect_entry(page, 2, dealer=2)
    expect_scores(page, AFTER_HAND_1)
    # Nothing of hand 1 is offered again as hand 2's: no choice is made.
    expect(page.locator("#hand-form input[type=radio]:checked")).to_have_count(0)
    # The whole page came back, not just its game part: the top bar is there.
    expect(page.get_by_role("link", name="Schmier scorekeeper")).to_be_visible()
    assert page.locator("main#main").count() == 1


def test_a_double_tap_on_record_records_the_hand_once(page: Page, live_server: str):
    taps = Taps()
    start_game(page, live_server, taps)
    enter_hand_1(page, taps)
    button(page, "Record hand 1").dblclick()
    expect_notice(page, "Hand 1")
    expect_scores(page, AFTER_HAND_1)
    expect(page.get_by_role("link", name=re.compile(r"^Edit hand \d$"))).to_have_count(1)
    page.reload()
    expect_scores(page, AFTER_HAND_1)
    expect(page.get_by_role("link", name=re.compile(r"^Edit hand \d$"))).to_have_count(1)


def test_two_phones_at_one_table_see_each_others_hands(page: Page, other_phone: Page,
                                                       live_server: str):
    phone_a, phone_b, taps = page, other_phone, Taps()
    # Phone B's connection drops its polls (it would catch up by itself within 2 s):
    # so it still shows hand 1 when its scorer taps, as a phone with bad coverage does.
    phone_b.route(re.compile(r"/live\?"), lambda route: route.abort())
    start_game(phone_a, live_server, taps)
    phone_b.goto(phone_a.url)
    expect_entry(phone_b, 1, dealer=1)

    enter_hand_1(phone_a, taps)
    taps(button(phone_a, "Record hand 1"))
    expect_scores(phone_a, AFTER_HAND_1)

    # Phone B still shows hand 1 and taps a bid: the tap shows at once, and the choice
    # reaching the server in the background brings the game as it is now.
    choice_label(call_radio(phone_b, 2, 4)).click()
    # Said once, by the phone that kept its own entry for that hand (not twice: by the
    # server's answer too).
    # (Its dropped polls may by then have it say also that it has no connection: another
    # alert, the #connection line.)
    expect(phone_b.get_by_role("alert").and_(phone_b.locator(":not(#connection)"))) \
        .to_contain_text(
        "Hand 1 was recorded on another phone, so this phone's entry for it was not.")
    expect_scores(phone_b, AFTER_HAND_1)
    expect_entry(phone_b, 2, dealer=2)
    expect(phone_b.get_by_role("link", name="Edit hand 1", exact=True)).to_be_visible()


RECORD_BOX_JS = """() => {
  const box = document.querySelector('#hand-form .record').getBoundingClientRect();
  return [box.x, box.y, box.width, box.height];
}"""


@pytest.mark.parametrize("width", [360, 390])
def test_record_stays_put_when_the_hands_preview_comes_after_the_last_point(
        page: Page, live_server: str, width: int):
    """The last point tapped, the thumb goes to Record while the hand's preview (worked
    out by the server) is on its way: when it comes, Record is where it was, so the tap
    lands on it, not on whatever took its place."""
    page.set_viewport_size({"width": width, "height": 740})
    taps = Taps()
    start_game(page, live_server, taps, target=5)
    quick_bid(page, taps, bidder=2, bid=4)
    name_trump(page, taps, "Hearts")
    tally(page, taps, {point: "B" for point in HAND_1_CARDS})  # all but Game: B took 5
    held: list = []
    page.route(re.compile(r"/games/\d+\?"), lambda route: held.append(route))  # the step
    tally(page, taps, {"Game": "B"})
    until(page, lambda: held, "the step is on its way")
    before = page.evaluate(RECORD_BOX_JS)
    for route in held:
        route.continue_()
    page.unroute(re.compile(r"/games/\d+\?"))
    expect(page.locator("#preview")).to_contain_text("This ends the game: B reached 5: B wins.")
    assert page.evaluate(RECORD_BOX_JS) == before
