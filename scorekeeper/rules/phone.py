"""The rules' data as the phone's offline arithmetic reads it (``static/rules_data.js``).

Made from the engine's own declarations (the layouts and the seats each one sits, the
bids, the points, the target's bounds, every house rule with its values and default),
never copied by hand.
RULES.md, "Table", "Bidding", "The six points of a hand" and "House rules": their data;
RULES.md, "Tables of four, five and six": every layout's seats.
``flask --app scorekeeper write-phone-rules`` writes the file;
``tests/test_house_rules.py`` fails while the file in ``static/`` says anything else.
"""
from __future__ import annotations

import json

from scorekeeper.rules.auction import BIDS, PASS
from scorekeeper.rules import house
from scorekeeper.rules.scoring import CARD_POINTS
from scorekeeper.rules.table import HouseRules, TeamLayout, teams_for

FILE = "rules_data.js"


def phone_data() -> dict:
    """Everything ``static/rules.js`` plays by that the engine declares."""
    return {
        "LAYOUTS": {layout.value: teams_for(layout) for layout in TeamLayout},
        # How many sit at each layout's table: where the deal and the bidding go round.
        "SEATED": {layout.value: layout.seats for layout in TeamLayout},
        "DEFAULT_LAYOUT": HouseRules().teams.value,
        "BIDS": list(BIDS),
        "PASS": PASS,
        "CARD_POINTS": [point.value for point in CARD_POINTS],
        "TARGET": {"default": HouseRules().target, "low": HouseRules.MIN_TARGET,
                   "high": HouseRules.MAX_TARGET},
        "HOUSE_RULES": {rule.name: {"default": rule.default,
                                    "values": [choice.value for choice in rule.choices]}
                        for rule in house.HOUSE_RULES},
    }


def phone_module() -> str:
    """``static/rules_data.js`` as it must read."""
    lines = ["// Made from the rules engine's declarations (scorekeeper/rules/phone.py):",
             "// don't edit; `flask --app scorekeeper write-phone-rules` writes it again.", ""]
    lines += [f"export const {name} = {json.dumps(value, sort_keys=False)};"
              for name, value in phone_data().items()]
    return "\n".join(lines) + "\n"
