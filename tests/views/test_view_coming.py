"""Who is coming: a scorer plans an evening, every member (a viewer too) says in or out
for themselves, the evening's page counts the tables of four to six, and the first
game's seats start from who is in. An earlier day adds an evening already played instead, asking
nobody (test_view_past_evenings.py)."""
from __future__ import annotations

from datetime import date, datetime, time, timedelta, timezone

from scorekeeper.store.models import Attendance, Evening, Game, utcnow
from tests.members import client_as
from tests.views.view_helpers import Page, count, rows

NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus"]


def plan(client, day: date, place: str = "Kitchen"):
    return client.post("/evenings/plan", data={"played_on": day.isoformat(), "place": place})


def planned_evening(client, db, day: date | None = None) -> int:
    response = plan(client, day or utcnow().date() + timedelta(days=3))
    assert response.status_code == 303, response.get_data(as_text=True)[:400]
    return rows(db, Evening)[-1].id


def members(app, roles_and_names):
    return {name: client_as(app, role, name=name) for role, name in roles_and_names}


def test_members_say_in_or_out_and_the_tables_are_counted(app, client, db):
    evening = planned_evening(client, db)
    phones = members(app, [("viewer", name) for name in NAMES])
    for name in NAMES:
        answer = phones[name].post(f"/evenings/{evening}/coming", data={"coming": "in"})
        assert answer.status_code == 303
    phones["Gus"].post(f"/evenings/{evening}/coming", data={"coming": "out"})  # a change of mind
    assert count(db, Attendance) == len(NAMES)  # one answer each, the latest
    page = Page(phones["Ann"].get(f"/evenings/{evening}"))
    said = page.section_text("coming-title-section")
    assert "In (6): Ann, Bob, Cid, Dan, Eve, Fay" in said
    assert "Out (1): Gus" in said
    assert "1 table: 6 players. Sitting out: 0." in said
    assert "You're in." in page.text
    form = page.form_posting_to(f"/evenings/{evening}/coming")
    assert "I'm out" in form.button_texts()


def test_the_first_round_seats_who_is_in_on_the_day(app, client, db):
    evening = planned_evening(client, db, utcnow().date())
    phones = members(app, [("scorer", name) for name in NAMES[:6]])
    for name in NAMES[:6]:
        phones[name].post(f"/evenings/{evening}/coming", data={"coming": "in"})
    page = Page(client.get(f"/evenings/{evening}"))
    start = page.root.find("a", id="start-table-1").get("href")
    new_game = Page(client.get(start))
    assert sorted(new_game.root.find("input", name=f"seat_{seat}").get("value")
                  for seat in range(1, 7)) == sorted(NAMES[:6])


def test_seven_in_make_one_table_and_the_last_to_say_so_sits_out(app, client, db,
                                                                 new_game_form):
    evening = planned_evening(client, db, utcnow().date())
    phones = members(app, [("viewer", name) for name in NAMES])
    for name in NAMES:
        phones[name].post(f"/evenings/{evening}/coming", data={"coming": "in"})
    page = Page(client.get(f"/evenings/{evening}"))
    assert "1 table: 6 players. Sitting out: 1." in page.section_text("coming-title-section")
    assert page.section_text("sitting-out") == "Sitting out: Gus"
    start = page.root.find("a", id="start-table-1").get("href")
    assert page.root.find("a", id="start-table-2") is None
    form = Page(client.get(start)).form_posting_to("/games/new")
    response = client.post("/games/new", data=dict(form.fields()))
    assert response.status_code == 303, response.get_data(as_text=True)[:500]
    # The next round: Gus sat out, so Gus plays; another sits out (the last of the rest).
    again = Page(client.get(f"/evenings/{evening}"))
    assert again.section_text("sitting-out") == "Sitting out: Fay"


def test_twelve_in_make_two_tables_started_one_at_a_time(app, client, db, new_game_form):
    names = NAMES + ["Hal", "Ida", "Joe", "Kim", "Lea"]
    evening = planned_evening(client, db, utcnow().date())
    phones = members(app, [("viewer", name) for name in names])
    for name in names:
        phones[name].post(f"/evenings/{evening}/coming", data={"coming": "in"})
    page = Page(client.get(f"/evenings/{evening}"))
    assert page.root.find(id="sitting-out") is None
    starts = [page.root.find("a", id=f"start-table-{n}").get("href") for n in (1, 2)]
    assert "table=2" in starts[1] and "table=" not in starts[0]
    for number, start in enumerate(starts, start=1):  # each table started as proposed
        form = Page(client.get(start)).form_posting_to("/games/new")
        response = client.post("/games/new", data=dict(form.fields()))
        assert response.status_code == 303, response.get_data(as_text=True)[:500]
        if number == 1:  # the round half started: the other table is proposed as it was
            half = Page(client.get(f"/evenings/{evening}"))
            assert half.root.find("a", id="start-table-1") is None
            assert "Table 1 plays game" in half.section_text("next-round")
            assert half.root.find("a", id="start-table-2").get("href") == starts[1]
    tables = {game.table_number: game for game in rows(db, Game)}
    assert set(tables) == {1, 2}
    # The next round: both tables mix, nobody sits out.
    again = Page(client.get(f"/evenings/{evening}"))
    assert again.root.find("a", id="start-table-2") is not None
    assert again.root.find(id="sitting-out") is None


