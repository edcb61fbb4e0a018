"""Tables of four and five, and cutthroat at six, on the pages: the new-game form seats
the layout's players, the hand form asks each of them in turn and offers every team, and
a game plays to its end (RULES.md, "Tables of four, five and six"; each sentence
expected is typed here as the page says it).
"""
from __future__ import annotations

import io
import json

import pytest

from scorekeeper.store.models import Game, GameSeat
from tests.views.view_helpers import Page, count, hands_of, rows, seat_players

FOUR = ["Ann", "Bob", "Cid", "Dan"]
FIVE = ["Ann", "Bob", "Cid", "Dan", "Eve"]


def turn_names(page: Page) -> list[str]:
    """The bidding's rows, as the hand form lists them: each seat's player."""
    return [fieldset.find("legend").text() for fieldset in page.root.find_all(
        "fieldset", class_="turn")]


def team_buttons(page: Page, point: str) -> list[str]:
    return [field.get("value") for field in page.root.find_all("input", name=point)]


def seats_offered(page: Page) -> list[str]:
    """The seat fields the new-game page shows (not the hidden ones a smaller table
    keeps)."""
    return [field.get("name") for field in page.root.find_all("input")
            if (field.get("name") or "").startswith("seat_") and field.get("type") != "hidden"]


# --- the new-game form ------------------------------------------------------------------

def test_the_new_game_form_offers_every_layout_by_the_tables_size(client):
    page = Page(client.get("/games/new"))
    assert team_buttons(page, "teams") == ["3x2", "2x3", "c6", "2x2", "c4", "c5"]
    text = page.text
    for words in ("6 players", "Three pairs (1 & 4, 2 & 5, 3 & 6)", "4 players",
                  "Two pairs (1 & 3, 2 & 4)", "5 players", "Each for themselves"):
        assert words in text
    assert seats_offered(page) == [f"seat_{seat}" for seat in range(1, 7)]


@pytest.mark.parametrize("layout, seats", [("2x2", 4), ("c4", 4), ("c5", 5), ("c6", 6)])
def test_a_layout_chosen_shows_its_tables_seats_and_first_dealers(client, layout, seats):
    page = Page(client.get("/games/new", query_string={"teams": layout}))
    assert seats_offered(page) == [f"seat_{seat}" for seat in range(1, seats + 1)]
    assert team_buttons(page, "first_dealer") == ["random"] + [str(s) for s in range(1, seats + 1)]
    # Each for themselves, each a team of one: no teams to balance.
    assert ("Balance the teams" in page.text) == (layout == "2x2")


def test_choosing_a_layout_redraws_the_seats_and_dealers_keeping_what_was_typed(client):
    typed = {f"seat_{seat}": name for seat, name in enumerate(FIVE + ["Fay"], start=1)}
    response = client.get("/games/new", query_string={**typed, "teams": "c4"},
                          headers={"HX-Request": "true", "HX-Target": "teams-preview",
                                   "HX-Trigger-Name": "teams"})
    page = Page(response)
    seats = page.by_id("seats")
    assert seats.get("hx-swap-oob") == "true"
    shown = [field.get("value") for field in seats.find_all("input")
             if field.get("type") != "hidden"]
    kept = [field.get("value") for field in seats.find_all("input")
            if field.get("type") == "hidden"]
    assert (shown, kept) == (FOUR, ["Eve", "Fay"])
    dealers = page.by_id("dealer-choices")
    assert [field.get("value") for field in dealers.find_all("input")] == [
        "random", "1", "2", "3", "4"]
    assert [item.text().split(":")[0] for item in page.by_id("teams-preview").find_all("li")
            ] == ["A", "B", "C", "D"]


def test_typing_a_name_redraws_the_teams_only(client):
    response = client.get("/games/new", query_string={"seat_1": "Ann", "teams": "c4"},
                          headers={"HX-Request": "true", "HX-Target": "teams-preview",
                                   "HX-Trigger-Name": "seat_1"})
    assert 'id="seats"' not in response.get_data(as_text=True)


@pytest.mark.parametrize("layout, names", [("2x2", FOUR), ("c4", FOUR), ("c5", FIVE)])
def test_a_small_table_starts_with_its_players_in_its_seats(client, db, start_game, layout,
                                                            names):
    # Names typed in a table of six's seats before a smaller table was chosen stay out.
    game_id = start_game(names=names + ["Zed", "Yan"][:6 - len(names)], teams=layout)
    (game,) = rows(db, Game)
    assert game.teams == layout
    assert [player.name for _, player in sorted(seat_players(db, game_id).items())] == names
    page = Page(client.get(f"/games/{game_id}"))
    # Seat 1 deals: the bidding goes round from seat 2, the dealer last.
    assert turn_names(page) == names[1:] + names[:1]


