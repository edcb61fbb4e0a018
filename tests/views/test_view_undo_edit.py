"""Undo, bring back, and corrections: every total after a change is worked out again.

The three hands used here (target 21, Ann deals first), scored by hand:
  1. Ann deals; Bob (B) bids 4 ♥. High A, Low B, Right B, Left C, Joker C, Game A.
     B took 2 of 4: set. A +2, B −4, C +2            -> A 2, B −4, C 2
  2. Bob deals; Cid (C) bids 3 ♠. High C, Low C, Right C, Left A, Joker B, Game C.
     C took 4: made. A +1, B +1, C +4                -> A 3, B −3, C 6
  3. Cid deals; Dan (A) bids 3 ♣. High A, Low A, Right A, Left B, Joker B, Game tied.
     A took 3: made. A +3, B +2                      -> A 6, B −1, C 6
"""
from __future__ import annotations

from tests.members import client_as
from tests.views.view_helpers import (
    HTMX, THROW_IN, Page, calls_for, click, hand_form, hands_of, submit, the_hand_form,
)

HAND_1 = (calls_for(1, {2: 4}), "hearts", "ABBCC", "A")
HAND_2 = (calls_for(2, {3: 3}), "spades", "CCCAB", "C")
HAND_3 = (calls_for(3, {4: 3}), "clubs", "AAABB", "none")
GAME_BLOCK = {**HTMX, "HX-Target": "game"}


def three_hands(start_game, play, count=3):
    game = start_game()
    for number, hand in enumerate((HAND_1, HAND_2, HAND_3)[:count], start=1):
        play(game, number, *hand)
    return game


def test_the_calls_are_laid_out_as_the_table_bids():
    assert HAND_2[0] == "3,pass,pass,pass,pass,pass"  # Cid is left of Bob
    assert HAND_3[0] == "3,pass,pass,pass,pass,pass"  # Dan is left of Cid


def test_undo_the_last_hand_then_bring_it_back(client, db, start_game, play):
    game = three_hands(start_game, play, count=2)
    page = Page(client.get(f"/games/{game}"))
    assert page.scores() == {"A": 3, "B": -3, "C": 6}

    response = click(client, page, "Undo hand 2", headers=GAME_BLOCK)
    assert response.status_code == 200
    page = Page(response)
    assert page.notices()[0].startswith("Hand 2 undone.")
    assert page.scores() == {"A": 2, "B": -4, "C": 2}
    assert page.entry_title() == "Hand 2"
    assert "Dealer: Bob (seat 2)." in page.text
    one, two = hands_of(db, game)
    assert one.undone_at is None
    assert two.undone_at is not None  # kept, not deleted
    assert two.points["high"] == "C"

    response = click(client, page, "Bring hand 2 back", headers=GAME_BLOCK)
    assert response.status_code == 200
    page = Page(response)
    assert page.notices() == ["Hand 2 is back."]
    assert page.scores() == {"A": 3, "B": -3, "C": 6}
    assert [h.undone_at for h in hands_of(db, game)] == [None, None]
    assert len(hands_of(db, game)) == 2


def test_an_undone_hand_is_back_in_this_phones_entry_whatever_answer_it_gets(
        app, client, db, start_game, play):
    """The Undo's own answer may be lost on the way after the server acted: the page the
    phone has next (its poll's answer, the game opened again) holds the hand undone as it
    was recorded, as the Undo's answer does, to be put right and recorded again."""
    game = three_hands(start_game, play, count=2)
    page = Page(client.get(f"/games/{game}"))
    shown = the_hand_form(page).fields()
    revision = dict(shown)["revision"]
    click(client, page, "Undo hand 2", headers=GAME_BLOCK)

    polled = Page(client.get(f"/games/{game}/live?v={revision}&view=game", headers=GAME_BLOCK))
    opened = Page(client.get(f"/games/{game}"))
    for answer in (polled, opened):
        assert answer.entry_title() == "Hand 2"
        form = the_hand_form(answer)
        assert form.checked("turn_1") == "3"  # Cid, first to call after Bob
        assert form.checked("trump") == "spades"
        assert [form.checked(point) for point in ("high", "low", "right", "left", "joker")] \
            == list("CCCAB")
        assert form.checked("game") == "C"
    # Another scorer's phone is told this one is entering it, and keeps its own entry.
    other = Page(client_as(app, "scorer", name="Sam").get(f"/games/{game}"))
    assert " ".join(other.by_id("other-phone").text().split()) == (
        "Another phone is entering hand 2: Cid bid 3. Trump: Spades.")
    assert the_hand_form(other).checked("turn_1") is None


