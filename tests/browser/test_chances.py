"""Win chances from here on a 390 px phone: they change with each hand, also when the
hand comes back in parts (htmx swapping in the scores), without a reload."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import Session


from scorekeeper.store.models import Game
from tests.browser.phones import phone_context
from tests.browser.table_steps import Taps, expect_scores, layout_problems, start_game
from tests.browser.test_record_answer import sweep

pytestmark = pytest.mark.browser

# (Each letter is bound to its figure by a no-break space: \s takes it.)
SENTENCE = re.compile(r"Chances to win from here: A\s(\d+)%, B\s(\d+)% and C\s(\d+)%\.")

# What the chances show: the sentence's numbers and each team's bar.
CHANCES_JS = """
() => ({
  sentence: document.querySelector('#chances').textContent.trim(),
  bars: [...document.querySelectorAll('li.team progress')].map((bar) => bar.value),
  hidden: [...document.querySelectorAll('li.team progress')]
    .every((bar) => bar.getAttribute('aria-hidden') === 'true'),
  width: document.documentElement.scrollWidth,
  kept: window.sameDocument === true,
})
"""


def chances_shown(page: Page) -> dict[str, int]:
    shown = page.evaluate(CHANCES_JS)
    found = SENTENCE.fullmatch(shown["sentence"])
    assert found, shown
    said = dict(zip("ABC", map(int, found.groups())))
    assert sum(said.values()) == 100
    assert shown["bars"] == list(said.values()) and shown["hidden"], shown
    assert shown["width"] <= 390, shown  # no sideways scroll
    return said


def test_the_chances_move_with_each_hand_also_one_answered_in_parts(
        page: Page, live_server: str) -> None:
    answers = []
    page.on("response", lambda response: answers.append(response.headers.get("hx-reswap"))
            if response.request.method == "POST" and response.url.endswith("/hands") else None)
    taps = Taps()
    start_game(page, live_server, taps, target=31)
    expect(page.locator("#chances")).to_contain_text("Chances to win from here:")
    level = chances_shown(page)
    assert max(level.values()) - min(level.values()) <= 10, level

    sweep(page, taps, 1, bidder=2)  # Ann deals: Bob (B) bids 4 and takes all six
    expect_scores(page, {"A": 0, "B": 6, "C": 0})
    after_b = chances_shown(page)
    assert after_b["B"] > level["B"] + 10 and after_b["B"] > max(after_b["A"], after_b["C"])

    page.evaluate("window.sameDocument = true")  # gone if the page were loaded again
    sweep(page, taps, 2, bidder=3)  # Bob deals: Cid (C) bids 4 and takes all six
    expect_scores(page, {"A": 0, "B": 6, "C": 6})  # swapped in with the chances
    after_c = chances_shown(page)
    assert after_c["C"] > after_b["C"] + 10 and after_c["A"] < after_b["A"], (after_b, after_c)
    assert answers == [None, "none"]  # the second hand came back in parts
    assert page.evaluate(CHANCES_JS)["kept"]

    page.reload()  # a fresh visit shows the same numbers: the same revision
    assert chances_shown(page) == after_c


def test_six_players_cutthroat_each_have_a_chance_on_a_small_persian_phone(
        browser, live_app, member_of_club) -> None:
    """A–F, each with its figure and its bar, on a 360 px phone in Persian: the sentence
    wraps between teams, never between a letter and its figure, and nothing scrolls
    sideways. (Started through the new-game page, then given the layout as the store
    keeps it.)"""
    url, cookie = member_of_club()
    context = phone_context(browser, {"width": 360, "height": 740}, (url, cookie))
    try:
        page = context.new_page()
        start_game(page, url, Taps())
        game = int(page.url.rsplit("/", 1)[1])
        with Session(live_app.extensions["db_engine"]) as session:
            row = session.get(Game, game)
            row.teams = "c6"
            session.add(row)
            session.commit()
        context.add_cookies([{"name": "lang", "value": "fa", "url": url}])
        page.goto(f"{url}/games/{game}")
        expect(page.locator("html")).to_have_attribute("dir", "rtl")
        expect(page.locator("li.team progress")).to_have_count(6)
        shown = page.evaluate(SIX_JS)
        assert [team for team, _share in shown["parts"]] == list("ABCDEF"), shown
        shares = [int(share.translate(FROM_PERSIAN)) for _team, share in shown["parts"]]
        assert sum(shares) == 100 and shown["bars"] == shares, shown
        assert all(part_lines == 1 for part_lines in shown["lines"]), shown  # never split
        assert shown["width"] <= 360, shown
        assert layout_problems(page, "six teams' chances in Persian", 360) == []
    finally:
        context.close()


FROM_PERSIAN = str.maketrans("۰۱۲۳۴۵۶۷۸۹", "0123456789")

# Each team's part of the sentence (isolated in a <bdi>): its letter and figure, and how
# many lines it is drawn on.
SIX_JS = """
() => {
  const parts = [...document.querySelectorAll('#chances bdi')];
  return {
    parts: parts.map((part) => part.textContent.trim().split(/\\s+/))
      .map(([team, share]) => [team, share.replace(/[٪%]/, '')]),
    lines: parts.map((part) => part.getClientRects().length),
    bars: [...document.querySelectorAll('li.team progress')].map((bar) => bar.value),
    width: document.documentElement.scrollWidth,
  };
}
"""
