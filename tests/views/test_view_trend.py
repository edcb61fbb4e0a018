"""A player's record over the evenings: drawn from the first evening on, each evening
numbered along the chart and dated in the table, two evenings of one date told apart.

Every game here is three pairs to 5 with Ann dealing; Bob (seat 2, team B with Eve) is
the first to speak. "Bob wins": he bids 6 and B takes all six points (B 6, won, made).
"Bob is set": he bids 3 and A takes all six (B −3, A 6: A wins; Bob's bid set).
"""
from __future__ import annotations

from datetime import date, timedelta

from babel.dates import format_date

from scorekeeper.figures.charts import HEIGHT, LABEL_GAP, WIDTH
from scorekeeper.store.models import Evening, Game, Player
from tests.views.view_helpers import Page, calls_for, rows

BOB_WINS = (calls_for(1, {2: 6}), "hearts", "BBBBB", "B")
BOB_IS_SET = (calls_for(1, {2: 3}), "hearts", "AAAAA", "A")


def evening_game(start_game, play, hand, evening="new") -> int:
    game = start_game(target="5", evening=evening)
    play(game, 1, *hand)
    return game


def bob_page(client, db) -> Page:
    (bob,) = rows(db, Player, Player.name == "Bob")
    page = Page(client.get(f"/players/{bob.id}"))
    assert page.status == 200
    return page


def trend_rows(page: Page) -> list[list[str]]:
    table = page.by_id("trend-table")
    assert table is not None, page.text[-2000:]
    return [[cell.text() for cell in row.iter() if cell.tag in ("th", "td")]
            for row in table.find("tbody").find_all("tr")]


def svg(page: Page):
    (chart,) = page.root.find("figure", class_="trend-chart").find_all("svg")
    return chart


def end_labels(page: Page) -> dict[str, tuple[float, float, str]]:
    """The figure -> (x, y, text) of the value written at each line's end."""
    return {t.get("data-figure"): (float(t.get("x")), float(t.get("y")), t.text())
            for t in svg(page).find_all("text", class_="trend-end")}


def day(played_on: date) -> str:
    return format_date(played_on, locale="en")


def evenings_of(db, *game_ids) -> list[Evening]:
    db.expire_all()
    return [db.get(Evening, db.get(Game, game_id).evening_id) for game_id in game_ids]


def test_one_evening_is_drawn_as_one_mark_per_rate_and_says_so(client, db, start_game, play):
    game = evening_game(start_game, play, BOB_WINS)
    page = bob_page(client, db)
    chart = svg(page)
    assert chart.get("role") == "img"
    assert chart.get("aria-labelledby") == "trend-title trend-summary"
    assert chart.find_all("polyline") == []  # no line from one evening
    (dot,) = chart.find_all("circle")  # the win rate
    (square,) = chart.find_all("rect")  # the made rate
    assert float(dot.get("cx")) == float(square.get("x")) + 3  # both in the middle
    assert [t.text() for t in chart.find_all("text", class_="evening-tick")] == ["1"]
    summary = page.section_text("trend-summary")
    assert "One evening so far: one mark for each rate, and the lines start with the next " \
           "evening." in summary
    assert "Along the bottom, Bob's evenings by number (1: the first); the table below " \
           "dates them." in summary
    (evening,) = evenings_of(db, game)
    assert trend_rows(page) == [["1", day(evening.played_on), "100%", "100%"]]
    assert [th.text() for th in page.by_id("trend-table").find("thead").find_all("th")] == [
        "Evening", "Date", "Win rate", "Made rate"]
    link = page.by_id("trend-table").find("tbody").find("a").get("href")
    assert link == f"/evenings/{evening.id}"


def test_two_evenings_on_one_date_are_told_apart(client, db, start_game, play):
    first = evening_game(start_game, play, BOB_WINS)
    second = evening_game(start_game, play, BOB_IS_SET)
    one, two = evenings_of(db, first, second)
    assert one.id != two.id and one.played_on == two.played_on
    page = bob_page(client, db)
    # After the second: 1 won of 2 finished, 1 made of 2 bids.
    assert trend_rows(page) == [["1", f"{day(one.played_on)} (1)", "100%", "100%"],
                                ["2", f"{day(one.played_on)} (2)", "50%", "50%"]]
    chart = svg(page)
    assert [t.text() for t in chart.find_all("text", class_="evening-tick")] == ["1", "2"]
    assert {line.get("data-figure") for line in chart.find_all("polyline")} == {
        "win_rate", "made_rate"}
    assert "One evening so far" not in page.text


def test_evenings_on_different_dates_carry_their_dates_alone(client, db, start_game, play):
    first = evening_game(start_game, play, BOB_WINS)
    second = evening_game(start_game, play, BOB_IS_SET)
    one, two = evenings_of(db, first, second)
    one.played_on = two.played_on - timedelta(days=7)
    db.add(one)
    db.commit()
    assert trend_rows(bob_page(client, db)) == [
        ["1", day(two.played_on - timedelta(days=7)), "100%", "100%"],
        ["2", day(two.played_on), "50%", "50%"]]


def test_another_evening_of_the_club_that_date_numbers_bobs(client, db, start_game, play):
    """Bob2's only evening was the club's second of its date: "(2)", as the club counts
    them, though it is Bob2's first."""
    evening_game(start_game, play, BOB_WINS)
    game = start_game(target="5", evening="new",
                      names=["Ann", "Bob2", "Cid", "Dan", "Eve", "Fay"])
    (evening,) = evenings_of(db, game)
    (bob2,) = rows(db, Player, Player.name == "Bob2")
    page = Page(client.get(f"/players/{bob2.id}"))
    assert trend_rows(page) == [["1", f"{day(evening.played_on)} (2)", "—", "—"]]
    # No finished game and no bid yet: nothing to draw, and the page says so.
    assert page.root.find("figure", class_="trend-chart") is None
    assert "No rate to draw yet: Bob2 has no finished game and no bid." in page.text


def test_end_labels_on_one_value_are_moved_apart(client, db, start_game, play):
    evening_game(start_game, play, BOB_WINS)  # 100% and 100%
    labels = end_labels(bob_page(client, db))
    assert {figure: text for figure, (_, _, text) in labels.items()} == {
        "win_rate": "100%", "made_rate": "100%"}
    ys = sorted(y for _, y, _ in labels.values())
    assert ys[1] - ys[0] >= LABEL_GAP
    assert all(10 <= y <= HEIGHT and x < WIDTH - 25 for x, y, _ in labels.values())
    evening_game(start_game, play, BOB_IS_SET)  # 50% and 50%
    ys = sorted(y for _, y, _ in end_labels(bob_page(client, db)).values())
    assert ys[1] - ys[0] >= LABEL_GAP


def test_a_long_history_numbers_its_evenings_along_the_bottom(client, db, start_game, play):
    games = [evening_game(start_game, play, BOB_WINS if n % 2 else BOB_IS_SET)
             for n in range(8)]
    page = bob_page(client, db)
    assert [row[0] for row in trend_rows(page)] == [str(n) for n in range(1, 9)]
    assert [row[1] for row in trend_rows(page)] == [
        f"{day(evenings_of(db, games[0])[0].played_on)} ({n})" for n in range(1, 9)]
    # At most six numbers, the latest always among them.
    ticks = [t.text() for t in svg(page).find_all("text", class_="evening-tick")]
    assert ticks == ["2", "4", "6", "8"]
