"""The table plays on with no connection: the rest of the game on the phone, every hand
sent once, in order, when the connection is back.

One game of nine hands to 15 (Ann deals first, teams of two): a throw-in, two sets and two
tied Games among them; C reaches 15 at hand 9. What the phone must show after each hand is
worked out here by the rules engine itself, never written down by hand.
"""
from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import Error as PlaywrightError, Page, expect
from sqlmodel import Session, select

from scorekeeper.rules import PASS, Deal, HouseRules, Tally, quick_auction, replay
from scorekeeper.store.models import Game, Hand
from scorekeeper.store.replay import load_replay
from scorekeeper.web.languages import DIGITS
from scorekeeper.web.allow import allow, allowed
from tests.browser.table_steps import (
    Taps, button, call_radio, everyone_passed, expect_entry, expect_scores, game_id,
    name_trump, quick_bid, start_game, tally,
)
from tests.browser.phones import (
    OFFLINE_SCRIPT, PHONE, connection, phone_context, ready_to_play_on, wait_until,
)
from tests.browser.test_network import under_the_service_worker

pytestmark = pytest.mark.browser

TARGET = 15
POINT_NAMES = {"high": "High", "low": "Low", "right": "Right Bauer", "left": "Left Bauer",
               "joker": "Joker"}


def points(high, low, right, left, joker):
    return {"high": high, "low": low, "right": right, "left": left, "joker": joker}


# (bidder seat, bid, trump, card points, Game) for a played hand; None: all six passed.
HANDS = [
    (2, 4, "hearts", points("B", "B", "B", "B", "C"), "C"),
    (3, 3, "spades", points("C", "C", "A", "A", "C"), None),
    None,
    (4, 5, "clubs", points("A", "B", "A", "B", "B"), "B"),
    (5, 3, "diamonds", points("B", "A", "B", "C", "C"), "A"),
    (6, 4, "hearts", points("C", "C", "C", "A", "C"), "C"),
    (1, 3, "spades", points("A", "A", "B", "A", "C"), None),
    (2, 3, "clubs", points("C", "B", "B", "A", "A"), "B"),
    (3, 4, "diamonds", points("C", "C", "C", "B", "C"), "C"),
]
RULES = HouseRules(target=TARGET)


def played(hands, rules: HouseRules = RULES):
    """The game after ``hands``, as the rules engine plays it (to 15 unless ``rules``
    say otherwise)."""
    deals = []
    for hand in hands:
        dealer = replay(rules, 1, deals).next_dealer
        if hand is None:
            deals.append(Deal((PASS,) * 6))
        else:
            bidder, bid, trump, card_points, game = hand
            deals.append(Deal(quick_auction(dealer, bidder, bid).calls, trump,
                              Tally(card_points, game)))
    return replay(rules, 1, deals)


def enter(page: Page, taps: Taps, hand, number: int) -> None:
    """Hand ``number`` entered and Record tapped."""
    if hand is None:
        everyone_passed(page, taps)
        taps(button(page, "Record the throw-in"))
        return
    bidder, bid, trump, card_points, game = hand
    quick_bid(page, taps, bidder=bidder, bid=bid)
    name_trump(page, taps, trump.capitalize())
    chosen = {POINT_NAMES[point]: team for point, team in card_points.items()}
    tally(page, taps, {**chosen, "Game": game or "Tied: nobody"})
    taps(button(page, f"Record hand {number}"))


def expect_played_on(page: Page, number: int) -> None:
    """The phone shows the game after hand ``number`` of HANDS, hands it kept marked."""
    state = played(HANDS[:number])
    expect_scores(page, state.scores)
    row = page.locator("#deals li.unsent").first
    expect(row.locator(".deal-head strong").first).to_have_text(f"{number}.")
    expect(row).to_contain_text("On this phone only")
    if state.finished:
        expect(page.get_by_role("heading", name="Game over", exact=True)).to_be_visible()
        expect(page.get_by_text("Cid & Fay win!", exact=True)).to_be_visible()
        expect(page.locator("#hand-entry > .big-line")).to_have_text(f"C reached {TARGET}: C wins.")
        for control in ("Clear this hand", f"Record hand {number + 1}"):  # nothing to enter
            expect(page.get_by_role("button", name=control, exact=True)).to_have_count(0)
    else:
        expect_entry(page, number + 1, state.next_dealer)


def hands_stored(app, game_id: int) -> list[Hand]:
    with Session(app.extensions["db_engine"]) as session:
        return list(session.exec(select(Hand).where(Hand.game_id == game_id,
                                                    Hand.undone_at.is_(None))
                                 .order_by(Hand.number)))


