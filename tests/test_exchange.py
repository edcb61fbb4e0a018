"""Game files (schmier-game/1): export, import, the round trip, refusals, and the pages.

Every expected score, dealer and sentence below is worked out by hand from RULES.md.
"""
import copy
import io
import json

import pytest
from flask_babel import force_locale, gettext
from sqlmodel import select
from werkzeug.datastructures import FileStorage
from werkzeug.test import encode_multipart

from scorekeeper import create_app
from scorekeeper.files import exchange
from scorekeeper.files.exchange import export_game, import_game
from scorekeeper.files.json_files import FileRefused
from scorekeeper.rules import PASS, Deal, HouseRules, Tally
from scorekeeper.store.db import get_session
from scorekeeper.store.models import Game, GameSeat, Hand
from scorekeeper.store.replay import load_replay
from scorekeeper.table.recording import record_hand
from scorekeeper.table.seating import start_game
from tests.databases import database_url
from tests.disk_full import full_at_hand
from tests.members import client_as, first_club
from tests.views.view_helpers import parse

P = PASS
LIMIT = 2 * 1024 * 1024  # the app's MAX_CONTENT_LENGTH
CARD_POINT_NAMES = ("high", "low", "right", "left", "joker")


def points(owners: str, game=None, game_values=None) -> dict:
    """owners: five team letters for High, Low, Right, Left, Joker, e.g. "ACCCB"."""
    record = dict(zip(CARD_POINT_NAMES, owners, strict=True))
    if game_values is not None:
        record["game_values"] = game_values
    else:
        record["game"] = game
    return record


def played(auction, trump, owners, game=None, game_values=None) -> dict:
    return {"auction": auction, "trump": trump, "points": points(owners, game, game_values)}


THROW_IN = {"auction": [P] * 6, "trump": None, "points": None}
# The house rules a file left out, as an export writes them: each at its default.
LATER_RULES = {"lowest_bid": 3, "all_pass": "throw_in", "smudge": False}

# Three pairs to 21, Ann (seat 1) deals first: a throw-in, a made bid, a set counted
# with game values, a bid of 6 that ends the auction at once, and a tie for Game.
EVENING = {
    "format": "schmier-game/1",
    "rules": {"teams": "3x2", "target": 21, "bidder_goes_out": False},
    "seats": ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"],
    "first_dealer": 1,
    "hands": [
        THROW_IN,
        played([P, 4, P, P, P, P], "hearts", "ACCCB", game="C"),
        played([3, P, 5, P, P, P], "spades", "BABCB", game_values={"A": 30, "B": 25, "C": 26}),
        played([6], "clubs", "AAAAA", game="A"),
        played([P, P, P, P, P, 3], "diamonds", "BAACB", game=None),
    ],
}

