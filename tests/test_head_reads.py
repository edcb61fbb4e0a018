"""How the database finds a game's head: the watch reads the heads (their marks) of every
game its polls wait on, four times a second in each process, and each head names the
newer game at the game's table, if its table has moved on.

That newer game is looked up by the index of the evening's tables (``ix_game_table``:
the evening, the table, the game). Without it the database walked the games by number
down from the newest on the server, through every game begun since, at any club, for
each game watched: on PostgreSQL, 37 ms a look for 1,000 tables of 9 each, and 17 s
with 100,000 games begun since, where the index takes 7 and 19 ms.
"""
from __future__ import annotations

import re

import pytest

from scorekeeper.table.live import game_head, game_marks
from tests.databases import statements_sent
from tests.members import client_as, first_club_id
from tests.new_games import start_game_as


def plan_of(app, read) -> str:
    """The database's plan for the statement ``read(connection)`` sends, as text; on
    PostgreSQL with sequential scans ruled out, so that a table this small is planned as
    a big one is (by whatever index fits best)."""
    engine = app.extensions["db_engine"]
    with statements_sent(engine) as sent, engine.connect() as connection:
        read(connection)
    (statement, parameters), = sent
    with engine.connect() as connection:
        if engine.dialect.name == "postgresql":
            connection.exec_driver_sql("SET enable_seqscan = off")
            rows = connection.exec_driver_sql(f"EXPLAIN {statement}", parameters).all()
        else:
            rows = connection.exec_driver_sql(f"EXPLAIN QUERY PLAN {statement}", parameters).all()
    return "\n".join(str(row[-1]) for row in rows)


@pytest.fixture
def games(app) -> list[int]:
    """Games at two tables of an evening, the first table's moved on to a newer one."""
    phone = client_as(app, "scorer")
    return [start_game_as(phone, table=str(table)) for table in (1, 2, 1)]


def reads(app, games: list[int]) -> dict:
    club_id = first_club_id(app)
    return {"marks": lambda connection: game_marks(connection, games),  # the watch's
            "head": lambda connection: game_head(connection, club_id, games[0])}  # a poll's


@pytest.mark.parametrize("read", ["marks", "head"])
def test_a_games_newer_game_is_found_by_the_index_of_its_evenings_tables(app, games, read):
    assert "ix_game_table" in plan_of(app, reads(app, games)[read])


def test_the_watchs_read_goes_through_the_games_twice_the_watched_and_their_tables_newest(
        app, games):
    """Each watched game's newer game is all its mark needs of it: its number, which the
    look-up by the index gives. Joining that game's row as well, for nothing, planned a
    third pass over the games (on PostgreSQL, a hash of every game on the server: 30 ms
    a look for 1,000 games, against 7 without it)."""
    plan = plan_of(app, reads(app, games)["marks"])
    assert len(re.findall(r"\b(?:SCAN|SEARCH) game(?:_\d+)?\b|\bon game\b", plan)) == 2, plan


def test_each_game_names_its_tables_newer_game_and_none_where_its_table_is_still_on_it(
        app, games):
    *_, third = games
    read = reads(app, games)
    with app.extensions["db_engine"].connect() as connection:
        marks, head = read["marks"](connection), read["head"](connection)
    newer = [mark[-2] for _club_game, mark in sorted(marks.items())]  # (…, newer game, table)
    assert newer == [third, None, None]
    assert head.newer_game == third
