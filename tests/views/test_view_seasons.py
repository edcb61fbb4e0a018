"""Seasons: owners make, change and delete them; every member sees each season's ladder;
another club's season is no page at all.

The ladders are read on the history of tests/views/test_view_players.py (three games of
one evening, tonight), worked out by hand from its docstring: games won Dan 2, Ann 1,
Gus 1 (game 2 alone), Bob, Cid, Eve and Fay none.
"""
from __future__ import annotations

from datetime import date, timedelta

import pytest
from sqlmodel import Session, select

from scorekeeper.store.models import Evening, Player, Season
from tests.members import client_as, new_club
from tests.views.test_view_players import history  # noqa: F401  (a fixture)
from tests.views.test_view_evenings import B_SWEEPS, new_game
from tests.views.view_helpers import Page, calls_for

TODAY = date.today()


def season_form(**overrides) -> dict:
    form = {"name": "Spring", "starts_on": str(TODAY - timedelta(days=30)),
            "ends_on": str(TODAY + timedelta(days=30)), "ranked_by": "won",
            "min_evenings": "1", "drop_worst": "0"}
    return form | overrides


def seasons_in(app) -> list[tuple]:
    with Session(app.extensions["db_engine"]) as session:
        return session.exec(select(Season.club_id, Season.name, Season.starts_on,
                                   Season.ends_on, Season.ranked_by, Season.min_evenings,
                                   Season.drop_worst).order_by(Season.id)).all()


def ladder(page: Page) -> list[list[str]]:
    """The standings' rows: place, player, evenings, counted, figure (the page shows the
    figure ranked by right after the player, where a phone's screen still has it)."""
    table = page.by_id("standings")
    assert table is not None, page.text[:800]
    rows = [[cell.text() for cell in row.iter() if cell.tag in ("th", "td")]
            for row in table.find("tbody").find_all("tr")]
    return [[place, player, played, counted, figure]
            for place, player, figure, played, counted, *_each_evening in rows]


def made(client, **overrides) -> int:
    response = client.post("/seasons", data=season_form(**overrides))
    assert response.status_code == 303, response.get_data(as_text=True)[:800]
    return int(response.headers["Location"].rsplit("/", 1)[1])


def test_without_a_season_everything_is_one_lifetime(app, client):
    page = Page(client.get("/seasons"))
    assert page.status == 200
    assert "all the club's evenings count as one lifetime" in page.section_text("no-seasons")
    assert page.root.find("a", href="/players") is not None
    page.form_posting_to("/seasons")  # the owner's form for a new one
    scorer = Page(client_as(app, "scorer").get("/seasons"))
    assert "one lifetime" in scorer.text
    assert [form for form in scorer.forms() if form.method == "post"
            and form.action == "/seasons"] == []
    assert 'href="/seasons"' in client.get("/club").text
    assert 'href="/seasons"' in client.get("/players").text


def test_an_owner_makes_a_season_whose_ladder_follows_the_games(app, client, history):
    season_id = made(client, min_evenings="1")
    assert seasons_in(app) == [(1, "Spring", TODAY - timedelta(days=30),
                                TODAY + timedelta(days=30), "won", 1, 0)]
    page = Page(client.get(f"/seasons/{season_id}"))
    assert "Season Spring is made." in page.notices()
    assert ladder(page) == [["1", "Dan", "1", "1", "2"], ["2", "Ann", "1", "1", "1"],
                            ["2", "Gus", "1", "1", "1"], ["4", "Bob", "1", "1", "0"],
                            ["4", "Cid", "1", "1", "0"], ["4", "Eve", "1", "1", "0"],
                            ["4", "Fay", "1", "1", "0"]]
    # Game 2 abandoned: Gus played nothing else, Dan keeps game 1's win.
    _, two, _ = history
    assert client.post(f"/games/{two}/abandon", data={"confirm": "y"}).status_code == 303
    assert ladder(Page(client.get(f"/seasons/{season_id}"))) == [
        ["1", "Ann", "1", "1", "1"], ["1", "Dan", "1", "1", "1"], ["3", "Bob", "1", "1", "0"],
        ["3", "Cid", "1", "1", "0"], ["3", "Eve", "1", "1", "0"], ["3", "Fay", "1", "1", "0"]]


