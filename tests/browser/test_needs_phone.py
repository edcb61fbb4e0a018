"""What each team needs, on a 390 px phone: it appears after the hand that brings a team
within one hand of the target, without a reload, and reads right to left in Persian with
each team's letter where its words put it."""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.table_steps import Taps, expect_scores, start_game
from tests.browser.test_persian import fa
from tests.browser.test_record_answer import sweep

pytestmark = pytest.mark.browser

B_SAYS = ("If B bids and makes 3, B wins. Without the bid, B needs 3 points.")

# Where the first sentence's first word and its first team letter are drawn.
FIRST_WORD_AND_LETTER_JS = """
() => {
  const item = document.querySelectorAll('#needs li')[1];
  const text = item.firstChild;
  const range = document.createRange();
  const first = text.textContent.trim().split(/\\s/)[0];
  const start = text.textContent.indexOf(first);
  range.setStart(text, start);
  range.setEnd(text, start + first.length);
  const word = range.getBoundingClientRect();
  const letter = item.querySelector('bdi').getBoundingClientRect();
  return {word: [word.left, word.right], letter: [letter.left, letter.right],
          width: document.documentElement.scrollWidth};
}
"""


def test_the_needs_come_with_the_hand_and_read_right_to_left(page: Page, live_server: str,
                                                                tmp_path) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    taps = Taps()
    start_game(page, live_server, taps, target=9)
    expect(page.locator("#needs")).to_have_count(0)  # nobody is one hand away yet
    page.evaluate("window.sameDocument = true")
    sweep(page, taps, 1, bidder=2)  # Bob (B) bids 4 and takes all six: B 6 of 9
    expect_scores(page, {"A": 0, "B": 6, "C": 0})
    items = page.locator("#needs li")
    expect(items).to_have_text(["A can't go out in the next hand.", B_SAYS,
                                "C can't go out in the next hand."])
    assert page.evaluate("window.sameDocument") is True  # came with the hand's answer

    page.context.add_cookies([{"name": "lang", "value": "fa", "url": live_server}])
    page.reload()
    said = fa("If %(team)s bids and makes %(points)s, %(team)s wins.", team="B", points=3)
    expect(items.nth(1)).to_contain_text(said)
    drawn = page.evaluate(FIRST_WORD_AND_LETTER_JS)
    # Right to left: the sentence's first word on the right, team B's letter after it,
    # to its left; and nothing wider than the phone.
    assert drawn["letter"][1] <= drawn["word"][0], drawn
    assert drawn["width"] <= 390, drawn
    page.screenshot(path=str(tmp_path / "needs-fa.png"))
