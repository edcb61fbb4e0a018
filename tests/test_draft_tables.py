"""A hand's form is read round the table its game seats: four, five or six.

RULES.md, "Tables of four, five and six" and "Bidding" (as entered at the table): the
dealer's turn is the last of the table's turns, a seat past the table is no seat, and
every team of the game (D, E and F too, in cutthroat) may count its game values. The
phone reads a form the same way (static/rules.js, held to this by
tests/browser/test_rules_js.py).
"""
from __future__ import annotations

from scorekeeper.rules import PASS, HouseRules
from scorekeeper.table.draft import read_draft


def test_the_dealers_pass_at_four_closes_the_bidding_as_at_six():
    """Dealer 1 at four: seat 1's turn is turn 4. Its pass, the turns before it left
    open, is everyone passing."""
    draft = read_draft({"turn_4": PASS}, 1, HouseRules("2x2"))
    assert not draft.unreadable
    assert draft.auction.calls == (PASS,) * 4
    assert draft.auction.thrown_in


def test_a_turn_past_the_table_is_not_read():
    """No page of a game of five posts a sixth turn: a bid there is nobody's."""
    draft = read_draft({"turn_6": "4"}, 2, HouseRules("c5"))
    assert draft.auction.calls == ()
    assert draft.step == "auction"


def test_a_winning_bid_by_a_seat_past_the_table_is_refused_in_words():
    draft = read_draft({"bid": "5-4"}, 1, HouseRules("c4"))
    assert draft.problems == ("bid_invalid",)
    assert draft.auction.calls == ()
    at_four = read_draft({"bid": "4-4"}, 1, HouseRules("c4"))
    assert at_four.auction.calls == (PASS, PASS, 4, PASS)


def test_a_dealer_past_the_table_is_no_dealer():
    """``dealt_by`` names a seat of the table, or it is the game's own dealer."""
    draft = read_draft({"dealt_by": "6", "bid": "2-4"}, 3, HouseRules("c5"))
    assert not draft.unreadable
    assert draft.auction.dealer_seat == 3
    assert draft.auction.calls == (PASS, PASS, PASS, 4, PASS)  # seats 4, 5, 1, 2, 3


def test_every_team_of_a_cutthroat_game_counts_its_game_value():
    fields = {"value_A": "10", "value_D": "12", "value_F": "30", "value_G": "40"}
    draft = read_draft(fields, 1, HouseRules("c6"))
    assert draft.game_values == {"A": 10, "D": 12, "F": 30}
    at_four = read_draft(fields, 1, HouseRules("c4"))
    assert at_four.game_values == {"A": 10, "D": 12}
