"""A club with more games new to its figures than a page counts (an import, a restore):
each page visit counts and rates a bounded batch, shows the figures kept so far with how
many games are to go, and after enough visits (or the catch-up command) every figure
equals a full count and rating of the hands."""
from __future__ import annotations

import random
from datetime import date, datetime, timezone

import pytest
from sqlmodel import Session, select

from scorekeeper import create_app

from scorekeeper.store import kept

from scorekeeper.figures import ratings, summaries
from scorekeeper.store.models import Club, ClubRatings, ClubSummary, Game, Season
from tests.databases import database_url
from tests.members import client_as, first_club_id
from tests.test_ratings import assert_kept_equals_a_rating_from_the_hands
from tests.test_summaries import assert_summaries_match_a_replay, seeding
from tests.views.view_helpers import Page

GAMES = 24
PER_VISIT = 5


@pytest.fixture
def big_club(monkeypatch):
    """A club of GAMES games, nothing counted yet, pages counting PER_VISIT games each."""
    monkeypatch.setattr(kept, "PER_VISIT", PER_VISIT)
    app = create_app({"TESTING": True, "DATABASE_URL": database_url(), "SECRET_KEY": "t"})
    session = Session(app.extensions["db_engine"], expire_on_commit=False)
    club = session.get(Club, first_club_id(app))
    seeding.seed(session, club, evenings=4, games=GAMES, hands=300, rng=random.Random(5))
    with session:
        yield app, session, club


def spied(monkeypatch, module, name: str) -> list[int]:
    """How many games each call of ``module.name`` was given."""
    sizes: list[int] = []
    original = getattr(module, name)

    def spy(session, games, *args):
        sizes.append(len(games))
        return original(session, games, *args)
    monkeypatch.setattr(module, name, spy)
    return sizes


def visits_until_exact(to_go, visit) -> int:
    """How many more visits a page makes until nothing is left to go."""
    visits = 0
    while to_go():
        visit()
        visits += 1
    return visits


