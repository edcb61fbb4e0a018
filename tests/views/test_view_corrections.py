"""Corrections past one hand, through the pages: each is shown with its consequences
first (nothing written), then made once confirmed, and kept in the change log.

The hands are those of test_view_undo_edit (scored by hand there):
  1. Ann deals; Bob (B) bids 4 ♥, set. A +2, B −4, C +2     -> A 2, B −4, C 2
  2. Bob deals; Cid (C) bids 3 ♠, made. A +1, B +1, C +4    -> A 3, B −3, C 6
  3. Cid deals; Dan (A) bids 3 ♣, made. A +3, B +2          -> A 6, B −1, C 6
"""
from __future__ import annotations

from sqlmodel import select

from scorekeeper.store.models import Game, GameChange
from tests.members import client_as
from tests.views.test_view_undo_edit import GAME_BLOCK, HAND_1, THROW_IN, three_hands
from tests.views.view_helpers import Page, hand_form, hands_of, seat_players


def changes_of(db, game):
    db.expire_all()
    return db.exec(select(GameChange).where(GameChange.game_id == game)
                   .order_by(GameChange.id)).all()


def test_a_forgotten_throw_in_is_shown_first_then_put_in_before_hand_2(client, db, start_game,
                                                                        play):
    game = three_hands(start_game, play)
    page = Page(client.get(f"/games/{game}/hands/insert?before=2"))
    assert page.entry_title() == "A forgotten hand before hand 2"
    assert "Dealer: Bob (seat 2)." in page.section_text("hand-entry")
    form = {"number": "2", "calls": THROW_IN}
    checked = client.post(f"/games/{game}/hands/insert", data=form, headers=GAME_BLOCK)
    assert checked.status_code == 200 and checked.headers["X-Scorekeeper-Verdict"] == "check"
    text = Page(checked).section_text("check")
    assert "Put the forgotten hand in before hand 2?" in text
    assert "The scores stay as they are." in text
    assert len(hands_of(db, game)) == 3  # nothing written yet
    done = client.post(f"/games/{game}/hands/insert", data={**form, "confirm": "y"})
    assert done.status_code == 303
    hands = hands_of(db, game, live_only=True)
    assert sorted(h.number for h in hands) == [1, 2, 3, 4]
    by_number = {h.number: h for h in hands}
    assert by_number[2].points is None and by_number[3].trump == "spades"
    page = Page(client.get(f"/games/{game}"))
    assert page.scores() == {"A": 6, "B": -1, "C": 6}
    assert "The forgotten hand is in, as hand 2" in page.notices()[0]
    history = page.history()
    assert "Bob dealt." in history[2]["head"] and "Bob dealt." in history[3]["head"]
    (change,) = [c for c in changes_of(db, game) if c.kind == "inserted"]
    assert change.number == 2 and change.details == {"thrown_in": True}
    log = Page(client.get(f"/games/{game}/changes")).text
    assert "put in a forgotten hand 2: thrown in" in log


def test_a_forgotten_played_hand_moves_the_later_dealers_and_says_so(client, db, start_game,
                                                                      play):
    game = three_hands(start_game, play)
    # Before hand 3, dealt by Cid: Dan bids 4 ♦ and takes every point.
    form = {"number": "3", "bid": "4-4", "trump": "diamonds", **{
        p: "A" for p in ("high", "low", "right", "left", "joker", "game")}}
    checked = Page(client.post(f"/games/{game}/hands/insert", data=form))
    text = checked.section_text("check")
    assert ("After this correction, hand 4 is now dealt one seat further to the left "
            "(hand 4 by Dan instead of Cid).") in text
    assert "Scores: A 6 → 12, B −1, C 6." in text
    client.post(f"/games/{game}/hands/insert", data={**form, "confirm": "y"})
    hands = {h.number: h for h in hands_of(db, game, live_only=True)}
    assert hands[4].trump == "clubs"
    # Dan's own bid of 3, from Dan's left now: Eve, Fay, Ann, Bob, Cid pass, Dan last.
    assert hands[4].calls == ["pass"] * 5 + [3]
    page = Page(client.get(f"/games/{game}"))
    assert page.scores() == {"A": 12, "B": -1, "C": 6}
    (change,) = [c for c in changes_of(db, game) if c.kind == "inserted"]
    assert change.details["moved"] == [4, 4, True]
    assert change.totals_before == {"A": 6, "B": -1, "C": 6}
    assert change.totals_after == {"A": 12, "B": -1, "C": 6}


