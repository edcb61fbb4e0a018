"""Every team's figures are drawn beside that team, in Persian (right to left) as in
English: measured from the glyphs the browser drew, not from the HTML.

A line such as "A +0 = 9 • B +4 = 25 • C +2 = 23" is, in logical order, one part per
team: the team's letter (or its players' names) and the figures up to the next team or
separator. The browser's bidi algorithm may draw those parts scrambled in right-to-left
text ("+۲ = ۲۳ +۴ = ۲۵ • C +۰ = ۹ • B A": letters glued together, C beside A's numbers).
On every page that shows scores, the page's script finds each character's drawn box
(``Range.getBoundingClientRect``), and a part fails when, on one drawn line, a glyph that
is not its own lies between two of its glyphs: so a team's letter, its names and its
numbers form one unbroken run wherever they share a line. Where the page as drawn passes,
each line is measured again unwrapped (on one line, as a wider screen would draw it), so
that a wrap falling between the parts can't hide them drawn apart.

Lines with two or more teams' figures are "team" lines. Lines of parts between bullets
("Dec 1 • Room 12 • 1 game", "High C • Low A") and table rows (a name and its figures,
each cell a part) are checked the same way, so the pages without team scores are
measured too. Each page must yield a minimum of lines, so the test can't pass by
finding none.

The game is the scene of ``scene.py`` (three pairs, eight hands, a set hand, a throw-in
and a correction, at an evening): the game page with its history, chart caption and
latest changes, the board, the evening, the evenings, the leaderboard, a player, the
change log, the live notice of a hand another phone recorded, and the preview above
Record. Failures name the page, the line (in logical order) and the line as drawn, left to
right, in runs of glyphs each marked with its owner.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from babel.support import Translations
from playwright.sync_api import Page, expect

from scorekeeper.web.languages import DIGITS
from tests.browser.phones import GLANCE_MS, phone_context, within_polls
from tests.browser.scene import SEATS, player_id, start_scene_at_evening

pytestmark = [pytest.mark.browser, pytest.mark.drawn]

WIDTH = 360
CATALOGUES = Path(__file__).resolve().parents[2] / "scorekeeper" / "translations"
TEAMS = ("A", "B", "C")
# Seats 1 & 4, 2 & 5, 3 & 6 are partners.
PARTNERS = {team: (SEATS[i], SEATS[i + 3]) for i, team in enumerate(TEAMS)}
PLAYER = "Jo 2"  # a name with a digit, for the player's page

# Drawn nothing, or nothing to compare: spaces and the invisible direction marks.
INVISIBLE = set("\u00ad\u061c\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                "\u2066\u2067\u2068\u2069\ufeff")
ASCII_DIGITS = str.maketrans("۰۱۲۳۴۵۶۷۸۹٠١٢٣٤٥٦٧٨٩", "01234567890123456789")
# A part ends at the next team, at a bullet, at a sentence's end or a semicolon.
BREAK = re.compile(r"\s[•·|]\s|[.](?=\s|$)|[;؛]|\n")
TRAILING = " \t\n\u00a0,،:;؛."

# The page's side: every block's text in logical order (the text nodes whose nearest
# block is that block, inline elements and all), each character's drawn box (null when
# it is not drawn), as the page is and again with every block on one line (so that no
# wrap can hide a part drawn apart: what a wider screen would show), and, for a table
# row, where each cell's text starts.
MEASURE = r"""
(root) => {
  const top = root ? document.querySelector(root) : document.body;
  if (!top) return [];
  const skip = 'svg, script, style, noscript, template, select, option, textarea, '
             + '.visually-hidden, [hidden]';
  const blockOf = (el) => {
    for (; el && el !== top; el = el.parentElement) {
      const display = getComputedStyle(el).display;
      if (!display.startsWith('inline') && display !== 'contents') return el;
    }
    return top;
  };
  const blocks = new Map();
  const walker = document.createTreeWalker(top, NodeFilter.SHOW_TEXT);
  for (let node; (node = walker.nextNode());) {
    const parent = node.parentElement;
    if (!parent || parent.closest(skip) || !node.data.trim()) continue;
    let block = blockOf(parent);
    const cell = block.closest('td, th');
    const row = cell && cell.closest('tr');
    if (row && top.contains(row)) block = row;
    if (!blocks.has(block)) blocks.set(block, []);
    blocks.get(block).push([node, row ? cell : null]);
  }
  const range = document.createRange();
  const measure = (nodes) => {
    const boxes = [];
    for (const [node] of nodes) {
      for (let i = 0; i < node.data.length; i++) {
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const r = range.getBoundingClientRect();
        boxes.push(r.width > 0 && r.height > 0 ? [r.left, r.right, r.top, r.bottom] : null);
      }
    }
    return boxes;
  };
  const out = [];
  for (const [block, nodes] of blocks) {
    let text = '';
    const cells = [];
    let lastCell = null;
    for (const [node, cell] of nodes) {
      if (cell !== lastCell) { cells.push(text.length); lastCell = cell; }
      text += node.data;
    }
    const boxes = measure(nodes);
    if (!boxes.some(Boolean)) continue;
    const name = block.tagName.toLowerCase()
      + (block.id ? '#' + block.id : '')
      + (typeof block.className === 'string' && block.className.trim()
         ? '.' + block.className.trim().split(/\s+/).join('.') : '');
    out.push({name, text, boxes, block, nodes, direction: getComputedStyle(block).direction,
              cells: block.tagName === 'TR' ? cells : null});
  }
  // The same blocks, each on one line.
  const kept = out.map(({block}) => [block, block.style.getPropertyValue('white-space'),
                                     block.style.getPropertyPriority('white-space')]);
  for (const [block] of kept) block.style.setProperty('white-space', 'nowrap', 'important');
  for (const entry of out) entry.unwrapped = measure(entry.nodes);
  for (const [block, value, priority] of kept) {
    if (value) block.style.setProperty('white-space', value, priority);
    else block.style.removeProperty('white-space');
  }
  return out.map(({name, text, boxes, unwrapped, cells, direction}) =>
    ({name, text, boxes, unwrapped, cells, direction}));
}
"""


@dataclass
class Part:
    label: str  # the team's letter, or "·1", "·2" … for a part of a bullet line or row
    start: int  # indices into the block's text, logical order
    end: int

    def holds(self, index: int) -> bool:
        return self.start <= index < self.end


@dataclass
class Checked:
    """What one page yielded: lines checked, of each kind, and the problems found."""
    counts: dict[str, int] = field(default_factory=lambda: {"team": 0, "parts": 0, "row": 0})
    problems: list[str] = field(default_factory=list)


def _normalized(text: str) -> tuple[str, list[int]]:
    """The text without invisible marks, in ASCII digits, and where each character was."""
    kept, where = [], []
    for index, char in enumerate(text):
        if char in INVISIBLE:
            continue
        kept.append(" " if char in "\u00a0\u202f" else char)
        where.append(index)
    return "".join(kept).translate(ASCII_DIGITS), where


def _name_pattern(name: str) -> str:
    return r"\s*".join(re.escape(word) for word in name.split())


ANCHORS = [(team, re.compile(rf"(?<![\w]){team}(?![\w])")) for team in TEAMS] + [
    (team, re.compile(_name_pattern(first) + r"\s*(?:&|و|and|\+|/)\s*" + _name_pattern(second)))
    for team, (first, second) in PARTNERS.items()
]


def team_parts(text: str) -> list[Part]:
    """Each team's part of a line: from its letter (or its players' names) to the next
    team's, a bullet or a sentence's end; trailing spaces and commas left out."""
    plain, where = _normalized(text)
    anchors = sorted((match.start(), match.end(), team) for team, pattern in ANCHORS
                     for match in pattern.finditer(plain))
    parts: list[tuple[str, int, int]] = []  # (team, start, anchor's end) in ``plain``
    for start, end, team in anchors:
        if parts and start < parts[-1][2]:
            continue  # inside the last anchor ("A" of "Anna & Dora" can't match anyway)
        if parts and parts[-1][0] == team and not BREAK.search(plain, parts[-1][2], start):
            parts[-1] = (team, parts[-1][1], end)  # "A (Anna & Dora)": one part
            continue
        parts.append((team, start, end))
    found = []
    for number, (team, start, anchor_end) in enumerate(parts):
        limit = parts[number + 1][1] if number + 1 < len(parts) else len(plain)
        stop = BREAK.search(plain, anchor_end, limit)
        end = stop.start() if stop else limit
        while end > anchor_end and plain[end - 1] in TRAILING:
            end -= 1
        figures = plain[anchor_end:end]
        found.append((team, start, end, bool(re.search(r"\d", figures))))
    scored = {team for team, _start, _end, has_figures in found if has_figures}
    if len(scored) < 2:
        return []
    return [Part(team, where[start], where[end - 1] + 1) for team, start, end, _ in found]


def bullet_parts(text: str) -> list[Part]:
    """The parts of a line between bullets ("Dec 1 • Room 12 • 1 game")."""
    parts, start = [], 0
    for match in list(re.finditer(r"\s[•·]\s", text)) + [None]:
        end = match.start() if match else len(text)
        while start < end and text[start] in TRAILING + "".join(INVISIBLE):
            start += 1
        cut = end
        while cut > start and text[cut - 1] in TRAILING + "".join(INVISIBLE):
            cut -= 1
        if cut > start:
            parts.append(Part(f"·{len(parts) + 1}", start, cut))
        start = match.end() if match else len(text)
    return parts if len(parts) >= 2 else []


def row_parts(text: str, cells: list[int]) -> list[Part]:
    bounds = cells + [len(text)]
    parts = [Part(f"·{n + 1}", bounds[n], bounds[n + 1]) for n in range(len(cells))
             if text[bounds[n]:bounds[n + 1]].strip()]
    return parts if len(parts) >= 2 else []


def _lines(glyphs: list[tuple[int, list[float]]]) -> list[list[tuple[int, list[float]]]]:
    """Glyphs grouped by the drawn line they sit on (their boxes overlap up and down)."""
    lines: list[dict] = []
    for glyph in sorted(glyphs, key=lambda g: (g[1][2] + g[1][3]) / 2):
        top, bottom = glyph[1][2], glyph[1][3]
        for line in lines:
            overlap = min(bottom, line["bottom"]) - max(top, line["top"])
            if overlap > 0.5 * min(bottom - top, line["bottom"] - line["top"]):
                line["glyphs"].append(glyph)
                break
        else:
            lines.append({"top": top, "bottom": bottom, "glyphs": [glyph]})
    return [sorted(line["glyphs"], key=lambda g: g[1][0] + g[1][1]) for line in lines]


def _run_text(text: str, indices: list[int]) -> str:
    """A run's characters in logical order, spaces kept where the text has them."""
    shown = text[indices[0]]
    for before, index in zip(indices, indices[1:]):
        between = text[before + 1:index]
        if between and all(c.isspace() or c in INVISIBLE for c in between):
            shown += " "
        elif between:
            shown += "…"
        shown += text[index]
    return shown