def test_plain_undo_redirects_and_the_page_shows_the_earlier_scores(client, db, start_game,
                                                                    play):
    game = three_hands(start_game, play, count=3)
    page = Page(client.get(f"/games/{game}"))
    response = click(client, page, "Undo hand 3")
    assert response.status_code == 303
    page = Page(client.get(f"/games/{game}"))
    assert page.scores() == {"A": 3, "B": -3, "C": 6}
    assert page.has_button("Undo hand 2")
    assert sorted(page.history()) == [1, 2]
    assert [h.undone_at is None for h in hands_of(db, game)] == [True, True, False]


def test_an_undone_hand_cannot_come_back_over_a_new_one(client, db, start_game, play):
    game = three_hands(start_game, play, count=2)
    client.post(f"/games/{game}/hands/undo", data={"number": "2"})
    old_two = hands_of(db, game)[1]
    play(game, 2, calls_for(2, {3: 3}), "spades", "CCCCC", "C")  # hand 2 entered again
    response = client.post(f"/games/{game}/hands/restore", data={"hand_id": str(old_two.id)})
    assert response.status_code == 409
    (alert,) = Page(response).alerts()
    assert "can't be brought back" in alert
    live = hands_of(db, game, live_only=True)
    assert [h.number for h in live] == [1, 2]
    assert live[1].id != old_two.id
    assert hands_of(db, game)[1].undone_at is not None


def test_correcting_an_early_hand_works_out_every_later_total(client, db, start_game, play):
    game = three_hands(start_game, play)
    page = Page(client.get(f"/games/{game}"))
    assert page.scores() == {"A": 6, "B": -1, "C": 6}

    page = Page(client.get(f"/games/{game}/hands/1/edit"))
    assert page.entry_title() == "Correcting hand 1"
    assert "Dealer: Ann (seat 1)." in page.text
    form = page.form_posting_to(f"/games/{game}/hands/1")
    assert form.checked("turn_1") == "4"  # HAND_1's auction: Bob (first to call) won with 4
    assert (form.checked("high"), form.checked("left"), form.checked("game")) == ("A", "C", "A")
    assert page.has_button("Save hand 1")

    # High was C's, not A's. Hand 1: A 1 (Game), B 2 (set, −4), C 3 (High, Left, Joker).
    response = submit(client, form, changes={"high": "C"})
    assert response.status_code == 303
    page = Page(client.get(f"/games/{game}"))
    history = page.history()
    assert history[1]["scores"] == {"A": 1, "B": -4, "C": 3}
    assert history[2]["scores"] == {"A": 2, "B": -3, "C": 7}
    assert history[3]["scores"] == {"A": 5, "B": -1, "C": 7}
    assert page.scores() == {"A": 5, "B": -1, "C": 7}

    one, two, three = hands_of(db, game)
    assert one.points["high"] == "C" and one.updated_at is not None
    assert two.points["high"] == "C" and two.updated_at is None
    assert three.points["high"] == "A" and three.updated_at is None


