"""Offline is as informative as online: the same hands played in two games, one online
and one with no connection from hand 2 on, show the same check line before Record, and
the same notice of the hand recorded and the same Undo after it, hand by hand (the nine hands of test_play_offline: a throw-in,
two sets, tied Games and the game's end among them). And in Persian, where the server
writes its own digits and comma, the phone writes them too: the check line, the notice
and the new hand's row, hand by hand."""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser import test_next_hand_in_view as long_game
from tests.browser.phones import connection, ready_to_play_on
from tests.browser.table_steps import Taps, button, quick_bid, start_game, tally, name_trump
from tests.browser.test_offline_controls import UNDO_JS
from tests.browser.test_play_offline import HANDS, POINT_NAMES, TARGET, everyone_passed

pytestmark = pytest.mark.browser


# The notices shown at the top of the entry: the server's, or the phone's where it played on.
NOTICES_JS = """() => [...document.querySelectorAll('#hand-entry > .notice')]
  .filter((notice) => notice.checkVisibility()).map((notice) => notice.innerText)"""


def check_line_and_undo(page: Page, taps: Taps, hand, number: int) -> tuple[str, list[str], list[str]]:
    """Hand ``number`` entered: (the check line before Record, the notice and the Undo
    after it)."""
    line = ""
    if hand is None:
        everyone_passed(page, taps)
        taps(button(page, "Record the throw-in"))
    else:
        bidder, bid, trump, card_points, game = hand
        quick_bid(page, taps, bidder=bidder, bid=bid)
        name_trump(page, taps, trump.capitalize())
        tally(page, taps, {**{POINT_NAMES[p]: t for p, t in card_points.items()},
                           "Game": game or "Tied: nobody"})
        preview = page.locator("#preview")
        expect(preview).to_contain_text(" took ")
        line = preview.inner_text()
        taps(button(page, f"Record hand {number}"))
    expect(page.get_by_role("button", name=f"Undo hand {number}", exact=True)).to_be_visible()
    return line, page.evaluate(NOTICES_JS), page.evaluate(UNDO_JS)


def test_the_check_line_notice_and_undo_are_the_same_offline_as_online(page: Page, live_server: str):
    taps, seen = Taps(), {}
    for connected in (True, False):
        start_game(page, live_server, taps, target=TARGET)
        ready_to_play_on(page)
        said = []
        for number, hand in enumerate(HANDS, start=1):
            if number == 2 and not connected:
                connection(page, up=False)
            said.append(check_line_and_undo(page, taps, hand, number))
        seen[connected] = said
        connection(page, up=True)
    for number, (online, offline) in enumerate(zip(seen[True], seen[False]), start=1):
        assert offline == online, f"hand {number}"
    assert seen[True][3][0] == "A bid 5, took 2: set, −5. B +4, C +0."  # as online says it
    assert seen[True][-1][0].endswith("This ends the game: C reached 15: C wins.")
    assert seen[True][3][1] == ["Hand 4 recorded: A −5, B +4, C +0."]
    assert seen[True][2][1][0].startswith("Hand 3: thrown in. ")  # the offline one too, above


ROW_JS = """() => [...document.querySelectorAll('#deals > li:first-child :is(.deal-head, .deal-points, .deal-scores)')]
  .map((part) => part.innerText)"""
PERSIAN_HANDS = 9  # of the long game's 15: a throw-in, and every team ahead once


def said_in_persian(page: Page, taps: Taps, number: int) -> tuple[str, list[str], list[str]]:
    """Hand ``number`` of the long game entered: (its check line, then the notice and
    its row once recorded)."""
    record = long_game.fill_in(page, taps, number)
    line = ""
    if long_game.HANDS[number - 1] is not None:
        expect(page.locator("#preview")).not_to_be_empty()
        line = page.locator("#preview").inner_text()
    taps(record)
    expect(page.locator(f'#hand-form[data-number="{number + 1}"]')).to_be_attached()
    return line, page.evaluate(NOTICES_JS), page.evaluate(ROW_JS)


def test_in_persian_the_phone_writes_what_the_server_writes(page: Page, live_server: str):
    taps, seen = Taps(), {}
    for connected in (True, False):
        page.context.add_cookies([{"name": "lang", "value": "en", "url": live_server}])
        start_game(page, live_server, taps, target=long_game.TARGET)
        page.context.add_cookies([{"name": "lang", "value": "fa", "url": live_server}])
        page.reload()
        ready_to_play_on(page)
        said = []
        for number in range(1, PERSIAN_HANDS + 1):
            if number == 2 and not connected:
                connection(page, up=False)
            said.append(said_in_persian(page, taps, number))
        seen[connected] = said
        connection(page, up=True)
    for number, (online, offline) in enumerate(zip(seen[True], seen[False]), start=1):
        assert offline == online, f"hand {number}"
    assert "،" in seen[True][0][1][0] and "," not in seen[True][0][1][0]  # Persian's comma
