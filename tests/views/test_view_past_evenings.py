"""A club's history from paper: an evening already played is added with its date and
place (the plan form given an earlier day), nobody is asked whether they come to it,
and its games are recorded or imported into it afterwards; an imported game takes the
day it was played. Every figure then goes by that date: the evening's night, the season
that holds it, a player's trend and the order of their rated games.

Games are three pairs to 5 with Ann dealing: "B sweeps" (Bob & Eve win), "Bob is set"
(Ann & Dan win); the imported TIE of tests/test_ratings.py is won by Ann & Dan too.
"""
from __future__ import annotations

import io
from datetime import date, timedelta

from babel.dates import format_date
from werkzeug.datastructures import FileStorage
from werkzeug.test import encode_multipart

from scorekeeper.store.models import Attendance, Evening, Game, utcnow
from tests.members import client_as, new_club
from tests.new_games import start_game_as
from tests.test_ratings import CLOSE, TIE
from tests.views.test_view_coming import plan
from tests.views.test_view_evenings import B_SWEEPS
from tests.views.test_view_players import player_id, table_rows
from tests.views.test_view_seasons import ladder, made
from tests.views.test_view_trend import BOB_IS_SET, trend_rows
from tests.views.view_helpers import Page, count, rows

MARCH = date(2024, 3, 7)


def past_evening(client, db, day: date = MARCH, place: str = "Back room") -> Evening:
    response = plan(client, day, place)
    assert response.status_code == 303, response.get_data(as_text=True)[:400]
    return rows(db, Evening)[-1]


def test_an_earlier_day_adds_an_evening_already_played_asking_nobody(client, db):
    evening = past_evening(client, db)
    assert (evening.played_on, evening.place) == (MARCH, "Back room")
    page = Page(client.get(f"/evenings/{evening.id}"))
    assert page.notices() == ["The evening already played is added: record or import its "
                              "games here."]
    assert "Evening of Mar 7, 2024" in page.text
    assert not page.has_button("I'm in") and page.by_id("coming-title-section") is None
    client.post(f"/evenings/{evening.id}/coming", data={"coming": "in"})
    assert count(db, Attendance) == 0
    listed = Page(client.get("/evenings")).root.find("a", href=f"/evenings/{evening.id}")
    assert listed.text() == "Mar 7, 2024 · Back room · 0 games"  # not "coming up"
    planned = past_evening(client, db, utcnow().date())  # today or later: planned, as ever
    page = Page(client.get(f"/evenings/{planned.id}"))
    assert page.notices() == ["The evening is planned: members can say here whether they "
                              "are coming."]
    assert page.has_button("I'm in")


def test_a_double_tap_adds_one_evening_already_played(client, db):
    first, second = past_evening(client, db), past_evening(client, db)
    assert first.id == second.id and count(db, Evening) == 1


def test_a_day_before_1900_is_refused_and_nothing_is_added(client, db):
    response = plan(client, date(1899, 12, 31))
    assert response.status_code == 400
    assert "Date: Give a date in 1900 or later." in Page(response).alerts()
    assert count(db, Evening) == 0
    field = Page(client.get("/evenings")).root.find("input", name="played_on")
    assert field.get("min") == "1900-01-01"


def test_a_game_is_recorded_into_it_from_its_page_and_counts_in_its_night(
        app, client, db, new_game_form, play):
    evening = past_evening(client, db)
    link = Page(client.get(f"/evenings/{evening.id}")).root.find("a", id="record-here")
    assert link.text() == "Record a game of this evening"
    form = Page(client.get(link.get("href"))).form_posting_to("/games/new")
    assert form.checked("evening") == str(evening.id)
    assert "The evening of Mar 7, 2024 (0 games so far)" in form.element.text()
    game_id = start_game_as(client, target="5", evening=str(evening.id))
    assert db.get(Game, game_id).evening_id == evening.id
    play(game_id, 1, *B_SWEEPS)
    page = Page(client.get(f"/evenings/{evening.id}"))
    assert f"Game {game_id} · Bob & Eve won." in page.root.find("ul", class_="game-list").text()
    ranking = page.root.find("table", id="night-ranking").find_all("tr")
    assert [row.text(gaps=True).split()[:2] for row in ranking[1:3]] == [["1", "Bob"],
                                                                        ["1", "Eve"]]
    assert page.by_id("evening-time") is None  # typing it in took no time of that night
    # The next game of it is offered there too; a game started as usual opens tonight's.
    again = Page(client.get("/games/new", query_string={"evening": str(evening.id)}))
    assert again.form_posting_to("/games/new").checked("evening") == str(evening.id)
    assert "1 game so far" in again.text
    plain = Page(client.get("/games/new")).form_posting_to("/games/new")
    assert plain.checked("evening") == "new"
    tonight = db.get(Game, start_game_as(client)).evening_id
    assert db.get(Evening, tonight).played_on == utcnow().date()
    # Only an open evening of the club takes a game: closed, or another club's, it is
    # not offered, and a form naming it starts nothing.
    client.post(f"/evenings/{evening.id}/close")
    assert Page(client.get(f"/evenings/{evening.id}")).root.find("a", id="record-here") is None
    games = count(db, Game)
    refused = client.post("/games/new", data=new_game_form(evening=str(evening.id)))
    assert refused.status_code == 422 and "Evening: Not a valid choice." in Page(refused).alerts()
    other_club = client_as(app, "owner", name="Olga", club_id=new_club(app, "Another club"))
    elsewhere = other_club.post("/games/new", data=new_game_form(evening=str(evening.id)))
    assert elsewhere.status_code == 422 and count(db, Game) == games


