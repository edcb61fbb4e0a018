"""The first visit to the leaderboard and to a player's page of a large club whose
statistics and ratings were never worked out (as after an import, a restore or an
upgrade that drops them): server time of each, and how it goes on.

    python bench/first_visit.py                 # seeds the large club first if needed
    python bench/first_visit.py --large big.sqlite

Each timing starts from a copy of ``bench/seed.py``'s club (5,000 games) with every kept
figure dropped. Pages count a batch of games per visit and say how many are to go; the
script then times visits until none are, and the catch-up command's work on its own.
"""
from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

from sqlalchemy import text
from sqlmodel import Session, func, select

sys.path.insert(0, str(Path(__file__).resolve().parent))

import seed as seeding  # noqa: E402  (bench/seed.py)
from page_times import app_on, owner_client  # noqa: E402
from scorekeeper.figures import ratings, summaries  # noqa: E402
from scorekeeper.store.models import GameSeat  # noqa: E402

KEPT_TABLES = ("club_summary", "seat_summary", "player_pairs", "club_ratings", "player_rating",
               "rated_game")


def fresh_copy(large: Path, folder: Path, name: str):
    """A copy of the large club with nothing kept, and an owner's client of it."""
    path = folder / f"{name}.sqlite"
    shutil.copy(large, path)
    app = app_on(path)
    with app.extensions["db_engine"].begin() as connection:
        for table in KEPT_TABLES:
            connection.execute(text(f"DELETE FROM {table}"))
    return app, owner_client(app)


def timed(client, url: str) -> tuple[float, str]:
    started = time.perf_counter()
    response = client.get(url)
    elapsed = time.perf_counter() - started
    if response.status_code != 200:
        raise SystemExit(f"{url} answered {response.status_code}")
    return elapsed, response.text


def visits_until_exact(client, url: str, most: int = 200) -> tuple[int, float, float]:
    """Visits (the first included) until a page no longer says games are to go, their
    total and their longest server time, seconds."""
    times = []
    for _ in range(most):
        elapsed, page = timed(client, url)
        times.append(elapsed)
        if 'id="catching-up"' not in page:
            break
    return len(times), sum(times), max(times)


def catch_up_seconds(app) -> float:
    """The catch-up command's work: every game counted and rated, in batches."""
    started = time.perf_counter()
    with Session(app.extensions["db_engine"]) as session:
        club = seeding.first_club(session)
        if hasattr(summaries, "catch_up"):
            summaries.catch_up(session, club.id)
            ratings.catch_up(session, club.id)
        else:  # before the catch-up: a page's own full count
            summaries.up_to_date(session, club.id)
            ratings.club_ratings(session, club.id)
    return time.perf_counter() - started


def busiest(app) -> int:
    with Session(app.extensions["db_engine"]) as session:
        return session.exec(select(GameSeat.player_id).group_by(GameSeat.player_id)
                            .order_by(func.count().desc())).first()


def report(name: str, seconds: float) -> None:
    print(f"{name:<40}  {seconds:8.2f}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--large", type=Path, default=Path("instance/bench-large.sqlite"))
    args = parser.parse_args(argv)
    if not args.large.exists():
        seeding.main([str(args.large)])
    print("server time, seconds, of a 5,000-game club with nothing kept", flush=True)
    with tempfile.TemporaryDirectory() as folder:
        app, client = fresh_copy(args.large, Path(folder), "player")
        report("player page: first visit", timed(client, f"/players/{busiest(app)}")[0])
        app, client = fresh_copy(args.large, Path(folder), "leaderboard")
        first, _ = timed(client, "/players")
        report("leaderboard: first visit", first)
        visits, total, longest = visits_until_exact(client, "/players")
        report(f"leaderboard: all {visits + 1} visits until exact", total + first)
        report("leaderboard: longest of those visits", max(longest, first))
        report("leaderboard: the next visit, exact", timed(client, "/players")[0])
        app, _client = fresh_copy(args.large, Path(folder), "command")
        report("catch-up command, whole club", catch_up_seconds(app))
    return 0


if __name__ == "__main__":
    sys.exit(main())
