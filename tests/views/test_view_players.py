"""The leaderboard, its CSV and each player's page, on a small history played through the
app. Every figure below was worked out by hand from RULES.md.

The history is the one of tests/test_stats.py (three pairs, target 5; owners are the teams
taking High, Low, Right, Left, Joker, then Game, "none" when the most value was tied):

Game 1, Ann deals first. Seats Ann Bob Cid Dan Eve Fay: A = Ann & Dan, B = Bob & Eve,
  C = Cid & Fay.  1. thrown in (Ann deals again).  2. Bob bids 4; A B B C C, Game A:
  A 2, B 2, C 2, Bob set.  3. Bob deals, Dan bids 3; A A A B C, Game tied: A 3 made,
  scores A 5, B -3, C 3: Ann & Dan win.
Game 2, Ann deals. Seats Ann Gus Cid Bob Dan Fay: A = Ann & Bob, B = Gus & Dan,
  C = Cid & Fay.  1. Gus 3, Cid 4, Dan 5: B B B B A, Game B: B 5 made: Gus & Dan win.
Game 3, Cid deals first, seated as game 1, still in play.  1. Fay bids 6; C C C A C,
  Game C: C 5, set.  2. Dan deals: thrown in.  3. Dan deals again and bids 3;
  A C A B B, Game tied: A 2, set. Scores A -2, B 2, C -5.

Per player (played, won, lost, win rate = won / finished games; bids, made, set, made
rate, points taken per bid = points the bidding team took / bids; hands played; each
point taken per hand; all points taken per hand; throw-ins dealt):
  Ann  3 1 1 50%   0 0 0  —    —    5  H3 L1 R2 Lf1 J1 G1 = 9/5   throw-ins 1
  Bob  3 0 2 0%    1 0 1  0%   2.0  5  H0 L1 R1 Lf2 J2 G0 = 6/5
  Cid  3 0 2 0%    0 0 0  —    —    5  H1 L2 R1 Lf1 J3 G1 = 9/5
  Dan  3 2 0 100%  3 2 1  67%  3.3  5  H4 L2 R3 Lf2 J0 G2 = 13/5  throw-ins 1
        (bids: 3 made with 3 taken, 5 made with 5, 3 set with 2: 10 / 3 = 3.33)
  Eve  2 0 1 0%    0 0 0  —    —    4  H0 L1 R1 Lf2 J1 G0 = 5/4
  Fay  3 0 2 0%    1 0 1  0%   5.0  5  H1 L2 R1 Lf1 J3 G1 = 9/5
  Gus  1 1 0 100%  0 0 0  —    —    1  H1 L1 R1 Lf1 J0 G1 = 5/1
"""
from __future__ import annotations

import csv
import io
from datetime import datetime, timezone

import pytest
from sqlalchemy import event

from scorekeeper.store.models import Club, ClubSummary, Game, Player, SeatSummary
from tests.views.view_helpers import THROW_IN, Page, calls_for, rows

FIRST = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"]
SECOND = ["Ann", "Gus", "Cid", "Bob", "Dan", "Fay"]
# Every figure, in the CSV's order, and the CSV's headings.
FIGURE_KEYS = ["played", "won", "lost", "win_rate", "bids", "made", "set", "made_rate",
               "taken", "hands", "high", "low", "right", "left", "joker", "game", "points",
               "throw_ins"]
