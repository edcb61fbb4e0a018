"""A team's players, in Persian at 390x844, with Latin and Persian names mixed: drawn in
one order wherever the page names them, and a team button's names never torn apart.

Measured from the glyphs the browser drew (``Range.getBoundingClientRect``), not from
the HTML: the order of a team's names is where their glyphs lie, left to right.

Teams: A Ann & مریم (Latin, then Persian), B Bob & Dan (both Latin), C سارا & Eve
(Persian, then Latin). Ann deals hand 1; Bob bids 4 in hearts and makes it, C takes
Joker and Game (B 4, C 2). Then Dan bids 4 twice and takes every point: B wins, 16.
"""
from __future__ import annotations

import re
from datetime import date

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import Session

from scorekeeper.files.exchange import read_game
from scorekeeper.store.models import Club, Evening, Game
from scorekeeper.store.replay import load_replay
from scorekeeper.table.recording import Actor, record_hand
from scorekeeper.table.seating import start_game
from tests.browser.phones import PHONE, phone_context
from tests.browser.scene import player_id
from tests.browser.test_drawn_order import words
from tests.browser.table_steps import layout_problems
from tests.sample_games import P

pytestmark = [pytest.mark.browser, pytest.mark.drawn]

SEATS = ["Ann", "Bob", "سارا", "مریم", "Dan", "Eve"]
PARTNERS = {"A": ("Ann", "مریم"), "B": ("Bob", "Dan"), "C": ("سارا", "Eve")}
ALL_POINTS = dict.fromkeys(("high", "low", "right", "left", "joker", "game"), "B")
HANDS = [
    {"auction": [4, P, P, P, P, P], "trump": "hearts",
     "points": {**ALL_POINTS, "joker": "C", "game": "C"}},  # Bob bids 4, made; C +2
    {"auction": [P, P, 4, P, P, P], "trump": "spades", "points": ALL_POINTS},  # Dan, +6
    {"auction": [P, 4, P, P, P, P], "trump": "clubs", "points": ALL_POINTS},  # Dan: B wins
]
fa = words("fa")

# Every character the element draws, in logical order, with its drawn box (or null).
GLYPHS = r"""
(element) => {
  const range = document.createRange(), out = [];
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  for (let node; (node = walker.nextNode());) {
    for (let i = 0; i < node.data.length; i++) {
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const r = range.getBoundingClientRect();
      out.push([node.data[i], r.width > 0 ? [r.left, r.right, r.top, r.bottom] : null]);
    }
  }
  return out;
}
"""


def start_persian_game(app, club_id: int, hands: int) -> int:
    """The game, its first ``hands`` hands recorded as at the table; its id."""
    game_file = read_game({"format": "schmier-game/1",
                           "rules": {"teams": "3x2", "target": 11, "bidder_goes_out": False},
                           "seats": SEATS, "first_dealer": 1, "hands": HANDS})
    with app.test_request_context(), Session(app.extensions["db_engine"]) as session:
        club = session.get(Club, club_id)
        evening = Evening(club_id=club.id, played_on=date.today(), place="Room 12")
        game_id = start_game(session, club, SEATS, game_file.rules, 1, evening).id
        for number, deal in enumerate(game_file.deals[:hands], start=1):
            replay = load_replay(session, session.get(Game, game_id))
            record_hand(session, replay, number, deal, by=Actor(who="Ann"))
        return game_id


@pytest.fixture
def persian_phone(browser, member_of_club):
    url, cookie = member_of_club()
    context = phone_context(browser, PHONE, (url, cookie))
    context.add_cookies([{"name": "lang", "value": "fa", "url": url}])
    try:
        yield url, context.new_page()
    finally:
        context.close()


def team_glyphs(element, team: str) -> dict[str, list[list[float]]]:
    """Where the element drew the team's "first & second": the boxes of the first name's
    glyphs, of the "&" and of the second name's."""
    glyphs = element.evaluate(GLYPHS)
    text = "".join(char for char, _box in glyphs)
    first, second = PARTNERS[team]
    found = re.search(rf"({re.escape(first)})\W*(&)\W*({re.escape(second)})", text)
    assert found, f"{team}'s players not in «{text}»"
    return {part: [glyphs[i][1] for i in range(found.start(group), found.end(group))
                   if glyphs[i][1] is not None]
            for part, group in (("first", 1), ("and", 2), ("second", 3))}


def drawn_order(element, team: str) -> tuple[str, ...]:
    """The team's two names as read in the page's direction (right to left): by where
    their glyphs were drawn."""
    boxes = team_glyphs(element, team)
    first, second = PARTNERS[team]
    centre = {name: sum((box[0] + box[1]) / 2 for box in boxes[part]) / len(boxes[part])
              for name, part in ((first, "first"), (second, "second"))}
    return tuple(sorted(centre, key=centre.get, reverse=True))


