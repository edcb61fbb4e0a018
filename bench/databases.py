"""The database a bench's server runs on, and the CPU each side of the machine spends.

``--database`` (``bench/capacity.py``, ``bench/throughput.py``) names it: nothing, for a
SQLite file in the bench's own temporary folder (as before); a SQLite URL, for that file;
or a PostgreSQL server's URL (``postgresql+psycopg://postgres@127.0.0.1:PORT/postgres``),
on which the bench makes a database of its own, ``bench_<pid>``, and drops it at the end:
two runs never see each other's rows.

PostgreSQL's own CPU is counted beside the app server's: on one machine both share the
cores, and a step that holds fewer tables while the app's workers idle may be spending
them in the database. The cluster is its postmaster and every process under it (the
backends, the writers, autovacuum); a process that ended during a step is counted too,
in its parent's time of ended children. The postmaster is found from ``--pg-data`` (its
``postmaster.pid``), else as the parent of a backend the bench asks for its pid.
"""
from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from sqlalchemy import create_engine
from sqlalchemy.engine import make_url


def on_postgresql(url: str) -> bool:
    return url.startswith("postgresql")


@contextmanager
def fresh_database(url: str | None, folder: Path, name: str) -> Iterator[str]:
    """The URL the server uses: a SQLite file ``name`` in ``folder`` (no ``url``), the
    SQLite file ``url`` names, or a new database on ``url``'s PostgreSQL server,
    dropped when the bench is done with it."""
    if not url:
        yield f"sqlite:///{folder / name}"
        return
    if not on_postgresql(url):
        yield url
        return
    database = f"bench_{os.getpid()}"
    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.exec_driver_sql(f'CREATE DATABASE "{database}"')
    try:
        yield make_url(url).set(database=database).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:  # the server's connections may linger
            connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
        admin.dispose()


def process_fields(pid: int | str) -> list[str] | None:
    """The fields of ``/proc/<pid>/stat`` after the process's name (Linux), or None."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def tree_cpu_seconds(pid: int) -> float:
    """CPU time used so far by process ``pid``, its children, and its children that
    ended (Linux /proc): an app server's master and workers, a PostgreSQL cluster."""
    tick = os.sysconf("SC_CLK_TCK")
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return 0.0
    total = 0
    for each in [str(pid), *children]:
        fields = process_fields(each)
        if fields is not None:
            total += int(fields[11]) + int(fields[12])  # utime, stime
            if each == str(pid):
                total += int(fields[13]) + int(fields[14])  # its ended children's
    return total / tick


def postmaster_pid(url: str, data_folder: str | None = None) -> int | None:
    """The PostgreSQL cluster's postmaster: from ``postmaster.pid`` in its data folder,
    else the parent of a backend of ``url``'s; None where it is not on this machine."""
    if data_folder:
        return int(Path(data_folder, "postmaster.pid").read_text().split()[0])
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            backend = connection.exec_driver_sql("SELECT pg_backend_pid()").scalar_one()
            fields = process_fields(backend)
    finally:
        engine.dispose()
    if fields is None or not _is_postgres(fields[1]):
        return None  # a server elsewhere (a process here may have the same pid)
    return int(fields[1])


def _is_postgres(pid: str) -> bool:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip() == "postgres"
    except OSError:
        return False


class DatabaseCpu:
    """PostgreSQL's CPU seconds so far (None: SQLite, in the app's own processes, or a
    server on another machine)."""

    def __init__(self, url: str, data_folder: str | None = None) -> None:
        self.pid = postmaster_pid(url, data_folder) if on_postgresql(url) else None

    def seconds(self) -> float | None:
        return None if self.pid is None else tree_cpu_seconds(self.pid)


def cpu_used(before: float | None, after: float | None) -> float | None:
    """CPU seconds used between two readings (None: not measured)."""
    return None if before is None or after is None else after - before


def cores(used: float | None, seconds: float) -> str:
    """The cores ``used`` CPU seconds over ``seconds`` make, as a column shows them."""
    return "-" if used is None else f"{used / seconds:.2f}"
