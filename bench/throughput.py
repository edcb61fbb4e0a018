"""Throughput and latency under gunicorn, side by side with a bare Flask "hello".

    python bench/throughput.py                 # 2 workers, 8 clients, 3 rounds of 3 s
    python bench/throughput.py --seconds 5 --rounds 5 --clients 16
    python bench/throughput.py --database postgresql+psycopg://postgres@127.0.0.1:PORT/postgres

Starts, on 127.0.0.1, gunicorn with 2 workers serving (a) a tiny reference app whose one
route answers "hello" (the baseline) and (b) scorekeeper on a fresh SQLite file, or a
database of its own on the PostgreSQL server ``--database`` names (``bench/databases.py``).
Then, for each case, several client threads send requests back to back for a few seconds:

- the baseline "hello";
- the app's floor: its health check, through all its middleware with one "SELECT 1"
  (what no page of the app can cost less than);
- the game page of a game with 20 hands (as a member sees it);
- an unchanged live poll, asked not to wait (the 204 a held poll ends with, and what a
  poll woken by a change elsewhere costs before it finds it is not its own);
- recording a hand (each client in a game of its own, so none is refused, begun afresh
  each round);
- a table catching up: right after a hand is recorded, seven phones (each a member's
  own device) poll the game one after another, as a table's phones do within their 2
  seconds. It prints the total of those seven answers' times as a ratio to one
  render of the game part (the first phone's answer, median over the repeats) and to
  one game page rendered afresh: the later phones should get the first one's answer
  kept, so the total stays near one render (each app process renders once).

The cases take turns, a few seconds each, several rounds over, so that a machine
whose speed drifts during the run (other work, a CPU clocking up or down) weighs on
the baseline and the app alike. It prints each case's median requests per second over
the rounds, the median and 99th-percentile latency of all its requests, and its
throughput as a ratio to the baseline and to the app's floor; the cores the app server,
PostgreSQL (where it is the database, on this machine) and the bench's own clients used
during the case; and where the slowest records' time went (``bench/server_timing.py``:
pool wait, SQL, commit, render, the rest, the queue for a render thread, outside the
app). Nothing is asserted: numbers are measured.
"""
from __future__ import annotations

import argparse
import http.client
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from databases import DatabaseCpu, cores, cpu_used, fresh_database, tree_cpu_seconds  # noqa: E402
from server_timing import parts_of, slow_ones  # noqa: E402

HELLO_APP = '''
from flask import Flask
app = Flask(__name__)

@app.get("/")
def hello():
    return "hello"
'''
SEATS = {f"seat_{i}": name for i, name in enumerate("Ann Bob Cid Dan Eve Fay".split(), 1)}
PLAYED = {"calls": "3,pass,pass,pass,pass,pass", "trump": "hearts", "high": "A", "low": "B",
          "right": "C", "left": "A", "joker": "B", "game": "C"}
CSRF = re.compile(r'<meta name="csrf-token" content="([^"]+)"')
REVISION = re.compile(r'name="revision" value="(\d+)"')
TABLE = 7  # phones at a table catching up: six players' and a spare
POLL = re.compile(r'hx-get="([^"]*/live\?[^"]*)"')


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start(app_spec: str, cwd: Path, env: dict, workers: int, worker_class: str = "gthread",
          port: int | None = None) -> tuple[subprocess.Popen, int]:
    """gunicorn on ``port`` (else a free one): ``workers`` of 4 threads each, or of
    gevent's greenlets."""
    port = port or free_port()
    threads = ["--threads", "4"] if worker_class == "gthread" else ["--worker-connections", "10000"]
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{port}", "--workers",
         str(workers), *threads, "--worker-class", worker_class, "--log-level",
         "warning", app_spec],
        cwd=cwd, env={**os.environ, **env}, start_new_session=True)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/healthz" if "scorekeeper" in app_spec else "/")
            connection.getresponse().read()
            return process, port
        except OSError:
            time.sleep(0.1)
    stop(process)
    raise SystemExit(f"{app_spec} did not start")


def app_with(folder: Path, **settings) -> str:
    """gunicorn's name for the app made with ``settings`` over its own (a module written
    into ``folder``, which the server's PYTHONPATH must hold); a setting given as None is
    left as the app has it, and with none: the app as it is."""
    settings = {name: value for name, value in settings.items() if value is not None}
    if not settings:
        return "scorekeeper:create_app()"
    (folder / "configured_app.py").write_text(
        f"from scorekeeper import create_app\napp = create_app({settings!r})\n")
    return "configured_app:app"


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)


