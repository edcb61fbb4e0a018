"""What each tier of kept answers saves a table catching up on a hand, side by side.

    python bench/cache_tiers.py                # 2 workers, 15 hands per server
    python bench/cache_tiers.py --repeats 30 --workers 4

Starts three gunicorn servers (2 workers × 4 threads each, as ``bench/throughput.py``
does) on 127.0.0.1, each on a fresh SQLite file, alike but for the kept answers:

- none: every answer rendered (``PAGE_CACHE_BYTES`` 0);
- in each process: each app process keeps what it rendered (``PAGE_CACHE_SHARED`` off);
- in each process and shared: what one process rendered is kept in the database for
  the others too (``KeptAnswer``, the default).

On each, a game of 20 hands with seven members' phones on it, and for each of
``--repeats`` hands: a hand is recorded, then the seven phones ask for the game's new
part one after another, as a table's phones do within their 2 seconds. The servers take
turns hand by hand, so a machine whose speed drifts weighs on all three alike. It prints,
for each server, the median total of the seven answers' times, the median answer time
of the first phone (who always gets a render) and of the six after it, and the total as
a ratio to the first server's.

Then, in this process, the replays each process keeps (``store.replay.REPLAYS``): the
games of a club of 5 games of up to 60 hands read for a page (``load_replays``), with
the last replays kept, as a page after a poll reads them, against a fresh keeper each
time (every game replayed from its first hand), in turn, ``--reads`` times each.
Nothing is asserted: numbers are measured.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import throughput as served  # noqa: E402  (bench/throughput.py: server start, clients)

TIERS = (
    ("none", {"PAGE_CACHE_BYTES": 0}),
    ("in each process", {"PAGE_CACHE_SHARED": False}),
    ("in each process and shared", {}),
)


class Server:
    """One gunicorn server of the app with its table: a recorder and seven phones."""

    def __init__(self, folder: Path, name: str, config: dict, workers: int) -> None:
        from scorekeeper.clubs.access import COOKIE

        database = f"sqlite:///{folder / (name.replace(' ', '-') + '.sqlite')}"
        cookies = served.members(database, ["scorer"] * (served.TABLE + 1))
        env = {"DATABASE_URL": database, "SECRET_KEY": "bench", "PYTHONPATH": str(served.ROOT)}
        settings = {"DATABASE_URL": database, "SECRET_KEY": "bench", **config}
        self.name = name
        self.process, port = served.start(f"scorekeeper:create_app({settings!r})", served.ROOT,
                                          env, workers)
        self.recorder = served.Client(port, {COOKIE: cookies[-1]})
        self.phones = [served.Client(port, {COOKIE: c}) for c in cookies[:served.TABLE]]
        self.game = served.new_game(self.recorder, 20)
        for phone in self.phones:
            phone.send("GET", f"/games/{self.game}")
        self.number = 21
        self.totals: list[float] = []
        self.firsts: list[float] = []
        self.later: list[float] = []

    def one_hand(self) -> None:
        _, page = self.recorder.send("GET", f"/games/{self.game}")
        old = served.POLL.search(page).group(1).replace("&amp;", "&")
        assert served.record(self.recorder, self.game, self.number)[0] < 400
        self.number += 1
        times = []
        for phone in self.phones:
            status = []
            times.append(served.timed(lambda: status.append(phone.send(
                "GET", old, headers={"HX-Request": "true", "HX-Target": "game"})[0])))
            assert status == [200], status
        self.totals.append(sum(times))
        self.firsts.append(times[0])
        self.later.extend(times[1:])


def replay_tier(folder: Path, reads: int) -> tuple[float, float]:
    """(median ms of a read with the last replays kept, without), in turn."""
    from sqlmodel import Session, select

    import seed as seeding  # bench/seed.py
    from scorekeeper import create_app
    from scorekeeper.store import replay
    from scorekeeper.store.models import Game

    app = create_app({"DATABASE_URL": f"sqlite:///{folder / 'replays.sqlite'}",
                      "SECRET_KEY": "bench"})
    kept_ms, fresh_ms = [], []
    with app.app_context(), Session(app.extensions["db_engine"]) as session:
        club = seeding.first_club(session)
        seeding.seed(session, club, evenings=1, games=5, hands=300, rng=random.Random(7))
        games = list(session.exec(select(Game).where(Game.club_id == club.id)))
        replay.load_replays(session, games)  # kept once, as after any earlier page
        kept = replay.REPLAYS
        for _ in range(reads):
            for keeper, times in ((kept, kept_ms), (None, fresh_ms)):
                replay.REPLAYS = keeper or replay.Replays(games=2048)
                started = time.perf_counter()
                replay.load_replays(session, games)
                times.append((time.perf_counter() - started) * 1000)
        replay.REPLAYS = kept
    return statistics.median(kept_ms), statistics.median(fresh_ms)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=15, help="hands each table catches up on")
    parser.add_argument("--reads", type=int, default=30, help="reads of the club's games")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        servers: list[Server] = []
        try:
            for name, config in TIERS:
                servers.append(Server(Path(folder), name, config, args.workers))
            for _ in range(args.repeats):
                for server in servers:
                    server.one_hand()
        finally:
            for server in servers:
                served.stop(server.process)
        kept_ms, fresh_ms = replay_tier(Path(folder), args.reads)
    first = statistics.median(servers[0].totals)
    print(f"gunicorn, {args.workers} workers x 4 threads each; a table of {served.TABLE} "
          f"phones catching up on each of {args.repeats} hands, the servers in turn")
    print(f"{'kept answers':<28} {'7 answers ms':>12} {'first ms':>9} {'later ms':>9} "
          f"{'vs none':>8}")
    for server in servers:
        total = statistics.median(server.totals)
        print(f"{server.name:<28} {total:12.1f} {statistics.median(server.firsts):9.1f} "
              f"{statistics.median(server.later):9.1f} {total / first:7.2f}×")
    print(f"replays kept in the process: 5 games read for a page {kept_ms:.2f} ms, each "
          f"replayed afresh {fresh_ms:.2f} ms: {kept_ms / fresh_ms:.2f}× (median of {args.reads})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
