"""Recording a played hand: the Hand row, the scores on the page, and refusals.

Every expected score is worked out by hand from RULES.md ("Scoring after each hand"):
the bidding team scores +P if it took at least its bid, else −bid; others score +P.
Dealer seat 1 (Ann): Bob (seat 2, team B) is first to call.
"""
from __future__ import annotations

import pytest
from werkzeug.datastructures import MultiDict

from tests.views.view_helpers import Hand, Page, as_int, calls_for, count, hands_of

BOB_BIDS_4 = calls_for(1, {2: 4})
BOB_BIDS_3 = calls_for(1, {2: 3})


def preview(client, game_id, query):
    response = client.get(f"/games/{game_id}", query_string=query)
    return Page(response).section_text("preview")


def test_the_worked_example_is_stored_and_scored(client, db, start_game, play):
    game = start_game()
    assert BOB_BIDS_4 == "4,pass,pass,pass,pass,pass"
    # A takes High and Game; B takes Low and Right; C takes Left and Joker.
    query = {"calls": BOB_BIDS_4, "trump": "hearts", "high": "A", "low": "B", "right": "B",
             "left": "C", "joker": "C", "game": "A"}
    assert preview(client, game, query) == "B bid 4, took 2: set, −4. A +2, C +2."
    assert count(db, Hand) == 0  # the preview writes nothing

    play(game, 1, BOB_BIDS_4, "hearts", "ABBCC", "A")
    (hand,) = hands_of(db, game)
    assert hand.number == 1
    assert hand.calls == [4, "pass", "pass", "pass", "pass", "pass"]
    assert hand.trump == "hearts"
    assert hand.points == {"high": "A", "low": "B", "right": "B", "left": "C", "joker": "C",
                           "game": "A"}
    assert hand.game_values is None
    assert hand.undone_at is None

    page = Page(client.get(f"/games/{game}"))
    assert page.scores() == {"A": 2, "B": -4, "C": 2}
    # The scoreboard writes the minus as "-4" or "−4"; either reads as minus four.
    assert page.score_texts()["B"] in ("-4", "−4")
    line = page.history()[1]
    assert "Ann dealt." in line["head"] and "Bob (B) bid 4" in line["head"]
    assert "took 2: set" in line["head"]
    assert {t: as_int(c) for t, c in line["changes"].items()} == {"A": 2, "B": -4, "C": 2}
    assert line["scores"] == {"A": 2, "B": -4, "C": 2}
    assert "High A · Low B · Right Bauer B · Left Bauer C · Joker C · Game A" in line["text"]
    assert page.entry_title() == "Hand 2"


def test_a_made_bid_scores_every_point_taken(client, db, start_game, play):
    game = start_game()
    query = {"calls": BOB_BIDS_3, "trump": "clubs", "high": "B", "low": "B", "right": "B",
             "left": "B", "joker": "B", "game": "A"}
    assert preview(client, game, query) == "B bid 3, took 5: made, +5. A +1, C +0."
    play(game, 1, BOB_BIDS_3, "clubs", "BBBBB", "A")
    page = Page(client.get(f"/games/{game}"))
    assert page.scores() == {"A": 1, "B": 5, "C": 0}  # +5 on a bid of 3
    assert "made" in page.history()[1]["head"]


def test_game_tied_gives_out_five_points(client, db, start_game, play):
    game = start_game()
    play(game, 1, BOB_BIDS_3, "spades", "BBBAC", "none")
    (hand,) = hands_of(db, game)
    assert hand.points["game"] is None
    page = Page(client.get(f"/games/{game}"))
    assert page.scores() == {"A": 1, "B": 3, "C": 1}
    assert sum(page.scores().values()) == 5
    assert "Game nobody" in page.history()[1]["text"]


@pytest.mark.parametrize("values, game_to, scores", [
    # B has the most game value: B takes Low, Right and Game = 3, makes its 3.
    ({"A": 30, "B": 40, "C": 11}, "B", {"A": 1, "B": 3, "C": 2}),
    # A and B tie on the most: nobody takes Game; B has 2 of its 3 and is set.
    ({"A": 35, "B": 35, "C": 11}, None, {"A": 1, "B": -3, "C": 2}),
    # C counted most: Game to C.
    ({"A": 10, "B": 20, "C": 51}, "C", {"A": 1, "B": -3, "C": 3}),
])
def test_game_values_decide_game(client, db, start_game, play, values, game_to, scores):
    game = start_game()
    play(game, 1, BOB_BIDS_3, "diamonds", "ABBCC", values=values)
    (hand,) = hands_of(db, game)
    # The row keeps the values counted, and the Game they decided beside them.
    assert hand.game_values == values
    assert hand.points == {"high": "A", "low": "B", "right": "B", "left": "C", "joker": "C",
                           "game": game_to}
    page = Page(client.get(f"/games/{game}"))
    assert page.scores() == scores
    counted = ", ".join(f"{team} {value}" for team, value in values.items())
    assert f"Game {game_to or 'nobody'} (counted: {counted})" in page.history()[1]["text"]