# The ratings' columns (tests/views/test_view_ratings.py checks their figures): the
# page's two, and in the CSV openskill's mu and sigma beside them.
RATING_HEADINGS = ["Rating", "Rated games"]
CSV_RATING_HEADINGS = [*RATING_HEADINGS, "openskill μ", "openskill σ"]
HEADINGS = [
    "Player", "Played", "Won", "Lost", "Win rate", "Bids", "Made", "Set", "Made rate",
    "Points taken per bid", "Hands played", "High per hand", "Low per hand",
    "Right Bauer per hand", "Left Bauer per hand", "Joker per hand", "Game per hand",
    "All points taken per hand", "Throw-ins dealt", *CSV_RATING_HEADINGS,
]
# The groups of columns a phone shows one at a time: (key, link text, the figures shown,
# their headings on the page, the figure the group's link sorts by).
GROUPS = [
    ("games", "Games", ["played", "won", "lost", "win_rate"],
     ["Played", "Won", "Lost", "Win rate"], "win_rate"),
    ("bids", "Bids", ["bids", "made", "set", "made_rate"],
     ["Bids", "Made", "Set", "Made rate"], "made_rate"),
    ("hands", "Hands", ["hands", "points", "taken", "throw_ins"],
     ["Hands played", "All points taken per hand", "Points taken per bid", "Throw-ins dealt"],
     "points"),
    ("high", "High, Low, Bauers", ["high", "low", "right", "left"],
     ["High", "Low", "Right Bauer", "Left Bauer"], "high"),
    ("joker", "Joker, Game", ["joker", "game"], ["Joker", "Game"], "joker"),
]
GROUP_OF = {key: group for group, _title, keys, _headings, _sort in GROUPS for key in keys}
SORT_KEYS = ["name", *FIGURE_KEYS]
# The rows of the table above as the page writes them.
ROWS = {
    "Ann": ["3", "1", "1", "50%", "0", "0", "0", "—", "—", "5",
            "0.60", "0.20", "0.40", "0.20", "0.20", "0.20", "1.80", "1"],
    "Bob": ["3", "0", "2", "0%", "1", "0", "1", "0%", "2.0", "5",
            "0.00", "0.20", "0.20", "0.40", "0.40", "0.00", "1.20", "0"],
    "Cid": ["3", "0", "2", "0%", "0", "0", "0", "—", "—", "5",
            "0.20", "0.40", "0.20", "0.20", "0.60", "0.20", "1.80", "0"],
    "Dan": ["3", "2", "0", "100%", "3", "2", "1", "67%", "3.3", "5",
            "0.80", "0.40", "0.60", "0.40", "0.00", "0.40", "2.60", "1"],
    "Eve": ["2", "0", "1", "0%", "0", "0", "0", "—", "—", "4",
            "0.00", "0.25", "0.25", "0.50", "0.25", "0.00", "1.25", "0"],
    "Fay": ["3", "0", "2", "0%", "1", "0", "1", "0%", "5.0", "5",
            "0.20", "0.40", "0.20", "0.20", "0.60", "0.20", "1.80", "0"],
    "Gus": ["1", "1", "0", "100%", "0", "0", "0", "—", "—", "1",
            "1.00", "1.00", "1.00", "1.00", "0.00", "1.00", "5.00", "0"],
}
# By win rate, highest first: Dan and Gus 100% (Dan won more), Ann 50%, the rest 0% by name.
BY_WIN_RATE = ["Dan", "Gus", "Ann", "Bob", "Cid", "Eve", "Fay"]


def new_game(client, new_game_form, names, first_dealer) -> int:
    response = client.post("/games/new", data=new_game_form(
        names=names, target="5", first_dealer=str(first_dealer)))
    assert response.status_code == 303, response.get_data(as_text=True)[:500]
    return int(response.headers["Location"].rsplit("/", 1)[1])


@pytest.fixture
def history(client, new_game_form, play):
    """The three games above, played through the pages; their ids."""
    one = new_game(client, new_game_form, FIRST, 1)
    play(one, 1, THROW_IN)
    play(one, 2, calls_for(1, {2: 4}), "hearts", "ABBCC", "A")
    play(one, 3, calls_for(2, {4: 3}), "spades", "AAABC", "none")
    two = new_game(client, new_game_form, SECOND, 1)
    play(two, 1, calls_for(1, {2: 3, 3: 4, 5: 5}), "clubs", "BBBBA", "B")
    three = new_game(client, new_game_form, FIRST, 3)
    play(three, 1, calls_for(3, {6: 6}), "clubs", "CCCAC", "C")
    play(three, 2, THROW_IN)
    play(three, 3, calls_for(4, {4: 3}), "diamonds", "ACABB", "none")
    return one, two, three


def board(page: Page) -> dict[str, list[str]]:
    """The leaderboard's rows: player -> the cells after the name, in page order."""
    table = page.root.find("table", class_="leaderboard")
    assert table is not None, page.text[:500]
    found = {}
    for row in table.find("tbody").find_all("tr"):
        found[row.find("th").text()] = [cell.text() for cell in row.find_all("td")]
    return found


def order(page: Page) -> list[str]:
    return list(board(page))


def shown_group(page: Page) -> str:
    return page.root.find("table", class_="leaderboard").get("data-group")


def cells(keys: list[str], rows: dict[str, list[str]] | None = None) -> dict[str, list[str]]:
    """The rows above (every figure) cut down to the figures ``keys``."""
    return {name: [figures[FIGURE_KEYS.index(key)] for key in keys]
            for name, figures in (rows or ROWS).items()}


