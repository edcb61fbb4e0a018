"""Scorers on several phones tapping at the same moment, against a real server.

tests/test_concurrency.py races threads through the Flask test client in one process.
Here the app runs as it does in production: gunicorn with two worker processes of
several threads each, on one SQLite file. Every scorer is a plain HTTP client with
its own device cookie, session and CSRF token; each round they all load the game page,
wait for one another, then tap Record (or Undo) at once. Exactly one change must be
kept every time, the others refused with 409 and told who got there first, and no
request may end in a server error.
"""
from __future__ import annotations

import http.client
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

import pytest
from sqlmodel import Session, select

from scorekeeper import create_app
from scorekeeper.clubs.access import COOKIE
from scorekeeper.store.models import Game, GameChange, Hand
from scorekeeper.store.replay import load_replay
from tests.databases import database_url as fresh_database
from tests.members import member_cookie
from tests.new_games import new_game_form
from tests.patience import until
from tests.views.view_helpers import parse

ROOT = Path(__file__).resolve().parent.parent
WORKERS, THREADS = 2, 4
SCORERS = ("Anna", "Ben", "Carla", "Dirk")  # one phone each, all tapping at once
RACES = 25  # hands recorded by every scorer at the same moment
MIXED = 10  # rounds of two scorers recording the next hand while two undo the last
PLAYED = {"trump": "hearts", "high": "A", "low": "B", "right": "C", "left": "A",
          "joker": "B", "game": "C"}
BID_3 = "3,pass,pass,pass,pass,pass"
ACCEPTED = {200, 204, 303, 409}  # a page, "unchanged", a change kept or refused: nothing else

CSRF_META = re.compile(r'<meta name="csrf-token" content="([^"]+)"')
REVISION = re.compile(r'name="revision" value="(\d+)"')


# -- the server ---------------------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class Server:
    process: subprocess.Popen
    port: int
    log: Path
    access_log: Path
    held: Path | None = None  # where it tells the polls it holds (tests/watched_server.py)

    def log_tail(self, lines: int = 40) -> str:
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        return "\n".join(text.splitlines()[-lines:])

    def held_polls(self) -> int:
        """How many polls its workers have begun to hold (tests/watched_server.py)."""
        return sum(1 for _ in self.held.iterdir())

    def ended_polls(self) -> list[str]:
        """How each poll its workers held ended: "woken" or "timed-out"."""
        ended = self.held.parent / "ended"
        return sorted(path.name.rsplit("-", 1)[0] for path in ended.iterdir())

    def worker_pids(self, method: str = "POST") -> set[str]:
        """The worker processes that answered requests of ``method``."""
        if not self.access_log.exists():
            return set()
        return {line.split()[0] for line in self.access_log.read_text().splitlines()
                if f" {method} " in line}

    def stop(self) -> None:
        if self.process.poll() is not None:
            return
        # Quick shutdown: the test is over, so no held poll or open connection is waited
        # for (SIGTERM's graceful stop waited up to its 5 s for them, at every test).
        self.process.send_signal(signal.SIGQUIT)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)  # its own group: workers too
            self.process.wait(timeout=10)


def _gunicorn_flags() -> list[str]:
    try:
        from gunicorn.config import Config
    except ImportError:
        Config = None
    if Config is None:
        pytest.fail("gunicorn is not installed, so the multi-worker test cannot run: "
                    "install the test extra (pip install -e '.[test]')", pytrace=False)
    # Newer gunicorns open a control socket in the home folder; this server needs none.
    return ["--no-control-socket"] if "control_socket" in Config().settings else []


def _start_server(tmp_path: Path, database_url: str, secret_key: str,
                  worker_class: str = "gthread", *, workers: int = WORKERS,
                  app_spec: str = "scorekeeper:create_app()", env: dict | None = None) -> Server:
    """gunicorn serving the app (or ``app_spec``, found on ``env``'s PYTHONPATH too)."""
    flags = _gunicorn_flags()
    port = _free_port()
    log, access_log = tmp_path / "server.log", tmp_path / "access.log"
    no_config = tmp_path / "gunicorn.conf.py"  # not a gunicorn.conf.py of the project's
    no_config.write_text("")
    env = {**os.environ, "DATABASE_URL": database_url, "SECRET_KEY": secret_key,
           "PYTHONUNBUFFERED": "1", **(env or {})}
    for name in ("GUNICORN_CMD_ARGS", "SCOREKEEPER_BEHIND_PROXY"):
        env.pop(name, None)
    command = [
        sys.executable, "-m", "gunicorn", "--config", str(no_config),
        "--bind", f"127.0.0.1:{port}", "--workers", str(workers), "--worker-class", worker_class,
        *(["--threads", str(THREADS)] if worker_class == "gthread" else []),
        "--timeout", "30", "--graceful-timeout", "5",
        "--access-logfile", str(access_log), "--access-logformat", "%(p)s %(r)s %(s)s",
        *flags, app_spec,
    ]
    with log.open("wb") as out:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out,
                                   stderr=subprocess.STDOUT, start_new_session=True)
    server = Server(process, port, log, access_log)
    deadline = time.monotonic() + 30
    while True:
        if process.poll() is not None:
            pytest.fail(f"gunicorn exited with {process.returncode} on start:\n"
                        f"{server.log_tail()}", pytrace=False)
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("GET", "/")
            connection.getresponse().read()
            connection.close()
            return server
        except OSError:
            if time.monotonic() > deadline:
                server.stop()
                pytest.fail(f"gunicorn did not answer within 30 s:\n{server.log_tail()}",
                            pytrace=False)
            time.sleep(0.1)


