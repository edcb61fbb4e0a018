"""Throw-ins and the deal: six passes keep the dealer, a played hand passes it left."""
from __future__ import annotations

from tests.views.view_helpers import (
    HTMX, THROW_IN, Hand, Page, calls_for, click, count, hands_of, send_hand, the_hand_form,
)


ALL_PASS = {f"turn_{turn}": "pass" for turn in range(1, 7)}


def test_the_dealers_pass_after_five_passes_is_recorded_by_the_throw_ins_button(client, db,
                                                                                start_game):
    game = start_game()
    page = Page(client.get(f"/games/{game}"))
    entry = page.section_text("hand-entry")
    rows = [f.find("legend").text() for f in page.root.find_all("fieldset", class_="turn")]
    assert rows == ["Bob", "Cid", "Dan", "Eve", "Fay", "Ann"]  # the dealer's own turn, last
    # Whichever way all six passed, the throw-in is its own second tap, in the one form.
    form, button = page.button("Record the throw-in")
    assert form.element.get("id") == "hand-form"
    assert "thrown-in-step" in button.parent.classes
    assert count(db, Hand) == 0

    response = send_hand(client, page, **ALL_PASS)
    assert response.status_code == 303
    (hand,) = hands_of(db, game)
    assert (hand.number, hand.calls, hand.trump, hand.points) == (1, ["pass"] * 6, None, None)

    page = Page(client.get(f"/games/{game}"))
    assert page.entry_title() == "Hand 2"
    assert "Dealer: Ann (seat 1)." in page.text  # the same dealer deals again
    assert "Bob bids first." in page.text
    line = page.history()[1]
    assert "Ann dealt." in line["head"] and "All passed: thrown in." in line["head"]
    assert line["scores"] == {"A": 0, "B": 0, "C": 0}


def test_an_htmx_throw_in_says_who_deals_again(client, db, start_game):
    game = start_game(first_dealer="4")
    page = Page(client.get(f"/games/{game}"))
    assert "Eve bids first." in page.section_text("hand-entry")
    response = send_hand(client, page, bid="passed", headers={**HTMX, "HX-Target": "game"})
    assert response.status_code == 200
    page = Page(response)
    assert page.notices() == ["Hand 1: thrown in. Dan deals again."]
    assert "Dealer: Dan (seat 4)." in page.text
    assert len(hands_of(db, game)) == 1


def test_six_passes_in_a_link_are_shown_as_a_throw_in_to_record(client, db, start_game):
    game = start_game()
    page = Page(client.get(f"/games/{game}", query_string={"calls": THROW_IN}))
    assert "Everyone passed: thrown in. Ann deals again." in page.section_text("hand-entry")
    assert the_hand_form(page).checked("bid") == "passed"
    assert count(db, Hand) == 0
    response = click(client, page, "Record the throw-in")
    assert response.status_code == 303
    assert hands_of(db, game)[0].calls == ["pass"] * 6


def test_everyone_passed_is_a_choice_then_the_throw_ins_button(client, db, start_game):
    game = start_game()
    page = Page(client.get(f"/games/{game}"))
    assert ("passed", None) in [(f.get("value"), f.get("checked")) for f in
                                the_hand_form(page).element.find_all("input", name="bid")]
    # Choosing it records nothing (one slip of the thumb records no hand): the page
    # shows the throw-in's own button, and only that sends it.
    page = Page(client.get(f"/games/{game}", query_string={"number": "1", "bid": "passed"}))
    assert hands_of(db, game) == []
    assert "Everyone passed: thrown in. Ann deals again." in page.text
    response = click(client, page, "Record the throw-in")
    assert response.status_code == 303
    (hand,) = hands_of(db, game)
    assert hand.calls == ["pass"] * 6 and hand.trump is None


def test_the_deal_passes_left_after_a_played_hand_only(client, db, start_game, play):
    game = start_game()
    play(game, 1, calls_for(1, {2: 3}), "hearts", "BBBAC", "A")  # Ann deals
    page = Page(client.get(f"/games/{game}"))
    assert "Dealer: Bob (seat 2)." in page.text and "Cid bids first." in page.text

    play(game, 2, THROW_IN)  # Bob deals, all pass
    page = Page(client.get(f"/games/{game}"))
    assert page.entry_title() == "Hand 3"
    assert "Dealer: Bob (seat 2)." in page.text

    bids = calls_for(2, {4: 4})  # Bob deals again: Cid, Dan (bids 4), Eve, Fay, Ann, Bob
    assert bids == "pass,4,pass,pass,pass,pass"
    play(game, 3, bids, "spades", "AAAAB", "C")
    page = Page(client.get(f"/games/{game}"))
    assert "Dealer: Cid (seat 3)." in page.text and "Dan bids first." in page.text
    history = page.history()
    assert "Ann dealt." in history[1]["head"]
    assert "Bob dealt." in history[2]["head"] and "thrown in" in history[2]["head"]
    assert "Bob dealt." in history[3]["head"] and "Dan (A) bid 4" in history[3]["head"]
    # 1: B bid 3 took 3 (+3), A 2, C 1.  3: A bid 4 took 4 (+4), B 1, C 1.
    assert page.scores() == {"A": 6, "B": 4, "C": 2}
    assert [h.number for h in hands_of(db, game)] == [1, 2, 3]


def test_the_deal_goes_from_seat_6_to_seat_1(client, start_game, play):
    game = start_game(first_dealer="6")
    calls = calls_for(6, {1: 3})  # Ann is first to call when Fay deals
    assert calls == "3,pass,pass,pass,pass,pass"
    play(game, 1, calls, "clubs", "AAABC", "A")
    page = Page(client.get(f"/games/{game}"))
    assert "Dealer: Ann (seat 1)." in page.text and "Bob bids first." in page.text


def test_in_persian_the_throw_in_notice_keeps_the_dealers_name_as_typed(client, start_game):
    game = start_game(names=["Ann", "Bob", "Cid", "Jo 2", "Eve", "Fay"], first_dealer="4")
    client.set_cookie("lang", "fa")
    page = Page(client.get(f"/games/{game}"))
    response = send_hand(client, page, bid="passed", headers={**HTMX, "HX-Target": "game"})
    (notice,) = Page(response).notices()
    assert "Jo 2 " in notice and "Jo ۲" not in notice and notice.startswith("دور ۱")
