"""Scorers on several phones tapping "Close the evening" at the same moment: the evening
is closed once, one phone is told it closed it, every other that it was closed already.

Real threads against one SQLite file, each phone with its own test client, released
together by a barrier, many times over (the evening opened again between rounds).
"""
from __future__ import annotations

import threading

import pytest
from sqlmodel import Session, select

from scorekeeper import create_app
from scorekeeper.store.models import Evening
from tests.databases import database_url
from tests.members import client_as
from tests.new_games import start_game_as
from tests.views.view_helpers import Page

ROUNDS = 10
PHONES = 4
CLOSED = "The evening is closed: its finished games are kept as they are."
ALREADY = "This evening was closed already."


@pytest.fixture
def file_app(tmp_path):
    return create_app({"TESTING": True, "SECRET_KEY": "race", "WTF_CSRF_ENABLED": False,
                       "DATABASE_URL": database_url(f"sqlite:///{tmp_path / 'race.sqlite'}")})


def closed_at(app, evening_id):
    with Session(app.extensions["db_engine"]) as session:
        return session.get(Evening, evening_id).closed_at


def test_phones_closing_at_once_close_the_evening_once(file_app):
    owner = client_as(file_app)
    start_game_as(owner, evening="new")
    with Session(file_app.extensions["db_engine"]) as session:
        evening_id = session.exec(select(Evening.id)).one()
    phones = [client_as(file_app, "scorer", name=f"Phone {n}") for n in range(PHONES)]
    url = f"/evenings/{evening_id}/close"
    for _round in range(ROUNDS):
        barrier = threading.Barrier(PHONES)
        statuses = [None] * PHONES

        def tap(index: int) -> None:
            barrier.wait()
            statuses[index] = phones[index].post(url).status_code

        threads = [threading.Thread(target=tap, args=(n,)) for n in range(PHONES)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)
        assert statuses == [303] * PHONES
        told = sorted(Page(phone.get(f"/evenings/{evening_id}")).notices()[0]
                      for phone in phones)
        assert told == [CLOSED] + [ALREADY] * (PHONES - 1)
        assert closed_at(file_app, evening_id) is not None
        assert owner.post(f"/evenings/{evening_id}/reopen").status_code == 303
        owner.get(f"/evenings/{evening_id}")
        assert closed_at(file_app, evening_id) is None