def test_a_correction_through_htmx_answers_the_game_block(client, start_game, play):
    game = three_hands(start_game, play, count=1)
    form = hand_form(1, HAND_1[0], "hearts", "CBBCC", "A")
    response = client.post(f"/games/{game}/hands/1", data=form, headers=GAME_BLOCK)
    assert response.status_code == 200
    page = Page(response)
    assert page.notices() == ["Hand 1 corrected (High A → C); the scores after it were "
                              "worked out again."]
    assert page.scores() == {"A": 1, "B": -4, "C": 3}
    assert response.headers["HX-Push-Url"] == f"/games/{game}"


def test_a_correction_that_ends_the_game_before_later_hands_is_refused(client, db,
                                                                       start_game, play):
    game = start_game(target="5")
    play(game, 1, calls_for(1, {2: 3}), "hearts", "BBBAA", "C")  # A 2, B 3, C 1
    play(game, 2, calls_for(2, {3: 3}), "spades", "CCCAA", "B")  # A 4, B 4, C 4
    assert Page(client.get(f"/games/{game}")).scores() == {"A": 4, "B": 4, "C": 4}

    # B taking all five card points in hand 1 would have won there, before hand 2.
    response = client.post(f"/games/{game}/hands/1",
                           data=hand_form(1, calls_for(1, {2: 3}), "hearts", "BBBBB", "A"))
    assert response.status_code == 422
    page = Page(response)
    (alert,) = page.alerts()
    assert "game is over after hand 1" in alert and "hand 2 was played after it" in alert
    assert page.scores() == {"A": 4, "B": 4, "C": 4}
    one, two = hands_of(db, game)
    assert one.points == {"high": "B", "low": "B", "right": "B", "left": "A", "joker": "A",
                          "game": "C"}
    assert one.updated_at is None and two.undone_at is None


def test_the_last_hand_can_become_a_throw_in_and_the_dealer_stays(client, db, start_game,
                                                                 play):
    game = three_hands(start_game, play, count=2)
    response = client.post(f"/games/{game}/hands/2", data={"number": "2", "calls": THROW_IN})
    assert response.status_code == 303
    two = hands_of(db, game)[1]
    assert (two.calls, two.trump, two.points) == (["pass"] * 6, None, None)
    page = Page(client.get(f"/games/{game}"))
    assert page.scores() == {"A": 2, "B": -4, "C": 2}
    assert page.entry_title() == "Hand 3"
    assert "Dealer: Bob (seat 2)." in page.text  # Bob's hand 2 was thrown in: Bob again


def test_a_correction_with_a_point_unassigned_changes_nothing(client, db, start_game, play):
    game = three_hands(start_game, play, count=2)
    response = client.post(f"/games/{game}/hands/1",
                           data=hand_form(1, HAND_1[0], "hearts", "ABBC-", "A"))
    assert response.status_code == 422
    page = Page(response)
    assert page.alerts() == ["Still to choose: Joker."]
    assert page.entry_title() == "Correcting hand 1"
    assert hands_of(db, game)[0].points["joker"] == "C"


def test_a_correction_posted_for_another_hand_number_changes_nothing(client, db, start_game,
                                                                    play):
    game = three_hands(start_game, play, count=2)
    response = client.post(f"/games/{game}/hands/1",
                           data=hand_form(2, HAND_1[0], "hearts", "CCCCC", "C"))
    assert response.status_code == 422
    assert Page(response).alerts() == ["That form was incomplete; nothing was changed."]
    assert hands_of(db, game)[0].points["high"] == "A"


def test_correcting_a_finished_game_so_nobody_has_won_reopens_it(client, db, start_game, play):
    game = start_game(target="5")
    calls = calls_for(1, {2: 3})
    play(game, 1, calls, "hearts", "BBBBB", "A")  # B +5: B reached 5
    page = Page(client.get(f"/games/{game}"))
    assert page.entry_title() == "Game over"
    assert page.verdict() == "B reached 5: B wins."
    assert not page.has_button("Record hand 2")

    page = Page(client.get(f"/games/{game}/hands/1/edit"))
    assert page.entry_title() == "Correcting hand 1"
    form = page.form_posting_to(f"/games/{game}/hands/1")
    response = submit(client, form, changes={"left": "A", "joker": "A"})  # B 3, A 3
    assert response.status_code == 303

    page = Page(client.get(f"/games/{game}"))
    assert page.scores() == {"A": 3, "B": 3, "C": 0}
    assert page.verdict() == "First team to 5 wins."
    assert page.entry_title() == "Hand 2"
    assert "Cid bids first." in page.section_text("hand-entry")
    assert page.winner_marked() == []
    play(game, 2, calls_for(2, {3: 3}), "spades", "CCCAB", "C")
    assert len(hands_of(db, game)) == 2