EVENING_EXPORT = {
    "format": "schmier-game/1",
    "rules": {"teams": "3x2", "target": 21, "bidder_goes_out": False, **LATER_RULES},
    "seats": ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"],
    "first_dealer": 1,
    "hands": [
        # Hand 1: all six pass; Ann deals again.
        {"auction": [P] * 6, "trump": None, "points": None, "dealer": 1, "thrown_in": True},
        # Hand 2: Ann deals, Bob (2) passes, Cid (3, team C) bids 4 and takes Low,
        # Right, Left and Game: 4, made. A takes High, B the Joker.
        {"auction": [P, 4, P, P, P, P], "trump": "hearts",
         "points": {"high": "A", "low": "C", "right": "C", "left": "C", "joker": "B", "game": "C"},
         "dealer": 1, "thrown_in": False, "bidder": 3, "bid": 4, "bidding_team": "C",
         "taken": {"A": 1, "B": 1, "C": 4}, "made": True,
         "score_change": {"A": 1, "B": 1, "C": 4},
         "scores_after": {"A": 1, "B": 1, "C": 4}},
        # Hand 3: Bob deals; Cid bids 3, Dan passes, Eve (5, team B) bids 5. B takes High,
        # Right and Joker (3), A has the most game value (30): Low and Game, C the Left.
        # B is set: -5.
        {"auction": [3, P, 5, P, P, P], "trump": "spades",
         "points": {"high": "B", "low": "A", "right": "B", "left": "C", "joker": "B",
                    "game_values": {"A": 30, "B": 25, "C": 26}},
         "dealer": 2, "thrown_in": False, "bidder": 5, "bid": 5, "bidding_team": "B",
         "taken": {"A": 2, "B": 3, "C": 1}, "made": False,
         "score_change": {"A": 2, "B": -5, "C": 1},
         "scores_after": {"A": 3, "B": -4, "C": 5}},
        # Hand 4: Cid deals; Dan (4, team A) bids 6 first and the auction is over.
        {"auction": [6], "trump": "clubs",
         "points": {"high": "A", "low": "A", "right": "A", "left": "A", "joker": "A", "game": "A"},
         "dealer": 3, "thrown_in": False, "bidder": 4, "bid": 6, "bidding_team": "A",
         "taken": {"A": 6, "B": 0, "C": 0}, "made": True,
         "score_change": {"A": 6, "B": 0, "C": 0},
         "scores_after": {"A": 9, "B": -4, "C": 5}},
        # Hand 5: Dan deals and, last to call, bids 3 for A. Game is tied: 5 points out.
        # A takes Low and Right (2 < 3): set, -3.
        {"auction": [P, P, P, P, P, 3], "trump": "diamonds",
         "points": {"high": "B", "low": "A", "right": "A", "left": "C", "joker": "B", "game": None},
         "dealer": 4, "thrown_in": False, "bidder": 4, "bid": 3, "bidding_team": "A",
         "taken": {"A": 2, "B": 2, "C": 1}, "made": False,
         "score_change": {"A": -3, "B": 2, "C": 1},
         "scores_after": {"A": 6, "B": -2, "C": 6}},
    ],
    "scores": {"A": 6, "B": -2, "C": 6},
    "status": "playing",
    "winner": None,
    "winner_reason": "First team to 21 wins.",
    "next_dealer": 5,
}

# Two teams of three to 5, seat 6 deals first. Hand 1: Gus (1, A) bids 3, Hal (2, B)
# 4; B takes 4 of the 5 points given out (Game tied): A 1, B 4. Hand 2: Gus deals and
# bids 3 last; A takes 5: A 6, B 5. Both reached 5, A has more: A wins.
TRIOS = {
    "format": "schmier-game/1",
    "rules": {"teams": "2x3", "target": 5, "bidder_goes_out": False},
    "seats": ["Gus", "Hal", "Ida", "Joe", "Kim", "Lea"],
    "first_dealer": 6,
    "hands": [
        played([3, 4, P, P, P, P], "diamonds", "BBBAB", game=None),
        played([P, P, P, P, P, 3], "hearts", "AAABA", game="A"),
    ],
}

# "Bidder goes out" to 5: Bob (2, B) bids 5 and takes all five card points.
GOES_OUT = {
    "format": "schmier-game/1",
    "rules": {"teams": "3x2", "target": 5, "bidder_goes_out": True},
    "seats": ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"],
    "first_dealer": 1,
    "hands": [played([5, P, P, P, P, P], "spades", "BBBBB", game="A")],
}


def to_deal(hand: dict) -> Deal:
    """A file's hand as the table would record it, to build games the ordinary way."""
    if hand["points"] is None:
        return Deal(tuple(hand["auction"]))
    record = dict(hand["points"])
    values = record.pop("game_values", None)
    game = record.pop("game", None)
    return Deal(tuple(hand["auction"]), hand["trump"], Tally(record, game, values))


def record_game(app, facts: dict) -> int:
    """Start a game and record its hands one by one, as the game page does."""
    with app.app_context():
        session = get_session()
        rules = HouseRules(**facts["rules"])
        game = start_game(session, first_club(session), facts["seats"], rules,
                          facts["first_dealer"])
        for hand in facts["hands"]:
            replay = load_replay(session, game)
            record_hand(session, replay, replay.state.next_number, to_deal(hand))
        return game.id


