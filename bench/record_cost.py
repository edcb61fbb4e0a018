"""Server time of recording a hand early in a game against late in it.

    python bench/record_cost.py                  # 3 games, test client and gunicorn
    python bench/record_cost.py --games 5 --tree ../other-checkout

Each game (target 999, so that it never ends) is recorded hand by hand as a phone
records it (htmx, with the page's revision and an entry key), and the time of each
record is kept: hands 1-5 against hands 56-60. Once through Flask's test client (the
server's own time: routing, replay, queries, rendering, no network) and once under
gunicorn (2 workers) on 127.0.0.1, where the answer's bytes cross a socket too.
Printed: the median of each span, the ratio late/early, and the answer's size. Nothing
is asserted: numbers are measured.

``--tree`` measures another checkout of the app (its code first on the path), so that
a change can be timed against the code before it on the same machine.
"""
from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EARLY = range(1, 6)
LATE = range(56, 61)
CALLS = "3," + ",".join(["pass"] * 5)
PLAYED = {"calls": CALLS, "trump": "hearts", "high": "A", "low": "B", "right": "C",
          "left": "A", "joker": "B", "game": "C"}
SEATS = {f"seat_{i}": name for i, name in enumerate("Ann Bob Cid Dan Eve Fay".split(), 1)}
CSRF = re.compile(r'<meta name="csrf-token" content="([^"]+)"')
REVISION = re.compile(r'name="revision" value="(\d+)"')
HTMX = {"HX-Request": "true", "HX-Target": "game"}


def record_form(number: int, revision: str) -> dict:
    return {"number": number, "revision": revision, "entry_key": str(uuid.uuid4()), **PLAYED}


def shown_header(revision: str) -> dict:
    """What the phone's script says of the page the answer goes to (see static/app.js)."""
    return {**HTMX, "X-Scorekeeper-Shows": revision}


def one_game(post, get) -> tuple[dict[int, float], int]:
    """Record hands 1..60 of a new game; (ms of each hand timed, bytes of the last answer).

    ``post(path, form, headers)`` and ``get(path)`` give (status, text, ms)."""
    status, _, _ = post("/games/new", {**SEATS, "teams": "3x2", "target": "999",
                                       "first_dealer": "1"}, {})
    if status != 303:
        raise SystemExit(f"a new game answered {status}")
    _, page, _ = get("/")
    game = re.findall(r'href="/games/(\d+)"', page)[0]
    _, page, _ = get(f"/games/{game}")
    revision = REVISION.search(page).group(1)
    times: dict[int, float] = {}
    size = 0
    for number in range(1, LATE.stop):
        status, answer, ms = post(f"/games/{game}/hands", record_form(number, revision),
                                  shown_header(revision))
        if status != 200:
            raise SystemExit(f"hand {number} answered {status}")
        found = REVISION.search(answer)
        revision = found.group(1) if found else str(int(revision) + 1)
        if number in EARLY or number in LATE:
            times[number] = ms
        size = len(answer.encode())
    return times, size


def summary(name: str, runs: list[tuple[dict[int, float], int]]) -> None:
    early = statistics.median(t[n] for t, _ in runs for n in EARLY)
    late = statistics.median(t[n] for t, _ in runs for n in LATE)
    size = statistics.median(s for _, s in runs)
    print(f"{name:<22} {early:9.1f} {late:9.1f} {late / early:8.2f}× {size / 1024:9.1f}")


def test_client_runs(games: int) -> list:
    from sqlmodel import Session

    from scorekeeper import create_app
    from scorekeeper.clubs.access import COOKIE
    from scorekeeper.clubs.membership import add_member
    from seed import first_club  # bench/seed.py

    runs = []
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"DATABASE_URL": f"sqlite:///{Path(folder) / 'bench.sqlite'}",
                          "SECRET_KEY": "bench"})
        with app.test_request_context(), Session(app.extensions["db_engine"]) as session:
            club = first_club(session)
            _member, cookie = add_member(session, club.id, "Bench", "scorer", "Bench")
        client = app.test_client()
        client.set_cookie(COOKIE, cookie)
        token = {"value": ""}

        def timed(call):
            started = time.perf_counter()
            response = call()
            ms = (time.perf_counter() - started) * 1000
            text = response.get_data(as_text=True)
            found = CSRF.search(text)
            if found:
                token["value"] = found.group(1)
            return response.status_code, text, ms

        def get(path):
            return timed(lambda: client.get(path))

        def post(path, form, headers):
            return timed(lambda: client.post(
                path, data=form, headers={**headers, "X-CSRFToken": token["value"]}))

        get("/games/new")
        for _ in range(games):
            runs.append(one_game(post, get))
        app.extensions["db_engine"].dispose()
    return runs


def gunicorn_runs(games: int, tree: Path) -> list:
    sys.path.insert(0, str(ROOT / "bench"))
    import throughput  # bench/throughput.py: the same server start and client
    from sqlmodel import Session

    from scorekeeper import create_app
    from scorekeeper.clubs.access import COOKIE
    from scorekeeper.clubs.membership import add_member
    from seed import first_club  # bench/seed.py

    runs = []
    with tempfile.TemporaryDirectory() as folder:
        database = f"sqlite:///{Path(folder) / 'bench.sqlite'}"
        app = create_app({"DATABASE_URL": database, "SECRET_KEY": "bench"})
        with app.test_request_context(), Session(app.extensions["db_engine"]) as session:
            club = first_club(session)
            _member, cookie = add_member(session, club.id, "Bench", "scorer", "Bench")
        app.extensions["db_engine"].dispose()
        env = {"DATABASE_URL": database, "SECRET_KEY": "bench", "PYTHONPATH": str(tree)}
        server, port = throughput.start("scorekeeper:create_app()", tree, env, 2)
        try:
            client = throughput.Client(port, {COOKIE: cookie})

            def timed(method, path, form=None, headers=None):
                started = time.perf_counter()
                status, text = client.send(method, path, form, headers)
                return status, text, (time.perf_counter() - started) * 1000

            def get(path):
                return timed("GET", path)

            def post(path, form, headers):
                return timed("POST", path, form, headers)

            get("/games/new")
            for _ in range(games):
                runs.append(one_game(post, get))
        finally:
            throughput.stop(server)
    return runs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--tree", type=Path, default=ROOT,
                        help="the checkout of the app to measure (default: this one)")
    parser.add_argument("--no-gunicorn", action="store_true")
    args = parser.parse_args(argv)
    tree = args.tree.resolve()
    sys.path.insert(0, str(tree))

    rows = [("test client", test_client_runs(args.games))]
    if not args.no_gunicorn:
        rows.append(("gunicorn, 2 workers", gunicorn_runs(args.games, tree)))
    print(f"recording hands {EARLY.start}-{EARLY.stop - 1} against {LATE.start}-{LATE.stop - 1}"
          f" of a game, {args.games} games, {tree}")
    print(f"{'server':<22} {'early ms':>9} {'late ms':>9} {'ratio':>9} {'answer KB':>9}")
    for name, runs in rows:
        summary(name, runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
