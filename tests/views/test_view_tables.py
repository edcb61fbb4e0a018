"""An evening at two tables: each table's games, boards and phones follow that table alone;
the evening's page lists every game with its table and one tally for the night."""
from __future__ import annotations

from scorekeeper.store.db import get_connection
from scorekeeper.store.models import Evening, Game
from scorekeeper.table.live import game_head
from tests.views.view_helpers import Page, calls_for, rows

SECOND_TABLE = ["Gus", "Hal", "Ida", "Joe", "Kim", "Lea"]


def start(client, new_game_form, names=None, **fields) -> int:
    form = new_game_form(**({"names": names} if names else {}), **fields)
    response = client.post("/games/new", data=form)
    assert response.status_code == 303, response.get_data(as_text=True)[:600]
    return int(response.headers["Location"].rsplit("/", 1)[1])


def two_tables(client, db, new_game_form) -> tuple[int, int, int]:
    """Table 1 and table 2 of tonight's evening, to 5: (evening, game 1, game 2)."""
    one = start(client, new_game_form, target="5", evening="new")
    evening = rows(db, Evening)[-1].id
    two = start(client, new_game_form, SECOND_TABLE, target="5", evening=str(evening),
                table="2")
    return evening, one, two


def win(play, game: int, number: int = 1) -> None:
    """Seat 2 (B) bids 6 and B takes all six: B reaches 5 and wins."""
    play(game, number, calls_for(1, {2: 6}), "hearts", "BBBBB", "B")


def test_each_game_keeps_its_table_and_the_evening_lists_them(client, db, new_game_form):
    evening, one, two = two_tables(client, db, new_game_form)
    assert {game.id: game.table_number for game in rows(db, Game)} == {one: 1, two: 2}
    page = Page(client.get(f"/evenings/{evening}"))
    listed = [li.text() for li in page.root.find("ul", class_="game-list").find_all("li")]
    assert listed[0].startswith(f"Table 1 · Game {one}") and listed[1].startswith(f"Table 2 · Game {two}")
    boards = [a.get("href") for a in page.root.find_all("a") if "/board" in a.get("href", "")]
    assert boards == [f"/evenings/{evening}/board", f"/evenings/{evening}/board?table=2"]


def test_a_tables_board_shows_its_game_and_a_line_for_the_other(client, db, play, new_game_form):
    evening, one, two = two_tables(client, db, new_game_form)
    play(one, 1, calls_for(1, {2: 3}), "hearts", "AABBC", "B")  # A 2, B 3, C 1
    board = Page(client.get(f"/evenings/{evening}/board?table=2"))
    assert board.root.find(id="board").get("data-game") == str(two)
    assert board.section_text("board-table") == "Table 2"
    assert board.section_text("other-tables") == f"Table 1, game {one}: A 2 · B 3 · C 1"
    first = Page(client.get(f"/evenings/{evening}/board"))
    assert first.root.find(id="board").get("data-game") == str(one)


def test_a_phone_on_a_finished_game_follows_its_own_table(app, client, db, play, new_game_form):
    evening, one, two = two_tables(client, db, new_game_form)
    win(play, one)
    # Table 2 starts another game: not table 1's next, so table 1's phones stay.
    three = start(client, new_game_form, SECOND_TABLE, target="5", evening=str(evening),
                  table="2")
    club_id = rows(db, Game)[0].club_id
    with app.app_context():
        assert game_head(get_connection(), club_id, one).moved_on_to() is None
        assert game_head(get_connection(), club_id, two).moved_on_to() == three
    # Table 1's next game, offered with its table: table 1's phones move to it.
    over = Page(client.get(f"/games/{one}"))
    next_game = next(a.get("href") for a in over.root.find_all("a")
                     if a.get("href", "").startswith("/games/new?"))
    assert "table=" not in next_game  # the first table: the form's default
    four = start(client, new_game_form, target="5", evening=str(evening))
    with app.app_context():
        assert game_head(get_connection(), club_id, one).moved_on_to() == four


def test_the_next_game_at_table_two_is_offered_at_table_two(client, db, play, new_game_form):
    _evening, _one, two = two_tables(client, db, new_game_form)
    win(play, two)
    over = Page(client.get(f"/games/{two}"))
    links = [a.get("href") for a in over.root.find_all("a")
             if a.get("href", "").startswith("/games/new?")]
    assert links and all("table=2" in link for link in links)
    form = Page(client.get(links[0]))
    assert form.root.find("input", name="table").get("value") == "2"


def test_a_table_out_of_range_is_refused_and_no_game_starts(client, db, new_game_form):
    for bad in ("0", "10", "two"):
        response = client.post("/games/new", data=new_game_form(table=bad))
        assert response.status_code == 422
        assert "Table" in Page(response).text
    assert rows(db, Game) == []
