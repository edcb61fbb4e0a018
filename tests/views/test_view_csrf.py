"""CSRF as at the table: every POST needs the token, and it lasts the whole evening."""
from __future__ import annotations

import time
from datetime import datetime, timedelta, timezone
from email.utils import parsedate_to_datetime
from types import SimpleNamespace

import itsdangerous.timed
import pytest
from sqlmodel import Session

from scorekeeper import create_app
from tests.databases import database_url
from tests.members import COOKIE, client_as, member_cookie
from tests.views.view_helpers import HTMX, Game, Hand, Page, calls_for, count, hand_form, submit

FIVE_HOURS = 5 * 60 * 60
BOB_BIDS_4 = calls_for(1, {2: 4})


@pytest.fixture
def csrf_db(csrf_app):
    with Session(csrf_app.extensions["db_engine"]) as session:
        yield session


def token_from_page(client, url="/games/new") -> str:
    """The token as htmx reads it: from the page's csrf-token meta tag."""
    return Page(client.get(url)).csrf_meta()


def start_with_token(client, new_game_form) -> int:
    token = token_from_page(client)
    response = client.post("/games/new", data=new_game_form(),
                           headers={"X-CSRFToken": token})
    assert response.status_code == 303
    return int(response.headers["Location"].rsplit("/", 1)[1])


def assert_refused(response):
    assert response.status_code == 400
    page = Page(response)
    (alert,) = page.alerts()
    assert "could not be checked as coming from this app" in alert
    assert "Nothing was changed." in alert


def test_a_new_game_without_a_token_is_refused_and_nothing_stored(csrf_app, csrf_db,
                                                                  new_game_form):
    client = client_as(csrf_app)
    client.get("/games/new")  # the session exists; only the token is missing
    response = client.post("/games/new", data=new_game_form())
    assert_refused(response)
    assert count(csrf_db, Game) == 0


def test_a_hand_without_a_token_is_refused_and_nothing_stored(csrf_app, csrf_db,
                                                              new_game_form):
    client = client_as(csrf_app)
    game = start_with_token(client, new_game_form)
    form = hand_form(1, BOB_BIDS_4, "hearts", "ABBCC", "A")
    assert_refused(client.post(f"/games/{game}/hands", data=form))
    assert_refused(client.post(f"/games/{game}/hands", data=form,
                               headers={**HTMX, "HX-Target": "game",
                                        "X-CSRFToken": "not-the-token"}))
    assert count(csrf_db, Hand) == 0


def test_the_meta_tag_token_in_the_header_works(csrf_app, csrf_db, new_game_form):
    client = client_as(csrf_app)
    game = start_with_token(client, new_game_form)
    token = token_from_page(client, f"/games/{game}")
    response = client.post(f"/games/{game}/hands",
                           data=hand_form(1, BOB_BIDS_4, "hearts", "ABBCC", "A"),
                           headers={**HTMX, "HX-Target": "game", "X-CSRFToken": token})
    assert response.status_code == 200
    assert count(csrf_db, Game) == 1 and count(csrf_db, Hand) == 1


def test_the_token_in_a_plain_form_works_without_javascript(csrf_app, csrf_db, new_game_form):
    client = client_as(csrf_app)
    page = Page(client.get("/games/new"))
    form = page.root.find("form", id="new-game")
    assert form.find("input", name="csrf_token") is not None
    game = start_with_token(client, new_game_form)
    page = Page(client.get(f"/games/{game}", query_string={
        "calls": BOB_BIDS_4, "trump": "hearts", "high": "A", "low": "B", "right": "B",
        "left": "C", "joker": "C", "game": "A"}))
    response = submit(client, page.form_posting_to(f"/games/{game}/hands"))
    assert response.status_code == 303
    assert count(csrf_db, Hand) == 1


def post_five_hours_later(app, monkeypatch, new_game_form):
    """Open the page, wait five hours (itsdangerous reads time.time()), then post."""
    client = client_as(app)
    token = token_from_page(client)
    real_time = time.time
    monkeypatch.setattr(itsdangerous.timed, "time",
                        SimpleNamespace(time=lambda: real_time() + FIVE_HOURS))
    return client.post("/games/new", data=new_game_form(), headers={"X-CSRFToken": token})


def test_a_token_still_works_five_hours_later(csrf_app, csrf_db, monkeypatch, new_game_form):
    response = post_five_hours_later(csrf_app, monkeypatch, new_game_form)
    assert response.status_code == 303
    assert count(csrf_db, Game) == 1


