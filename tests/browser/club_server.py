"""A club's own server as the deploy folder makes it, for the tests: gunicorn started with
the systemd unit's own command line and settings, Caddy with a site file of the folder,
and the app's commands run as the units run them. Only what a test must change is
changed: the install folder, the service's folders and the ports are this test's.
"""
from __future__ import annotations

import http.client
import os
import shlex
import signal
import socket
import ssl
import subprocess
import sys
import time
from pathlib import Path

from tests.browser.phones import CHROMIUM_ARGS, chromium_path

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
HOST = "club.test"
INSTALLED = "/opt/scorekeeper/venv"  # where the unit files expect the app
# The service's own folders, as the units name them, and what each is in a test's folder.
SERVICE_FOLDERS = {"/var/lib/scorekeeper": "", "/var/backups/scorekeeper": "backups",
                   "/run/scorekeeper": "run"}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def unit_values(unit: str, key: str) -> list[str]:
    """Every value of a unit file's setting, as systemd reads it (one line each)."""
    return [line.split("=", 1)[1] for line in (DEPLOY / unit).read_text().splitlines()
            if line.startswith(f"{key}=")]


def unit_value(unit: str, key: str) -> str:
    (value,) = unit_values(unit, key)
    return value


def example_settings() -> dict[str, str]:
    """``env.example``'s settings (installed as the units' EnvironmentFile)."""
    found = {}
    for line in (DEPLOY / "env.example").read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, value = line.split("=", 1)
            found[name.strip()] = value.strip().strip("'\"")
    return found


def unit_environment(unit: str) -> dict[str, str]:
    """A unit's own ``Environment=`` settings."""
    found = {}
    for value in unit_values(unit, "Environment"):
        for word in shlex.split(value):
            name, setting = word.split("=", 1)
            found[name] = setting
    return found


def in_folder(word: str, folder: Path) -> str:
    """A word of a unit's command line with the install and service folders this test's."""
    if word.startswith(INSTALLED):
        return sys.prefix + word[len(INSTALLED):]
    for served, here in SERVICE_FOLDERS.items():
        if word.startswith(served):
            return str(folder / here) + word[len(served):]
    return word


def unit_command(unit: str, folder: Path) -> list[str]:
    """A unit's ExecStart, its folders this test's."""
    return [in_folder(word, folder) for word in shlex.split(unit_value(unit, "ExecStart"))]


def exec_start(port: int, folder: Path = Path("/nonexistent")) -> list[str]:
    """The app unit's ExecStart, with this test's install folder, folders and port."""
    words = unit_command("scorekeeper.service", folder)
    bind = words.index("--bind")
    assert words[bind + 1] == "127.0.0.1:8000"
    words[bind + 1] = f"127.0.0.1:{port}"
    return words


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


def trusting_phone(browser, server: "ClubServer", home: Path):
    """A phone's Chromium that trusts the club server's authority: its certificate
    installed in the phone's own store (NSS, where Chromium on Linux keeps it), as a
    phone is told to install it; the test host name is this machine. No certificate
    error is ignored."""
    store = home / ".pki" / "nssdb"
    store.mkdir(parents=True)
    subprocess.run(["certutil", "-d", f"sql:{store}", "-N", "--empty-password"], check=True)
    subprocess.run(["certutil", "-d", f"sql:{store}", "-A", "-t", "C,,", "-n",
                    "The club's server", "-i", str(server.authority)], check=True)
    return browser.browser_type.launch(
        executable_path=chromium_path(), env={**os.environ, "HOME": str(home)},
        args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {HOST} 127.0.0.1"])


class ClubServer:
    """gunicorn as the unit starts it, behind Caddy with ``site`` (a file of deploy/),
    each started and stopped by the test; the app's settings are env.example's and the
    unit's, with this test's secret and database."""

    def __init__(self, folder: Path, database_url: str, site: str = "Caddyfile.lan"):
        self.folder, self.database_url, self.site = folder, database_url, site
        self.app_port, self.https_port = free_port(), free_port()
        self.http_port, self.admin_port = free_port(), free_port()
        for here in SERVICE_FOLDERS.values():
            (folder / here).mkdir(exist_ok=True)
        self.app = self.caddy = None

    @property
    def base(self) -> str:
        return f"https://{HOST}:{self.https_port}"

    @property
    def authority(self) -> Path:
        """Caddy's own root certificate, which each phone is told to trust."""
        return self.folder / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"

    def environment(self, unit: str = "scorekeeper.service") -> dict[str, str]:
        """What a unit's process gets: the env file's settings, then the unit's own."""
        return {"PATH": os.environ["PATH"], **example_settings(), **unit_environment(unit),
                "SECRET_KEY": "club-server-test-secret", "DATABASE_URL": self.database_url}

    def _start(self, words: list[str], env: dict[str, str], log: str):
        with open(self.folder / log, "ab") as out:
            return subprocess.Popen(words, cwd=self.folder, env=env, stdout=out,
                                    stderr=subprocess.STDOUT, start_new_session=True)

    def start_app(self) -> None:
        self.app = self._start(exec_start(self.app_port, self.folder), self.environment(),
                               "app.log")

    def start_caddy(self) -> None:
        env = {**os.environ, "HOME": str(self.folder),
               "XDG_DATA_HOME": str(self.folder / "data"),
               "XDG_CONFIG_HOME": str(self.folder / "config"),
               "SCOREKEEPER_HOST": f"{HOST}:{self.https_port}",
               "SCOREKEEPER_DOMAIN": f"{HOST}:{self.https_port}",
               "SCOREKEEPER_HTTPS_PORT": str(self.https_port),
               "SCOREKEEPER_HTTP_PORT": str(self.http_port),
               "SCOREKEEPER_CADDY_ADMIN": f"localhost:{self.admin_port}",
               "SCOREKEEPER_PORT": str(self.app_port)}
        self.caddy = self._start(["caddy", "run", "--config", str(DEPLOY / self.site),
                                  "--adapter", "caddyfile"], env, "caddy.log")
        wait_for(self.authority.exists, "Caddy's own authority")

    def context(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=str(self.authority))

    def wait_until_healthy(self) -> None:
        context = self.context()

        def healthy() -> bool:
            connection = Through(self.https_port, context)
            connection.request("GET", "/healthz")
            return connection.getresponse().status == 200

        wait_for(healthy, f"the app through Caddy (logs in {self.folder})")

    def start(self) -> "ClubServer":
        self.start_app()
        self.start_caddy()
        self.wait_until_healthy()
        return self

    @staticmethod
    def _stop(process) -> None:
        if process is not None and process.poll() is None:
            # Quickly: gunicorn's graceful stop (SIGTERM) waits out the phones' held polls.
            os.killpg(process.pid, signal.SIGINT)
            process.wait(timeout=30)

    def stop_app(self) -> None:
        self._stop(self.app)

    def stop_caddy(self) -> None:
        self._stop(self.caddy)

    def stop(self) -> None:
        self.stop_caddy()
        self.stop_app()

    def run(self, words: list[str], unit: str = "scorekeeper.service",
            **settings: str) -> subprocess.CompletedProcess:
        """A command as the unit would run it: its settings, in its working folder."""
        return subprocess.run(words, cwd=self.folder, capture_output=True, text=True,
                              env={**self.environment(unit), **settings}, timeout=300)

    def flask(self, *args: str, **settings: str) -> subprocess.CompletedProcess:
        """One of the app's commands (README, "Command line"), as the service's user."""
        return self.run([str(Path(sys.prefix) / "bin" / "flask"), "--app", "scorekeeper",
                         *args], **settings)
