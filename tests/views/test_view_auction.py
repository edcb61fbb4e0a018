"""The hand as one form: the winning bid in one tap or the bidding turn by turn, trump,
the trump's facts, and what bad fields do (nothing).

The page carries every choice; the phone reveals each step (CSS, tested in the browser
tests). Here: which controls the server renders, what it reads back from them, and
what it records. Dealer seat 1 (Ann) throughout unless said: bidding goes Bob 2,
Cid 3, Dan 4, Eve 5, Fay 6, then Ann 1 (RULES.md: from the dealer's left, clockwise,
the dealer last).
"""
from __future__ import annotations

import pytest

from tests.members import client_as
from tests.views.view_helpers import Hand, Page, calls_for, count, hands_of

NAMES = {1: "Ann", 2: "Bob", 3: "Cid", 4: "Dan", 5: "Eve", 6: "Fay"}
ORDER = [2, 3, 4, 5, 6, 1]  # seat 1 deals
SUITS = [  # suit, symbol, Left Bauer (the other jack of the same colour)
    ("spades", "♠", "J♣"),
    ("hearts", "♥", "J♦"),
    ("diamonds", "♦", "J♥"),
    ("clubs", "♣", "J♠"),
]


def hand_form(page: Page):
    forms = [form for form in page.forms() if form.element.get("id") == "hand-form"]
    assert len(forms) == 1, "no hand form on the page"
    return forms[0]


def heard(element) -> str:
    """An element's text as a screen reader says it (what is aria-hidden left out)."""
    def raw(node) -> str:
        return "".join(child if isinstance(child, str) else raw(child)
                       for child in node.children
                       if isinstance(child, str) or child.get("aria-hidden") != "true")
    return " ".join(raw(element).split())


def radios(page: Page, name: str) -> list[tuple[str, str]]:
    """(value, the label's text a reader hears) of every radio called ``name``."""
    found = []
    for element in hand_form(page).element.find_all("input", type="radio", name=name):
        label = element.parent
        while label is not None and label.tag != "label":
            label = label.parent
        found.append((element.get("value"), heard(label) if label else ""))
    return found


def entry_text(page: Page) -> str:
    return page.section_text("hand-entry")


def record(client, game_id: int, **fields):
    return client.post(f"/games/{game_id}/hands", data={"number": "1", **fields})


def test_a_row_per_seat_in_bidding_order_with_pass_and_every_bid(client, start_game):
    """One tap on the winning bid is the whole auction; or each call in turn."""
    game = start_game()
    page = Page(client.get(f"/games/{game}"))
    assert "Bob bids first." in entry_text(page)
    legends = [fieldset.find("legend").text()
               for fieldset in page.root.find_all("fieldset", class_="turn")]
    assert legends == [NAMES[seat] for seat in ORDER]
    for turn in range(1, 7):
        assert radios(page, f"turn_{turn}") == [
            ("pass", "Pass"), ("3", "Bid 3"), ("4", "Bid 4"), ("5", "Bid 5"), ("6", "Bid 6")]
    assert radios(page, "bid") == [("passed", "Everyone passed: thrown in")]
    assert [hand_form(page).checked(f"turn_{turn}") for turn in range(1, 7)] == [None] * 6


def test_one_tap_on_the_winning_bid_is_the_auction_with_every_other_seat_passing(
        client, db, start_game):
    game = start_game()
    # Dan (seat 4) is third to call: his row's 5, and nothing else.
    assert record(client, game, turn_3="5", trump="spades", rest="A").status_code == 303
    (hand,) = hands_of(db, game)
    assert hand.calls == ["pass", "pass", 5, "pass", "pass", "pass"]
    # Shown again as it was entered: the 5 alone, not five passes typed.
    form = hand_form(Page(client.get(f"/games/{game}/hands/1/edit")))
    assert [form.checked(f"turn_{turn}") for turn in range(1, 7)] == [
        None, None, "5", None, None, None]


def test_a_winning_bid_is_recorded_as_that_bid_with_every_other_seat_passing(client, db,
                                                                              start_game):
    game = start_game()
    # Dan (seat 4, team A) bid 5 in hearts; A takes 4 of 6 points: set.
    response = record(client, game, bid="4-5", trump="hearts", high="A", low="A", right="A",
                      left="A", joker="B", game="C")
    assert response.status_code == 303
    (hand,) = hands_of(db, game)
    assert hand.calls == ["pass", "pass", 5, "pass", "pass", "pass"]
    assert hand.trump == "hearts"
    assert Page(client.get(f"/games/{game}")).scores() == {"A": -5, "B": 1, "C": 1}


