"""The ratings on the leaderboard and on each player's page, over the history of
tests/views/test_view_players.py (game 1: Ann & Dan win, C 3, B -3; game 2: Gus & Dan
win, Ann & Bob 1, Cid & Fay 0; game 3 still in play), rated here by openskill itself."""
from __future__ import annotations

from openskill.models import PlackettLuce

from scorekeeper.models import ClubRatings, PlayerRating, RatedGame
from tests.views.test_view_players import (  # noqa: F401  (history: a fixture)
    FIRST, board, history, new_game, order, player_id, read_csv, shown_group, table_rows,
)
from tests.views.view_helpers import THROW_IN, Page, calls_for, hand_form, rows

GAME_1 = ([["Ann", "Dan"], ["Bob", "Eve"], ["Cid", "Fay"]], [1, 3, 2])
GAME_2 = ([["Ann", "Bob"], ["Gus", "Dan"], ["Cid", "Fay"]], [2, 1, 3])


def expected(*games) -> dict[str, tuple[int, float, int, float]]:
    """Each player's shown rating, sigma, rated games and mu, as openskill rates the
    games."""
    model = PlackettLuce()
    rated: dict = {}
    counted: dict = {}
    for teams, ranks in games:
        after = model.rate([[rated.get(n, model.rating()) for n in team] for team in teams],
                           ranks=ranks)
        for team, ratings in zip(teams, after):
            for name, rating in zip(team, ratings):
                rated[name], counted[name] = rating, counted.get(name, 0) + 1
    return {name: (round(r.mu - 3 * r.sigma), r.sigma, counted[name], r.mu)
            for name, r in rated.items()}


def rating(shown: int, sigma: float) -> str:
    """A rating as the pages write it: a real minus sign, σ to one decimal."""
    return f"{shown if shown >= 0 else f'−{-shown}'} ± {sigma:.1f}"


def written(figures: tuple[int, float, int, float]) -> list[str]:
    shown, sigma, games, _ = figures
    return [rating(shown, sigma), str(games)]


def best_first(figures: dict) -> list[str]:
    """Highest shown rating first, then highest mu; players rated alike (always
    partners) by name."""
    return sorted(figures, key=lambda name: (-figures[name][0], -figures[name][3], name))


def test_the_leaderboard_leads_with_the_rating_once_games_are_rated(client, db, history):
    page = Page(client.get("/players"))
    assert shown_group(page) == "rating"
    assert page.root.find("caption").text() == "Leaderboard: Rating"
    figures = expected(GAME_1, GAME_2)
    assert board(page) == {name: written(f) for name, f in figures.items()}
    assert order(page) == best_first(figures)
    summary = page.section_text("leaderboard-summary")
    assert "Sorted by Rating, highest first." in summary
    assert "partners and the opponents" in summary  # what the rating means, in a sentence
    assert [a.get("href") for a in page.root.find("thead").find_all("a")] == [
        "/players?sort=name&show=rating", "/players?sort=rating&order=asc", "/players?sort=rated"]
    lowest = Page(client.get("/players?sort=rating&order=asc"))
    assert order(lowest) == sorted(figures, key=lambda name: (figures[name][0],
                                                              figures[name][3], name))
    csv_lines = read_csv(client.get("/players.csv"))
    assert csv_lines[0][-2:] == ["Rating", "Rated games"]
    assert {line[0]: line[-2:] for line in csv_lines[1:]} == {
        name: [str(shown), str(games)] for name, (shown, _, games, _) in figures.items()}
    # Kept game by game: two rated games, the one in play looked at but no match.
    assert {row.game_id for row in rows(db, PlayerRating)} == set(history[:2])
    assert len(rows(db, PlayerRating)) == 12
    assert [row.finished_at is None for row in rows(db, RatedGame, order_by=RatedGame.game_id)
            ] == [False, False, True]
    assert len(rows(db, ClubRatings)) == 1


def test_without_a_finished_game_the_win_rate_leads_and_the_rating_is_a_dash(
        client, new_game_form, play):
    game = new_game(client, new_game_form, FIRST, 1)
    play(game, 1, THROW_IN)
    page = Page(client.get("/players"))
    assert shown_group(page) == "games"
    assert "Sorted by Win rate, highest first." in page.section_text("leaderboard-summary")
    by_rating = board(Page(client.get("/players?sort=rating")))
    assert by_rating == {name: ["—", "0"] for name in FIRST}


def test_an_edit_that_changes_the_winner_re_rates_at_once(client, db, history):
    one, _, _ = history
    Page(client.get("/players"))  # rated and kept before the edit
    # Game 1, hand 3 corrected: C took High, Low, Right and Game, A the Left, B the Joker.
    # Dan (A) bid 3 and took 1: set, A 2 - 3 = -1; B -3 + 1 = -2; C 3 + 4 = 7 wins.
    response = client.post(f"/games/{one}/hands/3",
                           data=hand_form(3, calls_for(2, {4: 3}), "spades", "CCCAB", "C"))
    assert response.status_code == 303, response.get_data(as_text=True)[:500]
    edited = ([["Ann", "Dan"], ["Bob", "Eve"], ["Cid", "Fay"]], [2, 3, 1])
    figures = expected(edited, GAME_2)
    page = Page(client.get("/players"))
    assert board(page) == {name: written(f) for name, f in figures.items()}
    assert order(page) == best_first(figures)
    dan = Page(client.get(f"/players/{player_id(db, 'Dan')}"))
    assert dan.section_text("rating-now").startswith(f"{figures['Dan'][0]} ± ")


def test_the_player_page_shows_the_rating_explains_it_and_draws_it(client, db, history):
    figures = expected(GAME_1, GAME_2)
    dan = Page(client.get(f"/players/{player_id(db, 'Dan')}"))
    shown, sigma, games, _ = figures["Dan"]
    assert dan.section_text("rating-now") == f"{rating(shown, sigma)} · Rated games: {games}"
    assert "partners and the opponents" in dan.text
    chart = dan.by_id("rating-chart-title").parent
    assert chart.get("role") == "img"
    assert chart.get("aria-labelledby") == "rating-chart-title rating-chart-summary"
    assert "the rating as it stood after each evening" in dan.section_text("rating-chart-summary")
    # One evening (all three games): one row, the rating after it.
    assert table_rows(dan, "rating-table")[1:] == [
        ["1", table_rows(dan, "rating-table")[1][1], rating(shown, sigma)]]
    gus = Page(client.get(f"/players/{player_id(db, 'Gus')}"))
    assert gus.section_text("rating-now").startswith(f"{figures['Gus'][0]} ± ")


def test_a_player_whose_games_are_in_play_has_no_rating_yet(client, db, new_game_form, play):
    game = new_game(client, new_game_form, FIRST, 1)
    play(game, 1, calls_for(1, {2: 4}), "hearts", "ABBCC", "A")
    ann = Page(client.get(f"/players/{player_id(db, 'Ann')}"))
    assert ann.section_text("rating-now") == "No rating yet: Ann has no finished game that counts."
    assert ann.by_id("rating-table") is None


def test_a_rating_below_zero_is_written_with_a_real_minus_sign(app):
    from scorekeeper.ratings import Rating
    from scorekeeper.views.players import rating_text

    with app.test_request_context():
        assert rating_text(Rating(mu=20.0, sigma=8.0)).endswith("−4 ± 8.0")
        assert "-" not in rating_text(Rating(mu=20.0, sigma=8.0))
        assert rating_text(Rating(mu=30.0, sigma=2.0)) == "24 ± 2.0"