def drawn(text: str, line, label_of) -> str:
    """A drawn line as runs of glyphs, left to right, each with its owner: a team's
    letter, a part's number, or nothing for text of no part. Within a run the characters
    are in logical order, so that each run reads as typed."""
    runs: list[tuple[str, list[int]]] = []
    for index, _box in line:
        owner = label_of(index)
        if runs and runs[-1][0] == owner:
            runs[-1][1].append(index)
        else:
            runs.append((owner, [index]))
    return " ".join(f"[{owner + ': ' if owner else ''}{_run_text(text, sorted(indices))}]"
                    for owner, indices in runs)


def _owner(label: str) -> str:
    return "other text" if not label else (f"part {label[1:]}" if label.startswith("·")
                                        else f"team {label}")


def check_line(text: str, boxes: list, parts: list[Part]) -> list[str]:
    """Each part's glyphs, on every drawn line, unbroken by any glyph not its own: a
    problem per drawn line where a part is split, saying what lies inside it."""
    def label_of(index: int) -> str:
        for part in parts:
            if part.holds(index):
                return part.label
        return ""

    glyphs = [(index, box) for index, box in enumerate(boxes)
              if box is not None and not text[index].isspace() and text[index] not in INVISIBLE]
    lines = _lines(glyphs)
    problems = []
    for number, line in enumerate(lines, start=1):
        centres = [(index, (box[0] + box[1]) / 2) for index, box in line]
        split = []
        for part in parts:
            own = [x for index, x in centres if part.holds(index)]
            if len(own) < 2:
                continue
            left, right = min(own), max(own)
            among = sorted(index for index, x in centres
                           if left < x < right and not part.holds(index))
            if among:
                owners = ", ".join(sorted({_owner(label_of(i)) for i in among}))
                split.append(f"{_owner(part.label)}'s «{_plain(text[part.start:part.end])}» "
                             f"has «{_run_text(text, among)}» ({owners}) drawn inside it")
        if split:
            where = f"drawn line {number} of {len(lines)}" if len(lines) > 1 else "drawn"
            problems.append(f"{where}, left to right: {drawn(text, line, label_of)}\n      "
                            + ";\n      ".join(split))
    return problems