def test_the_bidding_turn_by_turn_is_recorded_call_by_call(client, db, start_game):
    game = start_game()
    turns = {"turn_1": "pass", "turn_2": "4", "turn_3": "pass", "turn_4": "5",
             "turn_5": "pass", "turn_6": "pass"}
    page = Page(client.get(f"/games/{game}", query_string={"number": "1", **turns,
                                                           "trump": "clubs"}))
    form = hand_form(page)
    assert {name: form.checked(name) for name in turns} == turns  # every call, as entered
    assert form.checked("trump") == "clubs"
    response = record(client, game, **turns, trump="clubs", rest="B")
    assert response.status_code == 303
    (hand,) = hands_of(db, game)
    assert hand.calls == ["pass", 4, "pass", 5, "pass", "pass"]
    # Eve (seat 5, team B) bid 5; "the rest to B" gave B all six points: made, +6.
    assert hand.points == {"high": "B", "low": "B", "right": "B", "left": "B", "joker": "B",
                           "game": "B"}
    assert Page(client.get(f"/games/{game}")).scores() == {"A": 0, "B": 6, "C": 0}


@pytest.mark.parametrize("turns, calls", [
    (["6"], [6]),
    (["pass", "6"], ["pass", 6]),
    (["3", "4", "5", "6"], [3, 4, 5, 6]),
])
def test_a_six_ends_the_bidding_at_once_and_later_turns_are_not_read(client, db, start_game,
                                                                      turns, calls):
    game = start_game()
    fields = {f"turn_{turn}": call for turn, call in enumerate(turns, 1)}
    fields[f"turn_{len(turns) + 1}"] = "pass"  # a turn the page no longer showed
    response = record(client, game, **fields, trump="spades", rest="A")
    assert response.status_code == 303
    (hand,) = hands_of(db, game)
    assert hand.calls == calls


def test_everyone_passed_is_the_same_throw_in_by_either_path(client, db, start_game):
    game = start_game()
    assert record(client, game, bid="passed").status_code == 303
    turns = {f"turn_{turn}": "pass" for turn in range(1, 7)}
    assert client.post(f"/games/{game}/hands", data={"number": "2", **turns}).status_code == 303
    assert [hand.calls for hand in hands_of(db, game)] == [["pass"] * 6] * 2
    # The same dealer deals again after each: still Ann's deal for hand 3.
    page = Page(client.get(f"/games/{game}"))
    assert "Dealer: Ann (seat 1)." in entry_text(page)


def test_a_stored_hand_is_shown_the_way_it_was_entered(client, db, start_game):
    game = start_game()
    record(client, game, bid="3-4", trump="hearts", rest="C")
    client.post(f"/games/{game}/hands", data={
        "number": "2", "turn_1": "3", "turn_2": "4", "turn_3": "pass", "turn_4": "pass",
        "turn_5": "pass", "turn_6": "pass", "trump": "spades", "rest": "A"})
    quick = hand_form(Page(client.get(f"/games/{game}/hands/1/edit")))
    assert [quick.checked(f"turn_{turn}") for turn in range(1, 7)] == [
        None, "4", None, None, None, None]  # Cid's 4 alone: the others passed
    turned = hand_form(Page(client.get(f"/games/{game}/hands/2/edit")))
    assert [turned.checked(f"turn_{turn}") for turn in range(1, 7)] == [
        "3", "4", "pass", "pass", "pass", "pass"]


PLAYED = calls_for(1, {2: 4})  # "4,pass,pass,pass,pass,pass": Bob bids 4


@pytest.mark.parametrize("query", [
    {"calls": "pass,pass,9"},
    {"calls": "4,3"},
    {"calls": ",".join(["pass"] * 7)},
    {"calls": "pass,³"},
    {"calls": "9" * 30},
    {"bid": "9-3"},
    {"bid": "0-4"},
    {"bid": "2-7"},
    {"bid": "abc"},
    {"bid": "³-3"},
    {"bid": "2-4-5"},
    {"turn_1": "9"},
    {"turn_1": "4", "turn_2": "3"},
    {"turn_1": "4", "turn_2": "4"},
    {"turn_1": "pass", "bid": "passed"},
    {"calls": PLAYED, "trump": "stars"},
    {"calls": PLAYED, "trump": "hearts", "high": "Z"},
    {"calls": PLAYED, "trump": "hearts", "game": "Q"},
    {"calls": PLAYED, "trump": "hearts", "rest": "Q"},
    {"calls": PLAYED, "trump": "hearts", "value_A": "abc"},
    {"calls": PLAYED, "trump": "hearts", "value_A": "-3"},
    {"calls": PLAYED, "trump": "hearts", "value_B": "³"},
])
def test_a_bad_field_never_breaks_the_page_and_writes_nothing(client, db, start_game, query):
    game = start_game()
    response = client.get(f"/games/{game}", query_string=query)
    assert response.status_code == 200
    page = Page(response)
    (alert,) = page.alerts()
    assert "could not be read" in alert
    assert hand_form(page) is not None
    posted = record(client, game, **query)
    assert posted.status_code in (303, 422)
    if posted.status_code == 303:  # only where what was left (a turn, say) is a hand
        assert count(db, Hand) == 1
    else:
        assert count(db, Hand) == 0