def import_text(app, text) -> int:
    with app.app_context():
        session = get_session()
        return import_game(session, first_club(session), text, LIMIT).id


def export_of(app, game_id: int) -> dict:
    with app.app_context():
        session = get_session()
        return export_game(load_replay(session, session.get(Game, game_id)))


def without_ids(record: dict) -> dict:
    return {key: value for key, value in record.items() if key not in ("id", "created_at")}


def stored_hands(app, game_id: int) -> list[tuple]:
    with app.app_context():
        hands = get_session().exec(
            select(Hand).where(Hand.game_id == game_id).order_by(Hand.number)
        ).all()
        return [(h.number, h.calls, h.trump, h.points, h.game_values) for h in hands]


# --- export ---------------------------------------------------------------------------

def test_export_of_a_recorded_game_carries_the_facts_and_what_they_add_up_to(app):
    game_id = record_game(app, EVENING)
    record = export_of(app, game_id)
    assert record["id"] == game_id
    assert without_ids(record) == EVENING_EXPORT


def test_export_of_a_finished_game_names_the_winner_and_why(app):
    record = export_of(app, record_game(app, TRIOS))
    assert record["scores"] == {"A": 6, "B": 5}
    assert record["hands"][0]["dealer"] == 6
    assert record["hands"][0]["bidder"] == 2
    assert record["hands"][0]["taken"] == {"A": 1, "B": 4}
    assert record["hands"][1]["dealer"] == 1
    assert record["hands"][1]["bidder"] == 1
    assert record["hands"][1]["scores_after"] == {"A": 6, "B": 5}
    assert record["status"] == "finished"
    assert record["winner"] == "A"
    assert record["winner_reason"] == "A and B both passed 5; A has more points."
    assert record["next_dealer"] is None


def test_export_with_bidder_goes_out(app):
    record = export_of(app, record_game(app, GOES_OUT))
    assert record["scores"] == {"A": 1, "B": 5, "C": 0}
    assert record["winner"] == "B"
    assert record["winner_reason"] == (
        "B made its bid and reached 5: the bidder goes out, B wins."
    )


def test_export_of_a_game_with_no_hands(app):
    record = export_of(app, record_game(app, {**EVENING, "hands": []}))
    assert record["hands"] == []
    assert record["scores"] == {"A": 0, "B": 0, "C": 0}
    assert record["status"] == "playing"
    assert record["next_dealer"] == 1


# --- the round trip -------------------------------------------------------------------

@pytest.mark.parametrize("facts", [EVENING, TRIOS, GOES_OUT], ids=["evening", "trios", "goes_out"])
def test_export_import_export_is_the_same_game(app, facts):
    original_id = record_game(app, facts)
    first = export_of(app, original_id)
    copy_id = import_text(app, json.dumps(first))
    second = export_of(app, copy_id)
    assert copy_id != original_id
    assert without_ids(second) == without_ids(first)
    # Stored exactly as the hands recorded at the table were.
    assert [row[1:] for row in stored_hands(app, copy_id)] == \
        [row[1:] for row in stored_hands(app, original_id)]
    with app.app_context():
        session = get_session()
        assert session.get(Game, copy_id).first_dealer_drawn is False

        def players(game_id):
            return session.exec(
                select(GameSeat.player_id).where(GameSeat.game_id == game_id)
                .order_by(GameSeat.seat)
            ).all()

        # The same players from the roster, not new ones of the same names.
        assert players(copy_id) == players(original_id)


def test_an_import_into_a_fresh_database_adds_the_players(app, row_counts):
    game_id = import_text(app, json.dumps(EVENING))
    assert row_counts() == {"Game": 1, "GameSeat": 6, "Player": 6, "Hand": 5}
    assert without_ids(export_of(app, game_id)) == EVENING_EXPORT
    assert stored_hands(app, game_id)[2] == (
        3, [3, P, 5, P, P, P], "spades",
        {"high": "B", "low": "A", "right": "B", "left": "C", "joker": "B", "game": "A"},
        {"A": 30, "B": 25, "C": 26},
    )