# -- the phones ----------------------------------------------------------------------

@dataclass
class Reply:
    status: int  # 0: no HTTP answer at all (connection refused, reset, timed out)
    body: str
    location: str = ""


@dataclass
class Tally:
    """Every answer the server gave, counted across threads."""

    statuses: Counter = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, method: str, path: str, reply: Reply) -> None:
        with self.lock:
            self.statuses[reply.status] += 1
            if reply.status not in ACCEPTED:
                self.errors.append(f"{method} {path}: {reply.status} {reply.body[:300]!r}")

    @property
    def sent(self) -> int:
        return sum(self.statuses.values())


class Phone:
    """One scorer's browser: its cookies (device and session) and its CSRF token."""

    def __init__(self, name: str, device: str, port: int, tally: Tally) -> None:
        self.name, self.port, self.tally = name, port, tally
        self.cookies = {COOKIE: device}
        self.csrf = ""

    def get(self, path: str, headers: dict | None = None) -> Reply:
        return self._send("GET", path, headers=headers)

    def post(self, path: str, form: dict) -> Reply:
        return self._send("POST", path, form)

    def _send(self, method: str, path: str, form: dict | None = None,
              headers: dict | None = None) -> Reply:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()),
                   **(headers or {})}
        body = None
        if form is not None:
            body = urlencode(form)
            headers.update({"Content-Type": "application/x-www-form-urlencoded",
                            "X-CSRFToken": self.csrf})
        try:
            connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            try:
                connection.request(method, path, body=body, headers=headers)
                response = connection.getresponse()
                reply = Reply(response.status, response.read().decode("utf-8", "replace"),
                              response.getheader("Location", ""))
                cookies = response.headers.get_all("Set-Cookie") or []
            finally:
                connection.close()
        except (OSError, http.client.HTTPException) as error:
            reply, cookies = Reply(0, f"{type(error).__name__}: {error}"), []
        for header in cookies:
            name, _, value = header.split(";", 1)[0].strip().partition("=")
            self.cookies[name] = value
        token = CSRF_META.search(reply.body)
        if token:
            self.csrf = token.group(1)
        self.tally.add(method, path, reply)
        return reply


def all_at_once(phones: list[Phone], game_url: str, tap) -> list[Reply]:
    """Each phone loads the game page (or any page with a form), then all tap together.

    ``tap(index, phone, revision)`` sends the phone's change, with the game's revision
    as its page showed it (None for a page that shows none).
    """
    barrier = threading.Barrier(len(phones))

    def run(index: int) -> Reply:
        phone = phones[index]
        page = phone.get(game_url)
        revision = REVISION.search(page.body)
        if page.status != 200 or ("/games/" in game_url and revision is None):
            barrier.abort()
            return page
        barrier.wait(timeout=30)
        return tap(index, phone, revision.group(1) if revision else None)

    with ThreadPoolExecutor(len(phones)) as pool:
        return list(pool.map(run, range(len(phones))))


def _each_at_once(phones: list[Phone], urls: list[str], tap) -> list[Reply]:
    """As ``all_at_once``, each phone loading a page of its own first."""
    barrier = threading.Barrier(len(phones))

    def run(index: int) -> Reply:
        page = phones[index].get(urls[index])
        barrier.wait(timeout=30)
        return tap(index, phones[index], REVISION.search(page.body).group(1))

    with ThreadPoolExecutor(len(phones)) as pool:
        return list(pool.map(run, range(len(phones))))


# -- the database, read directly --------------------------------------------------

def live_numbers(engine, game_id: int) -> list[int]:
    with Session(engine) as session:
        return list(session.exec(
            select(Hand.number).where(Hand.game_id == game_id, Hand.undone_at.is_(None))
            .order_by(Hand.number)))


def change_count(engine, game_id: int, kind: str) -> int:
    with Session(engine) as session:
        return len(session.exec(select(GameChange.id).where(
            GameChange.game_id == game_id, GameChange.kind == kind)).all())


# -- the test ------------------------------------------------------------------------

@pytest.fixture
def club(tmp_path):
    """A club on a SQLite file with one scorer per phone, and gunicorn serving it.

    The app made here brings the file's schema up to date and adds the members before
    the server starts, so its workers find the database ready.
    """
    database_url = fresh_database(f"sqlite:///{tmp_path / 'club.sqlite'}")
    secret_key = "multi-worker-test"
    app = create_app({"DATABASE_URL": database_url, "SECRET_KEY": secret_key})
    devices = {name: member_cookie(app, "scorer", name) for name in SCORERS}
    server = _start_server(tmp_path, database_url, secret_key)
    try:
        yield app.extensions["db_engine"], server, devices
    finally:
        server.stop()
        app.extensions["db_engine"].dispose()


