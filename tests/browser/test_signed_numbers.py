"""Signed and decimal numbers in Persian are drawn in order: the sign on the left of the
digits, the digits left to right with the Persian decimal separator (٫) among them, and
each number where the right-to-left sentence puts it (a name's number on the name's left,
the first of two numbers on the right). Measured from the glyphs Chromium drew
(``Range.getBoundingClientRect``), not from the HTML.

Two looks: numbers as ``digits.number_text`` writes them, set in right-to-left lines
beside Persian words, Latin names and each other (the old way of writing them, a
left-to-right mark before the sign, is drawn out of order there, and caught); and the
ratings pages of a club of the test's own, in Persian: each game's change of a rating,
the latest game's changes on the leaderboard, and the points taken per bid.
"""
from __future__ import annotations

import re

import pytest
from markupsafe import escape
from playwright.sync_api import Page, expect
from sqlmodel import Session, select

from scorekeeper.store.models import Player
from scorekeeper.text.digits import number_text
from tests.browser.test_ratings_phone import rated_club, rated_page  # noqa: F401  (fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.drawn]

ISOLATES = "\u2066\u2069"
INVISIBLE = set(ISOLATES + "\u200e\u200f")

# Each element's text (its text nodes in order) and each character's drawn box's left and
# right edges (null for a character not drawn).
MEASURE = r"""
(selector) => [...document.querySelectorAll(selector)].map((element) => {
  const range = document.createRange();
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  let text = '';
  const boxes = [];
  for (let node; (node = walker.nextNode());) {
    for (let i = 0; i < node.data.length; i++) {
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const r = range.getBoundingClientRect();
      boxes.push(r.width > 0 ? [r.left, r.right] : null);
    }
    text += node.data;
  }
  return {text, boxes};
})
"""


def measured(page: Page, selector: str) -> list[dict]:
    page.evaluate("document.fonts.ready.then(() => true)")
    found = page.evaluate(MEASURE, selector)
    assert found, f"nothing matches {selector}"
    return found


def centre(box) -> float:
    return (box[0] + box[1]) / 2


def numbers_in(text: str) -> list[tuple[int, int]]:
    """Where each isolated number is in ``text``: (start, end) of what it holds."""
    spans, start = [], None
    for index, char in enumerate(text):
        if char == "\u2066":
            start = index + 1
        elif char == "\u2069" and start is not None:
            spans.append((start, index))
            start = None
    return spans


def out_of_order(text: str, boxes: list, start: int, end: int) -> str | None:
    """What is wrong with how text[start:end] (one number) is drawn, if anything: its
    glyphs must go left to right in the order they are written."""
    glyphs = [(index, boxes[index]) for index in range(start, end)
              if text[index] not in INVISIBLE and not text[index].isspace()]
    if any(box is None for _, box in glyphs):
        return f"«{text[start:end]}» is not all drawn"
    drawn = "".join(text[index] for index, box in sorted(glyphs, key=lambda g: centre(g[1])))
    written = "".join(text[index] for index, _ in glyphs)
    return None if drawn == written else f"«{written}» drawn as «{drawn}» (left to right)"


def right_of(boxes: list, first: tuple[int, int], second: tuple[int, int]) -> bool:
    """Whether the span ``first`` is drawn wholly on the right of ``second``."""
    def edges(span):
        drawn = [boxes[i] for i in range(*span) if boxes[i] is not None]
        return min(b[0] for b in drawn), max(b[1] for b in drawn)
    return edges(first)[0] >= edges(second)[1] - 0.5


def check_numbers(found: list[dict], least: int) -> list[str]:
    """Every isolated number in the elements measured, drawn in order; at least
    ``least`` of them, so the check can't pass by finding none."""
    problems, seen = [], 0
    for element in found:
        for start, end in numbers_in(element["text"]):
            seen += 1
            wrong = out_of_order(element["text"], element["boxes"], start, end)
            if wrong:
                problems.append(f"{wrong} in «{element['text']}»")
    if seen < least:
        problems.append(f"{seen} numbers found, expected at least {least}")
    return problems


def fa(value: float, places: int = 0, **how) -> str:
    return number_text(value, "fa", places, **how)


