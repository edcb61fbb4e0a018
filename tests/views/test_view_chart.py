"""The game's score chart: drawn on the server, and said in words too.

Ann deals hand 1 (target 21). Hand 1: Bob (B) bids 4, takes Low and Right only: set.
A High + Game = 2, B −4, C Left + Joker = 2. Hand 2: Bob deals, all pass (thrown in).
"""
from __future__ import annotations

import pytest

from scorekeeper.store.db import get_session
from tests.members import first_club
from tests.new_games import SEAT_NAMES as SIX_ALONE
from tests.table_games import P, game_at, played
from tests.views.view_helpers import THROW_IN, Page, calls_for


def polyline_points(page: Page, team: str) -> list[tuple[float, float]]:
    (line,) = [p for p in page.root.find_all("polyline") if p.get("data-team") == team]
    return [tuple(map(float, pair.split(","))) for pair in line.get("points").split()]


def chart_of(client, page: Page) -> Page:
    """The chart the game page shows: an image of its own, fetched as the phone does."""
    (image,) = page.root.find("figure", class_="chart").find_all("img")
    response = client.get(image.get("src"))
    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"
    return Page(response)


def test_no_chart_before_the_first_hand(client, start_game):
    game = start_game()
    assert Page(client.get(f"/games/{game}")).root.find("figure", class_="chart") is None
    assert client.get(f"/games/{game}/chart.svg").status_code == 404


def test_one_line_per_team_through_every_deal_with_the_target_marked(client, start_game,
                                                                     play):
    game = start_game()
    play(game, 1, calls_for(1, {2: 4}), "hearts", "ABBCC", "A")
    play(game, 2, THROW_IN)
    page = Page(client.get(f"/games/{game}"))
    chart = chart_of(client, page)
    (svg,) = chart.root.find_all("svg")
    assert svg.get("role") == "img"
    lines = {team: polyline_points(chart, team) for team in "ABC"}
    assert all(len(points) == 3 for points in lines.values())  # the start and two deals
    y = {team: [point[1] for point in points] for team, points in lines.items()}
    # Screen y grows downwards: A and C rise to 2, B falls to −4; the throw-in is flat.
    assert y["A"][0] == y["B"][0] == y["C"][0]
    assert y["A"][1] < y["A"][0] and y["A"][1] == y["A"][2] == y["C"][1] == y["C"][2]
    assert y["B"][1] > y["B"][0] and y["B"][1] == y["B"][2]
    # The scale is linear: 0 -> 2 is a third of 0 -> −4, the other way.
    assert (y["A"][0] - y["A"][1]) * 2 == pytest.approx(y["B"][1] - y["B"][0], abs=0.2)
    target_line = [line for line in chart.root.find_all("line")
                   if line.get("stroke-dasharray") == "1 4"]
    assert len(target_line) == 1 and float(target_line[0].get("y1")) < min(y["A"])
    summary = page.section_text("chart-summary")
    assert "After 2 hands: A (Ann & Dan) 2, B (Bob & Eve) −4, C (Cid & Fay) 2." in summary
    assert "the target, 21" in summary


def test_the_chart_is_kept_by_the_phone_until_the_game_changes(client, start_game, play):
    game = start_game()
    play(game, 1, calls_for(1, {2: 4}), "hearts", "ABBCC", "A")
    src = Page(client.get(f"/games/{game}")).root.find("figure", class_="chart").find("img")
    first = client.get(src.get("src"))
    assert "immutable" in first.headers["Cache-Control"]
    assert first.headers["Cache-Control"].startswith("private")  # a member's, no proxy's
    play(game, 2, THROW_IN)
    later = Page(client.get(f"/games/{game}")).root.find("figure", class_="chart").find("img")
    assert later.get("src") != src.get("src")  # a new address for the game as it is now
    assert client.get(src.get("src")).headers["Cache-Control"] == "no-cache"


