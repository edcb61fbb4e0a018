"""What a request costs PostgreSQL in round trips, counted on the wire (tests/pg_wire.py).

A phone's poll comes every few seconds from every phone at every table: on PostgreSQL
each of its reads waits for the server's answer, and so did a BEGIN before them and a
ROLLBACK after, and a ping as the pool gave the connection. Its reads (who is asking,
the game's head) are made outside a transaction, and a connection is pinged only once
it has lain idle a while: two round trips where there were five. A connection the
server ended while it was pooled (a restart) is found by what the server said to it as
it ended it, with no round trip: the next request gets a new one, not an error. A request that writes through the ORM still
writes in one transaction. A burst of polls finds its connections open, and a record
never waits behind it for one.
"""
from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from contextvars import copy_context

import pytest
from sqlalchemy import event, func, select, text

from scorekeeper.store import db
from scorekeeper.store.db import (
    POOL_KEPT, POOL_MOST, close_session, drawing, get_connection, get_engine, get_session,
)
from scorekeeper.store.models import Club
from tests.conftest import close_server, fresh_server
from tests.databases import (
    database_url, end_every_connection, on_postgresql, statements_sent,
)
from tests.members import client_as, first_club_id
from tests.new_games import start_game_as
from tests.pg_wire import relayed

POLLS = 10


@pytest.mark.skipif(not on_postgresql(), reason="SQLite is in the process: no round trips")
def test_an_unchanged_poll_is_its_two_reads_and_no_ping():
    with relayed(database_url()) as (relay, url):
        app = fresh_server(DATABASE_URL=url)
        try:
            poll = unchanged_poll(app)
            for _ in range(POLLS):  # the statements prepared, the pool's connection made
                poll()
            before = relay.round_trips
            for _ in range(POLLS):
                poll()
            assert relay.round_trips - before == 2 * POLLS
        finally:
            close_server(app)


@pytest.mark.skipif(not on_postgresql(), reason="SQLite is in the process: no round trips")
def test_a_connection_idle_a_while_is_pinged_before_use(monkeypatch):
    """One the server may have lost without a word (a firewall dropping an idle
    connection): asked before it is used, one round trip more."""
    with relayed(database_url()) as (relay, url):
        app = fresh_server(DATABASE_URL=url)
        try:
            poll = unchanged_poll(app)
            for _ in range(POLLS):
                poll()
            monkeypatch.setattr(db, "PING_AFTER_IDLE_SECONDS", 0.0)
            before = relay.round_trips
            for _ in range(POLLS):
                poll()
            assert relay.round_trips - before == 3 * POLLS
        finally:
            close_server(app)


def unchanged_poll(app):
    """A scorer's phone's poll of a new game: each call polls once, answered "nothing new"."""
    first_club_id(app)
    phone = client_as(app, "scorer")
    game = start_game_as(phone)

    def poll() -> None:
        answer = phone.get(f"/games/{game}/live?v=1&view=game", headers={"HX-Request": "true"})
        assert answer.status_code == 204
    return poll


@pytest.mark.skipif(not on_postgresql(), reason="SQLite's connections are files, not a server's")
def test_connections_the_server_ended_while_pooled_are_made_again_not_an_error(monkeypatch):
    """A database server restarted while the pools held their connections: the next
    requests get new ones (each ended one is found by what the server said to it as it
    ended it), not an error."""
    monkeypatch.setattr(db, "PING_AFTER_IDLE_SECONDS", float("inf"))  # none asked
    url = database_url()
    app = fresh_server(DATABASE_URL=url)
    try:
        poll = unchanged_poll(app)
        poll()
        assert end_every_connection(url) >= 1
        for _ in range(3):  # each of the pool's connections that had ended, if it were used
            poll()
        assert client_as(app, "viewer").get("/evenings").status_code == 200
    finally:
        close_server(app)


def test_a_write_after_the_requests_reads_is_undone_with_its_transaction(app):
    """The connection the reads were made on, given to the ORM, writes in a transaction
    again: what is not committed is not kept."""
    with app.test_request_context():
        clubs = get_connection().execute(select(func.count()).select_from(Club)).scalar_one()
        session = get_session()
        session.execute(text("INSERT INTO club (name, created_at, confirm_hands, prefers_sixes)"
                             " VALUES ('Never kept', CURRENT_TIMESTAMP, false, false)"))
        close_session()  # the request failed before its commit
        assert get_connection().execute(
            select(func.count()).select_from(Club)).scalar_one() == clubs
        close_session()


@pytest.mark.skipif(not on_postgresql(), reason="SQLite's connections are files, not processes")
def test_a_burst_of_polls_the_pool_keeps_room_for_opens_no_connection_the_second_time():
    """A hand recorded wakes every phone of its table at once: their polls find the
    connections the last burst opened still open (on PostgreSQL each new one is a new
    server process), up to the pool's POOL_KEPT."""
    with relayed(database_url()) as (relay, url):
        app = fresh_server(DATABASE_URL=url)
        try:
            first_club_id(app)
            phones = [client_as(app, "scorer") for _ in range(POOL_KEPT)]
            game = start_game_as(client_as(app, "scorer"))
            engine = app.extensions["db_engine"]
            together = threading.Barrier(POOL_KEPT, timeout=30)

            def burst() -> None:
                with ThreadPoolExecutor(POOL_KEPT) as polls:
                    answers = list(polls.map(
                        lambda phone: phone.get(f"/games/{game}/live?v=1&view=game",
                                                headers={"HX-Request": "true"}).status_code,
                        phones))
                assert answers == [204] * POOL_KEPT

            def all_out_at_once(*_args) -> None:
                together.wait()

            event.listen(engine.pool, "checkout", all_out_at_once)
            try:
                burst()
                opened = relay.connections
                burst()
            finally:
                event.remove(engine.pool, "checkout", all_out_at_once)
            assert relay.connections == opened
        finally:
            close_server(app)


@pytest.mark.skipif(not on_postgresql(), reason="SQLite's statements are not sent anywhere")
def test_the_watch_reads_any_number_of_games_in_one_statement_of_one_parameter(app):
    """Each process's watch reads the marks of every game its polls wait on, four times a
    second: on PostgreSQL with the same statement whatever their number (a list of a
    placeholder each was a new text for the driver to read through and the server to
    plan each time)."""
    from scorekeeper.table.live import game_marks

    with statements_sent(app.extensions["db_engine"]) as sent:
        with app.extensions["db_engine"].connect() as connection:
            for games in (3, 400):
                assert game_marks(connection, list(range(1, games + 1))) == {}
    (few, few_parameters), (many, many_parameters) = sent
    assert few == many
    assert few_parameters.keys() == many_parameters.keys()  # the games' ids are one


@pytest.mark.skipif(not on_postgresql(), reason="SQLite's connections are never held waiting")
def test_a_render_thread_never_waits_for_a_connection_behind_the_polls(app):
    """(web/aside.py) A hand wakes its table's polls, each holding a connection until
    its greenlet runs again: with every one of them out, a record (drawn in a render
    thread) still gets a connection of the render threads' own, at once."""
    def record() -> int:
        with get_engine().connect() as connection:
            return connection.execute(text("SELECT 1")).scalar_one()

    with app.app_context():
        polls = [get_engine().connect() for _ in range(POOL_MOST)]
        try:
            with ThreadPoolExecutor(1) as render_thread:
                recorded = render_thread.submit(copy_context().run, drawing, record)
                assert recorded.result(timeout=10) == 1  # (else it waits for the pool's 30 s)
        finally:
            for connection in polls:
                connection.close()
