"""The ratings on the leaderboard, its CSV and each player's page: one number (1500 to
start, 48 points per point of openskill's mu), "new" until 3 games are rated, and what
each game did to it, all worked out here with openskill itself.

Two histories: the three games of tests/test_ratings.py, imported at one evening (Ann,
Bob and Cid play all three, so they have a number; the others are new), and the one of
tests/views/test_view_players.py played through the pages (game 1: Ann & Dan win, C 3,
B -3; game 2: Gus & Dan win, Ann & Bob 1, Cid & Fay 0; game 3 still in play).
"""
from __future__ import annotations

from datetime import date

import pytest
from openskill.models import PlackettLuce
from sqlmodel import select

from scorekeeper.files.exchange import import_game
from scorekeeper.store.models import Club, ClubRatings, Evening, PlayerRating, RatedGame
from tests.test_ratings import CLOSE, HISTORY, TIE, TRIOS, changes_by_openskill, points
from tests.views.test_view_players import (  # noqa: F401  (history: a fixture)
    FIRST, board, history, new_game, order, player_id, read_csv, shown_group, table_rows,
)
from tests.views.view_helpers import THROW_IN, Page, calls_for, hand_form, rows

GAME_1 = ([["Ann", "Dan"], ["Bob", "Eve"], ["Cid", "Fay"]], [1, 3, 2])
GAME_2 = ([["Ann", "Bob"], ["Gus", "Dan"], ["Cid", "Fay"]], [2, 1, 3])
WON = {"Ann": 2, "Bob": 1, "Cid": 1, "Dan": 1, "Eve": 1, "Gus": 1, "Fay": 0, "Hal": 0,
       "Ida": 0}  # games won in HISTORY


def by_openskill(*games) -> dict[str, tuple[float, float, int]]:
    """Each player's mu, sigma and rated games, as openskill rates the games."""
    model = PlackettLuce()
    rated: dict = {}
    counted: dict = {}
    for teams, ranks in games:
        after = model.rate([[rated.get(n, model.rating()) for n in team] for team in teams],
                           ranks=ranks)
        for team, ratings in zip(teams, after):
            for name, rating in zip(team, ratings):
                rated[name], counted[name] = rating, counted.get(name, 0) + 1
    return {name: (r.mu, r.sigma, counted[name]) for name, r in rated.items()}


def number(figures: tuple[float, float, int]) -> str:
    """The rating as the pages write it: its number, or "new" before 3 games."""
    mu, _, games = figures
    return str(points(mu)) if games >= 3 else "new"


def change(before: int, after: int) -> str:
    """A change as the pages write it: +14, −9 (a real minus sign), +0."""
    return f"+{after - before}" if after >= before else f"−{before - after}"


@pytest.fixture
def imported(client, db) -> list[int]:
    """The three games of tests/test_ratings.py, over, at one evening; their ids."""
    club = db.exec(select(Club)).first()
    evening = Evening(club_id=club.id, played_on=date(2024, 3, 1))
    db.add(evening)
    db.commit()
    ids = []
    for raw in (TIE, TRIOS, CLOSE):
        game = import_game(db, club, raw)
        game.evening_id = evening.id
        db.add(game)
        db.commit()
        ids.append(game.id)
    return ids


def test_the_leaderboard_shows_one_number_and_new_players_after_it(client, imported):
    figures = by_openskill(*HISTORY)
    page = Page(client.get("/players"))
    assert shown_group(page) == "rating"  # a number is shown: the rating leads
    assert shown_group(Page(client.get("/players?sort=bogus"))) == "rating"
    assert board(page) == {name: [number(f), str(f[2])] for name, f in figures.items()}
    # The numbers, highest first; then the new players, by games won, then by name.
    established = sorted((name for name, f in figures.items() if f[2] >= 3),
                         key=lambda name: -figures[name][0])
    new = sorted((name for name, f in figures.items() if f[2] < 3),
                 key=lambda name: (-WON[name], name))
    assert established == ["Ann", "Cid", "Bob"] and order(page) == established + new
    assert [points(figures[name][0]) for name in established] == sorted(
        (points(figures[name][0]) for name in established), reverse=True)
    summary = page.section_text("leaderboard-summary")
    assert "Sorted by Rating, highest first." in summary
    assert ("Everyone starts at 1500: finishing a game ahead of another team raises the "
            "rating and behind one lowers it, by more when the ratings expected otherwise; "
            "it reads “new” until 3 games are rated.") in summary
    assert not any(mark in page.text for mark in ("±", "μ", "σ", "uncertainty"))
    # Lowest first: the new players count below every number.
    assert order(Page(client.get("/players?sort=rating&order=asc"))) == new + established[::-1]


