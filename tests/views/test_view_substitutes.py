"""A substitute from a hand on, through the pages: shown with what it changes first
(nothing written), then made; the history, the players' pages and the leaderboard's CSV
say who sat at each hand; it is kept in the change log and can be taken back; input
that can't be is refused in the page, changing nothing.

The game is tests/test_substitutes.py's, laid out and worked out by hand there.
"""
from __future__ import annotations

import csv
import io


from scorekeeper.store.models import Game, GameChange, GameSeat
from tests.members import client_as
from tests.test_substitutes import HANDS, SUBSTITUTES, TEAM, expected_figures, who
from tests.views.view_helpers import Page, calls_for, hand_form, rows

SUITS = {"hearts": "♥", "spades": "♠", "clubs": "♣", "diamonds": "♦"}


def form_of(number: int) -> dict:
    dealer, bidder, bid, trump, owners, game, _made = HANDS[number - 1]
    if bidder is None:
        return hand_form(number, ",".join(["pass"] * 6))
    return hand_form(number, calls_for(dealer, {bidder: bid}), trump, owners, game or "none")


def substitute(client, game: int, seat: int, number: int, name: str, **extra):
    return client.post(f"/games/{game}/seats/substitute",
                       data={"seat": str(seat), "from_hand": str(number), "name": name,
                             **extra})


def made(client, game: int, seat: int, number: int, name: str) -> None:
    """Check the substitute, then make it with the form the check shows."""
    checked = Page(substitute(client, game, seat, number, name))
    form, _button = checked.button("Make this change")
    assert client.post(form.action, data=dict(form.fields())).status_code == 303


def record(client, game: int, number: int) -> None:
    response = client.post(f"/games/{game}/hands", data=form_of(number))
    assert response.status_code == 303, response.text[:1000]


def the_game(client, start_game, play, upto: int = len(HANDS)) -> int:
    """The hands recorded in turn, each substitute made before the hand they play first."""
    game = start_game(target="11")
    coming = {number: (seat, name) for seat, number, name in SUBSTITUTES}
    for number in range(1, upto + 1):
        if number in coming:
            made(client, game, coming[number][0], number, coming[number][1])
        record(client, game, number)
    return game


def changes_of(db, game):
    return rows(db, GameChange, GameChange.game_id == game, order_by=GameChange.id)


def seats_of(db, game):
    return sorted((s.seat, s.from_hand, s.player_id)
                  for s in rows(db, GameSeat, GameSeat.game_id == game))


def test_a_substitute_is_shown_first_then_made(client, db, start_game, play):
    game = the_game(client, start_game, play, upto=2)
    client.get(f"/games/{game}")  # its notices read
    before = seats_of(db, game)
    checked = Page(substitute(client, game, 1, 3, "Gil"))
    assert checked.status == 200
    assert checked.section_text("check-title") == \
        "Ann leaves, Gil takes seat 1 from hand 3 on?"
    sentences = [li.text() for li in checked.by_id("check").find_all("li")]
    assert sentences == [
        "From hand 3 on, seat 1 is Gil (Ann played hands 1–2).",
        "Gil plays for team A with Dan: what seat 1 bids and takes from hand 3 on counts "
        "for Gil.",
        "Gil is new to the club's players.",
        "Every hand stays as recorded, by seat: the scores stay as they are.",
    ]
    assert seats_of(db, game) == before and not [
        c for c in changes_of(db, game) if c.kind == "subbed"]  # nothing written yet
    form, _button = checked.button("Make this change")
    done = client.post(form.action, data=dict(form.fields()))
    assert done.status_code == 303
    page = Page(client.get(f"/games/{game}"))
    assert page.notices()[0] == "Gil sits in seat 1 from hand 3 on."
    assert page.team_names()["A"] == "Gil & Dan"
    assert "Dealer: Cid (seat 3)." in page.section_text("hand-entry")
    assert page.history()[1]["head"].startswith("1. Ann dealt.")
    fix = Page(client.get(f"/games/{game}/fix"))
    assert fix.section_text("substitutes-title") == "Substitutes in this game"
    assert "From hand 3 on, seat 1 is Gil (Ann played hands 1–2)" in fix.text
    assert fix.has_button("Take back Gil in seat 1…")