def test_fewer_than_four_say_how_many_more_are_wanted(app, client, db):
    evening = planned_evening(client, db)
    phones = members(app, [("viewer", name) for name in NAMES[:4]])
    for name in NAMES[:3]:
        phones[name].post(f"/evenings/{evening}/coming", data={"coming": "in"})
    said = Page(client.get(f"/evenings/{evening}")).section_text("coming-title-section")
    assert "In: 3. 1 more is needed for a table." in said
    phones["Dan"].post(f"/evenings/{evening}/coming", data={"coming": "in"})
    said = Page(client.get(f"/evenings/{evening}")).section_text("coming-title-section")
    assert "1 table: 4 players. Sitting out: 0." in said


def test_a_viewer_may_not_plan_and_a_stranger_finds_nothing(app, client, db):
    evening = planned_evening(client, db)
    viewer = client_as(app, "viewer", name="Vic")
    assert plan(viewer, utcnow().date()).status_code == 403
    stranger = app.test_client()
    assert stranger.post(f"/evenings/{evening}/coming", data={"coming": "in"}).status_code == 404
    assert count(db, Attendance) == 0


def test_bad_answers_and_past_evenings_change_nothing(app, client, db):
    evening = planned_evening(client, db)
    answer = client.post(f"/evenings/{evening}/coming", data={"coming": "maybe"})
    assert answer.status_code == 303
    assert "Say in or out." in Page(client.get(f"/evenings/{evening}")).text
    evening_row = rows(db, Evening)[-1]
    evening_row.played_on = utcnow().date() - timedelta(days=2)
    db.add(evening_row)
    db.commit()
    client.post(f"/evenings/{evening}/coming", data={"coming": "in"})
    assert count(db, Attendance) == 0
    assert "This evening is past or closed" in Page(client.get(f"/evenings/{evening}")).text


def test_a_planned_evening_is_not_tonights_before_its_day(client, db, new_game_form):
    planned_evening(client, db)  # three days on
    response = client.post("/games/new", data=new_game_form())
    assert response.status_code == 303
    evenings = rows(db, Evening)
    assert [e.played_on for e in evenings] == [utcnow().date() + timedelta(days=3),
                                               utcnow().date()]


def test_saying_in_again_keeps_ones_place(app, client, db):
    evening = planned_evening(client, db)
    phones = members(app, [("viewer", name) for name in NAMES])
    for name in NAMES:
        phones[name].post(f"/evenings/{evening}/coming", data={"coming": "in"})
    phones["Ann"].post(f"/evenings/{evening}/coming", data={"coming": "in"})  # sure, sure
    said = Page(client.get(f"/evenings/{evening}")).section_text("coming-title-section")
    assert "In (7): Ann, Bob, Cid, Dan, Eve, Fay, Gus" in said


def test_the_same_evening_planned_twice_is_one_evening(client, db):
    day = utcnow().date() + timedelta(days=4)
    first, again = plan(client, day), plan(client, day)
    assert first.headers["Location"] == again.headers["Location"]
    assert [e.played_on for e in rows(db, Evening)].count(day) == 1
    plan(client, day, place="The Anchor")  # elsewhere: another evening
    assert [e.played_on for e in rows(db, Evening)].count(day) == 2


def test_the_answer_just_given_is_said_once(app, client, db):
    """After the tap, the notice says "You're in." and the hint under the buttons does not
    say it again; on a later visit the hint says it."""
    evening = planned_evening(client, db)
    for answer, words in (("in", "You're in."), ("out", "You're out.")):
        told = Page(client.post(f"/evenings/{evening}/coming", data={"coming": answer},
                                follow_redirects=True))
        assert told.text.count(words) == 1
        assert "Tap the other button to change your answer." in told.text
        later = Page(client.get(f"/evenings/{evening}"))
        assert later.text.count(words) == 1
        assert f"{words} Tap the other button" in later.section_text("coming-title-section")


def test_an_evening_planned_days_ahead_is_open_on_its_day(app, client, db, monkeypatch):
    """Planned a week ahead, nothing has changed in it since: on its day it is tonight's,
    open, with its first round to start (its quiet hours count from its day, not from
    when it was planned)."""
    day = utcnow().date() + timedelta(days=7)
    evening = planned_evening(client, db, day)
    phones = members(app, [("scorer", name) for name in NAMES[:6]])
    for name in NAMES[:6]:
        phones[name].post(f"/evenings/{evening}/coming", data={"coming": "in"})
    that_night = datetime.combine(day, time(19), tzinfo=timezone.utc)
    for module in ("scorekeeper.table.evenings", "scorekeeper.views.evenings",
                   "scorekeeper.table.attendance", "scorekeeper.views.games"):
        monkeypatch.setattr(f"{module}.utcnow", lambda: that_night, raising=False)
    page = Page(client.get(f"/evenings/{evening}"))
    assert "so it is over" not in page.text
    assert page.root.find("a", id="start-table-1") is not None
