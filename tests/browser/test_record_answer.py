"""A hand recorded on the phone comes back as just what it changed, and the page is then
the page a fresh visit shows: in a real Chromium, with htmx swapping the parts in."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Error as PlaywrightError, Page, expect

from tests.browser.phones import phone_context, ready_to_play_on, until
from tests.browser.table_steps import (
    SEATS, Taps, button, choice_label, expect_notice, expect_scores, name_trump, point_group,
    quick_bid, record, start_game,
)

pytestmark = pytest.mark.browser


# The game as a reader meets it: its text (the notice left out: a fresh visit has none),
# every id in order, the chart's picture and what the poll asks for.
GAME_JS = """
() => {
  const game = document.querySelector('#game').cloneNode(true);
  // (What a <noscript> holds is text in a page, elements once swapped in: never shown.)
  game.querySelectorAll('.notice, noscript').forEach((left) => left.remove());
  return {
    text: game.textContent.split(/\\s+/).filter(Boolean),
    ids: [...game.querySelectorAll('[id]')].map((element) => element.id),
    chart: game.querySelector('.chart img')?.getAttribute('src'),
    poll: game.querySelector('#poller').getAttribute('hx-get'),
    rows: [...game.querySelectorAll('li.deal')].map((row) => row.id),
  };
}
"""


def sweep(page: Page, taps: Taps, number: int, bidder: int, *, tap_only: bool = False) -> None:
    """``bidder`` bids 4 in spades and that team takes all six, recorded (``tap_only``:
    Record tapped, its answer not waited for)."""
    quick_bid(page, taps, bidder=bidder, bid=4)
    name_trump(page, taps, "Spades")
    team = "ABCABC"[bidder - 1]
    taps(choice_label(point_group(page, "The rest").get_by_role(
        "radio", name=re.compile(rf"^{team}\b"))))
    if tap_only:
        taps(button(page, f"Record hand {number}"))
    else:
        record(page, taps, number)


def test_a_hand_answered_in_parts_leaves_the_page_a_fresh_visit_shows(
        page: Page, live_server: str) -> None:
    answers = []
    page.on("response", lambda response: answers.append(response)
            if response.request.method == "POST" and response.url.endswith("/hands") else None)
    taps = Taps()
    start_game(page, live_server, taps, target=99)
    sweep(page, taps, 1, bidder=2)  # Ann deals: Bob (B) +6
    sweep(page, taps, 2, bidder=3)  # Bob deals: Cid (C) +6
    sweep(page, taps, 3, bidder=4)  # Cid deals: Dan (A) +6
    expect_scores(page, {"A": 6, "B": 6, "C": 6})
    assert [answer.headers.get("hx-reswap") for answer in answers] == [None, "none", "none"]
    swapped = page.evaluate(GAME_JS)
    assert swapped["rows"] == ["deal-3", "deal-2", "deal-1"]
    page.reload()
    expect_scores(page, {"A": 6, "B": 6, "C": 6})
    fresh = page.evaluate(GAME_JS)
    for key in swapped:
        assert fresh[key] == swapped[key], key

    # The next hand is entered on the page the parts made, as on any other.
    sweep(page, taps, 4, bidder=5)  # Dan deals: Eve (B) +6
    expect_scores(page, {"A": 6, "B": 12, "C": 6})
    assert page.evaluate(GAME_JS)["rows"] == ["deal-4", "deal-3", "deal-2", "deal-1"]
    # ... and its Undo, swapped in with it, takes that hand back.
    button(page, "Undo hand 4").click()
    expect_scores(page, {"A": 6, "B": 6, "C": 6})
    assert page.evaluate(GAME_JS)["rows"] == ["deal-3", "deal-2", "deal-1"]


@pytest.mark.parametrize("role", ["viewer", "scorer"])
def test_a_phone_one_hand_behind_catches_up_in_parts_to_the_page_a_fresh_visit_shows(
        page: Page, browser, member_of_club, role: str) -> None:
    # Another phone at the table polls; each hand recorded on the first phone reaches it
    # as just what the hand changed (from hand 2 on), and its page ends as a fresh one.
    taps = Taps()
    start_game(page, member_of_club()[0], taps, target=99)
    context = phone_context(browser, {"width": 360, "height": 740},
                            member_of_club(role, f"Second {role}"))
    try:
        other = context.new_page()
        answers = []  # the other phone's polls answered with a change
        other.on("response", lambda response: answers.append(response)
                 if "/live?" in response.url and response.status == 200 else None)
        other.goto(page.url)
        other.evaluate("window.notReloaded = true")
        scores = {"A": 0, "B": 0, "C": 0}
        polls = []  # how the answer that brought each hand was swapped in
        for number, bidder in ((1, 2), (2, 3), (3, 4)):
            sweep(page, taps, number, bidder)
            scores["ABCABC"[bidder - 1]] += 6
            # (However long the machine takes: the other phone's poll that brings it. A
            # slow one may bring a step of the hand being entered first, on its own.)
            until(other, lambda: any(f'id="deal-{number}"' in answer.text()
                                     for answer in answers), f"a poll brings hand {number}")
            polls.append(next(answer for answer in answers if f'id="deal-{number}"'
                              in answer.text()).headers.get("hx-reswap"))
            expect(other.locator("#deal-%d" % number)).to_be_attached()
            expect_scores(other, scores)
        assert polls == [None, "none", "none"], polls
        assert other.evaluate("window.notReloaded") is True
        expect(other.get_by_role("status")).to_contain_text("recorded hand 3")
        swapped = other.evaluate(GAME_JS)
        assert swapped["rows"] == ["deal-3", "deal-2", "deal-1"]
        other.reload()
        expect_scores(other, scores)
        fresh = other.evaluate(GAME_JS)
        for key in swapped:
            assert fresh[key] == swapped[key], key
    finally:
        context.close()


def hold_polls(page: Page) -> list:
    """From now on the page's polls wait (a slow connection); returns them, once one is."""
    held: list = []
    page.route(re.compile(r"/live\?"), lambda route: held.append(route))
    until(page, lambda: held, "the next poll is out and held")
    return held


