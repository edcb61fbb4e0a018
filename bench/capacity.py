"""How many card tables one 2-worker server holds: phones waiting on their game, a hand now and then.

    python bench/capacity.py                   # 10 tables, then more, ~15 s a step
    python bench/capacity.py --start 40 --grow 1.25 --seconds 20 --workers 2
    python bench/capacity.py --database postgresql+psycopg://postgres@127.0.0.1:PORT/postgres
    python bench/capacity.py --database postgresql+psycopg://… --servers 2

A table is six phones, each holding its game's poll as the page does
(``GET /games/<id>/live?v=…&wait=1``: held by the server until the game changes, 204
after 25 s; asked again at once when answered, at the new version after a change), one
of them the scorer's, and one hand recorded per table every 90 seconds. Every table's
game is one of a single club's one evening, so each game page's "Games won this
evening" counts all of them: harder than many clubs' evenings of a few tables each.
Starts gunicorn (2 gevent workers, as ``deploy/scorekeeper.service`` does) on 127.0.0.1
with a fresh SQLite file, or a database of its own on the PostgreSQL server
``--database`` names (``bench/databases.py``); with ``--servers 2``, two such servers on
the one database, as README's many servers are, each table's phones taking them in turn
(the scorer's on each server in turn: a hand recorded on one reaches phones on the
other, through the database alone). Then:

- measures the app's floor (``/healthz``, as ``bench/throughput.py`` does) for a few
  seconds: the requests a second no page of the app can beat;
- watches the first tables idle (no hand) for ``--idle`` seconds: the requests a phone
  sends an hour while nothing happens (from each phone's time between two polls);
- loads it step by step with more tables (×1.5 a step) until the delay from a hand
  recorded to the last phone of its table having it passes 1 s at the 95th
  percentile, or the records' 99th percentile passes 250 ms, then halves the gap
  between the most tables held and the fewest not, and prints how many tables it held.

Each step prints the requests a table sends a second, and the tables the app's floor
would allow at that pattern (the floor's requests a second over them): what the app
holds is measured against it. It prints too the CPU the server used (cores),
PostgreSQL's own (pg: where it is the database, on this machine) and the bench's own
phones' (they all share the machine); under it, where the time of the step's slowest
records went, as the app says it (``bench/server_timing.py``: pool wait, SQL, commit,
render, the rest of the app, the queue for a render thread, outside the app). At the
end, the most tables all of the machine's cores could serve at the server's cost a table
(and PostgreSQL's), were the phones elsewhere.
The phones keep polling between steps, as phones do; a step counts what happens within
it. Time is not compressed (a phone's poll is held 25 s as at a table) but a step lasts
seconds, not hours: the hands of T tables come at T/90 a second, rotating over the
tables. Loopback, not a phone's network: a phone on a 150 ms connection gets a change
about 75 ms (one way) later than measured here.
Nothing is asserted: numbers are measured.
"""
from __future__ import annotations

import argparse
import http.client
import itertools
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import throughput as served  # noqa: E402  (bench/throughput.py: server start, clients)
from databases import (  # noqa: E402
    DatabaseCpu, cores, cpu_used, fresh_database, on_postgresql, tree_cpu_seconds,
)
from server_timing import percentile, slow_ones  # noqa: E402

PHONES = 6
RECORD_SECONDS = 90.0
MAKERS = 4  # tables made at once, as a step grows
DELAY_P95_MS = 1000.0
RECORD_P99_MS = 250.0
threading.stack_size(256 * 1024)  # a thread per phone: thousands of them


