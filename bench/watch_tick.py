"""What one look of a process's watch costs: the games its held polls wait on, read at once.

    python bench/watch_tick.py                 # 350 games (700 tables on 2 workers)
    python bench/watch_tick.py --games 1000

Each server process's watch (``table/waiting.py``) reads every game its polls wait on
four times a second and wakes the polls whose game moved. It reads their marks
(``live.game_marks``: whole numbers, as the database gives them); a poll reads its own
game's whole head (``live.game_head``: times made aware, a ``GameHead`` built). Timed
side by side in one run, on a fresh SQLite file with ``--games`` games: the marks of all
of them, against their heads read the same way, and the ratio. Nothing is asserted:
numbers are measured.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SEATS = {f"seat_{i}": name for i, name in enumerate("Ann Bob Cid Dan Eve Fay".split(), 1)}


def new_games(app, count: int) -> list[int]:
    from sqlmodel import Session, select

    from scorekeeper.clubs.access import COOKIE
    from scorekeeper.clubs.membership import add_member
    from scorekeeper.store.models import Game
    from seed import first_club  # bench/seed.py

    with app.test_request_context(), Session(app.extensions["db_engine"]) as session:
        club = first_club(session)
        _member, cookie = add_member(session, club.id, "Bench", "scorer", "Bench")
    client = app.test_client()
    client.set_cookie(COOKIE, cookie)
    for _ in range(count):
        answer = client.post("/games/new", data={**SEATS, "teams": "3x2", "target": "21",
                                                 "first_dealer": "1"})
        assert answer.status_code == 303, answer.status_code
    with Session(app.extensions["db_engine"]) as session:
        return list(session.exec(select(Game.id)))


def median_ms(look, times: int = 60) -> float:
    spans = []
    for _ in range(times):
        started = time.perf_counter()
        look()
        spans.append(time.perf_counter() - started)
    return statistics.median(spans) * 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=350)
    args = parser.parse_args(argv)
    from sqlalchemy import bindparam

    from scorekeeper import create_app
    from scorekeeper.store.models import Game
    from scorekeeper.table.live import _HEADS, GameHead, game_marks

    many_heads = _HEADS.where(Game.id.in_(bindparam("game_ids", expanding=True)))
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"DATABASE_URL": f"sqlite:///{Path(folder) / 'bench.sqlite'}",
                          "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False})
        ids = new_games(app, args.games)
        with app.extensions["db_engine"].connect() as connection:
            def heads() -> dict:
                rows = connection.execute(many_heads, {"game_ids": ids})
                return {(row[1], row[0]): GameHead(row[0], *row[2:]) for row in rows}

            def marks() -> dict:
                return game_marks(connection, ids)

            seen = {key: head.mark for key, head in heads().items()}
            assert marks() == seen  # the same games, read the two ways, agree
            print(f"one look of the watch over {len(ids)} games, ms (median of 60; "
                  "three rounds, in turn)")
            print(f"{'heads':>9} {'marks':>9} {'ratio':>7}")
            for _ in range(3):
                whole, mark = median_ms(heads), median_ms(marks)
                print(f"{whole:9.2f} {mark:9.2f} {mark / whole:6.2f}×")
        app.extensions["db_engine"].dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main())