def check_order(text: str, boxes: list, parts: list[Part], direction: str) -> list[str]:
    """On one line, the teams in the order the line names them, read in the page's
    direction: in right to left text the first team's part is drawn right-most."""
    centres = []
    for part in parts:
        own = [(box[0] + box[1]) / 2 for index, box in enumerate(boxes)
               if box is not None and part.holds(index) and not text[index].isspace()
               and text[index] not in INVISIBLE]
        if own:
            centres.append((part, sum(own) / len(own)))
    xs = [x for _part, x in centres]
    expected = sorted(xs, reverse=direction == "rtl")
    if xs == expected:
        return []
    drawn_order = [part.label for part, _x in sorted(centres, key=lambda c: c[1],
                                                       reverse=direction == "rtl")]
    return [f"(on one line) the teams are read {' '.join(drawn_order)} in {direction} "
            f"text, not {' '.join(part.label for part, _x in centres)} as the line says"]


def _plain(text: str) -> str:
    return " ".join(text.translate({ord(c): None for c in INVISIBLE}).split())


def check_page(page: Page, what: str, root: str | None = None) -> Checked:
    """Measure every line of the page (or of ``root``) and check its parts: as drawn,
    and, where that passes, unwrapped (each block on one line)."""
    page.evaluate("document.fonts.ready.then(() => true)")
    checked = Checked()
    for block in page.evaluate(MEASURE, root):
        text = block["text"]
        if block["cells"] is not None:
            kind, parts = "row", row_parts(text, block["cells"])
        else:
            kind, parts = "team", team_parts(text)
            if not parts:
                kind, parts = "parts", bullet_parts(text)
        if not parts:
            continue
        checked.counts[kind] += 1
        problems = check_line(text, block["boxes"], parts)
        if not problems and kind != "row":
            problems = [f"(on one line, unwrapped) {problem}"
                        for problem in check_line(text, block["unwrapped"], parts)]
        if not problems and kind == "team":
            problems = check_order(text, block["unwrapped"], parts, block["direction"])
        checked.problems += [f"{what}: {block['name']} «{_plain(text)}»\n    {problem}"
                             for problem in problems]
    return checked