def test_scorers_on_two_workers_tapping_at_once_keep_one_change_each_time(club):
    started = time.monotonic()
    engine, server, devices = club
    tally = Tally()
    phones = [Phone(name, devices[name], server.port, tally) for name in SCORERS]

    def fail(message: str):
        pytest.fail(f"{message}\n--- server log ---\n{server.log_tail()}", pytrace=False)

    # Anna starts a game to 999 points, so it never ends during the rounds.
    anna = phones[0]
    assert anna.get("/games/new").status == 200 and anna.csrf, "no CSRF token in the page"
    started_game = anna.post("/games/new", new_game_form(target="999"))
    if started_game.status != 303:
        fail(f"starting the game: {started_game.status} {started_game.body[:300]}")
    game = int(started_game.location.rsplit("/", 1)[1])
    game_url, hands_url = f"/games/{game}", f"/games/{game}/hands"
    recorded = 0  # record posts the server said it kept (303)
    kept = 0  # live hands there should be, by what the server said it did

    def hand(number: int, revision: str) -> dict:
        return {"number": number, "revision": revision, "calls": BID_3, **PLAYED}

    # 1. Every scorer records the same hand at the same moment.
    for number in range(1, RACES + 1):
        replies = all_at_once(phones, game_url, lambda i, phone, revision:
                              phone.post(hands_url, hand(number, revision)))
        statuses = [r.status for r in replies]
        if sorted(statuses) != [303] + [409] * (len(phones) - 1):
            fail(f"hand {number}: statuses {statuses}, wanted one 303 and the rest 409")
        recorded, kept = recorded + 1, kept + 1
        winner = phones[statuses.index(303)].name
        for reply in replies:
            said = parse(reply.body).text() if reply.status == 409 else ""
            if reply.status == 409 and f"Hand {number} was already recorded by {winner}" not in said:
                fail(f"hand {number}: a refusal does not name {winner}:\n{reply.body[:2000]}")
        if live_numbers(engine, game) != list(range(1, number + 1)):
            fail(f"after hand {number}: hands {live_numbers(engine, game)}")

    # 2. Two scorers record the next hand while the other two undo the last one.
    for round_ in range(1, MIXED + 1):
        while len(live_numbers(engine, game)) < 2:  # the undo needs a hand to take back
            page = anna.get(game_url)
            following = len(live_numbers(engine, game)) + 1
            refill = anna.post(hands_url, hand(following, REVISION.search(page.body).group(1)))
            if refill.status != 303:
                fail(f"recording hand {following} alone: {refill.status}")
            recorded, kept = recorded + 1, kept + 1
        before = live_numbers(engine, game)
        last, following = before[-1], before[-1] + 1

        def tap(index: int, phone: Phone, revision: str) -> Reply:
            if index % 2 == 0:
                return phone.post(hands_url, hand(following, revision))
            return phone.post(f"{hands_url}/undo", {"number": last, "revision": revision})

        statuses = [r.status for r in all_at_once(phones, game_url, tap)]
        records, undos = statuses[0::2], statuses[1::2]
        after = live_numbers(engine, game)
        if after == before + [following]:  # the record won: the undos were refused
            ok = sorted(records) == [303] + [409] * (len(records) - 1) and set(undos) == {409}
            recorded, kept = recorded + 1, kept + 1
        elif after == before[:-1]:  # the undo won: a second undo is told it's done already
            ok = set(records) == {409} and set(undos) == {303}
            kept -= 1
        else:
            fail(f"round {round_}: hands {before} became {after}")
        if not ok:
            fail(f"round {round_}: records {records}, undos {undos}, hands {before} -> {after}")

    # The database: hands 1..n, each once, a change logged for every 303, and it replays.
    numbers = live_numbers(engine, game)
    with Session(engine) as session:
        load_replay(session, session.get(Game, game))
    post_workers = server.worker_pids("POST")
    elapsed = time.monotonic() - started
    print(f"\nmulti-worker: {tally.sent} requests, {WORKERS} workers x {THREADS} threads "
          f"({len(post_workers)} took posts), {len(phones)} scorers, "
          f"{RACES}+{MIXED} rounds, {tally.statuses[409]} refused (409), "
          f"{len(tally.errors)} errors, {elapsed:.1f} s")
    assert numbers == list(range(1, len(numbers) + 1)), numbers
    assert len(numbers) == len(set(numbers)) == kept, (numbers, kept)
    assert change_count(engine, game, "recorded") == recorded
    assert not tally.errors, "\n".join(tally.errors[:10]) + "\n" + server.log_tail()
    assert set(tally.statuses) <= ACCEPTED, tally.statuses
    assert server.process.poll() is None, "the server died during the test"