def server_scores(app, game_id: int) -> dict[str, int]:
    with Session(app.extensions["db_engine"]) as session:
        return load_replay(session, session.get(Game, game_id)).state.scores


def play_online(page: Page, taps: Taps, upto: int) -> None:
    for number in range(1, upto + 1):
        enter(page, taps, HANDS[number - 1], number)
        expect(page.locator("#hand-entry .notice")).to_contain_text(f"Hand {number}")
        expect_scores(page, played(HANDS[:number]).scores)


def play_offline(page: Page, taps: Taps, first: int, last: int) -> None:
    for number in range(first, last + 1):
        enter(page, taps, HANDS[number - 1], number)
        expect_played_on(page, number)
        if number < len(HANDS):
            kept = f"Hand {first} is" if number == first else f"Hands {first}–{number} are"
            expect(page.locator(".on-phone")).to_contain_text(f"{kept} on this phone only")


def offline_from_hand_3(page: Page, taps: Taps, base: str, last: int) -> tuple[str, int]:
    """A new game, hands 1-2 recorded, then the connection gone for hands 3 to ``last``:
    (the game's address, its id)."""
    start_game(page, base, taps, target=TARGET)
    game_url, game = page.url, game_id(page)
    play_online(page, taps, 2)
    connection(page, up=False)
    play_offline(page, taps, 3, last)
    return game_url, game


def wait_until_sent(page: Page, seconds: float = 60) -> None:
    wait_until(page, "() => !localStorage.getItem('scorekeeper.outbox')", seconds)


def expect_all_sent(page: Page, app, game: int) -> None:
    wait_until_sent(page)
    stored = hands_stored(app, game)
    assert [hand.number for hand in stored] == list(range(1, len(HANDS) + 1))
    assert server_scores(app, game) == played(HANDS).scores
    expect(page.get_by_role("heading", name="Game over", exact=True)).to_be_visible()
    expect(page.locator("li.unsent")).to_have_count(0)


# --- (a) the rest of the game with no connection, reloaded twice --------------------------

def test_the_rest_of_the_game_is_played_offline_and_sent_once_in_order(
        page: Page, other_phone: Page, server_to_lose, live_app):
    live_server = server_to_lose.url  # the server itself goes away with the connection
    taps = Taps()
    under_the_service_worker(page, live_server)
    start_game(page, live_server, taps, target=TARGET)
    game_url, game = page.url, game_id(page)
    play_online(page, taps, 2)

    connection(page, up=False, server=server_to_lose)
    play_offline(page, taps, 3, len(HANDS))
    shown = page.locator("#scores").inner_text()
    for _ in range(2):  # the service worker's copy, with the phone's hands played on it
        page.reload()
        expect_played_on(page, len(HANDS))
        assert page.locator("#scores").inner_text() == shown
    assert [hand.number for hand in hands_stored(live_app, game)] == [1, 2]

    connection(page, up=True, server=server_to_lose)
    expect_all_sent(page, live_app, game)
    assert page.locator("#scores").inner_text() == shown  # the server's, as the phone showed it
    other_phone.goto(game_url)
    expect_scores(other_phone, played(HANDS).scores)
    expect(other_phone.get_by_text("Cid & Fay win!", exact=True)).to_be_visible()


# --- (b) sent through a connection that fails at random ----------------------------------

def test_hands_kept_offline_go_through_a_connection_that_fails_at_random(
        page: Page, live_server: str, live_app):
    taps = Taps()
    start_game(page, live_server, taps, target=TARGET)
    game = game_id(page)
    play_online(page, taps, 2)
    connection(page, up=False)
    play_offline(page, taps, 3, 6)
    chance = random.Random(22)
    lost = {"before": 0, "after": 0}

    def flaky(route):
        roll = chance.random()
        if roll < 0.15:
            lost["before"] += 1
            route.abort("connectionreset")  # never reached the server
        elif roll < 0.3:
            lost["after"] += 1
            route.fetch()  # the server acted; its answer is lost on the way back
            route.abort("connectionreset")
        else:
            route.continue_()

    page.route(re.compile(r"/games/\d+/hands$"), flaky)
    connection(page, up=True)
    wait_until_sent(page, 90)
    assert [hand.number for hand in hands_stored(live_app, game)] == [1, 2, 3, 4, 5, 6]
    assert server_scores(live_app, game) == played(HANDS[:6]).scores
    expect_scores(page, played(HANDS[:6]).scores)
    expect_entry(page, 7, played(HANDS[:6]).next_dealer)
    assert lost["before"] + lost["after"] > 0, "the connection never failed"


