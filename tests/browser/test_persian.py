"""A hand played in Persian on a 360 px phone: right to left, nothing sideways, and every
control found by its Persian name (as a screen reader would read it).

Ann deals hand 1. Bob (seat 2, team B) wins the bid with 4 in hearts; B takes High,
Low, Right and Left (4): made, +4. C takes Joker and Game: +2.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.support import Translations
from playwright.sync_api import Page, expect

from scorekeeper.web.languages import DIGITS
from tests.browser.phones import connection, phone_context
from tests.browser.table_steps import SEATS, layout_problems

pytestmark = pytest.mark.browser

CATALOGUES = Path(__file__).resolve().parents[2] / "scorekeeper" / "translations"
PERSIAN = Translations.load(str(CATALOGUES), ["fa"])


def fa(message: str, **params) -> str:
    """The Persian of an English message, as the page writes it (Persian digits)."""
    text = PERSIAN.gettext(message)
    if params:
        text = text % params
    return text.translate(DIGITS["fa"])


@pytest.fixture
def persian_phone(browser, member_of_club):
    url, cookie = member_of_club()
    context = phone_context(browser, {"width": 360, "height": 740}, (url, cookie))
    context.add_cookies([{"name": "lang", "value": "fa", "url": url}])
    try:
        yield context.new_page()
    finally:
        context.close()


def test_a_hand_in_persian_right_to_left_on_a_small_phone(persian_phone: Page, server_to_lose,
                                                          tmp_path):
    page = persian_phone
    live_server = server_to_lose.url  # the server itself goes away with the connection
    page.goto(f"{live_server}/rules")  # the service worker looks after every page after it
    page.wait_for_function("() => navigator.serviceWorker.ready.then(() => true)")
    page.goto(f"{live_server}/games/new")
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    expect(page.locator("html")).to_have_attribute("lang", "fa")
    for seat, name in SEATS.items():
        page.get_by_role("combobox", name=fa("Seat %(seat)s", seat=seat), exact=True).fill(name)
    page.get_by_label(fa("Play to"), exact=True).fill("11")
    page.get_by_text(fa("Seat %(seat)s", seat=1), exact=True).click()
    page.get_by_role("button", name=fa("Start the game"), exact=True).click()
    expect(page).to_have_url(re.compile(r"/games/\d+$"))
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    game_url = page.url

    # Bob's bid, in his row; every step answered on the phone itself (at 390x844 first,
    # for one screen after trump).
    page.set_viewport_size({"width": 390, "height": 844})
    bob = page.get_by_role("group", name="Bob", exact=True)
    tap(bob.get_by_role("radio", name=f"{fa('Bid')} {fa('4')}", exact=True))
    tap(page.get_by_role("radio", name=fa("Hearts"), exact=True))
    expect(page.get_by_role("heading", name=fa("Who took which point?"))).to_be_visible()
    # In right-to-left text the card keeps rank then suit: J then ♦ for the Left Bauer.
    left_bauer = page.locator(".trump-more summary .of-hearts bdi.playing-card")
    expect(left_bauer).to_have_text("J♦")
    assert left_bauer.evaluate("el => getComputedStyle(el).direction") == "ltr"
    # One screen: every point's buttons and Record in view after trump.
    record = page.get_by_role("button", name=fa("Record hand %(number)s", number=1), exact=True)
    expect(record).to_be_in_viewport(ratio=1)  # brought into view in the frame after trump
    for point in OWNERS:
        for radio in page.get_by_role("group", name=fa(point), exact=True).get_by_role("radio").all():
            box = radio.locator("xpath=ancestor::label[1]").bounding_box()
            assert 0 <= box["y"] and box["y"] + box["height"] <= 844, point
    box = record.bounding_box()
    assert 0 <= box["y"] and box["y"] + box["height"] <= 844
    page.set_viewport_size({"width": 360, "height": 740})

    owners = dict(list(OWNERS.items())[:2])
    for point, team in owners.items():
        tap(page.get_by_role("group", name=fa(point), exact=True)
            .get_by_role("radio", name=re.compile(rf"^{team}\b")))
    # A look at the rules and back: the hand is still there, and is this phone's own.
    page.locator(".trump-more summary").click()
    page.get_by_role("link", name=fa("The rules"), exact=True).first.click()
    page.get_by_role("link", name=fa("Back to the game")).click()
    expect(bob.get_by_role("radio", name=f"{fa('Bid')} {fa('4')}", exact=True)).to_be_checked()
    expect(page.get_by_text(fa("Another phone is entering hand %(number)s:", number=1))) \
        .to_have_count(0)

    # The rest of the points offline, then Record: kept, and said so in Persian.
    connection(page, up=False, server=server_to_lose)
    for point, team in list(OWNERS.items())[2:]:
        tap(page.get_by_role("group", name=fa(point), exact=True)
            .get_by_role("radio", name=re.compile(rf"^{team}\b")))
    problems = layout_problems(page, "tally, in Persian")
    page.screenshot(path=str(tmp_path / "persian-tally.png"), full_page=True)
    record.click()
    # The table plays on: the next hand at once, the hand kept and said so in Persian,
    # and so again after a reload with no connection (the service worker's copy).
    kept = fa("Hand %(number)s is on this phone only, not sent yet: it goes to the server "
              "by itself once the connection is back.", number=1)
    for _ in range(2):
        expect(page.locator(".on-phone")).to_contain_text(kept)
        expect(page.get_by_role("heading", name=fa("Hand %(number)s", number=2), exact=True)) \
            .to_be_visible()
        expect(page.locator(".team-score")).to_have_text(["۰", "۴", "۲"])
        page.reload()
    game = re.search(r"/games/(\d+)", game_url).group(1)
    connection(page, up=True, server=server_to_lose)

    # Whichever sends it first says so: the reloaded page's form, or the phone's outbox.
    said = (fa("Hand %(number)s recorded: %(scores)s.", number=1, scores="\0").split("\0")[0],
            fa("Hand %(number)s of game %(game)s was recorded.", number=1, game=game))
    # (The server's notice: the phone's own says "recorded" of a hand it played on.)
    expect(page.get_by_role("status").and_(page.locator(".notice:not([data-local])"))
           ).to_contain_text(re.compile("|".join(re.escape(text) for text in said)))
    scores = page.locator(".team-score")
    expect(scores).to_have_text(["۰", "۴", "۲"])
    problems += layout_problems(page, "after the hand, in Persian")
    assert problems == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    # The team names sit on the right, where a right-to-left reader starts.
    first_team = page.locator(".team").first.bounding_box()
    assert first_team["x"] + first_team["width"] > 300


OWNERS = {"High": "B", "Low": "B", "Right Bauer": "B", "Left Bauer": "B", "Joker": "C",
          "Game": "C"}


def tap(radio) -> None:
    """Tap a hidden radio's label, and see that the radio took it."""
    radio.locator("xpath=ancestor::label[1]").click()
    expect(radio).to_be_checked()
