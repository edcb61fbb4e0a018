"""A double tap or a second phone never records a hand twice or undoes two hands."""
from __future__ import annotations

import pytest

from tests.views.view_helpers import (
    HTMX, Hand, Page, calls_for, count, hand_form, hands_of, the_hand_form,
)

BOB_BIDS_4 = calls_for(1, {2: 4})
WORKED_EXAMPLE = hand_form(1, BOB_BIDS_4, "hearts", "ABBCC", "A")


def test_the_same_record_posted_twice_is_one_hand(client, db, start_game):
    game = start_game()
    first = client.post(f"/games/{game}/hands", data=WORKED_EXAMPLE)
    second = client.post(f"/games/{game}/hands", data=WORKED_EXAMPLE)
    assert first.status_code == 303
    assert second.status_code == 409
    page = Page(second)
    (alert,) = page.alerts()
    assert "Hand 1 was already recorded" in alert
    # The answer is the game as it stands: hand 2 next, hand 1 counted once.
    assert page.entry_title() == "Hand 2"
    assert page.scores() == {"A": 2, "B": -4, "C": 2}
    assert len(hands_of(db, game)) == 1


def test_a_double_tap_through_htmx_is_one_hand(client, db, start_game):
    game = start_game()
    headers = {**HTMX, "HX-Target": "game"}
    first = client.post(f"/games/{game}/hands", data=WORKED_EXAMPLE, headers=headers)
    second = client.post(f"/games/{game}/hands", data=WORKED_EXAMPLE, headers=headers)
    assert first.status_code == 200
    assert second.status_code == 409
    assert "<html" not in second.text
    assert "already recorded" in Page(second).alerts()[0]
    assert len(hands_of(db, game)) == 1


def test_a_second_phone_with_another_hand_1_is_refused(client, db, start_game):
    game = start_game()
    client.post(f"/games/{game}/hands", data=WORKED_EXAMPLE)
    other = hand_form(1, BOB_BIDS_4, "hearts", "BBBBB", "B")  # the other phone's version
    response = client.post(f"/games/{game}/hands", data=other)
    assert response.status_code == 409
    # Both hands in words, each name and point drawn as one piece (never as markup shown).
    (alert,) = Page(response).alerts()
    assert alert.startswith(
        "Hand 1 was already recorded by Owner (Test browser): Bob bid 4, Hearts trump: "
        "High A, Low B, Right Bauer B, Left Bauer C, Joker C, Game A. This phone's entry "
        "was not recorded: Bob bid 4, Hearts trump: High B, Low B, Right Bauer B, "
        "Left Bauer B, Joker B, Game B."), alert
    (hand,) = hands_of(db, game)
    assert hand.points["high"] == "A"  # the first phone's hand stands


def test_a_form_for_a_later_hand_is_refused(client, db, start_game):
    game = start_game()
    response = client.post(f"/games/{game}/hands",
                           data=hand_form(3, BOB_BIDS_4, "hearts", "ABBCC", "A"))
    assert response.status_code == 409
    (alert,) = Page(response).alerts()
    assert alert.startswith("Hand 3 was not recorded") and "next hand is now hand 1" in alert
    assert count(db, Hand) == 0


def test_undo_posted_twice_undoes_one_hand(client, db, start_game, play):
    game = start_game()
    play(game, 1, BOB_BIDS_4, "hearts", "ABBCC", "A")
    play(game, 2, calls_for(2, {3: 3}), "spades", "CCCAB", "C")
    first = client.post(f"/games/{game}/hands/undo", data={"number": "2"})
    second = client.post(f"/games/{game}/hands/undo", data={"number": "2"})
    assert first.status_code == 303
    assert second.status_code == 303  # the second tap is told, and undoes nothing more
    page = Page(client.get(f"/games/{game}"))
    # (the notices of every change not yet shown, as no page was opened in between)
    assert page.notices()[0].endswith("Hand 2 undone. Hand 2 is undone already.")
    one, two = hands_of(db, game)
    assert one.undone_at is None
    assert two.undone_at is not None
    assert page.scores() == {"A": 2, "B": -4, "C": 2}


