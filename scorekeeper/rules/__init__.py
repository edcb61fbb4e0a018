"""The rules of Schmier as pure Python: no Flask, no database.

Views and models call this package; it never calls them. Every rule here is
written down in the project's RULES.md (each module names its sections) and tested in
``tests/rules``.
"""
from scorekeeper.rules.auction import (
    BIDS, PASS, Auction, Bidding, bidding_order, quick_auction,
)
from scorekeeper.rules.cards import (
    GAME_TOTAL,
    SUITS,
    Suit,
    dealer_keeps,
    left_bauer_suit,
    trump_order,
)
from scorekeeper.rules.ending import Verdict, VerdictKind, judge
from scorekeeper.rules.errors import RuleViolation
from scorekeeper.rules.game import (
    Deal,
    DealResult,
    GameState,
    HandRejected,
    carry_on,
    replay,
)
from scorekeeper.rules.scoring import (
    CARD_POINTS,
    POINTS,
    HandScore,
    Point,
    Tally,
    score_hand,
)
from scorekeeper.rules.table import (
    SEATS,
    TABLE_SIZES,
    HouseRules,
    TeamLayout,
    layouts_for,
    left_of,
    team_of,
    teams_for,
)

__all__ = [
    "BIDS", "PASS", "Auction", "Bidding", "bidding_order", "quick_auction",
    "GAME_TOTAL", "SUITS", "Suit", "dealer_keeps", "left_bauer_suit", "trump_order",
    "RuleViolation",
    "Deal", "DealResult", "GameState", "HandRejected", "carry_on", "replay",
    "Verdict", "VerdictKind", "judge",
    "CARD_POINTS", "POINTS", "HandScore", "Point", "Tally", "score_hand",
    "SEATS", "TABLE_SIZES", "HouseRules", "TeamLayout", "layouts_for", "left_of",
    "team_of", "teams_for",
]