@dataclass
class Phone:
    """One phone at a table: its connection and the poll it holds next."""

    client: served.Client
    game: str
    poll: str = ""
    sent: list[float] = field(default_factory=list)  # when each poll was sent
    page: str = field(default_factory=lambda: secrets.token_hex(4))  # as app.js marks it

    def look(self) -> str:
        """Open the game page, as a phone joining the table does; returns the page."""
        _, page = self.client.send("GET", f"/games/{self.game}")
        found = served.POLL.search(page)
        self.poll = found.group(1).replace("&amp;", "&") if found else ""
        return page

    def poll_once(self) -> int:
        """One held poll, answered at a change or after 25 s."""
        self.sent.append(time.monotonic())
        try:
            status, text = self.client.send("GET", f"{self.poll}&page={self.page}",
                                            headers={"HX-Request": "true"})
        except (OSError, http.client.HTTPException):  # no answer: a new connection
            self.client = served.Client(self.client.port, self.client.cookies)
            return 0
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
    recorder: served.Client  # the scorer's phone's second connection: its poll holds one
    next_number: int = 1
    recorded: float = 0.0  # when the last hand was sent
    behind: set[int] = field(default_factory=set)  # the phones still without it
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def scorer(self) -> Phone:
        return self.phones[0]

    def record(self) -> tuple[int, float]:
        """Record the next hand from the scorer's phone, as it sends it (only what the
        hand changed comes back): (status, ms of the POST alone). Where the time went,
        as the app said it: ``self.recorder.timing``."""
        served.shown_revision(self.recorder, self.scorer.game)  # its page, loaded once
        with self.lock:
            self.recorded, self.behind = time.monotonic(), set(range(1, PHONES))
        status, elapsed = served.record(self.recorder, self.scorer.game, self.next_number)
        if status < 400:
            self.next_number += 1
        return status, elapsed

    def record_or_fail(self) -> tuple[int, float]:
        """``record``, or 0 when it failed (no answer in 30 s): the next one goes on a
        new connection, as a phone's does."""
        try:
            return self.record()
        except (OSError, http.client.HTTPException):
            self.recorder = served.Client(self.recorder.port, self.recorder.cookies)
            return 0, 30_000.0

    def changed_on(self, index: int) -> float | None:
        """A watcher got the table's change: the delay in ms, once the last one has it."""
        with self.lock:
            if index not in self.behind:
                return None
            self.behind.discard(index)
            return None if self.behind else (time.monotonic() - self.recorded) * 1000


def new_table(ports: list[int], number: int, cookies: list[str]) -> Table:
    """Table ``number``'s new game: the scorer starts it, five watchers open it. With
    several servers, the phones of a table take them in turn, from the server whose
    turn the table's number says: a hand recorded on one reaches phones on the others."""
    from scorekeeper.clubs.access import COOKIE

    def phone_on(seat: int) -> served.Client:  # seat 0: the scorer's phone
        return served.Client(ports[(number + seat) % len(ports)], {COOKIE: cookies[seat]})

    scorer = phone_on(0)
    game = served.new_game(scorer, 0)
    phones = [Phone(scorer, game)] + [Phone(phone_on(seat), game) for seat in range(1, PHONES)]
    for phone in phones:
        phone.look()
    recorder = phone_on(0)
    served.shown_revision(recorder, game)  # its page, loaded as the table sits down
    return Table(phones, recorder)


@dataclass
class Load:
    """What the phones and the hands did, counted from the step's start."""

    delays: list[float] = field(default_factory=list)  # record → the table's last phone
    records: list[float] = field(default_factory=list)
    timed: list[tuple[float, dict]] = field(default_factory=list)  # each record's parts
    requests: int = 0
    errors: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def count(self, status: int, delay: float | None = None) -> None:
        with self.lock:
            self.requests += 1
            self.errors += status == 0 or status >= 400
            if delay is not None:
                self.delays.append(delay)


def hold_polls(table: Table, load: list[Load], running: threading.Event) -> None:
    """Every phone of the table holds its poll, again at once when answered, for good."""
    def loop(index: int) -> None:
        phone = table.phones[index]
        while running.is_set():
            status = phone.poll_once()
            load[0].count(status, table.changed_on(index) if status == 200 else None)
            if status == 0:
                time.sleep(1)  # a phone whose connection failed tries again soon

    for index in range(PHONES):
        threading.Thread(target=loop, args=(index,), daemon=True).start()


@dataclass
class StepResult:
    tables: int  # the tables given hands in the step
    polling: int  # the tables whose phones hold polls: every table made so far
    load: Load
    seconds: float
    floor: float  # the app floor's requests a second
    cores: float = 0.0  # the server's CPU seconds a second over the step
    phones_cores: float = 0.0  # the bench's own (its phones' threads), likewise
    pg_cores: float | None = None  # PostgreSQL's, likewise (None: not measured)

    @property
    def per_table(self) -> float:
        """Requests a table sends a second (polls and records)."""
        return (self.load.requests + len(self.load.records)) / self.seconds / self.polling

    @property
    def bound(self) -> float:
        """The tables the app's floor would allow at this pattern."""
        return self.floor / self.per_table if self.per_table else 0.0

    @property
    def holds(self) -> bool:
        return (not self.load.errors and percentile(self.load.delays, 0.95) <= DELAY_P95_MS
                and percentile(self.load.records, 0.99) <= RECORD_P99_MS)


