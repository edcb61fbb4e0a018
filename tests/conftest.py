"""Shared fixtures: a fresh app and database per test (flaskr style)."""
from __future__ import annotations

import os

import pytest
from sqlmodel import Session, func, select

from scorekeeper import create_app
from scorekeeper.store.db import engines
from scorekeeper.store.models import Game, GameSeat, Hand, Player
from tests import url_builders
from tests.databases import database_url, drop_created, forget
from tests.members import client_as, first_club_id
from tests.new_games import start_game_as

url_builders.compile_once()  # each test makes an app: its URLs built as by the first


@pytest.fixture
def app():
    """The app on a fresh database of its own (a SQLite file, or a PostgreSQL database
    when TEST_DATABASE_URL names a server; tests/databases.py) with its first club, as
    ``create-club`` leaves it (nobody in yet); CSRF off (its own tests turn it on)."""
    app = fresh_server()
    first_club_id(app)
    yield app
    close_server(app)


@pytest.fixture
def new_server():
    """The app on a fresh database with no club at all, as a new install starts."""
    app = fresh_server()
    yield app
    close_server(app)


def fresh_server(**settings):
    """An app as the ``app`` fixture makes it, with no club yet; ``settings`` over the
    tests' own. Closed by ``close_server``."""
    return create_app({
        "TESTING": True,
        "DATABASE_URL": database_url(),
        "SECRET_KEY": "test-secret",
        "WTF_CSRF_ENABLED": False,
        "LIVE_WAIT_SECONDS": 0,  # polls answered at once; tests/test_live_wait.py holds them
        **settings,
    })


def close_server(app) -> None:
    for engine in engines(app):
        engine.dispose()  # its connections, not left for later
    forget(app.config["DATABASE_URL"])


@pytest.fixture
def client(app):
    """The club's owner: every page and every change is theirs to make."""
    return client_as(app, "owner")


@pytest.fixture
def stranger(app):
    """A browser that belongs to no club."""
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


@pytest.fixture
def db(app):
    """A session on the app's database, for checking rows."""
    with Session(app.extensions["db_engine"]) as session:
        yield session


@pytest.fixture
def start_game(client):
    """Start a game through the page as the owner; returns its id."""
    return lambda **overrides: start_game_as(client, **overrides)


@pytest.fixture
def row_counts(app):
    """Count the game rows now: to show a refused change stored nothing."""
    def count() -> dict[str, int]:
        with Session(app.extensions["db_engine"]) as session:
            return {
                model.__name__: session.exec(select(func.count()).select_from(model)).one()
                for model in (Game, GameSeat, Player, Hand)
            }

    return count


def pytest_xdist_auto_num_workers(config):
    """``-n auto`` (pyproject.toml): a test process more than the cores. A browser test
    spends much of its time waiting (on Chromium, on a page's polls, on a server in
    another thread), and another process fills the waits: the whole suite on two cores
    took 10:03 with two processes, 8:34 with three, 8:06 with four (on PostgreSQL, whose
    server shares the cores, four were slower than three: 14:18 against 11:41)."""
    return len(os.sched_getaffinity(0)) + 1


def pytest_sessionfinish(session, exitstatus):
    drop_created()  # the PostgreSQL databases the tests made, if any
