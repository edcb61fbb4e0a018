"""The games list: who won each game (by name), which are abandoned or still in play, and
what a member who can't start a game is told while there are none."""
from __future__ import annotations

import json
import re

from scorekeeper.store.models import Game, utcnow
from tests.members import client_as
from tests.sample_games import TRIOS  # two trios to 3: Gus, Ida and Kim (A) win hand 1
from tests.views.view_helpers import Page


def listed(client) -> list[str]:
    page = Page(client.get("/"))
    assert page.status == 200
    items = page.root.find("ul", class_="game-list").find_all("li")
    return [item.find("a").text(gaps=True) for item in items]


def test_a_finished_game_is_won_by_its_players_and_an_abandoned_one_says_so(
        app, client, runner, db, start_game):
    imported = runner.invoke(args=["import-game", "-"], input=json.dumps(TRIOS))
    assert imported.exit_code == 0, imported.output
    won = int(imported.stdout)
    playing = start_game()
    abandoned = start_game()
    game = db.get(Game, abandoned)
    game.abandoned_at = utcnow()
    db.add(game)
    db.commit()

    lines = listed(client)
    assert [line.split(" · ")[0] for line in lines] == [
        f"Game {abandoned}", f"Game {playing}", f"Game {won}"]
    assert lines[0].endswith(" · abandoned")
    assert lines[1].endswith(" · in play, hand 1")
    assert lines[2].endswith(" · won by Gus & Ida & Kim")
    # Each name as typed, isolated from the sentence around it.
    assert re.search(r'won by <span class="partners"><bdi translate=no>Gus</bdi>'
                     r'&nbsp;&amp; <bdi translate=no>Ida</bdi>', client.get("/").text)


def test_with_no_games_a_scorer_is_told_to_start_one_and_a_viewer_to_come_back(app, client):
    scorer, viewer = client_as(app, "scorer"), client_as(app, "viewer")
    for reader in (client, scorer):
        page = Page(reader.get("/"))
        assert "No games yet. Start one: four, five or six players at a table." in page.text
        assert page.root.find("a", href="/games/new") is not None
    page = Page(viewer.get("/"))
    assert page.status == 200
    assert "Start one" not in page.text and page.root.find("a", href="/games/new") is None
    assert ("No games yet. When a scorer starts one, it shows here: come back to this page "
            "then.") in page.text
