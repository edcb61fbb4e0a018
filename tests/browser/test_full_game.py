"""A whole game of Schmier at a phone, in a real Chromium, control by control.

Every control is found by its accessible name, the way a screen reader (or a player)
finds it. Every score is worked out here from RULES.md, by hand, and then compared
with what the page shows; none is read back from the app first.

Table (3 teams of 2): A = Ann (1) & Dan (4), B = Bob (2) & Eve (5),
C = Cid (3) & Fay (6). Play to 11, Ann deals first.

hand 1  Ann deals. Turn by turn: Bob pass, Cid 3, Dan 4, Eve/Fay/Ann pass.
        Dan (A) bid 4, hearts. A: High, Right. B: Low. C: Left, Joker. Game: tied.
        P(A)=2 < 4, set: A -4, B +1, C +2                      -> A -4, B 1, C 2
hand 2  Bob deals. Quick entry: Cid (C) bid 3, spades.
        C: High, Low, Game. A: Right. B: Left, Joker.
        C made (3 >= 3): C +3, A +1, B +2                      -> A -3, B 3, C 5
hand 3  Cid deals. All six pass, turn by turn, then "Record the throw-in":
        thrown in, scores stay, Cid deals again.               -> A -3, B 3, C 5
hand 4  Cid deals again. Quick entry: Eve (B) bid 4, diamonds.
        B: High, Low, Right, Game. A: Left. C: Joker.
        B made (4 >= 4): B +4, A +1, C +1                      -> A -2, B 7, C 6
        Undone (back to A -3, B 3, C 5), then brought back (A -2, B 7, C 6).
edit 2  Right Bauer went to B, not A: hand 2 becomes C +3, A +0, B +3.
        After 2: A -4, B 4, C 5; after 3 the same; after 4: A -3, B 8, C 6.
hand 5  Dan deals. Quick entry: Fay (C) bid 5, clubs.
        C: High, Low, Right, Left, Game. B: Joker.
        C made (5 >= 5): C +5, A +0, B +1                      -> A -3, B 9, C 11
        Only C has reached 11: C wins.
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.table_steps import (
    CLIPPED_JS, SWEEP_BUDGET, TAP_BUDGET, Taps, button, call, call_radio, choice_label, choose,
    everyone_passed, expect_entry, expect_history_totals, expect_notice, expect_scores, history_row,
    name_trump, layout_problems, point_group, quick_bid, record, start_game, tally,
)

pytestmark = pytest.mark.browser


# --- the game ----------------------------------------------------------------------

def test_full_game_to_a_winner(page: Page, live_server: str) -> None:
    taps = Taps()
    start_game(page, live_server, taps)
    expect_scores(page, {"A": 0, "B": 0, "C": 0})
    expect(page.get_by_text("No hands yet.")).to_be_visible()

    # Hand 1: turn-by-turn bidding. Ann deals, Bob bids first.
    expect_entry(page, 1, dealer=1)
    call(page, taps, 2, "pass")                                   # Bob
    call(page, taps, 3, 3)                                        # Cid
    # Only higher bids for the seats after Cid, at once: no tap waits on the server.
    expect(call_radio(page, 4, 3)).to_have_count(0)
    call(page, taps, 4, 4)                                        # Dan
    expect(call_radio(page, 5, 4)).to_have_count(0)
    for seat in (5, 6, 1):                                        # Eve, Fay, Ann (deals)
        call(page, taps, seat, "pass")
    name_trump(page, taps, "Hearts")
    expect(page.get_by_text("Dan leads.")).to_be_visible()
    expect(page.get_by_text("Left Bauer: J♦")).to_be_visible()
    tally(page, taps, {"High": "A", "Low": "B", "Right Bauer": "A", "Left Bauer": "C",
                       "Joker": "C", "Game": "Tied: nobody"})
    expect(page.locator("#preview")).to_have_text("A bid 4, took 2: set, −4. B +1, C +2.")
    record(page, taps, 1)
    after_1 = {"A": -4, "B": 1, "C": 2}
    expect_scores(page, after_1)
    expect_history_totals(page, 1, after_1)

    # Hand 2: quick entry. Bob deals.
    expect_entry(page, 2, dealer=2)
    quick_bid(page, taps, bidder=3, bid=3)                        # Cid (C) bid 3
    name_trump(page, taps, "Spades")
    tally(page, taps, {"High": "C", "Low": "C", "Right Bauer": "A", "Left Bauer": "B",
                       "Joker": "B", "Game": "C"})
    record(page, taps, 2)
    after_2 = {"A": -3, "B": 3, "C": 5}
    expect_scores(page, after_2)
    expect_history_totals(page, 2, after_2)

    # Hand 3: all six pass. Cid deals: Dan, Eve, Fay, Ann, Bob and Cid pass, then the
    # throw-in's own button records it (the same as "Everyone passed" would).
    expect_entry(page, 3, dealer=3)
    for seat in (4, 5, 6, 1, 2, 3):
        call(page, taps, seat, "pass")
    expect(page.get_by_text("Everyone passed: thrown in. Cid deals again.")).to_be_visible()
    taps(button(page, "Record the throw-in"))
    expect_notice(page, "Hand 3: thrown in. Cid deals again.")
    expect_scores(page, after_2)
    expect_history_totals(page, 3, after_2)
    expect(history_row(page, 3)).to_contain_text("All passed: thrown in.")

    # Hand 4: the same dealer deals again. A typical quick-entry hand, taps counted.
    expect_entry(page, 4, dealer=3)
    taps.count = 0
    quick_bid(page, taps, bidder=5, bid=4)                        # Eve (B) bid 4
    name_trump(page, taps, "Diamonds")
    tally(page, taps, {"High": "B", "Low": "B", "Right Bauer": "B", "Left Bauer": "A",
                       "Joker": "C", "Game": "B"})
    record(page, taps, 4)
    hand_4_taps = taps.count
    print(f"\ntaps for hand 4 by quick entry (shown -> recorded): {hand_4_taps}")
    assert hand_4_taps <= TAP_BUDGET, f"{hand_4_taps} taps for a quick-entry hand"
    after_4 = {"A": -2, "B": 7, "C": 6}
    expect_scores(page, after_4)
    expect_history_totals(page, 4, after_4)
    expect_entry(page, 5, dealer=4)

    # Undo hand 4: the scores go back; then bring it back.
    taps(button(page, "Undo hand 4"))
    expect_notice(page, "Hand 4 undone.")
    expect_scores(page, after_2)
    expect(page.get_by_role("link", name="Edit hand 4", exact=True)).to_have_count(0)
    expect_entry(page, 4, dealer=3)
    taps(button(page, "Bring hand 4 back"))
    expect_notice(page, "Hand 4 is back.")
    expect_scores(page, after_4)
    expect_history_totals(page, 4, after_4)
    expect_entry(page, 5, dealer=4)

    # Correct hand 2: the Right Bauer went to B, not A. Every total after it changes.
    taps(page.get_by_role("link", name="Edit hand 2", exact=True))
    expect(page.get_by_role("heading", name="Correcting hand 2")).to_be_visible()
    right = point_group(page, "Right Bauer")
    expect(right.get_by_role("radio", name=re.compile(r"^A\b"))).to_be_checked()
    choose(page, right.get_by_role("radio", name=re.compile(r"^B\b")), taps)
    expect(page.locator("#preview")).to_have_text("C bid 3, took 3: made, +3. A +0, B +3.")
    taps(button(page, "Save hand 2"))
    expect_notice(page, "Hand 2 corrected")
    new_after_2 = {"A": -4, "B": 4, "C": 5}
    new_after_4 = {"A": -3, "B": 8, "C": 6}
    expect_history_totals(page, 1, after_1)
    expect_history_totals(page, 2, new_after_2)
    expect_history_totals(page, 3, new_after_2)
    expect_history_totals(page, 4, new_after_4)
    expect_scores(page, new_after_4)

    # Hand 5: Dan deals. Fay (C) bids 5, makes it and reaches 11.
    expect_entry(page, 5, dealer=4)
    quick_bid(page, taps, bidder=6, bid=5)
    name_trump(page, taps, "Clubs")
    tally(page, taps, {"High": "C", "Low": "C", "Right Bauer": "C", "Left Bauer": "C",
                       "Joker": "B", "Game": "C"})
    expect(page.locator("#preview")).to_have_text(
        "C bid 5, took 5: made, +5. A +0, B +1. This ends the game: C reached 11: C wins.")
    record(page, taps, 5)
    final = {"A": -3, "B": 9, "C": 11}
    expect_scores(page, final)
    expect_history_totals(page, 5, final)

    expect(page.get_by_role("heading", name="Game over")).to_be_visible()
    expect(page.get_by_text("C reached 11: C wins.", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name=re.compile(r"^Record"))).to_have_count(0)
    expect(page.get_by_role("radio", name=re.compile(r"^Bid \d$"))).to_have_count(0)


def test_a_sweep_by_one_team_is_four_taps(page: Page, live_server: str) -> None:
    """Bob (B) bids 4 in spades and B takes all six: the bid, trump, "the rest: B",
    Record."""
    taps = Taps()
    start_game(page, live_server, taps)
    taps.count = 0
    quick_bid(page, taps, bidder=2, bid=4)
    name_trump(page, taps, "Spades")
    taps(choice_label(point_group(page, "The rest").get_by_role("radio", name=re.compile(r"^B\b"))))
    for point in ("High", "Low", "Right Bauer", "Left Bauer", "Joker", "Game"):
        expect(point_group(page, point).get_by_role("radio", name=re.compile(r"^B\b"))).to_be_checked()
    expect(page.locator("#preview")).to_have_text("B bid 4, took 6: made, +6. A +0, C +0.")
    record(page, taps, 1)
    print(f"\ntaps for a sweep: {taps.count}")
    assert taps.count <= SWEEP_BUDGET
    expect_scores(page, {"A": 0, "B": 6, "C": 0})


# --- a small phone -----------------------------------------------------------------

def test_small_phone_no_sideways_scroll_and_big_targets(small_page: Page, live_server: str) -> None:
    """360x740: every step of the game page, and the new-game page, fit and are easy to tap.

    A short game to 5: hand 1 Bob (B) bids 4 and takes 4 (A 1, B 4, C 1);
    hand 2 Eve (B) bids 3 and takes all six (B 10): B wins.
    """
    page, taps, problems = small_page, Taps(), []

    page.goto(f"{live_server}/games/new")
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    problems += layout_problems(page, "new game")

    start_game(page, live_server, taps, target=5)
    problems += layout_problems(page, "game, hand 1, nobody has called")
    call(page, taps, 2, 3)
    problems += layout_problems(page, "game, hand 1, a bid and the trump step")
    everyone_passed(page, taps)
    problems += layout_problems(page, "game, hand 1, thrown in")
    quick_bid(page, taps, bidder=2, bid=4)
    name_trump(page, taps, "Hearts")
    problems += layout_problems(page, "game, tally")
    taps(page.locator(".trump-more summary"))  # the trump order and the discards, opened
    expect(page.get_by_role("heading", name="Trump order and discards")).to_be_visible()
    problems += layout_problems(page, "game, trump order open")
    taps(page.get_by_text("Count game values instead"))
    expect(page.get_by_label("Team A game value")).to_be_visible()
    problems += layout_problems(page, "game, tally (game values open)")
    tally(page, taps, {"High": "B", "Low": "B", "Right Bauer": "B", "Left Bauer": "A",
                       "Joker": "C", "Game": "B"})
    record(page, taps, 1)
    expect_scores(page, {"A": 1, "B": 4, "C": 1})
    problems += layout_problems(page, "game, hand 2 with a history")
    taps(button(page, "Undo hand 1"))
    expect(button(page, "Bring hand 1 back")).to_be_visible()
    problems += layout_problems(page, "game, hand 1 undone")
    taps(button(page, "Bring hand 1 back"))
    expect_notice(page, "Hand 1 is back.")
    taps(page.get_by_role("link", name="Edit hand 1", exact=True))
    expect(page.get_by_role("heading", name="Correcting hand 1")).to_be_visible()
    problems += layout_problems(page, "game, correcting hand 1")
    taps(page.get_by_role("link", name="Cancel the correction", exact=True))
    expect_entry(page, 2, dealer=2)
    quick_bid(page, taps, bidder=5, bid=3)
    name_trump(page, taps, "Clubs")
    tally(page, taps, {"High": "B", "Low": "B", "Right Bauer": "B", "Left Bauer": "B",
                       "Joker": "B", "Game": "B"})
    record(page, taps, 2)
    expect_scores(page, {"A": 1, "B": 10, "C": 1})
    expect(page.get_by_role("heading", name="Game over")).to_be_visible()
    problems += layout_problems(page, "game over")

    assert problems == [], "\n".join(problems)


def test_small_phone_labels_fit_inside_their_controls(small_page: Page, live_server: str) -> None:
    """At 360x740 no control's label spills out of it, on the auction, trump and tally steps."""
    page, taps, clipped = small_page, Taps(), []
    start_game(page, live_server, taps)
    clipped += [f"auction: {c}" for c in page.evaluate(CLIPPED_JS)]
    quick_bid(page, taps, bidder=2, bid=4)
    clipped += [f"trump: {c}" for c in page.evaluate(CLIPPED_JS)]
    name_trump(page, taps, "Diamonds")
    clipped += [f"tally: {c}" for c in page.evaluate(CLIPPED_JS)]
    assert clipped == [], "\n".join(clipped)
