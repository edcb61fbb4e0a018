"""The evening's next round at tables of four, five and six: each table with its size and
how it plays, its "Start table N" link filling the new-game form with its seats and
layout; and the club's choice, on the club page, of the fewest tables or as many sixes
as fit. The tables each count makes are worked out by hand (RULES.md's seats)."""
from __future__ import annotations

from urllib.parse import parse_qs, urlparse

from sqlmodel import Session, select

from scorekeeper.store.models import Club, utcnow
from tests.members import client_as
from tests.views.test_view_coming import members, planned_evening
from tests.views.view_helpers import Page, rows

NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida", "Joe", "Kim",
         "Lea", "Mo", "Ned"]
# Each layout's teams by seat (RULES.md, "Tables of four, five and six").
TEAM_SEATS = {"3x2": {"A": (1, 4), "B": (2, 5), "C": (3, 6)}, "2x2": {"A": (1, 3), "B": (2, 4)}}


def all_in(app, client, db, names) -> int:
    """Tonight's evening, with ``names`` saying they are in, in that order."""
    evening = planned_evening(client, db, utcnow().date())
    phones = members(app, [("viewer", name) for name in names])
    for name in names:
        phones[name].post(f"/evenings/{evening}/coming", data={"coming": "in"})
    return evening


def proposed_tables(page: Page) -> list[tuple[str, dict, list[str]]]:
    """Each table of the next round: its words, its link's fields (one value each), and
    its list's lines (teams, or players seat by seat)."""
    tables = []
    for number in range(1, 10):
        link = page.root.find("a", id=f"start-table-{number}")
        if link is None:
            break
        fields = {name: values[0] for name, values in
                  parse_qs(urlparse(link.get("href")).query).items()}
        lines = [item.text() for item in page.root.find_all("li")
                 if item.parent.get("aria-labelledby") == f"next-table-{number}"]
        tables.append((page.section_text(f"next-table-{number}-layout"), fields, lines))
    return tables


def seats_of(fields: dict) -> list[str]:
    return [fields[f"seat_{seat}"] for seat in range(1, 7) if f"seat_{seat}" in fields]


def test_fourteen_make_two_fives_for_themselves_and_two_pairs_of_four(app, client, db):
    evening = all_in(app, client, db, NAMES)
    page = Page(client.get(f"/evenings/{evening}"))
    said = page.section_text("coming-title-section")
    assert "3 tables: 5 + 5 + 4 players. Sitting out: 0." in said
    assert page.by_id("sitting-out") is None
    tables = proposed_tables(page)
    assert [(words, fields["teams"], len(seats_of(fields))) for words, fields, _ in tables] == [
        ("5 players, each for themselves", "c5", 5),
        ("5 players, each for themselves", "c5", 5),
        ("4 players in two pairs", "2x2", 4)]
    for number, (_words, fields, lines) in enumerate(tables, start=1):
        assert fields["evening"] == str(evening)
        assert fields.get("table", "1") == str(number)
        if fields["teams"] == "c5":  # no teams: the players seat by seat
            assert lines == seats_of(fields)
        else:
            seats = seats_of(fields)
            assert lines == [f"{team}: {seats[first - 1]} & {seats[second - 1]}"
                             for team, (first, second) in TEAM_SEATS["2x2"].items()]
    seated = [name for _words, fields, _lines in tables for name in seats_of(fields)]
    assert sorted(seated) == sorted(NAMES)  # everyone once, nobody out


def test_a_club_preferring_sixes_gets_a_six_and_two_fours(app, client, db):
    evening = all_in(app, client, db, NAMES)
    assert client.post("/club/tables", data={"prefers_sixes": "y"}).status_code == 303
    page = Page(client.get(f"/evenings/{evening}"))
    assert "3 tables: 6 + 4 + 4 players. Sitting out: 0." in page.section_text(
        "coming-title-section")
    tables = proposed_tables(page)
    assert [(words, fields["teams"]) for words, fields, _lines in tables] == [
        ("6 players in three pairs", "3x2"), ("4 players in two pairs", "2x2"),
        ("4 players in two pairs", "2x2")]
    for _words, fields, lines in tables:
        seats = seats_of(fields)
        assert len(seats) == {"3x2": 6, "2x2": 4}[fields["teams"]]
        assert lines == [f"{team}: {seats[first - 1]} & {seats[second - 1]}"
                         for team, (first, second) in TEAM_SEATS[fields["teams"]].items()]
    assert sorted(name for _w, fields, _l in tables for name in seats_of(fields)) == sorted(NAMES)


def test_four_here_make_a_first_round_and_three_make_none(app, client, db):
    evening = all_in(app, client, db, NAMES[:3])
    assert Page(client.get(f"/evenings/{evening}")).by_id("next-round") is None
    members(app, [("viewer", "Dan")])["Dan"].post(f"/evenings/{evening}/coming",
                                                  data={"coming": "in"})
    ((words, fields, lines),) = proposed_tables(Page(client.get(f"/evenings/{evening}")))
    assert words == "4 players in two pairs" and fields["teams"] == "2x2"
    assert sorted(seats_of(fields)) == sorted(NAMES[:4]) and "seat_5" not in fields
    assert len(lines) == 2


def test_the_club_page_sets_whether_the_club_prefers_sixes(app, client, db):
    page = Page(client.get("/club"))
    form = page.form_posting_to("/club/tables")
    box = form.element.find("input", name="prefers_sixes")
    assert box.get("type") == "checkbox" and "checked" not in box.attrs
    assert box.parent.tag == "label" and box.parent.text() == "Prefer tables of six"
    told = Page(client.post("/club/tables", data={"prefers_sixes": "y"}, follow_redirects=True))
    assert "as many tables of six as fit" in " ".join(told.notices())
    assert rows(db, Club)[0].prefers_sixes
    box = told.form_posting_to("/club/tables").element.find("input", name="prefers_sixes")
    assert "checked" in box.attrs
    db.expire_all()
    told = Page(client.post("/club/tables", data={}, follow_redirects=True))  # box left empty
    assert "the fewest tables, as even as can be" in " ".join(told.notices())
    assert not rows(db, Club)[0].prefers_sixes


def test_a_scorer_may_set_it_and_bad_input_or_a_viewer_changes_nothing(app, client, db):
    scorer = client_as(app, "scorer", name="Bea")
    assert scorer.post("/club/tables", data={"prefers_sixes": "y"}).status_code == 303
    assert rows(db, Club)[0].prefers_sixes
    for bad in ({"prefers_sixes": "no"}, {"prefers_sixes": ["y", "maybe"]}):
        db.expire_all()
        told = Page(scorer.post("/club/tables", data=bad, follow_redirects=True))
        assert told.status == 200
        assert "Tick the box or leave it empty; nothing was changed." in " ".join(told.notices())
        assert rows(db, Club)[0].prefers_sixes
    viewer = client_as(app, "viewer", name="Vic")
    assert "/club/tables" not in viewer.get("/club").text
    assert viewer.post("/club/tables", data={}).status_code == 403
    db.expire_all()
    assert rows(db, Club)[0].prefers_sixes


def test_the_setting_without_its_token_is_refused(csrf_app):
    client = client_as(csrf_app)
    client.get("/club")
    response = client.post("/club/tables", data={"prefers_sixes": "y"})
    assert response.status_code == 400
    assert "Nothing was changed." in " ".join(Page(response).alerts())
    with Session(csrf_app.extensions["db_engine"]) as session:
        assert not session.exec(select(Club)).one().prefers_sixes