def headings(page: Page) -> list[str]:
    return [th.text().rstrip(" ↓↑") for th in page.root.find("thead").find_all("th")]


def group_links(page: Page) -> dict[str, str]:
    nav = page.root.find("nav", class_="figure-groups")
    return {a.text(): a.get("href") for a in nav.find_all("a")}


def player_id(db, name: str) -> int:
    (player,) = rows(db, Player, Player.name == name)
    return player.id


def table_rows(page: Page, table_id: str) -> list[list[str]]:
    table = page.by_id(table_id)
    assert table is not None, f"no #{table_id}"
    return [[cell.text() for cell in row.iter() if cell.tag in ("th", "td")]
            for row in table.find_all("tr")]


def test_the_leaderboard_shows_the_games_columns_by_win_rate(client, history):
    page = Page(client.get("/players?sort=win_rate"))
    assert page.status == 200
    table = page.root.find("table", class_="leaderboard")
    assert table.find("caption").text() == "Leaderboard: Games"
    ths = table.find("thead").find_all("th")
    assert headings(page) == ["Player", "Played", "Won", "Lost", "Win rate"]
    assert all(th.get("scope") == "col" for th in ths)
    assert all(th.get("scope") == "row" for th in table.find("tbody").find_all("th"))
    assert board(page) == cells(["played", "won", "lost", "win_rate"])
    assert order(page) == BY_WIN_RATE
    summary = page.section_text("leaderboard-summary")
    assert "Sorted by Win rate, highest first." in summary
    assert "win rate counts finished games only" in summary
    assert "abandoned" not in summary  # none was


@pytest.mark.parametrize("group, title, keys, names, sort", GROUPS)
def test_each_group_of_columns_is_a_link_away_and_sorts_by_its_first_figure(
        client, history, group, title, keys, names, sort):
    links = group_links(Page(client.get("/players")))
    assert list(links) == ["Rating", *(g[1] for g in GROUPS)]
    assert links[title] == f"/players?sort={sort}"
    page = Page(client.get(links[title]))
    assert shown_group(page) == group
    assert page.root.find("caption").text() == f"Leaderboard: {title}"
    assert headings(page) == ["Player", *names]
    assert board(page) == cells(keys)
    (current,) = page.root.find("nav", class_="figure-groups").find_all(
        "a", **{"aria-current": "true"})
    assert current.text() == title
    sorted_by = [th.text().rstrip(" ↓↑") for th in page.root.find("thead").find_all("th")
                 if th.get("aria-sort")]
    assert sorted_by == [names[keys.index(sort)]]
    assert len(keys) <= 4  # a phone's width


def test_sorting_by_any_figure_shows_that_figures_group(client, history):
    for key in FIGURE_KEYS:
        page = Page(client.get(f"/players?sort={key}"))
        group = GROUP_OF[key]
        assert shown_group(page) == group, key
        (_, _, keys, _, _) = next(g for g in GROUPS if g[0] == group)
        assert board(page) == cells(keys), key
        marked = [th for th in page.root.find("thead").find_all("th") if th.get("aria-sort")]
        assert len(marked) == 1 and marked[0].find("a").get("href").startswith(
            f"/players?sort={key}&order="), key


def test_every_figure_is_reachable_by_links_alone(client, history):
    """From the leaderboard, group links and column headings lead to every sort."""
    seen, reached, waiting = set(), set(), ["/players"]
    while waiting:
        url = waiting.pop()
        if url in seen:
            continue
        seen.add(url)
        page = Page(client.get(url))
        reached.add((page.root.find("th", **{"aria-sort": "descending"})
                     or page.root.find("th", **{"aria-sort": "ascending"})).text().rstrip(" ↓↑")
                    + "@" + shown_group(page))
        hrefs = [*group_links(page).values(),
                 *(a.get("href") for a in page.root.find("thead").find_all("a"))]
        waiting.extend(href for href in hrefs if "order=" not in href)
    sorted_by = {item.split("@")[0] for item in reached}
    assert sorted_by == {"Player", *RATING_HEADINGS, *(name for g in GROUPS for name in g[3])}
    assert len(sorted_by) == len(SORT_KEYS) + len(RATING_HEADINGS)


