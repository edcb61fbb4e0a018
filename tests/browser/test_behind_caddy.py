"""The deploy folder as a club runs it, over real HTTPS: Debian's Caddy with the LAN site
file (``tls internal``, a test host name), in front of gunicorn started with the command
line of the systemd unit's ``ExecStart`` (read from the file: only the install folder
and the port are this test's), with the settings of ``env.example`` (the secret and the
database this test's: PostgreSQL in CI's second run). Chromium, told that the test host
is this machine and trusting Caddy's own authority, finds a secure page; and the unit
files pass ``systemd-analyze verify``.
"""
from __future__ import annotations

import base64
import hashlib
import http.client
import os
import re
import shlex
import shutil
import socket
import ssl
import subprocess
import sys
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.phones import CHROMIUM_ARGS, chromium_path
from tests.databases import database_url
from tests.test_install import free_port

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
HOST = "club.test"
INSTALLED = "/opt/scorekeeper/venv"  # where the unit files expect the app

needs_caddy = pytest.mark.skipif(shutil.which("caddy") is None and not os.environ.get("CI"),
                                 reason="Caddy is not installed (README's test command "
                                        "installs it)")


def unit_value(unit: str, key: str) -> str:
    """A setting of a unit file, as systemd reads it (one line, no continuation)."""
    for line in (DEPLOY / unit).read_text().splitlines():
        if line.startswith(f"{key}="):
            return line.split("=", 1)[1]
    raise AssertionError(f"{unit} has no {key}")


def exec_start(port: int) -> list[str]:
    """The unit's ExecStart, with this test's install folder and port."""
    words = shlex.split(unit_value("scorekeeper.service", "ExecStart"))
    assert words[0].startswith(INSTALLED), words[0]
    words[0] = sys.prefix + words[0][len(INSTALLED):]
    bind = words.index("--bind")
    assert words[bind + 1] == "127.0.0.1:8000"
    words[bind + 1] = f"127.0.0.1:{port}"
    return words


def example_settings() -> dict[str, str]:
    """``env.example``'s settings."""
    found = {}
    for line in (DEPLOY / "env.example").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, value = line.split("=", 1)
            found[name] = value
    return found


class Through(http.client.HTTPSConnection):
    """HTTPS to the test host, which is this machine, from ``source`` (an address of
    this machine's loopback: each one a different phone to the proxy)."""

    def __init__(self, port: int, context: ssl.SSLContext, source: str = "127.0.0.1"):
        super().__init__(HOST, port, context=context, timeout=30,
                         source_address=(source, 0))

    def connect(self) -> None:
        sock = socket.create_connection(("127.0.0.1", self.port), self.timeout,
                                        self.source_address)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)


def wait_for(check, what: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            if check():
                return
        except OSError:
            pass
        assert time.monotonic() < deadline, f"never came: {what}"
        time.sleep(0.2)


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """(the HTTPS port, an SSL context trusting Caddy's authority, Caddy's data folder)."""
    folder = tmp_path_factory.mktemp("club-server")
    app_port, https_port = free_port(), free_port()
    env = {**os.environ, **example_settings(), "SECRET_KEY": "caddy-test-secret",
           "DATABASE_URL": database_url()}
    app = subprocess.Popen(exec_start(app_port), cwd=folder, env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           start_new_session=True)
    caddy_env = {**os.environ, "HOME": str(folder), "XDG_DATA_HOME": str(folder / "data"),
                 "XDG_CONFIG_HOME": str(folder / "config"),
                 "SCOREKEEPER_HOST": f"{HOST}:{https_port}",
                 "SCOREKEEPER_HTTPS_PORT": str(https_port),
                 "SCOREKEEPER_HTTP_PORT": str(free_port()),
                 "SCOREKEEPER_CADDY_ADMIN": f"localhost:{free_port()}",
                 "SCOREKEEPER_PORT": str(app_port)}
    caddy = subprocess.Popen(["caddy", "run", "--config", str(DEPLOY / "Caddyfile.lan"),
                              "--adapter", "caddyfile"], cwd=folder, env=caddy_env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             start_new_session=True)
    try:
        authority = folder / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
        wait_for(authority.exists, "Caddy's own authority")
        context = ssl.create_default_context(cafile=str(authority))

        def healthy() -> bool:
            connection = Through(https_port, context)
            connection.request("GET", "/healthz")
            return connection.getresponse().status == 200

        wait_for(healthy, "the app through Caddy")
        yield https_port, context, authority
    finally:
        for process in (caddy, app):
            os.killpg(process.pid, 15)
            process.wait(timeout=30)


def get(port: int, context, path: str, source: str = "127.0.0.1", **headers):
    connection = Through(port, context, source)
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    return response, response.read().decode()


def spki_pin(port: int, context) -> str:
    """The base64 SHA-256 of the served certificate's public key, as Chromium's
    ``--ignore-certificate-errors-spki-list`` takes it (Chromium here has no way to be
    given a trusted authority but its system store)."""
    connection = Through(port, context)
    connection.connect()
    der = connection.sock.getpeercert(binary_form=True)
    connection.close()
    spki = subprocess.run(
        "openssl x509 -inform der -pubkey -noout | openssl pkey -pubin -outform der",
        shell=True, input=der, capture_output=True, check=True).stdout
    return base64.b64encode(hashlib.sha256(spki).digest()).decode()


@needs_caddy
def test_the_unit_files_pass_systemd_analyze_verify(tmp_path):
    if shutil.which("systemd-analyze") is None and not os.environ.get("CI"):
        pytest.skip("systemd-analyze is not installed")
    units = sorted(DEPLOY.glob("*.service")) + sorted(DEPLOY.glob("*.timer"))
    assert {unit.name for unit in units} >= {"scorekeeper.service", "scorekeeper-backup.service",
                                             "scorekeeper-backup.timer"}
    for unit in units:  # as installed: the app where the units say, here this test's
        (tmp_path / unit.name).write_text(unit.read_text().replace(INSTALLED, sys.prefix))
    checked = subprocess.run(["systemd-analyze", "verify", *(str(tmp_path / u.name)
                                                             for u in units)],
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    assert checked.stderr.strip() == "", checked.stderr


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
def test_chromium_finds_a_secure_context_and_a_registered_service_worker(served, browser):
    port, context, _authority = served
    pin = spki_pin(port, context)
    club = browser.browser_type.launch(executable_path=chromium_path(), args=[
        *CHROMIUM_ARGS, f"--host-resolver-rules=MAP {HOST} 127.0.0.1",
        f"--ignore-certificate-errors-spki-list={pin}"])
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
        page.wait_for_function("navigator.serviceWorker.controller !== null")
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