def test_an_owner_changes_the_rule_and_the_ladder_with_it(app, client, history):
    season_id = made(client)
    edit = Page(client.get(f"/seasons/{season_id}/edit"))
    assert edit.form_posting_to(f"/seasons/{season_id}/edit").checked("ranked_by") == "won"
    response = client.post(f"/seasons/{season_id}/edit",
                           data=season_form(name="Spring cup", ranked_by="place",
                                            min_evenings="2"))
    assert response.status_code == 303
    assert seasons_in(app)[0][1:] == ("Spring cup", TODAY - timedelta(days=30),
                                      TODAY + timedelta(days=30), "place", 2, 0)
    page = Page(client.get(f"/seasons/{season_id}"))
    # One evening each, two asked: nobody qualifies; places that evening by games won.
    assert ladder(page) == [["— not qualified", "Dan", "1", "1", "1.0"],
                            ["— not qualified", "Ann", "1", "1", "2.0"],
                            ["— not qualified", "Gus", "1", "1", "2.0"],
                            ["— not qualified", "Bob", "1", "1", "4.0"],
                            ["— not qualified", "Cid", "1", "1", "4.0"],
                            ["— not qualified", "Eve", "1", "1", "4.0"],
                            ["— not qualified", "Fay", "1", "1", "4.0"]]
    assert "not qualified yet" in page.section_text("not-qualified")


def test_an_overlapping_season_is_refused_with_a_reason_and_nothing_changes(app, client):
    first = made(client)
    made(client, name="Summer", starts_on=str(TODAY + timedelta(days=31)),
         ends_on=str(TODAY + timedelta(days=90)))
    before = seasons_in(app)
    new = Page(client.post("/seasons", data=season_form(
        name="Overlap", starts_on=str(TODAY + timedelta(days=30)),
        ends_on=str(TODAY + timedelta(days=40)))))
    assert new.status == 400
    assert len(new.alerts()) == 1 and "Spring already takes in some of these days" in \
        new.alerts()[0] and "seasons can't overlap" in new.alerts()[0]
    changed = Page(client.post(f"/seasons/{first}/edit", data=season_form(
        ends_on=str(TODAY + timedelta(days=31)))))
    assert changed.status == 400
    assert "Summer already takes in some of these days" in changed.alerts()[0]
    assert seasons_in(app) == before
    # A season may keep its own days, and end the day before the next begins.
    assert client.post(f"/seasons/{first}/edit", data=season_form(name="Spring 2")
                       ).status_code == 303


@pytest.mark.parametrize("field, value, message", [
    ("name", "  ", "Name: Give the season a name."),
    ("ends_on", str(TODAY - timedelta(days=31)), "Last day: The last day can't come before the first."),
    ("starts_on", "31/12/2025", "First day: Not a valid date value."),
    ("ranked_by", "luck", "Ranked by: Not a valid choice."),
    ("min_evenings", "-1", "Evenings to qualify: From 0 to 999."),
    ("drop_worst", "", "Worst evenings dropped: Give a number of evenings, 0 or more."),
])
def test_a_bad_field_is_said_in_the_page_and_keeps_nothing(app, client, field, value, message):
    page = Page(client.post("/seasons", data=season_form(**{field: value})))
    assert page.status == 400
    assert message in page.alerts()
    assert seasons_in(app) == []


@pytest.mark.parametrize("role", ["scorer", "viewer"])
def test_scorers_and_viewers_see_the_ladder_but_change_no_season(app, client, history, role):
    season_id = made(client)
    member = client_as(app, role)
    before = seasons_in(app)
    for url, data in (("/seasons", season_form(name="Mine")),
                      (f"/seasons/{season_id}/edit", season_form(name="Mine")),
                      (f"/seasons/{season_id}/delete", {})):
        assert member.post(url, data=data).status_code == 403, url
    assert member.get(f"/seasons/{season_id}/edit").status_code == 403
    assert seasons_in(app) == before
    page = Page(member.get(f"/seasons/{season_id}"))
    assert ladder(page)[0] == ["1", "Dan", "1", "1", "2"]
    assert f'href="/seasons/{season_id}/edit"' not in page.html
    assert [form for form in page.forms() if form.method == "post"
            and form.action.startswith("/seasons")] == []


