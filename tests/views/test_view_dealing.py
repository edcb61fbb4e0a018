"""Throw-ins and the deal: six passes keep the dealer, a played hand passes it left."""
from __future__ import annotations

from view_helpers import HTMX, THROW_IN, Hand, Page, calls_for, click, count, hands_of


def test_the_dealers_pass_after_five_passes_records_the_throw_in(client, db, start_game):
    game = start_game()
    page = Page(client.get(f"/games/{game}", query_string={"calls": "pass,pass,pass,pass,pass"}))
    entry = page.section_text("hand-entry")
    assert "Ann (seat 1) to bid" in entry
    # Ann's Pass is the record itself: a POST with all six passes for hand 1.
    form, _button = page.button("Pass")
    assert form.method == "post" and form.action == f"/games/{game}/hands"
    assert dict(form.fields())["calls"] == THROW_IN
    assert dict(form.fields())["number"] == "1"
    assert count(db, Hand) == 0

    response = click(client, page, "Pass")
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
    page = Page(client.get(f"/games/{game}", query_string={"calls": "pass,pass,pass,pass,pass"}))
    assert "Dan (seat 4) to bid" in page.section_text("hand-entry")
    response = click(client, page, "Pass", headers={**HTMX, "HX-Target": "game"})
    assert response.status_code == 200
    page = Page(response)
    assert page.notices() == ["Hand 1: thrown in. Dan deals again."]
    assert "Dealer: Dan (seat 4)." in page.text
    assert len(hands_of(db, game)) == 1


def test_six_passes_walked_in_the_url_offer_to_record_the_throw_in(client, db, start_game):
    game = start_game()
    page = Page(client.get(f"/games/{game}", query_string={"calls": THROW_IN}))
    assert "All six passed: thrown in. Ann deals again." in page.section_text("hand-entry")
    assert count(db, Hand) == 0
    response = click(client, page, "Record the throw-in")
    assert response.status_code == 303
    assert hands_of(db, game)[0].calls == ["pass"] * 6


def test_everyone_passed_button_at_the_start(client, db, start_game):
    game = start_game()
    page = Page(client.get(f"/games/{game}"))
    response = click(client, page, "Everyone passed: thrown in")
    assert response.status_code == 200  # a step: nothing recorded by one slip of the thumb
    assert hands_of(db, game) == []
    page = Page(response)
    assert "All six passed: thrown in. Ann deals again." in page.text
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
