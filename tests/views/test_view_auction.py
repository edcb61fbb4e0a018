"""The hand walked through GET requests: auction, quick entry, trump step, bad links.

Dealer seat 1 (Ann) throughout unless said: bidding goes Bob 2, Cid 3, Dan 4, Eve 5,
Fay 6, then Ann 1 (RULES.md: from the dealer's left, clockwise, the dealer last).
"""
from __future__ import annotations

import pytest

from view_helpers import Hand, Page, calls_for, click, count, hands_of

SUITS = [  # suit, symbol, name, Left Bauer (the other jack of the same colour)
    ("spades", "♠", "Spades", "J♣"),
    ("hearts", "♥", "Hearts", "J♦"),
    ("diamonds", "♦", "Diamonds", "J♥"),
    ("clubs", "♣", "Clubs", "J♠"),
]


def call_buttons(page: Page) -> list[tuple[str, str]]:
    """(label, calls value) of the call buttons that walk the auction (GETs)."""
    entry = page.by_id("hand-entry")
    return [
        (button.text(), button.get("value"))
        for form in entry.find_all("form", method="get")
        for button in form.find_all("button", class_="call")
    ]


def entry_text(page: Page) -> str:
    return page.section_text("hand-entry")


def test_each_seat_in_turn_gets_pass_and_only_the_bids_above_the_highest(client, db,
                                                                           start_game):
    game = start_game()
    page = Page(client.get(f"/games/{game}"))
    assert "Bob (seat 2) to bid" in entry_text(page)
    assert "Bob bids first." in entry_text(page)
    assert call_buttons(page) == [("Pass", "pass"), ("Bid 3", "3"), ("Bid 4", "4"),
                                  ("Bid 5", "5"), ("Bid 6", "6")]

    page = Page(click(client, page, "Pass"))
    assert "Cid (seat 3) to bid" in entry_text(page)
    assert "Bob: pass" in entry_text(page)
    assert call_buttons(page) == [("Pass", "pass,pass"), ("Bid 3", "pass,3"),
                                  ("Bid 4", "pass,4"), ("Bid 5", "pass,5"), ("Bid 6", "pass,6")]

    page = Page(click(client, page, "Bid 4"))
    assert "Dan (seat 4) to bid" in entry_text(page)
    assert "Cid: 4" in entry_text(page)
    # After a 4 only 5 and 6 can be bid.
    assert call_buttons(page) == [("Pass", "pass,4,pass"), ("Bid 5", "pass,4,5"),
                                  ("Bid 6", "pass,4,6")]

    page = Page(click(client, page, "Pass"))
    assert "Eve (seat 5) to bid" in entry_text(page)
    page = Page(click(client, page, "Bid 5"))
    assert "Fay (seat 6) to bid" in entry_text(page)
    assert call_buttons(page) == [("Pass", "pass,4,pass,5,pass"), ("Bid 6", "pass,4,pass,5,6")]
    page = Page(click(client, page, "Pass"))
    # The dealer's turn with a bid standing: an ordinary pass, nothing is posted.
    assert "Ann (seat 1) to bid" in entry_text(page)
    assert call_buttons(page) == [("Pass", "pass,4,pass,5,pass,pass"),
                                  ("Bid 6", "pass,4,pass,5,pass,6")]
    assert not [f for f in page.forms() if f.method == "post" and f.action.endswith("/hands")]

    page = Page(click(client, page, "Pass"))
    text = entry_text(page)
    assert "Eve bid 5." in text
    assert "Trump?" in text
    assert "to bid" not in text
    assert [b.text() for b in page.by_id("hand-entry").find_all("button", class_="suit")] == [
        "♠ Spades", "♥ Hearts", "♦ Diamonds", "♣ Clubs"]

    page = Page(click(client, page, "♣ Clubs"))
    text = entry_text(page)
    assert "Trump: ♣ Clubs." in text
    assert "Left Bauer: J♠." in text
    assert "Eve leads." in text
    tally = page.form_posting_to(f"/games/{game}/hands")
    assert dict(tally.fields())["calls"] == "pass,4,pass,5,pass,pass"
    assert dict(tally.fields())["trump"] == "clubs"
    assert count(db, Hand) == 0  # walking the hand writes nothing


def test_undo_last_call_and_start_again(client, start_game):
    game = start_game()
    page = Page(client.get(f"/games/{game}", query_string={"calls": "pass,4,pass"}))
    assert "Eve (seat 5) to bid" in entry_text(page)
    page = Page(click(client, page, "Undo last call"))
    assert "Dan (seat 4) to bid" in entry_text(page)
    page = Page(click(client, page, "Start the bidding again"))
    assert "Bob (seat 2) to bid" in entry_text(page)
    assert "Cid: 4" not in entry_text(page)


@pytest.mark.parametrize("calls, bidder", [("6", "Bob"), ("pass,6", "Cid"),
                                           ("3,4,5,6", "Eve")])
def test_a_six_ends_the_auction_at_once(client, start_game, calls, bidder):
    game = start_game()
    page = Page(client.get(f"/games/{game}", query_string={"calls": calls}))
    text = entry_text(page)
    assert f"{bidder} bid 6." in text
    assert "Trump?" in text
    assert "to bid" not in text
    assert call_buttons(page) == []