def test_import_ignores_the_derived_fields_and_replays(app):
    lying = copy.deepcopy(EVENING_EXPORT)
    lying["scores"] = {"A": 99, "B": 99, "C": 99}
    lying["winner"] = "C"
    lying["status"] = "finished"
    lying["next_dealer"] = 2
    lying["hands"][1]["bidder"] = 6
    lying["hands"][1]["scores_after"] = {"A": 0, "B": 0, "C": 0}
    record = export_of(app, import_text(app, json.dumps(lying)))
    assert without_ids(record) == EVENING_EXPORT


def test_import_reads_calls_as_the_table_would_and_stores_them_plainly(app):
    facts = copy.deepcopy(TRIOS)
    facts["hands"][0]["auction"] = ["3", "4", "PASS", " pass ", "Pass", P]
    game_id = import_text(app, json.dumps(facts))
    assert stored_hands(app, game_id)[0][1] == [3, 4, P, P, P, P]


def test_a_failure_while_storing_leaves_nothing_behind(app, monkeypatch, row_counts):
    full_at_hand(monkeypatch, exchange, 3)
    before = row_counts()
    with pytest.raises(RuntimeError):
        import_text(app, json.dumps(EVENING))
    assert row_counts() == before


# --- refusals -------------------------------------------------------------------------

def changed(facts: dict, change) -> str:
    changed_facts = copy.deepcopy(facts)
    change(changed_facts)
    return json.dumps(changed_facts)


def set_at(path, value):
    def change(facts):
        *parents, last = path
        target = facts
        for key in parents:
            target = target[key]
        target[last] = value
    return change


def delete_at(path):
    def change(facts):
        *parents, last = path
        target = facts
        for key in parents:
            target = target[key]
        del target[last]
    return change