def test_one_entry_sent_again_at_once_on_two_workers_is_one_hand(club):
    """A phone whose answers are lost sends the same entry again and again (its key the
    same each time), some copies at the very same moment: one hand, and every copy is
    told it was recorded, none that another phone got there first."""
    engine, server, devices = club
    tally = Tally()
    name = SCORERS[0]
    copies = [Phone(name, devices[name], server.port, tally) for _ in range(6)]
    anna = copies[0]
    assert anna.get("/games/new").status == 200
    game = int(anna.post("/games/new", new_game_form(target="999")).location.rsplit("/", 1)[1])
    for number in range(1, 6):
        key = f"entry-{number}-{'x' * 24}"

        def send(index: int, phone: Phone, revision: str) -> Reply:
            return phone.post(f"/games/{game}/hands", {
                "number": number, "revision": revision, "calls": BID_3, **PLAYED,
                "entry_key": key})

        replies = all_at_once(copies, f"/games/{game}", send)
        assert [r.status for r in replies] == [303] * len(copies), \
            [(r.status, r.body[:300]) for r in replies]
        assert live_numbers(engine, game) == list(range(1, number + 1))
        # Later still, once more (the phone back online): told so, nothing written.
        again = anna.post(f"/games/{game}/hands", {
            "number": number, "revision": "0", "calls": BID_3, **PLAYED, "entry_key": key})
        assert again.status == 303
        assert live_numbers(engine, game) == list(range(1, number + 1))
    assert change_count(engine, game, "recorded") == 5
    assert not tally.errors, "\n".join(tally.errors[:10]) + "\n" + server.log_tail()


@pytest.fixture
def two_servers(tmp_path):
    """Two app servers (gunicorn each, with gevent workers as in production) on different
    ports, sharing one database; each tells the polls it holds (tests/watched_server.py)."""
    database_url = fresh_database(f"sqlite:///{tmp_path / 'shared.sqlite'}")
    secret_key = "two-servers-test"
    app = create_app({"DATABASE_URL": database_url, "SECRET_KEY": secret_key})
    devices = {"scorer": member_cookie(app, "scorer", "Sam"),
               "viewer": member_cookie(app, "viewer", "Vera")}
    servers = []
    try:
        for name in ("first", "second"):
            folder = tmp_path / name
            held = folder / "held"
            held.mkdir(parents=True)
            (folder / "ended").mkdir()
            servers.append(_start_server(folder, database_url, secret_key, "gevent",
                                         app_spec="tests.watched_server:app",
                                         env={"HELD_POLLS": str(held)}))
            servers[-1].held = held
        yield *servers, devices
    finally:
        for server in servers:
            server.stop()
        app.extensions["db_engine"].dispose()


def test_two_app_servers_sharing_a_database_behave_as_one(two_servers):
    """A hand recorded through one server is read, and polled live, through the other:
    no state is kept in a process."""
    first, second, devices = two_servers
    tally = Tally()
    sam = Phone("Sam", devices["scorer"], first.port, tally)
    vera = Phone("Vera", devices["viewer"], second.port, tally)
    assert sam.get("/games/new").status == 200
    game_url = sam.post("/games/new", new_game_form()).location
    game_path = "/" + game_url.split("/", 3)[-1] if game_url.startswith("http") else game_url
    page = vera.get(game_path)
    assert page.status == 200
    poll = poll_of(page.body).replace("&wait=1", "")  # asked at once, never held
    assert vera.get(poll).status == 204  # nothing changed yet

    revision = REVISION.search(sam.get(game_path).body).group(1)
    recorded = sam.post(f"{game_path}/hands", {"number": 1, "revision": revision,
                                              "calls": BID_3, **PLAYED})
    assert recorded.status == 303

    live = vera.get(poll)  # the other server, the other process: the change is there
    assert live.status == 200
    # Who recorded it, without the device: device names are for owners only.
    assert "Sam</bdi>: recorded hand 1" in live.body and "Sam (" not in live.body
    assert 'aria-label="Team A: ' in live.body
    read = vera.get(game_path).body
    assert "Hand 2" in read

    # The answer a server keeps for the next phone is never one it kept before the
    # other server's change: hand 2, recorded through the first, is in the second's.
    htmx = {"HX-Request": "true", "HX-Target": "game"}
    assert "recorded hand 1" in vera.get(poll, htmx).body  # kept by the second server
    revision = REVISION.search(sam.get(game_path).body).group(1)
    assert sam.post(f"{game_path}/hands", {"number": 2, "revision": revision,
                                           "calls": BID_3, **PLAYED}).status == 303
    for _ in range(2):
        live = vera.get(poll, htmx)
        assert live.status == 200 and "recorded hand 2" in live.body
    assert tally.errors == []


def poll_of(page: str) -> str:
    """The address a page polls (held: ``wait=1``)."""
    return re.search(r'hx-get="([^"]*/live\?[^"]*)"', page).group(1).replace("&amp;", "&")