def test_a_middle_hand_becomes_a_throw_in_after_its_consequences_are_shown(client, db,
                                                                           start_game, play):
    game = three_hands(start_game, play, count=2)
    checked = client.post(f"/games/{game}/hands/1", data={"number": "1", "calls": THROW_IN},
                          headers=GAME_BLOCK)
    assert checked.status_code == 200
    text = Page(checked).section_text("check")
    assert "hand 2 is now dealt one seat back to the right (hand 2 by Ann instead of Bob)" \
        in text
    assert "Scores: A 3 → 1, B −3 → 1, C 6 → 4." in text
    assert hands_of(db, game)[0].points is not None  # nothing written yet
    done = client.post(f"/games/{game}/hands/1",
                       data={"number": "1", "calls": THROW_IN, "confirm": "y"})
    assert done.status_code == 303
    one, two = hands_of(db, game)
    assert one.points is None and two.calls == ["pass", 3, "pass", "pass", "pass", "pass"]
    assert Page(client.get(f"/games/{game}")).scores() == {"A": 1, "B": 1, "C": 4}
    change = changes_of(db, game)[-1]
    assert change.kind == "edited" and change.details["thrown_in"] == [False, True]
    assert "played → thrown in" in Page(client.get(f"/games/{game}/changes")).text


def test_a_corrected_point_says_what_changed_in_the_notice_and_the_log(client, db,
                                                                       start_game, play):
    game = three_hands(start_game, play, count=1)
    client.get(f"/games/{game}")  # its notice read
    form = hand_form(1, HAND_1[0], "hearts", "ABBCA", "A")
    client.post(f"/games/{game}/hands/1", data=form)
    page = Page(client.get(f"/games/{game}"))
    assert page.notices() == ["Hand 1 corrected (Joker C → A); the scores after it were "
                              "worked out again."]
    assert changes_of(db, game)[-1].details == {"points": {"joker": ["C", "A"]}}
    assert "corrected hand 1: A +2 → +3, B −4, C +2 → +1 (Joker C → A)" in Page(
        client.get(f"/games/{game}/changes")).text


def test_two_seats_are_swapped_after_a_check(client, db, start_game, play):
    game = three_hands(start_game, play)
    checked = Page(client.post(f"/games/{game}/seats/swap", data={"first": "2", "second": "3"}))
    text = checked.section_text("check")
    assert checked.by_id("check") is not None and "Swap Bob and Cid?" in text
    assert "Cid: seat 2, team B with Eve; what seat 2 bid and took in this game counts for " \
        "Cid." in text
    assert seat_players(db, game)[2].name == "Bob"
    form, _button = checked.button("Make this change")
    response = client.post(form.action, data=dict(form.fields()))
    assert response.status_code == 303
    db.expire_all()
    seats = seat_players(db, game)
    assert (seats[2].name, seats[3].name) == ("Cid", "Bob")
    page = Page(client.get(f"/games/{game}"))
    assert page.team_names()["B"] == "Cid & Eve" and page.scores() == {"A": 6, "B": -1, "C": 6}
    assert "swapped Bob and Cid (seats 2 and 3)" in Page(client.get(f"/games/{game}/changes")).text
    # Tapped twice: the second is told it is done, and nothing more is written.
    again = client.post(form.action, data=dict(form.fields()))
    assert again.status_code == 303
    assert [c.kind for c in changes_of(db, game)].count("seats") == 1
    db.expire_all()
    assert seat_players(db, game)[2].name == "Cid"


