"""Steps a player takes at the table, as browser actions on controls found by name."""
from __future__ import annotations

import re

from playwright.sync_api import Locator, Page, expect

SEATS = {1: "Ann", 2: "Bob", 3: "Cid", 4: "Dan", 5: "Eve", 6: "Fay"}
TARGET = 11
TAP_BUDGET = 9  # a typical hand by quick entry, from "hand shown" to "recorded"
SWEEP_BUDGET = 6  # a hand in which one team took every point
SMALL_PHONE = {"width": 360, "height": 740}
MIN_TAP = 44  # CSS px, both ways
# Hand 1 of many a test: Bob (seat 2, B) bids 4 in hearts and makes it; C takes Joker and
# Game. The card points first, then all six.
HAND_1_CARDS = {"High": "B", "Low": "B", "Right Bauer": "B", "Left Bauer": "B", "Joker": "C"}
HAND_1 = {**HAND_1_CARDS, "Game": "C"}
AFTER_HAND_1 = {"A": 0, "B": 4, "C": 2}


class Taps:
    """Every tap the test makes goes through here, so a hand's taps can be counted."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, target: Locator) -> None:
        target.click()
        self.count += 1


# --- finding controls by name ------------------------------------------------------

def button(page: Page, name: str) -> Locator:
    return page.get_by_role("button", name=name, exact=True)


def point_group(page: Page, point: str) -> Locator:
    """The fieldset of one point of the tally, by its legend."""
    return page.get_by_role("group", name=point, exact=True)


def choice_label(radio: Locator) -> Locator:
    """The label a player taps: the radio itself is visually hidden inside it."""
    return radio.locator("xpath=ancestor::label[1]")


def team_score(page: Page, team: str) -> Locator:
    return page.locator(f'[aria-label^="Team {team}:"]')


def history_row(page: Page, number: int) -> Locator:
    """The history entry of hand ``number`` (the one with its "Edit hand N" link)."""
    link = page.get_by_role("link", name=f"Edit hand {number}", exact=True)
    return page.locator("li").filter(has=link)


# --- checks ------------------------------------------------------------------------

def number_pattern(score: int) -> str:
    """A score as a regex: a negative one with the real minus sign "−" (never "-")."""
    return f"−{-score}" if score < 0 else str(score)


def expect_scores(page: Page, scores: dict[str, int]) -> None:
    for team, score in scores.items():
        number = number_pattern(score)
        expect(team_score(page, team)).to_have_attribute(
            "aria-label", re.compile(rf"^Team {team}: {number} points$"))
        expect(team_score(page, team)).to_have_text(re.compile(rf"^\s*{number}\s*$"))


def expect_history_totals(page: Page, number: int, scores: dict[str, int]) -> None:
    """The running totals printed in the history line of hand ``number``."""
    line = history_row(page, number).locator(".deal-scores")
    for team, score in scores.items():
        expect(line).to_contain_text(
            re.compile(rf"\b{team}\b[^=·]*= {number_pattern(score)}(\s|·|$)"))


def expect_entry(page: Page, number: int, dealer: int, seats: int = 6) -> None:
    """The entry panel shows hand ``number``, dealt by seat ``dealer`` (at a table of
    ``seats``, its players the first of ``SEATS``)."""
    expect(page.get_by_role("heading", name=f"Hand {number}", exact=True)).to_be_visible()
    expect(page.get_by_text(f"Dealer: {SEATS[dealer]} (seat {dealer}).")).to_be_visible()
    first = dealer % seats + 1
    expect(page.get_by_text(f"{SEATS[first]} bids first.")).to_be_visible()


def expect_notice(page: Page, text: str) -> None:
    """The server's notice says ``text``. (The live preview is an <output>, also role
    "status": the notice box is taken; and not the phone's own, of a hand it played on.)"""
    expect(page.get_by_role("status").and_(page.locator(".notice:not([data-local])"))
           ).to_contain_text(text)


def game_id(page: Page) -> int:
    """The id of the game the page shows (its address ends /games/<id>…)."""
    return int(re.search(r"/games/(\d+)", page.url).group(1))


# --- actions -----------------------------------------------------------------------

def start_game(page: Page, base: str, taps: Taps, *, target: int = TARGET, dealer: int = 1) -> None:
    page.goto(f"{base}/games/new")
    for seat, name in SEATS.items():
        page.get_by_role("combobox", name=f"Seat {seat}", exact=True).fill(name)
    page.get_by_label("Play to", exact=True).fill(str(target))
    choose(page, page.get_by_role("radio", name=f"Seat {dealer} deals first", exact=True), taps)
    taps(button(page, "Start the game"))
    expect(page).to_have_url(re.compile(r"/games/\d+$"))
    expect(page.get_by_text(f"First team to {target} wins.")).to_be_visible()


def choose(page: Page, radio: Locator, taps: Taps) -> None:
    """Tap the label of a hidden radio and check that the radio took it."""
    taps(choice_label(radio))
    expect(radio).to_be_checked()


def bid_row(page: Page, seat: int) -> Locator:
    """A seat's row of calls in the bidding (its group is named by the player)."""
    return page.get_by_role("group", name=SEATS[seat], exact=True)