def test_without_javascript_the_notice_and_bring_back_survive_the_redirect(client, db,
                                                                          start_game, play):
    game = three_hands(start_game, play, count=2)
    page = Page(client.get(f"/games/{game}"))
    assert click(client, page, "Undo hand 2").status_code == 303
    page = Page(client.get(f"/games/{game}"))  # the page the redirect leads to
    assert page.notices() == ["Hand 2 undone."]
    assert page.has_button("Bring hand 2 back")
    page = Page(client.get(f"/games/{game}"))  # a reload: the notice was shown once
    assert page.notices() == []
    assert page.has_button("Bring hand 2 back")  # but the undone hand can still come back
    assert click(client, page, "Bring hand 2 back").status_code == 303
    page = Page(client.get(f"/games/{game}"))
    assert page.notices() == ["Hand 2 is back."]
    assert page.scores() == {"A": 3, "B": -3, "C": 6}
    assert not page.has_button("Bring hand 2 back")


def test_bring_back_is_offered_only_while_the_undone_hand_is_next(client, db, start_game, play):
    game = three_hands(start_game, play, count=2)
    client.post(f"/games/{game}/hands/undo", data={"number": "2"})
    play(game, 2, *HAND_2)  # hand 2 entered again instead
    page = Page(client.get(f"/games/{game}"))
    assert not page.has_button("Bring hand 2 back")
    assert page.scores() == {"A": 3, "B": -3, "C": 6}


def test_a_correction_that_ends_the_game_names_every_later_hand(client, db, start_game, play):
    game = start_game(target="5")
    play(game, 1, calls_for(1, {2: 3}), "hearts", "BBBAA", "C")  # A 2, B 3, C 1
    play(game, 2, calls_for(2, {3: 3}), "spades", "CCCAA", "B")  # A 4, B 4, C 4
    play(game, 3, THROW_IN)                                       # Cid deals again
    response = client.post(f"/games/{game}/hands/1",
                           data=hand_form(1, calls_for(1, {2: 3}), "hearts", "BBBBB", "A"))
    assert response.status_code == 422
    (alert,) = Page(response).alerts()
    assert "game is over after hand 1" in alert
    assert "hands 2 to 3 were played after it" in alert
    assert [h.updated_at for h in hands_of(db, game)] == [None, None, None]


def test_bring_back_tapped_twice_says_it_is_back_already(client, db, start_game, play):
    game = three_hands(start_game, play, count=2)
    client.post(f"/games/{game}/hands/undo", data={"number": "2"})
    page = Page(client.get(f"/games/{game}"))
    form, _button = page.button("Bring hand 2 back")
    first = client.post(f"/games/{game}/hands/restore", data=dict(form.fields()))
    second = client.post(f"/games/{game}/hands/restore", data=dict(form.fields()))
    assert first.status_code == 303 and second.status_code == 409
    (alert,) = Page(second).alerts()
    assert alert == "Hand 2 is back already."
    assert [h.undone_at for h in hands_of(db, game)] == [None, None]


