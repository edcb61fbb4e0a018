"""An evening at two tables: each table's games, boards and phones follow that table alone;
the evening's page lists every game with its table and one tally for the night, and the
evening board shows every table at once, following each to its next game."""
from __future__ import annotations

from scorekeeper.store.db import get_connection
from scorekeeper.store.models import Evening, Game
from scorekeeper.table.live import game_head
from tests.members import client_as, new_club
from tests.views.test_view_table_board import poll_of
from tests.views.view_helpers import HTMX, Page, calls_for, rows

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


# --- the evening board: every table at once -------------------------------------------------

def table_shown(page: Page, number: int) -> dict:
    """What the evening board shows of table ``number``: its game, each team's score and
    players, and the line under them."""
    section = page.by_id(f"table-{number}")
    assert section is not None, f"no table {number} on the board"
    teams = {item.find("span", class_="board-letter").text(): (
        item.find("span", class_="board-score").get("aria-label"),
        item.find("span", class_="board-names").text())
        for item in section.find_all("li", class_="board-team")}
    return {"game": int(section.get("data-game")), "title": section.find("h2").text(),
            "teams": teams, "line": section.find("p", class_="board-line").text()}


def test_the_evening_board_shows_every_table_with_its_scores(client, db, play, new_game_form):
    evening, one, two = two_tables(client, db, new_game_form)
    play(one, 1, calls_for(1, {2: 3}), "hearts", "AABBC", "B")  # A 2, B 3, C 1
    board = client.get(f"/evenings/{evening}/tables")
    assert board.status_code == 200
    page = Page(board)
    first, second = table_shown(page, 1), table_shown(page, 2)
    assert {game.id: game.table_number for game in rows(db, Game)} == {
        first["game"]: 1, second["game"]: 2} == {one: 1, two: 2}
    assert first["title"] == "Table 1" and second["title"] == "Table 2"
    assert first["teams"] == {"A": ("Team A: 2 points", "Ann & Dan"),
                              "B": ("Team B: 3 points", "Bob & Eve"),
                              "C": ("Team C: 1 points", "Cid & Fay")}
    assert second["teams"] == {"A": ("Team A: 0 points", "Gus & Joe"),
                               "B": ("Team B: 0 points", "Hal & Kim"),
                               "C": ("Team C: 0 points", "Ida & Lea")}
    assert first["line"] == "Hand 2. Dealer: Bob." and second["line"] == "Hand 1. Dealer: Gus."
    assert page.by_id("board-tally") is None  # no game won yet
    links = [a.get("href") for a in page.root.find(class_="board-back").find_all("a")]
    assert links == [f"/evenings/{evening}/board", f"/evenings/{evening}/board?table=2",
                     f"/evenings/{evening}"]


def test_the_evening_board_and_each_table_board_lead_to_each_other(
        client, db, new_game_form):
    evening, _one, _two = two_tables(client, db, new_game_form)
    for url in (f"/evenings/{evening}", f"/evenings/{evening}/board",
                f"/evenings/{evening}/board?table=2"):
        page = Page(client.get(url))
        (link,) = [a for a in page.root.find_all("a") if a.text() == "All tables"]
        assert link.get("href") == f"/evenings/{evening}/tables", url


def test_with_one_table_the_evening_board_shows_it_and_nothing_leads_there(
        client, evening):
    game = evening.game()
    for url in (f"/evenings/{evening.id}", f"/evenings/{evening.id}/board"):
        assert "/tables" not in client.get(url).text, url
    page = Page(client.get(f"/evenings/{evening.id}/tables"))
    assert table_shown(page, 1)["game"] == game and page.by_id("table-2") is None
    links = [a.get("href") for a in page.root.find(class_="board-back").find_all("a")]
    assert links == [f"/evenings/{evening.id}"]  # no table boards: the evening's page alone


def test_the_evening_board_follows_every_table_to_its_next_game(
        app, client, db, play, new_game_form):
    evening, one, two = two_tables(client, db, new_game_form)
    tv = client_as(app, "viewer", name="TV")
    url = poll_of(tv.get(f"/evenings/{evening}/tables").text)
    assert url.startswith(f"/evenings/{evening}/tables/live?v=")
    assert tv.get(url, headers=HTMX).status_code == 204  # nothing changed: nothing sent

    # A hand at table 2: the board brings its new scores, table 1 as it was.
    play(two, 1, calls_for(1, {2: 3}), "hearts", "AABBC", "B")
    moved = tv.get(url, headers=HTMX)
    assert moved.status_code == 200 and moved.text.lstrip().startswith('<div id="board"')
    assert table_shown(Page(moved), 2)["teams"]["B"][0] == "Team B: 3 points"
    assert table_shown(Page(moved), 1)["line"] == "Hand 1. Dealer: Ann."
    url = poll_of(moved.text)
    assert tv.get(url, headers=HTMX).status_code == 204

    # Table 1's game is won: "over", its winners, and the evening's games won below.
    win(play, one)
    over = Page(tv.get(url, headers=HTMX))
    assert table_shown(over, 1)["line"] == "over · Bob & Eve win!"
    assert table_shown(over, 2)["line"] == "Hand 2. Dealer: Hal."
    tally = over.section_text("board-tally")
    assert tally.startswith("Games won this evening") and "Bob 1" in tally and "Gus 0" in tally
    url = poll_of(over.html)

    # Table 1's next game starts on a phone: the board moves on to it by itself.
    three = start(client, new_game_form, target="5", evening=str(evening))
    following = Page(tv.get(url, headers=HTMX))
    assert table_shown(following, 1)["game"] == three
    assert table_shown(following, 1)["line"] == "Hand 1. Dealer: Ann."
    assert table_shown(following, 2)["game"] == two
    assert tv.get(poll_of(following.html), headers=HTMX).status_code == 204


def test_another_clubs_evening_board_is_no_page(app, client, stranger, db, new_game_form):
    evening, _one, _two = two_tables(client, db, new_game_form)
    other_club = client_as(app, "owner", name="Olga", club_id=new_club(app, "Elsewhere"))
    for url in (f"/evenings/{evening}/tables", f"/evenings/{evening}/tables/live?v=1"):
        assert stranger.get(url).status_code == 404
        assert other_club.get(url).status_code == 404
    for url in ("/evenings/999/tables", "/evenings/999/tables/live?v=1",
                "/evenings/99999999999/tables/live?v=1"):
        assert client.get(url).status_code == 404
