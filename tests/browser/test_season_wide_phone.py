"""A season of many evenings on a 390 px phone: its ladder has a column per evening, far
wider than the screen. The page itself never scrolls sideways; the ladder scrolls inside
its own box, the players' names staying in view, and every column's heading can be
brought into view.
"""
from __future__ import annotations

import json
from datetime import date, timedelta

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import Session

from scorekeeper.files.exchange import import_game
from scorekeeper.store.models import Club, Evening, Season
from tests.browser.club_tonight import OVER
from tests.browser.phones import PHONE
from tests.browser.table_steps import layout_problems

pytestmark = pytest.mark.browser

EVENINGS = 6


def season_of_evenings(app, club_id: int, evenings: int) -> int:
    """A season of ``evenings`` evenings, a day apart, each one game Bob & Eve won, all
    but one of each player's evenings dropped (struck through, each saying so to a screen
    reader in words hidden from the eye, out to the last column); its id."""
    today = date.today()
    with app.test_request_context(), Session(app.extensions["db_engine"]) as session:
        club = session.get(Club, club_id)
        for days_ago in range(evenings):
            evening = Evening(club_id=club.id, played_on=today - timedelta(days=days_ago))
            session.add(evening)
            session.commit()
            game = import_game(session, club, json.dumps(OVER))
            game.evening_id = evening.id
            session.add(game)
            session.commit()
        season = Season(club_id=club.id, name="Winter", starts_on=today - timedelta(days=60),
                        ends_on=today, ranked_by="won", min_evenings=1,
                        drop_worst=evenings - 1)
        session.add(season)
        session.commit()
        return season.id


WIDTHS_JS = "[Math.max(document.documentElement.scrollWidth, innerWidth), innerWidth]"
HEADINGS_REACHABLE_JS = """() => {
  // Each heading scrolled into its box's view: then it is on the screen, whole.
  const box = document.querySelector('.table-scroll');
  const names = document.querySelector('#standings tbody th');
  return [...document.querySelectorAll('#standings thead th')].map((th) => {
    th.scrollIntoView({block: 'nearest', inline: 'nearest'});
    const rect = th.getBoundingClientRect();
    const name = names.getBoundingClientRect();
    const rtl = document.documentElement.dir === 'rtl';
    const hidden = th.cellIndex > 1  // under the names
      && (rtl ? rect.right > name.left + 0.5 : rect.left < name.right - 0.5);
    return {text: th.innerText, left: rect.left, right: rect.right,
            seen: rect.left >= -0.5 && rect.right <= innerWidth + 0.5 && !hidden};
  });
}"""


def test_a_wide_ladder_scrolls_in_its_own_box_and_the_page_never_sideways(
        page: Page, club, live_app) -> None:
    season_id = season_of_evenings(live_app, club.id, EVENINGS)
    page.goto(f"{club.url}/seasons/{season_id}")
    table = page.get_by_role("table", name="Standings")
    expect(table.locator("thead th")).to_have_count(5 + EVENINGS)
    expect(table.locator("tbody tr")).to_have_count(6)
    page.screenshot(path="/tmp/season_390.png", full_page=True)
    # (A phone widens its window to a page wider than the screen: both are measured.)
    assert page.evaluate(WIDTHS_JS) == [PHONE["width"], PHONE["width"]]
    problems = layout_problems(page, "a season of many evenings", PHONE["width"])
    assert problems == [], "\n".join(problems)
    # The ladder is wider than its box: it scrolls there, the names column staying.
    box = page.get_by_role("region", name="Standings")
    assert box.evaluate("(box) => box.scrollWidth > box.clientWidth")
    headings = page.evaluate(HEADINGS_REACHABLE_JS)
    assert [heading for heading in headings if not heading["seen"]] == [], headings
    name = table.locator("tbody th").first
    assert name.bounding_box()["x"] >= 0  # scrolled to the last evening, the name stays
    assert page.evaluate(WIDTHS_JS) == [PHONE["width"], PHONE["width"]]
    # Right to left, the same: the ladder scrolls the other way in its box.
    page.context.add_cookies([{"name": "lang", "value": "fa", "url": club.url}])
    page.reload()
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    assert page.evaluate(WIDTHS_JS) == [PHONE["width"], PHONE["width"]]
    assert [heading for heading in page.evaluate(HEADINGS_REACHABLE_JS)
            if not heading["seen"]] == []