def test_the_same_wait_fails_with_flask_wtfs_one_hour_limit(monkeypatch, new_game_form):
    """The check above can fail: with the one-hour default the token has expired."""
    app = create_app({"TESTING": True, "DATABASE_URL": database_url(),
                      "SECRET_KEY": "csrf-test-secret", "WTF_CSRF_TIME_LIMIT": 3600})
    assert_refused(post_five_hours_later(app, monkeypatch, new_game_form))
    with Session(app.extensions["db_engine"]) as session:
        assert count(session, Game) == 0


def test_the_session_cookie_outlives_the_browser(csrf_app):
    client = client_as(csrf_app)
    response = client.get("/games/new")
    (cookie,) = [c for c in response.headers.getlist("Set-Cookie") if c.startswith("session=")]
    attributes = dict(
        part.strip().split("=", 1) for part in cookie.split(";")[1:] if "=" in part)
    assert "Expires" in attributes  # permanent: not a browser-session cookie
    expires = parsedate_to_datetime(attributes["Expires"])
    assert expires > datetime.now(timezone.utc) + timedelta(days=30)


# --- over HTTPS: the page's own origin, as browsers send it ------------------------
# A browser says where a form or a script's request comes from: Origin on every POST
# (Referrer-Policy same-origin keeps it real for the app's own pages), Referer too.
# Neither is needed over plain HTTP, where a LAN's phones come as they are.

HOST = "club.test"
DIRECT = {"base_url": f"https://{HOST}"}  # HTTPS served by the app itself
# Through a proxy that serves HTTPS and forwards plain HTTP (SCOREKEEPER_BEHIND_PROXY=1).
PROXIED = {"headers": {"X-Forwarded-Proto": "https", "X-Forwarded-Host": HOST,
                       "X-Forwarded-For": "192.0.2.10"}}


@pytest.fixture(params=["direct", "proxied"])
def https(request, csrf_app):
    """(the app, how a request reaches it over HTTPS)."""
    if request.param == "direct":
        yield csrf_app, DIRECT
        return
    app = create_app({"TESTING": True, "DATABASE_URL": database_url(),
                      "SECRET_KEY": "csrf-test-secret", "PROXY_FIX": True})
    app.test_client_class = type(csrf_app.test_client())
    yield app, PROXIED
    app.extensions["db_engine"].dispose()


def post_new_game(app, how, new_game_form, **headers):
    """Open the new-game form over HTTPS, then post it with the token and ``headers``
    (and no Referer unless given one)."""
    client = app.test_client()
    client.set_cookie(COOKIE, member_cookie(app), domain=HOST if how is DIRECT else "localhost")
    kwargs = dict(how)
    sent = {**kwargs.pop("headers", {}), **headers}
    token = Page(client.get("/games/new", headers=sent, **kwargs)).csrf_meta()
    return client.post("/games/new", data=new_game_form(),
                       headers={**sent, "X-CSRFToken": token}, **kwargs)


def games_in(app) -> int:
    with Session(app.extensions["db_engine"]) as session:
        return count(session, Game)


def test_over_https_a_form_from_the_apps_own_page_is_accepted_without_a_referer(
        https, new_game_form):
    app, how = https
    response = post_new_game(app, how, new_game_form, Origin=f"https://{HOST}")
    assert response.status_code == 303, response.text[:500]
    assert games_in(app) == 1


def test_over_https_a_referer_from_the_apps_own_page_is_accepted_too(https, new_game_form):
    app, how = https
    response = post_new_game(app, how, new_game_form, Referer=f"https://{HOST}/games/new")
    assert response.status_code == 303, response.text[:500]
    assert games_in(app) == 1


@pytest.mark.parametrize("said", [
    {"Origin": "https://elsewhere.example"},
    {"Origin": f"http://{HOST}"},  # the same name, not the same origin
    {"Origin": f"https://{HOST}:8443"},
    {"Referer": "https://elsewhere.example/games/new"},
    {"Origin": "https://elsewhere.example", "Referer": f"https://{HOST}/games/new"},
    {},  # a browser over HTTPS always says: a request that doesn't is nobody's page
    {"Origin": "null"},
])
def test_over_https_a_form_from_another_origin_is_refused_and_nothing_stored(
        https, new_game_form, said):
    app, how = https
    assert_refused(post_new_game(app, how, new_game_form, **said))
    assert games_in(app) == 0


def test_over_plain_http_another_sites_origin_is_refused_and_none_is_needed(
        csrf_app, csrf_db, new_game_form):
    client = client_as(csrf_app)
    token = token_from_page(client)
    assert_refused(client.post("/games/new", data=new_game_form(), headers={
        "X-CSRFToken": token, "Origin": "http://elsewhere.example"}))
    assert count(csrf_db, Game) == 0
    response = client.post("/games/new", data=new_game_form(), headers={"X-CSRFToken": token})
    assert response.status_code == 303
    assert count(csrf_db, Game) == 1