def test_a_seat_is_renamed_and_a_name_sitting_twice_is_refused(client, db, start_game, play):
    game = three_hands(start_game, play)
    refused = client.post(f"/games/{game}/seats/rename", data={"seat": "1", "name": "bob"})
    assert refused.status_code == 422
    assert "Bob can't sit twice" in Page(refused).alerts()[0]
    checked = Page(client.post(f"/games/{game}/seats/rename", data={"seat": "2", "name": "Ben"}))
    assert "Seat 2: Bob → Ben?" in checked.section_text("check")
    form, _ = checked.button("Make this change")
    assert client.post(form.action, data=dict(form.fields())).status_code == 303
    db.expire_all()
    assert seat_players(db, game)[2].name == "Ben"
    assert "renamed seat 2: Bob → Ben" in Page(client.get(f"/games/{game}/changes")).text


def test_a_check_shown_before_another_phones_change_writes_nothing(client, db, start_game,
                                                                    play, app):
    game = three_hands(start_game, play, count=2)
    checked = Page(client.post(f"/games/{game}/seats/swap", data={"first": "1", "second": "4"}))
    form, _ = checked.button("Make this change")
    play(game, 3, "pass,pass,3,pass,pass,pass", "clubs", "AAABB", "none")  # meanwhile
    response = client.post(form.action, data=dict(form.fields()))
    assert response.status_code == 409
    assert "changed on another phone" in Page(response).alerts()[0]
    db.expire_all()
    assert seat_players(db, game)[1].name == "Ann"


def test_an_abandoned_game_is_kept_takes_no_hands_and_comes_back(client, db, start_game, play):
    game = three_hands(start_game, play, count=2)
    checked = Page(client.post(f"/games/{game}/abandon", data={}))
    assert "it leaves the statistics" in checked.section_text("check")
    form, _ = checked.button("Make this change")
    assert client.post(form.action, data=dict(form.fields())).status_code == 303
    db.expire_all()
    assert db.get(Game, game).abandoned_at is not None
    page = Page(client.get(f"/games/{game}"))
    assert page.entry_title() == "Abandoned" and page.has_button("Take it back into play…")
    refused = client.post(f"/games/{game}/hands", data=hand_form(
        3, "pass,pass,3,pass,pass,pass", "clubs", "AAABB", "none"))
    assert refused.status_code == 409 and len(hands_of(db, game)) == 2
    back = Page(client.post(f"/games/{game}/reinstate", data={}))
    form, _ = back.button("Make this change")
    assert client.post(form.action, data=dict(form.fields())).status_code == 303
    db.expire_all()
    assert db.get(Game, game).abandoned_at is None
    assert [c.kind for c in changes_of(db, game)][-2:] == ["abandoned", "reinstated"]


def test_a_viewer_can_read_nothing_of_fixing_and_change_nothing(app, client, db, start_game,
                                                                play):
    game = three_hands(start_game, play)
    viewer = client_as(app, "viewer")
    assert viewer.get(f"/games/{game}/fix").status_code == 403
    assert viewer.post(f"/games/{game}/seats/swap",
                       data={"first": "1", "second": "2", "confirm": "y"}).status_code == 403
    assert seat_players(db, game)[1].name == "Ann"


def test_a_corrected_bid_is_told_by_the_names(client, db, start_game, play):
    game = three_hands(start_game, play, count=1)
    client.get(f"/games/{game}")  # its notice read
    # Cid (seat 3), not Bob, bid 4 in hand 1: B's points the same, C now the bidder.
    client.post(f"/games/{game}/hands/1", data=hand_form(1, "pass,4,pass,pass,pass,pass",
                                                         "hearts", "ABBCC", "A"))
    assert changes_of(db, game)[-1].details == {"bid": [["Bob", 4], ["Cid", 4]]}
    assert Page(client.get(f"/games/{game}")).notices()[0].startswith(
        "Hand 1 corrected (bid: Bob 4 → Cid 4)")


