"""The table board is a page for a TV: the board alone, with no site header, language
buttons or footer, and a "Full screen" button and a note that the screen may sleep, both
hidden until the page's script shows them. Every other page keeps its header and footer.
"""
from __future__ import annotations

import re

from tests.members import client_as
from tests.new_games import start_game_as
from tests.views.view_helpers import HTMX, Page


def boards(client) -> list[str]:
    game = start_game_as(client, evening="new")
    evening = re.search(r'href="/evenings/(\d+)"', client.get(f"/games/{game}").text).group(1)
    return [f"/evenings/{evening}/board", f"/games/{game}/board"]


def test_the_board_is_the_page_with_its_full_screen_button_and_note_hidden(app):
    client = client_as(app)
    for path in boards(client):
        page = Page(client.get(path))
        assert page.status == 200
        assert page.root.find("header") is None, path
        assert page.root.find("footer") is None, path
        assert page.root.find("form") is None, path  # the language picker is a form
        button = page.by_id("full-screen")
        assert (button.tag, button.get("type"), button.text()) == ("button", "button",
                                                                   "Full screen")
        note = page.by_id("stay-awake-note")
        assert note.text()
        assert "hidden" in button.attrs and "hidden" in note.attrs
        # Outside the board, which each poll replaces: the page's script keeps them.
        board = page.by_id("board")
        assert board.find(id="full-screen") is None and board.find(id="stay-awake-note") is None
        # A poll's answer is the board alone, as before.
        fragment = client.get(path, headers=HTMX).text
        assert fragment.lstrip().startswith('<div id="board"') and "full-screen" not in fragment


def test_other_pages_keep_their_header_and_language_buttons(app):
    client = client_as(app)
    game = start_game_as(client)
    for path in ("/", f"/games/{game}", "/evenings"):
        page = Page(client.get(path))
        assert page.root.find("header") is not None, path
        assert page.root.find("footer").find("form") is not None, path
