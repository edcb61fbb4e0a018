"""The service worker keeps a bounded number of game pages for a reload with no
connection: the last ``KEPT_PAGES`` games this phone opened, each with its words, the
oldest dropped first. A phone that follows a club for years never fills its storage.
"""
from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest
from playwright.sync_api import Page
from sqlmodel import Session

from scorekeeper.rules import HouseRules
from scorekeeper.store.models import Club, Evening
from scorekeeper.table.seating import start_game
from tests.browser.phones import ready_to_play_on, wait_until
from tests.new_games import SEAT_NAMES

pytestmark = pytest.mark.browser

WORKER = Path(__file__).resolve().parents[2] / "static" / "sw.js"
KEPT_PAGES = int(re.search(r"var KEPT_PAGES = (\d+);", WORKER.read_text()).group(1))

KEPT = """
() => caches.open("scorekeeper-pages-v1").then((cache) => cache.keys())
  .then((requests) => requests.map((request) => new URL(request.url).pathname))
"""


def start_games(app, club_id: int, count: int) -> list[int]:
    """``count`` games of the club, one evening's, each at a table of its own."""
    with Session(app.extensions["db_engine"]) as session:
        club = session.get(Club, club_id)
        evening = Evening(club_id=club.id, played_on=date.today())
        return [start_game(session, club, SEAT_NAMES, HouseRules(), 1, evening, table).id
                for table in range(1, count + 1)]


def test_the_worker_keeps_the_last_game_pages_opened_and_drops_the_oldest(page: Page, club):
    assert 3 <= KEPT_PAGES <= 50
    games = start_games(club.app, club.id, KEPT_PAGES + 2)
    page.goto(f"{club.url}/rules")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    for game in games:
        page.goto(f"{club.url}/games/{game}")
        ready_to_play_on(page)  # its words asked for, and kept, too
    newest = [f"/games/{game}" for game in games[-KEPT_PAGES:]]
    wanted = sorted(newest + [f"{path}/offline-words" for path in newest])
    wait_until(page, f"() => ({KEPT})().then((kept) => kept.sort().join() === {wanted!r}.join())")
    assert sorted(page.evaluate(KEPT)) == wanted
