"""A player's trend chart tells each evening's story: one point per game, the rates as they
stood after it, and each evening's number under its last game. The table below stays
evening by evening.

Games to 5, three pairs, Ann dealing; Bob (seat 2, team B) speaks first. "Bob wins": he
bids 6 and B takes all six points; "Bob is set": he bids 3 and A takes all six.
"""
from __future__ import annotations

from tests.views.test_view_trend import BOB_IS_SET, BOB_WINS, bob_page, svg, trend_rows


def marks(page) -> dict[str, list[tuple[float, float]]]:
    """Each rate's marks, (x, y), left to right: dots for the win rate, squares for the
    made rate (a square's corner moved to its middle)."""
    chart = svg(page)
    dots = [(float(c.get("cx")), float(c.get("cy"))) for c in chart.find_all("circle")]
    squares = [(float(r.get("x")) + 3, float(r.get("y")) + 3) for r in chart.find_all("rect")]
    return {"win_rate": dots, "made_rate": squares}


def test_a_first_evening_of_three_games_is_three_points(client, db, start_game, play):
    for hand in (BOB_WINS, BOB_IS_SET, BOB_WINS):  # all three at tonight's evening
        game = start_game(target="5")
        play(game, 1, *hand)
    page = bob_page(client, db)
    drawn = marks(page)
    assert [len(drawn[figure]) for figure in drawn] == [3, 3]
    xs = [x for x, _ in drawn["win_rate"]]
    assert xs == sorted(xs) and len(set(xs)) == 3
    # 100 %, then 50 % (1 of 2), then 67 % (2 of 3): lower is further down the picture.
    ys = [y for _, y in drawn["win_rate"]]
    assert ys[0] < ys[2] < ys[1]
    assert drawn["made_rate"] == drawn["win_rate"]
    chart = svg(page)
    assert len(chart.find_all("polyline")) == 2  # a line for each rate, within the evening
    ticks = chart.find_all("text", class_="evening-tick")
    assert [(float(t.get("x")), t.text()) for t in ticks] == [(xs[-1], "1")]
    summary = page.section_text("trend-summary")
    assert "Each as it stood after the game." in summary
    assert "One evening so far" not in summary
    assert [row[0] for row in trend_rows(page)] == ["1"]  # the table: evening by evening


def test_the_next_evening_is_numbered_under_its_last_game(client, db, start_game, play):
    for hand, evening in ((BOB_WINS, "new"), (BOB_IS_SET, None), (BOB_WINS, "new")):
        game = start_game(target="5", **({"evening": evening} if evening else {}))
        play(game, 1, *hand)
    page = bob_page(client, db)
    xs = [x for x, _ in marks(page)["win_rate"]]
    assert len(xs) == 3
    ticks = svg(page).find_all("text", class_="evening-tick")
    assert [(float(t.get("x")), t.text()) for t in ticks] == [(xs[1], "1"), (xs[2], "2")]
    assert [row[0] for row in trend_rows(page)] == ["1", "2"]