def test_the_history_says_who_dealt_and_who_bid_at_each_hand(client, db, start_game, play):
    game = the_game(client, start_game, play)
    history = Page(client.get(f"/games/{game}")).history()
    assert sorted(history) == list(range(1, len(HANDS) + 1))
    for number, (dealer, bidder, bid, trump, *_rest) in enumerate(HANDS, 1):
        head = history[number]["head"]
        expected = f"{number}. {who(dealer, number)} dealt."
        if bidder is None:
            expected += " All passed: thrown in."
        else:
            expected += (f" {who(bidder, number)} ({TEAM[bidder]}) bid {bid} "
                         f"{SUITS[trump]}, took")
        assert head.startswith(expected), head
    came = {number: (seat, name) for seat, number, name in SUBSTITUTES}
    page = Page(client.get(f"/games/{game}"))
    for number in range(1, len(HANDS) + 1):
        said = [p.text() for p in page.by_id(f"deal-{number}").find_all("p", class_="deal-seat")]
        if number in came:
            seat, name = came[number]
            assert said == [f"From this hand on, {name} sits in seat {seat} instead of "
                            f"{who(seat, number - 1)}."], number
        else:
            assert said == [], number


def leaderboard(client) -> dict[str, dict[str, str]]:
    text = client.get("/players.csv").get_data(as_text=True).lstrip("\ufeff")
    return {row["Player"]: row for row in csv.DictReader(io.StringIO(text))}


def test_each_players_figures_and_partners_are_the_hands_they_sat_at(client, db, start_game,
                                                                     play):
    the_game(client, start_game, play)
    figures = expected_figures()
    board = leaderboard(client)
    assert set(board) == set(figures)
    for name, me in figures.items():
        row = board[name]
        assert (row["Played"], row["Won"], row["Lost"]) == \
            ("1", str(me["won"]), str(1 - me["won"])), name
        assert (row["Hands played"], row["Bids"], row["Made"], row["Throw-ins dealt"]) == \
            (str(me["hands"]), str(me["bids"]), str(me["made"]), str(me["throw_ins"])), name
        per_hand = float(row["All points taken per hand"])
        assert abs(per_hand - me["points"] / me["hands"]) < 1e-4, name
    players = {p["name"]: p["id"] for p in (
        {"name": a.text(), "id": a.get("href").rsplit("/", 1)[1]}
        for a in Page(client.get("/players")).root.find_all("a")
        if (a.get("href") or "").startswith("/players/"))}
    for name, me in figures.items():
        page = Page(client.get(f"/players/{players[name]}"))
        table = page.by_id("partners")
        partners = {row.find("th").text(): [cell.text() for cell in row.find_all("td")][:3]
                    for row in table.find("tbody").find_all("tr")}
        assert set(partners) == me["partners"], name
        for partner in partners.values():
            assert partner == ["1", str(me["won"]), str(1 - me["won"])], name