def test_another_clubs_season_is_no_page(app, client):
    other = new_club(app, "Elsewhere")
    with Session(app.extensions["db_engine"]) as session:
        theirs = Season(club_id=other, name="Their cup", starts_on=TODAY, ends_on=TODAY)
        session.add(theirs)
        session.commit()
        season_id = theirs.id
    for url in (f"/seasons/{season_id}", f"/seasons/{season_id}/edit"):
        assert client.get(url).status_code == 404, url
    for url in (f"/seasons/{season_id}/edit", f"/seasons/{season_id}/delete"):
        assert client.post(url, data=season_form()).status_code == 404, url
    assert "Their cup" not in client.get("/seasons").text
    # Their season's days are theirs: this club's may take them in.
    made(client, starts_on=str(TODAY), ends_on=str(TODAY))
    assert len(seasons_in(app)) == 2


def test_an_owner_deletes_a_season_and_its_evenings_stay(app, client, history):
    season_id = made(client)
    response = client.post(f"/seasons/{season_id}/delete", data={})
    assert response.status_code == 303 and response.headers["Location"] == "/seasons"
    assert seasons_in(app) == []
    with Session(app.extensions["db_engine"]) as session:
        assert len(session.exec(select(Evening)).all()) == 1
    assert "Season Spring is deleted; its evenings stay." in Page(client.get("/seasons")).notices()


def test_the_ladder_has_a_column_per_evening_and_marks_what_was_dropped(
        client, db, new_game_form, play):
    # Two evenings tonight, each one game: B (Bob & Eve) wins the first, A (Ann & Dan)
    # the second (the same hand, A's seat 4 bidding).
    first = new_game(client, new_game_form, evening="new")
    play(first, 1, *B_SWEEPS)
    second = new_game(client, new_game_form, evening="new")
    play(second, 1, calls_for(1, {4: 3}), "hearts", "AAAAA", "A")
    season_id = made(client, drop_worst="1")
    page = Page(client.get(f"/seasons/{season_id}"))
    table = page.by_id("standings")
    heads = [th.text() for th in table.find("thead").find_all("th")]
    assert len(heads) == 7  # place, player, figure, evenings, counted, then one per evening
    rows = {row.find("th").text(): row.find_all("td", class_="evening-column")
            for row in table.find("tbody").find_all("tr")}
    # Bob won the first evening (1) and not the second (0, dropped); Ann the other way.
    assert [cell.text() for cell in rows["Bob"]] == ["1", "0 dropped"]
    assert [cell.find("s") is not None for cell in rows["Bob"]] == [False, True]
    assert [cell.text() for cell in rows["Ann"]] == ["0 dropped", "1"]
    assert "struck through" in page.section_text("dropped-hint")


@pytest.mark.parametrize("ladder_rule", ["won", "place", "rating"])
def test_the_season_page_brings_the_figures_up_to_date_itself(app, client, history,
                                                              ladder_rule):
    """Its notice of games to go is gone without a visit to any other page."""
    season_id = made(client, ranked_by=ladder_rule)
    first = Page(client.get(f"/seasons/{season_id}"))
    second = Page(client.get(f"/seasons/{season_id}"))
    assert first.by_id("catching-up") is None, first.section_text("catching-up")
    assert second.by_id("catching-up") is None, second.section_text("catching-up")


def test_a_head_to_head_page_brings_the_figures_up_to_date_itself(app, client, db, history):
    ann, bob = (db.exec(select(Player.id).where(Player.name == name)).one()
                for name in ("Ann", "Bob"))
    page = Page(client.get(f"/players/{ann}/versus/{bob}"))
    assert page.by_id("catching-up") is None, page.section_text("catching-up")
