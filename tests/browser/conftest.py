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

from scorekeeper import create_app

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
def live_server(tmp_path_factory):
    """The app with CSRF enabled on a file database, served on 127.0.0.1:<free port>."""
    database = Path(tmp_path_factory.mktemp("browser-db")) / "scorekeeper.sqlite"
    app = create_app({
        "TESTING": True,
        "DATABASE_URL": f"sqlite:///{database}",
        "SECRET_KEY": "browser-test",
    })
    assert app.config.get("WTF_CSRF_ENABLED", True), "the browser tests need CSRF on"
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="live-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


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


def phone_context(browser, viewport: dict = PHONE):
    context = browser.new_context(
        viewport=viewport, is_mobile=True, has_touch=True, device_scale_factor=2,
    )
    context.set_default_timeout(TIMEOUT_MS)
    context.set_default_navigation_timeout(TIMEOUT_MS)
    return context


@pytest.fixture
def page(browser):
    """A fresh phone-sized page (390x844, touch, 2x), 10 s default timeout."""
    yield from phone_page(browser, PHONE)


def phone_page(browser, viewport: dict):
    context = phone_context(browser, viewport)
    try:
        yield context.new_page()
    finally:
        context.close()


@pytest.fixture
def small_page(browser):
    """A fresh page on a small phone (360x740)."""
    yield from phone_page(browser, {"width": 360, "height": 740})


@pytest.fixture
def other_phone(browser):
    """A second phone at the same table: its own browser context, cookies and all."""
    yield from phone_page(browser, {"width": 360, "height": 740})
