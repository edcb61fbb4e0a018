"""A club of its own with one evening tonight: a game in play and a game that is over.

The game in play is the scene of ``scene.py`` (three pairs to 21, eight hands, a set hand
and a throw-in; names with a Persian one and digits), the game over a one-hand game to 5
that Bob & Eve (B) won by taking every point of a 3 bid.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date

from sqlmodel import Session

from scorekeeper.files.exchange import import_game
from scorekeeper.store.models import Club, Evening
from tests.browser import scene
from tests.members import member_cookie, new_club

# To 5; Bob (seat 2, B, the first to speak after seat 1 deals) bids 3 and takes all six.
OVER = {**scene.GAME, "rules": {**scene.GAME["rules"], "target": 5},
        "seats": ["Gus", "Bob", "Cid", "Ann", "Eve", "Dan"],
        "hands": [{"auction": [3] + ["pass"] * 5, "trump": "hearts",
                   "points": dict.fromkeys(("high", "low", "right", "left", "joker", "game"),
                                           "B")}]}


@dataclass(frozen=True)
class Tonight:
    club: int
    evening: int
    playing: int  # the game in play
    over: int  # the game that is over

    def member(self, app, role: str = "owner", name: str | None = None) -> str:
        """The device cookie of a new member of this club."""
        return member_cookie(app, role, name, club_id=self.club)


def club_tonight(app) -> Tonight:
    with app.test_request_context(), Session(app.extensions["db_engine"]) as session:
        club = session.get(Club, new_club(app, "Tonight"))
        evening = Evening(club_id=club.id, played_on=date.today(), place=scene.PLACE)
        session.add(evening)
        session.commit()
        games = []
        for game_file in (scene.GAME, OVER):
            game = import_game(session, club, json.dumps(game_file))
            game.evening_id = evening.id
            session.add(game)
            session.commit()
            games.append(game.id)
        return Tonight(club.id, evening.id, *games)