def test_a_poll_held_by_one_server_is_answered_at_a_change_made_through_another(two_servers):
    """Vera's phone waits on the second server; Sam records through the first: her poll
    is answered at the change, not at the end of its 25 s (long before it, however slow
    and busy the machine; on a quiet one within a second)."""
    first, second, devices = two_servers
    tally = Tally()
    sam = Phone("Sam", devices["scorer"], first.port, tally)
    vera = Phone("Vera", devices["viewer"], second.port, tally)
    assert sam.get("/games/new").status == 200
    game_path = "/games/" + sam.post("/games/new", new_game_form()).location.rsplit("/", 1)[1]
    polls = [poll_of(vera.get(game_path).body) for _ in range(3)]
    with ThreadPoolExecutor(len(polls)) as pool:
        held = [pool.submit(vera.get, url) for url in polls]
        until(lambda: second.held_polls() >= len(polls))
        assert not any(answer.done() for answer in held)
        revision = REVISION.search(sam.get(game_path).body).group(1)
        assert sam.post(f"{game_path}/hands", {"number": 1, "revision": revision,
                                               "calls": BID_3, **PLAYED}).status == 303
        for answer in held:
            reply = answer.result()
            assert reply.status == 200 and "recorded hand 1" in reply.body
    # Each woken by the hand the other server recorded, none answered as its time ran out.
    assert second.ended_polls() == ["woken"] * len(polls)
    assert tally.errors == []


# A page being drawn holds its process's interpreter: here one draws until told to stop.
DRAWING_APP = """
import os, time
from pathlib import Path

from scorekeeper import create_app
from scorekeeper.web.allow import Allow, allow

app = create_app()


@app.get("/drawing")
@allow(Allow.PUBLIC)
def drawing():
    Path(os.environ["DRAWING_BEGUN"]).touch()
    drawn, deadline = Path(os.environ["DRAWING_DONE"]), time.monotonic() + 120
    while not drawn.exists() and time.monotonic() < deadline:
        sum(range(10_000))  # busy, as a render is: it waits for nothing
    return "drawn"
"""


def test_a_poll_and_a_record_are_answered_while_their_worker_draws_a_page(tmp_path):
    """One gevent worker: a page being drawn (for as long as the test wants) leaves a
    phone's poll answered meanwhile, not after it, and a hand recorded: a record has a
    render thread of its own (scorekeeper/web/aside.py)."""
    database_url = fresh_database(f"sqlite:///{tmp_path / 'drawing.sqlite'}")
    app = create_app({"DATABASE_URL": database_url, "SECRET_KEY": "drawing"})
    devices = {role: member_cookie(app, role, name)
               for role, name in (("scorer", "Sam"), ("viewer", "Vera"), ("viewer", "Viv"))}
    app.extensions["db_engine"].dispose()
    (tmp_path / "drawing_app.py").write_text(DRAWING_APP)
    begun, done = tmp_path / "begun", tmp_path / "done"
    server = _start_server(tmp_path, database_url, "drawing", "gevent", workers=1,
                           app_spec="drawing_app:app",
                           env={"PYTHONPATH": f"{tmp_path}{os.pathsep}{ROOT}",
                                "DRAWING_BEGUN": str(begun), "DRAWING_DONE": str(done)})
    tally = Tally()
    try:
        sam = Phone("Sam", devices["scorer"], server.port, tally)
        vera = Phone("Vera", devices["viewer"], server.port, tally)
        assert sam.get("/games/new").status == 200
        game_path = "/games/" + sam.post("/games/new", new_game_form()).location.rsplit("/", 1)[1]
        poll = poll_of(vera.get(game_path).body).replace("&wait=1", "")  # "anything new?"
        with ThreadPoolExecutor(2) as pool:
            drawing = pool.submit(Phone("Viv", devices["viewer"], server.port, tally).get,
                                  "/drawing")
            until(begun.exists)
            answer = vera.get(poll)
            recording = pool.submit(sam.post, f"{game_path}/hands",
                                    {"number": 1, "calls": BID_3, **PLAYED})
            recorded = recording.result()  # the phone gives up after 30 s
            still_drawing = not drawing.done()
            done.touch()
            assert answer.status == 204 and still_drawing, (answer.status, server.log_tail())
            assert recorded.status == 303, recorded.body[:300]
            assert drawing.result(timeout=30).body == "drawn"
    finally:
        done.touch()
        server.stop()
    assert tally.errors == []


# -- once only: a single-use link, the first club ------------------------------------

JOINERS = 8


@pytest.fixture
def fresh_install(tmp_path):
    """A fresh install (no club yet) served by gunicorn."""
    database_url = fresh_database(f"sqlite:///{tmp_path / 'fresh.sqlite'}")
    secret_key = "first-visitors"
    app = create_app({"DATABASE_URL": database_url, "SECRET_KEY": secret_key})
    server = _start_server(tmp_path, database_url, secret_key)
    try:
        yield app, server
    finally:
        server.stop()
        app.extensions["db_engine"].dispose()


def count_rows(engine, model, *where) -> int:
    with Session(engine) as session:
        return len(session.exec(select(model).where(*where)).all())


