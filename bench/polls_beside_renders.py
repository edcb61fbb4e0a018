"""Whether a poll waits behind a page being drawn in its process, renders set aside or not.

    python bench/polls_beside_renders.py              # 3 rounds of 4 s per case
    python bench/polls_beside_renders.py --rounds 5 --polls 16 --renders 2

Starts two gunicorn servers on 127.0.0.1, each one gevent worker (one process: every
request shares it, as a table's phones share a worker) on a SQLite file of its own:
one as the app runs (renders set aside in native threads, ``scorekeeper/web/aside.py``),
one with ``RENDER_THREADS = 0`` (every request on its greenlet, as before). On each,
phones poll a game that doesn't change (the 204 a held poll ends with, asked not to
wait: "anything new?") back to back, alone and then beside clients loading a game page
of 20 hands drawn afresh, back to back. The cases take turns, the two servers too,
several rounds over, so a machine whose speed drifts weighs on both alike.

It prints, per server and case, the polls' answers a second and their median, 95th and
99th percentile times, and the pages drawn a second and their median time; then the
polls' 99th percentile beside renders as a ratio to the same server's alone. Nothing
is asserted: numbers are measured.
"""
from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import throughput as served  # noqa: E402  (bench/throughput.py: server start, clients)

SERVERS = (("renders set aside", {}), ("on the greenlets", {"RENDER_THREADS": 0}))


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


class Server:
    """One server, its game of 20 hands, its polling phones and its page loaders."""

    def __init__(self, name: str, settings: dict, folder: Path, polls: int,
                 renders: int) -> None:
        from scorekeeper.clubs.access import COOKIE

        folder = folder / ("set-aside" if not settings else "on-greenlets")
        folder.mkdir()
        database = f"sqlite:///{folder / 'bench.sqlite'}"
        cookies = served.members(database, ["scorer"] * (polls + renders + 1))
        env = {"DATABASE_URL": database, "SECRET_KEY": "bench",
               "PYTHONPATH": f"{served.ROOT}{os.pathsep}{folder}"}
        self.name = name
        self.process, port = served.start(served.app_with(folder, **settings), served.ROOT,
                                          env, 1, "gevent")
        setup = served.Client(port, {COOKIE: cookies[-1]})
        game = served.new_game(setup, 20)
        _, page = setup.send("GET", f"/games/{game}")
        poll = served.POLL.search(page).group(1).replace("&amp;", "&").replace("&wait=1", "")
        revision = served.REVISION.search(page).group(1)
        fresh = f"/games/{game}?number=21&revision={revision}"  # drawn afresh, never kept
        self.pollers = [served.Client(port, {COOKIE: cookie}) for cookie in cookies[:polls]]
        for phone in self.pollers:
            phone.send("GET", f"/games/{game}")  # session and token, as a phone has
        self.poll = lambda phone: phone.send("GET", poll, headers={"HX-Request": "true"})
        self.port, self.fresh = port, fresh
        self.loader_cookies = [{COOKIE: cookie} for cookie in cookies[polls:-1]]
        self.times: dict[str, dict[str, list[float]]] = {
            case: {"polls": [], "pages": []} for case in ("alone", "beside renders")}
        self.rates: dict[str, dict[str, list[float]]] = {
            case: {"polls": [], "pages": []} for case in ("alone", "beside renders")}

    def run(self, case: str, seconds: float) -> None:
        """The phones poll for ``seconds``; beside renders, the loaders load meanwhile,
        from a process of their own (their parsing never holds up the phones' clock)."""
        loading = None
        if case == "beside renders":
            answers: multiprocessing.Queue = multiprocessing.Queue()
            loading = multiprocessing.Process(target=load_pages, args=(
                self.port, self.loader_cookies, self.fresh, seconds, answers))
            loading.start()
        rate, times = served.run_case([lambda p=p: self.poll(p) for p in self.pollers],
                                      len(self.pollers), seconds)
        self.times[case]["polls"].extend(times)
        self.rates[case]["polls"].append(rate)
        if loading is not None:
            rate, times = answers.get()
            loading.join()
            self.times[case]["pages"].extend(times)
            self.rates[case]["pages"].append(rate)

    def rows(self) -> list[str]:
        lines = []
        for case, kinds in self.times.items():
            polls, pages = kinds["polls"], kinds["pages"]
            page_part = (f"{statistics.median(self.rates[case]['pages']):>8.1f} "
                         f"{statistics.median(pages):>9.1f}" if pages else f"{'':>8} {'':>9}")
            lines.append(
                f"{self.name:<20} {case:<15} {statistics.median(self.rates[case]['polls']):>8.0f} "
                f"{statistics.median(polls):>7.1f} {percentile(polls, 0.95):>7.1f} "
                f"{percentile(polls, 0.99):>7.1f} {page_part}")
        return lines

    def p99_ratio(self) -> float:
        return (percentile(self.times["beside renders"]["polls"], 0.99)
                / percentile(self.times["alone"]["polls"], 0.99))


def load_pages(port: int, cookies: list[dict], path: str, seconds: float,
               answers: multiprocessing.Queue) -> None:
    """A loader per cookie, loading ``path`` back to back for ``seconds``; puts (pages a
    second, each page's ms)."""
    loaders = [served.Client(port, jar) for jar in cookies]
    answers.put(served.run_case([lambda c=c: c.send("GET", path) for c in loaders],
                                len(loaders), seconds))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--polls", type=int, default=8, help="phones polling")
    parser.add_argument("--renders", type=int, default=2, help="clients loading pages")
    parser.add_argument("--seconds", type=float, default=4, help="per case and round")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        folder_path = Path(folder)
        servers: list[Server] = []
        try:
            for name, settings in SERVERS:
                servers.append(Server(name, settings, folder_path, args.polls, args.renders))
            for _ in range(args.rounds):
                for case in ("alone", "beside renders"):
                    for server in servers:
                        server.run(case, args.seconds)
        finally:
            for server in servers:
                served.stop(server.process)
    print(f"gunicorn, 1 gevent worker each, 127.0.0.1; {args.polls} phones polling "
          f"(unchanged, not held), {args.renders} clients loading a game page of 20 hands "
          f"drawn afresh; {args.rounds} rounds of {args.seconds:g} s per case, in turn")
    print(f"{'server':<20} {'case':<15} {'polls/s':>8} {'p50 ms':>7} {'p95 ms':>7} "
          f"{'p99 ms':>7} {'pages/s':>8} {'page ms':>9}")
    for server in servers:
        for line in server.rows():
            print(line)
    for server in servers:
        print(f"{server.name}: polls' p99 beside renders / alone = {server.p99_ratio():.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