def let_go(page: Page, held: list) -> None:
    """The held polls go on to the server, after what happened meanwhile."""
    for route in list(held):
        try:
            route.continue_()
        except PlaywrightError:  # the page gave up on it (its poller was replaced)
            pass
    page.unroute(re.compile(r"/live\?"))  # (any held since go on too)


def polls_held_at(page: Page, live_server: str, before: int) -> tuple[Taps, list, int]:
    """A new game with ``before`` hands recorded, its polls held from now: (the taps, the
    held polls, the number of the next hand)."""
    taps = Taps()
    start_game(page, live_server, taps, target=99)
    for number in range(1, before + 1):
        sweep(page, taps, number, bidder=number + 1)
    return taps, hold_polls(page), before + 1


@pytest.mark.parametrize("before", [0, 2])  # hand 1 answered whole, hand 3 in parts
def test_a_poll_that_left_before_record_and_came_back_after_it_changes_nothing(
        page: Page, live_server: str, before: int) -> None:
    # The phone's poll is on its way when Record is tapped; it reaches the server after
    # the hand is in, and would come back after Record's own answer. It asked about the
    # page as it was: that answer is not shown (it would say the phone's own hand as
    # another phone's, over the phone's own notice).
    taps, held, number = polls_held_at(page, live_server, before)
    sweep(page, taps, number, bidder=number + 1)
    shown = page.evaluate(GAME_JS)
    answered = []
    page.on("response", lambda response: answered.append(response)
            if "/live?" in response.url else None)
    held_polls = [route.request for route in held]
    let_go(page, held)
    until(page, lambda: any(response.request not in held_polls for response in answered),
          "the new poller's own poll is answered")
    expect_notice(page, f"Hand {number} recorded:")
    expect(page.get_by_text(f"recorded hand {number}")).to_have_count(0)
    assert page.evaluate(GAME_JS) == shown
    # The page's own polls since: nothing changed (the held one's answer, if it came, was
    # older news, not shown).
    assert {r.status for r in answered if r.request not in held_polls} == {204}


def test_a_poll_that_left_before_record_is_not_missed_when_more_comes_after(
        page: Page, other_phone: Page, live_server: str) -> None:
    # As above, and another phone records the next hand too: the page's new poll brings it.
    taps = Taps()
    start_game(page, live_server, taps, target=99)
    sweep(page, taps, 1, bidder=2)
    sweep(page, taps, 2, bidder=3)
    held = hold_polls(page)
    sweep(page, taps, 3, bidder=4)  # Dan (A) +6
    other_phone.goto(page.url)
    sweep(other_phone, Taps(), 4, bidder=5)  # Eve (B) +6, on the other phone
    let_go(page, held)
    expect_scores(page, {"A": 6, "B": 12, "C": 6})
    expect(page.locator("#deal-4")).to_be_attached()
    expect(page.get_by_role("status")).to_contain_text("recorded hand 4")


def record_held_at(page: Page, live_server: str, before: int) -> tuple[list, int, object]:
    """As ``polls_held_at``, and the next hand's Record tapped and held on its way: (the
    held polls, the hand's number, Record's held route)."""
    taps, held, number = polls_held_at(page, live_server, before)
    records: list = []
    page.route(re.compile(r"/hands$"), lambda route: records.append(route))
    sweep(page, taps, number, bidder=number + 1, tap_only=True)
    until(page, lambda: records, "Record is sent and held")
    return held, number, records[0]