def test_a_hand_whose_game_was_tapped_shows_no_count(client, start_game, play):
    game = start_game()
    play(game, 1, BOB_BIDS_3, "diamonds", "ABBCC", "B")
    assert "counted" not in Page(client.get(f"/games/{game}")).history()[1]["text"]


@pytest.mark.parametrize("values, total", [
    ({"A": 50, "B": 30, "C": 2}, 82),
    ({"A": 1000, "B": 0, "C": 0}, 1000),
])
def test_game_values_over_81_are_refused_for_their_total(client, db, start_game, record,
                                                         values, total):
    game = start_game()
    response = record(game, 1, BOB_BIDS_3, "hearts", "ABBCC", values=values)
    assert response.status_code == 422
    (alert,) = Page(response).alerts()
    assert f"add up to {total}" in alert and "81" in alert
    assert count(db, Hand) == 0


def test_the_game_value_fields_go_up_to_the_decks_value_and_say_so(client, start_game):
    """The deck holds 81 of game value (RULES.md, "Cards"): the fields let a phone's
    keypad stop there, and the hint says it."""
    page = Page(client.get(f"/games/{start_game()}"))
    fields = page.root.find_all("input", type="number")
    assert {field.get("name") for field in fields} == {"value_A", "value_B", "value_C"}
    assert {(field.get("min"), field.get("max")) for field in fields} == {("0", "81")}
    assert "81 in the whole deck" in page.by_id("tally").text()


def test_counted_game_values_decide_game_over_the_team_picked(client, db, start_game, record):
    # Game picked for A, but the values counted give B the most: the count decides.
    # B (Bob bid 3) takes Low, Right and Game = 3: made. A +1 (High), C +2.
    game = start_game()
    response = record(game, 1, BOB_BIDS_3, "hearts", "ABBCC", game="A",
                      values={"A": 10, "B": 60, "C": 11})
    assert response.status_code == 303
    (hand,) = hands_of(db, game)
    assert hand.points["game"] == "B" and hand.game_values == {"A": 10, "B": 60, "C": 11}
    assert Page(client.get(f"/games/{game}")).scores() == {"A": 1, "B": 3, "C": 2}


@pytest.mark.parametrize("owners, game_choice, missing", [
    ("ABBC-", "A", "Joker"),
    ("-BBCC", "A", "High"),
    ("ABBCC", None, "Game"),
    ("-----", None, "High, Low, Right Bauer, Left Bauer, Joker, Game"),
])
def test_an_unassigned_point_is_named_and_nothing_recorded(client, db, start_game, record,
                                                          owners, game_choice, missing):
    game = start_game()
    response = record(game, 1, BOB_BIDS_4, "hearts", owners, game_choice)
    assert response.status_code == 422
    page = Page(response)
    assert page.alerts() == [f"Still to choose: {missing}."]
    assert count(db, Hand) == 0
    # The choices made so far are still on the form, to finish rather than redo.
    tally = page.form_posting_to(f"/games/{game}/hands")
    assert tally.checked("right") == (owners[2] if owners[2] != "-" else None)


@pytest.mark.parametrize("owners, game_choice, point", [
    ("ABBCA", "A", "Left Bauer"),  # C for the Left Bauer in a game of teams A and B
    ("ABBAA", "C", "Game"),
])
def test_a_point_to_a_team_not_in_the_game_is_refused(client, db, start_game, record,
                                                     owners, game_choice, point):
    game = start_game(teams="2x3")
    response = record(game, 1, BOB_BIDS_4, "hearts", owners, game_choice)
    assert response.status_code == 422
    assert Page(response).alerts() == [f"{point}: choose one of this game's teams."]
    assert count(db, Hand) == 0


@pytest.mark.parametrize("form, message", [
    ({"calls": BOB_BIDS_4}, "Choose trump first."),
    ({"calls": "pass,4"}, "The auction is not over yet"),
    ({"calls": "pass,4,3,pass,pass,pass", "trump": "hearts"}, "A bid must be higher than 4."),
    ({"calls": BOB_BIDS_4, "trump": "stars"}, "Trump must be spades, hearts, diamonds or clubs."),
])
def test_an_unfinished_or_unreadable_hand_is_refused(client, db, start_game, form, message):
    game = start_game()
    data = {"number": "1", "high": "A", "low": "B", "right": "B", "left": "C", "joker": "C",
            "game": "A", **form}
    response = client.post(f"/games/{game}/hands", data=data)
    assert response.status_code == 422
    (alert,) = Page(response).alerts()
    assert message in alert
    assert count(db, Hand) == 0


def test_a_record_without_a_hand_number_is_refused(client, db, start_game):
    game = start_game()
    response = client.post(f"/games/{game}/hands", data={"calls": BOB_BIDS_4})
    assert response.status_code == 422
    assert Page(response).alerts() == ["That form was incomplete; nothing was recorded."]
    assert count(db, Hand) == 0


