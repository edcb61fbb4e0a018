"""How long a game and an evening took: said where the game ends, and on the evening."""
from __future__ import annotations

from datetime import timedelta

from sqlmodel import select

from tests.views.view_helpers import Game, Hand, Page, calls_for

BOB_BIDS_3 = calls_for(1, {2: 3})  # hand 1: Bob (B) bids 3; Ann dealt
CID_BIDS_3 = calls_for(2, {3: 3})  # hand 2: Cid (C) bids 3; Bob dealt


def started_ago(db, game_id: int, minutes: int) -> None:
    """The game began ``minutes`` before its last hand was recorded."""
    game = db.get(Game, game_id)
    hands = db.exec(select(Hand).where(Hand.game_id == game_id)).all()
    last = max(hands, key=lambda hand: hand.number)
    game.created_at = last.recorded_at - timedelta(minutes=minutes)
    for hand in hands:  # the earlier hands in between, as they would have been
        hand.recorded_at = min(hand.recorded_at, last.recorded_at)
    db.add(game)
    db.commit()


def test_a_finished_game_says_how_long_it_took(client, db, start_game, play):
    game = start_game(target="5")
    play(game, 1, BOB_BIDS_3, "hearts", "BBBAA", "A")  # A 3, B 3
    assert "This game took" not in Page(client.get(f"/games/{game}")).text  # not over yet
    play(game, 2, CID_BIDS_3, "spades", "AAABB", "none")  # A 6: over
    started_ago(db, game, 72)
    page = Page(client.get(f"/games/{game}"))
    assert page.by_id("game-time").text() == "This game took 1 h 12 min."


def test_a_short_game_says_its_minutes(client, db, start_game, play):
    game = start_game(target="5")
    play(game, 1, BOB_BIDS_3, "hearts", "BBBBB", "none")  # B 5: over at once
    started_ago(db, game, 45)
    assert Page(client.get(f"/games/{game}")).by_id("game-time").text() == "This game took 45 min."


def test_the_evening_says_how_long_it_has_taken_and_took(client, db, start_game, play,
                                                        new_game_form):
    first = int(client.post("/games/new", data=new_game_form(target="5", evening="new"))
                .headers["Location"].rsplit("/", 1)[1])
    evening = db.get(Game, first).evening_id
    assert Page(client.get(f"/evenings/{evening}")).by_id("evening-time") is None  # no hand
    play(first, 1, BOB_BIDS_3, "hearts", "BBBBB", "none")  # B 5: over
    started_ago(db, first, 100)
    second = int(client.post("/games/new", data=new_game_form(target="5", evening=str(evening)))
                 .headers["Location"].rsplit("/", 1)[1])
    play(second, 1, BOB_BIDS_3, "hearts", "BBBAA", "A")
    # The second game began 20 minutes after the first; its hand came 30 minutes in.
    game_one, game_two = db.get(Game, first), db.get(Game, second)
    game_two.created_at = game_one.created_at + timedelta(minutes=20)
    (hand,) = db.exec(select(Hand).where(Hand.game_id == second)).all()
    hand.recorded_at = game_two.created_at + timedelta(minutes=30)
    db.add_all([game_two, hand])
    db.commit()
    page = Page(client.get(f"/evenings/{evening}"))
    assert page.by_id("evening-time").text() == "Played for 1 h 40 min so far."
    assert client.post(f"/evenings/{evening}/close", data={}).status_code == 303
    page = Page(client.get(f"/evenings/{evening}"))
    assert page.by_id("evening-time").text() == "The evening took 1 h 40 min."
