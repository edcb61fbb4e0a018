"""Starting a game: seats, players and house rules stored; refusals store nothing."""
from __future__ import annotations

import pytest

from scorekeeper.store.models import NOTE_LENGTH, PLACE_LENGTH, PLAYER_NAME_LENGTH
from tests.views.view_helpers import (
    HTMX, Game, GameSeat, Page, Player, count, path_of, rows, seat_players,
)

NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"]


def nothing_stored(db):
    assert count(db, Game) == 0
    assert count(db, GameSeat) == 0
    assert count(db, Player) == 0


def test_six_names_make_a_game_with_its_seats_and_players(client, db, new_game_form):
    response = client.post("/games/new", data=new_game_form())
    assert response.status_code == 303
    (game,) = rows(db, Game)
    assert path_of(response.headers["Location"]) == f"/games/{game.id}"
    assert (game.teams, game.target, game.house_rules) == ("3x2", 21, {
        "bidder_goes_out": False, "lowest_bid": 3, "all_pass": "throw_in", "smudge": False})
    assert (game.first_dealer, game.first_dealer_drawn) == (1, False)
    seats = seat_players(db, game.id)
    assert {seat: player.name for seat, player in seats.items()} == dict(enumerate(NAMES, 1))
    assert sorted(p.name for p in rows(db, Player)) == sorted(NAMES)

    page = Page(client.get(f"/games/{game.id}"))
    assert page.status == 200
    # Three pairs, partners never side by side: A = 1 & 4, B = 2 & 5, C = 3 & 6.
    assert page.team_names() == {"A": "Ann & Dan", "B": "Bob & Eve", "C": "Cid & Fay"}
    assert page.scores() == {"A": 0, "B": 0, "C": 0}
    assert page.verdict() == "First team to 21 wins."
    assert "Dealer: Ann (seat 1)." in page.text
    assert "The app drew" not in page.text  # the table chose the dealer


def test_house_rules_are_stored_and_two_teams_of_three_shown(client, db, new_game_form):
    form = new_game_form(teams="2x3", target="15", bidder_goes_out="y", first_dealer="3")
    response = client.post("/games/new", data=form)
    assert response.status_code == 303
    (game,) = rows(db, Game)
    assert (game.teams, game.target, game.house_rules["bidder_goes_out"], game.first_dealer) == (
        "2x3", 15, True, 3)
    page = Page(client.get(f"/games/{game.id}"))
    assert page.team_names() == {"A": "Ann & Cid & Eve", "B": "Bob & Dan & Fay"}
    assert page.scores() == {"A": 0, "B": 0}
    assert page.verdict() == "First team to 15 wins."
    assert "Dealer: Cid (seat 3)." in page.text
    assert "Dan bids first." in page.text


def test_the_new_game_page_shows_the_teams_as_names_are_typed(client):
    query = {"seat_1": "Ann", "seat_2": "Bob", "seat_4": "Dan", "seat_5": "Eve",
             "seat_6": "Fay", "teams": "3x2"}
    response = client.get("/games/new", query_string=query,
                          headers={**HTMX, "HX-Target": "teams-preview"})
    assert response.status_code == 200
    assert "<html" not in response.text
    page = Page(response)
    lines = [li.text() for li in page.by_id("teams-preview").find_all("li")]
    assert lines == ["A: Ann & Dan", "B: Bob & Eve", "C: seat 3 & Fay"]

    response = client.get("/games/new", query_string={**query, "seat_3": "Cid", "teams": "2x3"},
                          headers={**HTMX, "HX-Target": "teams-preview"})
    lines = [li.text() for li in Page(response).by_id("teams-preview").find_all("li")]
    assert lines == ["A: Ann & Cid & Eve", "B: Bob & Dan & Fay"]


def dealer_choices(page: Page) -> dict[str, str]:
    """Each first-dealer choice: its radio's value -> the player named under it."""
    found = {}
    for radio in page.root.find_all("input", type="radio", name="first_dealer"):
        described = radio.get("aria-describedby")
        found[radio.get("value")] = page.by_id(described).text() if described else None
    return found


def test_the_first_dealer_choices_name_the_players_typed_in_the_seats(client, db,
                                                                      new_game_form):
    """Without JavaScript: the page shown with names (the next game's, or a refused
    form's) names each seat's player under its number, read as the choice's
    description; an empty seat is its number alone."""
    empty = Page(client.get("/games/new"))
    assert dealer_choices(empty) == {"random": None, **{str(s): "" for s in range(1, 7)}}
    labels = [label.text(gaps=True) for label in empty.root.find_all("label", class_="choice")
              if label.find("input", name="first_dealer") is not None]
    assert labels[1:] == [f"Seat {seat} deals first" for seat in range(1, 7)]

    page = Page(client.get("/games/new", query_string={
        "seat_1": "Ann", "seat_2": "Bob", "seat_3": "  Cid   Lee ", "seat_5": "Eve"}))
    assert dealer_choices(page) == {"random": None, "1": "Ann", "2": "Bob", "3": "Cid Lee",
                                    "4": "", "5": "Eve", "6": ""}
    # A refused form is shown again with its names, the dealer chosen still chosen.
    refused = Page(client.post("/games/new", data=new_game_form(
        names=["Ann", "Bob", "Cid", "Dan", "Eve", ""], first_dealer="4")))
    assert refused.status == 422
    assert dealer_choices(refused) == {"random": None, **dict(zip("123456", NAMES[:5] + [""]))}
    assert refused.form_posting_to("/games/new").checked("first_dealer") == "4"
    nothing_stored(db)