def test_undo_of_a_hand_that_is_no_longer_last_changes_nothing(client, db, start_game, play):
    game = start_game()
    play(game, 1, BOB_BIDS_4, "hearts", "ABBCC", "A")
    play(game, 2, calls_for(2, {3: 3}), "spades", "CCCAB", "C")
    response = client.post(f"/games/{game}/hands/undo", data={"number": "1"})
    assert response.status_code == 409
    (alert,) = Page(response).alerts()
    assert alert.startswith("Hand 1 was not undone")
    assert [h.undone_at for h in hands_of(db, game)] == [None, None]


def test_undo_without_a_number_changes_nothing(client, db, start_game, play):
    game = start_game()
    play(game, 1, BOB_BIDS_4, "hearts", "ABBCC", "A")
    response = client.post(f"/games/{game}/hands/undo", data={})
    assert response.status_code == 422
    assert Page(response).alerts() == ["That form was incomplete; nothing was changed."]
    assert hands_of(db, game)[0].undone_at is None


def test_a_form_for_hand_zero_is_not_called_already_recorded(client, db, start_game):
    game = start_game()
    response = client.post(f"/games/{game}/hands",
                           data={"number": "0", "calls": "pass,pass,pass,pass,pass,pass"})
    assert response.status_code == 409
    (alert,) = Page(response).alerts()
    assert "not the next hand" in alert and "already recorded" not in alert
    assert hands_of(db, game) == []


def test_back_to_a_recorded_hands_step_does_not_offer_it_again(client, db, start_game, play):
    game = start_game()
    calls = calls_for(1, {2: 4})
    step_url = f"/games/{game}?number=1&calls={calls}&trump=hearts&high=A"
    assert the_hand_form(Page(client.get(step_url))).checked("trump") == "hearts"
    play(game, 1, calls, "hearts", "ABBCC", "A")

    page = Page(client.get(step_url))  # the browser's Back button, after recording
    (alert,) = page.alerts()
    assert "recorded since" in alert
    assert page.entry_title() == "Hand 2"
    form = the_hand_form(page)  # a fresh hand, not hand 1's choices again
    assert [form.checked(name) for name in ("bid", "turn_1", "trump", "high")] == [None] * 4
    assert "Record hand 1" not in page.button_texts()
    assert len(hands_of(db, game)) == 1


def test_a_page_shown_before_another_phones_change_cannot_write(client, db, start_game, play):
    game = start_game()
    play(game, 1, calls_for(1, {2: 4}), "hearts", "ABBCC", "A")
    phone_a = Page(client.get(f"/games/{game}"))  # shows hand 1 with an Undo button
    undo_form, _button = phone_a.button("Undo hand 1")
    # Phone B corrects hand 1 meanwhile.
    play_b = client.post(f"/games/{game}/hands/1",
                         data=hand_form(1, calls_for(1, {2: 4}), "hearts", "BBBCC", "B"))
    assert play_b.status_code == 303
    response = client.post(f"/games/{game}/hands/undo", data=dict(undo_form.fields()))
    assert response.status_code == 409
    (alert,) = Page(response).alerts()
    assert "changed on another phone" in alert
    (hand,) = hands_of(db, game)
    assert hand.undone_at is None and hand.points["high"] == "B"


def pass_from(client, game, form):
    """Phone A taps Pass on a page it loaded earlier; the choice reaches the server in
    the background (the preview's request): the whole game comes back."""
    fields = dict(form.fields())
    fields["turn_1"] = "pass"
    response = client.get(f"/games/{game}", query_string=fields,
                          headers={**HTMX, "HX-Target": "preview"})
    assert response.headers["HX-Retarget"] == "#game"
    return response


