"""What each team needs to go out next hand (RULES.md, "What each team needs"), on the
game page, its htmx answer after a record and the scoreboard: shown while a team can go
out in the next hand, and never before or once the game is won."""
from __future__ import annotations

from tests.views.view_helpers import HTMX, Page, calls_for


def needs_said(page: Page) -> list[str]:
    found = page.by_id("needs")
    return [] if found is None else [item.text() for item in found.find_all("li")]


def close_game(client, play, new_game_form) -> int:
    """Target 9 after two hands: A 3, B 6 (made its 3), C -2 (set at 3)."""
    response = client.post("/games/new", data=new_game_form(target="9"))
    game = int(response.headers["Location"].rsplit("/", 1)[1])
    play(game, 1, calls_for(1, {2: 3}), "hearts", "AABBC", "B")  # A 2, B 3, C 1
    play(game, 2, calls_for(2, {3: 3}), "spades", "BBBCC", "A")  # A 1, B 3, C 2: C set
    return game


B_SAYS = "If B bids and makes 3, B wins. Without the bid, B needs 3 points."


def test_the_game_page_says_what_each_team_needs(client, play, new_game_form):
    game = close_game(client, play, new_game_form)
    page = Page(client.get(f"/games/{game}"))
    assert [team.text() for team in page.root.find_all("span", class_="team-score")] \
        == ["3", "6", "−2"]
    assert needs_said(page) == [
        "If A bids and makes 6, A wins. Without the bid, A needs 6 points.",
        B_SAYS,
        "C can't go out in the next hand.",
    ]


def test_nothing_is_said_while_no_team_can_go_out(client, play, new_game_form):
    response = client.post("/games/new", data=new_game_form(target="21"))
    game = int(response.headers["Location"].rsplit("/", 1)[1])
    play(game, 1, calls_for(1, {2: 3}), "hearts", "AABBC", "B")
    assert needs_said(Page(client.get(f"/games/{game}"))) == []


def test_the_answer_to_a_record_brings_the_new_needs(client, record, play, new_game_form):
    game = close_game(client, play, new_game_form)
    # Seat 4 (A) bids 4 and takes 4, B and C 1 each: A 7, B 7, C -1. Bidding, 3 take A
    # to 10, and B's 3 at most tie it there: A bid, so A wins the tie. Without the bid,
    # 3 are not enough (B's 3 would tie as the bidder): 4 are, 11 against 9.
    answer = record(game, 3, calls_for(3, {4: 4}), "clubs", "AAABC", "A",
                    headers={**HTMX, "HX-Target": "game"})
    assert answer.status_code == 200
    said = needs_said(Page(answer))
    assert said[0] == "If A bids and makes 3, A wins, on the tie-break if need be. " \
                      "Without the bid, A needs 4 points."


def test_the_scoreboard_says_it_too_and_not_once_the_game_is_won(client, play, new_game_form):
    game = close_game(client, play, new_game_form)
    assert B_SAYS in needs_said(Page(client.get(f"/games/{game}/board")))
    play(game, 3, calls_for(3, {5: 3}), "clubs", "BBBAC", "B")  # B 10: B wins
    assert needs_said(Page(client.get(f"/games/{game}"))) == []
    assert needs_said(Page(client.get(f"/games/{game}/board"))) == []