REFUSALS = [
    # what is wrong, the file, the message
    ("point to no team", changed(EVENING, set_at(["hands", 3, "points", "high"], "D")),
     "hands[3].points.high: 'D' is not a team of this game (A, B, C)"),
    ("team C with two teams", changed(TRIOS, set_at(["hands", 0, "points", "left"], "C")),
     "hands[0].points.left: 'C' is not a team of this game (A, B)"),
    ("game to no team", changed(EVENING, set_at(["hands", 1, "points", "game"], "D")),
     "hands[1].points.game: 'D' is not a team of this game (A, B, C)"),
    ("bid not higher", changed(EVENING, set_at(["hands", 2, "auction"], [3, P, 3, P, P, P])),
     "hands[2].auction: a bid must be higher than 3; 3 is not"),
    ("bid of 7", changed(EVENING, set_at(["hands", 1, "auction", 1], 7)),
     "hands[1].auction[1]: 7 is neither a pass nor a bid of 3 to 6"),
    ("not a call", changed(EVENING, set_at(["hands", 1, "auction", 2], "double")),
     "hands[1].auction[2]: 'double' is neither a pass nor a bid of 3 to 6"),
    ("call after a 6", changed(EVENING, set_at(["hands", 3, "auction"], [6, P])),
     "hands[3].auction: the auction is already over"),
    ("auction unfinished", changed(EVENING, set_at(["hands", 1, "auction"], [P, 4])),
     "hands[1].auction: the auction is not over: every seat must call, unless someone bid 6"),
    ("throw-in with trump", changed(EVENING, set_at(["hands", 0, "trump"], "hearts")),
     "hands[0]: all six passed, so there is no trump and no points"),
    ("trump misspelt", changed(EVENING, set_at(["hands", 1, "trump"], "Hearts")),
     "hands[1].trump: trump must be spades, hearts, diamonds or clubs, not 'Hearts'"),
    ("no trump", changed(EVENING, set_at(["hands", 1, "trump"], None)),
     "hands[1].trump: the bidder must name trump"),
    ("no points", changed(EVENING, set_at(["hands", 1, "points"], None)),
     "hands[1].points: a played hand needs its points"),
    ("no game", changed(EVENING, delete_at(["hands", 1, "points", "game"])),
     "hands[1].points: no Game: give the team that took it (null when tied), or game_values"),
    ("a point missing", changed(EVENING, delete_at(["hands", 1, "points", "low"])),
     "hands[1].points.low: missing"),
    ("game values over 81",
     changed(EVENING, set_at(["hands", 2, "points", "game_values"], {"A": 50, "B": 40, "C": 0})),
     "hands[2].points.game_values: game values add up to 90, more than the 81 the deck holds"),
    ("negative game value",
     changed(EVENING, set_at(["hands", 2, "points", "game_values"], {"A": -1, "B": 40, "C": 0})),
     "hands[2].points.game_values: team A's game value must be a whole number of 0 or more, "
     "not -1"),
    ("game value for no team",
     changed(EVENING, set_at(["hands", 2, "points", "game_values"], {"A": 1, "D": 40})),
     "hands[2].points.game_values: 'D' is not a team of this game (A, B, C)"),
    ("game against the values", changed(EVENING, set_at(["hands", 2, "points", "game"], "B")),
     "hands[2].points.game: the Game team does not match the game values"),
    ("a hand after the end",
     changed(TRIOS, lambda facts: facts["hands"].append(copy.deepcopy(THROW_IN))),
     "hands[2]: the game is over: team A won at hand 2"),
    ("unknown key", changed(EVENING, set_at(["colour"], "green")),
     "colour: not a key of a schmier-game/1 file"),
    ("unknown hand key", changed(EVENING, set_at(["hands", 0, "note"], "late")),
     "hands[0].note: not a key of a schmier-game/1 file"),
    ("unknown point", changed(EVENING, set_at(["hands", 1, "points", "ten"], "A")),
     "hands[1].points.ten: not a key of a schmier-game/1 file"),
    ("team as a number", changed(EVENING, set_at(["hands", 3, "points", "high"], 1)),
     "hands[3].points.high: should be a string, not 1"),
    ("hands not a list", changed(EVENING, set_at(["hands"], {})),
     "hands: should be a JSON list, not {}"),
    ("hand not an object", changed(EVENING, set_at(["hands", 4], "pass")),
     'hands[4]: should be a JSON object, not "pass"'),
    ("two things missing", changed(EVENING, lambda facts: (facts.pop("seats"), facts.pop("hands"))),
     "seats: missing (and 1 more)"),
    ("other format", changed(EVENING, set_at(["format"], "schmier-game/2")),
     'format: "schmier-game/2" is not schmier-game/1, the format this app reads'),
    ("no format", changed(EVENING, delete_at(["format"])),
     'format: missing: a game file says "format": "schmier-game/1"'),
    ("five seats", changed(EVENING, set_at(["seats"], ["Ann", "Bob", "Cid", "Dan", "Eve"])),
     "seats: this table needs exactly 6 players, not 5"),
    ("seven seats", changed(EVENING, lambda facts: facts["seats"].append("Gus")),
     "seats: this table needs exactly 6 players, not 7"),
    ("a name twice", changed(EVENING, set_at(["seats", 3], "ann")),
     "seats[3]: ann can't sit in seats 1 and 4"),
    ("an empty seat", changed(EVENING, set_at(["seats", 2], "  ")),
     "seats[2]: seat 3 has no player"),
    ("dealer not a seat", changed(EVENING, set_at(["first_dealer"], 7)),
     "first_dealer: 7 is not a seat (1-6)"),
    ("dealer as text", changed(EVENING, set_at(["first_dealer"], "1")),
     'first_dealer: should be a whole number, not "1"'),
    ("unknown teams", changed(EVENING, set_at(["rules", "teams"], "4x1")),
     "rules.teams: teams must be 3x2, 2x3, 2x2, c4, c5 or c6, not '4x1'"),
    ("target 0", changed(EVENING, set_at(["rules", "target"], 0)),
     "rules.target: the target must be a whole number from 1 to 999, not 0"),
    ("house rule as text", changed(EVENING, set_at(["rules", "bidder_goes_out"], "yes")),
     'rules.bidder_goes_out: should be false or true, not "yes"'),
    ("a bid of 2 where the lowest bid is 3", changed(EVENING, set_at(["hands", 1, "auction"],
                                                                    [P, 2, P, P, P, P])),
     "hands[1].auction[1]: 2 is neither a pass nor a bid of 3 to 6"),
    ("lowest bid 1", changed(EVENING, set_at(["rules", "lowest_bid"], 1)),
     "rules.lowest_bid: should be 3 or 2, not 1"),
    ("a throw-in where the dealer is stuck",
     changed(EVENING, set_at(["rules", "all_pass"], "dealer_stuck")),
     "hands[0]: everyone before the dealer passed: the dealer is stuck and must bid 3 or "
     "more"),
    ("a NUL in a name", changed(EVENING, set_at(["seats", 1], "Bo\u0000b")),
     "a text in the file holds a null character or half of a surrogate pair, which "
     "can't be kept"),
    ("half a surrogate pair in a name", changed(EVENING, set_at(["seats", 1], "Bo\ud800b")),
     "a text in the file holds a null character or half of a surrogate pair, which "
     "can't be kept"),
    ("not JSON", "hello", "not JSON: Expecting value (line 1, column 1)"),
    ("not UTF-8", b'{"format": "\xe9"}', "not JSON: the file is not UTF-8 text"),
    ("nested too deeply", "[" * 100_000 + "]" * 100_000,
     "not JSON this app can read: it is nested too deeply"),
    ("a list", "[1, 2]", "a game file holds one JSON object, not a list"),
    ("a number", "21", "a game file holds one JSON object, not a number"),
    ("too large", b" " * (LIMIT + 1), "the file is larger than 2 MB, the most a game file may be"),
]


