"""Suits, the trump order with both Bauers, and the game value of the cards.

RULES.md, "Cards" (and the deck from "Table").
"""
from collections import Counter

import pytest

from scorekeeper.rules import GAME_TOTAL, SUITS, RuleViolation, Suit, left_bauer_suit, trump_order
from scorekeeper.rules.cards import card_rank, deck, game_value, parse_suit


def rank(card):
    """"A♥" -> "A", "10♣" -> "10", "Joker" -> "Joker"."""
    return card if card == "Joker" else card[:-1]


def suit_symbol(card):
    return None if card == "Joker" else card[-1]


# --- suits and the Left Bauer --------------------------------------------------------

def test_four_suits_with_their_symbols():
    assert {suit.value: suit.symbol for suit in SUITS} == {
        "spades": "♠", "hearts": "♥", "diamonds": "♦", "clubs": "♣",
    }


@pytest.mark.parametrize(
    "trump, left",
    [
        (Suit.SPADES, Suit.CLUBS),
        (Suit.CLUBS, Suit.SPADES),
        (Suit.HEARTS, Suit.DIAMONDS),
        (Suit.DIAMONDS, Suit.HEARTS),
    ],
)
def test_left_bauer_is_the_jack_of_the_other_suit_of_the_same_colour(trump, left):
    assert left_bauer_suit(trump) is left
    assert left_bauer_suit(trump.value) is left  # by name too
    assert left.is_red == trump.is_red
    assert left is not trump


def test_red_and_black():
    assert [suit for suit in SUITS if suit.is_red] == [Suit.HEARTS, Suit.DIAMONDS]


# --- the trump order -----------------------------------------------------------------

HAND_WRITTEN_TRUMP_ORDER = {
    Suit.SPADES: (
        "A♠", "K♠", "Q♠", "J♠", "J♣", "10♠", "9♠", "8♠", "7♠", "6♠", "5♠", "4♠", "3♠", "2♠",
        "Joker",
    ),
    Suit.CLUBS: (
        "A♣", "K♣", "Q♣", "J♣", "J♠", "10♣", "9♣", "8♣", "7♣", "6♣", "5♣", "4♣", "3♣", "2♣",
        "Joker",
    ),
    Suit.HEARTS: (
        "A♥", "K♥", "Q♥", "J♥", "J♦", "10♥", "9♥", "8♥", "7♥", "6♥", "5♥", "4♥", "3♥", "2♥",
        "Joker",
    ),
    Suit.DIAMONDS: (
        "A♦", "K♦", "Q♦", "J♦", "J♥", "10♦", "9♦", "8♦", "7♦", "6♦", "5♦", "4♦", "3♦", "2♦",
        "Joker",
    ),
}


@pytest.mark.parametrize("trump", SUITS)
def test_trump_order_high_to_low(trump):
    assert trump_order(trump) == HAND_WRITTEN_TRUMP_ORDER[trump]


@pytest.mark.parametrize("trump", SUITS)
def test_fifteen_trumps_all_different(trump):
    order = trump_order(trump)
    assert len(order) == 15
    assert len(set(order)) == 15


@pytest.mark.parametrize("trump", SUITS)
def test_right_bauer_ranks_below_queen_and_above_left_bauer(trump):
    order = trump_order(trump)
    right, left = f"J{trump.symbol}", f"J{left_bauer_suit(trump).symbol}"
    assert order.index(f"Q{trump.symbol}") < order.index(right) < order.index(left)
    assert order.index(left) < order.index(f"10{trump.symbol}")


@pytest.mark.parametrize("trump", SUITS)
def test_ace_is_high_joker_is_lowest_and_the_two_is_just_above_it(trump):
    order = trump_order(trump)
    assert order[0] == f"A{trump.symbol}"  # High
    assert order[-1] == "Joker"
    assert order[-2] == f"2{trump.symbol}"  # Low is the 2, never the Joker


