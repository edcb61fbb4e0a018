"""A club's evening played through a released version's own pages, into DATABASE_URL:
run by make_fixture.py inside that version's source, with its own app and test helpers.

Owner, scorer and viewer members with their devices; an evening at two tables: a game
won at table 1, the next game there in play with a hand corrected, seats swapped and a
hand undone, and a game at table 2 with confirmation on and a hand waiting for it; a
season around the evening. Prints what the upgrade tests need (JSON): the secret key,
each member's device cookie, and the rows' ids.
"""
from __future__ import annotations

import json
import sys
from datetime import date, timedelta
from pathlib import Path

import scorekeeper
from scorekeeper import create_app
from scorekeeper.clubs.access import COOKIE
from tests.members import member_cookie
from tests.new_games import new_game_form
from tests.views.view_helpers import calls_for, hand_form

SECRET_KEY = "released-fixture"  # kept with the fixture: its device cookies are signed by it
SECOND_TABLE = ["Gus", "Hal", "Ida", "Joe", "Kim", "Lea"]
HAND = ("pass,4,pass,pass,pass,pass", "hearts", "ABBCC", "A")


def done(response, status: int = 303):
    assert response.status_code == status, response.get_data(as_text=True)[:800]
    return response


def started(phone, names=None, **fields) -> int:
    form = new_game_form(**({"names": names} if names else {}), **fields)
    return int(done(phone.post("/games/new", data=form)).headers["Location"].rsplit("/", 1)[1])


def record(phone, game: int, number: int, calls=HAND[0], trump=HAND[1], owners=HAND[2],
           game_point=HAND[3]) -> None:
    done(phone.post(f"/games/{game}/hands",
                    data=hand_form(number, calls, trump, owners, game_point)))


def main(url: str) -> dict:
    source = Path(scorekeeper.__file__).resolve().parent.parent
    assert source == Path.cwd().resolve(), f"not the released source: {source}"
    app = create_app({"TESTING": True, "DATABASE_URL": url, "SECRET_KEY": SECRET_KEY,
                      "WTF_CSRF_ENABLED": False})
    cookies = {role: member_cookie(app, role) for role in ("owner", "scorer", "viewer")}
    owner, scorer = app.test_client(), app.test_client()
    owner.set_cookie(COOKIE, cookies["owner"])
    scorer.set_cookie(COOKIE, cookies["scorer"])

    won = started(owner, target="5", evening="new")
    evening = int(done(owner.get(f"/games/{won}"), 200).get_data(as_text=True)
                  .split("/evenings/", 1)[1].split('"', 1)[0].split("/", 1)[0].split("?")[0])
    record(owner, won, 1, calls_for(1, {2: 6}), "hearts", "BBBBB", "B")  # B takes all: won
    in_play = started(scorer, evening=str(evening))
    for number in (1, 2, 3):
        record(scorer, in_play, number)
    done(scorer.post(f"/games/{in_play}/hands/1",
                     data={**hand_form(1, HAND[0], "hearts", "CBBCC", "A"), "confirm": "y"}))
    done(scorer.post(f"/games/{in_play}/seats/swap",
                     data={"first": "2", "second": "3", "confirm": "y"}))
    done(scorer.post(f"/games/{in_play}/hands/undo", data={"number": "3"}))
    done(owner.post(f"/evenings/{evening}/confirming", data={"confirming": "on"}))
    second_table = started(owner, SECOND_TABLE, evening=str(evening), table="2")
    record(owner, second_table, 1)  # waits for another team's phone
    today = date.today()
    done(owner.post("/seasons", data={
        "name": "Spring", "starts_on": str(today - timedelta(days=30)),
        "ends_on": str(today + timedelta(days=60)), "ranked_by": "won",
        "min_evenings": "1", "drop_worst": "0"}))
    app.extensions["db_engine"].dispose()
    return {"secret_key": SECRET_KEY, "cookie": COOKIE, "cookies": cookies, "evening": evening,
            "games": [won, in_play, second_table]}


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1]), indent=1))
