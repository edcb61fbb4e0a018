"""The Content-Security-Policy refuses nothing the app itself does, in a real Chromium.

A fresh club on a server of its own: from the home page, make the club, start a game
and record one hand by quick entry, while every console message, page error,
``securitypolicyviolation`` event and htmx refusal to eval is collected. Any of them
fails the test. A last check shows the listening works: an inline script and an inline
style added by hand are refused, and reported.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from scorekeeper import create_app
from tests.browser.phones import phone_context, serve, until
from tests.browser.table_steps import (
    Taps, button, expect_scores, name_trump, quick_bid, record, start_game, tally,
)
from tests.databases import database_url

pytestmark = pytest.mark.browser

REPORT_JS = """
() => {
  const report = (kind, detail) => window.reportToTest(kind, detail);
  document.addEventListener('securitypolicyviolation', (e) => report(
    'securitypolicyviolation', `${e.violatedDirective} blocked ${e.blockedURI || 'inline'}`));
  document.addEventListener('htmx:evalDisallowedError', () => report(
    'htmx:evalDisallowedError', 'htmx wanted to eval'));
}
"""
# Chromium's words for it: "Refused to ...", or (newer) "... violates the following
# Content Security Policy directive ...".
REFUSED = re.compile(r"Refused to|Content Security Policy|securitypolicyviolation", re.I)


@pytest.fixture(scope="module")
def fresh_server(tmp_path_factory):
    """The app on a database of its own, so this page's browser is its first visitor."""
    database = Path(tmp_path_factory.mktemp("csp-db")) / "scorekeeper.sqlite"
    app = create_app({"TESTING": True, "DATABASE_URL": database_url(f"sqlite:///{database}"),
                      "SECRET_KEY": "csp-test"})
    yield from serve(app, "csp-server")


@pytest.fixture
def first_visitor(browser):
    """A phone that has never been here: a browser context of its own, no cookies."""
    context = phone_context(browser)
    try:
        yield context.new_page()
    finally:
        context.close()


class Listener:
    """Everything the page says that the policy (or htmx) refused something."""

    def __init__(self, page: Page) -> None:
        self.problems: list[str] = []
        self.console: list[str] = []
        self.htmx_requests = 0
        page.expose_function("reportToTest",
                             lambda kind, detail: self.problems.append(f"{kind}: {detail}"))
        page.add_init_script(f"({REPORT_JS})()")
        page.on("console", self.on_console)
        page.on("pageerror", lambda error: self.problems.append(f"page error: {error}"))
        page.on("request", self.on_request)

    def on_console(self, message) -> None:
        self.console.append(f"{message.type}: {message.text}")
        if REFUSED.search(message.text):
            self.problems.append(f"console {message.type}: {message.text}")

    def on_request(self, request) -> None:
        if request.headers.get("hx-request") == "true":
            self.htmx_requests += 1


def test_a_hand_is_recorded_without_a_policy_violation(first_visitor: Page,
                                                       fresh_server: str) -> None:
    page = first_visitor
    listener = Listener(page)

    response = page.goto(fresh_server)
    assert response is not None and response.ok
    policy = response.headers.get("content-security-policy", "")
    assert "script-src 'self'" in policy and "style-src 'self'" in policy
    assert "unsafe" not in policy

    # The home page sends a first visitor to make a club.
    expect(page.get_by_role("heading", name="Make your club")).to_be_visible()
    page.get_by_label("The club's name").fill("Thursday table")
    page.get_by_label("Your name").fill("Ann")
    button(page, "Make the club").click()
    expect(page).to_have_url(re.compile(r"/$"))
    expect(page.locator("header.top")).to_have_css("background-color", "rgb(15, 61, 44)")

    taps = Taps()
    start_game(page, fresh_server, taps)
    quick_bid(page, taps, bidder=3, bid=3)                        # Cid (C) bid 3
    name_trump(page, taps, "Spades")
    tally(page, taps, {"High": "C", "Low": "C", "Right Bauer": "A", "Left Bauer": "B",
                       "Joker": "B", "Game": "C"})
    record(page, taps, 1)
    expect_scores(page, {"A": 1, "B": 2, "C": 3})

    assert listener.htmx_requests > 0, "htmx never made a request: is it running?"
    assert not listener.problems, "\n".join(listener.problems + ["console:", *listener.console])

    # The listening works: what the policy forbids is refused, and reported.
    ran = page.evaluate("""() => {
      const script = document.createElement('script');
      script.textContent = 'window.inlineScriptRan = true;';
      document.body.append(script);
      document.querySelector('h1, h2').setAttribute('style', 'color: rgb(255, 0, 0)');
      return window.inlineScriptRan === true;
    }""")
    assert ran is False
    expect(page.locator("h1, h2").first).not_to_have_css("color", "rgb(255, 0, 0)")
    wanted = ["securitypolicyviolation: script-src", "securitypolicyviolation: style-src"]
    until(page, lambda: all(words in "\n".join(listener.problems) for words in wanted),
          f"reported: {wanted}")  # the reports arrive asynchronously
    reported = "\n".join(listener.problems)
    assert re.search(r"inline script.*Content Security Policy", reported), reported


# What a screenshot tool or a browser's extension does to a page: a style set through
# the page's style objects (which the policy allows), leaving a style attribute behind.
STYLED_BY_A_TOOL = """() => document.querySelectorAll('input').forEach(field => {
  field.style.caretColor = 'transparent';
  field.style.caretColor = '';
})"""


def test_a_record_swaps_the_game_in_without_a_policy_report_whatever_styled_its_fields(
        browser, club) -> None:
    """htmx copies the old element's settled attributes onto the new one with
    setAttribute; a style attribute copied so is an inline style the policy refuses,
    once per field with an id (four on a scorer's page: 64 reports in 16 hands)."""
    from tests.browser.phones import PHONE, phone_page
    from tests.browser.scene import start_scene
    from tests.browser.table_steps import everyone_passed, expect_notice

    for page in phone_page(browser, PHONE, club.member("scorer", "Sam")):
        listener = Listener(page)
        page.goto(f"{club.url}/games/{start_scene(club.app, club.id)}")
        page.evaluate(STYLED_BY_A_TOOL)
        taps = Taps()
        everyone_passed(page, taps)
        taps(button(page, "Record the throw-in"))
        expect_notice(page, "Hand 9: thrown in.")
        assert not listener.problems, "\n".join(listener.problems)
