"""A screen link: an owner makes it for the club's TV, which shows tonight's boards by it
without joining. Whoever opens it is given no cookie and becomes nobody in the club; its
board has no form and leads nowhere in the club; revoked, it is no page at once, its
polls included.

Hands as in tests/views/test_view_table_board.py: "B sweeps" (Bob bids 3 and takes all
six, B wins a game to 5 at hand 1), "C is set" (Cid bids 4: C -4, A +4, B +1).
"""
from __future__ import annotations

import re
from datetime import timedelta

import pytest

from scorekeeper.store.models import (
    Attendance, Club, Device, Evening, Game, Invite, Member, utcnow,
)
from scorekeeper.store.rosters import find_or_add_player
from tests.members import client_as, new_club
from tests.test_backup import fresh_app
from tests.views.test_view_live_wait import LONG_HOLD, TellingWatch, waits, woken_by
from tests.views.test_view_table_board import B_SWEEPS, C_IS_SET, poll_of
from tests.views.test_view_tables import SECOND_TABLE, start
from tests.views.view_helpers import HTMX, Page, rows

# Who is somebody in the club: a stranger's visits must add to none of these.
MEMBERSHIP = (Member, Device, Attendance)


def make_screen(client, db) -> Invite:
    """A screen link made on the club page, as its owner does."""
    response = client.post("/club/links", data={"role": "screen"})
    assert response.status_code == 303, response.get_data(as_text=True)[:500]
    (screen,) = rows(db, Invite, Invite.role == "screen")
    return screen


def counts(db) -> dict[str, int]:
    return {model.__name__: len(rows(db, model)) for model in MEMBERSHIP}


def addresses(page: Page) -> list[str]:
    """Every address the page leads to or asks: links, pictures, forms and polls."""
    return [value for element in page.root.iter()
            for name in ("href", "src", "action", "hx-get", "hx-post")
            if (value := element.get(name)) is not None]


def own_addresses(page: Page, token: str) -> list[str]:
    """The page's addresses outside the app's static files that are not the link's."""
    return [address for address in addresses(page)
            if not address.startswith((f"/screen/{token}", "/static/"))]


def test_a_screen_link_shows_tonights_board_and_polls_with_no_cookie(
        app, client, db, evening, play):
    game = evening.game()
    play(game, 1, *C_IS_SET)
    screen = make_screen(client, db)
    assert (screen.expires_at, screen.game_id, screen.revoked_at) == (None, None, None)
    before = counts(db)
    tv = app.test_client()  # no cookie at all
    response = tv.get(f"/screen/{screen.token}")
    assert response.status_code == 200
    assert "Set-Cookie" not in response.headers  # no session, no device: nothing kept
    page = Page(response)
    assert page.root.find("div", id="board").get("data-game") == str(game)
    assert 'aria-label="Team A: 4 points"' in page.html
    url = poll_of(page.html)
    assert url.startswith(f"/screen/{screen.token}/live?")
    unchanged = tv.get(url, headers=HTMX)
    assert unchanged.status_code == 204 and "Set-Cookie" not in unchanged.headers

    # A hand recorded on a scorer's phone: the TV's poll brings it.
    play(game, 2, "pass,pass,3,pass,pass,pass", "spades", "CCCCC", "C")
    moved = tv.get(url, headers=HTMX)
    assert moved.status_code == 200 and "Set-Cookie" not in moved.headers
    assert moved.text.lstrip().startswith('<div id="board"')
    assert 'aria-label="Team C: 2 points"' in moved.text
    chart = tv.get(Page(moved).root.find("img").get("src"))
    assert chart.status_code == 200 and chart.mimetype == "image/svg+xml"
    assert poll_of(moved.text) != url

    # Every table at once, and its poll, by the same link.
    tables = tv.get(f"/screen/{screen.token}/tables")
    assert tables.status_code == 200 and "Set-Cookie" not in tables.headers
    tables_poll = poll_of(tables.text)
    assert tables_poll.startswith(f"/screen/{screen.token}/tables/live?")
    assert tv.get(tables_poll, headers=HTMX).status_code == 204
    assert tv.get_cookie("session") is None
    assert counts(db) == before  # nobody joined, no device, no answer to the evening


