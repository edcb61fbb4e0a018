"""A club's history from paper: an evening already played is added with its date and
place (the plan form given an earlier day), nobody is asked whether they come to it,
and its games are recorded or imported into it afterwards."""
from __future__ import annotations

from datetime import date, timedelta

from scorekeeper.store.models import Attendance, Evening, Game, utcnow
from tests.members import client_as, new_club
from tests.new_games import start_game_as
from tests.views.test_view_coming import plan
from tests.views.test_view_evenings import B_SWEEPS
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