def test_column_headings_sort_within_the_group_and_the_sorted_one_flips(client, history):
    page = Page(client.get("/players?sort=made_rate"))
    hrefs = [th.find("a").get("href") for th in page.root.find("thead").find_all("th")]
    assert hrefs == ["/players?sort=name&show=bids", "/players?sort=bids",
                     "/players?sort=made", "/players?sort=set",
                     "/players?sort=made_rate&order=asc"]
    assert [th.get("aria-sort") for th in page.root.find("thead").find_all("th")] == [
        None, None, None, None, "descending"]
    page = Page(client.get(hrefs[-1]))
    assert order(page) == ["Bob", "Fay", "Dan", "Ann", "Gus", "Cid", "Eve"]
    assert "Sorted by Made rate, lowest first." in page.text
    page = Page(client.get(hrefs[0]))  # by name, the bids still shown
    assert shown_group(page) == "bids"
    assert order(page) == ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus"]
    assert board(page) == cells(["bids", "made", "set", "made_rate"])
    assert "Sorted by name." in page.text
    name_link = page.root.find("thead").find("a").get("href")
    assert name_link == "/players?sort=name&order=desc&show=bids"
    assert order(Page(client.get(name_link)))[0] == "Gus"


def test_names_link_to_each_players_page_and_the_games_list_links_here(client, db, history):
    page = Page(client.get("/players"))
    links = {a.text(): a.get("href") for a in page.root.find("tbody").find_all("a")}
    assert links == {name: f"/players/{player_id(db, name)}" for name in ROWS}
    assert any(a.get("href") == "/players" for a in Page(client.get("/")).root.find_all("a"))


def test_the_player_page_adds_partners_bids_by_level_and_points_by_kind(client, db, history):
    page = Page(client.get(f"/players/{player_id(db, 'Dan')}"))
    assert page.status == 200
    assert page.root.find("h1").text() == "Dan"
    assert table_rows(page, "games") == [
        ["Played", "3"], ["Won", "2"], ["Lost", "0"], ["Win rate", "100%"],
        ["Hands played", "5"], ["Throw-ins dealt", "1"]]
    assert "1 game is still in play: it counts as played, not as won or lost." in page.text
    # Ann in games 1 (won) and 3 (in play), Gus in game 2 (won).
    assert table_rows(page, "partners") == [
        ["Partner", "Games", "Won", "Lost", "Win rate"],
        ["Ann", "2", "1", "0", "100%"], ["Gus", "1", "1", "0", "100%"]]
    assert page.by_id("cutthroat-games") is None  # every game in pairs
    # 3: made (took 3) and set (took 2); 5: made (took 5).
    # Score change per bid: 3 made +3 and set −3; 5 made +5; all (3 − 3 + 5) / 3.
    assert table_rows(page, "bids") == [
        ["Bid", "Bids", "Made", "Set", "Made rate", "Score change per bid"],
        ["3", "2", "1", "1", "50%", "+0.0"], ["4", "0", "0", "0", "—", "—"],
        ["5", "1", "1", "0", "100%", "+5.0"], ["6", "0", "0", "0", "—", "—"],
        ["All bids", "3", "2", "1", "67%", "+1.7"]]
    # (3 + 5 + 2) / 3: the points the team took, made or set; not the score (3 + 5 − 3).
    assert page.section_text("points-per-bid") == (
        "Points taken per bid: in the hands Dan bid, made or set, the team took 3.3 points "
        "on average.")
    assert "Over 5 hands played" in page.text
    assert table_rows(page, "points") == [
        ["Point", "Taken", "Per hand"],
        ["High", "4", "0.80"], ["Low", "2", "0.40"], ["Right Bauer", "3", "0.60"],
        ["Left Bauer", "2", "0.40"], ["Joker", "0", "0.00"], ["Game", "2", "0.40"],
        ["All points", "13", "2.60"]]
    partner_links = [a.get("href") for a in page.by_id("partners").find_all("a")]
    dan, ann, gus = (player_id(db, name) for name in ("Dan", "Ann", "Gus"))
    assert partner_links == [f"/players/{ann}", f"/players/{dan}/versus/{ann}",
                             f"/players/{gus}", f"/players/{dan}/versus/{gus}"]


