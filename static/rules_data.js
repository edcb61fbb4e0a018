// Made from the rules engine's declarations (scorekeeper/rules/phone.py):
// don't edit; `flask --app scorekeeper write-phone-rules` writes it again.

export const LAYOUTS = {"3x2": {"A": [1, 4], "B": [2, 5], "C": [3, 6]}, "2x3": {"A": [1, 3, 5], "B": [2, 4, 6]}, "2x2": {"A": [1, 3], "B": [2, 4]}, "c4": {"A": [1], "B": [2], "C": [3], "D": [4]}, "c5": {"A": [1], "B": [2], "C": [3], "D": [4], "E": [5]}, "c6": {"A": [1], "B": [2], "C": [3], "D": [4], "E": [5], "F": [6]}};
export const SEATED = {"3x2": 6, "2x3": 6, "2x2": 4, "c4": 4, "c5": 5, "c6": 6};
export const DEFAULT_LAYOUT = "3x2";
export const BIDS = [3, 4, 5, 6];
export const PASS = "pass";
export const CARD_POINTS = ["high", "low", "right", "left", "joker"];
export const TARGET = {"default": 21, "low": 1, "high": 999};
export const HOUSE_RULES = {"bidder_goes_out": {"default": false, "values": [false, true]}, "lowest_bid": {"default": 3, "values": [3, 2]}, "all_pass": {"default": "throw_in", "values": ["throw_in", "dealer_stuck"]}, "smudge": {"default": false, "values": [false, true]}};