def test_the_chart_speaks_the_language_its_address_names(client, start_game, play):
    game = start_game()
    play(game, 1, calls_for(1, {2: 4}), "hearts", "ABBCC", "A")
    client.set_cookie("lang", "fa")
    src = Page(client.get(f"/games/{game}")).root.find("figure", class_="chart").find("img")
    assert "lang=fa" in src.get("src")
    svg = client.get(src.get("src")).text
    assert "۲۱" in svg and ">21<" not in svg  # the target, in Persian digits
    assert 'points="' in svg and "۰" not in svg.split('points="')[1].split('"')[0]


def test_axis_labels_never_sit_on_top_of_each_other(client, start_game, play):
    """A team one point over the target (36 against 35) gets no label of its own."""
    game = start_game(target="35")
    for number in range(1, 7):  # B takes all six, six times: 36 against 35
        play(game, number, calls_for(number, {2: 6}), "hearts", "BBBBB", "B")
    page = Page(client.get(f"/games/{game}"))
    chart = chart_of(client, page)
    labels = [(float(t.get("y")), t.text()) for t in chart.root.find_all("text")
              if t.get("text-anchor") == "end"]
    ys = sorted(y for y, _ in labels)
    assert all(b - a >= 12 for a, b in zip(ys, ys[1:])), labels
    assert {"0", "35"} <= {text for _, text in labels}


def end_letters(chart: Page) -> dict[str, float]:
    """Team -> the y of its letter at its line's end."""
    return {t.text(): float(t.get("y")) for t in chart.root.find_all("text")
            if t.text() in ("A", "B", "C") and t.get("font-weight") == "700"}


@pytest.mark.parametrize("hands, together", [
    # A and C both end on 2 (B on −4).
    ([(calls_for(1, {2: 4}), "hearts", "ABBCC", "A")], "AC"),
    # A throw-in: all three end on 0.
    ([(THROW_IN,)], "ABC"),
])
def test_letters_of_lines_ending_on_one_score_are_moved_apart(client, start_game, play,
                                                              hands, together):
    game = start_game()
    for number, hand in enumerate(hands, start=1):
        play(game, number, *hand)
    chart = chart_of(client, Page(client.get(f"/games/{game}")))
    ends = {team: polyline_points(chart, team)[-1][1] for team in "ABC"}
    assert len({ends[team] for team in together}) == 1  # the lines end on one value
    letters = end_letters(chart)
    ys = sorted(letters[team] for team in together)
    assert all(b - a >= 12 for a, b in zip(ys, ys[1:])), letters
    (svg,) = chart.root.find_all("svg")
    height = float(svg.get("height"))
    # Inside the picture, and above the deal numbers along its bottom.
    assert all(12 <= y <= height - 12 for y in letters.values()), letters
    # Each letter stays near its own line's end: no further than the bunch needs.
    assert all(abs(letters[team] - 4 - ends[team]) <= 12 * (len(together) - 1)
               for team in together)
    # Top to bottom in team order.
    assert sorted(together, key=letters.get) == list(together)


def test_six_alone_have_a_line_each(app, client):
    """Cutthroat at six: a line for each of the six players, D, E and F too."""
    with app.app_context():
        session = get_session()
        game = game_at(session, first_club(session), "c6", SIX_ALONE, 1, [
            played((P, 3, P, P, P, P), "spades", "CDEFA", "B")])
        game_id = game.id
    chart = Page(client.get(f"/games/{game_id}/chart.svg"))
    # Seat 3 (C) bid 3 and took High only: C -3; D, E, F and A a point each, B Game.
    ends = {team: polyline_points(chart, team)[-1][1] for team in "ABCDEF"}
    assert len(set(ends.values())) == 2
    assert ends["C"] > ends["A"] == ends["B"] == ends["D"] == ends["E"] == ends["F"]
    assert [label.text() for label in chart.root.find_all("text")
            if label.get("class", "").startswith("team-")] == list("ABCDEF")
