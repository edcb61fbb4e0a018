"""The deploy folder's systemd units as a club's server runs them: they pass
``systemd-analyze verify``, systemd rates their sandbox safe, the app's ``ExecStart``
serves with no control socket, the settings file and the commands' words reach the app
as systemd reads them (systemd 252's own parser, Debian 12's, called in its library),
and a failed nightly backup is said at login.
"""
from __future__ import annotations

import ctypes
import http.client
import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.browser.club_server import DEPLOY, INSTALLED, example_settings, exec_start
from tests.test_install import free_port

SYSTEMD_SHARED = sorted(Path("/usr/lib").glob("*/systemd/libsystemd-shared-252.so"))

needs_systemd = pytest.mark.skipif(
    shutil.which("systemd-analyze") is None and not os.environ.get("CI"),
    reason="systemd is not installed")
needs_systemd_252 = pytest.mark.skipif(
    not SYSTEMD_SHARED and not os.environ.get("CI"),
    reason="systemd 252's library (Debian 12's) is not installed")


def unit_settings(unit: str) -> list[tuple[str, str]]:
    """A unit file's settings, in order (a key may come more than once)."""
    return [tuple(line.split("=", 1)) for line in (DEPLOY / unit).read_text().splitlines()
            if re.match(r"[A-Z]\w*=", line)]


def unit_value(unit: str, key: str) -> str:
    values = [value for name, value in unit_settings(unit) if name == key]
    assert len(values) == 1, (unit, key, values)
    return values[0]


@needs_systemd
def test_the_unit_files_pass_systemd_analyze_verify(tmp_path):
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


@needs_systemd
@pytest.mark.parametrize("unit", ["scorekeeper.service", "scorekeeper-backup.service"])
def test_systemd_rates_the_units_sandbox_safe(unit):
    rated = subprocess.run(["systemd-analyze", "security", "--offline=true",
                            str(DEPLOY / unit)], capture_output=True, text=True)
    level = re.search(r"Overall exposure level for \S+: (\d+\.\d) (\w+)", rated.stdout)
    assert level, rated.stdout + rated.stderr
    assert float(level[1]) < 5 and level[2] in ("SAFE", "OK"), rated.stdout


SANDBOX_OF_ITS_OWN = {"Type", "ExecStart", "Restart", "RestartSec", "ReadWritePaths"}


def test_the_backup_runs_in_the_apps_sandbox_with_its_own_folder_besides():
    def sandbox(unit: str) -> list[tuple[str, str]]:
        service = (DEPLOY / unit).read_text().split("[Service]", 1)[1].split("\n[", 1)[0]
        return [tuple(line.split("=", 1)) for line in service.splitlines()
                if re.match(r"[A-Z]\w*=", line) and line.split("=")[0] not in SANDBOX_OF_ITS_OWN]

    assert sandbox("scorekeeper-backup.service") == sandbox("scorekeeper.service")
    app_writes = unit_value("scorekeeper.service", "ReadWritePaths").split()
    backup_writes = unit_value("scorekeeper-backup.service", "ReadWritePaths").split()
    assert backup_writes == [*app_writes, "/var/backups/scorekeeper"]
    assert "/var/backups/scorekeeper" in unit_value("scorekeeper-backup.service", "ExecStart")


def healthy(port: int) -> bool:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request("GET", "/healthz")
        return connection.getresponse().status == 200
    except OSError:
        return False
    finally:
        connection.close()


def test_two_of_the_units_gunicorns_serve_side_by_side_with_no_control_socket(tmp_path):
    """gunicorn 25.1+ makes a control socket in its user's home unless told not to: a
    second gunicorn of the same user would take the first one's over."""
    home = tmp_path / "home"
    home.mkdir()
    env = {key: value for key, value in os.environ.items() if key != "XDG_RUNTIME_DIR"}
    env |= {**example_settings(), "HOME": str(home), "SECRET_KEY": "units-test-secret",
            "DATABASE_URL": f"sqlite:///{tmp_path}/scorekeeper.sqlite"}
    ports = [free_port(), free_port()]
    servers = [subprocess.Popen(exec_start(port), cwd=tmp_path, env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True) for port in ports]
    try:
        deadline = time.monotonic() + 60
        while not all(healthy(port) for port in ports):
            assert time.monotonic() < deadline, "the units' gunicorns never answered"
            assert all(server.poll() is None for server in servers), "a gunicorn stopped"
            time.sleep(0.2)
        assert [path.name for path in home.rglob("*")] == []
        assert list(tmp_path.rglob("*.ctl")) == []
    finally:
        for server in servers:
            os.killpg(server.pid, 15)
            server.wait(timeout=30)


