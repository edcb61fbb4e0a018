"""Game files (schmier-game/1) shared by several tests."""
from __future__ import annotations

P = "pass"

# Two teams of three to 3, seat 2 deals: Ida (3, A) bids 3 and takes all six. A wins.
TRIOS = {
    "format": "schmier-game/1",
    "rules": {"teams": "2x3", "target": 3, "bidder_goes_out": False},
    "seats": ["Gus", "Hal", "Ida", "Joe", "Kim", "Lea"],
    "first_dealer": 2,
    "hands": [
        {"auction": [3, P, P, P, P, P], "trump": "clubs",
         "points": {"high": "A", "low": "A", "right": "A", "left": "A", "joker": "A",
                    "game": "A"}},
    ],
}