def test_a_bad_point_in_the_link_is_left_unchosen(client, start_game):
    game = start_game()
    page = Page(client.get(f"/games/{game}", query_string={
        "calls": PLAYED, "trump": "hearts", "high": "Z", "low": "B"}))
    form = hand_form(page)
    assert form.checked("high") is None
    assert form.checked("low") == "B"


@pytest.mark.parametrize("trump, symbol, left", SUITS)
def test_each_trump_comes_with_its_order_its_left_bauer_and_the_discard_rule(client, start_game,
                                                                             trump, symbol, left):
    game = start_game()
    page = Page(client.get(f"/games/{game}"))
    # Every suit's facts are on the page; the phone shows the chosen one's (class of-…).
    facts = page.root.find("details", class_="trump-more")
    assert f"Left Bauer: {left}." in facts.find("summary").find(class_=f"of-{trump}").text()
    order = facts.find("p", class_=f"of-{trump}")
    # RULES.md: A, K, Q, Right Bauer, Left Bauer, 10, 9, ..., 2, Joker (15 cards).
    expected = [f"A{symbol}", f"K{symbol}", f"Q{symbol}", f"J{symbol}", left]
    expected += [f"{rank}{symbol}" for rank in range(10, 1, -1)] + ["Joker"]
    assert [span.text() for span in order.find_all("span")] == expected
    reminder = facts.find(class_="reminder").text()  # RULES.md, "Discard and play"
    assert "up to 3 cards" in reminder
    assert "never a trump" in reminder
    assert "never the ace or the 2 of trumps, a Bauer or the Joker" in reminder
    (link,) = [p.find("a") for p in facts.find_all("p", class_=f"of-{trump}")
               if "export" in p.classes]
    assert link.get("href") == f"/rules?trump={trump}&game={game}"
    # Who leads: the bidder, whoever wins; the phone shows the bidder's row's, folded.
    leads = [row.find(class_="leads").text() for row in page.root.find_all("fieldset", class_="turn")]
    assert leads == [f"{NAMES[seat]} leads." for seat in ORDER]
    assert radios(page, "trump") == [("spades", "Spades"), ("hearts", "Hearts"),
                                     ("diamonds", "Diamonds"), ("clubs", "Clubs")]


def test_the_rest_fills_only_the_points_still_open(client, db, start_game):
    game = start_game()
    # Bob (B) bid 4 in spades: High to A, Low to C, then "the rest to B".
    response = record(client, game, bid="2-4", trump="spades", high="A", low="C", rest="B")
    assert response.status_code == 303
    (hand,) = hands_of(db, game)
    assert hand.points == {"high": "A", "low": "C", "right": "B", "left": "B", "joker": "B",
                           "game": "B"}
    # Counted game values decide Game: the rest leaves it to them.
    response = client.post(f"/games/{game}/hands", data={
        "number": "2", "bid": "3-3", "trump": "hearts", "rest": "A",
        "value_A": "20", "value_B": "40", "value_C": "21"})
    assert response.status_code == 303
    assert hands_of(db, game)[1].points["game"] == "B"


@pytest.mark.parametrize("call", ["PASS", "Pass", " pass"])
def test_a_pass_written_another_way_is_still_a_pass(client, db, start_game, call):
    """One seat's pass is no bid: it does not make the open turns into passes."""
    game = start_game()
    response = record(client, game, turn_1=call)
    assert response.status_code == 422
    assert count(db, Hand) == 0


def test_a_watcher_is_not_told_of_a_scorers_unreadable_link(app, client, start_game):
    game = start_game()
    client.get(f"/games/{game}", query_string={"number": "1", "revision": "1", "turn_1": "7"},
               headers={"HX-Request": "true", "HX-Target": "preview"})
    page = Page(client_as(app, "viewer").get(f"/games/{game}"))
    assert page.alerts() == []


def test_the_dealers_pass_with_nobody_bidding_is_a_throw_in_whatever_was_left_open(
        client, db, start_game):
    """The page shows the throw-in once the dealer passed and nobody bid: so it is."""
    game = start_game()
    fields = {"turn_1": "pass", "turn_2": "pass", "turn_4": "pass", "turn_6": "pass"}
    assert record(client, game, **fields).status_code == 303
    (hand,) = hands_of(db, game)
    assert hand.calls == ["pass"] * 6


def test_a_bid_not_above_an_earlier_one_keeps_the_calls_before_it(client, db, start_game):
    """Without JavaScript a stray lower bid can stay checked: what came before it stays,
    and the page says what is wrong."""
    game = start_game()
    page = Page(client.get(f"/games/{game}", query_string={
        "number": "1", "turn_1": "5", "turn_3": "4", "trump": "hearts"}))
    form = hand_form(page)
    assert form.checked("turn_1") == "5"
    response = record(client, game, turn_1="5", turn_3="4", trump="hearts", rest="A")
    assert response.status_code == 422
    assert Page(response).by_id("record-problem").text() == "A bid must be higher than 5."
    assert count(db, Hand) == 0
