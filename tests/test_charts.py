"""Labels at the ends of a chart's lines: never on top of each other, never outside."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from scorekeeper.figures.charts import TEAM_STYLE, spread
from scorekeeper.rules import TeamLayout, teams_for
from tests.test_contrast import DARK, LIGHT


@pytest.mark.parametrize("wanted, placed", [
    ([50, 80, 120], [50, 80, 120]),  # far enough apart: left where they are
    ([50, 50], [44, 56]),  # one value: moved apart around it
    ([50, 50, 50], [38, 50, 62]),
    ([20, 25, 100], [16.5, 28.5, 100]),  # only the two that crowd
    ([150, 158, 158], [134, 146, 158]),  # at the bottom: the bunch moves up
    ([10, 10], [10, 22]),  # at the top: down
])
def test_labels_that_would_overlap_are_moved_apart_just_enough(wanted, placed):
    assert spread(wanted, 12, 10, 158) == pytest.approx(placed)


@given(st.lists(st.floats(0, 200), min_size=1, max_size=3).map(sorted))
def test_labels_are_always_a_gap_apart_and_inside(wanted):
    placed = spread(wanted, 12, 10, 158)
    assert all(b - a >= 12 - 1e-9 for a, b in zip(placed, placed[1:]))
    assert all(10 - 1e-9 <= y <= 158 + 1e-9 for y in placed)


def a_game(target: int, *scores: dict[str, int]):
    """What the score chart reads of a game: its teams, target and each deal's scores."""
    from types import SimpleNamespace

    rules = SimpleNamespace(team_names=("A", "B", "C"), target=target)
    deals = [SimpleNamespace(scores_after=after) for after in scores]
    return SimpleNamespace(rules=rules, state=SimpleNamespace(deals=deals))


@pytest.mark.parametrize("low", [-1, -2, -3, -4, -6])
def test_a_low_score_just_under_0_never_crowds_the_0(low):
    """Figures along the side are a line and a half apart (11 px type): a low just under
    0 is left out, one further down is written."""
    from scorekeeper.figures.charts import score_chart

    chart = score_chart(a_game(21, {"A": low, "B": 4, "C": 2}))
    places = sorted(y for y, _value in chart.y_ticks)
    assert all(b - a >= 16 for a, b in zip(places, places[1:])), chart.y_ticks
    assert {0, 21} <= {value for _y, value in chart.y_ticks}
    # The lowest score is the chart's foot (158 px down): written if 16 px under the 0.
    written = {value for _y, value in chart.y_ticks}
    assert (low in written) == (158 - chart.zero_y >= 16), chart.y_ticks


@pytest.mark.parametrize("layout", list(TeamLayout))
def test_every_team_of_every_table_has_a_line_of_its_own(layout):
    """Up to six teams (cutthroat at six): each line its own colour and dashes, the
    stylesheet's colour for its letter, and every label a gap apart inside the chart."""
    from scorekeeper.figures.charts import HEIGHT, BOTTOM, TOP, score_chart

    teams = tuple(teams_for(layout))
    game = a_game(21, {team: 0 for team in teams}, {team: 1 for team in teams})
    game.rules.team_names = teams
    chart = score_chart(game)
    assert [line.name for line in chart.lines] == list(teams)
    assert len({(line.colour, line.dashes) for line in chart.lines}) == len(teams)
    assert {line.colour for line in chart.lines} == {
        LIGHT[f"team-{team}"] for team in teams}
    labels = sorted(line.label_y for line in chart.lines)
    assert all(b - a >= 12 - 0.1 for a, b in zip(labels, labels[1:]))
    assert all(TOP - 0.1 <= y - 4 <= HEIGHT - BOTTOM + 0.1 for y in labels)


def test_the_charts_dark_colours_are_the_stylesheets():
    """The chart, an image of its own, draws each team's line in the dark palette's
    colour for its letter when the phone is set to dark."""
    svg = (Path(__file__).resolve().parent.parent / "templates" / "chart.svg").read_text()
    dark = svg[svg.index("@media (prefers-color-scheme: dark)"):]
    strokes = dict(re.findall(r"polyline\.team-([A-F]) \{ stroke: (#[0-9a-f]+); \}", dark))
    assert strokes == {team: DARK[f"team-{team}"] for team in TEAM_STYLE}