def test_the_tally_form_on_the_page_records_the_hand(client, db, start_game):
    """The page's own form, radios and all, as a phone without JavaScript sends it."""
    game = start_game()
    page = Page(client.get(f"/games/{game}", query_string={
        "calls": BOB_BIDS_4, "trump": "hearts", "high": "A", "low": "B", "right": "B",
        "left": "C", "joker": "C", "game": "A"}))
    tally = page.form_posting_to(f"/games/{game}/hands")
    assert tally.checked("high") == "A" and tally.checked("game") == "A"
    fields = dict(tally.fields())
    assert fields["number"] == "1"
    response = client.post(tally.action, data=MultiDict(tally.fields()))
    assert response.status_code == 303
    (hand,) = hands_of(db, game)
    assert hand.points["left"] == "C"
    assert Page(client.get(f"/games/{game}")).scores() == {"A": 2, "B": -4, "C": 2}


def test_what_stops_a_hand_is_said_beside_record_and_at_the_point_concerned(client, db,
                                                                          start_game):
    game = start_game()
    response = client.post(f"/games/{game}/hands", data={
        "number": "1", "turn_1": "4", "trump": "hearts", "high": "A", "low": "B",
        "right": "B", "left": "C", "game": "A"})  # the Joker left out
    assert response.status_code == 422
    page = Page(response)
    problem = page.by_id("record-problem")
    assert problem.text() == "Still to choose: Joker."
    # Right above Record, in the hand's own form, not at the top of the page.
    tally = page.by_id("tally")
    children = [child for child in tally.children if not isinstance(child, str)]
    classes = [" ".join(sorted(child.classes)) for child in children]
    assert classes.index("alert record-problem") < classes.index("big primary record")
    joker = page.root.find("fieldset", class_="point-joker")
    assert joker.get("aria-invalid") == "true"
    assert joker.get("aria-describedby") == "record-problem"
    # The choices made are still there, to finish rather than redo.
    form = page.root.find("form", id="hand-form")
    assert "tried" in form.classes
    assert count(db, Hand) == 0


def test_counted_values_over_the_deck_point_at_the_game_row(client, db, start_game):
    game = start_game()
    response = client.post(f"/games/{game}/hands", data={
        "number": "1", "turn_1": "4", "trump": "hearts", "rest": "A",
        "value_A": "50", "value_B": "40"})
    assert response.status_code == 422
    page = Page(response)
    assert page.by_id("record-problem").text() == (
        "Hand 1: The game values add up to 90, but the whole deck holds only 81.")
    assert page.root.find("fieldset", class_="point-game").get("aria-invalid") == "true"
    assert count(db, Hand) == 0


def test_in_persian_the_number_fields_show_and_take_persian_digits(client, start_game):
    """A number input neither shows nor takes ۰-۹, so a Persian page's number fields are
    text fields taking digits, showing what was counted in Persian digits."""
    game = start_game()
    client.set_cookie("lang", "fa")
    page = Page(client.get(f"/games/{game}", query_string={"value_A": "40", "value_B": "۲۵"}))
    fields = {field.get("name"): field for field in page.root.find_all("input", inputmode="numeric")}
    assert {name for name in fields} == {"value_A", "value_B", "value_C"}
    assert {(field.get("type"), field.get("max")) for field in fields.values()} == {("text", None)}
    assert fields["value_A"].get("value") == "۴۰" and fields["value_B"].get("value") == "۲۵"
    target = Page(client.get("/games/new")).root.find("input", id="target")
    assert (target.get("type"), target.get("value")) == ("text", "۲۱")
    board = Page(client.get("/players", query_string={"min": "۲"})).root.find("input", id="min")
    assert (board.get("type"), board.get("value")) == ("text", "۲")


def test_a_hand_kept_while_the_deal_moved_keeps_each_seats_call(client, db, start_game, play):
    """A phone kept hand 2 offline believing hand 1 thrown in (so Ann dealt again, and its
    first turn was Bob's); another phone recorded hand 1 as played, so Bob deals hand 2.
    Sent with the dealer it was entered with (dealt_by), hand 2 is Bob's bid still, and
    so is the hand another phone recorded the same way: taken as sent, not refused."""
    game = start_game()
    play(game, 1, BOB_BIDS_4, "hearts", "ABBCC", "A")
    kept = {"number": "2", "dealt_by": "1", "turn_1": "4", "trump": "clubs",
            **{point: "B" for point in ("high", "low", "right", "left", "joker", "game")}}
    response = client.post(f"/games/{game}/hands", data=kept)
    assert response.status_code == 303, response.text
    hand = hands_of(db, game)[-1]
    assert hand.number == 2
    # Bob dealt: Cid (seat 3) called first, Bob last; Bob's 4 is the last call.
    assert hand.calls == ["pass", "pass", "pass", "pass", "pass", 4]

    again = client.post(f"/games/{game}/hands", data={**kept, "entry_key": "kept-on-phone-2"})
    assert again.status_code == 303  # the same hand: nothing refused, nothing written
    assert len(hands_of(db, game)) == 2
