"""The home page follows the club's games: its poll is a 204 while the club has no newer
game than the page lists, goes to tonight's game once a scorer starts it, and lists the
games again for any other new game (one imported from another day). Another club's game
moves nothing; a made-up version gets the list, and changes nothing."""
from __future__ import annotations

import json
import re

from tests.members import client_as, new_club
from tests.new_games import start_game_as
from tests.sample_games import TRIOS
from tests.views.view_helpers import HTMX, Page


def poll_url(html: str) -> str:
    """The address the home page polls (its hidden hx-get element)."""
    match = re.search(r'hx-get="([^"]*/live\?[^"]*)" hx-trigger="load, every 2s"[^>]*'
                      r'hx-target="#games"', html)
    assert match, "the home page does not poll"
    return match.group(1).replace("&amp;", "&")


def test_a_viewers_home_page_goes_to_tonights_game_once_a_scorer_starts_it(app, start_game):
    viewer = client_as(app, "viewer")
    url = poll_url(viewer.get("/").text)
    unchanged = viewer.get(url, headers=HTMX)
    assert unchanged.status_code == 204 and "HX-Redirect" not in unchanged.headers

    game = start_game()  # on the scorer's phone
    moving = viewer.get(url, headers=HTMX)
    assert moving.status_code == 204 and moving.data == b""
    assert moving.headers["HX-Redirect"] == f"/games/{game}"
    # The home page opened again lists the game, and waits for the next one.
    again = viewer.get(poll_url(viewer.get("/").text), headers=HTMX)
    assert again.status_code == 204 and "HX-Redirect" not in again.headers


def test_a_game_of_another_day_is_listed_first_and_the_page_stays(app, client, runner):
    url = poll_url(client.get("/").text)
    imported = runner.invoke(args=["import-game", "-"], input=json.dumps(TRIOS))
    assert imported.exit_code == 0, imported.output
    game = int(imported.stdout)

    answer = client.get(url, headers=HTMX)
    assert answer.status_code == 200 and "HX-Redirect" not in answer.headers
    assert "<html" not in answer.text  # the games alone, for the page's own part
    page = Page(answer)
    (games,) = page.root.find_all("div", id="games")
    assert games.find("ul", class_="game-list").find("a").text(gaps=True).startswith(
        f"Game {game} · ")
    assert client.get(poll_url(answer.text), headers=HTMX).status_code == 204


def test_another_clubs_game_moves_nothing(app, start_game):
    viewer = client_as(app, "viewer")
    start_game()
    url = poll_url(viewer.get("/").text)
    elsewhere = client_as(app, "scorer", club_id=new_club(app, "Elsewhere"))
    start_game_as(elsewhere)
    unchanged = viewer.get(url, headers=HTMX)
    assert unchanged.status_code == 204 and "HX-Redirect" not in unchanged.headers


def test_a_made_up_version_gets_the_list_and_changes_nothing(app, runner, row_counts):
    viewer = client_as(app, "viewer")
    imported = runner.invoke(args=["import-game", "-"], input=json.dumps(TRIOS))
    game = int(imported.stdout)
    before = row_counts()
    for version in ("x", "-1", "99999999999999999999"):
        answer = viewer.get(f"/live?v={version}", headers=HTMX)
        assert answer.status_code == 200, version
        assert f"Game {game}" in Page(answer).text
        assert poll_url(answer.text).endswith(f"v={game}&wait=1")
    assert row_counts() == before
