"""Make a released version's upgrade fixtures with that version's own code.

    .venv/bin/python tests/released/make_fixture.py REF VERSION [--postgresql SERVER_URL]

The source at git ref REF is unpacked into a folder of its own and plays a club's
evening (play.py) through its own app, pages and test helpers, with this environment's
packages, into a new SQLite file (``tests/released/VERSION/club.sqlite``) and, given
a PostgreSQL server it may create a database on, into a new database there, dumped as
plain SQL (``club.postgresql.sql``, loaded by tests/databases.py). ``club.json`` keeps
what the upgrade tests need of each: the secret key and the members' device cookies.
Run once per release, when it is made; the fixtures are then never made again.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import uuid
from io import BytesIO
from pathlib import Path

from sqlalchemy import create_engine
from sqlalchemy.engine import make_url

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent


def unpacked(ref: str, folder: Path) -> Path:
    """The source at ``ref``, as git holds it."""
    archive = subprocess.run(["git", "archive", ref], cwd=ROOT, capture_output=True,
                             check=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    return folder


def played(source: Path, url: str) -> dict:
    """play.py run by the released source on ``url``: what it printed."""
    environment = {**os.environ, "PYTHONPATH": str(source)}
    for setting in ("DATABASE_URL", "SECRET_KEY", "TEST_DATABASE_URL"):
        environment.pop(setting, None)
    result = subprocess.run([sys.executable, str(HERE / "play.py"), url], cwd=source,
                            env=environment, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-4000:]
    return json.loads(result.stdout)


def sqlite_fixture(source: Path, target: Path) -> dict:
    target.unlink(missing_ok=True)
    facts = played(source, f"sqlite:///{target}")
    engine = create_engine(f"sqlite:///{target}")
    with engine.connect() as connection:
        connection.exec_driver_sql("VACUUM")  # the pages freed while playing, left out
    engine.dispose()
    return facts


def postgresql_fixture(source: Path, server: str, target: Path) -> dict:
    """Played into a new database on ``server``, dumped as plain SQL with INSERTs (any
    client can run it, psql or not), then dropped."""
    name = f"sk_fixture_{uuid.uuid4().hex[:8]}"
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
    url = make_url(server).set(database=name)
    try:
        facts = played(source, url.render_as_string(hide_password=False))
        libpq = url.set(drivername="postgresql").render_as_string(hide_password=False)
        dump = subprocess.run(["pg_dump", "--inserts", "--no-owner", "--no-privileges",
                               "--no-comments", f"--dbname={libpq}"],
                              capture_output=True, text=True, check=True).stdout
        # psql's own meta-commands (\restrict in newer pg_dumps) are no SQL: left out.
        target.write_text("".join(line for line in dump.splitlines(keepends=True)
                                  if not line.startswith("\\")))
    finally:
        with admin.connect() as connection:
            connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.dispose()
    return facts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ref", help="the release's git commit or tag")
    parser.add_argument("version", help="its version, e.g. 0.1.0")
    parser.add_argument("--postgresql", metavar="SERVER_URL",
                        help="postgresql+psycopg://… of a server to make a database on")
    arguments = parser.parse_args()
    folder = HERE / arguments.version
    folder.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        source = unpacked(arguments.ref, Path(work))
        commit = subprocess.run(["git", "rev-parse", arguments.ref], cwd=ROOT, text=True,
                                capture_output=True, check=True).stdout.strip()
        facts = {"made_from": commit,
                 "sqlite": sqlite_fixture(source, folder / "club.sqlite")}
        if arguments.postgresql:
            facts["postgresql"] = postgresql_fixture(source, arguments.postgresql,
                                                     folder / "club.postgresql.sql")
    (folder / "club.json").write_text(json.dumps(facts, indent=1) + "\n")


if __name__ == "__main__":
    main()
