"""Real-browser fixtures: the app on a live server, driven by Debian's Chromium.

The app runs as it does at the table (CSRF on, a file database) in a werkzeug server
on a free port in a daemon thread. Playwright drives the system's headless Chromium
(Debian's chromium-headless-shell); it never downloads a browser. Set CHROMIUM_PATH to
use another Chromium binary.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from scorekeeper import create_app
from tests.browser.phones import (
    CHROMIUM_ARGS, PHONE, Switchable, chromium_path, phone_page, serve,
)
from tests.databases import database_url
from tests.members import member_cookie, new_club


@pytest.fixture(scope="session")
def live_app(tmp_path_factory):
    """The app with CSRF enabled on a file database."""
    database = Path(tmp_path_factory.mktemp("browser-db")) / "scorekeeper.sqlite"
    app = create_app({
        "TESTING": True,
        "DATABASE_URL": database_url(f"sqlite:///{database}"),
        "SECRET_KEY": "browser-test",
        "LIVE_WAIT_SECONDS": 3,  # polls held, briefly: a test waits for a poll's answer
    })
    assert app.config.get("WTF_CSRF_ENABLED", True), "the browser tests need CSRF on"
    return app


@pytest.fixture(scope="session")
def live_server(live_app):
    """The app served on 127.0.0.1:<free port> in a daemon thread."""
    yield from serve(live_app)


@pytest.fixture(scope="session")
def browser():
    """Headless system Chromium through Playwright's sync API."""
    executable = chromium_path()

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=executable, headless=True, args=CHROMIUM_ARGS, timeout=30_000,
        )
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def server_to_lose(live_app):
    """The app at an address of this test's own, whose server the test can take away."""
    server = Switchable(live_app)
    try:
        yield server
    finally:
        server.stop()


@dataclass(frozen=True)
class OwnClub:
    """A club of one test's own on the live server: what other tests play there is
    never on its pages (the browser tests of one worker share one database)."""
    app: object
    url: str
    id: int

    def member(self, role: str = "owner", name: str | None = None) -> tuple[str, str]:
        """(server URL, device cookie) of a new member of this club."""
        return self.url, member_cookie(self.app, role, name, club_id=self.id)


@pytest.fixture
def club(live_app, live_server) -> OwnClub:
    """A new club of this test's own; its phones (``page``, ``other_phone``…) belong to it."""
    return OwnClub(live_app, live_server, new_club(live_app, "Browser test"))


@pytest.fixture
def member_of_club(club):
    """(server URL, device cookie) of a new member of the test's club, with the role asked
    for."""
    return club.member


@pytest.fixture
def page(browser, member_of_club):
    """A fresh phone-sized page (390x844, touch, 2x) of the owner of the test's own club
    (no history but what the test makes), 10 s timeout."""
    yield from phone_page(browser, PHONE, member_of_club())


@pytest.fixture
def small_page(browser, member_of_club):
    """A fresh page on a small phone (360x740), the club's owner's too."""
    yield from phone_page(browser, {"width": 360, "height": 740}, member_of_club())


@pytest.fixture
def other_phone(browser, member_of_club):
    """A second phone at the same table: its own browser context, a scorer's."""
    yield from phone_page(browser, {"width": 360, "height": 740},
                          member_of_club("scorer", "Second phone"))


@pytest.fixture
def scorer(browser, member_of_club):
    """Sam's phone: a scorer of the test's club."""
    yield from phone_page(browser, PHONE, member_of_club("scorer", "Sam"))


@pytest.fixture
def viewer(browser, member_of_club):
    """Vic's phone: a viewer of the test's club."""
    yield from phone_page(browser, PHONE, member_of_club("viewer", "Vic"))


@pytest.fixture(scope="session")
def browser_on_lan(browser):
    """Chromium that finds the app at http://club.lan (a LAN name, mapped to 127.0.0.1):
    a phone on the club's Wi-Fi, where plain http:// is not a secure context."""
    lan = browser.browser_type.launch(
        executable_path=chromium_path(), headless=True, timeout=30_000,
        args=[*CHROMIUM_ARGS, "--host-resolver-rules=MAP club.lan 127.0.0.1"],
    )
    try:
        yield lan
    finally:
        lan.close()
