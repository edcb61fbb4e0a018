"""The figures' pages after an evening at tables of four, five and six (tests/table_games.py:
five alone, six alone, four in pairs, four alone), on a 360 px phone, in English and in
Persian: the evening, its recap, the leaderboard, a player's page and a head to head
each fit the screen, with teams D, E and F and teams of one player."""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import Session

from scorekeeper.store.models import Club
from tests.browser import scene
from tests.browser.phones import phone_page
from tests.browser.table_steps import layout_problems
from tests.table_games import evening_at_every_table

pytestmark = pytest.mark.browser

SMALL_PHONE = {"width": 360, "height": 740}


@pytest.fixture
def small_viewer(browser, member_of_club):
    """A viewer's small phone: sees every figure, starts nothing."""
    yield from phone_page(browser, SMALL_PHONE, member_of_club("viewer", "Vic"))


def an_evening_at_every_table(app, club_id: int) -> int:
    with app.test_request_context(), Session(app.extensions["db_engine"]) as session:
        return evening_at_every_table(session, session.get(Club, club_id))[0].evening_id


@pytest.mark.parametrize("language", ["en", "fa"])
def test_the_figures_of_tables_of_four_five_and_six_fit_a_small_phone(
        small_viewer: Page, club, live_app, live_server: str, language: str,
        tmp_path) -> None:
    page = small_viewer
    evening = an_evening_at_every_table(live_app, club.id)
    ann, bob = (scene.player_id(live_app, name, club.id) for name in ("Ann", "Bob"))
    page.context.add_cookies([{"name": "lang", "value": language, "url": live_server}])
    problems = []
    for where, path in (
        ("evening", f"/evenings/{evening}"), ("recap", f"/evenings/{evening}/recap"),
        ("leaderboard", "/players?sort=rating"), ("player", f"/players/{ann}"),
        ("head to head", f"/players/{ann}/versus/{bob}"),
    ):
        page.goto(f"{live_server}{path}")
        expect(page.locator("h1")).to_be_visible()
        problems += layout_problems(page, f"{where} ({language})")
        page.screenshot(path=tmp_path / f"every-table-{where.replace(' ', '-')}-{language}-360.png",
                        full_page=True)
    assert problems == [], "\n".join(problems)