def test_as_names_are_typed_the_dealer_choices_follow_them_but_stay_chosen(client):
    """With htmx the teams preview comes back as names are typed; each seat's name under
    its dealer choice comes with it, out of band, and no radio does (one tapped while
    the answer was on its way stays tapped)."""
    response = client.get("/games/new", query_string={
        "seat_1": "Ann", "seat_4": "Dan", "teams": "3x2", "first_dealer": "4"},
        headers={**HTMX, "HX-Target": "teams-preview"})
    assert response.status_code == 200 and "<html" not in response.text
    page = Page(response)
    names = {small.get("id"): small.text() for small in page.root.find_all("small")}
    assert names == {"dealer-name-1": "Ann", "dealer-name-2": "", "dealer-name-3": "",
                     "dealer-name-4": "Dan", "dealer-name-5": "", "dealer-name-6": ""}
    assert {small.get("hx-swap-oob") for small in page.root.find_all("small")} == {"true"}
    assert page.root.find_all("input") == []
    # The seats ask for the preview in place of the old one (not inside it).
    form = Page(client.get("/games/new"))
    seat = form.root.find("input", name="seat_1")
    assert (seat.get("hx-target"), seat.get("hx-swap")) == ("#teams-preview", "outerHTML")


def test_the_roster_is_reused_whatever_the_case_and_spaces(client, db, start_game):
    first = start_game()
    second = start_game(names=["ann", "  BOB ", "Cid", "Dan", "Eve", "Gus   Grey"])
    third = start_game(names=["Ann", "Bob", "Cid", "Dan", "eve", "gus grey"])
    assert count(db, Player) == 7  # the six and Gus Grey
    one, two, three = (seat_players(db, game) for game in (first, second, third))
    for seat in (1, 2, 3, 4, 5):
        assert one[seat].id == two[seat].id == three[seat].id
    assert two[6].id == three[6].id != one[6].id
    assert two[6].name == "Gus Grey"  # inner spaces folded once, kept as first typed
    # The roster spells a player as first entered.
    page = Page(client.get(f"/games/{second}"))
    assert page.team_names()["A"] == "Ann & Dan"
    assert page.team_names()["B"] == "Bob & Eve"
    options = [o.get("value") for o in Page(client.get("/games/new")).root.find_all("option")]
    assert sorted(options) == sorted(NAMES + ["Gus Grey"])


@pytest.mark.parametrize("fourth", ["Ann", " ann ", "ANN"])
def test_a_name_sitting_twice_is_refused(client, db, new_game_form, fourth):
    names = ["Ann", "Bob", "Cid", fourth, "Eve", "Fay"]
    response = client.post("/games/new", data=new_game_form(names=names))
    assert response.status_code == 422
    page = Page(response)
    (alert,) = page.alerts()
    assert "can't sit twice (seats 1 and 4)" in alert
    nothing_stored(db)
    # What was typed is still there to correct.
    assert page.root.find("input", name="seat_2").get("value") == "Bob"


@pytest.mark.parametrize("overrides, message", [
    ({"names": ["Ann", "Bob", "", "Dan", "Eve", "Fay"]}, "Seat 3 needs a player."),
    ({"names": ["Ann", "Bob", "Cid", "Dan", "   ", "Fay"]}, "Seat 5 needs a player."),
    ({"names": ["Ann", "B" * 41, "Cid", "Dan", "Eve", "Fay"]},
     "Seat 2: a name may have at most 40 letters."),
    ({"target": "0"}, "Play to: The target must be from 1 to 999."),
    ({"target": "1000"}, "Play to: The target must be from 1 to 999."),
    ({"target": ""}, "Play to: Give the target score."),
])
def test_a_bad_new_game_form_says_why_and_stores_nothing(client, db, new_game_form,
                                                        overrides, message):
    response = client.post("/games/new", data=new_game_form(**overrides))
    assert response.status_code == 422
    assert Page(response).alerts() == [message]
    nothing_stored(db)


@pytest.mark.parametrize("overrides, field", [
    ({"target": "abc"}, "Play to"), ({"target": "2.5"}, "Play to"),
    ({"teams": "4x4"}, "Teams"), ({"teams": ""}, "Teams"),
    ({"first_dealer": "0"}, "First dealer"), ({"first_dealer": "7"}, "First dealer"),
    ({"first_dealer": "abc"}, "First dealer"),
])
def test_unreadable_choices_are_refused_naming_the_field(client, db, new_game_form,
                                                         overrides, field):
    response = client.post("/games/new", data=new_game_form(**overrides))
    assert response.status_code == 422
    (alert,) = Page(response).alerts()
    assert alert.startswith(f"{field}: ") and len(alert) > len(field) + 2
    nothing_stored(db)