@pytest.mark.parametrize("text, message", [r[1:] for r in REFUSALS], ids=[r[0] for r in REFUSALS])
def test_a_bad_file_is_refused_whole_saying_what_and_where(app, text, message, row_counts):
    before = row_counts()
    with pytest.raises(FileRefused) as refused:
        import_text(app, text)
    assert str(refused.value) == message
    assert row_counts() == before


def test_a_number_too_long_for_python_is_refused_not_a_crash(app, row_counts):
    with pytest.raises(FileRefused) as refused:
        import_text(app, '{"first_dealer": 1' + "0" * 5000 + "}")
    # The rest of the sentence is Python's own and may change between versions.
    assert str(refused.value).startswith("not JSON this app can read: ")
    assert row_counts()["Game"] == 0


@pytest.mark.parametrize("rules, expected", [
    (None, {"teams": "3x2", "target": 21, "bidder_goes_out": False, **LATER_RULES}),
    ({}, {"teams": "3x2", "target": 21, "bidder_goes_out": False, **LATER_RULES}),
    ({"target": 11}, {"teams": "3x2", "target": 11, "bidder_goes_out": False, **LATER_RULES}),
    ({"bidder_goes_out": True}, {"teams": "3x2", "target": 21, "bidder_goes_out": True,
                                 **LATER_RULES}),
    ({"lowest_bid": 2},
     {"teams": "3x2", "target": 21, "bidder_goes_out": False, "lowest_bid": 2,
      "all_pass": "throw_in", "smudge": False}),
])
def test_a_house_rule_left_out_of_a_file_is_the_default_and_the_export_writes_all(
        app, rules, expected):
    """RULES.md, "Game files": only what differs from the defaults need be written."""
    facts = {key: value for key, value in EVENING.items() if key != "rules"}
    if rules is not None:
        facts["rules"] = rules
    game_id = import_text(app, json.dumps(facts))
    assert export_of(app, game_id)["rules"] == expected