# --- (c) two phones: one offline while the other records a hand differently -------------

OTHER_HAND_4 = (4, 5, "clubs", points("A", "A", "A", "B", "B"), "B")  # A takes 3, not 2


@pytest.mark.parametrize("choice", ["keep the recorded one", "put this phone's in"])
def test_a_hand_recorded_differently_meanwhile_is_shown_both_ways_and_chosen(
        page: Page, other_phone: Page, live_server: str, live_app, choice: str):
    taps = Taps()
    game_url, game = offline_from_hand_3(page, taps, live_server, last=5)

    other_phone.goto(game_url)  # hand 3 as this phone has it, hand 4 otherwise
    for number, hand in ((3, HANDS[2]), (4, OTHER_HAND_4)):
        enter(other_phone, Taps(), hand, number)
        expect(other_phone.locator("#hand-entry .notice")).to_contain_text(f"Hand {number}")

    connection(page, up=True)
    # Hand 3 was the same on both phones: taken as sent. Hand 4 differs: both versions.
    said = page.locator("#hand-entry .alert").filter(has_text="Hand 4 was already recorded by")
    expect(said).to_contain_text("This phone's entry was not recorded", timeout=30_000)
    held = page.locator("#outbox")
    expect(held).to_contain_text("Hand 4 was not recorded, so the hands after it wait")
    assert [hand.number for hand in hands_stored(live_app, game)] == [1, 2, 3, 4]
    expect_scores(page, played(HANDS[:3] + [OTHER_HAND_4, HANDS[4]]).scores)  # 5 on top

    # This phone's entry for hand 6 stays while the other phone taps its own hand 5 in.
    quick_bid(page, taps, bidder=2, bid=3)
    other_phone.goto(game_url)
    quick_bid(other_phone, Taps(), bidder=6, bid=4)
    expect(page.locator("#other-phone")).to_contain_text("Another phone is entering hand 5",
                                                         timeout=8_000)
    expect(call_radio(page, 2, 3)).to_be_checked()
    page.reload()  # said the same way after a reload, before the offline part is up
    expect(held).to_contain_text("Hand 4 was not recorded, so the hands after it wait")
    expect(held.get_by_role("button", name="Send it now")).to_have_count(1)

    if choice == "keep the recorded one":
        taps(held.get_by_role("button", name="Keep the recorded hand 4"))
        chosen = HANDS[:3] + [OTHER_HAND_4, HANDS[4]]
    else:  # both versions again, from the server, with the way to put this one in
        taps(held.get_by_role("button", name="Send it now"))
        said.get_by_role("link", name="Put this phone's entry in hand 4").click()
        expect(page.get_by_role("heading", name="Correcting hand 4")).to_be_visible()
        taps(button(page, "Save hand 4"))
        chosen = HANDS[:5]
    wait_until_sent(page)
    assert [hand.number for hand in hands_stored(live_app, game)] == [1, 2, 3, 4, 5]
    assert server_scores(live_app, game) == played(chosen).scores
    expect_scores(page, played(chosen).scores)
    expect_entry(page, 6, played(chosen).next_dealer)
    expect_scores(other_phone, played(chosen).scores)  # the other phone follows


# --- (d) a whole offline stretch in Persian (the network cut as DevTools cuts it) -------

def tap_value(page: Page, name: str, value: str) -> None:
    """Tap the choice of field ``name`` with ``value``: found by what it sends, in any
    language."""
    radio = page.locator(f'#hand-form input[name="{name}"][value="{value}"]')
    radio.locator("xpath=ancestor::label[1]").click()
    expect(radio).to_be_checked()


def enter_by_value(page: Page, hand, dealer: int) -> None:
    if hand is None:
        tap_value(page, "bid", "passed")
        page.locator("#hand-form .thrown-in-step button").click()
        return
    bidder, bid, trump, card_points, game = hand
    tap_value(page, f"turn_{(bidder - dealer - 1) % 6 + 1}", str(bid))
    tap_value(page, "trump", trump)
    for point, team in {**card_points, "game": game or "none"}.items():
        tap_value(page, point, team)
    page.locator("#hand-form .record").click()