def call_radio(page: Page, seat: int, call: str | int) -> Locator:
    name = "Pass" if call == "pass" else f"Bid {call}"
    return bid_row(page, seat).get_by_role("radio", name=name, exact=True)


def call(page: Page, taps: Taps, seat: int, call: str | int) -> None:
    """One seat's call, turn by turn: the phone shows it at once."""
    choose(page, call_radio(page, seat, call), taps)


def quick_bid(page: Page, taps: Taps, bidder: int, bid: int) -> None:
    """The winning bid alone, one tap: everyone else passed."""
    call(page, taps, bidder, bid)
    expect(page.get_by_role("group", name="Trump?")).to_be_visible()


def everyone_passed(page: Page, taps: Taps) -> None:
    choose(page, page.get_by_role("radio", name="Everyone passed: thrown in", exact=True), taps)
    expect(button(page, "Record the throw-in")).to_be_visible()


def name_trump(page: Page, taps: Taps, suit: str) -> None:
    expect(page.get_by_role("group", name="Trump?")).to_be_visible()
    choose(page, page.get_by_role("radio", name=suit, exact=True), taps)  # "♠" is aria-hidden
    expect(page.get_by_role("heading", name="Who took which point?")).to_be_visible()


def tally(page: Page, taps: Taps, points: dict[str, str]) -> None:
    """Tap, for each point, the team that took it ("Tied: nobody" for a tied Game)."""
    for point, team in points.items():
        group = point_group(page, point)
        # A team's radio is named by its letter and then its players ("A Ann & Dan").
        name = team if len(team) > 1 else re.compile(rf"^{team}\b")
        choose(page, group.get_by_role("radio", name=name, exact=len(team) > 1), taps)


def enter_hand_1(page: Page, taps: Taps, points: dict[str, str] = HAND_1) -> None:
    """Bob's 4 in hearts and who took which point, up to (not including) Record."""
    quick_bid(page, taps, bidder=2, bid=4)
    name_trump(page, taps, "Hearts")
    tally(page, taps, points)


def record(page: Page, taps: Taps, number: int) -> None:
    taps(button(page, f"Record hand {number}"))
    expect_notice(page, f"Hand {number} recorded:")


# --- layout ------------------------------------------------------------------------

TAP_TARGETS_JS = """
() => {
  const out = [];
  const seen = new Set();
  const candidates = [
    ...document.querySelectorAll('button, a[href], summary, input[type=submit]'),
    ...[...document.querySelectorAll('input[type=radio], input[type=checkbox]')]
        .map(input => input.closest('label')
                      || (input.id && document.querySelector(`label[for="${input.id}"]`))
                      || input),
  ];
  for (const el of candidates) {
    if (!el || seen.has(el)) continue;
    seen.add(el);
    if (el.closest('noscript')) continue;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || style.display === 'none') continue;
    const rect = el.getBoundingClientRect();
    if (rect.width === 0 && rect.height === 0) continue;  // not rendered
    const name = (el.getAttribute('aria-label') || el.innerText || el.value || '').trim().replace(/\\s+/g, ' ');
    out.push({tag: el.tagName.toLowerCase(), name, width: Math.round(rect.width * 10) / 10,
              height: Math.round(rect.height * 10) / 10});
  }
  return out;
}
"""

OVERFLOW_JS = """
() => {
  const width = window.innerWidth;
  const wide = [];
  for (const el of document.body.querySelectorAll('*')) {
    const rect = el.getBoundingClientRect();
    if (rect.right > width + 0.5 && rect.width > 0) {
      wide.push(`${el.tagName.toLowerCase()}.${el.className} right=${Math.round(rect.right)}`);
    }
  }
  return {scrollWidth: document.documentElement.scrollWidth, innerWidth: width, wide: wide.slice(0, 10)};
}
"""


CLIPPED_JS = """
() => [...document.querySelectorAll('button, a[href], label, summary')]
  .filter(el => el.getClientRects().length && !el.closest('noscript')
                && el.scrollWidth > el.clientWidth + 1)
  .map(el => `${el.tagName.toLowerCase()} '${el.innerText.replace(/\\s+/g, ' ').trim()}': `
             + `content ${el.scrollWidth}px wide in ${el.clientWidth}px`)
"""


def layout_problems(page: Page, where: str, width: int = SMALL_PHONE["width"]) -> list[str]:
    """No sideways scroll on a screen ``width`` px wide, and every visible tap target at
    least 44x44 CSS px."""
    problems = []
    # Measure the page as laid out with its stylesheet, not mid-navigation (a board has
    # no header: the body's own style says the stylesheet is there).
    page.wait_for_load_state("load")
    expect(page.locator("body")).to_have_css("overflow-wrap", "anywhere")
    sizes = page.evaluate(OVERFLOW_JS)
    if sizes["innerWidth"] != width or sizes["scrollWidth"] > sizes["innerWidth"]:
        problems.append(f"{where}: scrolls sideways {sizes}")
    for target in page.evaluate(TAP_TARGETS_JS):
        if target["width"] < MIN_TAP or target["height"] < MIN_TAP:
            problems.append(f"{where}: {target['tag']} {target['name']!r} is "
                            f"{target['width']}x{target['height']}")
    return problems