@pytest.mark.parametrize("layout, names", [("2x2", FOUR), ("c5", FIVE)])
def test_the_last_seat_deals_and_seat_1_bids_first(client, start_game, layout, names):
    game_id = start_game(names=names, teams=layout, first_dealer=str(len(names)))
    page = Page(client.get(f"/games/{game_id}"))
    last = len(names)
    assert f"Dealer: {names[-1]} (seat {last}). Ann bids first." in page.text
    assert turn_names(page) == names


def test_a_first_dealer_beyond_the_table_is_refused_and_nothing_stored(client, db,
                                                                       new_game_form):
    response = client.post("/games/new", data=new_game_form(names=FOUR, teams="c4",
                                                            first_dealer="5"))
    assert response.status_code == 422
    assert "First dealer: A table of 4 has no seat 5." in " ".join(Page(response).alerts())
    assert count(db, Game) == count(db, GameSeat) == 0


def test_a_small_table_with_a_seat_empty_says_which(client, db, new_game_form):
    response = client.post("/games/new", data=new_game_form(names=["Ann", "Bob", "", "Dan"],
                                                            teams="2x2"))
    assert response.status_code == 422
    assert "Seat 3 needs a player." in " ".join(Page(response).alerts())
    assert count(db, Game) == 0


# --- hands at four and five -------------------------------------------------------------

def test_cutthroat_at_four_offers_four_teams_and_plays_a_hand(client, db, start_game, play):
    game_id = start_game(names=FOUR, teams="c4")
    page = Page(client.get(f"/games/{game_id}"))
    assert team_buttons(page, "high") == ["A", "B", "C", "D"]
    assert team_buttons(page, "rest") == ["A", "B", "C", "D"]
    # Bob (B) bids 3 and takes High, Low, Right and Game; Ann the Left, Cid the Joker.
    play(game_id, 1, "3,pass,pass,pass", "hearts", "BBBAC", "B")
    page = Page(client.get(f"/games/{game_id}"))
    scores = {item.find(class_="team-letter").text(): item.find(class_="team-score").text()
              for item in page.root.find_all("li", class_="team")}
    assert scores == {"A": "1", "B": "4", "C": "1", "D": "0"}
    # The deal moved left: Bob deals hand 2, Cid bids first.
    assert turn_names(page) == ["Cid", "Dan", "Ann", "Bob"]


def test_pairs_at_four_play_as_two_teams(client, db, start_game, play):
    game_id = start_game(names=FOUR, teams="2x2")
    page = Page(client.get(f"/games/{game_id}"))
    assert team_buttons(page, "high") == ["A", "B"]
    assert "Ann & Cid" in page.section_text("game-scores") if page.by_id("game-scores") \
        else "Ann & Cid" in page.text
    play(game_id, 1, "pass,4,pass,pass", "spades", "AAAAB", "A")  # Cid (A) bids 4
    (hand,) = hands_of(db, game_id)
    assert hand.calls == ["pass", 4, "pass", "pass"]


def test_a_call_for_a_seat_the_table_has_not_is_refused(client, db, start_game, record):
    game_id = start_game(names=FOUR, teams="c4")
    response = record(game_id, 1, "pass,pass,pass,pass,3", "hearts", "BBBAC", "B")
    assert response.status_code == 422
    assert hands_of(db, game_id) == []


def test_cutthroat_at_five_plays_to_its_end(client, db, start_game, play):
    game_id = start_game(names=FIVE, teams="c5", target="5")
    # Seat 1 deals: Bob bids 5 and takes all six points of a hand, 6 points: 6 >= 5.
    play(game_id, 1, "5,pass,pass,pass,pass", "clubs", "BBBBB", "B")
    page = Page(client.get(f"/games/{game_id}"))
    assert "Game over" in page.text
    assert "Bob win!" in page.text
    # No partners to rotate where each played for themselves.
    assert "Next game, new partners" not in page.text
    assert "Next game, same seats" in page.text


# --- the game file ----------------------------------------------------------------------

def test_a_game_of_five_goes_out_and_comes_back_in_a_game_file(client, db, start_game, play):
    game_id = start_game(names=FIVE, teams="c5")
    play(game_id, 1, "3,pass,pass,pass,pass", "clubs", "BBBAC", "E")
    exported = json.loads(client.get(f"/games/{game_id}/export").get_data(as_text=True))
    assert exported["rules"]["teams"] == "c5"
    assert exported["seats"] == FIVE
    assert exported["scores"] == {"A": 1, "B": 3, "C": 1, "D": 0, "E": 1}
    response = client.post("/games/import", data={
        "game_file": (io.BytesIO(json.dumps(exported).encode()), "game.json")},
        content_type="multipart/form-data")
    assert response.status_code == 303, response.get_data(as_text=True)[:800]
    imported = max(game.id for game in rows(db, Game))
    assert [player.name for _, player in sorted(seat_players(db, imported).items())] == FIVE


