"""A phone at the table, in the browser tests: Chromium, its contexts, and a server.

The shared pieces of the browser fixtures (``conftest.py``), imported by tests that make
phones or servers of their own.
"""
from __future__ import annotations

import logging
import os
import shutil
import threading
import time

import pytest
from playwright.sync_api import expect
from werkzeug.serving import make_server

from scorekeeper.clubs.access import COOKIE

# Chromium's headless build: the same engine as the whole browser, without its windows,
# for about 0.6 of the CPU in these tests. It has no Wake Lock (test_stay_awake.py stands
# one in).
DEFAULT_CHROMIUM = "/usr/bin/chromium-headless-shell"
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
GLANCE_MS = 500  # one look, in ``within_polls``: the polls set the pace, not a time
expect.set_options(timeout=TIMEOUT_MS)


def until(page, done, what: str, seconds: float = TIMEOUT_MS / 1000) -> None:
    """Until ``done()`` is true, asked again every tenth of a second; meanwhile the page
    goes on and its events (answers, reports, console lines) reach the test."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, f"never true: {what}"
        page.wait_for_timeout(100)


def within_polls(page, check, polls: int = 3, seconds: float = 120) -> None:
    """``check()`` (an ``expect``, given a short timeout) holds by the time ``page`` has had
    ``polls`` poll answers from now: a change made on another phone shows within one or
    two of them (one may have left before it), however slow the machine. The test waits
    for the page's polls, never for a fixed time; ``seconds`` only stops a page that
    stopped polling from hanging the run."""
    answered: list = []

    def seen(request) -> None:
        if "/live" in request.url:
            answered.append(request)

    page.on("requestfinished", seen)
    deadline = time.monotonic() + seconds
    try:
        while True:
            last = len(answered) >= polls
            try:
                return check()
            except AssertionError:
                if last or time.monotonic() > deadline:
                    raise
                page.wait_for_timeout(100)
    finally:
        page.remove_listener("requestfinished", seen)


def wait_until(page, script: str, seconds: float = TIMEOUT_MS / 1000) -> None:
    """Until ``script`` (a function, run in the page) is true, asked again and again.
    Not ``wait_for_function``: its polling evaluates a string in the page, which the app's
    security policy (no eval) refuses once the answer is not there at the first look."""
    until(page, lambda: page.evaluate(script), script, seconds)



class Switchable:
    """The app served on 127.0.0.1 in a thread, which a test can take away and bring back
    at the same address (a phone's service worker and storage are kept by address): the
    club's server gone, as a phone at the table meets it."""

    def __init__(self, app) -> None:
        self.app, self.port, self.server = app, 0, None
        self.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.server = make_server("127.0.0.1", self.port, self.app, threaded=True)
        self.port = self.server.server_port
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)


# The page has imported what it plays on with (offline.js and the rules): it says so.
OFFLINE_SCRIPT = "document.documentElement.hasAttribute('data-offline-ready')"


def ready_to_play_on(page) -> None:
    """Until the game page can go on with no connection: what it loads once it is up
    (offline.js, the rules, its words) is there, as on a phone that has had the page
    for a moment. (On a busy machine that moment can be seconds.)"""
    wait_until(page, f"() => {OFFLINE_SCRIPT} && Boolean(document.querySelector('#offline-words'))")


def connection(page, up: bool, server: Switchable | None = None) -> None:
    """The phone's connection dropped (or back): the browser offline, and the server, if
    given, gone too (a page under a service worker may send past the browser's offline
    emulation: seen on a busy machine)."""
    if server is not None:
        (server.start if up else server.stop)()
    page.context.set_offline(not up)


def chromium_path() -> str:
    """The Chromium binary to drive; a clear failure (not a skip) when it is missing."""
    wanted = os.environ.get("CHROMIUM_PATH") or DEFAULT_CHROMIUM
    found = shutil.which(wanted) if not os.path.isabs(wanted) else wanted
    if not found or not os.path.isfile(found) or not os.access(found, os.X_OK):
        pytest.fail(
            f"Chromium not found at {wanted!r}. The browser tests drive the system "
            "Chromium and never download one: install it with "
            "`apt-get install -y chromium-headless-shell` (Debian), or point CHROMIUM_PATH at a "
            "Chromium binary.",
            pytrace=False,
        )
    return found


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


def phone_context(browser, viewport: dict = PHONE, member: tuple[str, str] | None = None):
    """A phone's browser context; ``member`` = (server URL, device cookie) to be one."""
    context = browser.new_context(
        viewport=viewport, is_mobile=True, has_touch=True, device_scale_factor=2,
    )
    context.set_default_timeout(TIMEOUT_MS)
    context.set_default_navigation_timeout(TIMEOUT_MS)
    told_of(context)
    if member is not None:
        url, cookie = member
        context.add_cookies([{"name": COOKIE, "value": cookie, "url": url}])
    return context


PHONE_LOG = logging.getLogger("phone")
PHONE_LOG.setLevel(logging.INFO)


def told_of(context) -> None:
    """What a phone does that the server's own log can't show, in the test's log (shown
    when the test fails): each change it sends and when its answer came, each request
    that got no answer, and what its page says on its console."""
    def sent(request) -> None:
        if request.method != "GET":
            PHONE_LOG.info("sends %s %s", request.method, request.url)

    def answered(request) -> None:
        if request.method != "GET":
            PHONE_LOG.info("has the answer to %s %s", request.method, request.url)

    def unanswered(request) -> None:
        if request.failure == "net::ERR_ABORTED":  # the page gave it up, or left it
            PHONE_LOG.info("gave up %s %s", request.method, request.url)
        else:
            PHONE_LOG.info("no answer to %s %s: %s", request.method, request.url,
                           request.failure)

    context.on("request", sent)
    context.on("requestfinished", answered)
    context.on("requestfailed", unanswered)
    context.on("console", lambda message: PHONE_LOG.info(
        "console %s: %s", message.type, message.text))
    context.on("weberror", lambda error: PHONE_LOG.info("page error: %s", error.error))


def phone_page(browser, viewport: dict, member=None):
    context = phone_context(browser, viewport, member)
    try:
        yield context.new_page()
    finally:
        context.close()
