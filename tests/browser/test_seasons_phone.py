"""A season on a 390 px phone: the owner makes it with the plain form, its standings fit
the screen, and a correction at the table shows in them on the next visit.
"""
from __future__ import annotations

from datetime import date, timedelta

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import Session

from scorekeeper.store.models import Game
from scorekeeper.store.replay import load_replay
from scorekeeper.table.corrections import apply, plan_abandon
from tests.browser import scene
from tests.browser.phones import PHONE
from tests.browser.table_steps import layout_problems

pytestmark = pytest.mark.browser


def abandon(app, game_id: int) -> None:
    """The game abandoned at the table (another phone's correction)."""
    with app.test_request_context(), Session(app.extensions["db_engine"]) as session:
        replay = load_replay(session, session.get(Game, game_id))
        apply(session, replay, plan_abandon(replay, True), replay.game.revision)


def standings_widths_fit(page: Page) -> None:
    fits = page.evaluate("""() => {
      const box = document.querySelector('.table-scroll');
      return document.scrollingElement.scrollWidth <= innerWidth
        && (!box || box.scrollWidth <= box.clientWidth);
    }""")
    assert fits, "the page or its standings scroll sideways"


def test_a_seasons_standings_fit_a_phone_and_follow_a_correction(
        page: Page, club, live_app, live_server: str, tmp_path) -> None:
    game_id = scene.start_scene(live_app, club.id)
    page.goto(f"{live_server}/seasons")
    expect(page.locator("#no-seasons")).to_contain_text("one lifetime")
    problems = layout_problems(page, "seasons, none yet", PHONE["width"])

    form = page.locator("form.season-form")
    form.get_by_label("Name").fill("Autumn")
    form.get_by_label("First day").fill(str(date.today() - timedelta(days=7)))
    form.get_by_label("Last day").fill(str(date.today() + timedelta(days=60)))
    form.get_by_text("Games won", exact=True).click()
    form.get_by_role("button", name="Make the season").click()
    expect(page.get_by_role("heading", name="Autumn")).to_be_visible()
    table = page.get_by_role("table", name="Standings")
    expect(table.locator("tbody tr")).to_have_count(6)
    standings_widths_fit(page)
    problems += layout_problems(page, "season", PHONE["width"])
    page.screenshot(path=tmp_path / "season-standings-390.png", full_page=True)

    abandon(live_app, game_id)
    page.reload()
    expect(page.locator("#no-standings")).to_contain_text("No game of this season counts yet")
    expect(page.get_by_role("table", name="Standings")).to_have_count(0)
    problems += layout_problems(page, "season after the correction", PHONE["width"])
    assert problems == [], "\n".join(problems)
