"""Every phone follows the table: a phone on a finished game's page goes to the evening's
next game by itself once a scorer starts it, and is told so there. A phone looking at
that game on purpose stays: opened after the table moved on, being corrected, or come
back to with the Back button. The poll of an unchanged finished game stays a small read.

Games to 5 (three pairs, Ann deals game 1): "B sweeps" is Bob (B) bidding 3 and taking
all six points, so Bob & Eve win at hand 1.
"""
from __future__ import annotations

import re

import pytest
from sqlalchemy import event

from scorekeeper import create_app
from scorekeeper.clubs.access import COOKIE
from tests.members import client_as, member_cookie
from tests.views.view_helpers import HTMX, Page, calls_for, hand_form

B_SWEEPS = (calls_for(1, {2: 3}), "hearts", "BBBBB", "B")  # with Ann dealing
C_IS_SET = (calls_for(1, {3: 4}), "hearts", "AAAAB", "none")  # the game goes on
ROLES = ("owner", "scorer", "viewer")


def poll_url(html: str) -> str:
    """The address a game page polls (its hidden hx-get element)."""
    match = re.search(r'hx-get="([^"]*/live\?[^"]*)" hx-trigger="load, every 2s" hx-request=[^>]*? hx-target="#game"',
                      html)
    assert match, "the page does not poll"
    return match.group(1).replace("&amp;", "&")


def moved_to(response) -> str | None:
    """Where the poll's answer sends the phone (htmx's whole-page redirect), if anywhere."""
    assert response.status_code in (200, 204), response.status_code
    return response.headers.get("HX-Redirect")


@pytest.mark.parametrize("role", ROLES)
def test_a_phone_on_a_finished_game_moves_to_the_next_game_and_is_told(
        app, evening, play, role):
    phone = client_as(app, role, name=f"{role.title()} Phone")
    one = evening.game()
    url = poll_url(phone.get(f"/games/{one}").text)
    play(one, 1, *B_SWEEPS)
    over = phone.get(url, headers=HTMX)  # the phone catches up: game over
    assert "Bob & Eve win!" in Page(over).text
    url = poll_url(over.text)
    unchanged = phone.get(url, headers=HTMX)
    assert unchanged.status_code == 204 and moved_to(unchanged) is None

    two = evening.game()  # on the scorer's phone
    moving = phone.get(url, headers=HTMX)
    assert moving.status_code == 204 and moving.data == b""
    assert moved_to(moving) == f"/games/{two}"
    arrived = Page(phone.get(f"/games/{two}"))
    assert arrived.notices() == [
        f"Game {one} is over and game {two} has started: you're on it now."]
    assert Page(phone.get(f"/games/{two}")).notices() == []  # said once
    # The Back button shows game 1's page as it was: its poll leaves it there now.
    back = phone.get(url, headers=HTMX)
    assert back.status_code == 204 and moved_to(back) is None


def test_every_phone_on_the_game_moves_each_told_on_its_own_arrival(app, evening, play):
    phones = [client_as(app, "viewer", name=name) for name in ("Vic", "Val")]
    one = evening.game()
    play(one, 1, *B_SWEEPS)
    urls = [poll_url(phone.get(f"/games/{one}").text) for phone in phones]  # game over
    two = evening.game()
    for phone, url in zip(phones, urls):
        assert moved_to(phone.get(url, headers=HTMX)) == f"/games/{two}"
    for phone in phones:
        assert Page(phone.get(f"/games/{two}")).notices() == [
            f"Game {one} is over and game {two} has started: you're on it now."]


def test_a_phone_whose_polls_reach_another_app_server_moves_on_all_the_same(
        app, evening, play):
    # Nothing of it is kept in a process: the database, and the phone's own cookies.
    other = create_app({"TESTING": True, "DATABASE_URL": app.config["DATABASE_URL"],
                        "SECRET_KEY": app.config["SECRET_KEY"], "WTF_CSRF_ENABLED": False})
    try:
        cookie = member_cookie(app, "viewer", name="Vic")
        here, there = app.test_client(), other.test_client()
        for phone in (here, there):
            phone.set_cookie(COOKIE, cookie)
        one = evening.game()
        play(one, 1, *B_SWEEPS)
        url = poll_url(here.get(f"/games/{one}").text)
        two = evening.game()
        assert moved_to(there.get(url, headers=HTMX)) == f"/games/{two}"
        for name in ("scorekeeper_left", "scorekeeper_moved"):
            here.set_cookie(name, there.get_cookie(name, path="/games/").value, path="/games/")
        assert Page(here.get(f"/games/{two}")).notices() == [
            f"Game {one} is over and game {two} has started: you're on it now."]
        assert moved_to(here.get(url, headers=HTMX)) is None  # the Back button, here
    finally:
        other.extensions["db_engine"].dispose()


def test_the_phone_goes_to_the_game_the_table_plays_now(app, evening, play):
    viewer = client_as(app, "viewer", name="Vic")
    one = evening.game()
    play(one, 1, *B_SWEEPS)
    url = poll_url(viewer.get(f"/games/{one}").text)
    evening.game()
    three = evening.game()  # the phone was asleep through game 2's start
    assert moved_to(viewer.get(url, headers=HTMX)) == f"/games/{three}"