class Systemd252:
    """systemd 252's own reading of an EnvironmentFile= and its expansion of "$NAME" in
    a command's words, called in its shared library: what the manager does before it
    starts a unit's (or systemd-run's) command."""

    strv = ctypes.POINTER(ctypes.c_char_p)

    def __init__(self):
        self.library = ctypes.CDLL(str(SYSTEMD_SHARED[0]))
        self.library.load_env_file.argtypes = [ctypes.c_void_p, ctypes.c_char_p,
                                               ctypes.POINTER(self.strv)]
        self.library.load_env_file.restype = ctypes.c_int
        self.library.replace_env_argv.argtypes = [self.strv, self.strv]
        self.library.replace_env_argv.restype = self.strv

    def environment_file(self, path: Path) -> list[str]:
        """The file's ``NAME=value`` lines, as systemd sets them."""
        read = self.strv()
        assert self.library.load_env_file(None, str(path).encode(), ctypes.byref(read)) == 0
        return self._words(read)

    def command(self, words: list[str], environment: list[str]) -> list[str]:
        return self._words(self.library.replace_env_argv(self._strv(words),
                                                         self._strv(environment)))

    def _strv(self, words: list[str]):
        array = (ctypes.c_char_p * (len(words) + 1))(*(w.encode() for w in words), None)
        return ctypes.cast(array, self.strv)

    @staticmethod
    def _words(strv) -> list[str]:
        words = []
        while strv[len(words)] is not None:
            words.append(strv[len(words)].decode())
        return words


@needs_systemd_252
def test_env_example_says_to_systemd_what_it_says_to_the_tests():
    read = Systemd252().environment_file(DEPLOY / "env.example")
    assert dict(line.split("=", 1) for line in read) == example_settings()


def wrapped(tmp_path: Path, *words: str) -> list[str]:
    """The systemd-run command line the command wrapper runs for ``words``."""
    fake = tmp_path / "bin" / "systemd-run"
    fake.parent.mkdir(exist_ok=True)
    fake.write_text(f"#!{sys.executable}\nimport json, sys\n"
                    f"print(json.dumps(sys.argv[1:]))\n")
    fake.chmod(0o755)
    ran = subprocess.run([str(DEPLOY / "scorekeeper"), *words], capture_output=True,
                         text=True, check=True,
                         env={**os.environ, "PATH": f"{fake.parent}:{os.environ['PATH']}"})
    return json.loads(ran.stdout)


def run_as_systemd_would(systemd_run: list[str], env_file: Path, folder: Path) -> str:
    """What systemd does with that systemd-run command line, here: the settings read
    from ``env_file`` (the test's in place of the installed one), the command's words
    expanded, run in ``folder``."""
    options = list(itertools.takewhile(lambda word: word.startswith("-"), systemd_run))
    command = systemd_run[len(options):]
    service = "scorekeeper.service"
    assert {"--pipe", "--wait"} <= set(options)  # its output and its exit come back
    assert f"--uid={unit_value(service, 'User')}" in options
    assert f"--gid={unit_value(service, 'Group')}" in options
    assert f"--property=EnvironmentFile={unit_value(service, 'EnvironmentFile')}" in options
    assert f"--working-directory={unit_value(service, 'WorkingDirectory')}" in options
    assert command[0] == f"{INSTALLED}/bin/flask"
    systemd = Systemd252()
    settings = systemd.environment_file(env_file)
    words = systemd.command(command, settings)
    words[0] = f"{sys.prefix}/bin/flask"
    ran = subprocess.run(words, cwd=folder, capture_output=True, text=True,
                         env={"PATH": os.environ["PATH"], "HOME": str(folder),
                              **dict(line.split("=", 1) for line in settings)})
    assert ran.returncode == 0, ran.stderr
    return ran.stdout


@needs_systemd_252
def test_any_database_url_and_any_word_reach_the_apps_command_as_written(tmp_path):
    """A shell reading the settings file would cut the URL at "&" (and run the rest),
    expand "$" and drop quotes; systemd keeps them, and the wrapper doubles the "$"
    systemd would expand in a command's words."""
    database = tmp_path / "a club's \"file\" & $HOME; #1.sqlite"
    env_file = tmp_path / "env"
    env_file.write_text((DEPLOY / "env.example").read_text().replace(
        "DATABASE_URL=sqlite:////var/lib/scorekeeper/scorekeeper.sqlite",
        f"DATABASE_URL=sqlite:///{database}"))
    club = "Bob's $HOME & \"Co\"; ${SECRET_KEY} $$"
    said = run_as_systemd_would(wrapped(tmp_path, "create-club", club), env_file, tmp_path)
    assert database.exists(), said
    listed = run_as_systemd_would(wrapped(tmp_path, "clubs"), env_file, tmp_path)
    assert club in listed, listed


def login_message(tmp_path: Path, backup_failed: bool) -> str:
    fake = tmp_path / "bin" / "systemctl"
    fake.parent.mkdir(exist_ok=True)
    # "systemctl is-failed" exits 0 when the unit is failed.
    fake.write_text(f"#!/bin/sh\n[ \"$*\" = 'is-failed --quiet scorekeeper-backup.service' ]"
                    f" && exit {0 if backup_failed else 1}\nexit 4\n")
    fake.chmod(0o755)
    return subprocess.run([str(DEPLOY / "scorekeeper-backup.motd")], capture_output=True,
                          text=True, check=True,
                          env={**os.environ, "PATH": f"{fake.parent}:{os.environ['PATH']}"}
                          ).stdout


def test_every_login_says_the_last_backup_failed_until_one_succeeds(tmp_path):
    timer = (DEPLOY / "scorekeeper-backup.timer").read_text()
    assert "Unit=" not in timer  # it starts scorekeeper-backup.service, the one asked about
    said = login_message(tmp_path, backup_failed=True)
    assert "backup FAILED" in said and "systemctl status scorekeeper-backup" in said
    assert login_message(tmp_path, backup_failed=False) == ""
