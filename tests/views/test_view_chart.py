"""The game's score chart: drawn on the server, and said in words too.

Ann deals hand 1 (target 21). Hand 1: Bob (B) bids 4, takes Low and Right only: set.
A High + Game = 2, B −4, C Left + Joker = 2. Hand 2: Bob deals, all pass (thrown in).
"""
from __future__ import annotations

import pytest

from view_helpers import THROW_IN, Page, calls_for


def polyline_points(page: Page, team: str) -> list[tuple[float, float]]:
    (line,) = [p for p in page.root.find_all("polyline") if p.get("data-team") == team]
    return [tuple(map(float, pair.split(","))) for pair in line.get("points").split()]


def test_no_chart_before_the_first_hand(client, start_game):
    game = start_game()
    assert Page(client.get(f"/games/{game}")).root.find("svg") is None


def test_one_line_per_team_through_every_deal_with_the_target_marked(client, start_game,
                                                                     play):
    game = start_game()
    play(game, 1, calls_for(1, {2: 4}), "hearts", "ABBCC", "A")
    play(game, 2, THROW_IN)
    page = Page(client.get(f"/games/{game}"))
    (svg,) = page.root.find_all("svg")
    assert svg.get("role") == "img"
    lines = {team: polyline_points(page, team) for team in "ABC"}
    assert all(len(points) == 3 for points in lines.values())  # the start and two deals
    y = {team: [point[1] for point in points] for team, points in lines.items()}
    # Screen y grows downwards: A and C rise to 2, B falls to −4; the throw-in is flat.
    assert y["A"][0] == y["B"][0] == y["C"][0]
    assert y["A"][1] < y["A"][0] and y["A"][1] == y["A"][2] == y["C"][1] == y["C"][2]
    assert y["B"][1] > y["B"][0] and y["B"][1] == y["B"][2]
    # The scale is linear: 0 -> 2 is a third of 0 -> −4, the other way.
    assert (y["A"][0] - y["A"][1]) * 2 == pytest.approx(y["B"][1] - y["B"][0], abs=0.2)
    target_line = [line for line in page.root.find_all("line")
                   if line.get("stroke-dasharray") == "1 4"]
    assert len(target_line) == 1 and float(target_line[0].get("y1")) < min(y["A"])
    summary = page.section_text("chart-summary")
    assert "After 2 hands: A (Ann & Dan) 2, B (Bob & Eve) −4, C (Cid & Fay) 2." in summary
    assert "the target, 21" in summary
