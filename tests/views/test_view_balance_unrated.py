""""Balance the teams" when none of the six has a rated game: every split is as even as
any other, so the page says it has nothing to go on, and the seats stay as typed (no
"33% to win" each, no "most even"); one finished game later, the same tap balances."""
from __future__ import annotations

from tests.views.test_view_balance import NAMES, preview_lines, seats_of, split_buttons, stored
from tests.views.view_helpers import Page, calls_for

NOTHING = ("None of these six has finished a game yet, so there is nothing to balance the "
           "teams by: they stay as typed.")


def balanced(client, new_game_form, **fields) -> Page:
    response = client.post("/games/new", data=new_game_form(balance="best", **fields))
    assert response.status_code == 200
    return Page(response)


def test_a_new_club_is_told_there_is_nothing_to_balance_by(client, db, new_game_form):
    before = stored(db)
    page = balanced(client, new_game_form, first_dealer="3")
    assert page.section_text("balance-unrated") == NOTHING
    assert page.by_id("balance-unrated").parent.get("id") == "teams-preview"
    assert seats_of(page) == NAMES  # as typed, nobody moved
    assert page.form_posting_to("/games/new").checked("first_dealer") == "3"
    assert preview_lines(page) == ["A: Ann & Dan", "B: Bob & Eve", "C: Cid & Fay"]
    assert "to win" not in page.text and "The most even" not in page.text
    _form, buttons = split_buttons(page)
    assert [button.text() for button in buttons] == ["Balance the teams"]
    assert stored(db) == before


def test_six_without_a_finished_game_in_a_club_with_ratings_are_told_so_too(
        client, db, new_game_form):
    # Bob & Eve sweep a game: they are rated. Six others come to the table.
    game = client.post("/games/new", data=new_game_form(target="5"))
    game_id = int(game.headers["Location"].rsplit("/", 1)[1])
    assert client.post(f"/games/{game_id}/hands", data={
        "number": "1", "calls": calls_for(1, {2: 3}), "trump": "hearts",
        **dict.fromkeys(("high", "low", "right", "left", "joker", "game"), "B")}
    ).status_code == 303
    others = ["Gus", "Hal", "Ida", "Jon", "Kim", "Lou"]
    page = balanced(client, new_game_form, names=others)
    assert page.section_text("balance-unrated") == NOTHING
    assert seats_of(page) == others

    # With one of the six rated, there is something to go on: the teams are balanced.
    page = balanced(client, new_game_form, names=["Bob", *others[1:]])
    assert page.by_id("balance-unrated") is None
    assert all(line.endswith("to win") for line in preview_lines(page))