def test_an_offline_stretch_in_persian_is_drawn_in_persian(page: Page, live_server: str,
                                                           live_app):
    from tests.browser.test_drawn_order import check_page, words
    t, taps = words("fa"), Taps()
    start_game(page, live_server, taps, target=TARGET)
    game = game_id(page)
    play_online(page, taps, 2)
    page.context.add_cookies([{"name": "lang", "value": "fa", "url": live_server}])
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", "fa")
    wait_until(page, f"() => {OFFLINE_SCRIPT}")
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", {
        "offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})

    for number in (3, 4, 5, 6):
        enter_by_value(page, HANDS[number - 1], played(HANDS[:number - 1]).next_dealer)
        state = played(HANDS[:number])
        for team, score in state.scores.items():
            shown = (str(score) if score >= 0 else f"\u200e−{-score}").translate(DIGITS["fa"])
            expect(page.locator(f".scores .team-{team} .team-score")).to_have_text(shown)
        expect(page.locator("#entry-title")).to_have_text(t("Hand %(number)s", number=number + 1))
    expect(page.locator(".on-phone")).to_contain_text(
        t("Hands %(first)s–%(last)s are on this phone only, not sent yet: they go to the "
          "server by themselves, in order, once the connection is back.", first=3, last=6))
    expect(page.locator("#deals li.unsent")).to_have_count(4)
    page.set_viewport_size({"width": 360, "height": 740})
    checked = check_page(page, "hands on this phone", "#deals")
    assert checked.counts["team"] >= 6, checked.counts  # the phone's four, the server's two
    assert not checked.problems, "\n".join(checked.problems)

    cdp.send("Network.emulateNetworkConditions", {
        "offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    wait_until_sent(page)
    assert [hand.number for hand in hands_stored(live_app, game)] == [1, 2, 3, 4, 5, 6]
    assert server_scores(live_app, game) == played(HANDS[:6]).scores
    expect(page.locator("#deals li.unsent")).to_have_count(0)


# --- (e) a phone on the LAN over plain http: no service worker, the hands kept all the same

def test_over_plain_http_on_the_lan_the_hands_survive_a_reload(browser_on_lan, live_app,
                                                              member_of_club):
    live_server, cookie = member_of_club()
    port = live_server.rsplit(":", 1)[1]
    base = f"http://club.lan:{port}"
    context = phone_context(browser_on_lan, PHONE, (base, cookie))
    try:
        page = context.new_page()
        taps = Taps()
        start_game(page, base, taps, target=TARGET)
        game_url, game = page.url, game_id(page)
        assert page.evaluate("() => [window.isSecureContext, 'serviceWorker' in navigator]") \
            == [False, False]
        play_online(page, taps, 1)
        wait_until(page, f"() => {OFFLINE_SCRIPT}")
        context.set_offline(True)
        for number in (2, 3):
            enter(page, taps, HANDS[number - 1], number)
            expect_played_on(page, number)
        # Said once, where the connection is said to be gone: why a reload can't help.
        expect(page.locator("#connection")).to_contain_text(
            "This address is not secure (it starts with http, not https), so a reload "
            "with no connection cannot show the game.", timeout=8_000)
        with pytest.raises(PlaywrightError):
            page.reload()  # the browser's own error page: nothing could keep the game
        context.set_offline(False)
        page.goto(game_url)  # the hands were kept on the phone, and go now
        wait_until_sent(page)
        assert [hand.number for hand in hands_stored(live_app, game)] == [1, 2, 3]
        expect_scores(page, played(HANDS[:3]).scores)
    finally:
        context.close()


# --- what must not happen to a hand kept on the phone ------------------------------------

def test_a_change_made_meanwhile_on_another_phone_holds_the_kept_hands_until_seen(
        page: Page, other_phone: Page, live_server: str, live_app):
    """Hands 3 and 4 kept offline; meanwhile another phone undoes hand 2 and brings it
    back (the game changed, hand 3 is still next). Back online, hand 3 is not recorded
    over that change unseen, nor lost: it waits in its entry, said why, until Record."""
    taps = Taps()
    game_url, game = offline_from_hand_3(page, taps, live_server, last=4)
    other_phone.goto(game_url)
    other_phone.get_by_role("button", name="Undo hand 2", exact=True).click()
    other_phone.get_by_role("button", name="Bring hand 2 back", exact=True).click()
    expect(other_phone.get_by_role("heading", name="Hand 3", exact=True)).to_be_visible()

    connection(page, up=True)
    page.reload()  # opened again once the connection is back
    expect(page.locator("#outbox")).to_contain_text(
        "Hand 3 was not recorded, so the hands after it wait on this phone", timeout=15_000)
    expect_entry(page, 3, played(HANDS[:2]).next_dealer)
    expect(page.get_by_role("radio", name="Everyone passed: thrown in")).to_be_checked()
    assert len(hands_stored(live_app, game)) == 2
    kept = page.evaluate("() => JSON.parse(localStorage.getItem('scorekeeper.outbox'))")
    assert sorted(entry["number"] for entry in kept) == ["3", "4"]  # nothing lost
    # Only the first held hand can be sent: hand 4 never before hand 3.
    expect(page.locator("#outbox").get_by_role("button", name="Send it now")).to_have_count(1)

    taps(button(page, "Record the throw-in"))  # seen, and sent: hand 4 follows by itself
    wait_until_sent(page)
    assert [hand.number for hand in hands_stored(live_app, game)] == [1, 2, 3, 4]
    assert server_scores(live_app, game) == played(HANDS[:4]).scores


def test_a_hand_the_rules_refuse_stays_in_its_entry_with_no_connection(page: Page,
                                                                       live_server: str):
    taps = Taps()
    start_game(page, live_server, taps, target=TARGET)
    play_online(page, taps, 1)
    connection(page, up=False)
    play_offline(page, taps, 2, 2)
    quick_bid(page, taps, bidder=3, bid=3)
    name_trump(page, taps, "Spades")
    tally(page, taps, {POINT_NAMES[p]: "C" for p in POINT_NAMES})
    page.locator(".game-values summary").click()
    page.get_by_label("Team A game value").fill("50")
    page.get_by_label("Team B game value").fill("40")  # 90: more than the deck holds
    refused = "This hand can't be scored as it is: check the bids and the game values."
    expect(page.locator("#preview")).to_have_text(refused)  # said before Record, as online
    taps(button(page, "Record hand 3"))
    expect(page.locator("#hand-form .send-status")).to_have_text(refused)
    expect_entry(page, 3, played(HANDS[:2]).next_dealer)
    expect(page.get_by_label("Team A game value")).to_have_value("50")  # nothing wiped


def test_with_no_words_to_say_it_the_page_keeps_the_hand_as_before(page: Page,
                                                                   live_server: str, live_app):
    """The words for playing on could not be had (the connection went as the page came
    up): nothing is drawn blank; the hand is kept and said so beside Record, and sent."""
    taps = Taps()
    page.context.route(re.compile(r"/offline-words$"), lambda route: route.abort("internetdisconnected"))
    start_game(page, live_server, taps, target=TARGET)
    game = game_id(page)
    connection(page, up=False)
    enter(page, taps, HANDS[0], 1)
    expect(page.locator("#hand-form .send-status")).to_have_text(
        "Not sent: no connection. Hand 1 is kept on this phone and will be recorded as soon "
        "as the connection is back.")
    expect_entry(page, 1, 1)
    expect(page.locator(".on-phone")).to_have_count(0)
    connection(page, up=True)
    wait_until_sent(page)
    assert [hand.number for hand in hands_stored(live_app, game)] == [1]


def test_a_page_come_back_to_as_the_connection_goes_plays_on_with_its_kept_words(
        page: Page, server_to_lose, live_app, monkeypatch):
    """The game page, the rules and back, and the connection gone before the page could
    have its words again (here the proxy's 502, the app away): the words the phone had
    are the service worker's, and the table plays on (seen once on a busy machine: the
    hand was kept but not played on)."""
    live_server = server_to_lose.url
    taps = Taps()
    under_the_service_worker(page, live_server)
    start_game(page, live_server, taps, target=TARGET)
    game = game_id(page)
    ready_to_play_on(page)
    asked = []

    @allow(allowed(live_app, "offline.words"))  # who may ask it stays as the route says
    def away(game_id):
        asked.append(game_id)
        return "Bad Gateway", 502
    monkeypatch.setitem(live_app.view_functions, "offline.words", away)
    page.get_by_role("link", name="The rules", exact=True).first.click()
    page.get_by_role("link", name="Back to the game").click()
    expect(page).to_have_url(re.compile(rf"/games/{game}$"))
    ready_to_play_on(page)
    assert asked == [game]  # asked of the server, and not had from it
    connection(page, up=False, server=server_to_lose)
    enter(page, taps, HANDS[0], 1)
    expect_played_on(page, 1)
    connection(page, up=True, server=server_to_lose)
    wait_until_sent(page)
    assert [hand.number for hand in hands_stored(live_app, game)] == [1]
