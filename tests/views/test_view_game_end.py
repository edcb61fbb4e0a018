"""The end of the game through the pages (target 5 keeps the games short).

RULES.md, "End of the game": one team reaches the target -> it wins; several -> the
higher score; tied on the highest -> the bidding team if among them, else play on.
Ann deals hand 1, Bob hand 2, Cid hand 3. Teams A = 1 & 4, B = 2 & 5, C = 3 & 6.
"""
from __future__ import annotations

import pytest

from tests.views.view_helpers import Game, Hand, Page, THROW_IN, calls_for, count, hand_form, rows

BOB_BIDS_3 = calls_for(1, {2: 3})   # hand 1: Bob (B) bids 3
CID_BIDS_3 = calls_for(2, {3: 3})   # hand 2: Cid (C) bids 3
DAN_BIDS_3 = calls_for(2, {4: 3})   # hand 2: Dan (A) bids 3
DAN_BIDS_3_ON_HAND_3 = calls_for(3, {4: 3})


def game_page(client, game) -> Page:
    return Page(client.get(f"/games/{game}"))


def test_one_team_reaches_the_target_and_the_game_is_over(client, db, start_game, play,
                                                          record):
    game = start_game(target="5")
    preview = Page(client.get(f"/games/{game}", query_string={
        "calls": BOB_BIDS_3, "trump": "hearts", "high": "B", "low": "B", "right": "B",
        "left": "B", "joker": "B", "game": "none"})).section_text("preview")
    assert preview.endswith("This ends the game: B reached 5: B wins.")

    play(game, 1, BOB_BIDS_3, "hearts", "BBBBB", "none")  # B +5
    page = game_page(client, game)
    assert page.scores() == {"A": 0, "B": 5, "C": 0}
    assert page.verdict() == "B reached 5: B wins."
    assert page.entry_title() == "Game over"
    assert "B wins." in page.section_text("hand-entry")
    assert page.winner_marked() == ["B"]
    assert page.root.find("form", id="hand-form") is None
    assert "to bid" not in page.section_text("hand-entry")
    assert "won by B" in Page(client.get("/")).text

    for form in (hand_form(2, calls_for(2, {3: 3}), "spades", "CCCCC", "C"),
                 hand_form(2, THROW_IN)):
        response = client.post(f"/games/{game}/hands", data=form)
        assert response.status_code == 422
        (alert,) = Page(response).alerts()
        assert "The game is over: it takes no more hands." in alert
        assert Page(response).entry_title() == "Game over"
    assert count(db, Hand) == 1


def test_two_teams_pass_the_target_and_the_higher_wins(client, start_game, play):
    game = start_game(target="5")
    play(game, 1, BOB_BIDS_3, "hearts", "BBBAA", "A")   # A 3, B 3 (made), C 0
    play(game, 2, CID_BIDS_3, "spades", "AAABB", "none")  # C set: A 6, B 5, C −3
    page = game_page(client, game)
    assert page.scores() == {"A": 6, "B": 5, "C": -3}
    assert page.verdict() == "A and B both passed 5; A has more points."
    assert page.winner_marked() == ["A"]
    assert page.entry_title() == "Game over"


def test_three_teams_pass_the_target_and_the_most_wins(client, start_game, play):
    game = start_game(target="5")
    play(game, 1, BOB_BIDS_3, "hearts", "BBBAA", "C")             # A 2, B 3, C 1
    play(game, 2, CID_BIDS_3, "spades", "CCCAB", "A")             # A 4, B 4, C 4
    play(game, 3, DAN_BIDS_3_ON_HAND_3, "clubs", "AAABC", "C")    # A 7, B 5, C 6
    page = game_page(client, game)
    assert page.scores() == {"A": 7, "B": 5, "C": 6}
    assert page.verdict() == "A, B and C all passed 5; A has the most points."
    assert page.winner_marked() == ["A"]


def test_a_tie_on_top_goes_to_the_bidding_team(client, start_game, play):
    game = start_game(target="5")
    play(game, 1, BOB_BIDS_3, "hearts", "BBBAA", "A")  # A 3, B 3
    play(game, 2, DAN_BIDS_3, "spades", "AAABB", "B")  # Dan (A) makes 3: A 6, B 6
    page = game_page(client, game)
    assert page.scores() == {"A": 6, "B": 6, "C": 0}
    assert page.verdict() == "A and B tied on 6; A bid, so A wins."
    assert page.winner_marked() == ["A"]
    assert page.entry_title() == "Game over"