def test_the_leaderboard_says_what_the_latest_game_did_to_each_rating(client, imported):
    games = changes_by_openskill(HISTORY)
    last = {name: change(before, after) for name, played in games.items()
            for index, _rank, before, after in played if index == 2}
    rises = sorted(last, key=lambda name: (-int(last[name].replace("−", "-")), name))
    page = Page(client.get("/players"))
    line = page.by_id("latest-rated")
    assert line.text() == ("After game %d, the latest game over: %s." % (
        imported[2], ", ".join(f"{name} {last[name]}" for name in rises)))
    assert last["Gus"].startswith("+") and last["Dan"].startswith("−")  # won; third
    # Only beside the ratings: another group of figures leaves it out.
    assert Page(client.get("/players?sort=win_rate")).by_id("latest-rated") is None


def test_the_csv_keeps_openskills_mu_and_sigma_beside_the_number(client, imported):
    figures = by_openskill(*HISTORY)
    lines = read_csv(client.get("/players.csv"))
    assert lines[0][-4:] == ["Rating", "Rated games", "openskill μ", "openskill σ"]
    found = {line[0]: line[-4:] for line in lines[1:]}
    assert found == {name: [str(points(mu)) if games >= 3 else "", str(games),
                            f"{mu:.4f}", f"{sigma:.4f}"]
                     for name, (mu, sigma, games) in figures.items()}
    assert [line[0] for line in lines[1:]] == order(Page(client.get("/players")))


def test_the_player_page_gives_the_number_and_each_games_change(client, db, imported):
    figures = by_openskill(*HISTORY)
    games = changes_by_openskill(HISTORY)
    ann = Page(client.get(f"/players/{player_id(db, 'Ann')}"))
    (_, _, before, after) = games["Ann"][-1]
    assert ann.section_text("rating-now") == (
        f"{points(figures['Ann'][0])} · Rated games: 3 · "
        f"{change(before, after)} after game {imported[2]}")
    assert "Everyone starts at 1500: finishing a game ahead" in ann.text
    # Game by game, the latest first: the team's finish, the change, the number after.
    finish = {(3, 1): "Won", (3, 2): "Second", (3, 3): "Third", (2, 1): "Won", (2, 2): "Lost"}
    assert table_rows(ann, "rating-games") == [
        ["Rated game", "Result", "Change", "Rating"],
        *([f"Game {imported[index]}", finish[len(HISTORY[index][0]), rank],
           change(before, after), str(after) if number_of_games >= 3 else "new"]
          for number_of_games, (index, rank, before, after)
          in reversed(list(enumerate(games["Ann"], 1))))]
    links = [a.get("href") for a in ann.by_id("rating-games").find_all("a")]
    assert links == [f"/games/{game}" for game in reversed(imported)]
    assert not any(mark in ann.text for mark in ("±", "μ", "σ"))
    # One evening, the number after it drawn.
    assert table_rows(ann, "rating-table")[1:] == [
        ["1", table_rows(ann, "rating-table")[1][1], str(points(figures["Ann"][0]))]]

    # Dan: two games, so new, and nothing drawn yet; the changes are there.
    dan = Page(client.get(f"/players/{player_id(db, 'Dan')}"))
    (_, _, before, after) = games["Dan"][-1]
    assert dan.section_text("rating-now") == (
        f"new · Rated games: 2 · {change(before, after)} after game {imported[2]}")
    assert [row[2:] for row in table_rows(dan, "rating-games")[1:]] == [
        [change(before, after), "new"] for _, _, before, after in reversed(games["Dan"])]
    assert dan.by_id("rating-table") is None


def test_a_long_record_lists_the_latest_rated_games_only(client, db, imported, monkeypatch):
    monkeypatch.setattr("scorekeeper.views.players.LATEST_RATED_GAMES", 2)
    ann = Page(client.get(f"/players/{player_id(db, 'Ann')}"))
    links = [a.get("href") for a in ann.by_id("rating-games").find_all("a")]
    assert links == [f"/games/{game}" for game in reversed(imported)][:2]
    assert ann.section_text("rated-games-more") == \
        "The latest 2 of 3 rated games; the chart below follows them all."
    monkeypatch.setattr("scorekeeper.views.players.LATEST_RATED_GAMES", 3)
    assert Page(client.get(f"/players/{player_id(db, 'Ann')}")).by_id("rated-games-more") is None