def upload(client, raw: str, played_on: str | None = None):
    """The import page's form sent: the game file, and the day it was played if given."""
    fields = {"game_file": FileStorage(io.BytesIO(raw.encode()), "game.json", "game_file")}
    if played_on is not None:
        fields["played_on"] = played_on
    boundary, body = encode_multipart(fields)
    return client.post("/games/import", data=body,
                       content_type=f"multipart/form-data; boundary={boundary}")


def imported(client, db, raw: str, played_on: str | None = None) -> Game:
    response = upload(client, raw, played_on)
    assert response.status_code == 303, response.get_data(as_text=True)[:800]
    db.expire_all()
    return db.get(Game, int(response.headers["Location"].rsplit("/", 1)[1]))


def test_an_imported_game_lands_in_its_days_first_evening_else_a_new_one(client, db):
    first = past_evening(client, db)
    past_evening(client, db, place="Garden")  # a second evening that day
    page = Page(client.get("/games/import"))
    field = page.form_posting_to("/games/import").element.find("input", name="played_on")
    assert (field.get("type"), field.get("min"), field.get("max")) == (
        "date", "1900-01-01", utcnow().date().isoformat())
    game = imported(client, db, TIE, MARCH.isoformat())
    assert game.evening_id == first.id
    evening = Page(client.get(f"/evenings/{first.id}"))
    assert f"Game {game.id} · Ann & Dan won." in evening.root.find("ul", class_="game-list").text()
    november = imported(client, db, CLOSE, "2023-11-02")
    made_for_it = db.get(Evening, november.evening_id)
    assert made_for_it.played_on == date(2023, 11, 2) and made_for_it.id != first.id
    # No date: today, as ever; today's evening made for it, the next game joins it.
    today = imported(client, db, TIE)
    assert db.get(Evening, today.evening_id).played_on == utcnow().date()
    assert db.get(Game, start_game_as(client)).evening_id == today.evening_id


def test_a_day_to_come_or_before_1900_imports_nothing(client, db):
    for day, refusal in (
            (utcnow().date() + timedelta(days=1),
             "Date played: A game can't be dated later than today."),
            (date(1899, 12, 31), "Date played: Give a date in 1900 or later."),
            ("yesterday", "Date played: Not a valid date value.")):
        response = upload(client, TIE, str(day))
        assert response.status_code == 422
        assert Page(response).alerts() == [refusal]
    assert (count(db, Game), count(db, Evening)) == (0, 0)


def test_every_figure_goes_by_the_evenings_date(client, db, play):
    """Tonight's game, then last March's typed in after it (one recorded, one imported):
    March's evening lists both, March's season counts them and today's doesn't, and Bob's
    trend and rated games go March first."""
    tonight = start_game_as(client, target="5")
    play(tonight, 1, *B_SWEEPS)  # Bob & Eve win tonight
    evening = past_evening(client, db)
    recorded = start_game_as(client, target="5", evening=str(evening.id))
    play(recorded, 1, *BOB_IS_SET)  # Ann & Dan win, in March
    game = imported(client, db, TIE, MARCH.isoformat())  # Ann & Dan again
    games = Page(client.get(f"/evenings/{evening.id}")).root.find("ul", class_="game-list")
    assert [a.get("href") for a in games.find_all("a")] == [f"/games/{recorded}",
                                                           f"/games/{game.id}"]
    spring = made(client, name="Spring 2024", starts_on="2024-03-01", ends_on="2024-05-31",
                  min_evenings="0")
    assert ladder(Page(client.get(f"/seasons/{spring}"))) == [
        ["1", "Ann", "1", "1", "2"], ["1", "Dan", "1", "1", "2"], ["3", "Bob", "1", "1", "0"],
        ["3", "Cid", "1", "1", "0"], ["3", "Eve", "1", "1", "0"], ["3", "Fay", "1", "1", "0"]]
    today = utcnow().date()
    now = made(client, name="Now", starts_on=str(today - timedelta(days=30)),
               ends_on=str(today + timedelta(days=30)), min_evenings="0")
    assert ladder(Page(client.get(f"/seasons/{now}"))) == [
        ["1", "Bob", "1", "1", "1"], ["1", "Eve", "1", "1", "1"], ["3", "Ann", "1", "1", "0"],
        ["3", "Cid", "1", "1", "0"], ["3", "Dan", "1", "1", "0"], ["3", "Fay", "1", "1", "0"]]
    bob = Page(client.get(f"/players/{player_id(db, 'Bob')}"))
    day = lambda played_on: format_date(played_on, locale="en")  # noqa: E731
    assert [row[:2] for row in trend_rows(bob)] == [["1", day(MARCH)], ["2", day(today)]]
    assert [a.get("href") for a in bob.by_id("rating-games").find_all("a")] == [
        f"/games/{tonight}", f"/games/{game.id}", f"/games/{recorded}"]  # the latest first
    # The number is drawn from his third rated game on: after tonight's, his last.
    assert [row[:2] for row in table_rows(bob, "rating-table")[1:]] == [["2", day(today)]]
