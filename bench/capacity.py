"""How many card tables one 2-worker server holds: phones polling, a hand now and then.

    python bench/capacity.py                   # 10 tables, then more, ~15 s a step
    python bench/capacity.py --start 40 --grow 1.25 --seconds 20 --workers 2

A table is six phones, each polling its game every 2 seconds as the page does
(``GET /games/<id>/live?v=…``, most answered 204; after a change each phone fetches the
new part of the page and polls on at the new version), one of them the scorer's, and
one hand recorded per table every 90 seconds. Starts gunicorn (2 workers × 4 threads,
as ``bench/throughput.py`` does) on 127.0.0.1 with a fresh SQLite file, then loads it
step by step with more tables (×1.5 a step) until the polls' 99th-percentile latency
passes 100 ms or the records' passes 250 ms, then halves the gap between the most
tables held and the fewest not, and prints how many tables it held. A step that fails
is run once more before it counts (a shared machine has its moments).

Time is not compressed for the polls (T tables send 3·T a second, as they would), but a
step lasts seconds, not hours: the hands of T tables come at T/90 a second, rotating
over the tables, so a step sees the same load a second as a real evening of T tables,
with fewer records to take a percentile of (their count is printed). Requests are sent
on schedule by a pool of client threads; "late" is how far behind schedule the clients
themselves fell (when it grows, this machine's clients, not the server, are the limit).
Nothing is asserted: numbers are measured.
"""
from __future__ import annotations

import argparse
import itertools
import os
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import throughput as served  # noqa: E402  (bench/throughput.py: server start, clients)

PHONES = 6
POLL_SECONDS = 2.0
RECORD_SECONDS = 90.0
POLL_P99_MS = 100.0
RECORD_P99_MS = 250.0


@dataclass
class Phone:
    """One phone at a table: its connection, the poll it sends next, one request at once."""

    client: served.Client
    game: str
    poll: str = ""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def look(self) -> str:
        """Open the game page, as a phone joining the table does; returns the page."""
        _, page = self.client.send("GET", f"/games/{self.game}")
        found = served.POLL.search(page)
        self.poll = found.group(1).replace("&amp;", "&") if found else ""
        return page

    def poll_once(self) -> int:
        status, text = self.client.send("GET", self.poll, headers={"HX-Request": "true"})
        if status == 200:
            found = served.POLL.search(text)
            if found:
                self.poll = found.group(1).replace("&amp;", "&")
            else:  # an answer without the poller: the phone reloads the page
                self.look()
        return status


@dataclass
class Table:
    phones: list[Phone]
    revision: str = ""
    next_number: int = 1

    @property
    def scorer(self) -> Phone:
        return self.phones[0]

    def record(self) -> tuple[int, float]:
        """Record the next hand from the scorer's phone: (status, ms of the POST alone)."""
        scorer = self.scorer
        if not self.revision:
            self.revision = served.REVISION.search(scorer.look()).group(1)
        started = time.perf_counter()
        status, text = scorer.client.send(
            "POST", f"/games/{scorer.game}/hands",
            {"number": self.next_number, "revision": self.revision, **served.PLAYED},
            {"HX-Request": "true", "HX-Target": "game"})
        elapsed = (time.perf_counter() - started) * 1000
        found = served.REVISION.search(text)
        self.revision = found.group(1) if found else ""
        if status < 400:
            self.next_number += 1
        return status, elapsed


def new_table(port: int, cookies: list[str]) -> Table:
    """A new game at a new table: the scorer starts it, five watchers open it."""
    from scorekeeper.clubs.access import COOKIE
    scorer = served.Client(port, {COOKIE: cookies[0]})
    game = served.new_game(scorer, 0)
    phones = [Phone(scorer, game)] + [
        Phone(served.Client(port, {COOKIE: cookie}), game) for cookie in cookies[1:PHONES]]
    for phone in phones:
        phone.look()
    return Table(phones)


