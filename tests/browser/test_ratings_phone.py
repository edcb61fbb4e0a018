"""The ratings on a phone (360 px laid out, 390 px pictured), in a club of their own with three finished games (those
of tests/test_ratings.py): the leaderboard leads with the ratings and the latest game's
changes, and a player's page says, lists game by game and draws theirs; nothing scrolls
sideways, nothing fails axe."""
from __future__ import annotations

import re
from datetime import date

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import Session, select

from scorekeeper.files.exchange import import_game
from scorekeeper.store.models import Club, Evening, Game, Player
from tests.browser.phones import PHONE, phone_page
from tests.browser.table_steps import SMALL_PHONE, layout_problems
from tests.browser.test_axe import violations
from tests.members import member_cookie, new_club
from tests.test_ratings import CLOSE, TIE, TRIOS

pytestmark = pytest.mark.browser


@pytest.fixture
def rated_club(live_app):
    """A new club whose three games, played one evening, are over; its id."""
    with live_app.test_request_context(), Session(live_app.extensions["db_engine"]) as session:
        club = session.get(Club, new_club(live_app, "Rated"))
        evening = Evening(club_id=club.id, played_on=date.today())
        session.add(evening)
        session.commit()
        for raw in (TIE, TRIOS, CLOSE):
            game = import_game(session, club, raw)
            game.evening_id = evening.id
            session.add(game)
            session.commit()
        return club.id


@pytest.fixture
def rated_page(browser, live_app, live_server, rated_club):
    yield from phone_page(browser, SMALL_PHONE,
                          (live_server, member_cookie(live_app, "owner", club_id=rated_club)))


def pictured(page: Page, path) -> None:
    """A screenshot at the width of a usual phone (the layout was checked at 360 px)."""
    page.set_viewport_size({"width": PHONE["width"], "height": PHONE["height"]})
    page.screenshot(path=path, full_page=True)


def test_the_leaderboard_leads_with_the_ratings_and_fits(rated_page: Page,
                                                         live_server: str, tmp_path) -> None:
    page = rated_page
    page.goto(f"{live_server}/players")
    expect(page.get_by_role("table", name="Leaderboard: Rating")).to_be_visible()
    cells = page.locator("table.leaderboard tbody td").all_inner_texts()
    assert len(cells) == 2 * 9 and all(re.fullmatch(r"1\d{3}|new", cell)
                                       for cell in cells[::2]), cells
    expect(page.locator("#latest-rated")).to_contain_text("the latest game over")
    expect(page.locator("#leaderboard-summary")).to_contain_text(
        "Sorted by Rating, highest first.")
    assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
    problems = layout_problems(page, "leaderboard by rating")
    assert problems == [], "\n".join(problems)
    assert violations(page) == []
    pictured(page, tmp_path / "ratings-leaderboard-390.png")


def test_a_players_page_says_and_draws_the_rating(rated_page: Page, live_app, live_server: str,
                                                  rated_club: int, tmp_path) -> None:
    page = rated_page
    with Session(live_app.extensions["db_engine"]) as session:
        ann = session.exec(select(Player.id).where(Player.club_id == rated_club,
                                                   Player.name == "Ann")).one()
        assert session.exec(select(Game).where(Game.club_id == rated_club)).all()
    page.goto(f"{live_server}/players/{ann}")
    expect(page.locator("#rating-now")).to_contain_text("Rated games: 3")
    expect(page.locator("#rating-games tbody tr")).to_have_count(3)
    expect(page.get_by_role("img", name="Ann's rating, evening by evening")).to_be_visible()
    expect(page.locator("#rating-table tbody tr")).to_have_count(1)
    assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
    problems = layout_problems(page, "player's rating")
    assert problems == [], "\n".join(problems)
    assert violations(page) == []
    pictured(page, tmp_path / "ratings-player-390.png")