def test_an_abandoned_game_takes_no_forgotten_hand_swap_or_name(client, db, start_game, play):
    game = three_hands(start_game, play)
    client.post(f"/games/{game}/abandon", data={"confirm": "y"})
    db.expire_all()
    revision = db.get(Game, game).revision
    for url, form in ((f"/games/{game}/hands/insert", {"number": "2", "calls": THROW_IN,
                                                       "confirm": "y"}),
                      (f"/games/{game}/seats/swap", {"first": "1", "second": "2",
                                                     "confirm": "y"}),
                      (f"/games/{game}/seats/rename", {"seat": "1", "name": "Zed",
                                                       "confirm": "y"})):
        response = client.post(url, data=form, headers=GAME_BLOCK)
        assert response.status_code == 409, url
        assert "This game was abandoned" in response.text
    db.expire_all()
    assert db.get(Game, game).revision == revision and len(hands_of(db, game)) == 3


def test_a_forgotten_hand_refused_on_the_phone_gets_the_apps_own_answer(client, db,
                                                                       start_game, play):
    game = three_hands(start_game, play)
    client.post(f"/games/{game}/abandon", data={"confirm": "y"})
    response = client.post(f"/games/{game}/hands/insert", headers=GAME_BLOCK,
                           data={"number": "2", "calls": THROW_IN, "confirm": "y"})
    assert response.status_code == 409
    assert response.headers["X-Scorekeeper-Verdict"] == "refused"  # the phone forgets it
    assert response.text.lstrip().startswith('<div id="game"')


def test_an_older_check_confirmed_after_a_newer_one_is_not_taken_for_it(client, db,
                                                                        start_game, play):
    game = three_hands(start_game, play)
    first = Page(client.post(f"/games/{game}/seats/swap", data={"first": "1", "second": "2"}))
    second = Page(client.post(f"/games/{game}/seats/swap", data={"first": "3", "second": "4"}))
    form, _ = first.button("Make this change")
    assert client.post(form.action, data=dict(form.fields())).status_code == 303
    form, _ = second.button("Make this change")
    response = client.post(form.action, data=dict(form.fields()))
    assert response.status_code == 409  # 3 and 4 were not swapped: it says so
    db.expire_all()
    assert seat_players(db, game)[3].name == "Cid"


def test_only_confirm_y_makes_a_change(client, db, start_game, play):
    game = three_hands(start_game, play)
    for value in ("n", "0", "no", "off", "yes", ""):
        response = client.post(f"/games/{game}/seats/swap",
                               data={"first": "1", "second": "2", "confirm": value})
        assert response.status_code == 200 and "Make this change" in response.text
    db.expire_all()
    assert seat_players(db, game)[1].name == "Ann"


def test_renaming_to_the_same_name_in_another_case_changes_nothing(client, db, start_game,
                                                                   play):
    game = three_hands(start_game, play)
    for name in ("Ann", "ann", " ANN "):
        response = client.post(f"/games/{game}/seats/rename",
                               data={"seat": "1", "name": name})
        assert response.status_code == 422
        assert "Seat 1 holds that name already." in Page(response).alerts()
    assert [c.kind for c in changes_of(db, game)].count("renamed") == 0


def test_an_insert_whose_key_recorded_another_hand_is_not_told_done(client, db, start_game,
                                                                    play):
    game = three_hands(start_game, play, count=2)
    key = "k" * 24
    client.post(f"/games/{game}/hands", data={**hand_form(
        3, "pass,pass,3,pass,pass,pass", "clubs", "AAABB", "none"), "entry_key": key})
    response = client.post(f"/games/{game}/hands/insert", data={
        "number": "2", "calls": THROW_IN, "entry_key": key, "confirm": "y"})
    assert response.status_code == 409
    assert "Hand 3 was already recorded" in Page(response).alerts()[0]
    assert len(hands_of(db, game)) == 3


def test_an_inserted_hands_log_has_no_score_before(client, db, start_game, play):
    game = three_hands(start_game, play)
    client.post(f"/games/{game}/hands/insert", data={"number": "2", "calls": THROW_IN,
                                                     "confirm": "y"})
    (change,) = [c for c in changes_of(db, game) if c.kind == "inserted"]
    assert change.hand_before is None and change.hand_after is None