def test_a_step_from_before_another_phones_correction_shows_the_new_scores(client, db,
                                                                            start_game, play):
    game = start_game()
    play(game, 1, calls_for(1, {2: 4}), "hearts", "ABBCC", "A")  # A 2, B −4, C 2
    page = Page(client.get(f"/games/{game}"))
    form = the_hand_form(page)  # phone A, about to call for hand 2
    # Phone B corrects hand 1: B took High too (3 of 4, still set): A 1, B −4, C 2.
    client.post(f"/games/{game}/hands/1",
                data=hand_form(1, calls_for(1, {2: 4}), "hearts", "BBBCC", "A"))
    response = pass_from(client, game, form)
    page = Page(response)
    assert page.scores() == {"A": 1, "B": -4, "C": 2}
    assert "changed on another phone" in page.notices()[0]
    assert the_hand_form(page).checked("turn_1") == "pass"  # phone A's call was kept


def test_a_step_for_a_hand_recorded_meanwhile_refreshes_the_whole_game(client, db,
                                                                        start_game, play):
    game = start_game()
    page = Page(client.get(f"/games/{game}"))
    form = the_hand_form(page)  # phone A, hand 1
    play(game, 1, calls_for(1, {2: 4}), "hearts", "ABBCC", "A")  # phone B records hand 1
    response = pass_from(client, game, form)
    page = Page(response)
    assert page.scores() == {"A": 2, "B": -4, "C": 2}
    assert page.entry_title() == "Hand 2"
    assert "recorded since" in page.alerts()[0]


# --- the same entry sent again (its answer lost) ------------------------------------

KEY = "5b7f2c1e-9a3d-4e8b-b1c4-0f6a2d9e7c31"


def test_an_entry_sent_again_is_told_it_was_recorded_and_written_once(client, db, start_game):
    game = start_game()
    form = {**WORKED_EXAMPLE, "entry_key": KEY, "revision": "1"}
    assert client.post(f"/games/{game}/hands", data=form).status_code == 303
    again = client.post(f"/games/{game}/hands", data=form, headers={**HTMX, "HX-Target": "game"})
    assert again.status_code == 200
    [notice] = Page(again).notices()
    assert notice.startswith("Hand 1 recorded: ") and notice.count("A ") == 1
    assert len(hands_of(db, game)) == 1
    assert hands_of(db, game)[0].entry_key == KEY


def test_a_key_sent_with_another_hand_is_not_taken_for_it(client, db, start_game):
    game = start_game()
    assert client.post(f"/games/{game}/hands",
                       data={**WORKED_EXAMPLE, "entry_key": KEY}).status_code == 303
    # The same key with other choices for hand 1, then for hand 2: neither is "recorded".
    other = {**WORKED_EXAMPLE, "high": "C", "entry_key": KEY}
    response = client.post(f"/games/{game}/hands", data=other)
    assert response.status_code == 409
    assert "already recorded" in Page(response).alerts()[0]
    second = {**hand_form(2, calls_for(2, {3: 3}), "spades", "CCCCC", "C"), "entry_key": KEY,
              "revision": "2"}
    response = client.post(f"/games/{game}/hands", data=second)
    assert response.status_code == 409  # refused: a phone makes a new key for a new hand
    assert [hand.number for hand in hands_of(db, game)] == [1]
    (hand,) = hands_of(db, game)
    assert hand.points["high"] == "A"


@pytest.mark.parametrize("key", [KEY + "\n", "abcdefgh\n", "short", "x" * 41, "has space here",
                                 "ünïcode-key-123"])
def test_a_malformed_entry_key_is_refused_and_nothing_recorded(client, db, start_game, key):
    game = start_game()
    response = client.post(f"/games/{game}/hands", data={**WORKED_EXAMPLE, "entry_key": key})
    assert response.status_code == 422
    assert hands_of(db, game) == []