def words(language: str):
    """The page's words for an English message, with the page's digits."""
    if language == "en":
        return lambda message, **params: message % params if params else message
    catalogue = Translations.load(str(CATALOGUES), [language])

    def translated(message: str, **params) -> str:
        text = catalogue.gettext(message)
        return (text % params if params else text).translate(DIGITS[language])
    return translated


def tap(radio) -> None:
    radio.locator("xpath=ancestor::label[1]").click()
    expect(radio).to_be_checked()


def enter_set_hand(page: Page, t) -> None:
    """Bob (B) bids 4 in hearts and takes High, Low and Right: set. A takes Left and
    Joker, C Game: "B bid 4, took 3: set, −4. A +2, C +1"."""
    bob = page.get_by_role("group", name="Bob", exact=True)
    tap(bob.get_by_role("radio", name=f"{t('Bid')} {t('4')}", exact=True))
    tap(page.get_by_role("radio", name=t("Hearts"), exact=True))
    for point, team in {"High": "B", "Low": "B", "Right Bauer": "B", "Left Bauer": "A",
                        "Joker": "A", "Game": "C"}.items():
        tap(page.get_by_role("group", name=t(point), exact=True)
            .get_by_role("radio", name=re.compile(rf"^{team}\b")))


# Pages with their minimum of lines checked: (kind, at least).
MINIMUM = {
    "game": ("team", 10),  # eight hands' totals, the chart's caption, the latest changes
    "board": ("team", 1),  # the last hand
    "evening": ("team", 1),  # the game's scores
    "evenings": ("parts", 1),  # day • place • games
    "leaderboard": ("row", 6),  # a row per player
    "player": ("row", 5),  # played, won, lost, …
    "changes": ("team", 9),  # eight hands recorded and one corrected
    "notice": ("team", 1),  # the other phone's hand
    "preview": ("team", 1),  # what the hand would score
}