def test_signed_decimals_are_drawn_in_order_in_right_to_left_lines(page: Page) -> None:
    minus_three = fa(-3.5, 1)
    lines = {
        "words": f"امتیاز {minus_three} پس از بازی ۳",
        "names": f"<bdi>Ann</bdi> {fa(-12.25, 2)}، <bdi>مریم</bdi> {fa(0.5, 1, signed=True)}، "
                 f"<bdi>Jo 2</bdi> {fa(-1234.5, 1)}",
        "pair": f"{fa(-3)} ± {fa(8.2, 1)}",
        "cell": f"<table><tr><td>{fa(-0.25, 2)}</td><td>{fa(14, signed=True)}</td></tr></table>",
    }
    body = "".join(f'<div id="{key}">{html}</div>' for key, html in lines.items())
    page.set_content(f'<!doctype html><html lang="fa" dir="rtl"><body>{body}</body></html>')
    assert "٫" in minus_three and "." not in minus_three and "−" in minus_three

    problems = check_numbers(measured(page, "#words, #names, #pair, #cell td"), 8)
    assert problems == [], "\n".join(problems)
    # Read right to left: the first number of the pair on the right, each name on the
    # right of its own number, the words before the number on its right.
    pair = measured(page, "#pair")[0]
    first, second = numbers_in(pair["text"])
    assert right_of(pair["boxes"], first, second)
    names = measured(page, "#names")[0]
    ann = (names["text"].index("Ann"), names["text"].index("Ann") + 3)
    assert right_of(names["boxes"], ann, numbers_in(names["text"])[0])
    words = measured(page, "#words")[0]
    assert right_of(words["boxes"], (0, 6), numbers_in(words["text"])[0])


def test_the_old_left_to_right_mark_before_a_sign_is_caught_out_of_order(page: Page) -> None:
    """The way the pages wrote "−3 ± 8.2" before (a left-to-right mark before the minus
    sign, Persian digits, a Latin point): the whole line is drawn left to right, so a
    right-to-left reader meets 8.2 first. The check above sees it."""
    old = "\u200e−۳ ± ۸.۲"
    page.set_content('<!doctype html><html lang="fa" dir="rtl"><body>'
                     f'<div id="old">{escape(old)}</div></body></html>')
    line = measured(page, "#old")[0]
    first, second = (1, 3), (6, 9)  # "−۳" and "۸.۲"
    assert line["text"][slice(*first)] == "−۳" and line["text"][slice(*second)] == "۸.۲"
    assert not right_of(line["boxes"], first, second)


def test_the_ratings_pages_draw_their_changes_and_decimals_in_order_in_persian(
        rated_page: Page, live_app, live_server: str, rated_club: int) -> None:
    page = rated_page
    page.context.add_cookies([{"name": "lang", "value": "fa", "url": live_server}])
    with Session(live_app.extensions["db_engine"]) as session:
        dan = session.exec(select(Player.id).where(Player.club_id == rated_club,
                                                   Player.name == "Dan")).one()
    problems = []

    # Dan: won the first game, third in the last: a rise and a fall, game by game.
    page.goto(f"{live_server}/players/{dan}")
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    cells = measured(page, "#rating-games td, #rating-now")
    changes = [element["text"] for element in cells if "+" in element["text"]
               or "−" in element["text"]]
    assert any("−" in text for text in changes) and any("+" in text for text in changes)
    problems += check_numbers(cells, 3)
    problems += check_numbers(measured(page, "#points-per-bid"), 0)

    # The leaderboard: each player's change on the left of the name, each in order.
    page.goto(f"{live_server}/players")
    latest = measured(page, "#latest-rated")
    problems += check_numbers(latest, 6)
    line = latest[0]
    pairs = list(re.finditer(r"([A-Za-z]+)\s\u2066([^\u2069]+)\u2069", line["text"]))
    assert len(pairs) == 6, line["text"]  # "Ann ⁦+۱۶⁩": a name, a space, its change
    for pair in pairs:
        if not right_of(line["boxes"], pair.span(1), pair.span(2)):
            problems.append(f"«{pair[1]}» is not on the right of its change «{pair[2]}»")

    # Points taken per bid and per hand: one and two decimals, Persian separators.
    page.goto(f"{live_server}/players?sort=taken")
    decimals = measured(page, "table.leaderboard td")
    assert any("٫" in element["text"] for element in decimals)
    problems += check_numbers(decimals, 6)
    assert problems == [], "\n".join(problems)