def test_a_substitute_is_in_the_change_log_and_can_be_taken_back(client, db, start_game,
                                                                 play):
    game = the_game(client, start_game, play, upto=4)
    client.get(f"/games/{game}")  # its notices read
    logged = [c for c in changes_of(db, game) if c.kind == "subbed"]
    assert [(c.number, c.details) for c in logged] == [
        (3, {"seat": 1, "from": "Ann", "to": "Gil"}), (4, {"seat": 4, "from": "Dan", "to": "Hal"})]
    assert logged[0].totals_before == logged[0].totals_after == {"A": 3, "B": -3, "C": 6}
    entries = Page(client.get(f"/games/{game}/changes")).root.find_all("li")
    assert len(entries) == len(changes_of(db, game)) == 6  # 4 hands, 2 substitutes

    fix = Page(client.get(f"/games/{game}/fix"))
    form, button = fix.button("Take back Gil in seat 1…")
    checked = Page(client.post(form.action, data=dict(form.fields())))
    assert checked.section_text("check-title") == "Take back Gil in seat 1 from hand 3?"
    assert [li.text() for li in checked.by_id("check").find_all("li")] == [
        "From hand 3 on, seat 1 is Ann again: Gil leaves the game (Gil played hands 3–4).",
        "Every hand stays as recorded, by seat: the scores stay as they are.",
    ]
    form, _button = checked.button("Make this change")
    assert client.post(form.action, data=dict(form.fields())).status_code == 303
    # Tapped twice: told it is done, and nothing more is written.
    assert client.post(form.action, data=dict(form.fields())).status_code == 303
    page = Page(client.get(f"/games/{game}"))
    assert page.notices()[0].startswith("Ann plays seat 1 from hand 3 on again.")
    assert page.team_names()["A"] == "Ann & Hal"
    assert page.history()[4]["head"].startswith("4. Hal dealt. Ann (A) bid 4")
    assert [c.kind for c in changes_of(db, game)].count("unsubbed") == 1
    assert changes_of(db, game)[-1].details == {"seat": 1, "from": "Gil", "to": "Ann"}
    assert len(Page(client.get(f"/games/{game}/changes")).root.find_all("li")) == 7


def test_a_confirm_tapped_twice_makes_one_substitute(client, db, start_game, play):
    game = the_game(client, start_game, play, upto=2)
    checked = Page(substitute(client, game, 1, 3, "Gil"))
    form, _button = checked.button("Make this change")
    assert client.post(form.action, data=dict(form.fields())).status_code == 303
    again = client.post(form.action, data=dict(form.fields()))
    assert again.status_code == 303
    assert [c.kind for c in changes_of(db, game)].count("subbed") == 1
    assert len(seats_of(db, game)) == 7


def test_input_that_cant_be_is_refused_in_the_page_and_changes_nothing(client, db,
                                                                      start_game, play):
    game = the_game(client, start_game, play, upto=4)
    revision, seats = db.get(Game, game).revision, seats_of(db, game)
    refusals = [
        ((1, 1, "Ivy"), "From hand 1 on, someone else sat in seat 1 all game: that is a "
                        "wrong name, not a substitute. Correct it under “A name is wrong”."),
        ((1, 0, "Ivy"), "There is no hand 0 in this game."),
        ((1, 6, "Ivy"), "There is no hand 6 in this game."),  # the next hand is 5
        ((2, 5, "cid"), "Cid can't sit twice (seats 3 and 2)."),
        ((2, 5, "Hal"), "Hal can't sit twice (seats 4 and 2)."),
        ((1, 5, "Ann"), "Ann sat in seat 1 in another part of this game: a player sits in "
                        "one seat, for one stretch, in a game."),
        ((1, 5, " GIL "), "Seat 1 holds that name already."),
        ((1, 3, "Ivy"), "Gil took seat 1 at hand 3 already: take that back first to name "
                        "someone else."),
        ((1, 5, "   "), "Seat 1 needs a player."),
        ((1, 5, "I" * 41), "Seat 1: a name may have at most 40 letters."),
        ((7, 5, "Ivy"), "Seat: Number must be between 1 and 6."),
        (("one", 5, "Ivy"), "Seat: Not a valid integer value. Seat: Number must be "
                            "between 1 and 6."),
        ((1, "five", "Ivy"), "From hand: Not a valid integer value."),
        ((1, "", "Ivy"), "From hand: This field is required."),
    ]
    for (seat, number, name), message in refusals:
        response = substitute(client, game, seat, number, name, confirm="y")
        assert response.status_code == 422, (seat, number, name)
        assert Page(response).alerts() == [message], (seat, number, name)
    taken_back = client.post(f"/games/{game}/seats/take-back",
                             data={"seat": "2", "from_hand": "3", "confirm": "y"})
    assert taken_back.status_code == 422
    assert Page(taken_back).alerts() == ["Nobody took seat 2 at hand 3 (any more)."]
    db.expire_all()
    assert db.get(Game, game).revision == revision and seats_of(db, game) == seats
    assert [c.kind for c in changes_of(db, game)].count("subbed") == 2