def test_a_finished_game_opened_after_the_table_moved_on_stays(app, evening, play):
    viewer = client_as(app, "viewer", name="Vic")
    one = evening.game()
    play(one, 1, *B_SWEEPS)
    two = evening.game()
    page = viewer.get(f"/games/{one}")  # a look back, from the evening's page, say
    assert "Bob & Eve win!" in Page(page).text
    url = poll_url(page.text)
    for _ in range(2):
        poll = viewer.get(url, headers=HTMX)
        assert poll.status_code == 204 and moved_to(poll) is None
    assert Page(viewer.get(f"/games/{two}")).notices() == []  # nobody moved it: nothing said


def test_a_correction_under_way_is_never_moved(app, client, evening, play):
    scorer = client_as(app, "scorer", name="Sam")
    viewer = client_as(app, "viewer", name="Vic")
    one = evening.game()
    play(one, 1, *B_SWEEPS)
    viewer_url = poll_url(viewer.get(f"/games/{one}").text)
    # Sam opens hand 1 for correction before the next game begins.
    editing = scorer.get(f"/games/{one}/hands/1/edit")
    correction_url = poll_url(editing.text)
    assert "view=correction" in correction_url
    evening.game()
    poll = scorer.get(correction_url, headers=HTMX)
    assert poll.status_code == 204 and moved_to(poll) is None
    # Sam corrects it there: C takes the Joker, B still wins (5 points). The game part
    # his answer shows follows game 1, changed after the table left it: it stays, and so
    # does every phone still on it.
    saved = scorer.post(f"/games/{one}/hands/1", headers=HTMX,
                        data=hand_form(1, B_SWEEPS[0], "hearts", "BBBBC", "B"))
    assert saved.status_code == 200 and "Hand 1 corrected" in Page(saved).text
    assert "Bob & Eve win!" in Page(saved).text
    assert "view=game" in poll_url(saved.text)
    assert moved_to(scorer.get(poll_url(saved.text), headers=HTMX)) is None
    caught_up = viewer.get(viewer_url, headers=HTMX)
    assert moved_to(caught_up) is None and "Bob & Eve win!" in Page(caught_up).text
    assert moved_to(viewer.get(poll_url(caught_up.text), headers=HTMX)) is None


def test_a_game_left_unfinished_keeps_its_phones(app, evening, play):
    viewer = client_as(app, "viewer", name="Vic")
    one = evening.game()
    play(one, 1, *C_IS_SET)  # nobody has 5: the game goes on
    url = poll_url(viewer.get(f"/games/{one}").text)
    evening.game()  # a new game begun beside it
    for _ in range(2):
        poll = viewer.get(url, headers=HTMX)
        assert poll.status_code == 204 and moved_to(poll) is None


def test_a_phone_on_an_abandoned_game_moves_to_the_next(app, client, evening, play):
    viewer = client_as(app, "viewer", name="Vic")
    one = evening.game()
    play(one, 1, *C_IS_SET)
    assert client.post(f"/games/{one}/abandon", data={"confirm": "y"}).status_code == 303
    url = poll_url(viewer.get(f"/games/{one}").text)
    two = evening.game()
    assert moved_to(viewer.get(url, headers=HTMX)) == f"/games/{two}"
    assert Page(viewer.get(f"/games/{two}")).notices() == [
        f"Game {one} is over and game {two} has started: you're on it now."]


def test_a_finished_games_own_board_is_no_game_page_to_move(app, client, evening, play):
    one = evening.game()
    play(one, 1, *B_SWEEPS)
    evening.game()
    board = client.get(f"/games/{one}/board")  # opened later: it shows game 1, and polls it
    match = re.search(r'hx-get="([^"]*/live\?[^"]*view=board[^"]*)"', board.text)
    answer = client.get(match.group(1).replace("&amp;", "&"), headers=HTMX)
    assert answer.status_code == 204 and moved_to(answer) is None


def reads_of(app, phone, url) -> tuple[object, list[str]]:
    """The poll's answer, and the statements it sent to the database."""
    statements: list[str] = []
    engine = app.extensions["db_engine"]
    listener = lambda *args: statements.append(args[2])  # noqa: E731 (the statement text)
    event.listen(engine, "before_cursor_execute", listener)
    try:
        return phone.get(url, headers=HTMX), statements
    finally:
        event.remove(engine, "before_cursor_execute", listener)


def test_an_unchanged_finished_game_poll_stays_two_small_reads(app, evening, play):
    viewer = client_as(app, "viewer", name="Vic")
    one = evening.game()
    play(one, 1, *B_SWEEPS)
    url = poll_url(viewer.get(f"/games/{one}").text)
    poll, statements = reads_of(app, viewer, url)
    assert poll.status_code == 204 and dict(poll.headers) == {"Cache-Control": "no-store"}
    assert len(statements) == 2, statements  # who is asking; the game's head
    evening.game()
    assert moved_to(viewer.get(url, headers=HTMX))  # moved, once
    # Back on game 1 (the Back button), and a phone that opened it later: no replay.
    later = client_as(app, "viewer", name="Val")
    later_url = poll_url(later.get(f"/games/{one}").text)
    for phone, address in ((viewer, url), (later, later_url)):
        poll, statements = reads_of(app, phone, address)
        assert poll.status_code == 204 and dict(poll.headers) == {"Cache-Control": "no-store"}
        assert len(statements) == 2, statements
