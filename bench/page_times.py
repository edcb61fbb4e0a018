"""Median server time of the history and statistics pages: a new club against a large one.

    python bench/page_times.py                 # seeds the large club first if needed
    python bench/page_times.py --large big.sqlite --runs 30

The statistics pages are the leaderboard, the busiest player's page and their head to
head with the next busiest. The "new club" has one evening with one game of 20 hands
(the least that gives every page something to show); the large club is
``bench/seed.py``'s (1,000 evenings, 5,000 games, 100,000 hands). Each page is asked for through Flask's test client, so the time
is the server's own (routing, queries, rendering), without a network. The statistics
and ratings are brought up to date before timing, as the first visits (or ``flask
catch-up``) leave them; the
last rows time a page right after a game changed, when that game is counted again and
the club's sums are moved on by it (its old rows out, its new rows in), and the club is
rated again from that game on (the newest game: that game alone). The leaderboard leads
with the ratings once a game is rated; it is timed by win rate too.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from sqlalchemy import text
from sqlmodel import Session, func, select

sys.path.insert(0, str(Path(__file__).resolve().parent))

import seed as seeding  # noqa: E402  (bench/seed.py)
from scorekeeper import create_app  # noqa: E402
from scorekeeper.clubs.access import COOKIE  # noqa: E402
from scorekeeper.clubs.membership import add_member  # noqa: E402
from scorekeeper.figures import ratings, summaries  # noqa: E402
from scorekeeper.store.models import Evening, GameSeat  # noqa: E402


def app_on(path: Path):
    return create_app({"DATABASE_URL": f"sqlite:///{path.resolve()}", "SECRET_KEY": "bench"})


def pages(app) -> dict[str, str]:
    """The pages to time, with ids taken from the database (the busiest player)."""
    with Session(app.extensions["db_engine"]) as session:
        club = seeding.first_club(session)
        # Counted and rated whole, as the first visits (or ``catch-up``) leave them.
        summaries.catch_up(session, club.id)
        ratings.catch_up(session, club.id)
        newest = session.exec(
            select(Evening.id).order_by(Evening.played_on.desc(), Evening.id.desc())).first()
        busiest, next_busiest = session.exec(
            select(GameSeat.player_id).group_by(GameSeat.player_id)
            .order_by(func.count().desc(), GameSeat.player_id).limit(2)).all()
    return {
        "history": "/evenings",
        "history, page 10": "/evenings?page=10",
        "history of a player": f"/evenings?player={busiest}",
        "evening": f"/evenings/{newest}",
        "player": f"/players/{busiest}",
        "head to head": f"/players/{busiest}/versus/{next_busiest}",
        "leaderboard (by rating)": "/players",
        "leaderboard, by win rate": "/players?sort=win_rate",
        "leaderboard, by made rate, 10+ games": "/players?sort=made_rate&min=10",
        "leaderboard CSV": "/players.csv",
        "recent games": "/",
    }


def timed_ms(client, url: str) -> float:
    started = time.perf_counter()
    response = client.get(url)
    elapsed = (time.perf_counter() - started) * 1000
    if response.status_code != 200:
        raise SystemExit(f"{url} answered {response.status_code}")
    return elapsed


def owner_client(app):
    """A test client of a new owner of the club (pages answer only the club's members)."""
    client = app.test_client()
    with app.test_request_context(), Session(app.extensions["db_engine"]) as session:
        club = seeding.first_club(session)
        _member, cookie = add_member(session, club.id, "Bench", "owner", "Benchmark")
    client.set_cookie(COOKIE, cookie)
    return client


def side_by_side(timings: list, runs: int) -> list[float]:
    """Each timing's median over ``runs``, taken in turns (the machine's moments shared
    alike: a busy second slows both clubs, not one)."""
    times: list[list[float]] = [[] for _ in timings]
    for _ in range(runs):
        for kept, timing in zip(times, timings):
            kept.append(timing())
    return [statistics.median(kept) for kept in times]


def request(client, url: str):
    client.get(url)  # warm: templates compiled, caches filled
    return lambda: timed_ms(client, url)


def request_after_a_change(app, client, url: str):
    """The page's time when a game changed just before (as after each recorded hand)."""
    engine = app.extensions["db_engine"]

    def timing() -> float:
        with engine.begin() as connection:  # what recording a hand does to the game row
            connection.execute(text(
                "UPDATE game SET revision = revision + 1 WHERE id = (SELECT max(id) FROM game)"))
        return timed_ms(client, url)
    return timing


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--large", type=Path, default=Path("instance/bench-large.sqlite"),
                        help="the large club's database (seeded if it does not exist)")
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args(argv)
    if not args.large.exists():
        print(f"seeding {args.large} …", flush=True)
        seeding.main([str(args.large)])
    with tempfile.TemporaryDirectory() as folder:
        small_path = Path(folder) / "new-club.sqlite"
        small_app = app_on(small_path)
        with Session(small_app.extensions["db_engine"]) as session:
            club = seeding.first_club(session)
            seeding.seed(session, club, evenings=1, games=1, hands=20, rng=random.Random(1))
        large_app = app_on(args.large)
        small_pages, large_pages = pages(small_app), pages(large_app)
        small, large = owner_client(small_app), owner_client(large_app)
        rows = []
        for name in small_pages:
            new, big = side_by_side([request(small, small_pages[name]),
                                     request(large, large_pages[name])], args.runs)
            rows.append((name, new, big, big / new))
        for name in ("leaderboard (by rating)", "player", "head to head"):
            new, big = side_by_side([request_after_a_change(small_app, small, small_pages[name]),
                                     request_after_a_change(large_app, large, large_pages[name])],
                                    args.runs)
            rows.append((f"{name}, just after a hand", new, big, big / new))
    width = max(len(name) for name, *_ in rows)
    print(f"median server time of {args.runs} requests, ms")
    print(f"{'page':<{width}}  {'new club':>9}  {'large club':>10}  {'ratio':>6}")
    for name, new, big, ratio in rows:
        print(f"{name:<{width}}  {new:9.1f}  {big:10.1f}  {ratio:5.1f}×")
    return 0


if __name__ == "__main__":
    sys.exit(main())
