"""View-test fixtures: every response is checked for a 500, a stack trace and Vary."""
from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from scorekeeper import create_app
from tests import new_games
from tests.databases import database_url, forget
from tests.views.view_helpers import Game, hand_form, rows

class CheckedClient(FlaskClient):
    """A test client that fails the test on any answer a player must never get."""

    def open(self, *args, **kwargs):
        response = super().open(*args, **kwargs)
        body = response.get_data().decode("utf-8", "replace")  # a picture too
        assert response.status_code < 500, f"{response.status_code}: {body[:500]}"
        assert "Traceback" not in body and 'File "' not in body, body[:500]
        # The same URL answers with a page or a fragment: caches must tell them apart
        # (a poll's empty 204 is kept by no cache at all).
        if response.status_code == 204:
            assert response.headers.get("Cache-Control") == "no-store", response.headers
        else:
            assert "HX-Request" in response.vary, response.headers
        return response


@pytest.fixture
def app(app):
    app.test_client_class = CheckedClient
    return app


@pytest.fixture
def new_server(new_server):
    new_server.test_client_class = CheckedClient
    return new_server


@pytest.fixture
def csrf_app():
    """The app as it runs at the table: CSRF on (the shared ``app`` turns it off)."""
    url = database_url()
    app = create_app({
        "TESTING": True,
        "DATABASE_URL": url,
        "SECRET_KEY": "csrf-test-secret",
    })
    app.test_client_class = CheckedClient
    yield app
    app.extensions["db_engine"].dispose()
    forget(url)


@pytest.fixture
def new_game_form():
    """The new-game form builder (tests/new_games.py), for the view tests that post it."""
    return new_games.new_game_form


@pytest.fixture
def record(client):
    """Post the next hand as the page's form would; returns the response."""

    def post(game_id: int, number: int, calls: str, trump=None, owners=None, game=None,
             values=None, *, headers=None, **extra):
        form = hand_form(number, calls, trump, owners, game, values)
        form.update(extra)
        return client.post(f"/games/{game_id}/hands", data=form, headers=headers or {})

    return post


@pytest.fixture
def play(record):
    """Record a hand that must be accepted (303)."""

    def post(game_id: int, number: int, calls: str, trump=None, owners=None, game=None,
             values=None):
        response = record(game_id, number, calls, trump, owners, game, values)
        assert response.status_code == 303, response.get_data(as_text=True)[:2000]
        assert response.headers["Location"].endswith(f"/games/{game_id}")
        return response

    return post


@pytest.fixture
def evening(client, db, new_game_form):
    """Start games of one evening as the owner: ``evening.game()`` is the next one's id."""

    class Tonight:
        id: int | None = None

        def game(self) -> int:
            form = new_game_form(target="5", evening=str(self.id) if self.id else "new")
            response = client.post("/games/new", data=form)
            assert response.status_code == 303, response.get_data(as_text=True)[:500]
            game_id = int(response.headers["Location"].rsplit("/", 1)[1])
            if self.id is None:
                self.id = next(g.evening_id for g in rows(db, Game) if g.id == game_id)
            return game_id

    return Tonight()
