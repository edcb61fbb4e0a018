"""The club's home page shows tonight's or the next planned evening, and each member
says in or out from there: one tap, where every phone opens the app."""
from __future__ import annotations

from datetime import timedelta

from scorekeeper.store.models import Attendance, Evening, utcnow
from tests.members import client_as
from tests.views.test_view_coming import planned_evening
from tests.views.view_helpers import Page, rows, submit


def test_the_home_page_shows_the_next_evening_and_takes_an_answer(app, client, db):
    later = planned_evening(client, db, utcnow().date() + timedelta(days=9))
    sooner = planned_evening(client, db, utcnow().date() + timedelta(days=2))
    phone = client_as(app, "viewer", name="Gus")
    page = Page(phone.get("/"))
    card = page.by_id("next-evening")
    assert card is not None
    assert card.find("a", class_="button").get("href") == f"/evenings/{sooner}"  # the first
    form, button = page.button("I'm in")
    assert form.action == f"/evenings/{sooner}/coming"
    assert button.get("aria-pressed") == "false"
    answered = submit(phone, form, button)
    assert answered.status_code == 303
    assert [(a.evening_id, a.coming) for a in rows(db, Attendance)] == [(sooner, True)]
    # The tap leads to the evening's page, which says so and who else comes.
    assert "You're in." in Page(phone.get(answered.headers["Location"])).notices()
    again = Page(phone.get("/"))
    assert again.button("I'm in")[1].get("aria-pressed") == "true"
    assert "You're in." in again.by_id("next-evening").text()
    assert "In: 1. 3 more are needed for a table." in again.by_id("next-evening").text()
    assert later != sooner


def test_an_evening_past_or_closed_is_not_shown(app, client, db):
    tonight = planned_evening(client, db, utcnow().date())
    assert Page(client.get("/")).by_id("next-evening") is not None  # tonight's is
    evening = db.get(Evening, tonight)
    evening.played_on = utcnow().date() - timedelta(days=1)  # now it is past
    db.add(evening)
    db.commit()
    assert Page(client.get("/")).by_id("next-evening") is None