def test_quick_entry_names_the_winner_then_the_bid(client, db, start_game):
    game = start_game()
    page = Page(client.get(f"/games/{game}"))
    page = Page(click(client, page, "Dan"))  # who won the bid
    text = entry_text(page)
    assert "Dan won the bid with" in text
    # Dan (seat 4) is third to call; every other seat is recorded as passing.
    assert call_buttons(page) == [
        ("Bid 3", "pass,pass,3,pass,pass,pass"), ("Bid 4", "pass,pass,4,pass,pass,pass"),
        ("Bid 5", "pass,pass,5,pass,pass,pass"), ("Bid 6", "pass,pass,6")]

    page = Page(click(client, page, "Bid 5"))
    assert "Dan bid 5." in entry_text(page)
    page = Page(click(client, page, "♥ Hearts"))
    assert "Dan leads." in entry_text(page)
    # Dan is team A (seats 1 & 4). A takes 4 of 6 points against a bid of 5: set.
    tally = page.form_posting_to(f"/games/{game}/hands")
    response = client.post(tally.action, data={
        **dict(tally.fields()), "high": "A", "low": "A", "right": "A", "left": "A",
        "joker": "B", "game": "C"})
    assert response.status_code == 303
    (hand,) = hands_of(db, game)
    assert hand.calls == ["pass", "pass", 5, "pass", "pass", "pass"]
    assert hand.trump == "hearts"
    assert Page(client.get(f"/games/{game}")).scores() == {"A": -5, "B": 1, "C": 1}


def test_quick_entry_for_the_dealer(client, start_game):
    game = start_game()
    page = Page(client.get(f"/games/{game}", query_string={"bidder": "1"}))
    assert "Ann won the bid with" in entry_text(page)
    assert ("Bid 3", "pass,pass,pass,pass,pass,3") in call_buttons(page)
    page = Page(click(client, page, "Back"))
    assert "Bob (seat 2) to bid" in entry_text(page)


PLAYED = calls_for(1, {2: 4})  # "4,pass,pass,pass,pass,pass": Bob bids 4


@pytest.mark.parametrize("query, still_shows", [
    ({"calls": "pass,pass,9"}, "Bob (seat 2) to bid"),
    ({"calls": "4,3"}, "Bob (seat 2) to bid"),
    ({"calls": "4,4"}, "Bob (seat 2) to bid"),
    ({"calls": ",".join(["pass"] * 7)}, "Bob (seat 2) to bid"),
    ({"calls": "6,pass"}, "Bob (seat 2) to bid"),
    ({"calls": ",,,"}, "Bob (seat 2) to bid"),
    ({"calls": "pass,³"}, "Bob (seat 2) to bid"),
    ({"calls": "9" * 30}, "Bob (seat 2) to bid"),
    ({"bidder": "9"}, "Bob (seat 2) to bid"),
    ({"bidder": "0"}, "Bob (seat 2) to bid"),
    ({"bidder": "abc"}, "Bob (seat 2) to bid"),
    ({"bidder": "³"}, "Bob (seat 2) to bid"),
    ({"calls": PLAYED, "trump": "stars"}, "Trump?"),
    ({"calls": PLAYED, "trump": "hearts", "high": "Z"}, "Who took which point?"),
    ({"calls": PLAYED, "trump": "hearts", "game": "Q"}, "Who took which point?"),
    ({"calls": PLAYED, "trump": "hearts", "value_A": "abc"}, "Who took which point?"),
    ({"calls": PLAYED, "trump": "hearts", "value_A": "-3"}, "Who took which point?"),
    ({"calls": PLAYED, "trump": "hearts", "value_B": "³"}, "Who took which point?"),
])
def test_a_bad_link_never_breaks_the_page_and_writes_nothing(client, db, start_game,
                                                              query, still_shows):
    game = start_game()
    response = client.get(f"/games/{game}", query_string=query)
    assert response.status_code == 200
    page = Page(response)
    (alert,) = page.alerts()
    assert "could not be read" in alert
    assert still_shows in entry_text(page)
    assert count(db, Hand) == 0


def test_a_bad_point_in_the_link_is_left_unchosen(client, start_game):
    game = start_game()
    page = Page(client.get(f"/games/{game}", query_string={
        "calls": PLAYED, "trump": "hearts", "high": "Z", "low": "B"}))
    tally = page.form_posting_to(f"/games/{game}/hands")
    assert tally.checked("high") is None
    assert tally.checked("low") == "B"


@pytest.mark.parametrize("trump, symbol, name, left", SUITS)
def test_the_trump_step_shows_the_order_the_left_bauer_and_who_leads(client, start_game,
                                                                     trump, symbol, name, left):
    game = start_game()
    calls = calls_for(1, {3: 4})  # Cid bids 4
    assert calls == "pass,4,pass,pass,pass,pass"
    page = Page(client.get(f"/games/{game}", query_string={"calls": calls, "trump": trump}))
    text = entry_text(page)
    assert "Cid bid 4." in text
    assert f"Trump: {symbol} {name}." in text
    assert f"Left Bauer: {left}." in text
    order = page.root.find(class_="trump-order")
    # RULES.md: A, K, Q, Right Bauer, Left Bauer, 10, 9, ..., 2, Joker (15 cards).
    expected = [f"A{symbol}", f"K{symbol}", f"Q{symbol}", f"J{symbol}", left]
    expected += [f"{rank}{symbol}" for rank in range(10, 1, -1)] + ["Joker"]
    assert [span.text() for span in order.find_all("span")] == expected
    reminder = page.root.find(class_="reminder").text()
    assert "up to 3 cards" in reminder
    assert "never a trump" in reminder
    assert f"never A{symbol}, either Bauer, 2{symbol} or the Joker" in reminder
    assert "Cid leads." in text


def test_changing_trump_goes_back_to_the_suits(client, start_game):
    game = start_game()
    page = Page(client.get(f"/games/{game}", query_string={"calls": PLAYED, "trump": "spades"}))
    page = Page(click(client, page, "Change trump"))
    assert "Trump?" in entry_text(page)
    assert "Bob bid 4." in entry_text(page)
    page = Page(click(client, page, "Change the bid"))
    assert "Bob (seat 2) to bid" in entry_text(page)