@pytest.mark.parametrize("before", [0, 2])  # hand 1 answered whole, hand 3 in parts
def test_a_poll_answered_after_the_hand_is_in_but_before_records_answer_is_not_shown(
        page: Page, live_server: str, before: int) -> None:
    # A busy server: the phone's poll left before Record, reached the server after the
    # hand was in and came back before Record's own answer. It asked about the page as it
    # was: shown, it would say the phone's own hand as another phone's (and Record's
    # answer, in parts, would leave that notice standing).
    held, number, record = record_held_at(page, live_server, before)
    recorded = record.fetch()  # the server has the hand; its answer waits
    answered = []
    page.on("requestfinished", lambda request: answered.append(request)
            if "/live?" in request.url else None)
    let_go(page, held)
    until(page, lambda: answered, "the poll sent before Record is answered")
    assert answered[0].response().status == 200  # the game part, with the hand in it
    record.fulfill(response=recorded)
    page.unroute(re.compile(r"/hands$"))
    expect_notice(page, f"Hand {number} recorded:")
    expect(page.get_by_text(f"recorded hand {number}")).to_have_count(0)
    shown = page.evaluate(GAME_JS)
    page.reload()
    assert page.evaluate(GAME_JS) == shown


# The poller's next tick, now: a poll of the page as it is, from the poller itself (as
# "every 2 s" sends it; one already out, htmx queues it until that one is done).
TICK_JS = """() => {
  const poller = document.querySelector('[data-poll]');
  htmx.ajax('GET', poller.getAttribute('hx-get'),
            {source: poller, target: poller.getAttribute('hx-target'), swap: 'outerHTML'});
}"""


@pytest.mark.parametrize("before", [0, 2])  # hand 1 answered whole, hand 3 in parts
def test_a_poll_asked_while_record_is_on_its_way_changes_nothing(
        page: Page, live_server: str, before: int) -> None:
    # A slow server: Record takes longer than a poll's 2 seconds, so the page asks again
    # meanwhile, about the page as it was. That poll reaches the server after the hand
    # is in and comes back after Record's own answer: shown, it would say the phone's
    # own hand as another phone's, over the phone's own notice.
    held, number, record = record_held_at(page, live_server, before)
    page.evaluate(TICK_JS)
    record.continue_()
    page.unroute(re.compile(r"/hands$"))
    expect_notice(page, f"Hand {number} recorded:")
    shown = page.evaluate(GAME_JS)
    until(page, lambda: len(held) > 1, "the poll asked while Record was on its way")
    finished = []
    page.on("requestfinished", lambda request: finished.append(request))
    page.on("requestfailed", lambda request: finished.append(request))
    asked = [route.request for route in held]
    let_go(page, held)
    until(page, lambda: all(request in finished for request in asked[1:]),
          "its answer is back")
    expect_notice(page, f"Hand {number} recorded:")
    expect(page.get_by_text(f"recorded hand {number}")).to_have_count(0)
    assert page.evaluate(GAME_JS) == shown


def test_a_poll_come_back_after_a_record_sent_again_changes_nothing(
        page: Page, live_server: str) -> None:
    # Record's first sending is lost: the phone plays on and sends it again, and that
    # answer puts in the whole game. A poll that left before Record comes back after it,
    # one hand behind, in parts: put in by their ids, they would take the next hand's
    # first tap back and say the phone's own hand as another phone's.
    taps, held, number = polls_held_at(page, live_server, 2)
    ready_to_play_on(page)
    lost: list = []

    def once(route):
        if lost:
            return route.continue_()
        lost.append(route)
        route.abort("connectionreset")
    page.route(re.compile(r"/hands$"), once)
    sweep(page, taps, number, bidder=number + 1, tap_only=True)
    expect_notice(page, f"Hand {number} recorded:")  # sent again, answered whole
    page.unroute(re.compile(r"/hands$"))
    quick_bid(page, taps, bidder=number + 2, bid=3)  # the next hand begins
    finished: list = []
    page.on("requestfinished", lambda request: finished.append(request))
    page.on("requestfailed", lambda request: finished.append(request))
    asked = [route.request for route in held]
    let_go(page, held)
    until(page, lambda: all(request in finished for request in asked), "its answer is back")
    bidder = page.get_by_role("group", name=SEATS[number + 2], exact=True)
    expect(bidder.get_by_role("radio", name="Bid 3", exact=True)).to_be_checked()
    expect(page.get_by_text(f"recorded hand {number}")).to_have_count(0)
