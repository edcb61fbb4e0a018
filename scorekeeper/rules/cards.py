"""Cards: the trump order, the Left Bauer and the game value of cards.

RULES.md, "Cards", and the deal of "Table" and "Tables of four, five and six".
"""
from __future__ import annotations

from enum import StrEnum

from scorekeeper.rules.errors import RuleViolation
from scorekeeper.rules.table import check_table


class Suit(StrEnum):
    SPADES = "spades"
    HEARTS = "hearts"
    DIAMONDS = "diamonds"
    CLUBS = "clubs"

    @property
    def symbol(self) -> str:
        return _SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)


SUITS = tuple(Suit)
_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
JOKER = "Joker"

# Game value of cards won in tricks: A 4, K 3, Q 2, each jack 1, 10 counts 10, Joker 1.
CARD_GAME_VALUE = {"A": 4, "K": 3, "Q": 2, "J": 1, "10": 10, JOKER: 1}


def parse_suit(value: object) -> Suit:
    try:
        return Suit(value)
    except ValueError:
        raise RuleViolation(
            "trump_invalid",
            f"trump must be spades, hearts, diamonds or clubs, not {value!r}",
            trump=value,
        ) from None


def left_bauer_suit(trump: Suit) -> Suit:
    """The suit whose jack is the Left Bauer: the other suit of the same colour."""
    trump = Suit(trump)
    return next(suit for suit in SUITS if suit != trump and suit.is_red == trump.is_red)


def trump_order(trump: Suit) -> tuple[str, ...]:
    """The 15 trumps high to low, as card names such as ``"A♥"``, ``"J♦"``, ``"Joker"``."""
    trump = Suit(trump)
    s = trump.symbol
    return (
        f"A{s}", f"K{s}", f"Q{s}", right_bauer(trump), left_bauer(trump),
        *(f"{rank}{s}" for rank in RANKS[4:]),
        JOKER,
    )


def right_bauer(trump: Suit) -> str:
    """The jack of trumps."""
    return f"J{Suit(trump).symbol}"


def left_bauer(trump: Suit) -> str:
    """The other jack of the trump's colour, a trump itself."""
    return f"J{left_bauer_suit(trump).symbol}"


def game_value(rank: str) -> int:
    """The game value of one card by its rank (or ``"Joker"``)."""
    return CARD_GAME_VALUE.get(rank, 0)


def card_rank(card: str) -> str:
    """A card's rank: ``"10"`` of ``"10♥"``, ``"Joker"`` of the Joker."""
    return card if card == JOKER else card[:-1]


def deck() -> tuple[str, ...]:
    """All 53 cards: 52 plus the Joker."""
    return tuple(f"{rank}{suit.symbol}" for suit in SUITS for rank in RANKS) + (JOKER,)


HAND_SIZE = 6  # cards dealt to each player, the dealer too


def dealer_keeps(seats: int = 6) -> int:
    """The cards left to the dealer once each of ``seats`` players has been dealt six:
    17 at six, 23 at five, 29 at four."""
    return len(deck()) - HAND_SIZE * check_table(seats)


# The game value of the whole deck, 81: no team's counted game value can be more.
GAME_TOTAL = sum(game_value(card_rank(card)) for card in deck())