def test_a_name_of_forty_letters_is_accepted(client, db, new_game_form):
    long_name = "L" * 40
    response = client.post("/games/new",
                           data=new_game_form(names=["Ann", long_name, "Cid", "Dan", "Eve", "Fay"]))
    assert response.status_code == 303
    (game,) = rows(db, Game)
    assert seat_players(db, game.id)[2].name == long_name


def test_draw_at_random_picks_a_seat_and_says_who(client, db, new_game_form):
    response = client.post("/games/new", data=new_game_form(first_dealer="random"))
    assert response.status_code == 303
    (game,) = rows(db, Game)
    assert game.first_dealer in range(1, 7)
    assert game.first_dealer_drawn is True
    name = NAMES[game.first_dealer - 1]
    page = Page(client.get(f"/games/{game.id}"))
    assert f"The app drew {name} (seat {game.first_dealer}) to deal first." in page.text
    assert f"Dealer: {name} (seat {game.first_dealer})." in page.text


def test_the_drawn_dealer_deals_and_the_one_on_the_left_bids(client, db, new_game_form,
                                                             monkeypatch):
    monkeypatch.setattr("scorekeeper.table.seating.draw_dealer", lambda seats: 6)
    client.post("/games/new", data=new_game_form(first_dealer="random"))
    (game,) = rows(db, Game)
    assert (game.first_dealer, game.first_dealer_drawn) == (6, True)
    page = Page(client.get(f"/games/{game.id}"))
    assert "The app drew Fay (seat 6) to deal first." in page.text
    assert "Ann bids first." in page.text  # 6 -> 1: left of seat 6 is seat 1


def test_every_problem_of_a_clumsy_form_is_named_at_once(client, db, new_game_form):
    names = ["Ann", "ann ", "", "Dan", "Eve", "Fay"]
    response = client.post("/games/new", data=new_game_form(names=names, target="0"))
    assert response.status_code == 422
    page = Page(response)
    (alert,) = page.alerts()
    assert "ann can't sit twice (seats 1 and 2)." in alert  # as typed in seat 2
    assert "Seat 3 needs a player." in alert
    assert "Play to: The target must be from 1 to 999." in alert
    marked = [field.get("name") for field in page.root.find_all("input")
              if field.get("aria-invalid") == "true"]
    assert marked == ["seat_2", "seat_3", "target"]
    nothing_stored(db)


@pytest.mark.parametrize("content_type", ["application/x-www-form-urlencoded",
                                          "multipart/form-data"])
@pytest.mark.parametrize("field, value", [
    ("seat_2", "Bo\x00b"), ("place", "The\x00Anchor"), ("note", "\x00"), ("bad\x00key", "1"),
])
def test_a_null_character_anywhere_is_refused_in_the_page_and_stores_nothing(
        client, db, new_game_form, field, value, content_type):
    """No database column can keep a NUL (PostgreSQL refuses it outright)."""
    response = client.post("/games/new", data=new_game_form(evening="new", **{field: value}),
                           content_type=content_type)
    assert response.status_code == 400
    assert "null character" in Page(response).text and "Nothing was changed" in Page(response).text
    nothing_stored(db)


@pytest.mark.parametrize("method, url", [("GET", "/?player=a%00b"), ("GET", "/join/%00x"),
                                         ("POST", "/join/ab%00c/name")])
def test_a_null_character_in_an_address_is_refused_in_the_page(client, stranger, method, url):
    for phone in (client, stranger):
        response = phone.open(url, method=method)
        assert response.status_code == 400 and "null character" in Page(response).text



def test_a_head_request_is_a_look_never_a_submission(client, db, new_game_form):
    from scorekeeper.store.models import Evening

    """HEAD is GET without the body: it shows the form's answer, and never starts a game
    or an evening, whatever its address holds."""
    games, evenings = count(db, Game), count(db, Evening)
    filled = client.head("/games/new", query_string=new_game_form())
    assert filled.status_code == 200
    assert (count(db, Game), count(db, Evening)) == (games, evenings)
    assert client.head("/games/new").status_code == 200
    assert client.head("/games/import").status_code == 200
    assert client.get("/games/import").status_code == 200


def test_the_keyboard_stops_at_the_longest_name_place_and_note_kept(client):
    """Each text field's maxlength is the column's length in models.py."""
    page = Page(client.get("/games/new"))
    lengths = {field.get("name"): field.get("maxlength")
               for field in page.root.find_all("input", type="text")}
    seats = {f"seat_{seat}": str(PLAYER_NAME_LENGTH) for seat in range(1, 7)}
    assert lengths == {**seats, "place": str(PLACE_LENGTH), "note": str(NOTE_LENGTH)}
