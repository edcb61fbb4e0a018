"""Real-browser fixtures: the app on a live server, driven by Debian's Chromium.

The app runs as it does at the table (CSRF on, a file database) in a werkzeug server
on a free port in a daemon thread. Playwright drives the system Chromium; it never
downloads a browser. Set CHROMIUM_PATH to use another Chromium binary.
"""
from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright
from werkzeug.serving import make_server

from databases import database_url
from members import member_cookie
from scorekeeper import create_app
from scorekeeper.access import COOKIE

DEFAULT_CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}
TIMEOUT_MS = 10_000
expect.set_options(timeout=TIMEOUT_MS)


def chromium_path() -> str:
    """The Chromium binary to drive; a clear failure (not a skip) when it is missing."""
    wanted = os.environ.get("CHROMIUM_PATH") or DEFAULT_CHROMIUM
    found = shutil.which(wanted) if not os.path.isabs(wanted) else wanted
    if not found or not os.path.isfile(found) or not os.access(found, os.X_OK):
        pytest.fail(
            f"Chromium not found at {wanted!r}. The browser tests drive the system "
            "Chromium and never download one: install it with "
            "`apt-get install -y chromium` (Debian), or point CHROMIUM_PATH at a "
            "Chromium binary.",
            pytrace=False,
        )
    return found


@pytest.fixture(scope="session")
def live_app(tmp_path_factory):
    """The app with CSRF enabled on a file database."""
    database = Path(tmp_path_factory.mktemp("browser-db")) / "scorekeeper.sqlite"
    app = create_app({
        "TESTING": True,
        "DATABASE_URL": database_url(f"sqlite:///{database}"),
        "SECRET_KEY": "browser-test",
    })
    assert app.config.get("WTF_CSRF_ENABLED", True), "the browser tests need CSRF on"
    return app


def serve(app, name: str = "live-server"):
    """Serve ``app`` on 127.0.0.1:<free port> in a daemon thread; yields its URL."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name=name, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


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


def phone_context(browser, viewport: dict = PHONE, member: tuple[str, str] | None = None):
    """A phone's browser context; ``member`` = (server URL, device cookie) to be one."""
    context = browser.new_context(
        viewport=viewport, is_mobile=True, has_touch=True, device_scale_factor=2,
    )
    context.set_default_timeout(TIMEOUT_MS)
    context.set_default_navigation_timeout(TIMEOUT_MS)
    if member is not None:
        url, cookie = member
        context.add_cookies([{"name": COOKIE, "value": cookie, "url": url}])
    return context


@pytest.fixture
def member_of_club(live_app, live_server):
    """(server URL, device cookie) of a new member with the role asked for."""
    return lambda role="owner", name=None: (live_server, member_cookie(live_app, role, name))


@pytest.fixture
def page(browser, member_of_club):
    """A fresh phone-sized page (390x844, touch, 2x) of the club's owner, 10 s timeout."""
    yield from phone_page(browser, PHONE, member_of_club())


def phone_page(browser, viewport: dict, member=None):
    context = phone_context(browser, viewport, member)
    try:
        yield context.new_page()
    finally:
        context.close()


@pytest.fixture
def small_page(browser, member_of_club):
    """A fresh page on a small phone (360x740), the club's owner's too."""
    yield from phone_page(browser, {"width": 360, "height": 740}, member_of_club())


@pytest.fixture
def other_phone(browser, member_of_club):
    """A second phone at the same table: its own browser context, a scorer's."""
    yield from phone_page(browser, {"width": 360, "height": 740},
                          member_of_club("scorer", "Second phone"))