def server_cpu_seconds(pid: int) -> float:
    """CPU time used so far by the server: its master and every worker (Linux /proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return 0.0
    total = 0.0
    for each in [str(pid), *children]:
        try:
            fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
    return total


def percentile(values: list[float], part: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * part))] if ordered else 0.0


@dataclass
class StepResult:
    tables: int
    polls: list[float]
    records: list[float]
    late: list[float]
    errors: int
    changed: int  # polls answered with a new part of the page (200), not 204
    cores: float = 0.0  # the server's CPU seconds a second over the step

    @property
    def holds(self) -> bool:
        return (not self.errors and percentile(self.polls, 0.99) <= POLL_P99_MS
                and percentile(self.records, 0.99) <= RECORD_P99_MS)


def run_step(tables: list[Table], seconds: float, threads: int) -> StepResult:
    """Every phone polls every 2 s (phases spread evenly) and hands come at T/90 a
    second, rotating over the tables, for ``seconds``; each request's latency."""
    count = len(tables)
    events: list[tuple[float, str, object]] = []
    phones = [phone for table in tables for phone in table.phones]
    for index, phone in enumerate(phones):
        offset = POLL_SECONDS * index / len(phones)
        events += [(offset + k * POLL_SECONDS, "poll", phone)
                   for k in range(int((seconds - offset) / POLL_SECONDS) + 1)
                   if offset + k * POLL_SECONDS < seconds]
    every = RECORD_SECONDS / count
    rotation = itertools.cycle(tables)
    events += [(every / 2 + k * every, "record", next(rotation))
               for k in range(int(seconds / every + 0.5))]
    events.sort(key=lambda event: event[0])
    polls: list[float] = []
    records: list[float] = []
    late: list[float] = []
    errors = [0]
    changed = [0]
    upcoming = iter(events)
    take = threading.Lock()
    began = time.monotonic() + 0.2

    def work() -> None:
        while True:
            with take:
                event = next(upcoming, None)
            if event is None:
                return
            due, kind, target = event
            wait = began + due - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            late.append(max(0.0, -wait) * 1000)
            phone = target.scorer if kind == "record" else target
            with phone.lock:
                if kind == "record":
                    status, ms = target.record()
                    records.append(ms)
                else:
                    started = time.perf_counter()
                    status = phone.poll_once()
                    polls.append((time.perf_counter() - started) * 1000)
            if status >= 400:
                errors[0] += 1
            elif kind == "poll" and status == 200:
                changed[0] += 1

    workers = [threading.Thread(target=work) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return StepResult(count, polls, records, late, errors[0], changed[0])


def report(result: StepResult, seconds: float) -> None:
    print(f"{result.tables:6d} {len(result.polls) / seconds:8.0f} "
          f"{statistics.median(result.polls):9.1f} "
          f"{percentile(result.polls, 0.99):9.1f} {result.changed:5d} {len(result.records):8d} "
          f"{statistics.median(result.records) if result.records else 0:8.1f} "
          f"{percentile(result.records, 0.99):8.1f} "
          f"{percentile(result.late, 0.99):9.1f} {result.cores:6.2f}  "
          f"{'holds' if result.holds else 'too slow'}"
          f"{f' ({result.errors} errors)' if result.errors else ''}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--start", type=int, default=10, help="tables in the first step")
    parser.add_argument("--grow", type=float, default=1.5, help="tables × this each step")
    parser.add_argument("--most", type=int, default=1000, help="stop here at the latest")
    parser.add_argument("--seconds", type=float, default=15, help="per step")
    parser.add_argument("--threads", type=int, default=48, help="client threads")
    parser.add_argument("--budget", type=float, default=170,
                        help="seconds of load at most, all steps together")
    args = parser.parse_args(argv)

    from sqlmodel import Session, select

    from scorekeeper import create_app
    from scorekeeper.clubs.membership import add_member
    from scorekeeper.store.models import Club

    with tempfile.TemporaryDirectory() as folder:
        database = f"sqlite:///{Path(folder) / 'capacity.sqlite'}"
        env = {"DATABASE_URL": database, "SECRET_KEY": "bench",
               "PYTHONPATH": str(served.ROOT)}
        app = create_app({"DATABASE_URL": database, "SECRET_KEY": "bench"})
        with app.test_request_context(), Session(app.extensions["db_engine"]) as session:
            club = session.exec(select(Club)).first()
            cookies = [add_member(session, club.id, "Scorer", "scorer", "Bench")[1]] + [
                add_member(session, club.id, f"Watcher {i}", "viewer", "Bench")[1]
                for i in range(1, PHONES)]
        app.extensions["db_engine"].dispose()
        server, port = served.start("scorekeeper:create_app()", served.ROOT, env, args.workers)
        tables: list[Table] = []
        held = 0
        spent = 0.0
        print(f"gunicorn, {args.workers} workers × 4 threads, on 127.0.0.1; "
              f"{PHONES} phones a table polling every {POLL_SECONDS:g} s, "
              f"a hand a table every {RECORD_SECONDS:g} s; {args.seconds:g} s a step")
        print(f"{'tables':>6} {'polls/s':>8} {'poll p50':>9} {'poll p99':>9} "
              f"{'200s':>5} {'records':>8} {'rec p50':>8} {'rec p99':>8} {'late p99':>9} "
              f"{'cores':>6}  verdict")
        try:
            count, too_many = args.start, 0

            def step(count: int) -> bool:
                nonlocal spent
                while len(tables) < count:
                    tables.append(new_table(port, cookies))
                started, cpu = time.monotonic(), server_cpu_seconds(server.pid)
                result = run_step(tables[:count], args.seconds, args.threads)
                took = time.monotonic() - started
                result.cores = (server_cpu_seconds(server.pid) - cpu) / took
                spent += took
                report(result, args.seconds)
                return result.holds

            while count <= args.most and spent + args.seconds <= args.budget:
                # A step that fails is run once more: a moment's hiccup of a shared
                # machine is not the server's limit.
                if step(count) or (spent + args.seconds <= args.budget and step(count)):
                    held = count
                else:
                    too_many = count
                if too_many:  # halve the gap between the most held and the fewest not
                    count = (held + too_many) // 2
                    if too_many - held <= max(2, held // 10):
                        break
                else:
                    count = max(count + 1, int(count * args.grow))
        finally:
            served.stop(server)
    print(f"holds {held} tables (poll p99 ≤ {POLL_P99_MS:g} ms, "
          f"record p99 ≤ {RECORD_P99_MS:g} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