def test_a_game_file_of_four_with_five_names_is_refused(client, db, start_game):
    game_id = start_game(names=FOUR, teams="2x2")
    exported = json.loads(client.get(f"/games/{game_id}/export").get_data(as_text=True))
    exported["seats"].append("Eve")
    response = client.post("/games/import", data={
        "game_file": (io.BytesIO(json.dumps(exported).encode()), "game.json")},
        content_type="multipart/form-data")
    assert response.status_code == 422
    assert "seats: This table needs exactly 4 players, not 5" in Page(response).text
    assert count(db, Game) == 1


# --- corrections at four ----------------------------------------------------------------

@pytest.mark.parametrize("path, form", [
    ("seats/swap", {"first": "2", "second": "5"}),
    ("seats/rename", {"seat": "5", "name": "Eve"}),
    ("seats/substitute", {"seat": "5", "from_hand": "2", "name": "Eve"}),
])
def test_a_seat_the_table_has_not_is_refused_and_nothing_changes(client, db, start_game, play,
                                                                 path, form):
    game_id = start_game(names=FOUR, teams="2x2")
    play(game_id, 1, "pass,4,pass,pass", "spades", "AAAAB", "A")
    response = client.post(f"/games/{game_id}/{path}", data=form)
    assert response.status_code == 422
    assert "That is not a seat: this table's seats are 1 to 4." in " ".join(
        Page(response).alerts())
    assert [player.name for _, player in sorted(seat_players(db, game_id).items())] == FOUR


def test_two_seats_at_four_are_swapped_and_the_pairs_follow(client, db, start_game, play):
    game_id = start_game(names=FOUR, teams="2x2")
    checked = Page(client.post(f"/games/{game_id}/seats/swap",
                               data={"first": "1", "second": "2"}))
    form, _button = checked.button("Make this change")
    assert client.post(form.action, data=dict(form.fields())).status_code == 303
    page = Page(client.get(f"/games/{game_id}"))
    assert page.team_names() == {"A": "Bob & Cid", "B": "Ann & Dan"}


def test_a_forgotten_hand_at_four_moves_the_next_deal_round_to_seat_1(client, db, start_game,
                                                                      play):
    game_id = start_game(names=FOUR, teams="c4", first_dealer="3")
    # Cid deals hand 1: Dan (4, D) bids 3 and takes High, Low, Right; Ann the rest.
    play(game_id, 1, "3,pass,pass,pass", "hearts", "DDDAA", "A")
    # Dan dealt hand 2 as recorded (Ann bids 3); one was forgotten before it, dealt by
    # Dan: hand 2 goes round from Dan to Ann, seat 4 to seat 1, one seat to the left.
    play(game_id, 2, "3,pass,pass,pass", "spades", "AAABB", "A")
    form = {"number": "2", "bid": "2-4", "trump": "diamonds", **{
        p: "B" for p in ("high", "low", "right", "left", "joker", "game")}}
    checked = Page(client.post(f"/games/{game_id}/hands/insert", data=form))
    assert ("After this correction, hand 3 is now dealt one seat further to the left "
            "(hand 3 by Ann instead of Dan).") in checked.section_text("check")
    client.post(f"/games/{game_id}/hands/insert", data={**form, "confirm": "y"})
    changes = Page(client.get(f"/games/{game_id}/changes")).text
    assert "now dealt one seat further to the left" in changes


def test_the_phone_is_given_a_tie_sentence_for_every_count_of_teams(client, start_game):
    game_id = start_game(names=FIVE, teams="c5")
    words = Page(client.get(f"/games/{game_id}/offline-words"))
    tie = words.root.find("i", data_word="verdict_tie_play_on_5")
    assert tie is not None and tie.text() == (
        "{t1}, {t2}, {t3}, {t4} and {t5} tied on {score} and neither bid: play another hand.")
    assert words.root.find("i", data_word="verdict_more_points_6") is not None


def test_each_of_four_is_told_what_it_needs_to_go_out(client, start_game, play):
    game_id = start_game(names=FOUR, teams="c4", target="5")
    # Ann deals: Bob (B) bids 3 and takes High, Low, Right, Game: 4; Ann the Left, Cid
    # the Joker. A 1, B 4, C 1, D 0.
    play(game_id, 1, "3,pass,pass,pass", "hearts", "BBBAC", "B")
    page = Page(client.get(f"/games/{game_id}"))
    said = [item.text() for item in page.by_id("needs").find_all("li")]
    assert len(said) == 4 and said[1].startswith("If B bids and makes 3, B wins.")
    assert [line.split(" ")[1] if line.startswith("If") else line.split(" ")[0]
            for line in said] == ["A", "B", "C", "D"]
