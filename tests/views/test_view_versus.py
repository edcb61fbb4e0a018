"""Best partner, toughest opponent and the head-to-head page, on games played through the
pages. Every figure below is worked out by hand from RULES.md.

Three pairs to 5 (A = seats 1 & 4, B = 2 & 5, C = 3 & 6), Ann dealing first. Each game
is one hand: the winning team's first seat after the dealer bids 5 and its team takes
every point and Game (6 ≥ 5: made, 6 points, and it alone reaches 5: it wins).

  games 1-5: Ann Bob Cid Dan Eve Fay (A = Ann & Dan, B = Bob & Eve, C = Cid & Fay),
             won by A, A, A, B, C;
  game 6:    Ann Gus Cid Dan Eve Fay (A = Ann & Dan, B = Gus & Eve, C = Cid & Fay), won by B.

Ann: with Dan 6 games, won 3 (50%): the best partner, her only one. Against Bob 5 (won 3,
60%), against Cid, Eve and Fay 6 each (won 3, 50%: the toughest, by name Cid), against
Gus 1 (too few). Head to head, Ann and Bob as opponents: 5 games, Ann won 3, Bob 1, C 1.
"""
from __future__ import annotations

from datetime import datetime, timezone

import pytest

from scorekeeper.store.models import Game
from tests.members import client_as
from tests.views.test_view_players import (
    another_clubs_player, new_game, player_id, table_rows,
)
from tests.views.view_helpers import Page, calls_for

FIRST = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"]
SIXTH = ["Ann", "Gus", "Cid", "Dan", "Eve", "Fay"]
BIDDER = {"A": 4, "B": 2, "C": 3}  # each team's first seat after seat 1, the dealer


@pytest.fixture
def evenings(client, new_game_form, play):
    """The six games above, played through the pages; their ids."""
    games = []
    for names, winner in [*((FIRST, team) for team in "AAABC"), (SIXTH, "B")]:
        game = new_game(client, new_game_form, names, 1)
        play(game, 1, calls_for(1, {BIDDER[winner]: 5}), "hearts", winner * 5, winner)
        games.append(game)
    return games


def versus(client, db, one: str, other: str) -> Page:
    page = Page(client.get(f"/players/{player_id(db, one)}/versus/{player_id(db, other)}"))
    assert page.status == 200
    return page


def test_the_player_page_names_the_best_partner_and_the_toughest_opponent(client, db,
                                                                          evenings):
    page = Page(client.get(f"/players/{player_id(db, 'Ann')}"))
    assert page.section_text("best-partner") == "Best partner: Dan — 3 of 6 games won together"
    assert page.section_text("toughest-rival") == (
        "Toughest opponent: Cid — Ann won 3 of 6 games against them")
    assert table_rows(page, "rivals") == [
        ["Opponent", "Games", "Won", "Lost", "Win rate"],
        ["Cid", "6", "3", "3", "50%"], ["Eve", "6", "3", "3", "50%"],
        ["Fay", "6", "3", "3", "50%"], ["Bob", "5", "3", "2", "60%"],
        ["Gus", "1", "0", "1", "0%"]]
    ann = player_id(db, "Ann")
    links = [a.get("href") for a in page.by_id("rivals").find_all("a")]
    assert links[:2] == [f"/players/{player_id(db, 'Cid')}",
                         f"/players/{ann}/versus/{player_id(db, 'Cid')}"]
    assert len(links) == 10


def test_below_the_minimum_the_lines_say_when_they_will_show(client, db, evenings):
    page = Page(client.get(f"/players/{player_id(db, 'Gus')}"))
    assert page.section_text("best-partner") == (
        "Best partner: shown once Gus has finished 3 games with the same partner.")
    assert page.section_text("toughest-rival") == (
        "Toughest opponent: shown once Gus has finished 3 games against the same opponent.")
    assert table_rows(page, "partners")[1:] == [["Eve", "1", "1", "0", "100%"]]