def test_the_next_hand_of_a_finished_game_takes_no_substitute(client, db, start_game, play):
    game = the_game(client, start_game, play)
    response = substitute(client, game, 2, 8, "Ivo")
    assert response.status_code == 422
    assert Page(response).alerts() == ["There is no hand 8 in this game."]
    fix = Page(client.get(f"/games/{game}/fix"))
    options = [o.text() for o in fix.by_id("substitute-from").find_all("option")]
    assert options == [f"hand {n}" for n in range(2, len(HANDS) + 1)]


def test_a_game_not_begun_offers_no_substitute(client, start_game):
    game = start_game()
    fix = Page(client.get(f"/games/{game}/fix"))
    assert fix.by_id("substitute-title") is None  # from hand 1 on, a name is wrong


def test_a_check_shown_before_another_phones_hand_writes_nothing(client, db, start_game,
                                                                 play):
    game = the_game(client, start_game, play, upto=2)
    checked = Page(substitute(client, game, 1, 3, "Gil"))
    form, _button = checked.button("Make this change")
    record(client, game, 3)  # meanwhile, on another phone
    response = client.post(form.action, data=dict(form.fields()))
    assert response.status_code == 409
    assert "changed on another phone" in Page(response).alerts()[0]
    assert len(seats_of(db, game)) == 6


def test_a_viewer_and_an_abandoned_game_change_nothing(app, client, db, start_game, play):
    game = the_game(client, start_game, play, upto=2)
    viewer = client_as(app, "viewer")
    assert viewer.post(f"/games/{game}/seats/substitute", data={
        "seat": "1", "from_hand": "3", "name": "Gil", "confirm": "y"}).status_code == 403
    client.post(f"/games/{game}/abandon", data={"confirm": "y"})
    response = substitute(client, game, 1, 3, "Gil", confirm="y")
    assert response.status_code == 409 and "This game was abandoned" in response.text
    assert len(seats_of(db, game)) == 6


def test_the_fix_page_lists_each_substitute_and_the_hands_each_sat(client, start_game, play):
    game = the_game(client, start_game, play)
    fix = Page(client.get(f"/games/{game}/fix"))
    listed = [li.find("p").text() for li in fix.by_id("substitutes-title").parent
              .find("ul").find_all("li")]
    assert listed == [
        "From hand 3 to hand 5, seat 1 is Gil (Ann played hands 1–2)",
        "From hand 4 on, seat 4 is Hal (Dan played hands 1–3)",
        "From hand 6 on, seat 1 is Ivy (Gil played hands 3–5)",
    ]
    form, _button = fix.button("Take back Gil in seat 1…")
    checked = Page(client.post(form.action, data=dict(form.fields())))
    assert checked.by_id("check").find("li").text() == (
        "From hand 3 to hand 5, seat 1 is Ann again: Gil leaves the game (Gil played "
        "hands 3–5).")


def test_a_substitute_who_sat_down_for_the_next_hand_played_none_yet(client, start_game,
                                                                     play):
    game = the_game(client, start_game, play, upto=2)
    made(client, game, 1, 3, "Gil")
    checked = Page(client.post(f"/games/{game}/seats/take-back",
                               data={"seat": "1", "from_hand": "3"}))
    assert checked.by_id("check").find("li").text() == (
        "From hand 3 on, seat 1 is Ann again: Gil leaves the game (Gil played no hand yet).")