def test_a_page_counts_a_batch_and_the_figures_become_exact(big_club, monkeypatch):
    _app, session, club = big_club
    recounted = spied(monkeypatch, summaries, "_recount")
    summaries.club_stats(session, club.id)
    assert sum(recounted) == PER_VISIT
    assert summaries.to_go(session, club.id) == GAMES - PER_VISIT
    assert session.get(ClubSummary, club.id) is None  # nothing kept until exact
    assert 1 + visits_until_exact(lambda: summaries.to_go(session, club.id),
                                  lambda: summaries.club_stats(session, club.id)) \
        == -(-GAMES // PER_VISIT)
    assert max(recounted) <= PER_VISIT
    assert_summaries_match_a_replay(session, club)


def test_a_page_rates_a_batch_and_the_ratings_become_exact(big_club, monkeypatch):
    _app, session, club = big_club
    looked_at = spied(monkeypatch, ratings, "_looked_at")
    first = ratings.club_ratings(session, club.id)
    assert looked_at == [PER_VISIT]
    assert ratings.to_go(session, club.id) == GAMES - PER_VISIT
    assert first  # the games rated so far stand meanwhile
    assert 1 + visits_until_exact(lambda: ratings.to_go(session, club.id),
                                  lambda: ratings.club_ratings(session, club.id)) \
        == -(-GAMES // PER_VISIT)
    assert max(looked_at) <= PER_VISIT
    assert_kept_equals_a_rating_from_the_hands(session, club)


def test_the_leaderboard_says_how_many_games_are_to_go_until_it_is_exact(big_club):
    app, session, club = big_club
    client = client_as(app)
    page = Page(client.get("/players"))
    assert page.status == 200
    assert page.section_text("catching-up").startswith(
        f"The statistics and ratings are being brought up to date: {GAMES - PER_VISIT} "
        "games to go.")
    for _ in range(GAMES // PER_VISIT):
        page = Page(client.get("/players"))
    assert page.by_id("catching-up") is None
    assert_summaries_match_a_replay(session, club)
    assert_kept_equals_a_rating_from_the_hands(session, club)


def test_a_players_page_says_so_too(big_club):
    app, session, club = big_club
    player = session.exec(select(summaries.Player).where(
        summaries.Player.club_id == club.id)).first()
    page = Page(client_as(app).get(f"/players/{player.id}"))
    assert page.status == 200
    assert f"{GAMES - PER_VISIT} games to go" in page.section_text("catching-up")


def test_the_catch_up_command_makes_every_figure_exact_at_once(big_club):
    app, session, club = big_club
    result = app.test_cli_runner().invoke(args=["catch-up"])
    assert result.exit_code == 0, result.output
    assert f"club {club.id}: {GAMES} games counted, {GAMES} rated" in result.output
    assert summaries.to_go(session, club.id) == ratings.to_go(session, club.id) == 0
    assert session.get(ClubSummary, club.id).stamp == summaries.club_stamp(session, club.id)
    assert session.get(ClubRatings, club.id).stamp == summaries.club_stamp(session, club.id)
    assert_summaries_match_a_replay(session, club)
    assert_kept_equals_a_rating_from_the_hands(session, club)
    page = Page(client_as(app).get("/players"))
    assert page.by_id("catching-up") is None


def test_a_stamp_is_four_numbers_and_one_kept_behind_never_holds():
    stamp = kept.Stamp(3, 9, 40, 1)
    assert kept.Stamp.from_kept(stamp.as_kept()) == stamp
    assert kept.Stamp.from_kept(stamp.as_kept(behind=True)) != stamp
    assert kept.Stamp.from_kept("") is None and kept.Stamp.from_kept("a:b:c:d") is None
    assert kept.Stamp.from_kept("0:None:0:0") == kept.Stamp(0, None, 0, 0)


def test_the_locked_lru_keeps_the_latest_within_its_size():
    cache = kept.LockedLRU(2)
    cache.put("a", 1)
    cache.put("b", 2)
    cache.get("a")
    cache.put("c", 3)  # "b" was used least lately
    assert (cache.get("a"), cache.get("b"), cache.get("c")) == (1, None, 3)
    sized = kept.LockedLRU(10, getsizeof=len)
    sized.put("big", "x" * 11)  # bigger than the whole cache: not kept
    assert sized.get("big") is None and len(sized) == 0


def test_a_season_page_brings_them_up_to_date_by_itself_a_batch_a_visit(big_club):
    """Its ladder of games won reads no rating: the page rates a batch all the same."""
    app, session, club = big_club
    season = Season(club_id=club.id, name="All", starts_on=date(2000, 1, 1),
                    ends_on=date(2100, 1, 1))
    session.add(season)
    session.commit()
    client = client_as(app)
    page = Page(client.get(f"/seasons/{season.id}"))
    assert f"{GAMES - PER_VISIT} games to go" in page.section_text("catching-up")
    for _ in range(GAMES // PER_VISIT):
        page = Page(client.get(f"/seasons/{season.id}"))
    assert page.by_id("catching-up") is None
    assert_kept_equals_a_rating_from_the_hands(session, club)


def test_a_leaderboard_by_rating_rates_a_batch_a_visit(big_club, monkeypatch):
    """The leaderboard reads the ratings twice (the board, and the game rated last):
    still one batch of games a visit."""
    app, session, club = big_club
    looked_at = spied(monkeypatch, ratings, "_looked_at")
    assert Page(client_as(app).get("/players?sort=rating")).status == 200
    assert sum(looked_at) == PER_VISIT
    assert ratings.to_go(session, club.id) == GAMES - PER_VISIT


def test_many_games_changed_at_once_are_recounted_a_batch_a_visit(big_club, monkeypatch):
    """Kept sums with more changed games than a page counts (a restore of old games'
    corrections): a batch a visit, not all at once, and exact once all are counted."""
    _app, session, club = big_club
    summaries.catch_up(session, club.id)
    for game in session.exec(select(Game).where(Game.club_id == club.id)
                             .order_by(Game.id).limit(2 * PER_VISIT)):
        game.changed_at = datetime.now(timezone.utc)  # bumps the revision
        session.add(game)
    session.commit()
    recounted = spied(monkeypatch, summaries, "_recount")
    summaries.club_stats(session, club.id)
    assert sum(recounted) <= PER_VISIT
    visits_until_exact(lambda: summaries.to_go(session, club.id),
                       lambda: summaries.club_stats(session, club.id))
    assert max(recounted) <= PER_VISIT
    assert_summaries_match_a_replay(session, club)
