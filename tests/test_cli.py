"""The command line: import-game, export-game and games, through Flask's CLI runner.

Scores and lines below are worked out by hand from RULES.md.
"""
import json

import pytest
from sqlmodel import Session, delete, select

from scorekeeper.store.db import get_session
from scorekeeper.store.models import Club, Game
from tests.members import client_as, new_club
from tests.sample_games import P, TRIOS


# Three pairs to 21, seat 1 deals. Hand 1 thrown in. Hand 2: seat 1 deals again, Cid
# (3, C) bids 4 and takes Low, Right, Left and Game: C +4, A +1 (High), B +1 (Joker).
# Hand 3: Bob deals, Eve (5, B) bids 5, takes High and Joker (2): set, B -5; A takes
# Low, Right and Game: +3; C the Left: +1. Scores A 4, B -4, C 5.
PAIRS = {
    "format": "schmier-game/1",
    "rules": {"teams": "3x2", "target": 21, "bidder_goes_out": False},
    "seats": ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"],
    "first_dealer": 1,
    "hands": [
        {"auction": [P] * 6, "trump": None, "points": None},
        {"auction": [P, 4, P, P, P, P], "trump": "hearts",
         "points": {"high": "A", "low": "C", "right": "C", "left": "C", "joker": "B",
                    "game": "C"}},
        {"auction": [P, P, 5, P, P, P], "trump": "spades",
         "points": {"high": "B", "low": "A", "right": "A", "left": "C", "joker": "B",
                    "game": "A"}},
    ],
}






def game_file(tmp_path, facts, name="game.json"):
    path = tmp_path / name
    path.write_text(json.dumps(facts) if isinstance(facts, dict) else facts)
    return str(path)


def test_import_game_prints_the_new_id(app, runner, tmp_path, row_counts):
    result = runner.invoke(args=["import-game", game_file(tmp_path, PAIRS)])
    assert result.exit_code == 0, result.output
    assert result.stdout == "1\n"
    assert row_counts() == {"Game": 1, "GameSeat": 6, "Player": 6, "Hand": 3}
    result = runner.invoke(args=["import-game", game_file(tmp_path, TRIOS, "trios.json")])
    assert result.stdout == "2\n"


def test_import_game_reads_stdin(app, runner):
    result = runner.invoke(args=["import-game", "-"], input=json.dumps(TRIOS))
    assert result.exit_code == 0, result.output
    assert result.stdout == "1\n"


def test_export_game_prints_the_game_as_json(runner, tmp_path):
    runner.invoke(args=["import-game", game_file(tmp_path, PAIRS)])
    result = runner.invoke(args=["export-game", "1"])
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert record["format"] == "schmier-game/1"
    assert record["id"] == 1
    assert record["seats"] == PAIRS["seats"]
    assert [hand["dealer"] for hand in record["hands"]] == [1, 1, 2]
    assert record["hands"][2]["bidder"] == 5
    assert record["hands"][2]["bidding_team"] == "B"
    assert record["hands"][2]["made"] is False
    assert record["hands"][2]["score_change"] == {"A": 3, "B": -5, "C": 1}
    assert record["scores"] == {"A": 4, "B": -4, "C": 5}
    assert record["status"] == "playing"
    assert record["next_dealer"] == 3


def test_export_then_import_on_the_command_line_is_the_same_game(runner, tmp_path):
    runner.invoke(args=["import-game", game_file(tmp_path, PAIRS)])
    first = runner.invoke(args=["export-game", "1"]).stdout
    path = game_file(tmp_path, first, "exported.json")
    assert runner.invoke(args=["import-game", path]).stdout == "2\n"
    second = runner.invoke(args=["export-game", "2"]).stdout
    ignore = ("id", "created_at")
    assert {k: v for k, v in json.loads(second).items() if k not in ignore} == \
        {k: v for k, v in json.loads(first).items() if k not in ignore}


def test_export_of_a_missing_game_fails(runner):
    result = runner.invoke(args=["export-game", "5"])
    assert result.exit_code != 0
    assert "there is no game 5" in result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize("game_id", ["0", "-1", "99999999999999999999"])
def test_export_of_an_id_no_game_can_have_fails(runner, game_id):
    result = runner.invoke(args=["export-game", "--", game_id])
    assert result.exit_code != 0
    assert f"there is no game {game_id}" in result.stderr