@pytest.mark.parametrize("trump", SUITS)
def test_the_left_bauer_and_joker_belong_to_trump_other_suits_do_not(trump):
    order = trump_order(trump)
    suits_in_order = Counter(suit_symbol(card) for card in order)
    assert suits_in_order == Counter(
        {trump.symbol: 13, left_bauer_suit(trump).symbol: 1, None: 1}
    )


@pytest.mark.parametrize("trump", SUITS)
def test_the_suit_of_the_left_bauer_has_twelve_cards_the_others_thirteen(trump):
    outside_trump = set(deck()) - set(trump_order(trump))
    per_suit = Counter(suit_symbol(card) for card in outside_trump)
    expected = {suit.symbol: 13 for suit in SUITS if suit is not trump}
    expected[left_bauer_suit(trump).symbol] = 12
    assert per_suit == expected
    assert len(outside_trump) == 53 - 15


def test_trump_by_name():
    assert trump_order("hearts") == HAND_WRITTEN_TRUMP_ORDER[Suit.HEARTS]


@pytest.mark.parametrize("value", ["trumps", "Spades", "♠", "", None, 1, "no trump"])
def test_an_unknown_trump_is_refused(value):
    with pytest.raises(RuleViolation) as caught:
        parse_suit(value)
    assert caught.value.code == "trump_invalid"


@pytest.mark.parametrize("value", ["spades", "hearts", "diamonds", "clubs"])
def test_the_four_suits_are_accepted_as_trump(value):
    assert parse_suit(value) == value


# --- the deck and game values --------------------------------------------------------

def test_deck_is_52_cards_and_one_joker():
    cards = deck()
    assert len(cards) == 53
    assert len(set(cards)) == 53
    assert cards.count("Joker") == 1
    assert Counter(suit_symbol(card) for card in cards) == {
        "♠": 13, "♥": 13, "♦": 13, "♣": 13, None: 1,
    }


def test_six_cards_each_leaves_seventeen_for_the_dealer():
    assert len(deck()) - 6 * 6 == 17


@pytest.mark.parametrize(
    "card_rank, value",
    [
        ("A", 4), ("K", 3), ("Q", 2), ("J", 1), ("10", 10), ("Joker", 1),
        ("9", 0), ("8", 0), ("7", 0), ("6", 0), ("5", 0), ("4", 0), ("3", 0), ("2", 0),
    ],
)
def test_game_value_of_each_rank(card_rank, value):
    assert game_value(card_rank) == value


def test_the_whole_deck_is_worth_81():
    # four suits of A 4 + K 3 + Q 2 + J 1 + 10 = 20, and the Joker 1
    assert sum(game_value(rank(card)) for card in deck()) == 4 * 20 + 1 == 81
    assert GAME_TOTAL == 81


def test_each_card_of_the_deck_has_its_rank():
    assert [card_rank(card) for card in deck()] == [rank(card) for card in deck()]
    assert Counter(card_rank(card) for card in deck())["10"] == 4


@pytest.mark.parametrize("trump", SUITS)
def test_each_bauer_counts_one_like_any_jack(trump):
    order = trump_order(trump)
    assert game_value(rank(order[3])) == 1
    assert game_value(rank(order[4])) == 1


@pytest.mark.parametrize("trump", SUITS)
def test_the_fifteen_trumps_are_worth_22(trump):
    # A 4, K 3, Q 2, two Bauers 1 + 1, 10 counts 10, Joker 1
    assert sum(game_value(rank(card)) for card in trump_order(trump)) == 22


# --- the two Bauers by name (RULES.md, "Cards") ----------------------------------------

@pytest.mark.parametrize("trump", SUITS)
def test_the_bauers_by_name(trump):
    from scorekeeper.rules.cards import left_bauer, right_bauer

    written = HAND_WRITTEN_TRUMP_ORDER[trump]
    assert right_bauer(trump) == written[3] == f"J{trump.symbol}"
    assert left_bauer(trump) == written[4] == f"J{left_bauer_suit(trump).symbol}"
