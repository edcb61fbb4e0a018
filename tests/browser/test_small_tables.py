"""Four at the table, on a phone (390x844): a game each for themselves and a game of two
pairs, started on the new-game page and played to the end, with a stretch of hands
played with no connection and sent when it is back. What the phone must show after
each hand is worked out by the rules engine itself.
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import Session, select

from scorekeeper.rules import PASS, Deal, HouseRules, Tally, quick_auction, replay
from scorekeeper.store.models import Hand
from tests.browser.phones import connection, ready_to_play_on, wait_until
from tests.browser.table_steps import (
    TAP_BUDGET, Taps, button, choose, expect_entry, expect_scores, game_id, layout_problems,
)
from tests.browser.test_play_offline import enter, points

pytestmark = pytest.mark.browser

FOUR = {1: "Ann", 2: "Bob", 3: "Cid", 4: "Dan"}  # the first four of table_steps.SEATS
# (bidder seat, bid, trump, card points, Game) for a played hand; None: everyone passed.
CUTTHROAT = [  # to 7, Ann deals first: B reaches 7 at hand 5 (one thrown in, one set)
    (2, 3, "hearts", points("B", "B", "A", "B", "C"), "B"),
    (3, 4, "spades", points("C", "A", "D", "C", "C"), "D"),  # C takes 3 of 4: set
    None,
    (4, 3, "clubs", points("D", "D", "B", "D", "A"), "D"),
    (2, 4, "diamonds", points("B", "B", "B", "C", "B"), "B"),
    (1, 3, "hearts", points("B", "A", "B", "A", "B"), "A"),
]
PAIRS = [  # to 11, Ann deals first: A (Ann & Cid) and B (Bob & Dan)
    (2, 4, "hearts", points("B", "B", "B", "A", "B"), "A"),
    (3, 3, "spades", points("A", "A", "A", "B", "B"), "A"),
    None,
    (1, 5, "clubs", points("A", "A", "A", "A", "B"), "A"),
    (4, 3, "diamonds", points("B", "A", "B", "B", "B"), "B"),
    (2, 6, "spades", points("B", "B", "B", "B", "B"), "B"),
]


def played(rules: HouseRules, hands):
    """The game after ``hands``, as the rules engine plays it (Ann deals first)."""
    deals = []
    for hand in hands:
        dealer = replay(rules, 1, deals).next_dealer
        if hand is None:
            deals.append(Deal((PASS,) * rules.seats))
        else:
            bidder, bid, trump, card_points, game = hand
            deals.append(Deal(quick_auction(dealer, bidder, bid, rules.seats).calls, trump,
                              Tally(card_points, game)))
    return replay(rules, 1, deals)


def hands_to_play(rules: HouseRules, hands) -> list:
    """``hands`` up to the one that ends the game."""
    for count in range(1, len(hands) + 1):
        if played(rules, hands[:count]).finished:
            return hands[:count]
    raise AssertionError("the hands never end the game")


def start(page: Page, base: str, taps: Taps, layout_name: str, target: int) -> None:
    page.goto(f"{base}/games/new")
    choose(page, page.get_by_role("radio", name=layout_name, exact=True).and_(
        page.locator(f"input[value='{LAYOUTS[layout_name]}']")), taps)
    expect(page.get_by_role("combobox", name="Seat 5", exact=True)).to_have_count(0)
    for seat, name in FOUR.items():
        page.get_by_role("combobox", name=f"Seat {seat}", exact=True).fill(name)
    page.get_by_label("Play to", exact=True).fill(str(target))
    choose(page, page.get_by_role("radio", name="Seat 1 deals first", exact=True), taps)
    taps(button(page, "Start the game"))
    expect(page).to_have_url(re.compile(r"/games/\d+$"))


LAYOUTS = {"Each for themselves": "c4", "Two pairs (1 & 3, 2 & 4)": "2x2"}


def hands_stored(app, game: int) -> list[int]:
    with Session(app.extensions["db_engine"]) as session:
        return [hand.number for hand in session.exec(
            select(Hand).where(Hand.game_id == game, Hand.undone_at.is_(None))
            .order_by(Hand.number))]


@pytest.mark.parametrize("layout_name, teams, target, hands, winners", [
    ("Each for themselves", "c4", 7, CUTTHROAT, "Bob win!"),
    ("Two pairs (1 & 3, 2 & 4)", "2x2", 11, PAIRS, None),
], ids=["cutthroat", "pairs"])
def test_four_play_a_game_to_its_end_with_a_stretch_offline(
        page: Page, live_server: str, live_app, layout_name, teams, target, hands, winners):
    rules = HouseRules(teams, target)
    hands = hands_to_play(rules, hands)
    taps = Taps()
    start(page, live_server, taps, layout_name, target)
    game = game_id(page)
    assert layout_problems(page, "the game page at four", 390) == []
    offline = range(3, min(5, len(hands)))  # hands 3 and 4 with no connection
    for number, hand in enumerate(hands, start=1):
        if number == offline.start:
            ready_to_play_on(page)
            connection(page, up=False)
        if number == offline.stop:
            connection(page, up=True)
            wait_until(page, "() => !localStorage.getItem('scorekeeper.outbox')", 60)
        before = taps.count
        enter(page, taps, hand, number)
        assert taps.count - before <= TAP_BUDGET, f"hand {number}: {taps.count - before} taps"
        state = played(rules, hands[:number])
        expect_scores(page, state.scores)
        if not state.finished:
            expect_entry(page, number + 1, state.next_dealer, rules.seats)
    expect(page.get_by_role("heading", name="Game over", exact=True)).to_be_visible()
    final = played(rules, hands)
    names = " & ".join(FOUR[seat] for seat in rules.team_seats[final.winner])
    expect(page.get_by_text(winners or f"{names} win!", exact=True)).to_be_visible()
    assert hands_stored(live_app, game) == list(range(1, len(hands) + 1))
    assert layout_problems(page, "the game over at four", 390) == []


def test_four_passing_turn_by_turn_is_a_throw_in_to_record(page: Page, live_server: str):
    taps = Taps()
    start(page, live_server, taps, "Each for themselves", 7)
    for seat in (2, 3, 4, 1):  # Ann deals: from her left round to her
        row = page.get_by_role("group", name=FOUR[seat], exact=True)
        choose(page, row.get_by_role("radio", name="Pass", exact=True), taps)
    taps(button(page, "Record the throw-in"))
    expect_entry(page, 2, 1, 4)  # thrown in: Ann deals again