def test_a_single_use_owner_link_lets_one_person_in_however_many_tap_at_once(club):
    from scorekeeper.clubs.membership import new_invite
    from scorekeeper.store.models import Club, Member

    engine, server, _devices = club
    with Session(engine) as session:
        invite = new_invite(session, session.exec(select(Club)).first(), "owner")
        token, club_id = invite.token, invite.club_id
    owners_before = count_rows(engine, Member, Member.club_id == club_id, Member.role == "owner")
    tally = Tally()
    strangers = [Phone(f"Stranger {n}", "", server.port, tally) for n in range(JOINERS)]
    for phone in strangers:
        phone.cookies.clear()
    replies = all_at_once(strangers, f"/join/{token}", lambda i, phone, revision:
                          phone.post(f"/join/{token}", {"your_name": f"Heir {i}"}))
    statuses = sorted(reply.status for reply in replies)
    assert statuses.count(303) == 1, statuses  # one joined; the link was used up
    assert all(status in (303, 404) for status in statuses), statuses
    owners = count_rows(engine, Member, Member.club_id == club_id, Member.role == "owner")
    assert owners == owners_before + 1
    assert not [e for e in tally.errors if not e.startswith("POST")], tally.errors


JOIN_KEY = re.compile(r'name="join_key" type="hidden" value="([^"]+)"')


@pytest.mark.parametrize("role", ["owner", "scorer"])
def test_one_join_sent_again_at_once_on_two_workers_is_one_member(club, role):
    """A phone whose answer to Join is lost sends the same form again, copies at the very
    same moment: one member with one device, whether the link lets one person in (an
    owner's) or many, and every copy is answered with that device's cookie."""
    from scorekeeper.clubs.membership import new_invite
    from scorekeeper.store.models import Club, Device, Member

    engine, server, _devices = club
    with Session(engine) as session:
        invite = new_invite(session, session.exec(select(Club)).first(), role)
        token, club_id = invite.token, invite.club_id
    members_before = count_rows(engine, Member, Member.club_id == club_id)
    tally = Tally()
    copies = [Phone(f"Copy {n}", "", server.port, tally) for n in range(JOINERS)]
    for phone in copies:
        phone.cookies.clear()
    key = JOIN_KEY.search(copies[0].get(f"/join/{token}").body).group(1)
    replies = all_at_once(copies, f"/join/{token}", lambda i, phone, revision:
                          phone.post(f"/join/{token}", {"your_name": "Heir", "join_key": key}))
    assert [reply.status for reply in replies] == [303] * JOINERS, \
        [(reply.status, reply.body[:300]) for reply in replies]
    assert len({phone.cookies.get(COOKIE) for phone in copies}) == 1
    assert count_rows(engine, Member, Member.club_id == club_id) == members_before + 1
    with Session(engine) as session:
        heir = session.exec(select(Member).where(Member.name == "Heir")).one()
        assert len(session.exec(select(Device).where(Device.member_id == heir.id)).all()) == 1
    assert not tally.errors, "\n".join(tally.errors[:10]) + "\n" + server.log_tail()


FIRST_VISIT_ROUNDS = 6


def test_several_first_visitors_at_once_make_one_club_with_one_owner(fresh_install):
    """Browsers on the server itself (gunicorn on 127.0.0.1) make the first club at the
    same moment: one club, one owner, every other one sent back to the welcome page."""
    from sqlalchemy import delete

    from scorekeeper.store.models import Club, Device, Member

    app, server = fresh_install
    engine = app.extensions["db_engine"]
    for round_ in range(FIRST_VISIT_ROUNDS):
        tally = Tally()
        visitors = [Phone(f"Visitor {n}", "", server.port, tally) for n in range(JOINERS)]
        for phone in visitors:
            phone.cookies.clear()
        replies = all_at_once(visitors, "/welcome", lambda i, phone, revision: phone.post(
            "/welcome", {"club_name": f"Club {i}", "your_name": f"Founder {i}"}))
        statuses = [reply.status for reply in replies]
        assert all(status == 303 for status in statuses), (round_, statuses)
        assert count_rows(engine, Member) == 1, round_  # one founder, one owner
        assert count_rows(engine, Club) == 1, round_  # one first club
        with Session(engine) as session:  # a fresh install again, for the next round
            session.exec(delete(Device))
            session.exec(delete(Member))
            session.exec(delete(Club))
            session.commit()


