"""The hand at a real table's network: no connection, a connection that fails at random,
one screen after trump, and a look at the rules in the middle of a hand.

Ann deals hand 1 (target 11 unless said). Bob (seat 2, team B) wins the bid with 4 in
hearts. B takes High, Low, Right and Left (4): made, +4. C takes Joker and Game: +2.
"""
from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import Session, select

from scorekeeper.store.models import GameChange, Hand, LiveDraft
from tests.browser.phones import connection, ready_to_play_on, until, wait_until
from tests.browser.table_steps import (
    AFTER_HAND_1, HAND_1, HAND_1_CARDS, Taps, button, call_radio, choice_label, enter_hand_1,
    expect_entry, expect_history_totals, expect_notice, expect_scores, game_id, name_trump,
    point_group, quick_bid, start_game, tally,
)

pytestmark = pytest.mark.browser

SENT_MS = 30_000  # a hand sent again by itself: within a few retries


def hands_recorded(app, game_id: int) -> list[Hand]:
    with Session(app.extensions["db_engine"]) as session:
        return list(session.exec(select(Hand).where(Hand.game_id == game_id)
                                 .order_by(Hand.number)))


def under_the_service_worker(page: Page, base: str) -> None:
    """As an installed phone is: the service worker looks after every page after this."""
    page.goto(f"{base}/rules")
    page.wait_for_function("() => navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


# --- (a) no connection ------------------------------------------------------------------

def test_a_hand_recorded_offline_is_kept_and_sent_once_when_the_connection_is_back(
        page: Page, other_phone: Page, server_to_lose, live_app):
    live_server = server_to_lose.url  # the server itself goes away with the connection
    taps = Taps()
    under_the_service_worker(page, live_server)
    start_game(page, live_server, taps)
    game_url, game = page.url, game_id(page)
    ready_to_play_on(page)

    connection(page, up=False, server=server_to_lose)
    enter_hand_1(page, taps)  # every step shows with no connection at all
    taps(button(page, "Record hand 1"))
    # The table goes on at once: hand 2's entry, the scores as the phone counts them, and
    # hand 1 said to be on this phone only.
    expect_entry(page, 2, dealer=2)
    expect_scores(page, AFTER_HAND_1)
    kept = "Hand 1 is on this phone only, not sent yet"
    expect(page.locator(".on-phone")).to_contain_text(kept)
    expect(page.locator(".on-phone")).to_be_in_viewport()  # where the player looks
    assert hands_recorded(live_app, game) == []

    page.reload()  # still offline: the service worker's copy, the hand played on it
    expect(page.locator(".on-phone")).to_contain_text(kept)
    expect_scores(page, AFTER_HAND_1)
    assert hands_recorded(live_app, game) == []

    connection(page, up=True, server=server_to_lose)  # the hand is sent by itself, once
    expect(page).to_have_url(game_url)
    # Whichever sends it first says so: the reloaded page's form, or the phone's outbox
    # (the browser's "online" event may come before the reload, under load).
    # (The server's notice: the phone's own says "recorded" of a hand it played on.)
    expect(page.get_by_role("status").and_(page.locator(".notice:not([data-local])"))
           ).to_contain_text(re.compile(rf"Hand 1 recorded: |Hand 1 of game {game} was recorded\."))
    expect_scores(page, AFTER_HAND_1)
    expect_entry(page, 2, dealer=2)
    wait_until(page, "() => !localStorage.getItem('scorekeeper.outbox')")
    (hand,) = hands_recorded(live_app, game)
    assert (hand.number, hand.calls[0], hand.trump) == (1, 4, "hearts")

    other_phone.goto(game_url)
    expect_scores(other_phone, AFTER_HAND_1)
    expect_history_totals(other_phone, 1, AFTER_HAND_1)


def test_a_watcher_is_told_when_its_scores_may_be_out_of_date(page: Page, other_phone: Page,
                                                             live_server: str):
    taps = Taps()
    start_game(page, live_server, taps)
    other_phone.goto(page.url)
    stale = other_phone.locator("#connection")
    expect(stale).to_be_hidden()
    other_phone.context.set_offline(True)
    expect(stale).to_have_text(re.compile(
        r"^No connection since \d?\d:\d\d( [AP]M)?: the scores may be out of date\.$"), timeout=8_000)
    # Meanwhile the table records a hand; back online, the watcher catches up by itself.
    enter_hand_1(page, taps)
    taps(button(page, "Record hand 1"))
    expect_notice(page, "Hand 1 recorded:")
    other_phone.context.set_offline(False)
    expect(stale).to_be_hidden(timeout=8_000)
    expect_scores(other_phone, AFTER_HAND_1)


def test_the_scoreboard_too_says_it_is_behind(page: Page, live_server: str):
    taps = Taps()
    start_game(page, live_server, taps)
    page.goto(page.url + "/board")
    page.context.set_offline(True)
    expect(page.locator("#connection")).to_contain_text("No connection since", timeout=8_000)
    page.context.set_offline(False)
    expect(page.locator("#connection")).to_be_hidden(timeout=8_000)


def server_draft(app, game_id: int) -> dict[str, str]:
    """The hand being entered as the server last heard of it (what a page it draws shows)."""
    with Session(app.extensions["db_engine"]) as session:
        row = session.get(LiveDraft, game_id)
        return dict(row.args) if row else {}


def test_a_kept_hand_is_sent_whole_from_a_page_showing_the_servers_older_draft_of_it(
        page: Page, server_to_lose, live_app):
    """The server heard half of hand 1 before it went; the phone kept the whole hand. A page
    opened as the server comes back shows the server's half in the entry: the phone's
    whole hand is what goes, never the half the page shows."""
    taps = Taps()
    start_game(page, server_to_lose.url, taps)
    game = game_id(page)
    ready_to_play_on(page)
    quick_bid(page, taps, bidder=2, bid=4)
    name_trump(page, taps, "Hearts")
    tally(page, taps, {"High": "B", "Low": "B"})
    until(page, lambda: server_draft(live_app, game).get("low") == "B", "the server has half")
    server_to_lose.stop()
    tally(page, taps, {"Right Bauer": "B", "Left Bauer": "B", "Joker": "C", "Game": "C"})
    taps(button(page, "Record hand 1"))
    expect_entry(page, 2, dealer=2)  # played on: the server did not answer

    server_to_lose.start()
    page.reload()
    wait_until(page, "() => !localStorage.getItem('scorekeeper.outbox')", SENT_MS / 1000)
    (hand,) = hands_recorded(live_app, game)
    assert hand.points == {"high": "B", "low": "B", "right": "B", "left": "B", "joker": "C",
                           "game": "C"}
    expect_scores(page, AFTER_HAND_1)


# --- (b) a connection that fails at random --------------------------------------------

TEN_HANDS = [  # (bidder, bid, trump, who took High, Low, Right, Left, Joker, Game)
    (2, 4, "Hearts", "BBBBC", "C"),
    (3, 3, "Spades", "CCABB", "C"),
    (5, 4, "Diamonds", "BBBAC", "B"),
    (6, 5, "Clubs", "CCCCB", "C"),
    (4, 3, "Hearts", "ABACC", "Tied: nobody"),
    (2, 4, "Spades", "BABBC", "B"),
    (1, 6, "Hearts", "AAAAA", "A"),
    (3, 4, "Clubs", "CACBC", "C"),
    (5, 3, "Diamonds", "BBAAC", "A"),
    (6, 4, "Spades", "CCBAC", "C"),
]


def play_ten_hands(page: Page, taps: Taps) -> None:
    for number, (bidder, bid, trump, owners, game) in enumerate(TEN_HANDS, 1):
        quick_bid(page, taps, bidder=bidder, bid=bid)
        name_trump(page, taps, trump)
        points = dict(zip(("High", "Low", "Right Bauer", "Left Bauer", "Joker"), owners))
        tally(page, taps, {**points, "Game": game})
        taps(button(page, f"Record hand {number}"))
        # Sent again by itself until answered: the next hand, and nothing left unsent.
        expect(page.get_by_role("heading", name=f"Hand {number + 1}", exact=True)) \
            .to_be_visible(timeout=SENT_MS)
        wait_until(page, "() => !localStorage.getItem('scorekeeper.outbox')", SENT_MS / 1000)


def scores_and_history(page: Page) -> tuple[list[str], list[str]]:
    return (page.locator(".team-score").all_inner_texts(),
            page.locator(".deal-scores").all_inner_texts())


def test_ten_hands_through_a_connection_that_fails_at_random(page: Page, live_server: str,
                                                            live_app):
    taps = Taps()
    start_game(page, live_server, taps, target=999)
    play_ten_hands(page, taps)
    page.reload()
    clean = scores_and_history(page)

    # 30 % of the app's requests fail: half before the server sees them, half after it
    # answered (the answer lost on the way back, the case that must not record twice).
    dice = random.Random(2026)
    failures = {"before": 0, "after": 0}

    def flaky(route):
        if route.request.resource_type not in ("xhr", "fetch"):
            return route.continue_()
        roll = dice.random()
        if roll < 0.15:
            failures["before"] += 1
            return route.abort("connectionreset")
        if roll < 0.30 and "/live?" in route.request.url:  # a held poll: lost as it goes
            failures["before"] += 1
            return route.abort("connectionreset")
        if roll < 0.30:
            failures["after"] += 1
            route.fetch()
            return route.abort("connectionreset")
        return route.continue_()

    start_game(page, live_server, taps, target=999)
    game = game_id(page)
    page.route("**/*", flaky)
    play_ten_hands(page, taps)
    page.unroute("**/*")
    page.reload()
    assert scores_and_history(page) == clean
    recorded = hands_recorded(live_app, game)
    assert [hand.number for hand in recorded] == list(range(1, 11))  # none twice, none lost
    assert all(hand.undone_at is None for hand in recorded)
    with Session(live_app.extensions["db_engine"]) as session:
        log = session.exec(select(GameChange).where(GameChange.game_id == game)).all()
    assert [change.kind for change in log] == ["recorded"] * 10
    assert failures["before"] and failures["after"], failures


# --- (c) one screen per hand ------------------------------------------------------------

def test_after_trump_every_point_the_preview_and_record_are_on_one_screen(page: Page,
                                                                          live_server: str):
    taps = Taps()
    start_game(page, live_server, taps)
    quick_bid(page, taps, bidder=2, bid=4)
    name_trump(page, taps, "Hearts")
    height = page.viewport_size["height"]
    # The page brings Record into view (in the frame after trump): wait for that.
    expect(button(page, "Record hand 1")).to_be_in_viewport(ratio=1)
    boxes = {}
    for point in ("High", "Low", "Right Bauer", "Left Bauer", "Joker", "Game"):
        for radio in point_group(page, point).get_by_role("radio").all():
            boxes[f"{point}: {radio.get_attribute('value')}"] = choice_label(radio).bounding_box()
    boxes["Record"] = button(page, "Record hand 1").bounding_box()
    boxes["preview"] = page.locator("#preview").bounding_box()
    outside = {name: box for name, box in boxes.items()
               if box["y"] < 0 or box["y"] + box["height"] > height}
    assert outside == {}
    # What is missing is said beside Record before it is tapped.
    missing = page.locator("#hand-form .missing")
    expect(missing).to_have_text("Still to choose: High Low Right Bauer Left Bauer Joker Game",
                                 use_inner_text=True)
    tally(page, taps, HAND_1_CARDS)
    expect(missing).to_have_text("Still to choose: Game", use_inner_text=True)
    taps(button(page, "Record hand 1"))  # not sent: the Game row is marked where it is
    expect(point_group(page, "Game").locator("legend")).to_have_css(
        "text-decoration-line", "underline")
    assert hands_recorded_count(page) == 0


def hands_recorded_count(page: Page) -> int:
    return page.get_by_role("link", name=re.compile(r"^Edit hand \d+$")).count()


def test_counted_game_values_and_the_game_choice_never_disagree(page: Page, live_server: str):
    taps = Taps()
    start_game(page, live_server, taps)
    quick_bid(page, taps, bidder=2, bid=4)
    name_trump(page, taps, "Hearts")
    tally(page, taps, HAND_1)  # Game to C
    taps(page.get_by_text("Count game values instead"))
    for team, value in {"A": "30", "B": "25", "C": "26"}.items():
        page.get_by_label(f"Team {team} game value").fill(value)
    # The Game buttons step aside: the values decide, and the preview says A took Game.
    expect(point_group(page, "Game").get_by_role("radio")).to_have_count(0)
    expect(page.get_by_text("Game goes by the values counted below.")).to_be_visible()
    expect(page.locator("#preview")).to_have_text("B bid 4, took 4: made, +4. A +1, C +1.")


# --- (d) the rules in the middle of a hand --------------------------------------------

def test_a_look_at_the_rules_keeps_the_hand_being_entered(page: Page, live_server: str):
    taps = Taps()
    start_game(page, live_server, taps)
    quick_bid(page, taps, bidder=2, bid=4)
    name_trump(page, taps, "Hearts")
    tally(page, taps, {"High": "B", "Low": "B"})
    taps(page.locator(".trump-more summary"))  # the trump's facts open
    taps(page.get_by_role("link", name="The rules", exact=True).first)
    expect(page.get_by_role("heading", name="The rules of Schmier, in short")).to_be_visible()
    taps(page.get_by_role("link", name="Back to the game"))
    expect(call_radio(page, 2, 4)).to_be_checked()
    expect(page.get_by_role("radio", name="Hearts", exact=True)).to_be_checked()
    for point in ("High", "Low"):
        expect(point_group(page, point).get_by_role("radio", name=re.compile(r"^B\b"))) \
            .to_be_checked()
    expect(page.get_by_text("Another phone")).to_have_count(0)
    tally(page, taps, {point: team for point, team in HAND_1.items()
                       if point not in ("High", "Low")})
    taps(button(page, "Record hand 1"))
    expect_notice(page, "Hand 1 recorded:")
    expect_scores(page, AFTER_HAND_1)


def overtaken(page: Page, other_phone: Page, base: str) -> None:
    """The second phone is half way through hand 1 (Cid's 3, spades) when the first
    records it (Bob's 4, hearts)."""
    taps = Taps()
    start_game(page, base, taps)
    other_phone.goto(page.url)
    quick_bid(other_phone, taps, bidder=3, bid=3)
    name_trump(other_phone, taps, "Spades")
    enter_hand_1(page, taps)
    taps(button(page, "Record hand 1"))
    expect_notice(page, "Hand 1 recorded:")


def test_when_another_phone_records_the_hand_the_message_is_where_the_player_looks(
        page: Page, other_phone: Page, live_server: str):
    overtaken(page, other_phone, live_server)
    notice = other_phone.locator("#hand-entry .notice")
    expect(notice).to_contain_text("recorded hand 1: A +0, B +4, C +2.", timeout=8_000)
    expect(notice).to_be_in_viewport()
    expect_entry(other_phone, 2, dealer=2)
    expect(other_phone.locator("#hand-form input[type=radio]:checked")).to_have_count(0)


def test_undo_is_taken_back_where_the_player_sees_it(page: Page, live_server: str):
    taps = Taps()
    start_game(page, live_server, taps)
    enter_hand_1(page, taps)
    taps(button(page, "Record hand 1"))
    expect_notice(page, "Hand 1 recorded:")
    taps(button(page, "Undo hand 1"))
    expect_notice(page, "Hand 1 undone.")
    back = button(page, "Bring hand 1 back")
    expect(back).to_be_in_viewport()
    # Right under the notice, above the hand to enter.
    assert back.bounding_box()["y"] < page.get_by_role("heading", name="Hand 1").bounding_box()["y"]
    taps(back)
    expect_notice(page, "Hand 1 is back.")
    expect_scores(page, AFTER_HAND_1)


# --- the server failing, a hand kept while the player looks elsewhere ------------------

def test_a_server_that_fails_is_said_and_the_hand_goes_again_by_itself(page: Page,
                                                                    live_server: str, live_app):
    taps = Taps()
    start_game(page, live_server, taps)
    game = game_id(page)
    failing = {"left": 2}

    def unwell(route):
        if route.request.method == "POST" and failing["left"]:
            failing["left"] -= 1
            return route.fulfill(status=503, body="Service Unavailable")
        return route.continue_()

    page.route(re.compile(r"/games/\d+/hands$"), unwell)
    enter_hand_1(page, taps)
    taps(button(page, "Record hand 1"))
    # Kept, and the table goes on: said where the player looks, hand 2 ready.
    expect(page.locator(".on-phone")).to_contain_text("Hand 1 is on this phone only")
    expect_notice(page, "Hand 1 recorded:")  # sent again by itself, twice, then taken
    expect_scores(page, AFTER_HAND_1)
    assert failing["left"] == 0
    assert len(hands_recorded(live_app, game)) == 1


def test_a_hand_not_sent_is_shown_on_the_games_other_pages_until_sent_or_discarded(
        page: Page, live_server: str, live_app):
    taps = Taps()
    start_game(page, live_server, taps)
    game_url, game = page.url, game_id(page)
    page.route(re.compile(r"/games/\d+/hands$"), lambda route: route.abort("internetdisconnected"))
    enter_hand_1(page, taps)
    taps(button(page, "Record hand 1"))
    expect(page.locator(".on-phone")).to_contain_text("Hand 1 is on this phone only")

    for where in (f"{game_url}/changes", f"{game_url}/board", f"{live_server}/rules?game={game}"):
        page.goto(where)
        kept = page.locator("#outbox")
        expect(kept).to_contain_text(f"Hand 1 of game {game} is kept on this phone, not sent yet.")
        expect(kept.get_by_role("link", name="Open the game")).to_have_attribute(
            "href", f"/games/{game}")
    # Discarding takes a second tap, then the phone holds nothing more.
    discard = page.locator("#outbox").get_by_role("button", name="Discard it")
    taps(discard)
    taps(page.locator("#outbox").get_by_role("button", name="Tap again to discard hand 1"))
    expect(page.locator("#outbox")).to_be_hidden()
    wait_until(page, "() => !localStorage.getItem('scorekeeper.outbox')")
    page.unroute(re.compile(r"/games/\d+/hands$"))
    page.goto(game_url)
    expect(page.locator("#outbox")).to_be_hidden()
    assert hands_recorded(live_app, game) == []


# --- without JavaScript -----------------------------------------------------------------

def test_without_javascript_the_hand_is_entered_and_recorded_all_the_same(browser,
                                                                          member_of_club,
                                                                          live_server: str):
    url, cookie = member_of_club()
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True, java_script_enabled=False)
    context.add_cookies([{"name": "scorekeeper_device", "value": cookie, "url": url}])
    page = context.new_page()
    try:
        taps = Taps()
        start_game(page, live_server, taps)
        quick_bid(page, taps, bidder=2, bid=4)  # the steps are shown by the stylesheet
        name_trump(page, taps, "Hearts")
        tally(page, taps, HAND_1)
        taps(button(page, "Check before recording"))
        expect(page.locator("#preview")).to_have_text("B bid 4, took 4: made, +4. A +0, C +2.")
        taps(button(page, "Record hand 1"))
        expect_notice(page, "Hand 1 recorded:")
        expect_scores(page, AFTER_HAND_1)
        expect_entry(page, 2, dealer=2)
    finally:
        context.close()


