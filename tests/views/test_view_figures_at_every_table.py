"""The figures' pages after an evening at tables of four, five and six: the evening's
tally and partners tonight, each player's page, the head to head and the leaderboard.

The evening is tests/table_games.py's, every game worked out by hand there:

  table 1: five alone (c5), Ann wins; A 6 Ann, B 2 Bob, C 6 Cid then Gus (from hand 3),
           D -4 Dan, E 1 Eve;
           then six alone (c6), in play: Joe (B) bid 3 and Nia (F) took all six points.
  table 2: four in pairs (2x2), Cid & Dan (A) beat Ann & Bob (B), 7 to 5;
           then four alone (c4), Ann wins; A 7 Ann, B 2 Gus, C 1 Bob, D 1 Hal.

A cutthroat game has no partners: only the game at four in pairs makes any (Ann & Bob,
Cid & Dan); in the others everyone at the table is an opponent.
"""
from __future__ import annotations

import pytest

from scorekeeper.store.db import get_session
from scorekeeper.store.models import Game, utcnow
from scorekeeper.table.evenings import new_evening
from tests.members import client_as, first_club
from tests.table_games import CUTTHROAT_FIVE, FIVE, evening_at_every_table, game_at
from tests.views.test_view_players import board, player_id, table_rows
from tests.views.view_helpers import Page


@pytest.fixture
def games(app) -> list[int]:
    """The evening's games, in the order they began."""
    with app.app_context():
        session = get_session()
        return [game.id for game in evening_at_every_table(session, first_club(session))]


@pytest.fixture
def viewer(app):
    return client_as(app, "viewer")


def evening_page(viewer, db, games) -> Page:
    page = Page(viewer.get(f"/evenings/{db.get(Game, games[0]).evening_id}"))
    assert page.status == 200
    return page


def caption_table(page: Page, caption: str) -> list[list[str]]:
    (table,) = [table for table in page.root.find_all("table")
                if table.find("caption") is not None and table.find("caption").text() == caption]
    return [[cell.text() for cell in row.iter() if cell.tag in ("th", "td")]
            for row in table.find_all("tr")]


def test_the_evening_counts_partnerships_at_four_in_pairs_only(viewer, db, games):
    page = evening_page(viewer, db, games)
    assert caption_table(page, "Per partnership") == [
        ["Partners", "Won"], ["Cid & Dan", "1"], ["Ann & Bob", "0"]]
    partnered = page.root.find("ul", aria_labelledby="partnered-title")
    assert [item.text() for item in partnered.find_all("li")] == [
        "Ann & Bob: 1 game", "Cid & Dan: 1 game"]
    # Table 1 plays six alone: nobody there has a partner to find.
    assert page.by_id("not-yet-title") is None
    assert "has partnered everyone else" not in page.text


def test_an_evening_of_cutthroat_games_only_says_it_had_no_partners(app, viewer, db):
    with app.app_context():
        session = get_session()
        club = first_club(session)
        game = game_at(session, club, "c5", FIVE, 5, CUTTHROAT_FIVE, target=5,
                       evening=new_evening(club, utcnow().date()))
        game_id = game.id
    page = evening_page(viewer, db, [game_id])
    assert page.section_text("partners-title") == "Partners tonight"
    section = page.by_id("partners-title").parent
    assert section.text() == (
        "Partners tonight No partners tonight: every game so far was each for themselves.")
    assert [caption.text() for caption in page.root.find_all("caption")] == [
        "The night's ranking"]


def test_a_players_page_has_partners_from_four_in_pairs_and_opponents_from_every_table(
        viewer, db, games):
    page = Page(viewer.get(f"/players/{player_id(db, 'Ann')}"))
    assert table_rows(page, "games")[:4] == [
        ["Played", "3"], ["Won", "2"], ["Lost", "1"], ["Win rate", "67%"]]
    assert table_rows(page, "partners")[1:] == [["Bob", "1", "0", "1", "0%"]]
    assert page.section_text("cutthroat-games") == (
        "2 games were each for themselves: they have no partners, and count among the "
        "opponents only.")
    cid = Page(viewer.get(f"/players/{player_id(db, 'Cid')}"))
    assert cid.section_text("cutthroat-games").startswith("1 game was each for themselves: ")
    # Five alone: Ann beat Bob, Cid, Gus, Dan and Eve; in pairs Cid & Dan beat her; four
    # alone: she beat Gus, Bob and Hal.
    assert table_rows(page, "rivals")[1:] == [
        ["Bob", "2", "2", "0", "100%"], ["Gus", "2", "2", "0", "100%"],
        ["Cid", "2", "1", "1", "50%"], ["Dan", "2", "1", "1", "50%"],
        ["Eve", "1", "1", "0", "100%"], ["Hal", "1", "1", "0", "100%"]]


@pytest.mark.parametrize("name, results", [
    ("Ann", ["Won", "Lost", "Won"]),
    ("Bob", ["Third", "Lost", "Third"]),  # four alone: third with Hal, both on 1
    ("Gus", ["Second", "Second"]),  # four alone; five alone, in Cid's seat (C: 6)
    ("Dan", ["Won", "Fifth"]),  # five alone: -4, last
    ("Eve", ["Fourth"]),
])
def test_a_rated_games_result_names_the_place_of_any_table(viewer, db, games, name, results):
    page = Page(viewer.get(f"/players/{player_id(db, name)}"))
    assert [row[1] for row in table_rows(page, "rating-games")[1:]] == results


def test_the_head_to_head_of_two_who_met_at_every_table(viewer, db, games):
    ann, bob = player_id(db, "Ann"), player_id(db, "Bob")
    page = Page(viewer.get(f"/players/{ann}/versus/{bob}"))
    assert table_rows(page, "together") == [
        ["Games", "1"], ["Won together", "0"], ["Lost together", "1"]]
    assert table_rows(page, "against") == [
        ["Games", "2"], ["Won by Ann", "2"], ["Won by Bob", "0"]]


def test_the_leaderboard_lists_everyone_who_sat_at_any_table(viewer, db, games):
    page = Page(viewer.get("/players?sort=name"))
    assert list(board(page)) == sorted(["Ann", "Bob", "Cid", "Dan", "Eve", "Gus", "Hal", "Ivy", "Joe",
                            "Kim", "Lea", "Max", "Nia"])