class Client:
    """One phone: a keep-alive connection, its cookies and its CSRF token; and where its
    last answer's time went, as the app said it (``timing``: {} unless it was asked to),
    and where it sent the phone (``location``)."""

    def __init__(self, port: int, cookies: dict[str, str] | None = None) -> None:
        self.port = port
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.cookies = dict(cookies or {})
        self.csrf = ""
        self.timing: dict[str, float] = {}
        self.location = ""

    def send(self, method: str, path: str, form: dict | None = None,
             headers: dict | None = None) -> tuple[int, str]:
        all_headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()),
                       **(headers or {})}
        body = None
        if form is not None:
            body = urlencode(form)
            all_headers.update({"Content-Type": "application/x-www-form-urlencoded",
                                "X-CSRFToken": self.csrf})
        try:
            self.connection.request(method, path, body=body, headers=all_headers)
            response = self.connection.getresponse()
        except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
            # The server closed an idle keep-alive connection: open another, once.
            self.connection.close()
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            self.connection.request(method, path, body=body, headers=all_headers)
            response = self.connection.getresponse()
        text = response.read().decode("utf-8", "replace")
        self.timing = parts_of(response.headers.get("Server-Timing", ""))
        self.location = response.headers.get("Location", "")
        for header in response.headers.get_all("Set-Cookie") or []:
            name, _, value = header.split(";", 1)[0].partition("=")
            self.cookies[name.strip()] = value
        token = CSRF.search(text)
        if token:
            self.csrf = token.group(1)
        return response.status, text


def members(database: str, roles: list[str]) -> list[str]:
    """A member of the database's first club for each of ``roles`` ("scorer", "viewer"):
    their devices' cookies, in that order."""
    from sqlmodel import Session

    from scorekeeper import create_app
    from scorekeeper.clubs.membership import add_member
    from seed import first_club  # bench/seed.py

    app = create_app({"DATABASE_URL": database, "SECRET_KEY": "bench"})
    with app.test_request_context(), Session(app.extensions["db_engine"]) as session:
        club = first_club(session)
        cookies = [add_member(session, club.id, f"{role.title()} {i}", role, "Bench")[1]
                   for i, role in enumerate(roles, 1)]
    app.extensions["db_engine"].dispose()
    return cookies


def new_game(client: Client, hands: int) -> str:
    client.send("GET", "/games/new")
    status, _ = client.send("POST", "/games/new", {**SEATS, "teams": "3x2", "target": "999",
                                                   "first_dealer": "1"})
    assert status == 303, status
    game = re.search(r"/games/(\d+)$", client.location).group(1)  # its own, made beside others
    for number in range(1, hands + 1):
        record(client, game, number)
    return game


# The revision each phone's page shows, (phone, game) -> revision: from the last answer,
# as the page itself knows it, so a record costs no page load of its own.
_shown: dict[tuple[int, str], str] = {}


def shown_revision(client: Client, game: str) -> str:
    """The revision the phone's page of ``game`` shows: loaded with the page once."""
    key = (id(client), game)
    if key not in _shown:
        _, page = client.send("GET", f"/games/{game}")
        _shown[key] = REVISION.search(page).group(1)
    return _shown[key]


def record(client: Client, game: str, number: int) -> tuple[int, float]:
    """Record the next hand as the phone showing the game does: with the revision its page
    shows, and saying so (the answer may then be just what the hand changed). Returns
    the status and the ms of the POST alone."""
    key, shown = (id(client), game), shown_revision(client, game)
    started = time.perf_counter()
    status, answer = client.send("POST", f"/games/{game}/hands",
                                 {"number": number, "revision": shown, **PLAYED},
                                 {"HX-Request": "true", "HX-Target": "game",
                                  "X-Scorekeeper-Shows": shown})
    elapsed = (time.perf_counter() - started) * 1000
    found = REVISION.search(answer)
    if found:
        _shown[key] = found.group(1)
    else:
        _shown.pop(key, None)  # the next one loads the page
    return status, elapsed


def timed(send) -> float:
    started = time.perf_counter()
    send()
    return (time.perf_counter() - started) * 1000