def test_a_player_who_never_bid_and_one_who_played_one_game(client, db, history):
    page = Page(client.get(f"/players/{player_id(db, 'Ann')}"))
    assert table_rows(page, "games")[:4] == [
        ["Played", "3"], ["Won", "1"], ["Lost", "1"], ["Win rate", "50%"]]
    assert table_rows(page, "partners")[1:] == [
        ["Dan", "2", "1", "0", "100%"], ["Bob", "1", "0", "1", "0%"]]
    assert table_rows(page, "bids")[-1] == ["All bids", "0", "0", "0", "—", "—"]
    assert page.section_text("points-per-bid") == "Ann has not been the bidder yet."
    assert table_rows(page, "points")[1] == ["High", "3", "0.60"]
    page = Page(client.get(f"/players/{player_id(db, 'Eve')}"))
    assert "Over 4 hands played" in page.text  # Eve sat out game 2
    assert table_rows(page, "points")[-1] == ["All points", "5", "1.25"]
    page = Page(client.get(f"/players/{player_id(db, 'Gus')}"))
    assert "Over 1 hand played" in page.text
    assert "still in play" not in page.text  # Gus's only game is over


@pytest.mark.parametrize("query, expected", [
    # Played: 3 for Ann, Bob, Cid, Dan, Fay (Dan won 2, Ann 1, then by name); Eve 2; Gus 1.
    ("sort=played", ["Dan", "Ann", "Bob", "Cid", "Fay", "Eve", "Gus"]),
    ("sort=won", ["Dan", "Ann", "Gus", "Bob", "Cid", "Eve", "Fay"]),
    # Points per bid: Fay 5.0, Dan 3.3, Bob 2.0; the rest never bid: last.
    ("sort=taken", ["Fay", "Dan", "Bob", "Ann", "Gus", "Cid", "Eve"]),
    # Bids: Dan 3; Bob and Fay 1 each; then no bids.
    ("sort=bids", ["Dan", "Bob", "Fay", "Ann", "Gus", "Cid", "Eve"]),
    # All points per hand: Gus 5, Dan 2.6, Ann/Cid/Fay 1.8 (Ann won a game), Eve 1.25, Bob 1.2.
    ("sort=points", ["Gus", "Dan", "Ann", "Cid", "Fay", "Eve", "Bob"]),
    ("sort=name", ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus"]),
    ("sort=name&order=desc", ["Gus", "Fay", "Eve", "Dan", "Cid", "Bob", "Ann"]),
    # Lowest first: 0% (by name), 50%, 100% (Dan won more); made rate: no bids stay last.
    ("sort=win_rate&order=asc", ["Bob", "Cid", "Eve", "Fay", "Ann", "Dan", "Gus"]),
    ("sort=made_rate&order=asc", ["Bob", "Fay", "Dan", "Ann", "Gus", "Cid", "Eve"]),
    ("sort=made_rate", ["Dan", "Bob", "Fay", "Ann", "Gus", "Cid", "Eve"]),
])
def test_the_leaderboard_sorts_by_the_query(client, history, query, expected):
    page = Page(client.get(f"/players?{query}"))
    assert order(page) == expected
    (_, _, keys, _, _) = next(g for g in GROUPS if g[0] == shown_group(page))
    assert board(page) == cells(keys)  # the same figures, whatever the order


def test_the_minimum_of_games_keeps_one_lucky_game_off_the_top(client, history):
    assert order(Page(client.get("/players?sort=win_rate&min=1"))) == BY_WIN_RATE
    page = Page(client.get("/players?sort=win_rate&min=2"))
    assert order(page) == ["Dan", "Ann", "Bob", "Cid", "Eve", "Fay"]  # Gus played one game
    assert page.root.find("input", id="min").get("value") == "2"
    assert "Players with at least 2 games." in page.text
    # The headings and the groups' links keep the filter.
    assert page.root.find("thead").find("a").get("href") == "/players?sort=name&min=2"
    assert group_links(page)["Rating"] == "/players?sort=rating&min=2"
    assert group_links(page)["Bids"] == "/players?sort=made_rate&min=2"
    page = Page(client.get("/players?min=3&sort=played"))
    assert order(page) == ["Dan", "Ann", "Bob", "Cid", "Fay"]  # and Eve two
    page = Page(client.get("/players?min=4"))
    assert page.root.find("table") is None
    assert "No player has played 4 games yet." in page.text


def test_the_filter_form_keeps_the_sort_and_the_group(client, history):
    page = Page(client.get("/players?sort=name&show=hands"))
    (form,) = [f for f in page.forms() if f.action == "/players"]
    assert dict(form.fields()) == {"sort": "name", "show": "hands", "min": "1"}
    page = Page(client.get("/players?sort=taken&order=asc"))
    (form,) = [f for f in page.forms() if f.action == "/players"]
    assert form.method == "get"
    assert dict(form.fields()) == {"sort": "taken", "order": "asc", "min": "1"}
    # Lowest first: Bob 2.0, Dan 3.3, Fay 5.0; nobody else bid.
    assert order(page) == ["Bob", "Dan", "Fay", "Ann", "Gus", "Cid", "Eve"]


@pytest.mark.parametrize("query", [
    "sort=bogus", "sort=", "sort=__class__", "sort=RATING", "min=abc", "min=0", "min=-1",
    "min=1.5", "min=99999999999", "min=", "min=%C2%B3", "order=sideways", "order=",
    "sort=bogus&min=x&order=up", "sort=win_rate&sort=played", "show=bogus", "show=",
    "show=GAMES", "show=__class__",
])
def test_bad_query_values_fall_back_to_the_defaults(client, history, query):
    # The default while no rating's number is shown yet (two games each at most; once
    # one is, the rating leads: tests/views/test_view_ratings.py).
    by_win_rate = Page(client.get("/players?sort=win_rate"))
    page = Page(client.get(f"/players?{query}"))
    assert page.status == 200
    assert order(page) == order(by_win_rate)
    assert shown_group(page) == "games"
    assert board(page) == board(by_win_rate)
    csv_response = client.get(f"/players.csv?{query}")
    assert csv_response.status_code == 200
    assert [row[0] for row in read_csv(csv_response)[1:]] == order(by_win_rate)


def read_csv(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.get_data().decode("utf-8-sig"))))


