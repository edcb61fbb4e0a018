"""Installed as a deployer installs it: the wheel, into a fresh virtual environment
outside the checkout, must serve every kind of page (templates, static files and the
compiled catalogues travel in the wheel).

The wheel is built here with pip, as a deployer's pip builds it (in an isolated build
environment, with the setuptools pyproject.toml asks for), and installed with
``--no-deps``; its dependencies come from this
environment's site-packages, added to the new one's path as a plain directory (not as a
site: this environment's editable install of the checkout stays out of it). The server
runs from a folder that is not the checkout, on a free port of 127.0.0.1.
"""
from __future__ import annotations

import http.client
import os
import shutil
import socket
import subprocess
import sys
import sysconfig
import time
import tomllib
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

SERVE = """
import sys
from werkzeug.serving import make_server
from scorekeeper import create_app

app = create_app({"DATABASE_URL": sys.argv[1], "SECRET_KEY": "installed"})
server = make_server("127.0.0.1", int(sys.argv[2]), app)
print("serving", flush=True)
server.serve_forever()
"""


PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
CONSTRAINTS = ROOT / "deploy" / "constraints.txt"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def get(port: int, path: str, cookie: str = "") -> tuple[int, str]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", path, headers={"Cookie": cookie} if cookie else {})
        response = connection.getresponse()
        return response.status, response.read().decode("utf-8", "replace")
    finally:
        connection.close()


