"""No page replays more than a batch of games for each kept figure (``kept.PER_VISIT``
for the statistics, the same for the ratings), even when keeping the ratings loses a race
to another writer: the page then shows the ratings as last kept, and how many games are
still to go, instead of replaying the whole club.

A club of a few hundred games has both figures kept; a hand is recorded before each page,
and while the page is bringing the ratings up to date another writer gets in first:
another page keeping them, or a hand recorded at another table. Every game a request
replays is counted (``replay.REPLAYS.state`` is where each game loaded is replayed, or
carried on from its last replay), the statistics' apart from the rest.
"""
from __future__ import annotations

import random
from contextlib import contextmanager
from datetime import date, timedelta

import pytest
from sqlmodel import Session, select

from scorekeeper import create_app
from scorekeeper.figures import ratings, summaries
from scorekeeper.store import kept, replay
from scorekeeper.store.models import Club, Ladder, Player, Season
from tests.databases import database_url
from tests.members import client_as, first_club_id
from tests.test_summaries import seeding
from tests.test_summaries_incremental import a_hand_on_the_newest_game
from tests.views.view_helpers import Page

GAMES = 260  # more than a page replays for one figure
HANDS = 6_000


@pytest.fixture
def kept_club():
    """A club of GAMES games, its statistics and ratings kept, and a season of all of
    it ranked by rating."""
    app = create_app({"TESTING": True, "DATABASE_URL": database_url(), "SECRET_KEY": "t"})
    session = Session(app.extensions["db_engine"], expire_on_commit=False)
    club = session.get(Club, first_club_id(app))
    seeding.seed(session, club, evenings=20, games=GAMES, hands=HANDS, rng=random.Random(7))
    summaries.catch_up(session, club.id)
    ratings.catch_up(session, club.id)
    season = Season(club_id=club.id, name="All", starts_on=date.today() - timedelta(days=90),
                    ends_on=date.today(), ranked_by=Ladder.RATING)
    session.add(season)
    session.commit()
    with session:
        yield app, session, club, season


class Replays:
    """Games replayed, counted apart while the statistics are brought up to date and
    otherwise; a rival's own are not this request's."""

    def __init__(self, monkeypatch) -> None:
        self.statistics = self.others = 0
        self._counting_statistics = self.rival = False
        state, up_to_date = replay.REPLAYS.state, summaries.up_to_date

        def counted_state(*args):
            if not self.rival:
                if self._counting_statistics:
                    self.statistics += 1
                else:
                    self.others += 1
            return state(*args)

        def counted_up_to_date(*args, **kwargs):
            self._counting_statistics = True
            try:
                return up_to_date(*args, **kwargs)
            finally:
                self._counting_statistics = False
        monkeypatch.setattr(replay.REPLAYS, "state", counted_state)
        monkeypatch.setattr(summaries, "up_to_date", counted_up_to_date)

    @contextmanager
    def of_a_rival(self):
        self.rival = True
        try:
            yield
        finally:
            self.rival = False

    def reset(self) -> None:
        self.statistics = self.others = 0


def another_page_keeps_them_first(engine, club: Club) -> None:
    with Session(engine) as elsewhere:
        ratings.club_ratings(elsewhere, club.id)


def a_hand_at_another_table(engine, club: Club) -> None:
    with Session(engine, expire_on_commit=False) as elsewhere:
        a_hand_on_the_newest_game(elsewhere, random.Random(club.id))


def pages(club: Club, season: Season, session: Session) -> list[str]:
    player = session.exec(select(Player).where(Player.club_id == club.id)).first()
    return [f"/players/{player.id}", "/players", f"/seasons/{season.id}"]


@pytest.mark.parametrize("rival, to_go", [(another_page_keeps_them_first, None),
                                           (a_hand_at_another_table, 1)])
def test_a_page_that_loses_the_race_to_keep_the_ratings_replays_a_batch_at_most(
        kept_club, monkeypatch, rival, to_go):
    """``to_go``: the games the page then says the figures are behind (None: exact)."""
    app, session, club, season = kept_club
    engine = app.extensions["db_engine"]
    counted = Replays(monkeypatch)
    looked_at = ratings._looked_at

    def beaten_to_it(session_, games):
        found = looked_at(session_, games)
        if not counted.rival:
            with counted.of_a_rival():
                rival(engine, club)
        return found
    monkeypatch.setattr(ratings, "_looked_at", beaten_to_it)
    client = client_as(app)
    for address in pages(club, season, session):
        a_hand_on_the_newest_game(session, random.Random(len(address)))
        counted.reset()
        page = Page(client.get(address))
        assert page.status == 200, address
        assert counted.statistics <= kept.PER_VISIT, address
        assert counted.others <= kept.PER_VISIT, address
        if to_go is None:
            assert page.by_id("catching-up") is None, address
        else:
            assert f": {to_go} game to go." in page.section_text("catching-up"), address