def test_the_csv_has_the_leaderboards_rows_and_every_column(client, history):
    page = Page(client.get("/players?sort=high"))
    assert "The CSV file has every figure, all in one table." in page.text
    response = client.get("/players.csv?sort=win_rate")
    assert response.mimetype == "text/csv"
    assert response.headers["Content-Disposition"].startswith("attachment")
    assert "schmier-players.csv" in response.headers["Content-Disposition"]
    lines = read_csv(response)
    assert lines[0] == HEADINGS
    # Rates as fractions and averages to four places, digits a spreadsheet reads.
    assert [line[:-len(CSV_RATING_HEADINGS)] for line in lines[1:]] == [
        ["Dan", "3", "2", "0", "1.0000", "3", "2", "1", "0.6667", "3.3333", "5",
         "0.8000", "0.4000", "0.6000", "0.4000", "0.0000", "0.4000", "2.6000", "1"],
        ["Gus", "1", "1", "0", "1.0000", "0", "0", "0", "", "", "1",
         "1.0000", "1.0000", "1.0000", "1.0000", "0.0000", "1.0000", "5.0000", "0"],
        ["Ann", "3", "1", "1", "0.5000", "0", "0", "0", "", "", "5",
         "0.6000", "0.2000", "0.4000", "0.2000", "0.2000", "0.2000", "1.8000", "1"],
        ["Bob", "3", "0", "2", "0.0000", "1", "0", "1", "0.0000", "2.0000", "5",
         "0.0000", "0.2000", "0.2000", "0.4000", "0.4000", "0.0000", "1.2000", "0"],
        ["Cid", "3", "0", "2", "0.0000", "0", "0", "0", "", "", "5",
         "0.2000", "0.4000", "0.2000", "0.2000", "0.6000", "0.2000", "1.8000", "0"],
        ["Eve", "2", "0", "1", "0.0000", "0", "0", "0", "", "", "4",
         "0.0000", "0.2500", "0.2500", "0.5000", "0.2500", "0.0000", "1.2500", "0"],
        ["Fay", "3", "0", "2", "0.0000", "1", "0", "1", "0.0000", "5.0000", "5",
         "0.2000", "0.4000", "0.2000", "0.2000", "0.6000", "0.2000", "1.8000", "0"],
    ]


def test_the_csv_follows_the_pages_sort_and_minimum(client, history):
    page = Page(client.get("/players?sort=bids&min=2"))
    (link,) = [a for a in page.root.find_all("a") if a.text() == "Download as CSV"]
    assert link.get("href") == "/players.csv?sort=bids&min=2"
    lines = read_csv(client.get(link.get("href")))
    assert [row[0] for row in lines[1:]] == ["Dan", "Bob", "Fay", "Ann", "Cid", "Eve"]
    assert [row[0] for row in lines[1:]] == order(page)