def test_the_board_by_a_screen_link_has_no_form_and_leads_nowhere_in_the_club(
        app, client, db, evening, play, new_game_form):
    client_as(app, "scorer", name="Zelda")  # a member: her name is the club's own
    one = evening.game()
    play(one, 1, *B_SWEEPS)  # over: the board shows the evening's games won
    two = start(client, new_game_form, SECOND_TABLE, target="5", evening=str(evening.id),
                table="2")
    play(two, 1, *C_IS_SET)
    find_or_add_player(db, db.get(Club, rows(db, Game)[0].club_id), "Quinn")  # not tonight
    db.commit()
    screen = make_screen(client, db)
    tv = app.test_client()
    for address in (f"/screen/{screen.token}", f"/screen/{screen.token}?table=2",
                    f"/screen/{screen.token}/tables"):
        page = Page(tv.get(address))
        assert page.status == 200, address
        assert page.forms() == [], address
        assert own_addresses(page, screen.token) == [], address
        assert page.root.find("meta", name="csrf-token") is None, address
        assert "Zelda" not in page.text and "Owner" not in page.text, address
        assert "Our table" not in page.html, address  # not even the club's name
        shown = set(re.findall(r"\b[A-Z][a-z]+\b", page.text))
        assert shown & {"Ann", "Gus"}, address  # the players at the tables
        assert not shown & {"Zelda", "Owner", "Quinn"}, address
    table_one = Page(tv.get(f"/screen/{screen.token}"))
    assert "Bob 1" in table_one.section_text("board-tally")
    assert table_one.section_text("other-tables").startswith(f"Table 2, game {two}:")
    links = [a.get("href") for a in Page(tv.get(f"/screen/{screen.token}/tables"))
             .root.find_all("a")]
    assert links == [f"/screen/{screen.token}", f"/screen/{screen.token}?table=2"]


def test_a_member_opening_the_screen_link_sees_what_a_stranger_sees(app, client, db, evening,
                                                                   play):
    game = evening.game()
    play(game, 1, *C_IS_SET)
    screen = make_screen(client, db)
    page = Page(client.get(f"/screen/{screen.token}"))  # the owner's own phone
    assert page.status == 200
    assert page.root.find("div", id="board").get("data-game") == str(game)
    assert own_addresses(page, screen.token) == []
    assert f'"/games/{game}' not in page.html and f'"/evenings/{evening.id}' not in page.html


def test_a_revoked_screen_link_is_no_page_and_no_poll_at_once(app, client, db, evening, play):
    game = evening.game()
    play(game, 1, *C_IS_SET)
    screen = make_screen(client, db)
    tv = app.test_client()
    board = tv.get(f"/screen/{screen.token}")
    poll = poll_of(board.text)
    chart = Page(board).root.find("img").get("src")
    tables_poll = poll_of(tv.get(f"/screen/{screen.token}/tables").text)
    assert tv.get(chart).status_code == 200
    response = client.post(f"/club/links/{screen.id}/revoke", data={})
    assert response.status_code == 303
    for address in (f"/screen/{screen.token}", poll, f"/screen/{screen.token}/tables",
                    tables_poll, chart):
        assert tv.get(address, headers=HTMX).status_code == 404, address
        assert tv.get(address).status_code == 404, address
    play(game, 2, "pass,pass,3,pass,pass,pass", "spades", "CCCCC", "C")  # the table plays on
    assert tv.get(poll, headers=HTMX).status_code == 404


@pytest.mark.parametrize("role", ["scorer", "viewer"])
def test_only_an_owner_makes_or_revokes_a_screen_link(app, client, db, role):
    member = client_as(app, role)
    assert member.post("/club/links", data={"role": "screen"}).status_code == 403
    assert app.test_client().post("/club/links", data={"role": "screen"}).status_code == 404
    assert rows(db, Invite) == []
    screen = make_screen(client, db)
    assert member.post(f"/club/links/{screen.id}/revoke", data={}).status_code == 403
    assert app.test_client().post(f"/club/links/{screen.id}/revoke").status_code == 404
    assert rows(db, Invite)[0].revoked_at is None
    # Nor does anyone but an owner see it: on the club page, or a game's share page.
    assert screen.token not in member.get("/club").text


def test_the_club_page_lists_the_screen_link_with_its_qr_code_and_no_code(app, client, db):
    screen = make_screen(client, db)
    page = Page(client.get("/club"))
    (card,) = [section for section in page.root.find_all("section", class_="share-link")
               if f"/screen/{screen.token}" in section.find("a").get("href")]
    assert card.find("h3").text() == "Screen for a TV: tonight's boards"
    assert card.find("div", class_="qr").find("svg") is not None
    assert card.find(class_="code") is None  # a screen link's code lets nobody in
    assert f"http://localhost/screen/{screen.token}/tables" in card.text()
    assert [button.text() for button in card.find_all("button")] == ["Revoke this link"]


def test_a_games_share_page_offers_the_screen_link_to_owners(app, client, db, evening,
                                                            new_game_form):
    evening.game()
    two = start(client, new_game_form, SECOND_TABLE, target="5", evening=str(evening.id),
                table="2")
    page = Page(client.get(f"/club/share/{two}"))
    form, button = page.button("Make a screen link for a TV")
    assert form.action == "/club/links"
    assert (button.get("name"), button.get("value")) == ("role", "screen")
    screen = make_screen(client, db)
    page = Page(client.get(f"/club/share/{two}"))
    assert f"http://localhost/screen/{screen.token}?table=2" in page.text  # the game's table
    assert not page.has_button("Make a screen link for a TV")
    scorer = client_as(app, "scorer").get(f"/club/share/{two}").text
    assert screen.token not in scorer and "Make a screen link" not in scorer


