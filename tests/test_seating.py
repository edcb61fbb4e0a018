"""Starting a game when the roster changes under it."""
from __future__ import annotations

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from scorekeeper.rules import HouseRules
from scorekeeper.store.models import Game, GameSeat, Player
from scorekeeper.table import seating
from tests.members import first_club

NAMES = ["Una", "Vic", "Wim", "Xia", "Yan", "Zoe"]


def test_a_player_added_by_another_phone_meanwhile_is_seated_not_doubled(app, monkeypatch):
    # On PostgreSQL two phones can both miss "Una" in the roster and both insert her;
    # the second insert breaks the roster's unique name. Simulate it: the first seating
    # attempt meets the other phone's Una and fails on the unique constraint.
    engine = app.extensions["db_engine"]
    real_seat, attempts = seating._seat, []

    def other_phone_first(session, club, *args):
        attempts.append(1)
        if len(attempts) == 1:
            with Session(engine) as other:
                other.add(Player(club_id=club.id, name="Una", name_key="una"))
                other.commit()
            session.add(Player(club_id=club.id, name="Una", name_key="una"))
            raise IntegrityError("INSERT INTO player", {}, Exception("uq_player_club_name"))
        return real_seat(session, club, *args)

    monkeypatch.setattr(seating, "_seat", other_phone_first)
    with Session(engine) as session:
        game = seating.start_game(session, first_club(session), NAMES, HouseRules(), 1)
        assert len(attempts) == 2
        assert len(session.exec(select(Game)).all()) == 1
        players = session.exec(select(Player).where(Player.name_key == "una")).all()
        assert len(players) == 1
        seated = session.exec(select(GameSeat).where(GameSeat.game_id == game.id)).all()
        assert sorted(s.seat for s in seated) == [1, 2, 3, 4, 5, 6]
        assert {s.player_id for s in seated if s.seat == 1} == {players[0].id}