def run_step(tables: list[Table], seconds: float, load: list[Load]) -> Load:
    """Hands come at T/90 a second, rotating over the tables, for ``seconds``, while
    every phone holds its poll; what the phones and the records did meanwhile."""
    load[0] = step = Load()
    every = RECORD_SECONDS / len(tables)
    rotation = itertools.cycle(tables)
    began = time.monotonic()
    for k in range(int(seconds / every + 0.5)):
        wait = began + every / 2 + k * every - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        table = next(rotation)
        status, ms = table.record_or_fail()
        step.records.append(ms)
        step.timed.append((ms, table.recorder.timing if status else {}))
        step.errors += status == 0 or status >= 400
    time.sleep(max(0.0, began + seconds - time.monotonic()))
    load[0] = Load()  # what the phones do until the next step counts for no step
    return step


def idle_requests_an_hour(tables: list[Table], seconds: float) -> float:
    """Requests a phone sends an hour while nothing happens: from the time between two
    polls of each phone, over ``seconds`` with no hand."""
    since = time.monotonic()
    time.sleep(seconds)
    gaps = [b - a for table in tables for phone in table.phones
            for a, b in itertools.pairwise([t for t in phone.sent if t >= since])]
    return 3600 / statistics.mean(gaps) if gaps else 0.0


def servers_cpu(servers: list[tuple[subprocess.Popen, int]]) -> float:
    """The CPU seconds every server's processes have used."""
    return sum(tree_cpu_seconds(server.pid) for server, _ in servers)


def floor_rate(port: int, seconds: float = 3.0, clients: int = 8) -> float:
    """The app floor's requests a second (``/healthz``), as bench/throughput.py has it."""
    requests = [(lambda client: lambda: client.send("GET", "/healthz"))(served.Client(port))
                for _ in range(clients)]
    served.run_case(requests, clients, 1.0)  # each worker warmed up first
    return served.run_case(requests, clients, seconds)[0]


def report(result: StepResult) -> None:
    load = result.load
    print(f"{result.tables:6d} {result.polling:7d} {load.requests / result.seconds:7.0f} {result.per_table:9.3f} "
          f"{result.bound:7.0f} {len(load.records):8d} "
          f"{statistics.median(load.records) if load.records else 0:8.1f} "
          f"{percentile(load.records, 0.99):8.1f} {len(load.delays):7d} "
          f"{percentile(load.delays, 0.5):8.0f} {percentile(load.delays, 0.95):8.0f} "
          f"{result.cores:6.2f} {cores(result.pg_cores, 1):>6} {result.phones_cores:7.2f}  "
          f"{'holds' if result.holds else 'too slow'}"
          f"{f' ({load.errors} errors)' if load.errors else ''}", flush=True)
    if slow := slow_ones(load.timed):
        print(f"{'':6} records: {slow}", flush=True)


