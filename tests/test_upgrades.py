"""A database made by an earlier version upgrades on start to the pages a fresh import of
the same games shows; an upgrade that fails leaves the database as it was.

Each earlier version is a migration head: a database at the first schema is filled with
two games (written as that version wrote them), brought to the head by the migrations
themselves, as that version left it, and then started by today's app. On the test
database: SQLite, and PostgreSQL in CI's second run.
"""
from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text

from scorekeeper import create_app
from scorekeeper.files.exchange import read_game
from scorekeeper.store.db import make_engine
from scorekeeper.store.migrate import MIGRATIONS, upgrade
from scorekeeper.store.replay import hand_fields
from tests.databases import database_url, empty_database_url
from tests.members import client_as, first_club_id
from tests.sample_games import TRIOS
from tests.test_cli import PAIRS
from tests.views.view_helpers import Page

GAMES = (PAIRS, TRIOS)
# Played tonight, as the fresh import is: a past evening's games are shown closed.
STARTED = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S")


def heads() -> list[str]:
    """Every migration head but today's, oldest first."""
    script = ScriptDirectory(str(MIGRATIONS))
    newest_first = [revision.revision for revision in script.walk_revisions()]
    return list(reversed(newest_first))[:-1]


def fill_first_schema(engine) -> None:
    """The games, as the first version stored them: a club, its players, each game's
    seats and hands."""
    with engine.begin() as connection:
        connection.execute(text("INSERT INTO club (id, name, created_at) "
                                "VALUES (1, 'Old club', :at)"), {"at": STARTED})
        players: dict[str, int] = {}
        for game_id, facts in enumerate(GAMES, start=1):
            game = read_game(facts)
            connection.execute(text(
                "INSERT INTO game (id, club_id, teams, target, bidder_goes_out, first_dealer,"
                " first_dealer_drawn, created_at) VALUES (:id, 1, :teams, :target, :out, "
                ":dealer, :drawn, :at)"),
                {"id": game_id, "teams": game.rules.teams.value, "target": game.rules.target,
                 "out": game.rules.bidder_goes_out, "dealer": game.first_dealer,
                 "drawn": False, "at": STARTED})
            for seat, name in enumerate(game.names, start=1):
                if name not in players:
                    players[name] = len(players) + 1
                    connection.execute(text(
                        "INSERT INTO player (id, club_id, name, name_key, created_at) "
                        "VALUES (:id, 1, :name, :key, :at)"),
                        {"id": players[name], "name": name, "key": name.casefold(),
                         "at": STARTED})
                connection.execute(text("INSERT INTO gameseat (game_id, seat, player_id) "
                                        "VALUES (:game, :seat, :player)"),
                                   {"game": game_id, "seat": seat, "player": players[name]})
            for number, deal in enumerate(game.deals, start=1):
                fields = hand_fields(deal, game.rules.team_names)
                assert fields["game_values"] is None  # (no column for them yet)
                connection.execute(text(
                    "INSERT INTO hand (game_id, number, calls, trump, points, recorded_at) "
                    "VALUES (:game, :number, :calls, :trump, :points, :at)"),
                    {"game": game_id, "number": number, "calls": json.dumps(fields["calls"]),
                     "trump": fields["trump"], "at": STARTED,
                     "points": json.dumps(fields["points"]) if fields["points"] else None})


def started(url: str):
    return create_app({"TESTING": True, "DATABASE_URL": url, "SECRET_KEY": "t",
                       "WTF_CSRF_ENABLED": False})


def shown(app) -> dict[str, object]:
    """What the pages show of the games and the players."""
    client = client_as(app)
    found: dict[str, object] = {}
    for game_id in (1, 2):
        page = Page(client.get(f"/games/{game_id}"))
        assert page.status == 200
        found[f"game {game_id} scores"] = page.section_text("scores")
        found[f"game {game_id} hands"] = [row.text() for row in
                                         page.root.find_all("li", class_="deal")]
    board = Page(client.get("/players?sort=name"))
    found["leaderboard"] = [[cell.text() for cell in row.iter() if cell.tag in ("th", "td")]
                            for row in board.root.find("table", class_="leaderboard")
                            .find_all("tr")]
    return found


@pytest.fixture(scope="module")
def fresh_import() -> dict[str, object]:
    """The pages of the same games imported into today's app."""
    app = started(database_url())
    first_club_id(app)  # the club the games go into, as create-club makes it
    for facts in GAMES:
        result = app.test_cli_runner().invoke(args=["import-game", "-"],
                                              input=json.dumps(facts))
        assert result.exit_code == 0, result.output
    return shown(app)


@pytest.mark.parametrize("head", heads())
def test_a_database_of_each_earlier_version_upgrades_to_what_a_fresh_import_shows(
        head, fresh_import, tmp_path):
    url = empty_database_url(tmp_path)
    engine = make_engine(url)
    upgrade(engine, heads()[0])
    fill_first_schema(engine)
    upgrade(engine, head)  # as the version of that head left it
    engine.dispose()
    app = started(url)  # today's app upgrades it on start
    assert shown(app) == fresh_import
    assert "A 4 Ann & Dan B −4 Bob & Eve C 5" in fresh_import["game 1 scores"]  # (by hand)
    assert fresh_import["leaderboard"]


def test_an_upgrade_that_fails_leaves_the_database_as_it_was(tmp_path):
    # A table in the way of a later migration (made by hand, say): that migration fails,
    # and every one before it in the same upgrade is taken back too.
    url = empty_database_url(tmp_path)
    engine = make_engine(url)
    upgrade(engine, "0001")
    fill_first_schema(engine)
    with engine.begin() as connection:
        connection.execute(text("CREATE TABLE evening (id INTEGER PRIMARY KEY)"))
    with pytest.raises(Exception):
        upgrade(engine)
    inspector = inspect(engine)
    assert "revision" not in {c["name"] for c in inspector.get_columns("game")}  # 0002's
    assert [c["name"] for c in inspector.get_columns("evening")] == ["id"]
    with engine.connect() as connection:
        assert connection.execute(text("SELECT version_num FROM alembic_version")).scalar() \
            == "0001"
        assert connection.execute(text("SELECT count(*) FROM hand")).scalar() == 4
    engine.dispose()
