"""Labels at the ends of a chart's lines: never on top of each other, never outside."""
from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from scorekeeper.figures.charts import spread


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