def ceiling(result: StepResult) -> None:
    """What the tables held make of the floor's bound, and the most tables this
    machine's every core could serve at the server's CPU a table in that step."""
    print(f"the app's floor would allow {result.bound:.0f} tables at the same pattern: "
          f"held {result.tables / result.bound:.0%} of it")
    if result.cores:
        cost = result.cores / result.polling * 1000  # the server's core-ms a table a second
        most = (os.cpu_count() or 1) / (cost / 1000)
        print(f"the server spent {cost:.2f} core-ms a table a second: all {os.cpu_count()} "
              f"cores, were the phones elsewhere, would serve at most {most:.0f} tables "
              f"({most / result.bound:.0%} of the floor's bound)")
    if result.cores and result.pg_cores is not None:
        database = result.pg_cores / result.polling * 1000
        most = (os.cpu_count() or 1) / ((cost + database) / 1000)
        print(f"PostgreSQL spent {database:.2f} core-ms a table a second beside it: both on "
              f"all {os.cpu_count()} cores would serve at most {most:.0f} tables")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--servers", type=int, default=1,
                        help="gunicorn servers on the one database, each with --workers")
    parser.add_argument("--start", type=int, default=10, help="tables in the first step")
    parser.add_argument("--grow", type=float, default=1.5, help="tables × this each step")
    parser.add_argument("--most", type=int, default=1000, help="stop here at the latest")
    parser.add_argument("--seconds", type=float, default=15, help="per step")
    parser.add_argument("--idle", type=float, default=55,
                        help="seconds the first tables are watched with no hand")
    parser.add_argument("--budget", type=float, default=170,
                        help="seconds of load at most, all steps together")
    parser.add_argument("--render-threads", type=int, default=None,
                        help="the app's RENDER_THREADS (0: pages drawn on the greenlets)")
    served.add_database_options(parser)
    args = parser.parse_args(argv)

    with (tempfile.TemporaryDirectory() as folder,
          fresh_database(args.database, Path(folder), "capacity.sqlite") as database):
        env = {"DATABASE_URL": database, "SECRET_KEY": "bench",
               "PYTHONPATH": f"{served.ROOT}{os.pathsep}{folder}"}
        cookies = served.members(database, ["scorer"] + ["viewer"] * (PHONES - 1))
        app = served.app_with(Path(folder), RENDER_THREADS=args.render_threads,
                              SERVER_TIMING=args.timing or None)
        servers = [served.start(app, served.ROOT, env, args.workers, "gevent")
                   for _ in range(args.servers)]
        ports = [port for _, port in servers]
        postgresql = DatabaseCpu(database, args.pg_data)
        tables: list[Table] = []
        load, running = [Load()], threading.Event()
        running.set()
        held = 0
        spent = 0.0
        kept: dict[int, StepResult] = {}  # tables held → that step
        print(f"gunicorn{f' × {args.servers}' if args.servers > 1 else ''}, "
              f"{args.workers} gevent workers, on 127.0.0.1, on "
              f"{'PostgreSQL' if on_postgresql(database) else 'SQLite'}; "
              f"{PHONES} phones a table holding their polls, a hand a table every "
              f"{RECORD_SECONDS:g} s; {args.seconds:g} s a step")
        try:
            floor = floor_rate(ports[0])  # the first server's: they share the cores
            print(f"app floor (/healthz): {floor:.0f} requests a second")
            count, too_many = args.start, 0

            def more_tables(count: int) -> None:
                # Made a few at a time: a game's page counts every game of the evening.
                with ThreadPoolExecutor(MAKERS) as makers:
                    made = makers.map(lambda number: new_table(ports, number, cookies),
                                      range(len(tables), count))
                    for table in made:
                        tables.append(table)
                        hold_polls(table, load, running)

            more_tables(count)
            print(f"idle, {count} tables for {args.idle:g} s: "
                  f"{idle_requests_an_hour(tables, args.idle):.0f} requests a phone an hour")
            print(f"{'tables':>6} {'polling':>7} {'req/s':>7} {'per table':>9} {'bound':>7} {'records':>8} "
                  f"{'rec p50':>8} {'rec p99':>8} {'changes':>7} {'to last':>8} {'p95':>8} "
                  f"{'cores':>6} {'pg':>6} {'phones':>7}  verdict (to last: ms from a record to "
                  f"its table's last phone)")

            def step(count: int) -> bool:
                nonlocal spent
                more_tables(count)
                started, cpu = time.monotonic(), servers_cpu(servers)
                own, database_cpu = time.process_time(), postgresql.seconds()
                step_load = run_step(tables[:count], args.seconds, load)
                took = time.monotonic() - started
                used = cpu_used(database_cpu, postgresql.seconds())
                # Every table made so far holds its polls: the pattern is theirs.
                result = StepResult(count, len(tables), step_load, took, floor,
                                    (servers_cpu(servers) - cpu) / took,
                                    (time.process_time() - own) / took,
                                    None if used is None else used / took)
                spent += took
                report(result)
                if result.holds:
                    kept[count] = result
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
            running.clear()
            for server, _ in servers:
                served.stop(server)
    print(f"holds {held} tables (record to the table's last phone p95 ≤ {DELAY_P95_MS:g} ms, "
          f"record p99 ≤ {RECORD_P99_MS:g} ms)")
    if held in kept:
        ceiling(kept[held])
    return 0


if __name__ == "__main__":
    sys.exit(main())