def test_an_entry_overtaken_by_another_phone_is_offered_for_that_hand(page: Page,
                                                                     other_phone: Page,
                                                                     live_server: str):
    """The second phone had entered the hand differently: told so, with its own version
    one tap away as a correction, instead of losing it without a word."""
    overtaken(page, other_phone, live_server)
    said = other_phone.locator("#hand-entry .alert")
    expect(said).to_contain_text("Hand 1 was recorded on another phone, so this phone's entry "
                                 "for it was not.", timeout=8_000)
    said.get_by_role("link", name="Put this phone's entry in hand 1").click()
    expect(other_phone.get_by_role("heading", name="Correcting hand 1")).to_be_visible()
    expect(call_radio(other_phone, 3, 3)).to_be_checked()
    expect(other_phone.get_by_role("radio", name="Spades", exact=True)).to_be_checked()


def test_a_hand_changed_after_record_failed_is_sent_as_it_shows(page: Page, live_server: str,
                                                                live_app):
    taps = Taps()
    start_game(page, live_server, taps)
    game = game_id(page)
    page.context.set_offline(True)
    enter_hand_1(page, taps)
    taps(button(page, "Record hand 1"))
    expect_entry(page, 2, dealer=2)  # played on, with no connection
    # Joker to B after all: hand 1 taken back into the entry, put right and recorded again.
    taps(page.locator(".on-phone").get_by_role("button", name="Undo hand 1"))
    expect_entry(page, 1, dealer=1)
    expect(page.get_by_role("radio", name="Hearts", exact=True)).to_be_checked()
    tally(page, taps, {"Joker": "B"})
    taps(button(page, "Record hand 1"))
    expect_entry(page, 2, dealer=2)
    page.context.set_offline(False)
    wait_until(page, "() => !localStorage.getItem('scorekeeper.outbox')", SENT_MS / 1000)
    expect_notice(page, "Hand 1 recorded:")
    (hand,) = hands_recorded(live_app, game)
    assert hand.points["joker"] == "B"