def order_problems(page: Page, places: dict[str, str], where: str,
                   teams: str = "ABC") -> list[str]:
    """Each team's names, in every place that shows them, in seat order read right to
    left: the card's order, and so one order wherever the page names the team."""
    problems = []
    for what, selector in places.items():
        for team in teams:
            for element in page.locator(selector.format(team=team)).all():
                if element.is_visible():
                    drawn = drawn_order(element, team)
                    if drawn != PARTNERS[team]:
                        problems.append(f"{where}, {what}: team {team} read as {' & '.join(drawn)}")
    return problems


def test_a_team_is_named_in_one_order_everywhere_on_a_persian_page(persian_phone, live_app,
                                                                    club):
    url, page = persian_phone
    game = start_persian_game(live_app, club.id, hands=1)
    page.goto(f"{url}/games/{game}")
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    # Hand 2: سارا bids 4 in hearts; the tally's buttons show each team's players.
    tap(page.get_by_role("group", name="سارا", exact=True)
        .get_by_role("radio", name=f"{fa('Bid')} {fa('4')}", exact=True))
    tap(page.get_by_role("radio", name=fa("Hearts"), exact=True))
    expect(page.get_by_role("heading", name=fa("Who took which point?"))).to_be_visible()
    page.evaluate("document.fonts.ready.then(() => true)")
    problems = order_problems(page, {
        "card": ".team-{team} .team-names",
        "team button": "#tally .choice.team-{team} > span",
        "chart's words": "#chart-summary",
    }, "in play")

    for number in (2, 3):  # the rest of the game, as another phone recorded it
        with live_app.test_request_context(), \
                Session(live_app.extensions["db_engine"]) as session:
            replay = load_replay(session, session.get(Game, game))
            deals = read_game({"format": "schmier-game/1", "rules": {"teams": "3x2",
                               "target": 11, "bidder_goes_out": False}, "seats": SEATS,
                               "first_dealer": 1, "hands": HANDS}).deals
            record_hand(session, replay, number, deals[number - 1], by=Actor(who="Ann"))
    page.goto(f"{url}/games/{game}")
    headline = page.locator(".winners")
    expect(headline).to_contain_text("Bob")
    problems += order_problems(page, {"card": ".team-{team} .team-names"}, "game over")
    problems += order_problems(page, {"headline": ".winners"}, "game over", teams="B")
    assert not problems, "\n".join(problems)


def test_a_team_button_keeps_its_players_names_together(persian_phone, live_app, club):
    url, page = persian_phone
    game = start_persian_game(live_app, club.id, hands=1)
    page.goto(f"{url}/games/{game}")
    tap(page.get_by_role("group", name="سارا", exact=True)
        .get_by_role("radio", name=f"{fa('Bid')} {fa('4')}", exact=True))
    tap(page.get_by_role("radio", name=fa("Hearts"), exact=True))
    expect(page.get_by_role("heading", name=fa("Who took which point?"))).to_be_visible()
    page.evaluate("document.fonts.ready.then(() => true)")
    # A team may take two lines (its type stays at the app's least, 14 px): broken
    # between the names only, the "&" on the first name's line.
    problems = torn_teams(page)
    problems += layout_problems(page, "the tally in Persian", width=PHONE["width"])
    page.set_viewport_size({"width": 360, "height": 740})
    problems += torn_teams(page)
    assert not problems, "\n".join(problems)


def torn_teams(page: Page) -> list[str]:
    """Team buttons whose players' names are drawn apart: a name itself broken, or the "&"
    apart from the first name; or cut at the edge."""
    problems = []
    for button in page.locator("#tally .choice:not(.tie) > span").all():
        team = button.locator("xpath=..").get_attribute("class").split("team-")[1][0]
        box = button.bounding_box()
        parts = team_glyphs(button, team)
        line = {part: {round((b[2] + b[3]) / 2) for b in boxes} for part, boxes in parts.items()}
        if any(max(ys) - min(ys) > 4 for ys in line.values()) or \
                abs(min(line["first"]) - min(line["and"])) > 4:
            problems.append(f"{page.viewport_size['width']} px: team {team}'s players broken "
                            f"inside a name or before the &: {line}")
        if any(b[0] < box["x"] - 0.5 or b[1] > box["x"] + box["width"] + 0.5
               for boxes in parts.values() for b in boxes):
            problems.append(f"team {team}'s players cut at the button's edge")
    return problems


def tap(radio) -> None:
    radio.locator("xpath=ancestor::label[1]").click()
    expect(radio).to_be_checked()


def test_a_players_bids_fit_a_persian_phone_without_a_sideways_swipe(persian_phone, live_app,
                                                                      club):
    url, page = persian_phone
    start_persian_game(live_app, club.id, hands=3)
    page.goto(f"{url}/players/{player_id(live_app, 'Dan', club.id)}")
    bids = page.locator("#bids")
    expect(bids.locator("tfoot th")).to_have_text(fa("All bids"))
    page.evaluate("document.fonts.ready.then(() => true)")
    scroller = bids.locator("xpath=..")
    sizes = scroller.evaluate("el => [el.scrollWidth, el.clientWidth]")
    assert sizes[0] <= sizes[1], f"the bids table is {sizes[0]} px wide in {sizes[1]} px"
    assert layout_problems(page, "a player's page in Persian", width=PHONE["width"]) == []