def version_said(port: int) -> str:
    """The version the app's health check says it is."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", "/healthz")
        return connection.getresponse().getheader("Scorekeeper-Version")
    finally:
        connection.close()


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """A fresh virtual environment holding the scorekeeper wheel: its python."""
    work = tmp_path_factory.mktemp("install")
    wheels, source = work / "wheels", work / "source"
    # Built from a copy of what git would hold: the build leaves nothing in the checkout.
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", ".venv", "build", "*.egg-info", "instance", "__pycache__", ".pytest_cache",
        "node_modules"))
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet",
         "--wheel-dir", str(wheels), str(source)],
        capture_output=True, text=True, cwd=work, timeout=300)
    assert built.returncode == 0, built.stderr[-3000:]
    (wheel,) = wheels.glob("scorekeeper-*.whl")
    target = work / "env"
    venv.EnvBuilder(with_pip=False).create(target)
    python = target / "bin" / "python"
    site = Path(subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True).stdout.strip())
    # Unpacked by pip into the new environment, then this environment's dependencies.
    unpacked = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--no-compile", "--quiet",
         "--target", str(site), str(wheel)],
        capture_output=True, text=True, cwd=work, timeout=300)
    assert unpacked.returncode == 0, unpacked.stderr[-3000:]
    (site / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return python, work


def test_the_installed_wheel_serves_pages_in_two_languages_static_files_and_health(installed):
    python, work = installed
    where = subprocess.run([str(python), "-c", "import scorekeeper; print(scorekeeper.__file__)"],
                           capture_output=True, text=True, cwd=work, check=True).stdout
    assert str(ROOT) not in where, f"the checkout was imported, not the wheel: {where}"
    port = free_port()
    database = f"sqlite:///{work / 'installed.sqlite'}"
    env = {key: value for key, value in os.environ.items()
           if key not in ("PYTHONPATH", "DATABASE_URL", "SECRET_KEY")}
    server = subprocess.Popen([str(python), "-c", SERVE, database, str(port)], cwd=work,
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                status, body = get(port, "/healthz")
                break
            except OSError:
                assert server.poll() is None, server.stdout.read().decode()[-3000:]
                assert time.monotonic() < deadline, "the installed app did not start"
                time.sleep(0.2)
        assert (status, body) == (200, "ok\n")
        assert version_said(port) == PROJECT["version"]  # the wheel's, from pyproject.toml
        status, body = get(port, "/welcome")  # a fresh install: make the first club
        assert status == 200 and "Make your club" in body, body[:2000]
        status, body = get(port, "/rules", cookie="lang=fa")
        assert status == 200 and 'lang="fa" dir="rtl"' in body
        assert "قوانین" in body  # from the compiled Persian catalogue
        for asset in ("app.css", "app.js", "vendor/htmx-2.0.11.min.js", "sw.js"):
            path = f"/static/{asset}" if asset != "sw.js" else "/sw.js"
            status, body = get(port, path)
            assert status == 200 and body, asset
        status, body = get(port, "/offline")
        assert status == 200 and "No connection" in body
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_the_serve_extra_brings_all_that_gunicorns_gevent_worker_imports():
    """README's production install (``pip install '.[serve]'``) must start gunicorn's
    gevent worker: what gunicorn asks for its gevent worker (its ``gevent`` extra: newer
    releases import ``packaging`` there) comes with the ``serve`` extra. This
    environment has it through the test tools, so only the declarations can tell."""
    from importlib import metadata

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    serve = [Requirement(line) for line in
             tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
             ["optional-dependencies"]["serve"]]
    named = {canonicalize_name(requirement.name) for requirement in serve}
    gunicorn_extras = {extra for requirement in serve
                       if canonicalize_name(requirement.name) == "gunicorn"
                       for extra in requirement.extras}
    for line in metadata.requires("gunicorn") or []:
        needed = Requirement(line)
        for_gevent = (needed.marker is not None and needed.marker.evaluate({"extra": "gevent"})
                      and not needed.marker.evaluate({"extra": ""}))
        if for_gevent:
            assert canonicalize_name(needed.name) in named or "gevent" in gunicorn_extras, (
                f"gunicorn's gevent worker needs {needed.name}, which the serve extra "
                "doesn't bring")


def brought_by(requirements: list[str], extras: set[str]) -> set[str]:
    """Every distribution installing ``requirements`` brings, by their canonical names:
    read from the metadata of this environment, which holds them all (the test extra
    brings the serve extra's own)."""
    from importlib import metadata

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    found: set[str] = set()
    waiting = [(Requirement(line), extras) for line in requirements]
    while waiting:
        requirement, asked = waiting.pop()
        if requirement.marker and not any(requirement.marker.evaluate({"extra": extra})
                                          for extra in asked | {""}):
            continue
        name = canonicalize_name(requirement.name)
        if name in found:
            continue
        found.add(name)
        waiting.extend((Requirement(line), set(requirement.extras))
                       for line in metadata.requires(name) or [])
    return found


def pinned() -> dict[str, str]:
    """deploy/constraints.txt: canonical name -> the exact version."""
    from packaging.utils import canonicalize_name

    pins = {}
    for line in CONSTRAINTS.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, version = line.split("==")
            pins[canonicalize_name(name)] = version
    return pins


def test_the_constraints_pin_every_distribution_the_serve_install_brings():
    """The server install (``pip install -c deploy/constraints.txt '.[serve]'``) takes
    every version from the file: a dependency added to pyproject.toml, or one a
    dependency starts to need, and not pinned there would float again."""
    serve = PROJECT["dependencies"] + PROJECT["optional-dependencies"]["serve"]
    unpinned = brought_by(serve, set()) - set(pinned())
    assert not unpinned, (
        f"deploy/constraints.txt pins no version of {sorted(unpinned)}, which the serve "
        "install brings: make it again from a fresh environment's pip freeze")


def test_every_pinned_version_is_one_pyproject_allows():
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    pins = pinned()
    for line in PROJECT["dependencies"] + PROJECT["optional-dependencies"]["serve"]:
        requirement = Requirement(line)
        version = pins[canonicalize_name(requirement.name)]
        assert requirement.specifier.contains(version), (
            f"deploy/constraints.txt pins {requirement.name} {version}, outside "
            f"pyproject.toml's {requirement.specifier}")