def test_head_to_head_as_partners(client, db, evenings):
    page = versus(client, db, "Ann", "Dan")
    assert page.root.find("h1").text() == "Ann and Dan: head to head"
    assert table_rows(page, "together") == [
        ["Games", "6"], ["Won together", "3"], ["Lost together", "3"], ["Win rate", "50%"]]
    # Never opponents: the counts, no rates, and the minimum said.
    assert table_rows(page, "against") == [
        ["Games", "0"], ["Won by Ann", "0"], ["Won by Dan", "0"]]
    assert "The win rates are shown once they have finished 3 games as opponents." in page.text
    links = {a.get("href") for a in page.root.find_all("a")}
    assert {f"/players/{player_id(db, 'Ann')}", f"/players/{player_id(db, 'Dan')}"} <= links


def test_head_to_head_as_opponents_counts_a_third_teams_wins(client, db, evenings):
    page = versus(client, db, "Ann", "Bob")
    assert table_rows(page, "against") == [
        ["Games", "5"], ["Won by Ann", "3"], ["Won by Bob", "1"], ["Won by a third team", "1"],
        ["Win rate of Ann", "60%"], ["Win rate of Bob", "20%"]]
    assert table_rows(page, "together") == [
        ["Games", "0"], ["Won together", "0"], ["Lost together", "0"]]
    assert "The win rate is shown once they have finished 3 games as partners." in page.text
    # The other way round: the same games, each one's wins.
    assert table_rows(versus(client, db, "Bob", "Ann"), "against")[1:3] == [
        ["Won by Bob", "1"], ["Won by Ann", "3"]]


def test_below_the_minimum_the_counts_show_but_not_the_rates(client, db, evenings):
    page = versus(client, db, "Ann", "Gus")
    assert table_rows(page, "against") == [["Games", "1"], ["Won by Ann", "0"],
                                           ["Won by Gus", "1"]]
    assert "Win rate" not in page.section_text("against")


def test_an_abandoned_game_leaves_the_head_to_head(client, db, evenings):
    game = db.get(Game, evenings[-1])
    game.abandoned_at = datetime.now(timezone.utc)
    db.add(game)
    db.commit()
    page = versus(client, db, "Ann", "Gus")
    assert page.section_text("never-together") == (
        "Ann and Gus have not sat at one table yet.")
    assert page.by_id("against") is None
    assert table_rows(versus(client, db, "Ann", "Dan"), "together")[0] == ["Games", "5"]


def test_a_game_in_play_counts_as_played_not_won_or_lost(client, db, evenings, new_game_form):
    new_game(client, new_game_form, FIRST, 1)
    page = versus(client, db, "Ann", "Bob")
    assert table_rows(page, "against")[:2] == [["Games", "6"], ["Won by Ann", "3"]]
    assert "1 game is still in play: it counts as played, not as won or lost." in \
        page.section_text("against-title") + page.text


def test_a_viewer_sees_the_head_to_head_and_nothing_to_change(app, db, evenings):
    viewer = client_as(app, "viewer")
    page = versus(viewer, db, "Ann", "Bob")
    assert 'method="post"' not in page.text.replace(
        'method="post" action="/language"', "")


def test_another_clubs_player_or_the_same_player_twice_is_not_found(client, db, evenings,
                                                                   stranger):
    zed = another_clubs_player(db)
    ann = player_id(db, "Ann")
    for url in (f"/players/{ann}/versus/{zed.id}", f"/players/{zed.id}/versus/{ann}",
                f"/players/{ann}/versus/{ann}", f"/players/{ann}/versus/99999999999",
                f"/players/{ann}/versus/bob", f"/players/{ann}/versus/-1"):
        response = client.get(url)
        assert response.status_code == 404, url
        assert "Zed" not in response.text
    assert stranger.get(f"/players/{ann}/versus/{player_id(db, 'Bob')}").status_code == 404