def test_a_game_of_more_hands_than_any_table_plays_is_refused_at_once(
        app, row_counts, monkeypatch):
    """Thirty thousand throw-ins are a legal file (about 1.7 MB), but no evening: refused
    before any hand is read, so neither the import nor its game page can take minutes."""
    def read_anyway(*args, **kwargs):
        raise AssertionError("the file's hands were read before they were counted")

    many = {**EVENING, "hands": [{"auction": ["pass"] * 6}] * 30_000}
    monkeypatch.setattr(exchange.GameFacts, "model_validate", read_anyway)
    with pytest.raises(FileRefused) as refused:
        import_text(app, json.dumps(many, separators=(",", ":")))
    assert str(refused.value) == "hands: a game holds at most 1000 hands, not 30000"
    assert row_counts()["Game"] == 0
    monkeypatch.undo()
    # Up to the limit is fine.
    assert import_text(app, json.dumps({**EVENING, "hands": [THROW_IN] * 1000}))


def test_a_shape_refusal_is_in_the_readers_language_as_a_backups_is(app):
    """One table of shape problems for game files and backups: translated for both."""
    with app.test_request_context(), force_locale("sk"):
        with pytest.raises(FileRefused) as refused:
            exchange.read_game_file(json.dumps({**EVENING, "seats": "Ann"}))
        assert (refused.value.where, refused.value.value) == ("seats", '"Ann"')
        page = refused.value.page().striptags()
        assert page == "seats: " + gettext(
            "%(problem)s, not %(value)s", problem=gettext("should be a JSON list"),
            value='"Ann"')
        assert "should be" not in page
        # What the command line prints stays English.
        assert str(refused.value) == 'seats: should be a JSON list, not "Ann"'


def test_a_refusal_after_a_good_import_keeps_the_good_game_only(app, row_counts):
    import_text(app, json.dumps(EVENING))
    before = row_counts()
    with pytest.raises(FileRefused):
        import_text(app, REFUSALS[0][1])
    assert row_counts() == before == {"Game": 1, "GameSeat": 6, "Player": 6, "Hand": 5}


# --- the pages ------------------------------------------------------------------------

def test_export_download(app, client):
    game_id = record_game(app, EVENING)
    response = client.get(f"/games/{game_id}/export")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert response.headers["Content-Disposition"] == \
        f"attachment; filename=schmier-game-{game_id}.json"
    assert without_ids(json.loads(response.data)) == EVENING_EXPORT


def test_the_game_page_links_to_the_download(app, client):
    game_id = record_game(app, EVENING)
    assert f'href="/games/{game_id}/export"' in client.get(f"/games/{game_id}").text


@pytest.mark.parametrize("game_id", ["42", "99999999999999999999"])
def test_export_of_a_missing_game_is_404(client, game_id):
    assert client.get(f"/games/{game_id}/export").status_code == 404


def test_the_games_list_links_to_the_import_page(client):
    assert 'href="/games/import"' in client.get("/").text


def test_the_import_page_has_a_file_upload_form(client):
    response = client.get("/games/import")
    assert response.status_code == 200
    assert 'enctype="multipart/form-data"' in response.text
    assert 'type="file"' in response.text
    assert 'name="game_file"' in response.text


def upload(client, content, filename="game.json"):
    if isinstance(content, str):
        content = content.encode()
    # Encoded here, in memory: the client would spool a large body to a temporary file
    # that nobody closes when the app refuses the request unread.
    boundary, body = encode_multipart(
        {"game_file": FileStorage(io.BytesIO(content), filename, "game_file")}
    )
    return client.post("/games/import", data=body,
                       content_type=f"multipart/form-data; boundary={boundary}")