def test_corrections_confirmed_on_several_phones_at_once_are_made_once(club):
    """Four phones confirm the same forgotten hand, then the same swap of seats, at the
    same moment: one of each is made (a swap made twice would undo itself), the others
    are told the game changed; one phone's insert sent six times at once is one hand."""
    engine, server, devices = club
    tally = Tally()
    phones = [Phone(name, devices[name], server.port, tally) for name in SCORERS]
    anna = phones[0]
    assert anna.get("/games/new").status == 200
    game = int(anna.post("/games/new", new_game_form(target="999")).location.rsplit("/", 1)[1])
    for number in (1, 2):
        assert anna.get(f"/games/{game}").status == 200
        assert anna.post(f"/games/{game}/hands", {"number": number, "calls": BID_3,
                                                 **PLAYED}).status == 303
    throw_in = {"number": "2", "calls": ",".join(["pass"] * 6), "confirm": "y"}

    def insert(index: int, phone: Phone, revision: str) -> Reply:
        return phone.post(f"/games/{game}/hands/insert", {
            **throw_in, "revision": revision, "entry_key": f"insert-{index}-{'y' * 20}"})

    replies = all_at_once(phones, f"/games/{game}/hands/insert?before=2", insert)
    assert sorted(r.status for r in replies) == [303, 409, 409, 409], \
        [(r.status, r.body[:300]) for r in replies]
    assert live_numbers(engine, game) == [1, 2, 3]
    assert change_count(engine, game, "inserted") == 1

    def swap(index: int, phone: Phone, revision: str) -> Reply:
        return phone.post(f"/games/{game}/seats/swap",
                          {"first": "2", "second": "5", "confirm": "y", "revision": revision})

    replies = all_at_once(phones, f"/games/{game}/fix", swap)
    assert sorted(r.status for r in replies) == [303, 409, 409, 409], \
        [(r.status, r.body[:300]) for r in replies]
    assert change_count(engine, game, "seats") == 1
    with Session(engine) as session:
        names = load_replay(session, session.get(Game, game)).names
    assert names[2] == new_game_form()["seat_5"] and names[5] == new_game_form()["seat_2"]

    # Different corrections at once: one is made, every other one is refused, none fails.
    def mixed(index: int, phone: Phone, revision: str) -> Reply:
        path, form = [("seats/swap", {"first": "1", "second": "2"}),
                      ("seats/rename", {"seat": "1", "name": f"Newcomer {revision}"}),
                      ("seats/swap", {"first": "2", "second": "3"}),
                      ("hands/insert", {**throw_in, "entry_key": f"mixed-{revision}-{'m' * 20}"})
                      ][index]
        return phone.post(f"/games/{game}/{path}", {**form, "confirm": "y",
                                                    "revision": revision})

    for _round in range(3):
        replies = all_at_once(phones, f"/games/{game}/fix", mixed)
        assert sorted(r.status for r in replies) == [303, 409, 409, 409], \
            [(r.status, r.location, r.body[:300]) for r in replies]
    # Two games naming a seat after the same newcomer at once: both are made.
    other = int(anna.post("/games/new", new_game_form(target="999")).location.rsplit("/", 1)[1])

    def same_newcomer(index: int, phone: Phone, revision: str) -> Reply:
        return phone.post(f"/games/{(game, other)[index]}/seats/rename", {
            "seat": "6", "name": "Late Arrival", "confirm": "y", "revision": revision})

    replies = _each_at_once(phones[:2], [f"/games/{game}/fix", f"/games/{other}/fix"],
                            same_newcomer)
    assert [r.status for r in replies] == [303, 303], [(r.status, r.body[:300]) for r in replies]
    copies = [Phone(SCORERS[1], devices[SCORERS[1]], server.port, tally) for _ in range(6)]

    def same_entry(index: int, phone: Phone, revision: str) -> Reply:
        return phone.post(f"/games/{game}/hands/insert", {
            **throw_in, "number": "1", "revision": revision, "entry_key": "one-entry-" + "z" * 20})

    replies = all_at_once(copies, f"/games/{game}/hands/insert?before=1", same_entry)
    assert [r.status for r in replies] == [303] * 6, [(r.status, r.body[:300]) for r in replies]
    inserted = change_count(engine, game, "inserted")
    assert len(live_numbers(engine, game)) == 2 + inserted
    assert not tally.errors, "\n".join(tally.errors[:10]) + "\n" + server.log_tail()


def test_one_member_answering_a_planned_evening_from_several_taps_at_once_is_one_answer(club):
    """A double tap on "I'm in" (and the same member's other phone saying "I'm out" at
    that moment) on two workers: one answer kept, every tap answered, none a 500."""
    from scorekeeper.store.models import Attendance, utcnow

    engine, server, devices = club
    tally = Tally()
    first = Phone(SCORERS[0], devices[SCORERS[0]], server.port, tally)
    assert first.get("/evenings").status == 200 and first.csrf
    planned = first.post("/evenings/plan", {"played_on": utcnow().date().isoformat(),
                                            "place": "Kitchen"})
    assert planned.status == 303, planned.body[:300]
    evening = int(planned.location.rsplit("/", 1)[1])
    taps = [Phone(SCORERS[0], devices[SCORERS[0]], server.port, tally) for _ in range(JOINERS)]
    replies = all_at_once(taps, f"/evenings/{evening}", lambda i, phone, revision:
                          phone.post(f"/evenings/{evening}/coming",
                                     {"coming": "in" if i % 2 else "out"}))
    assert [reply.status for reply in replies] == [303] * len(taps), tally.errors
    assert count_rows(engine, Attendance) == 1