def test_with_no_number_shown_yet_the_win_rate_leads_and_everyone_is_new(
        client, new_game_form, play, history):
    page = Page(client.get("/players"))
    assert shown_group(page) == "games"  # two games each at most: no number yet
    assert "Sorted by Win rate, highest first." in page.section_text("leaderboard-summary")
    by_rating = Page(client.get("/players?sort=rating"))
    figures = by_openskill(GAME_1, GAME_2)
    assert board(by_rating) == {name: ["new", str(f[2])] for name, f in figures.items()}
    # Alike, the new players go by games won, then by name: Dan won both, Cid none.
    assert order(by_rating) == ["Dan", "Ann", "Gus", "Bob", "Cid", "Eve", "Fay"]


def test_without_a_finished_game_everyone_is_new_with_no_game_rated(
        client, new_game_form, play):
    game = new_game(client, new_game_form, FIRST, 1)
    play(game, 1, THROW_IN)
    page = Page(client.get("/players?sort=rating"))
    assert board(page) == {name: ["new", "0"] for name in FIRST}
    assert page.by_id("latest-rated") is None
    assert read_csv(client.get("/players.csv"))[1][-4:] == ["", "0", "", ""]


def test_an_edit_that_changes_the_winner_re_rates_at_once(client, db, history):
    one, two, _ = history
    Page(client.get("/players"))  # rated and kept before the edit
    # Game 1, hand 3 corrected: C took High, Low, Right and Game, A the Left, B the Joker.
    # Dan (A) bid 3 and took 1: set, A 2 - 3 = -1; B -3 + 1 = -2; C 3 + 4 = 7 wins.
    response = client.post(f"/games/{one}/hands/3",
                           data=hand_form(3, calls_for(2, {4: 3}), "spades", "CCCAB", "C"))
    assert response.status_code == 303, response.get_data(as_text=True)[:500]
    edited = ([["Ann", "Dan"], ["Bob", "Eve"], ["Cid", "Fay"]], [2, 3, 1])
    games = changes_by_openskill([edited, GAME_2])
    for name in ("Dan", "Cid"):
        page = Page(client.get(f"/players/{player_id(db, name)}"))
        assert [row[1:3] for row in table_rows(page, "rating-games")[1:]] == [
            [{1: "Won", 2: "Second", 3: "Third"}[rank], change(before, after)]
            for _, rank, before, after in reversed(games[name])], name
    latest = Page(client.get("/players?sort=rating")).by_id("latest-rated")
    assert latest.text().startswith(f"After game {two}, the latest game over: ")
    # Kept game by game: two rated games, the one in play looked at but no match.
    assert {row.game_id for row in rows(db, PlayerRating)} == set(history[:2])
    assert len(rows(db, PlayerRating)) == 12
    assert [row.finished_at is None for row in rows(db, RatedGame, order_by=RatedGame.game_id)
            ] == [False, False, True]
    assert len(rows(db, ClubRatings)) == 1


def test_a_player_whose_games_are_in_play_has_no_rating_yet(client, db, new_game_form, play):
    game = new_game(client, new_game_form, FIRST, 1)
    play(game, 1, calls_for(1, {2: 4}), "hearts", "ABBCC", "A")
    ann = Page(client.get(f"/players/{player_id(db, 'Ann')}"))
    assert ann.section_text("rating-now") == "No rating yet: Ann has no finished game that counts."
    assert ann.by_id("rating-games") is None and ann.by_id("rating-table") is None


def test_in_persian_a_change_and_a_decimal_are_isolated_in_persian_digits(
        client, db, imported):
    client.set_cookie("lang", "fa")
    games = changes_by_openskill(HISTORY)
    (_, _, before, after) = games["Dan"][-1]  # third in the last game: below zero
    assert after < before
    dan = Page(client.get(f"/players/{player_id(db, 'Dan')}"))
    persian = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")
    drawn = "\u2066−%s\u2069" % str(before - after).translate(persian)
    assert drawn in dan.by_id("rating-games").raw_text()
    assert drawn in dan.section_text("rating-now")
    # Points taken per bid, one decimal (Ann bid twice: 3 and 6 taken), and all points
    # per hand, two: the Persian decimal separator, isolated.
    hands = board(Page(client.get("/players?sort=taken")))
    assert hands["Ann"][2] == "\u2066۴٫۵\u2069"
    assert all(cell.startswith("\u2066") and "٫" in cell and "." not in cell
               for cells in hands.values() for cell in cells[1:3] if cell != "—")
