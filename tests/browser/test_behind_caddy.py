"""The deploy folder as a club runs it, over real HTTPS: Debian's Caddy with the LAN site
file (``tls internal``, a test host name), in front of gunicorn started with the command
line of the systemd unit's ``ExecStart`` (tests/browser/club_server.py; only the install
folder and the port are this test's), with the settings of ``env.example`` (the secret and
the database this test's: PostgreSQL in CI's second run). Chromium, told that the test
host is this machine and trusting Caddy's own authority in its certificate store, finds
a secure page. tests/browser/test_club_server.py walks a whole club night through it.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest
from playwright.sync_api import expect

from tests.browser.club_server import DEPLOY, HOST, ClubServer, Through, exec_start, trusting_phone
from tests.databases import database_url

needs_caddy = pytest.mark.skipif(shutil.which("caddy") is None and not os.environ.get("CI"),
                                 reason="Caddy is not installed (.ci/run installs it)")


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """(the HTTPS port, an SSL context trusting Caddy's authority, the server)."""
    server = ClubServer(tmp_path_factory.mktemp("club-server"), database_url()).start()
    try:
        yield server.https_port, server.context(), server
    finally:
        server.stop()


def get(port: int, context, path: str, source: str = "127.0.0.1", **headers):
    connection = Through(port, context, source)
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    return response, response.read().decode()


@needs_caddy
def test_the_app_through_caddy_is_a_secure_page_with_its_headers_once(served):
    port, context, _authority = served
    response, page = get(port, context, "/join")
    assert response.status == 200 and "<form" in page
    for header in ("Content-Security-Policy", "X-Frame-Options", "X-Content-Type-Options",
                   "Referrer-Policy"):
        assert len(response.headers.get_all(header) or []) == 1, header
    cookies = response.headers.get_all("Set-Cookie") or []
    assert cookies and all(re.search(r";\s*Secure\b", cookie) for cookie in cookies), cookies


@needs_caddy
@pytest.mark.browser
def test_chromium_finds_a_secure_context_and_a_registered_service_worker(served, browser,
                                                                          tmp_path):
    port, _context, server = served
    club = trusting_phone(browser, server, tmp_path)
    try:
        page = club.new_page()
        page.goto(f"https://{HOST}:{port}/join")
        assert page.evaluate("window.isSecureContext") is True
        scope = page.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)")
        assert scope == f"https://{HOST}:{port}/"
        cookies = page.context.cookies()
        assert cookies and all(cookie["secure"] for cookie in cookies), cookies
        # With the connection gone, the worker answers: the offline page, laid out.
        page.reload()
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        page.context.set_offline(True)
        page.goto(f"https://{HOST}:{port}/evenings")
        expect(page.get_by_role("heading", name="No connection")).to_be_visible()
    finally:
        club.close()


def guess(port: int, context, source: str, **headers) -> int:
    """One wrong code typed at /join from ``source``: the answer's status, 400 only when
    the page says no club has that code (the form itself was right)."""
    response, page = get(port, context, "/join", source)
    cookie = "; ".join(c.split(";", 1)[0] for c in response.headers.get_all("Set-Cookie"))
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page).group(1)
    connection = Through(port, context, source)
    connection.request("POST", "/join", body=f"csrf_token={token}&code=ZZZZ2222",
                       headers={"Content-Type": "application/x-www-form-urlencoded",
                                "Cookie": cookie, "Referer": f"https://{HOST}:{port}/join",
                                **headers})
    answer = connection.getresponse()
    said = answer.read().decode()
    assert answer.status != 400 or "No club has that code" in said, said[:2000]
    return answer.status


@needs_caddy
def test_two_addresses_through_the_proxy_are_limited_separately(served):
    port, context, _authority = served
    first = [guess(port, context, "127.0.0.3") for _ in range(10)]
    assert first == [400] * 10  # a wrong code, said so
    assert guess(port, context, "127.0.0.3") == 429  # the eleventh: too many tries
    # A header the phone sends can't make it another address: Caddy sets the real one.
    assert guess(port, context, "127.0.0.3", **{"X-Forwarded-For": "198.51.100.7"}) == 429
    assert guess(port, context, "127.0.0.4") == 400  # another phone: its own tries


GUNICORN_KEEP_ALIVE = 2.0  # seconds, where the command line sets none
CADDY_IDLE = 120.0  # seconds: Caddy's own, where its file sets none


@needs_caddy
@pytest.mark.parametrize("site", ["Caddyfile", "Caddyfile.lan"])
def test_caddy_lets_an_idle_connection_go_before_gunicorn_does(site):
    """Else Caddy may send a request on a connection gunicorn has just closed, and the
    phone gets a 502 (seen once through the proxy, on "Start the game")."""
    words = exec_start(8000)
    app = float(words[words.index("--keep-alive") + 1]) if "--keep-alive" in words \
        else GUNICORN_KEEP_ALIVE
    adapted = subprocess.run(["caddy", "adapt", "--config", str(DEPLOY / site),
                              "--adapter", "caddyfile"], cwd=DEPLOY, capture_output=True,
                             text=True, check=True,
                             env={**os.environ, "SCOREKEEPER_DOMAIN": "scores.example.org",
                                  "SCOREKEEPER_HOST": HOST})
    idle = [int(nanoseconds) / 1e9 for nanoseconds in
            re.findall(r'"keep_alive":\{[^}]*"idle_timeout":(\d+)', adapted.stdout)]
    assert idle, "the proxy's idle time to the app is Caddy's default"
    assert max(idle) < app, (idle, app)