def test_a_name_is_never_a_spreadsheet_formula(client, new_game_form, play):
    game = new_game(client, new_game_form, ["=1+1", "@SUM", "Cid", "Dan", "Eve", "Fay"], 1)
    play(game, 1, calls_for(1, {2: 3}), "hearts", "BBBBB", "B")  # B 6: "@SUM" & Eve win
    names = [row[0] for row in read_csv(client.get("/players.csv"))[1:]]
    assert names == ["'@SUM", "Eve", "'=1+1", "Cid", "Dan", "Fay"]
    assert order(Page(client.get("/players"))) == [  # shown as typed on the page
        "@SUM", "Eve", "=1+1", "Cid", "Dan", "Fay"]


def test_with_no_games_the_leaderboard_says_so(client):
    page = Page(client.get("/players"))
    assert page.status == 200
    assert page.root.find("table") is None
    assert "No games played yet." in page.text
    lines = read_csv(client.get("/players.csv"))
    assert lines == [HEADINGS]


def test_a_player_without_games_has_a_page_but_no_place_on_the_board(client, db, history):
    club_id = rows(db, Player, Player.name == "Ann")[0].club_id
    db.add(Player(club_id=club_id, name="Hal", name_key="hal"))
    db.commit()
    page = Page(client.get(f"/players/{player_id(db, 'Hal')}"))
    assert page.status == 200
    assert "Hal has not played a game yet." in page.text
    assert "Hal" not in board(Page(client.get("/players")))


def another_clubs_player(db) -> Player:
    """Zed, a player of another club than the test's."""
    other = Club(name="Another table")
    db.add(other)
    db.commit()
    stranger = Player(club_id=other.id, name="Zed", name_key="zed")
    db.add(stranger)
    db.commit()
    return stranger


def test_unknown_and_other_clubs_players_are_not_found(client, db, history):
    stranger = another_clubs_player(db)
    assert client.get(f"/players/{stranger.id}").status_code == 404
    assert client.get("/players/999").status_code == 404
    assert client.get("/players/0").status_code == 404
    assert client.get("/players/99999999999").status_code == 404
    assert client.get("/players/-1").status_code == 404
    assert client.get("/players/ann").status_code == 404
    assert "Zed" not in Page(client.get("/players")).text


def test_figures_follow_an_undone_hand(client, history):
    """Nothing is stored: undo Dan's set 3 in game 3 and his figures change with it."""
    _, _, three = history
    response = client.post(f"/games/{three}/hands/undo", data={"number": "3"})
    assert response.status_code in (200, 303)
    dan = [board(Page(client.get(f"/players?sort={sort}")))["Dan"]
           for sort in ("win_rate", "made_rate", "points", "high", "joker")]
    # Now bids 3 (made, took 3) and 5 (made, took 5): 2 bids, 2 made, 100%, 8 / 2 = 4.0;
    # 4 hands: High 3, Low 2, Right 2, Left 2, Joker 0, Game 2 = 11 points.
    assert dan == [["3", "2", "0", "100%"], ["2", "2", "0", "100%"],
                   ["4", "2.75", "4.0", "1"], ["0.75", "0.50", "0.50", "0.50"],
                   ["0.00", "0.50"]]


def test_statistics_pages_ask_the_same_queries_however_many_games_and_hands(
        app, client, db, new_game_form, play, history):
    """No query per game or per hand: a changed game is recounted once, then summed."""
    engine = app.extensions["db_engine"]
    statements: list[str] = []

    def count(*args):
        statements.append(args[2])

    def queries(url: str) -> int:
        statements.clear()
        event.listen(engine, "before_cursor_execute", count)
        try:
            assert client.get(url).status_code == 200
        finally:
            event.remove(engine, "before_cursor_execute", count)
        return len(statements)

    _, _, three = history
    urls = ("/players", "/players.csv", f"/players/{player_id(db, 'Dan')}")
    first = queries("/players")  # the three games are counted for the first time
    steady = {url: queries(url) for url in urls}
    assert first > steady["/players"]
    for number in range(4, 8):  # four throw-ins in game 3: Eve (seat 5) deals after Dan
        play(three, number, THROW_IN)
    recount = queries("/players")  # game 3 changed: it alone is counted again
    assert steady["/players"] < recount <= first
    assert {url: queries(url) for url in urls} == steady
    assert board(Page(client.get("/players?sort=throw_ins")))["Eve"][-1] == "4"  # one dealer
    assert new_game(client, new_game_form, FIRST, 1)
    # The new game is counted in the same queries, but the sums (which a new game can't
    # move on) are added up afresh: the rows summed and a check that no game is left to
    # count, two queries where a changed game's old rows were read in one.
    assert queries("/players") == recount + 1
    assert {url: queries(url) for url in urls} == steady