def test_owners_making_one_season_at_once_on_two_workers_keep_one(club):
    """The same season sent by several taps at once (a double tap, two owners): one is
    kept, the others are told it overlaps, none a 500; backups stay restorable."""
    from scorekeeper.store.models import Season, utcnow
    from tests.members import member_cookie as cookie_of

    engine, server, _devices = club
    app = create_app({"DATABASE_URL": str(engine.url), "SECRET_KEY": "multi-worker-test"})
    owner = cookie_of(app, "owner", "Olga")
    tally = Tally()
    taps = [Phone("Olga", owner, server.port, tally) for _ in range(JOINERS)]
    today = utcnow().date()
    season = {"name": "Winter", "starts_on": today.isoformat(), "ends_on": today.isoformat(),
              "ranked_by": "won", "min_evenings": "0", "drop_worst": "0"}
    replies = all_at_once(taps, "/seasons", lambda i, phone, revision:
                          phone.post("/seasons", season))
    statuses = sorted(reply.status for reply in replies)
    assert set(statuses) <= {303, 400} and statuses.count(303) == 1, statuses
    assert count_rows(engine, Season) == 1


def test_phones_of_two_teams_confirming_one_hand_at_once_confirm_it_once(club):
    """A night played for a ranking: three phones of the other teams tap Confirm on the
    same hand at the same moment (eight taps), on two workers: it is confirmed once, in the log once,
    and every phone is told so (none a 500)."""
    from scorekeeper.store.models import Player

    engine, server, devices = club
    tally = Tally()
    phones = [Phone(name, devices[name], server.port, tally) for name in SCORERS]
    anna = phones[0]
    assert anna.get("/games/new").status == 200
    started = anna.post("/games/new", new_game_form(target="999", evening="new"))
    game = int(started.location.rsplit("/", 1)[1])
    with Session(engine) as session:
        evening = session.get(Game, game).evening_id
        players = {p.name: p.id for p in session.exec(select(Player))}
    assert anna.get(f"/evenings/{evening}").status == 200
    assert anna.post(f"/evenings/{evening}/confirming", {"confirming": "on"}).status == 303
    for phone, player in zip(phones, ("Ann", "Bob", "Cid", "Eve")):  # Ann's team, then others
        assert phone.get(f"/games/{game}").status == 200
        said = phone.post(f"/games/{game}/hands/player", {"player_id": players[player]})
        assert said.status == 303, said.body[:300]
    assert anna.get(f"/games/{game}").status == 200
    assert anna.post(f"/games/{game}/hands", {"number": 1, "calls": BID_3,
                                             **PLAYED}).status == 303
    taps = []  # double taps too: each of the three phones tapping from several threads
    for index in range(JOINERS):
        said = phones[1 + index % 3]
        taps.append(Phone(said.name, devices[said.name], server.port, tally))
        taps[-1].cookies = dict(said.cookies)
    replies = all_at_once(taps, f"/games/{game}", lambda i, phone, revision:
                          phone.post(f"/games/{game}/hands/1/confirm",
                                     {"number": "1", "revision": revision}))
    assert [reply.status for reply in replies] == [303] * JOINERS, tally.errors
    with Session(engine) as session:
        hand = session.exec(select(Hand).where(Hand.game_id == game)).one()
        confirmations = session.exec(select(GameChange).where(
            GameChange.game_id == game, GameChange.kind == "confirmed")).all()
    assert hand.confirmed_team in ("B", "C") and len(confirmations) == 1
    assert confirmations[0].details == {"team": hand.confirmed_team}


def test_members_claiming_one_player_at_once_on_two_workers_leave_one_linked(club):
    """Several members tap the same name as theirs at the same moment, from several
    threads each: one member is that player, the others are told it is taken (none a 500)."""
    from scorekeeper.store.models import Member, Player

    engine, server, devices = club
    tally = Tally()
    phones = [Phone(name, devices[name], server.port, tally) for name in SCORERS]
    assert phones[0].get("/games/new").status == 200
    started = phones[0].post("/games/new", new_game_form(target="999", evening="new"))
    game = int(started.location.rsplit("/", 1)[1])
    with Session(engine) as session:
        bob = session.exec(select(Player).where(Player.name == "Bob")).one().id
    taps = [Phone(phones[index % len(phones)].name, devices[phones[index % len(phones)].name],
                  server.port, tally) for index in range(JOINERS)]
    replies = all_at_once(taps, f"/games/{game}", lambda i, phone, revision:
                          phone.post(f"/games/{game}/hands/player", {"player_id": str(bob)}))
    statuses = Counter(reply.status for reply in replies)
    assert set(statuses) <= {303, 409} and statuses[303] >= 1, (statuses, tally.errors)
    with Session(engine) as session:
        linked = session.exec(select(Member.name).where(Member.player_id == bob)).all()
    assert len(linked) == 1
    winner = linked[0]
    # Only the winner's own taps may have been answered 303 (its second tap is refused).
    assert all(reply.status == 409 for tap, reply in zip(taps, replies) if tap.name != winner)