def test_no_bring_back_once_the_game_changed_after_the_undo(client, db, start_game, play):
    # Undo hand 2, then correct hand 1: hand 2 was entered for a dealer the correction
    # may have moved, so it is not offered back (it stays kept, undone).
    game = three_hands(start_game, play, count=2)
    client.post(f"/games/{game}/hands/undo", data={"number": "2"})
    undone = hands_of(db, game)[1]
    response = client.post(f"/games/{game}/hands/1",
                           data=hand_form(1, HAND_1[0], "hearts", "BBBCC", "A"))
    assert response.status_code == 303
    page = Page(client.get(f"/games/{game}"))
    assert not page.has_button("Bring hand 2 back")
    response = client.post(f"/games/{game}/hands/restore", data={"hand_id": str(undone.id)})
    assert response.status_code == 409
    assert "has changed since it was undone" in Page(response).alerts()[0]
    assert hands_of(db, game)[1].undone_at is not None


def test_save_tapped_twice_is_saved_once_and_said_so(client, db, start_game, play):
    game = three_hands(start_game, play, count=2)
    page = Page(client.get(f"/games/{game}/hands/1/edit"))
    form, _button = page.button("Save hand 1")
    fields = dict(form.fields())
    fields["high"] = "B"  # B took High after all: B 3 of 4, still set; A +1
    first = client.post(f"/games/{game}/hands/1", data=fields)
    second = client.post(f"/games/{game}/hands/1", data=fields)  # same page, same revision
    assert (first.status_code, second.status_code) == (303, 303)
    one = hands_of(db, game)[0]
    assert one.points["high"] == "B"
    assert Page(client.get(f"/games/{game}")).scores() == {"A": 2, "B": -3, "C": 6}


def test_hands_undone_one_after_another_come_back_one_after_another(client, db, start_game,
                                                                    play):
    game = three_hands(start_game, play, count=3)
    for number in (3, 2):
        client.post(f"/games/{game}/hands/undo", data={"number": str(number)})
    page = Page(client.get(f"/games/{game}"))
    assert page.scores() == {"A": 2, "B": -4, "C": 2}
    for number in (2, 3):
        assert click(client, page, f"Bring hand {number} back").status_code == 303
        page = Page(client.get(f"/games/{game}"))
    assert page.scores() == {"A": 6, "B": -1, "C": 6}
    assert [h.undone_at for h in hands_of(db, game)] == [None, None, None]


def test_a_correction_made_on_the_page_is_saved_whoever_won_the_bid(client, db, start_game,
                                                                   play):
    """Cid (seat 3, second to call when Ann deals) won hand 1 alone: the edit page shows
    his turn only, and a change made on that page is what is saved."""
    game = start_game()
    play(game, 1, calls_for(1, {3: 4}), "hearts", "CCCCC", "C")
    page = Page(client.get(f"/games/{game}/hands/1/edit"))
    form = page.form_posting_to(f"/games/{game}/hands/1")
    assert form.checked("turn_1") is None and form.checked("turn_2") == "4"
    preview = client.get(f"/games/{game}/hands/1/edit", headers={**HTMX, "HX-Target": "preview"},
                         query_string={**dict(form.fields()), "trump": "clubs", "high": "A"})
    assert Page(preview).text == "C bid 4, took 5: made, +5. A +1, B +0."
    response = submit(client, form, changes={"trump": "clubs", "high": "A"})
    assert response.status_code == 303
    (hand,) = hands_of(db, game)
    assert (hand.trump, hand.points["high"]) == ("clubs", "A")
    assert Page(client.get(f"/games/{game}")).scores() == {"A": 1, "B": 0, "C": 5}


def test_a_thrown_in_hand_becomes_a_played_one_on_the_page(client, db, start_game, play):
    game = start_game()
    play(game, 1, THROW_IN)
    form = Page(client.get(f"/games/{game}/hands/1/edit")).form_posting_to(
        f"/games/{game}/hands/1")
    assert form.checked("bid") == "passed"
    response = submit(client, form, changes={"bid": None, "turn_3": "5", "trump": "spades",
                                              "rest": "A"})
    assert response.status_code == 303
    (hand,) = hands_of(db, game)
    assert hand.calls == ["pass", "pass", 5, "pass", "pass", "pass"]
