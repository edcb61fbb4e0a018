"""After every Record the next hand's first row is on the screen (390x844), at every stage
of a long game: the "what each team needs" lines for all three teams (a tie-break in
them), the chances, a throw-in, the recorded notice and Undo above the entry; in each of
the six languages, online and with the connection gone from hand 3 on (the phone plays
on: its "on this phone only" line above the entry).

One game of fifteen hands to 21 (Ann deals first, teams of two), worked out by the rules
engine: the teams climb together, and from hand 9 on each of them can go out in the next
hand, ties at the top included (22-22 after hand 13 is not over). The hands are tapped by
their values, the same in every language. Where the first row is after each Record is
printed (``pytest -s`` shows it).
"""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.rules import HouseRules
from scorekeeper.table.draft import NOBODY, PASSED
from tests.browser.phones import PHONE, connection, ready_to_play_on
from tests.browser.table_steps import Taps, choose, start_game
from tests.browser.test_play_offline import played, points
from tests.browser.test_six_languages import LANGUAGES

pytestmark = [pytest.mark.browser, pytest.mark.drawn]

TARGET = 21
RULES = HouseRules(target=TARGET)
# (bidder seat, bid, trump, card points, Game) for a played hand; None: all six passed.
HANDS = [
    (1, 3, "diamonds", points("C", "A", "A", "A", "C"), "B"),
    (5, 3, "hearts", points("A", "B", "B", "B", "C"), "C"),
    (4, 3, "hearts", points("A", "B", "C", "A", "A"), "C"),
    (2, 3, "clubs", points("B", "C", "B", "C", "A"), "B"),
    (6, 3, "hearts", points("C", "B", "A", "C", "C"), "A"),
    (4, 3, "hearts", points("A", "C", "B", "B", "A"), "A"),
    None,
    (2, 3, "diamonds", points("B", "B", "B", "C", "A"), "C"),
    (6, 3, "diamonds", points("A", "C", "C", "C", "B"), "A"),
    (5, 3, "diamonds", points("B", "B", "A", "C", "B"), "A"),
    (1, 3, "hearts", points("B", "C", "A", "B", "C"), None),
    (4, 4, "diamonds", points("A", "A", "A", "C", "B"), "A"),
    (6, 3, "diamonds", points("C", "B", "A", "A", "C"), "A"),
    (3, 4, "clubs", points("C", "C", "C", "B", "C"), "A"),
    (5, 3, "clubs", points("A", "C", "C", "B", "B"), None),
]
FIRST_ROW = "#hand-form .turn-1"
# Resolves once the element's box is where it was two animation frames before (or after
# 120 frames of moving: measured as it is then, and the test says where).
STAYS_PUT = """
(selector) => new Promise((resolve) => {
  let last = null, same = 0, frames = 0;
  const look = () => {
    const box = document.querySelector(selector)?.getBoundingClientRect();
    const now = box ? `${box.top} ${box.bottom}` : null;
    same = now !== null && now === last ? same + 1 : 0;
    last = now;
    if (same >= 2 || (frames += 1) > 120) resolve(now); else requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
})
"""


def tap_value(page: Page, taps: Taps, name: str, value: str, within: str = "#hand-form") -> None:
    choose(page, page.locator(f'{within} input[name="{name}"][value="{value}"]'), taps)


def enter(page: Page, taps: Taps, number: int) -> None:
    """Hand ``number`` of HANDS entered by its values and Record tapped."""
    taps(fill_in(page, taps, number))


def fill_in(page: Page, taps: Taps, number: int):
    """Hand ``number`` of HANDS entered by its values: its Record button, to tap."""
    hand = HANDS[number - 1]
    if hand is None:
        tap_value(page, taps, "bid", PASSED)
        return page.locator("#hand-form .thrown-in-step button")
    bidder, bid, trump, card_points, game = hand
    turn = (bidder - played(HANDS[:number - 1], RULES).next_dealer - 1) % 6 + 1
    tap_value(page, taps, f"turn_{turn}", str(bid))
    tap_value(page, taps, "trump", trump)
    for point, team in {**card_points, "game": game or NOBODY}.items():
        tap_value(page, taps, point, team)
    return page.locator("#hand-form button.record")


def first_row_after_record(page: Page, number: int, said: str) -> dict:
    """Where the next hand's first row of the bidding is once hand ``number`` is in and
    ``said`` (the notice, or the line of hands on the phone) says so: its top and bottom
    in the viewport, in CSS px."""
    expect(page.locator(f'#hand-form[data-number="{number + 1}"]')).to_be_attached()
    expect(page.locator(said)).to_be_visible()
    # What the answer swapped in may still be laid out (or scrolled to) on a busy machine:
    # measured once it has stayed put for two frames, where it stays.
    page.evaluate(STAYS_PUT, FIRST_ROW)
    box = page.locator(FIRST_ROW).bounding_box()  # relative to the viewport
    return {"hand": number, "top": round(box["y"]), "bottom": round(box["y"] + box["height"])}


@pytest.mark.parametrize("online", [True, False], ids=["online", "offline"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_next_hands_first_row_is_on_screen_after_every_record(page: Page, live_server: str,
                                                                 language: str, online: bool):
    assert not played(HANDS, RULES).finished
    taps = Taps()
    start_game(page, live_server, taps, target=TARGET)
    page.context.add_cookies([{"name": "lang", "value": language, "url": live_server}])
    page.reload()
    rows = []
    for number in range(1, len(HANDS) + 1):
        if number == 3 and not online:
            ready_to_play_on(page)
            connection(page, up=False)
        enter(page, taps, number)
        said = "#hand-entry .notice" if online or number < 3 else ".on-phone"
        rows.append(first_row_after_record(page, number, said))
    where = "online" if online else "offline from hand 3"
    print(f"\n{language}, {where}: the next hand's first row after each Record (viewport 844 px):")
    for row in rows:
        print(f"  after hand {row['hand']:2}: top {row['top']:4} px, bottom {row['bottom']:4} px")
    if online:
        expect(page.locator("#needs li")).to_have_count(3)  # all three teams, at the end
    off = [row for row in rows if row["top"] < 0 or row["bottom"] > PHONE["height"]]
    assert off == [], f"{language}, {where}: the first row off the screen after: {off}"
