"""Two phones changing one game at the same moment: exactly one change is kept.

Runs real threads against one SQLite file, each with its own test client, released
together by a barrier, many times over; after each round the hands must still be
numbered 1..n without a gap and the game must replay.
"""
from __future__ import annotations

import threading

import pytest
from sqlmodel import Session, select

from scorekeeper import create_app
from scorekeeper.store.models import Game, Hand
from scorekeeper.store.replay import load_replay
from tests.databases import database_url
from tests.members import client_as
from tests.new_games import start_game_as

ROUNDS = 15
PLAYED = {"trump": "hearts", "high": "A", "low": "B", "right": "C", "left": "A",
          "joker": "B", "game": "C"}
BID_3 = "3,pass,pass,pass,pass,pass"


@pytest.fixture
def file_app(tmp_path):
    return create_app({"TESTING": True, "DATABASE_URL": database_url(f"sqlite:///{tmp_path / 'race.sqlite'}"),
                       "SECRET_KEY": "race", "WTF_CSRF_ENABLED": False})


def at_once(app, *posts):
    """Send the posts from separate threads at the same instant; their status codes."""
    return [response.status_code for response in responses_at_once(app, *posts)]


def responses_at_once(app, *posts):
    """Send the posts from separate threads at the same instant; their responses."""
    barrier = threading.Barrier(len(posts))
    responses = [None] * len(posts)

    def send(index, url, data):
        client = client_as(app)
        barrier.wait()
        responses[index] = client.post(url, data=data)

    threads = [threading.Thread(target=send, args=(i, *post)) for i, post in enumerate(posts)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return responses


def live_numbers(app, game_id):
    with Session(app.extensions["db_engine"]) as session:
        numbers = [h.number for h in session.exec(
            select(Hand).where(Hand.game_id == game_id, Hand.undone_at.is_(None))
            .order_by(Hand.number))]
        load_replay(session, session.get(Game, game_id))  # still replays
    return numbers


def test_record_and_undo_at_once_keep_the_hands_numbered(file_app):
    client = client_as(file_app)
    game = start_game_as(client, target="999")
    for _ in range(ROUNDS):
        while len(live_numbers(file_app, game)) < 2:  # the undo needs a hand to take back
            number = len(live_numbers(file_app, game)) + 1
            client.post(f"/games/{game}/hands", data={"number": number, "calls": BID_3, **PLAYED})
        before = live_numbers(file_app, game)
        last, following = before[-1], before[-1] + 1
        revision = Session(file_app.extensions["db_engine"]).get(Game, game).revision
        statuses = at_once(
            file_app,
            (f"/games/{game}/hands", {"number": following, "calls": BID_3,
                                      "revision": revision, **PLAYED}),
            (f"/games/{game}/hands/undo", {"number": last, "revision": revision}),
        )
        assert sorted(statuses) == [303, 409], statuses
        after = live_numbers(file_app, game)
        assert after == list(range(1, len(after) + 1))
        assert after in (before + [following], before[:-1])


def test_two_phones_recording_the_same_hand_keep_one(file_app):
    client = client_as(file_app)
    game = start_game_as(client, target="999")
    for number in range(1, ROUNDS + 1):
        revision = Session(file_app.extensions["db_engine"]).get(Game, game).revision
        form = {"number": number, "calls": BID_3, "revision": revision, **PLAYED}
        responses = responses_at_once(file_app, (f"/games/{game}/hands", form),
                                      (f"/games/{game}/hands", form))
        assert sorted(r.status_code for r in responses) == [303, 409]
        (loser,) = [r for r in responses if r.status_code == 409]
        assert f"Hand {number} was already recorded" in loser.get_data(as_text=True)
        assert live_numbers(file_app, game) == list(range(1, number + 1))


def test_a_correction_and_a_record_at_once_never_leave_a_game_that_cannot_replay(file_app):
    # Target 5. Hand 1: Bob (B) bids 3 and takes 3 (B 3). Hand 2: Cid (C) bids 3, takes 3.
    # Correcting hand 1 so B takes all six would end the game at hand 1 (B 6 >= 5)...
    client = client_as(file_app)
    game = start_game_as(client, target="5")
    hand_1 = {"number": 1, "calls": BID_3, "trump": "hearts", "high": "B", "low": "B",
              "right": "B", "left": "A", "joker": "C", "game": "A"}
    client.post(f"/games/{game}/hands", data=hand_1)
    revision = Session(file_app.extensions["db_engine"]).get(Game, game).revision
    all_b = {**hand_1, "left": "B", "joker": "B", "game": "B", "revision": revision}
    # ...while the other phone records hand 2: one of the two must be refused.
    hand_2 = {"number": 2, "calls": BID_3, "trump": "clubs", "high": "C", "low": "C",
              "right": "C", "left": "A", "joker": "A", "game": "B", "revision": revision}
    statuses = at_once(file_app, (f"/games/{game}/hands/1", all_b),
                       (f"/games/{game}/hands", hand_2))
    # The loser is refused as stale (409) or, if it read the corrected hands already,
    # because the game is over (422): either way nothing of it is written.
    assert statuses.count(303) == 1 and set(statuses) <= {303, 409, 422}, statuses
    assert client.get(f"/games/{game}").status_code == 200
    assert client.get("/").status_code == 200



def test_two_scorers_steps_read_at_once_get_two_draft_numbers(file_app):
    """Each step bumps the hand in progress's number in the database: two steps that
    read the same number still leave two numbers, so no watcher takes one for the other."""
    from scorekeeper.store.models import LiveDraft
    from scorekeeper.table.live import note_draft

    game_id = start_game_as(client_as(file_app, "scorer"), target="999")
    engine = file_app.extensions["db_engine"]
    with file_app.test_request_context(), Session(engine) as first, Session(engine) as second:
        note_draft(first, load_replay(first, first.get(Game, game_id)),
                   {"number": "1", "calls": "pass"})
        replays = [load_replay(s, s.get(Game, game_id)) for s in (first, second)]
        assert [s.get(LiveDraft, game_id).seq for s in (first, second)] == [1, 1]
        note_draft(first, replays[0], {"number": "1", "calls": "pass,4"})
        note_draft(second, replays[1], {"number": "1", "calls": "pass,5"})
    with Session(engine) as session:
        draft = session.get(LiveDraft, game_id)
        assert (draft.seq, draft.args["calls"]) == (3, "pass,5")