def test_a_screen_link_lets_nobody_join(app, client, db):
    screen = make_screen(client, db)
    stranger = app.test_client()
    assert stranger.get(f"/join/{screen.token}").status_code == 404
    post = stranger.post(f"/join/{screen.token}", data={"your_name": "Mallory"})
    assert post.status_code == 404
    typed = stranger.post("/join", data={"code": screen.code})
    assert typed.status_code == 400 and "No club has that code" in typed.text
    assert [member.name for member in rows(db, Member)] == ["Owner"]


def test_a_screen_link_follows_whichever_evening_is_tonight(app, client, db, evening, play):
    screen = make_screen(client, db)
    tv = app.test_client()
    waiting = Page(tv.get(f"/screen/{screen.token}"))
    assert "No evening tonight" in waiting.section_text("no-evening")
    assert "No evening tonight" in Page(tv.get(f"/screen/{screen.token}/tables")).text
    url = poll_of(waiting.html)
    assert tv.get(url, headers=HTMX).status_code == 204
    game = evening.game()  # tonight's first game: the TV shows it by itself
    started = tv.get(url, headers=HTMX)
    assert Page(started).root.find("div", id="board").get("data-game") == str(game)

    # Last week's evening, closed, is not tonight's: the next one shows as it begins.
    last_week = db.get(Evening, evening.id)
    last_week.played_on -= timedelta(days=7)
    last_week.closed_at = utcnow()
    db.add(last_week)
    db.commit()
    url = poll_of(started.text)
    assert "No evening tonight" in Page(tv.get(url, headers=HTMX)).text
    assert tv.get(f"/screen/{screen.token}/games/{game}/chart.svg").status_code == 404
    evening.id = None
    new = evening.game()
    assert new != game and rows(db, Game)[-1].evening_id != last_week.id
    assert Page(tv.get(f"/screen/{screen.token}")).root.find(
        "div", id="board").get("data-game") == str(new)


def test_a_screen_link_shows_its_own_club_only(app, client, db, evening, play):
    game = evening.game()
    play(game, 1, *C_IS_SET)
    other = client_as(app, "owner", club_id=new_club(app, "Other club"))
    response = other.post("/club/links", data={"role": "screen"})
    assert response.status_code == 303
    (screen,) = rows(db, Invite, Invite.role == "screen")
    tv = app.test_client()
    page = Page(tv.get(f"/screen/{screen.token}"))
    assert "No evening tonight" in page.text and "Ann" not in page.text
    assert tv.get(f"/screen/{screen.token}/games/{game}/chart.svg").status_code == 404
    assert tv.get(f"/screen/{'x' * 32}").status_code == 404
    assert tv.get(f"/screen/{'x' * 500}").status_code == 404


def test_a_servers_backup_keeps_the_screen_link_and_a_restore_brings_it_back(
        app, client, db, evening, play, tmp_path):
    """The TV on the wall still shows tonight after the server is restored from its
    backup, as every member's phone is still signed in."""
    game = evening.game()
    play(game, 1, *C_IS_SET)
    screen = make_screen(client, db)
    path = tmp_path / "club.json"
    result = app.test_cli_runner().invoke(args=["backup", str(path)])
    assert result.exit_code == 0, result.output
    restored = fresh_app(SECRET_KEY=app.config["SECRET_KEY"])
    result = restored.test_cli_runner().invoke(args=["restore", str(path)])
    assert result.exit_code == 0, result.output
    page = Page(restored.test_client().get(f"/screen/{screen.token}"))
    assert page.status == 200
    assert page.root.find("div", id="board").get("data-game") == str(game)


def test_a_held_screen_poll_wakes_on_a_hand_and_on_the_link_revoked(app, client, db, evening,
                                                                    play):
    app.config["LIVE_WAIT_SECONDS"] = LONG_HOLD
    app.extensions["live_watch"] = TellingWatch(app.extensions["db_engine"])
    game = evening.game()
    screen = make_screen(client, db)
    tv = app.test_client()
    url = poll_of(tv.get(f"/screen/{screen.token}").text)
    assert "wait=1" in url
    response = woken_by(app, lambda: play(game, 1, *C_IS_SET), tv, url)
    assert response.status_code == 200 and waits(app) == [True]  # woken by the hand
    assert 'aria-label="Team A: 4 points"' in response.text
    url = poll_of(response.text)
    response = woken_by(
        app, lambda: client.post(f"/club/links/{screen.id}/revoke", data={}), tv, url)
    assert response.status_code == 404 and waits(app) == [True, True]  # and by the revoking
