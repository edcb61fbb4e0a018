"""A night played for a ranking, on 390 px phones: the club asks for it by default, each
member says once which player they are, a hand recorded on team A's phone waits, a
viewer seated in team B confirms it with one tap without a reload, and the recording
phone sees it confirmed by itself; a correction to it then asks a second tap; a
throw-in waits for nobody."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.phones import connection, ready_to_play_on
from tests.browser.table_steps import (
    Taps, button, everyone_passed, expect_scores, layout_problems, start_game,
)
from tests.browser.test_persian import fa
from tests.browser.test_record_answer import sweep

pytestmark = pytest.mark.browser


def say_whose(page: Page, name: str) -> None:
    whose = page.locator(".whose-phone")
    expect(whose).to_contain_text("Which player are you?")
    button(whose, name).click()
    expect(page.get_by_role("status")).to_contain_text(f"You are {name} at the table, team")


def test_a_viewer_of_the_other_team_confirms_on_their_own_phone(
        page: Page, viewer: Page, live_server: str, tmp_path) -> None:
    page.goto(f"{live_server}/club")
    button(page, "Confirm hands on every new evening").click()
    expect(page.locator("#confirming-club")).to_contain_text("Each new evening asks")
    taps = Taps()
    start_game(page, live_server, taps, target=30)
    game_url = page.url
    say_whose(page, "Ann")  # seat 1: team A; the evening asks from its start

    viewer.goto(game_url)  # a viewer at the table: no viewer is needed in each team
    expect(viewer.locator(".whose-phone button")).not_to_contain_text(["Ann"])
    say_whose(viewer, "Bob")  # seat 2: team B
    assert layout_problems(viewer, "asked which player", width=390) == []

    sweep(page, taps, 1, bidder=1)  # Ann (A) bids 4 and takes all six
    expect_scores(page, {"A": 6, "B": 0, "C": 0})
    waiting = page.locator("#waiting-1")
    expect(waiting).to_contain_text("Hand 1 waits for confirmation.")
    expect(waiting).to_contain_text("A member of another team confirms it.")
    expect(waiting.get_by_role("button")).to_have_count(0)

    confirm = viewer.get_by_role("button", name="Confirm hand 1 for team B")
    expect(confirm).to_be_visible()  # the poll brought it: no reload
    assert confirm.bounding_box()["y"] + 44 <= 844  # on screen, without scrolling
    assert layout_problems(viewer, "a hand to confirm", width=390) == []
    viewer.screenshot(path=str(tmp_path / "confirm-390.png"))
    confirm.click()
    expect(viewer.get_by_role("status")).to_contain_text("Hand 1 confirmed.")
    expect(page.locator("#deal-1")).to_contain_text("Confirmed by team B.")  # by itself
    expect(page.locator("#waiting-1")).to_have_count(0)

    page.goto(f"{game_url}/hands/1/edit")
    page.get_by_role("radio", name=re.compile(r"^B\b")).first.check(force=True)
    button(page, "Save hand 1").click()
    check = page.locator("#check")
    expect(check).to_contain_text("Team B confirmed hand 1")
    expect(page.locator("#deal-1")).to_contain_text("Confirmed by team B.")  # not yet
    button(check, "Make this change").click()
    expect(page.locator("#waiting-1")).to_contain_text("Hand 1 waits for confirmation.")
    expect(viewer.get_by_role("button", name="Confirm hand 1 for team B")).to_be_visible()
    viewer.get_by_role("button", name="Confirm hand 1 for team B").click()
    expect(page.locator("#deal-1")).to_contain_text("Confirmed by team B.")

    everyone_passed(page, taps)  # hand 2: nothing scored, nothing to confirm
    taps(button(page, "Record the throw-in"))
    expect(page.locator("#deal-2")).to_be_visible()
    expect(page.locator(".waiting")).to_have_count(0)
    expect(viewer.locator("#deal-2")).to_be_visible()
    expect(viewer.locator(".waiting")).to_have_count(0)

    sweep(page, taps, 3, bidder=3)  # waits again, for the Persian page below
    viewer.context.add_cookies([{"name": "lang", "value": "fa", "url": live_server}])
    viewer.reload()  # in Persian: right to left, nothing wider than the phone
    expect(viewer.locator("#waiting-3 button")).to_contain_text(fa(
        "Confirm hand %(number)s for team %(team)s", number=3, team="B"))
    assert layout_problems(viewer, "a hand to confirm, in Persian", width=390) == []
    viewer.screenshot(path=str(tmp_path / "confirm-fa-390.png"))


def test_hands_recorded_with_no_connection_wait_and_are_confirmed_once_sent(
        page: Page, scorer: Page, live_server: str) -> None:
    """Team A's phone plays two hands with no connection; once they are sent, they wait
    as any other, and team B's phone confirms each."""
    taps = Taps()
    start_game(page, live_server, taps, target=30)
    game_url = page.url
    page.get_by_role("link", name=re.compile("^Evening of")).click()
    button(page, "Confirm each hand").click()
    page.goto(game_url)
    say_whose(page, "Ann")
    scorer.goto(game_url)
    say_whose(scorer, "Bob")
    ready_to_play_on(page)

    connection(page, up=False)
    sweep(page, taps, 1, bidder=1, tap_only=True)
    expect(page.locator("li.unsent")).to_have_count(1)
    sweep(page, taps, 2, bidder=2, tap_only=True)
    expect(page.locator("li.unsent")).to_have_count(2)
    expect(scorer.locator("#waiting-1")).to_have_count(0)  # nothing reached the server
    connection(page, up=True)
    expect(page.locator("li.unsent")).to_have_count(0)

    for number in (1, 2):  # the other team's phone: both, by itself
        confirm = scorer.get_by_role("button", name=f"Confirm hand {number} for team B")
        expect(confirm).to_be_visible()
        confirm.click()
        expect(scorer.get_by_role("status")).to_contain_text(f"Hand {number} confirmed.")
    expect(page.locator("#deal-1")).to_contain_text("Confirmed by team B.")
    expect(page.locator("#deal-2")).to_contain_text("Confirmed by team B.")
