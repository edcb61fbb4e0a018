"""A game well under way, for looking at every page that shows scores.

Three pairs to 21 (A: Anna & Dora, B: Bob & Eve, C: مریم & Jo 2): eight hands, among
them a set hand and a throw-in, all recorded at the table and the last one corrected (so
the change log has lines), at an evening in "Room 12"; not over, so the page still offers
the next hand. Names, place and note hold digits, which stay as typed in every language.
"""
from __future__ import annotations

from datetime import date

from sqlmodel import Session, select

from scorekeeper.files.exchange import read_game
from scorekeeper.store.models import Club, Evening, Game, Player
from scorekeeper.store.replay import load_replay
from scorekeeper.table.corrections import edit_hand
from scorekeeper.table.recording import Actor, record_hand
from scorekeeper.table.seating import start_game

from tests.sample_games import P
SEATS = ["Anna", "Bob", "مریم", "Dora", "Eve", "Jo 2"]


def _points(high, low, right, left, joker, game):
    return {"high": high, "low": low, "right": right, "left": left, "joker": joker,
            "game": game}


# Seat 1 deals hand 1; the seat after the dealer speaks first.
HANDS = [
    {"auction": [4, P, P, P, P, P], "trump": "hearts",
     "points": _points("B", "B", "B", "B", "C", "C")},  # B bid 4, made: B +4, C +2
    {"auction": [P, 3, P, P, P, P], "trump": "spades",
     "points": _points("A", "C", "A", "A", "A", "B")},  # A bid 3, took 4: +4; C +1, B +1
    {"auction": [P, P, P, P, P, P]},  # thrown in
    {"auction": [5, P, P, P, P, P], "trump": "clubs",
     "points": _points("B", "A", "B", "C", "B", "A")},  # B bid 5, took 3: set −5; A +2, C +1
    {"auction": [P, P, 4, P, P, P], "trump": "diamonds",
     "points": _points("C", "C", "C", "C", "A", "B")},  # C bid 4, made +4; A +1, B +1
    {"auction": [3, P, P, P, P, P], "trump": "hearts",
     "points": _points("A", "B", "B", "A", "C", "A")},
    {"auction": [P, 4, P, P, P, P], "trump": "spades",
     "points": _points("A", "A", "C", "B", "B", "C")},
    {"auction": [P, P, P, 3, P, P], "trump": "clubs",
     "points": _points("C", "A", "C", "C", "B", "A")},
]
GAME = {"format": "schmier-game/1",
        "rules": {"teams": "3x2", "target": 21, "bidder_goes_out": False},
        "seats": SEATS, "first_dealer": 1, "hands": HANDS}
PLACE = "Room 12"
NOTE = "Kim's, 2 decks"


def start_scene(app, club_id: int | None = None) -> int:
    """Start the game at an evening (of the club given, or the first) and record its hands
    as at the table, the last one first entered wrong and then corrected; the game's id."""
    return start_scene_at_evening(app, club_id)[0]


def start_scene_at_evening(app, club_id: int | None = None) -> tuple[int, int]:
    """The scene, as ``start_scene``; (the game's id, its evening's id). In the club
    given, or the first one (the only club of a view test's app)."""
    game_file = read_game(GAME)
    by = Actor(who="Anna")
    with app.test_request_context(), Session(app.extensions["db_engine"]) as session:
        club = (session.get(Club, club_id) if club_id
                else session.exec(select(Club).order_by(Club.id)).first())
        evening = Evening(club_id=club.id, played_on=date.today(), place=PLACE, note=NOTE)
        game_id = start_game(session, club, SEATS, game_file.rules, 1, evening).id
        for number, deal in enumerate(game_file.deals, start=1):
            replay = load_replay(session, session.get(Game, game_id))
            record_hand(session, replay, number, game_file.deals[1] if number == len(HANDS)
                        else deal, by=by)
        replay = load_replay(session, session.get(Game, game_id))
        edit_hand(session, replay, len(HANDS), game_file.deals[-1], by=by)
        return game_id, session.get(Game, game_id).evening_id


def player_id(app, name: str, club_id: int | None = None) -> int:
    """The id of the club's player of that name (a seat of the scene's game); the first
    club's by default."""
    with app.test_request_context(), Session(app.extensions["db_engine"]) as session:
        club_id = club_id or session.exec(select(Club.id).order_by(Club.id)).first()
        return session.exec(select(Player.id).where(Player.club_id == club_id,
                                                    Player.name == name)).one()