def test_a_tie_without_the_bidder_plays_another_hand(client, db, start_game, play):
    game = start_game(target="5")
    play(game, 1, BOB_BIDS_3, "hearts", "BBBAA", "A")  # A 3, B 3
    preview = Page(client.get(f"/games/{game}", query_string={
        "calls": CID_BIDS_3, "trump": "spades", "high": "A", "low": "A", "right": "A",
        "left": "B", "joker": "B", "game": "B"})).section_text("preview")
    assert preview.endswith("A and B tied on 6 and neither bid: play another hand.")
    play(game, 2, CID_BIDS_3, "spades", "AAABB", "B")  # C set: A 6, B 6, C −3
    page = game_page(client, game)
    assert page.scores() == {"A": 6, "B": 6, "C": -3}
    assert page.verdict() == "A and B tied on 6 and neither bid: play another hand."
    assert page.winner_marked() == []
    assert page.entry_title() == "Hand 3"  # the entry panel stays open
    assert "Dealer: Cid (seat 3)." in page.text
    assert "Dan bids first." in page.section_text("hand-entry")

    play(game, 3, DAN_BIDS_3_ON_HAND_3, "clubs", "AAABC", "C")  # A 9, B 7, C −1
    page = game_page(client, game)
    assert page.scores() == {"A": 9, "B": 7, "C": -1}
    assert page.verdict() == "A and B both passed 5; A has more points."
    assert page.entry_title() == "Game over"
    assert count(db, Hand) == 3


@pytest.mark.parametrize("bidder_goes_out, verdict", [
    (False, "A and B both passed 5; B has more points."),
    (True, "A made its bid and reached 5: the bidder goes out, A wins."),
])
def test_bidder_goes_out_house_rule(client, db, new_game_form, play, bidder_goes_out, verdict):
    overrides = {"target": "5"}
    if bidder_goes_out:
        overrides["bidder_goes_out"] = "y"
    client.post("/games/new", data=new_game_form(**overrides))
    (game,) = rows(db, Game)
    assert game.house_rules["bidder_goes_out"] is bidder_goes_out
    play(game.id, 1, BOB_BIDS_3, "hearts", "BBBBA", "A")  # A 2, B 4 (made)
    play(game.id, 2, DAN_BIDS_3, "spades", "AAABB", "B")  # Dan (A) makes 3: A 5, B 7
    page = game_page(client, game.id)
    assert page.scores() == {"A": 5, "B": 7, "C": 0}
    assert page.verdict() == verdict
    assert page.winner_marked() == (["A"] if bidder_goes_out else ["B"])


def test_with_bidder_goes_out_a_set_bidder_leaves_the_usual_rules(client, start_game, play):
    game = start_game(target="5", bidder_goes_out="y")
    play(game, 1, BOB_BIDS_3, "hearts", "BBBAA", "A")     # A 3, B 3
    play(game, 2, CID_BIDS_3, "spades", "AAABB", "none")  # C set: A 6, B 5, C −3
    page = game_page(client, game)
    assert page.verdict() == "A and B both passed 5; A has more points."


def test_with_bidder_goes_out_a_made_bid_wins_at_once(client, start_game, play):
    game = start_game(target="5", bidder_goes_out="y")
    play(game, 1, BOB_BIDS_3, "hearts", "BBBBB", "A")  # A 1, B 5: B made 5 of 3
    page = game_page(client, game)
    assert page.verdict() == "B made its bid and reached 5: the bidder goes out, B wins."


def test_two_teams_of_three_play_to_the_end(client, start_game, play):
    game = start_game(target="5", teams="2x3")
    # Bob is team B (2, 4, 6). B takes four points, A two: B made 3 with 4.
    play(game, 1, BOB_BIDS_3, "hearts", "BBBBA", "A")
    page = game_page(client, game)
    assert page.scores() == {"A": 2, "B": 4}
    # Cid (seat 3) is team A: bids 3, A takes 4 -> A 6; B takes 2 -> B 6; tie, A bid.
    play(game, 2, CID_BIDS_3, "spades", "AAABB", "A")
    page = game_page(client, game)
    assert page.scores() == {"A": 6, "B": 6}
    assert page.verdict() == "A and B tied on 6; A bid, so A wins."