def catching_up(recorder: Client, phones: list[Client], game: str, repeats: int,
                first: int) -> tuple[float, float, float]:
    """(median total ms of the seven answers, median ms of the first phone's answer,
    median ms of one game page rendered afresh) over ``repeats`` hands of ``game``."""
    totals, firsts, pages = [], [], []
    for number in range(first, first + repeats):
        _, page = recorder.send("GET", f"/games/{game}")
        old = POLL.search(page).group(1).replace("&amp;", "&")
        # A page rendered afresh: the recorder's own, just after its own step (unkept).
        revision = REVISION.search(page).group(1)
        pages.append(timed(lambda: recorder.send(
            "GET", f"/games/{game}?number={number}&revision={revision}")))
        assert record(recorder, game, number)[0] < 400
        each = []
        for phone in phones:
            status = []
            each.append(timed(lambda: status.append(phone.send(
                "GET", old, headers={"HX-Request": "true", "HX-Target": "game"})[0])))
            assert status == [200], status
        totals.append(sum(each))
        firsts.append(each[0])
    return statistics.median(totals), statistics.median(firsts), statistics.median(pages)


def run_case(request_of, clients: int, seconds: float) -> tuple[float, list[float]]:
    """(requests per second, each request's ms) of ``request_of[i]()`` in client threads."""
    latencies: list[list[float]] = [[] for _ in range(clients)]
    stop_at = time.monotonic() + seconds

    def loop(index: int) -> None:
        request = request_of[index]
        while time.monotonic() < stop_at:
            started = time.perf_counter()
            request()
            latencies[index].append((time.perf_counter() - started) * 1000)

    threads = [threading.Thread(target=loop, args=(i,)) for i in range(clients)]
    began = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - began
    flat = [ms for per in latencies for ms in per]
    return len(flat) / elapsed, flat


def run_rounds(cases, clients: int, seconds: float, rounds: int, before_round=None,
               meters=None):
    """Each case ``seconds`` at a time, in turn, ``rounds`` times over: a machine that
    speeds up or slows down during the run weighs on every case alike. Per case: the
    median of its rounds' requests per second, the median and 99th-percentile latency
    of all its requests, and the cores each of ``meters`` (a side's name -> its CPU
    seconds so far, or None) used during the case, in that order."""
    meters = meters or {}
    requests = {name: [make(i) for i in range(clients)] for name, make in cases}
    rates: dict[str, list[float]] = {name: [] for name, _ in cases}
    latencies: dict[str, list[float]] = {name: [] for name, _ in cases}
    used: dict[str, dict] = {name: dict.fromkeys(meters, 0.0) for name, _ in cases}
    took = dict.fromkeys(rates, 0.0)
    for _ in range(rounds):
        if before_round is not None:
            before_round()
        for name, _ in cases:
            before, began = {side: read() for side, read in meters.items()}, time.monotonic()
            rate, each = run_case(requests[name], clients, seconds)
            took[name] += time.monotonic() - began
            for side, read in meters.items():
                more, so_far = cpu_used(before[side], read()), used[name][side]
                used[name][side] = None if more is None or so_far is None else so_far + more
            rates[name].append(rate)
            latencies[name].extend(each)
    rows = []
    for name, _ in cases:
        flat = sorted(latencies[name])
        p99 = flat[min(len(flat) - 1, int(len(flat) * 0.99))]
        rows.append((name, statistics.median(rates[name]), statistics.median(flat), p99,
                     [cores(used[name][side], took[name]) for side in meters]))
    return rows


CORES_HEADING = f"{'server':>6} {'pg':>6} {'bench':>6}"  # cores, as ``cpu_meters`` reads them


def add_database_options(parser: argparse.ArgumentParser) -> None:
    """The options both benches take: the database, and what is measured of it."""
    parser.add_argument("--database", default=None,
                        help="a PostgreSQL server's URL (a database of the bench's own is "
                             "made on it and dropped), or a SQLite file's; default: a SQLite "
                             "file in a temporary folder")
    parser.add_argument("--pg-data", default=None,
                        help="the PostgreSQL cluster's data folder, to find its postmaster "
                             "(else: a backend's parent)")
    parser.add_argument("--timing", action=argparse.BooleanOptionalAction, default=True,
                        help="the app says where each answer's time went (SERVER_TIMING)")


