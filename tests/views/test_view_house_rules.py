"""The house rules *lowest bid*, *when everyone passes* and *smudge* on the pages: the
new-game form offers each, and a game started with one plays it (RULES.md, "House
rules"; each sentence expected is typed here as the page says it).
"""
from __future__ import annotations

import pytest

from tests.views.view_helpers import (
    Game, Hand, Page, THROW_IN, calls_for, count, rows, seat_players,
)

BOB_BIDS_2 = calls_for(1, {2: 2})  # hand 1, seat 1 dealing: Bob (seat 2, B) bids 2
BOB_BIDS_3 = calls_for(1, {2: 3})
ANN_STUCK_BIDS_3 = calls_for(1, {1: 3})  # seats 2 to 6 pass; Ann, the dealer, bids 3
STUCK = ("Everyone before the dealer passed, and the dealer is stuck: the dealer must "
         "bid, 3 or more.")


def choices(page: Page, name: str) -> list[str]:
    return [field.get("value") for field in page.root.find_all("input", name=name)]


def test_the_new_game_form_offers_each_house_rule_its_default_chosen(client):
    page = Page(client.get("/games/new"))
    assert choices(page, "lowest_bid") == ["3", "2"]
    assert choices(page, "all_pass") == ["throw_in", "dealer_stuck"]
    (smudge,) = page.root.find_all("input", name="smudge")
    assert smudge.get("type") == "checkbox" and smudge.get("checked") is None
    checked = {field.get("name"): field.get("value") for field in page.root.find_all("input")
               if field.get("checked") is not None}
    assert (checked["lowest_bid"], checked["all_pass"]) == ("3", "throw_in")
    text = page.text
    assert "Lowest bid: the lowest bid a seat may make" in text
    assert "2: bids 2 to 6" in text
    assert "The dealer is stuck: the dealer must bid" in text
    assert ("Smudge: a team that takes all six points of a hand wins the game at once, "
            "whatever the scores") in text


@pytest.mark.parametrize("overrides", [
    {"lowest_bid": "5"}, {"lowest_bid": "two"}, {"all_pass": "redeal"},
])
def test_a_house_rule_value_the_form_doesnt_offer_is_refused_and_nothing_stored(
        client, db, new_game_form, overrides):
    response = client.post("/games/new", data=new_game_form(**overrides))
    assert response.status_code == 422
    assert Page(response).alerts()
    assert count(db, Game) == 0


# --- lowest bid -------------------------------------------------------------------------

def test_a_game_with_lowest_bid_2_offers_2_and_records_a_hand_at_2(client, db, start_game,
                                                                   play):
    game = start_game(lowest_bid="2")
    assert rows(db, Game)[0].house_rules["lowest_bid"] == 2
    page = Page(client.get(f"/games/{game}"))
    assert choices(page, "turn_1") == ["pass", "2", "3", "4", "5", "6"]
    # Bob (B) bids 2: A High and Game, B Low and the Right Bauer, C the Left and the Joker.
    play(game, 1, BOB_BIDS_2, "hearts", "ABBCC", "A")
    page = Page(client.get(f"/games/{game}"))
    assert page.scores() == {"A": 2, "B": 2, "C": 2}
    assert "bid 2" in page.history()[1]["head"]


def test_a_bid_of_2_counts_in_the_bidders_figures_with_the_bids_of_3(client, db, start_game,
                                                                     play):
    game = start_game(lowest_bid="2", target="5")
    play(game, 1, BOB_BIDS_2, "hearts", "ABBCC", "A")  # Bob (B) bids 2 and makes it
    bob = seat_players(db, game)[2]
    page = Page(client.get(f"/players/{bob.id}"))
    assert page.status == 200
    cells = [[cell.text() for cell in row.children
              if not isinstance(cell, str) and cell.tag in ("th", "td")]
             for row in page.by_id("bids").find_all("tr")]
    assert cells[1][:4] == ["3", "1", "1", "0"], cells  # at 3: one bid, made, none set


def test_a_hand_at_2_entered_in_one_tap(client, db, start_game):
    game = start_game(lowest_bid="2")
    form = {"number": "1", "turn_1": "2", "trump": "hearts", "high": "A", "low": "B",
            "right": "B", "left": "C", "joker": "C", "game": "A"}
    assert client.post(f"/games/{game}/hands", data=form).status_code == 303
    (hand,) = rows(db, Hand)
    assert hand.calls == [2, "pass", "pass", "pass", "pass", "pass"]


def test_the_games_own_rules_refuse_a_bid_of_2_saying_the_bids(client, db, start_game,
                                                              record):
    game = start_game()
    assert choices(Page(client.get(f"/games/{game}")), "turn_1") == ["pass", "3", "4", "5", "6"]
    response = record(game, 1, BOB_BIDS_2, "hearts", "ABBCC", "A")
    assert response.status_code == 422
    assert Page(response).alerts() == ["That is neither a pass nor a bid of 3 to 6."]
    assert count(db, Hand) == 0


# --- when everyone passes: the dealer is stuck ---------------------------------------

@pytest.mark.parametrize("form", [
    {"calls": THROW_IN},
    {"bid": "passed"},
    {f"turn_{turn}": "pass" for turn in range(1, 7)},
], ids=["calls", "everyone passed", "turn by turn"])
def test_a_stuck_dealers_pass_is_refused_saying_why_and_nothing_is_written(
        client, db, start_game, form):
    game = start_game(all_pass="dealer_stuck")
    response = client.post(f"/games/{game}/hands", data={"number": "1", **form})
    assert response.status_code == 422
    assert Page(response).alerts() == [STUCK]
    assert count(db, Hand) == 0


def test_a_stuck_dealer_bids_and_the_hand_is_played(client, db, start_game, play):
    game = start_game(all_pass="dealer_stuck")
    page = Page(client.get(f"/games/{game}"))
    assert choices(page, "bid") == []  # nobody throws in: no "Everyone passed" to tap
    # Ann (A, the dealer) bids 3 and takes High, Low and the Right Bauer; B the Left and
    # Game, C the Joker: A +3, B +2, C +1. The deal passes to Bob.
    play(game, 1, ANN_STUCK_BIDS_3, "spades", "AAABC", "B")
    assert Page(client.get(f"/games/{game}")).scores() == {"A": 3, "B": 2, "C": 1}
    assert rows(db, Hand)[0].calls == ["pass"] * 5 + [3]


def test_by_default_everyone_passing_throws_in(client, db, start_game, play):
    game = start_game()
    assert "Everyone passed: thrown in" in Page(client.get(f"/games/{game}")).text
    play(game, 1, THROW_IN)
    assert count(db, Hand) == 1


# --- smudge ------------------------------------------------------------------------------

def test_a_smudge_ends_the_game_with_its_words(client, start_game, play):
    game = start_game(smudge="y")
    play(game, 1, BOB_BIDS_3, "hearts", "BBBBB", "B")  # B takes all six: B 6
    page = Page(client.get(f"/games/{game}"))
    assert page.scores() == {"A": 0, "B": 6, "C": 0}
    assert page.verdict() == "B took all six points of the hand, a smudge: B wins."
    assert page.winner_marked() == ["B"]
    assert page.entry_title() == "Game over"


def test_without_smudge_all_six_far_from_the_target_plays_on(client, start_game, play):
    game = start_game()
    play(game, 1, BOB_BIDS_3, "hearts", "BBBBB", "B")
    page = Page(client.get(f"/games/{game}"))
    assert page.verdict() == "First team to 21 wins."
    assert page.winner_marked() == []
