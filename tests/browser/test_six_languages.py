"""Text drawn right at 360 px in all six languages, measured from what Chromium drew.

- A team's part of a line ("C (مریم & Jo 2) 23", "B +4 = 25", "High C") is never split
  across two drawn lines: its letter, its names and its score share one, in right-to-left
  Persian as in the others (the letter never ends one line with the names on the next).
  Each of its glyphs is found with ``Range.getBoundingClientRect``; the glyphs of a part
  must all sit on one line. Measured on the home page, the evening, the game page (its
  scores, each hand's totals and the chart's words, while in play and once over) and the
  board.
- Every control's text (buttons, links, the choices of a hand: "Tied: nobody" too, menus,
  fields) is drawn at least 14 px, and inside its box: no glyph touches or crosses the
  border of a control that has one. A glyph's box is as tall as its font's ascent and
  descent, where the marks above and below Lao and Telugu letters are drawn.

In a club of its own (``club_tonight.py``): one evening, a game in play (the scene of
``scene.py``: eight hands, a set hand and a throw-in) and a game that is over.
"""
from __future__ import annotations

import pytest

from tests.browser.club_tonight import club_tonight
from tests.browser.phones import phone_context
from tests.browser.table_steps import SMALL_PHONE

pytestmark = pytest.mark.browser

LANGUAGES = ("en", "fa", "sk", "lo", "te", "fy")
SMALLEST_TEXT = 14  # CSS px
CALLS = ",".join(["4"] + ["pass"] * 5)  # hand 9: the first to speak bids 4, the rest pass

# Each team's part of a line (a <bdi> of its own: names and what people typed are marked
# translate=no, a card's rank and suit dir=ltr): its text, and on how many drawn lines its
# glyphs sit (a glyph is on a line already found when their middles are less than half a
# glyph's height apart).
PARTS_JS = r"""
() => {
  const part = 'bdi:not([translate], [dir])';
  const range = document.createRange();
  return [...document.querySelectorAll(`main ${part}`)]
    .filter(el => !el.parentElement.closest(part) && el.checkVisibility()
                  && !el.closest('.visually-hidden'))
    .map(el => {
      const lines = [];
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let node; (node = walker.nextNode());) {
        for (let i = 0; i < node.data.length; i++) {
          if (!node.data[i].trim() || /[\u200e\u200f\u2066-\u2069]/.test(node.data[i])) continue;
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const glyph = range.getBoundingClientRect();
          if (!glyph.width || !glyph.height) continue;
          const middle = (glyph.top + glyph.bottom) / 2;
          if (!lines.some(line => Math.abs(line - middle) < glyph.height / 2)) lines.push(middle);
        }
      }
      return {text: el.textContent.replace(/\s+/g, ' ').trim(), lines: lines.length};
    });
}
"""

# Every control drawn on the page: its text's size, and whether each glyph lies inside the
# control's border (for a control drawn with one). A radio or checkbox is drawn as the box
# beside it (the choices of a hand); a field or menu by its own text, read from its style.
CONTROLS_JS = r"""
(smallest) => {
  const drawn = el => el.checkVisibility({visibilityProperty: true})
                      && !el.closest('.visually-hidden') && el.getClientRects().length > 0;
  const controls = 'button, a, summary, select, '
    + 'input:not([type=hidden], [type=radio], [type=checkbox]), '
    + 'input:is([type=radio], [type=checkbox]) + span';
  const border = (style, side) => parseFloat(style[`border${side}Width`]);
  const range = document.createRange();
  const problems = [];
  let count = 0;
  for (const control of document.querySelectorAll(controls)) {
    if (!drawn(control)) continue;
    count++;
    const style = getComputedStyle(control);
    const label = (control.textContent || control.value || '').replace(/\s+/g, ' ').trim();
    const what = `${control.tagName.toLowerCase()} «${label.slice(0, 50)}»`;
    if (control.matches('select, input')) {
      if (parseFloat(style.fontSize) < smallest) problems.push(`${what}: ${style.fontSize}`);
      continue;
    }
    const box = control.getBoundingClientRect();
    const sides = ['Top', 'Right', 'Bottom', 'Left'];
    const boxed = sides.every(side => border(style, side) > 0);
    const inner = {left: box.left + border(style, 'Left'), right: box.right - border(style, 'Right'),
                   top: box.top + border(style, 'Top'), bottom: box.bottom - border(style, 'Bottom')};
    const sizes = new Set(), outside = [];
    const walker = document.createTreeWalker(control, NodeFilter.SHOW_TEXT);
    for (let node; (node = walker.nextNode());) {
      if (!drawn(node.parentElement)) continue;
      const size = parseFloat(getComputedStyle(node.parentElement).fontSize);
      for (let i = 0; i < node.data.length; i++) {
        if (!node.data[i].trim()) continue;
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const glyph = range.getBoundingClientRect();
        if (!glyph.width || !glyph.height) continue;
        if (size < smallest) sizes.add(size);
        const past = Math.max(inner.left - glyph.left, glyph.right - inner.right,
                              inner.top - glyph.top, glyph.bottom - inner.bottom);
        if (boxed && past > 0) outside.push([node.data[i], past]);
      }
    }
    if (sizes.size) problems.push(`${what}: text of ${[...sizes].join(', ')} px`);
    if (outside.length) {
      const most = Math.max(...outside.map(([, past]) => past)).toFixed(1);
      problems.push(`${what}: «${outside.map(([glyph]) => glyph).join('')}» on or past its `
                    + `border (by up to ${most} px)`);
    }
  }
  return {count, problems};
}
"""


