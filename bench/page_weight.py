"""Measure the game page's weight: HTML + CSS + JS in bytes, raw and gzipped.

Run: .venv/bin/python bench/page_weight.py [--hands 20]
Builds a throwaway game with that many recorded hands on an in-memory database,
fetches the game page as a phone's first load would, then every stylesheet and script
it links (fingerprinted addresses included; the modules app.js imports are linked too,
for the phone to ask for them at once), and prints the sizes, gzipped at level 6
as the server sends them. Nothing is asserted here: tests/test_page_weight.py holds the
budgets.
"""
from __future__ import annotations

import argparse
import gzip
import re

from scorekeeper import create_app

NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"]
TALLY = {"high": "A", "low": "B", "right": "C", "left": "A", "joker": "B", "game": "C"}


def build_game(client, hands: int) -> int:
    form = {f"seat_{i}": n for i, n in enumerate(NAMES, 1)}
    form.update(teams="3x2", target="999", first_dealer="1")
    game_id = int(client.post("/games/new", data=form).headers["Location"].rsplit("/", 1)[1])
    for number in range(1, hands + 1):
        calls = "3," + ",".join(["pass"] * 5)
        response = client.post(f"/games/{game_id}/hands",
                               data={"number": number, "calls": calls, "trump": "hearts", **TALLY})
        assert response.status_code == 303, response.status_code
    return game_id


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20)
    hands = parser.parse_args(argv).hands
    app = create_app({"TESTING": True, "DATABASE_URL": "sqlite://",
                      "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False})
    client = app.test_client()
    # The club's owner, as a first visitor becomes one.
    assert client.post("/welcome", data={"club_name": "Bench", "your_name": "Ann"}).status_code == 303
    game_id = build_game(client, hands)
    html = client.get(f"/games/{game_id}").data
    assets = [path.decode().replace("&amp;", "&") for path in
              re.findall(rb'(?:href|src)="(/static/[^"]+\.(?:css|js)[^"]*)"', html)]
    rows = [("game page HTML", html)]
    rows += [(path.split("?")[0], client.get(path).data) for path in assets]
    print(f"game page with {hands} hands")
    print(f"{'part':<40} {'bytes':>8} {'gzipped':>8}")
    total = total_gz = 0
    for name, body in rows:
        size, size_gz = len(body), len(gzip.compress(body, 6))
        total, total_gz = total + size, total_gz + size_gz
        print(f"{name:<40} {size:>8} {size_gz:>8}")
    print(f"{'total':<40} {total:>8} {total_gz:>8}")
    record = client.post(f"/games/{game_id}/hands", headers={"HX-Request": "true", "HX-Target": "game"},
                         data={"number": hands + 1, "calls": "3," + ",".join(["pass"] * 5),
                               "trump": "hearts", **TALLY})
    print(f"{'htmx response recording a hand':<40} {len(record.data):>8} "
          f"{len(gzip.compress(record.data, 6)):>8}")


if __name__ == "__main__":
    main()