def test_games_lists_one_game_a_line_id_first(app, runner, tmp_path):
    runner.invoke(args=["import-game", game_file(tmp_path, PAIRS)])
    runner.invoke(args=["import-game", game_file(tmp_path, TRIOS, "trios.json")])
    with app.app_context():
        dates = [game.created_at.strftime("%Y-%m-%d")
                 for game in get_session().exec(select(Game).order_by(Game.id))]
    result = runner.invoke(args=["games"])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        f"1\t{dates[0]}\tplaying\tA 4 · B -4 · C 5\tAnn & Dan / Bob & Eve / Cid & Fay",
        f"2\t{dates[1]}\twon by A\tA 6 · B 0\tGus & Ida & Kim / Hal & Joe & Lea",
    ]


def test_games_with_no_games_prints_nothing(runner):
    result = runner.invoke(args=["games"])
    assert result.exit_code == 0
    assert result.stdout == ""


def test_import_game_of_a_bad_file_fails_and_stores_nothing(app, runner, tmp_path, row_counts):
    bad = json.loads(json.dumps(PAIRS))
    bad["hands"][1]["points"]["high"] = "D"
    path = game_file(tmp_path, bad, "bad.json")
    before = row_counts()
    result = runner.invoke(args=["import-game", path])
    assert result.exit_code != 0
    assert result.stderr == (
        f"Error: nothing was imported from {path}: "
        "hands[1].points.high: 'D' is not a team of this game (A, B, C)\n"
    )
    assert result.stdout == ""
    assert row_counts() == before


def test_import_game_of_a_file_that_is_not_json_fails(app, runner, tmp_path, row_counts):
    result = runner.invoke(args=["import-game", game_file(tmp_path, "{", "broken.json")])
    assert result.exit_code != 0
    assert ("not JSON: Expecting property name enclosed in double quotes (line 1, column 2)"
            in result.stderr)
    assert row_counts()["Game"] == 0


def test_import_game_of_a_file_over_the_limit_fails(app, runner, tmp_path, row_counts):
    path = tmp_path / "huge.json"
    path.write_bytes(b" " * (2 * 1024 * 1024 + 1))
    result = runner.invoke(args=["import-game", str(path)])
    assert result.exit_code != 0
    assert "the file is larger than 2 MB, the most a game file may be" in result.stderr
    assert row_counts()["Game"] == 0


def test_import_game_of_a_missing_file_fails(runner, tmp_path):
    result = runner.invoke(args=["import-game", str(tmp_path / "nowhere.json")])
    assert result.exit_code != 0
    assert "nowhere.json" in result.stderr


CLUB_COMMANDS = [["games"], ["export-game", "1"], ["import-game", "-"], ["backup", "-"],
                 ["restore", "-"], ["owner-link"], ["ratings"]]


@pytest.mark.parametrize("command", CLUB_COMMANDS, ids=lambda command: command[0])
def test_with_several_clubs_a_club_command_asks_which_and_changes_nothing(
        app, runner, row_counts, command):
    client_as(app)  # the first club's owner
    new_club(app, "Second table")
    with Session(app.extensions["db_engine"]) as session:
        clubs = session.exec(select(Club).order_by(Club.id)).all()
    before = row_counts()
    result = runner.invoke(args=command, input=json.dumps(PAIRS))
    assert result.exit_code == 1
    assert len(clubs) == 2 and result.stderr == (
        "Error: there are several clubs, so say which with --club ID: "
        f"{clubs[0].id} ({clubs[0].name}), {clubs[1].id} (Second table)\n")
    assert row_counts() == before


@pytest.mark.parametrize("command", [c for c in CLUB_COMMANDS if c[0] != "restore"],
                         ids=lambda command: command[0])
def test_with_no_club_a_club_command_says_how_to_make_one(app, runner, command):
    with Session(app.extensions["db_engine"]) as session:
        session.exec(delete(Club))  # a fresh database: nobody has made a club yet
        session.commit()
    result = runner.invoke(args=command, input=json.dumps(PAIRS))
    assert result.exit_code == 1
    assert result.stderr == "Error: there is no club yet: make one with create-club NAME\n"


def test_with_several_clubs_the_club_named_is_the_one_acted_on(app, runner):
    client_as(app)  # the first club's owner
    second = new_club(app, "Second table")
    result = runner.invoke(args=["import-game", "--club", str(second), "-"],
                           input=json.dumps(PAIRS))
    assert result.exit_code == 0, result.output
    with Session(app.extensions["db_engine"]) as session:
        assert session.exec(select(Game.club_id)).all() == [second]