@pytest.fixture
def tonight(live_app) -> dict:
    """The owner's device cookie and the pages' paths, in a club of its own."""
    club = club_tonight(live_app)
    playing, over, evening = club.playing, club.over, club.evening
    return {
        "cookie": club.member(live_app),
        "parts": {
            "home": ("/", 6),  # each game's three teams
            "evening": (f"/evenings/{evening}", 6),
            "game": (f"/games/{playing}", 3 + 8 * 3),  # the chart's words, each hand's totals
            "game over": (f"/games/{over}", 3),
            "board": (f"/games/{playing}/board", 6),  # the last hand's points
        },
        "controls": {
            "home": "/", "new game": "/games/new", "bidding": f"/games/{playing}",
            "points": f"/games/{playing}?number=9&calls={CALLS}&trump=hearts",
            "game over": f"/games/{over}", "board": f"/games/{playing}/board",
            "fix": f"/games/{playing}/fix", "changes": f"/games/{playing}/changes",
            "evening": f"/evenings/{evening}", "evenings": "/evenings",
            "players": "/players", "club": "/club", "share": f"/club/share/{playing}",
            "rules": "/rules", "backups": "/backup", "import": "/games/import",
            "join": "/join", "table board": f"/evenings/{evening}/board",
        },
    }


def phone_in(browser, server: str, cookie: str, language: str):
    context = phone_context(browser, SMALL_PHONE, (server, cookie))
    context.add_cookies([{"name": "lang", "value": language, "url": server}])
    return context


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_team_is_split_across_two_lines(browser, live_server, tonight, language):
    context = phone_in(browser, live_server, tonight["cookie"], language)
    problems = []
    try:
        page = context.new_page()
        for what, (path, least) in tonight["parts"].items():
            page.goto(live_server + path)
            assert page.evaluate("document.documentElement.lang") == language
            page.evaluate("document.fonts.ready.then(() => true)")
            parts = page.evaluate(PARTS_JS)
            if len(parts) < least:
                problems.append(f"{what}: {len(parts)} team parts found, expected {least}")
            problems += [f"{what}: «{part['text']}» drawn on {part['lines']} lines"
                         for part in parts if part["lines"] != 1]
    finally:
        context.close()
    assert problems == [], f"{language} at 360 px:\n" + "\n".join(problems)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_controls_text_is_14_px_and_inside_its_box(browser, live_server, tonight,
                                                         language):
    context = phone_in(browser, live_server, tonight["cookie"], language)
    problems = []
    try:
        page = context.new_page()
        for what, path in tonight["controls"].items():
            page.goto(live_server + path)
            assert page.evaluate("document.documentElement.lang") == language
            page.evaluate("document.fonts.ready.then(() => true)")
            found = page.evaluate(CONTROLS_JS, SMALLEST_TEXT)
            if found["count"] < 3:
                problems.append(f"{what}: only {found['count']} controls found")
            problems += [f"{what}: {problem}" for problem in found["problems"]]
        # The points of a hand: "Tied: nobody" among them.
        page.goto(live_server + tonight["controls"]["points"])
        assert page.locator(".choice.tie > span").is_visible()
    finally:
        context.close()
    assert problems == [], f"{language} at 360 px:\n" + "\n".join(problems)
