"""Missing games and hands: a 404 page with words, never a stack trace."""
from __future__ import annotations

import pytest

from scorekeeper import create_app
from tests.databases import database_url
from tests.members import client_as
from tests.views.view_helpers import HTMX, Hand, Page, calls_for, count, hand_form

NO_SUCH_PAGE = "There is no such page here. The game may have another number."
BOB_BIDS_4 = calls_for(1, {2: 4})


def assert_not_found(response):
    assert response.status_code == 404
    assert NO_SUCH_PAGE in Page(response).alerts()[0]


@pytest.mark.parametrize("url", [
    "/games/999", "/games/0", "/games/99999999999999999999", "/games/abc",
    "/games/999/hands/1/edit", "/nowhere",
])
def test_a_missing_game_is_a_404_page(client, url):
    assert_not_found(client.get(url))


def test_editing_a_hand_that_does_not_exist_is_a_404(client, db, start_game, play):
    game = start_game()
    assert_not_found(client.get(f"/games/{game}/hands/1/edit"))  # no hands yet
    play(game, 1, BOB_BIDS_4, "hearts", "ABBCC", "A")
    assert client.get(f"/games/{game}/hands/1/edit").status_code == 200
    for number in (0, 2, 99999999999999999999):
        assert_not_found(client.get(f"/games/{game}/hands/{number}/edit"))
    response = client.post(f"/games/{game}/hands/2",
                           data=hand_form(2, BOB_BIDS_4, "hearts", "ABBCC", "A"))
    assert_not_found(response)
    assert count(db, Hand) == 1


def test_posts_to_a_missing_game_are_404s(client, db):
    form = hand_form(1, BOB_BIDS_4, "hearts", "ABBCC", "A")
    for url in ("/games/999/hands", "/games/999/hands/1", "/games/999/hands/undo",
                "/games/999/hands/restore"):
        assert_not_found(client.post(url, data=form))
    assert count(db, Hand) == 0


def test_an_htmx_404_is_the_message_alone(client):
    response = client.post("/games/999/hands", data={"number": "1"},
                           headers={**HTMX, "HX-Target": "game"})
    assert response.status_code == 404
    assert "<html" not in response.text
    assert NO_SUCH_PAGE in Page(response).alerts()[0]


def test_a_wrong_method_says_so(client, start_game):
    game = start_game()
    response = client.get(f"/games/{game}/hands")
    assert response.status_code == 405
    assert "That page can't be used that way." in Page(response).alerts()[0]


def test_an_unexpected_error_shows_words_not_a_trace(monkeypatch, new_game_form):
    """Outside tests the app catches everything: the player reads what to do."""
    app = create_app({"DATABASE_URL": database_url(), "SECRET_KEY": "x",
                      "WTF_CSRF_ENABLED": False})
    client = client_as(app)
    response = client.post("/games/new", data=new_game_form())
    game = response.headers["Location"].rsplit("/", 1)[1]

    def broken(*_args, **_kwargs):
        raise RuntimeError("secret internals")

    monkeypatch.setattr("scorekeeper.views.games.render_game", broken)
    response = client.get(f"/games/{game}")
    assert response.status_code == 500
    body = response.text
    assert "Something went wrong" in body
    assert "every hand recorded before this is safe" in body
    assert "Traceback" not in body and "secret internals" not in body
    assert "RuntimeError" not in body


@pytest.mark.parametrize("url", ["/evenings?page=", "/evenings?player=", "/players?min=",
                                 "/players.csv?min="])
def test_a_number_too_long_to_read_is_no_number_not_an_error(client, url):
    """Python refuses to read more than 4,300 digits: the address is answered as if the
    number were not given."""
    response = client.get(url + "9" * 4301)
    assert response.status_code == 200
    assert response.status_code == client.get(url.split("?")[0]).status_code