def test_uploading_a_good_file_opens_the_new_game(app, client, row_counts):
    response = upload(client, json.dumps(EVENING))
    assert response.status_code == 303
    assert response.headers["Location"] == "/games/1"
    assert row_counts() == {"Game": 1, "GameSeat": 6, "Player": 6, "Hand": 5}
    page = client.get("/games/1").text
    assert "Ann & Dan" in parse(page).text()
    assert "Game imported as game 1." in page  # said once, after the redirect
    assert "Game imported" not in client.get("/games/1").text


def test_uploading_a_bad_file_says_what_is_wrong_and_stores_nothing(app, client, row_counts):
    before = row_counts()
    response = upload(client, REFUSALS[0][1])
    assert response.status_code == 422
    # The rule in the words the hand form uses, then the value as the file wrote it.
    (alert,) = parse(response.text).find_all(role="alert")
    assert alert.text() == ("Nothing was imported: hands[3].points.high: High: choose one of "
                            'this game\'s teams (the file says "D").')
    assert 'type="file"' in response.text  # the form again, to try another file
    assert row_counts() == before


def test_uploading_nothing_asks_for_a_file(app, client, row_counts):
    response = client.post("/games/import", data={}, content_type="multipart/form-data")
    assert response.status_code == 422
    assert "Choose a game file to import." in response.text
    assert row_counts()["Game"] == 0


def test_uploading_a_file_over_the_limit_is_refused_in_the_page(app, client, row_counts):
    response = upload(client, b" " * (LIMIT + 1))
    assert response.status_code == 413
    assert ("That file is larger than 2 MB, the most a game file may be. Nothing was imported."
            in response.text)
    assert 'type="file"' in response.text
    assert row_counts()["Game"] == 0


def test_the_import_form_carries_csrf_and_refuses_a_post_without_it(row_counts):
    app = create_app({"TESTING": True, "DATABASE_URL": database_url(), "SECRET_KEY": "test"})
    client = client_as(app)
    assert 'name="csrf_token"' in client.get("/games/import").text
    response = upload(client, json.dumps(EVENING))
    assert response.status_code == 400
    assert row_counts()["Game"] == 0


def test_the_hands_as_csv_one_row_a_deal_with_running_scores(app, client):
    import csv as csv_module

    game_id = import_text(app, json.dumps(EVENING))
    response = client.get(f"/games/{game_id}/hands.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert "schmier-game-" in response.headers["Content-Disposition"]
    text = response.get_data(as_text=True).lstrip("\ufeff")
    header, *rows = list(csv_module.reader(io.StringIO(text)))
    assert header[:6] == ["Hand", "Dealer", "Bidder", "Bidding team", "Bid", "Trump"]
    assert header[-3:] == ["A score", "B score", "C score"]
    assert len(rows) == 5
    # Hand 1: Ann deals, all pass. Hand 2: Ann deals again; Cid (C) bids 4 in hearts and
    # takes Low, Right, Left and Game: made. A 1, B 1, C 4.
    assert rows[0][:2] == ["1", "Ann"] and rows[0][5] == "thrown in"
    assert rows[0][-3:] == ["0", "0", "0"]
    assert rows[1][:6] == ["2", "Ann", "Cid", "C", "4", "Hearts"]
    assert rows[1][6:13] == ["A", "C", "C", "C", "B", "C", "made"]
    assert rows[1][-3:] == ["1", "1", "4"]


def test_a_file_of_a_game_whose_lowest_bid_is_2_imports_its_bids_of_2(app):
    """Hand 2 of the evening bid at 2 instead of 4: Cid (C) takes Low, Right and Left
    and made 2 (RULES.md, "Game files", "House rules")."""
    facts = copy.deepcopy(EVENING)
    set_at(["rules", "lowest_bid"], 2)(facts)
    facts = changed(facts, set_at(["hands", 1, "auction"], [P, 2, P, P, P, P]))
    exported = export_of(app, import_text(app, facts))
    assert exported["rules"]["lowest_bid"] == 2
    assert exported["hands"][1]["auction"] == [P, 2, P, P, P, P]
    assert (exported["hands"][1]["bid"], exported["hands"][1]["made"]) == (2, True)