def cpu_meters(server_pid: int, database: str, pg_data: str | None) -> dict:
    """The CPU seconds so far of the app server, of PostgreSQL (None: not measured) and
    of the bench itself (its clients' threads): the sides ``CORES_HEADING`` names."""
    return {"server": lambda: tree_cpu_seconds(server_pid),
            "pg": DatabaseCpu(database, pg_data).seconds,
            "bench": time.process_time}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=3, help="per case and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=15, help="hands a table catches up on")
    add_database_options(parser)
    args = parser.parse_args(argv)

    from scorekeeper import create_app
    from scorekeeper.clubs.access import COOKIE
    from scorekeeper.clubs.membership import add_member
    from sqlmodel import Session

    from seed import first_club  # bench/seed.py

    with (tempfile.TemporaryDirectory() as folder,
          fresh_database(args.database, Path(folder), "bench.sqlite") as database):
        folder_path = Path(folder)
        (folder_path / "hello.py").write_text(HELLO_APP)
        env = {"DATABASE_URL": database, "SECRET_KEY": "bench",
               "PYTHONPATH": f"{ROOT}{os.pathsep}{folder}"}
        app = create_app({"DATABASE_URL": database, "SECRET_KEY": "bench"})
        with app.test_request_context(), Session(app.extensions["db_engine"]) as session:
            club = first_club(session)
            cookies = [add_member(session, club.id, f"Scorer {i}", "scorer", "Bench")[1]
                       for i in range(max(args.clients, TABLE) + 1)]
        app.extensions["db_engine"].dispose()
        hello, hello_port = start("hello:app", folder_path, {}, args.workers)
        keeper, port = start(app_with(folder_path, SERVER_TIMING=args.timing or None), ROOT,
                             env, args.workers)
        meters = cpu_meters(keeper.pid, database, args.pg_data)
        try:
            setup = Client(port, {COOKIE: cookies[-1]})
            game = new_game(setup, 20)
            _, page = setup.send("GET", f"/games/{game}")
            poll = POLL.search(page).group(1).replace("&amp;", "&").replace("&wait=1", "")
            phones = [Client(port, {COOKIE: cookie}) for cookie in cookies[:args.clients]]
            for phone in phones:
                phone.send("GET", f"/games/{game}")  # session and token, as a phone has
            own_games = [""] * args.clients
            next_number = [1] * args.clients

            def fresh_games() -> None:
                # Each round records into new games, so every round's hands are alike
                # (a game's pages grow with its hands).
                own_games[:] = [new_game(phone, 0) for phone in phones]
                next_number[:] = [1] * args.clients

            def hello_request(index):
                client = Client(hello_port)
                return lambda: client.send("GET", "/")

            def page_request(index):
                return lambda: phones[index].send("GET", f"/games/{game}")

            def poll_request(index):
                return lambda: phones[index].send("GET", poll, headers={"HX-Request": "true"})

            recorded: list[tuple[float, dict]] = []  # each record's ms, and its parts

            def record_request(index):
                def one():
                    _, ms = record(phones[index], own_games[index], next_number[index])
                    recorded.append((ms, phones[index].timing))
                    next_number[index] += 1
                return one

            def floor_request(index):
                # The app's own cheapest answer: its middleware and one "SELECT 1", no
                # member, no game. What any page of the app costs at the least.
                return lambda: phones[index].send("GET", "/healthz")

            cases = [("hello (baseline)", hello_request),
                     ("app floor: /healthz", floor_request),
                     ("game page, 20 hands", page_request),
                     ("live poll, unchanged", poll_request),
                     ("record a hand", record_request)]
            rows = run_rounds(cases, args.clients, args.seconds, args.rounds, fresh_games,
                              meters)
            # A table of its own: a game of 20 hands, seven members' phones on it.
            table = [Client(port, {COOKIE: cookie}) for cookie in cookies[:TABLE]]
            table_game = new_game(setup, 20)
            for phone in table:
                phone.send("GET", f"/games/{table_game}")
            total, one, page_ms = catching_up(setup, table, table_game, args.repeats, 21)
        finally:
            stop(keeper)
            stop(hello)
    baseline, floor = rows[0][1], rows[1][1]
    print(f"gunicorn, {args.workers} workers x 4 threads, {args.clients} clients, "
          f"{args.rounds} rounds of {args.seconds:g} s per case, in turn, on 127.0.0.1")
    print(f"{'case':<28} {'req/s':>8} {'median ms':>10} {'p99 ms':>8} {'vs hello':>9} "
          f"{'vs floor':>9}  {CORES_HEADING}")
    for name, rate, median, p99, used in rows:
        print(f"{name:<28} {rate:8.0f} {median:10.1f} {p99:8.1f} {rate / baseline:8.2f}× "
              f"{rate / floor:8.2f}×  " + " ".join(f"{each:>6}" for each in used))
    if slow := slow_ones(recorded):
        print(f"record a hand, {slow}")
    print(f"a table catching up: {TABLE} phones' answers {total:.1f} ms in all (median of "
          f"{args.repeats} hands); one render of the game part {one:.1f} ms: "
          f"{total / one:.2f}×; one game page afresh {page_ms:.1f} ms: {total / page_ms:.2f}×")
    return 0


if __name__ == "__main__":
    sys.exit(main())