def test_in_persian_the_trend_charts_title_keeps_the_players_name_as_typed(client, db,
                                                                           start_game, play):
    names = ["Jo 2", "Bob", "Cid", "Dan", "Eve", "Fay"]
    for _evening in range(2):
        game = start_game(names=names, evening="new")
        play(game, 1, calls_for(1, {1: 3}), "hearts", "AAAAA", "A")  # Jo 2 bids 3, makes it
    (jo,) = [player for player in rows(db, Player) if player.name == "Jo 2"]
    client.set_cookie("lang", "fa")
    page = Page(client.get(f"/players/{jo.id}"))
    title = page.root.find("title", id="trend-title")
    assert title is not None and "Jo 2" in title.text() and "Jo ۲" not in title.text()
    summary = page.section_text("trend-summary")
    assert "Jo 2" in summary and "Jo ۲" not in summary


def abandon(db, game_id: int, when) -> int:
    """Abandon the game (or take that back with ``when=None``) as a correction does: the
    row's revision is bumped by the write itself. The game's revision after."""
    game = db.get(Game, game_id)
    game.abandoned_at = when
    db.add(game)
    db.commit()
    db.refresh(game)
    return game.revision


def test_an_abandoned_game_leaves_the_statistics_and_comes_back_when_reinstated(
        client, db, history):
    _, two, _ = history
    before = {sort: board(Page(client.get(f"/players?sort={sort}"))) for sort in SORT_KEYS}
    dan_page = Page(client.get(f"/players/{player_id(db, 'Dan')}")).text
    revision = db.get(Game, two).revision
    stamp = db.get(ClubSummary, db.get(Game, two).club_id).stamp

    assert abandon(db, two, datetime.now(timezone.utc)) == revision + 1
    # Without game 2 (Gus & Dan beat Ann & Bob; Dan bid 5, made): Gus has no game left;
    # Dan: games 1 (won) and 3; bids 3 made (took 3) and 3 set (took 2); 4 hands,
    # High 3, Low 1, Right 2, Left 1, Joker 0, Game 1.
    page = Page(client.get("/players?sort=win_rate"))
    assert "Gus" not in order(page)
    assert order(page) == ["Ann", "Dan", "Bob", "Cid", "Eve", "Fay"]
    assert board(page)["Dan"] == ["2", "1", "0", "100%"]
    assert board(page)["Ann"] == ["2", "1", "0", "100%"]
    assert board(page)["Bob"] == ["2", "0", "1", "0%"]
    assert "1 abandoned game is left out." in page.section_text("leaderboard-summary")
    assert board(Page(client.get("/players?sort=made_rate")))["Dan"] == ["2", "1", "1", "50%"]
    assert board(Page(client.get("/players?sort=points")))["Dan"] == ["4", "2.00", "2.5", "1"]
    assert board(Page(client.get("/players?sort=high")))["Dan"] == [
        "0.75", "0.25", "0.50", "0.25"]
    csv_names = [row[0] for row in read_csv(client.get("/players.csv"))[1:]]
    assert "Gus" not in csv_names
    dan = Page(client.get(f"/players/{player_id(db, 'Dan')}"))
    assert table_rows(dan, "games")[:3] == [["Played", "2"], ["Won", "1"], ["Lost", "0"]]
    assert [row[0] for row in table_rows(dan, "partners")[1:]] == ["Ann"]
    assert "1 abandoned game is left out." in dan.text
    gus = Page(client.get(f"/players/{player_id(db, 'Gus')}"))
    assert "No game of Gus counts yet: abandoned games are left out." in gus.text
    assert gus.by_id("trend-table") is None
    # The game's rows are kept (counted at its new revision), only left out of the sums.
    kept = rows(db, SeatSummary, SeatSummary.game_id == two)
    assert len(kept) == 6 and {row.revision for row in kept} == {revision + 1}
    db.expire_all()
    assert db.get(ClubSummary, db.get(Game, two).club_id).stamp != stamp

    abandon(db, two, None)  # reinstated: everything as before
    assert {sort: board(Page(client.get(f"/players?sort={sort}"))) for sort in SORT_KEYS} == before
    assert "abandoned" not in Page(client.get("/players")).text
    assert Page(client.get(f"/players/{player_id(db, 'Dan')}")).text == dan_page
