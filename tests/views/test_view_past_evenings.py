"""A club's history from paper: an evening already played is added with its date and
place (the plan form given an earlier day), nobody is asked whether they come to it,
and its games are recorded or imported into it afterwards."""
from __future__ import annotations

from datetime import date, timedelta

from scorekeeper.store.models import Attendance, Evening, utcnow
from tests.views.test_view_coming import plan
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