@pytest.mark.parametrize("language", ["fa", "en"])
def test_every_team_is_drawn_beside_its_own_figures(browser, live_app, club, member_of_club,
                                                    language):
    game, evening = start_scene_at_evening(live_app, club.id)
    player = player_id(live_app, PLAYER, club.id)
    url, cookie = member_of_club()
    _url, other_cookie = member_of_club("scorer", "Second phone")
    t = words(language)
    phone = phone_context(browser, {"width": WIDTH, "height": 740}, (url, cookie))
    phone.add_cookies([{"name": "lang", "value": language, "url": url}])
    other = phone_context(browser, {"width": WIDTH, "height": 740}, (url, other_cookie))
    results: dict[str, Checked] = {}
    try:
        page = phone.new_page()
        pages = {
            "game": f"/games/{game}",
            "board": f"/games/{game}/board",
            "evening": f"/evenings/{evening}",
            "evenings": "/evenings",
            "leaderboard": "/players",
            "player": f"/players/{player}",
            "changes": f"/games/{game}/changes",
        }
        for what, path in pages.items():
            page.goto(url + path)
            expect(page.locator("html")).to_have_attribute("lang", language)
            if what == "game":  # the latest changes too, read when opened
                page.locator("#changes summary").click()
                expect(page.locator("#latest-changes li").first).to_be_visible()
            results[what] = check_page(page, f"{what} {path}")

        # Another phone records hand 9: this phone says so, in its own words. Bob (B)
        # bids 4 in hearts and takes High, Low and Right; A takes Left and Joker, C Game.
        page.goto(f"{url}/games/{game}")
        expect(page.locator(".notice")).to_have_count(0)
        second = other.new_page()
        second.goto(f"{url}/games/{game}")
        enter_set_hand(second, words("en"))
        second.get_by_role("button", name="Record hand 9", exact=True).click()
        expect(second.locator(".notice")).to_contain_text("Hand 9 recorded:")
        within_polls(page, lambda: expect(page.locator(".notice")).to_contain_text(
            "Second phone", timeout=GLANCE_MS))
        results["notice"] = check_page(page, "notice (another phone recorded hand 9)",
                                       ".notice")

        # The preview above Record, hand 10 the same: "B bid 4, took 3: set, −4. A +2, C +1."
        enter_set_hand(page, t)
        expect(page.locator("#preview")).to_contain_text(re.compile(r"\bC\W*\+\s*[1۱]"))
        results["preview"] = check_page(page, "preview (B bid 4, took 3)", "#preview")
    finally:
        other.close()
        phone.close()

    report = []
    for what, (kind, least) in MINIMUM.items():
        found = results[what].counts[kind]
        if found < least:
            report.append(f"{what}: {found} {kind} lines found to check, expected at least "
                          f"{least} ({results[what].counts})")
    for checked in results.values():
        report += checked.problems
    assert not report, (f"{len(report)} problems in {language} at {WIDTH} px:\n"
                        + "\n".join(report))
