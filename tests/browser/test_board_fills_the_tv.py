"""A TV at the table's side (1920x1080) is read from three metres: the table board fills
the screen with the scores, the hand in play, the last hands and the chart, and every
table's board shares the screen equally between two or three tables. Nothing on either
is drawn under 32 px.

In a club of its own: tonight's evening, the scene's game (eight hands, ``scene.py``)
in play at each of its tables.
"""
from __future__ import annotations

import json
from datetime import date

import pytest
from playwright.sync_api import expect
from sqlmodel import Session

from scorekeeper.clubs.access import COOKIE
from scorekeeper.files.exchange import import_game
from scorekeeper.store.models import Club, Evening
from tests.browser import scene
from tests.members import member_cookie, new_club

pytestmark = [pytest.mark.browser, pytest.mark.drawn]

TV = {"width": 1920, "height": 1080}
LEGIBLE_PX = 32  # the smallest type read from three metres on a 1080-line screen

# The board's boxes as drawn: each visible element's box, and the size of the type of
# every element that holds text of its own.
DRAWN = """
(selector) => [...document.querySelectorAll(selector)]
  .filter(el => el.getClientRects().length && el.checkVisibility({visibilityProperty: true})
                && !el.closest('.visually-hidden'))
  .map(el => {
    const box = el.getBoundingClientRect();
    const text = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    return {name: el.id || el.tagName.toLowerCase() + '.' + el.className, top: box.top,
            bottom: box.bottom, left: box.left, right: box.right, width: box.width,
            height: box.height, font: text ? parseFloat(getComputedStyle(el).fontSize) : null};
  })
"""


def evening_of_tables(app, tables: int) -> tuple[int, int]:
    """A club with tonight's evening, the scene's game in play at each of ``tables``
    tables: (the club's id, the evening's id)."""
    with app.test_request_context(), Session(app.extensions["db_engine"]) as session:
        club = session.get(Club, new_club(app, "TV"))
        evening = Evening(club_id=club.id, played_on=date.today(), place=scene.PLACE)
        session.add(evening)
        session.commit()
        for table in range(1, tables + 1):
            game = import_game(session, club, json.dumps(scene.GAME))
            game.evening_id, game.table_number = evening.id, table
            session.add(game)
            session.commit()
        return club.id, evening.id


@pytest.fixture
def tv(browser, live_app, live_server):
    """A TV of a club of its own; ``tv(tables)`` makes tonight's evening there and
    gives the TV's page and the evening's address."""
    contexts = []

    def make(tables: int):
        club, evening = evening_of_tables(live_app, tables)
        context = browser.new_context(viewport=TV)
        contexts.append(context)
        context.add_cookies([{"name": COOKIE, "url": live_server,
                              "value": member_cookie(live_app, "viewer", "TV", club_id=club)}])
        return context.new_page(), f"{live_server}/evenings/{evening}"

    yield make
    for context in contexts:
        context.close()


def too_small(boxes: list[dict]) -> list[str]:
    return [f"{box['name']}: {box['font']} px" for box in boxes
            if box["font"] is not None and box["font"] < LEGIBLE_PX]


def test_the_table_board_fills_a_tv_with_scores_hands_and_chart(tv, tmp_path):
    page, evening = tv(2)
    page.goto(f"{evening}/board")
    expect(page.locator("#board .board-team")).to_have_count(3)
    expect(page.locator("#board-chart img")).to_be_visible()
    page.wait_for_function("() => document.querySelector('#board-chart img').complete")
    page.screenshot(path=str(tmp_path / "table-board-tv.png"))
    boxes = page.evaluate(DRAWN, "#board, #board *")
    assert not too_small(boxes), too_small(boxes)
    by_name = {box["name"]: box for box in boxes}
    # The last hands, newest first: hands 8 down to 4.
    hands = page.locator("#board-hands tbody th")
    expect(hands).to_have_text(["8", "7", "6", "5", "4"])
    # All of it on the screen, none below it; and the screen used to its foot.
    drawn = [box for box in boxes if box["name"] != "board"]
    assert max(box["bottom"] for box in drawn) <= TV["height"], by_name
    assert max(box["bottom"] for box in drawn) >= 0.85 * TV["height"]
    assert max(box["right"] for box in drawn) <= TV["width"]
    chart = page.locator("#board-chart img").bounding_box()
    assert chart["width"] >= 0.4 * TV["width"] and chart["height"] >= 0.3 * TV["height"]
    score = page.locator(".board-score").first
    assert float(score.evaluate("el => parseFloat(getComputedStyle(el).fontSize)")) >= 100


@pytest.mark.parametrize("tables", [2, 3])
def test_every_tables_board_shares_a_tv_equally(tv, tables, tmp_path):
    page, evening = tv(tables)
    page.goto(f"{evening}/tables")
    expect(page.locator(".board-table")).to_have_count(tables)
    page.screenshot(path=str(tmp_path / f"tables-{tables}-tv.png"))
    boxes = page.evaluate(DRAWN, "#board, #board *")
    assert not too_small(boxes), too_small(boxes)
    columns = page.evaluate(DRAWN, ".board-table")
    widths = [box["width"] for box in columns]
    assert max(widths) - min(widths) <= 2, widths
    assert sum(widths) >= 0.85 * TV["width"], widths
    assert len({round(box["top"]) for box in columns}) == 1, columns  # side by side
    for box in columns:
        assert 0.7 * TV["height"] <= box["height"] and box["bottom"] <= TV["height"], box
