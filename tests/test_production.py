"""Running for real: SQLite set up for several workers, and a health check."""
from __future__ import annotations

import gc
import gzip
import re
from pathlib import Path

import brotli
import pytest
from sqlalchemy import text

from scorekeeper import create_app
from scorekeeper.store.db import make_engine
from scorekeeper.web.extensions import compress
from scorekeeper.web.languages import COOKIE
from tests.members import client_as
from tests.new_games import start_game_as


def test_a_sqlite_file_gets_wal_a_busy_timeout_and_foreign_keys(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'file.sqlite'}")
    with engine.connect() as connection:
        pragma = lambda name: connection.execute(text(f"PRAGMA {name}")).scalar()  # noqa: E731
        assert pragma("journal_mode") == "wal"
        assert pragma("busy_timeout") == 15000
        assert pragma("foreign_keys") == 1


def test_an_app_served_under_gevent_is_frozen_out_of_the_collectors_walks_and_a_tests_is_not(
        tmp_path, monkeypatch):
    # (web/heap.py) What a served process made at its start is never walked again by the
    # garbage collector, and its whole heap is walked less often; the tests, which make
    # apps by the hundred, change neither.
    from scorekeeper.web import heap

    def made(name: str):
        return create_app({"TESTING": True, "SECRET_KEY": "test-secret",
                           "DATABASE_URL": f"sqlite:///{tmp_path / name}"})

    tests_app = made("tests.sqlite")
    assert gc.get_freeze_count() == 0
    thresholds = gc.get_threshold()
    assert thresholds[2] < heap.OLDEST_AFTER
    assert any(each is tests_app for each in gc.get_objects())
    monkeypatch.setattr(heap, "under_gevent", lambda: True)
    try:
        served = made("served.sqlite")
        assert gc.get_freeze_count() > 10_000
        assert not any(each is served for each in gc.get_objects())  # not walked again
        assert gc.get_threshold() == (*thresholds[:2], heap.OLDEST_AFTER)  # the whole, rarely
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)
    for each in (tests_app, served):
        each.extensions["db_engine"].dispose()


def test_healthz_answers_anyone_without_a_cookie_or_club_data(app, db):
    stranger = app.test_client()
    response = stranger.get("/healthz")
    assert (response.status_code, response.text) == (200, "ok\n")
    assert response.headers["Cache-Control"] == "no-store"
    assert "Set-Cookie" not in response.headers


def test_static_files_have_a_fingerprint_and_are_kept_a_year(app):
    import re

    client = app.test_client()
    page = client.get("/rules").text
    css = re.search(r'href="(/static/app\.css\?v=([0-9a-f]{12}))"', page)
    assert css, "the stylesheet's address carries its fingerprint"
    response = client.get(css.group(1))
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert "Set-Cookie" not in response.headers  # kept a year: it must carry nobody's session
    stale = client.get("/static/app.css?v=000000000000")
    assert stale.headers["Cache-Control"] == "no-cache"
    assert client.get("/static/app.css").headers["Cache-Control"] == "no-cache"
    js = re.search(r'src="(/static/vendor/htmx-2\.0\.11\.min\.js\?v=[0-9a-f]{12})"', page)
    assert js


def without_token(page: bytes) -> bytes:
    return re.sub(rb'name="csrf-token" content="[^"]*"', b'name="csrf-token"', page)


def test_compression_runs_after_every_other_hook_on_the_finished_page(app):
    """Flask runs after_request hooks last-registered first: Flask-Compress's must be
    registered before all the others, or a hook after it would change a page already
    compressed (Persian digits, the cache headers of static files)."""
    hooks = app.after_request_funcs[None]
    assert getattr(hooks[0], "__self__", None) is compress
    client = app.test_client()
    client.set_cookie(COOKIE, "fa")
    # Static files go out as streams, which Flask-Compress packs in brotli only.
    for url, encoding, unpack in (("/rules", "gzip", gzip.decompress),
                                  ("/static/app.css?v=" + "0" * 12, "br", brotli.decompress)):
        plain = client.get(url)
        packed = client.get(url, headers={"Accept-Encoding": encoding})
        assert packed.headers["Content-Encoding"] == encoding
        # (Each page's CSRF token is signed with the second it was made in.)
        assert without_token(unpack(packed.data)) == without_token(plain.data)
        assert packed.headers.get("Cache-Control") == plain.headers.get("Cache-Control")


def test_pages_and_static_files_are_compressed_for_browsers_that_ask(app):
    """Pages in gzip or brotli; static files (sent as streams) in brotli, as every
    browser of the last years accepts."""
    client = app.test_client()
    for url, encoding in (("/rules", "gzip"), ("/rules", "br"), ("/static/app.css", "br")):
        plain = client.get(url)
        packed = client.get(url, headers={"Accept-Encoding": encoding})
        assert packed.headers["Content-Encoding"] == encoding, url
        assert len(packed.data) < len(plain.data) / 2, url
        assert "Accept-Encoding" in packed.vary


def test_the_app_is_installable_manifest_icons_and_service_worker(app):
    import json
    import re

    client = app.test_client()
    page = client.get("/rules").text
    manifest_url = re.search(r'<link rel="manifest" href="([^"]+)"', page).group(1)
    manifest = client.get(manifest_url.replace("&amp;", "&"))
    assert manifest.mimetype == "application/manifest+json"
    data = json.loads(manifest.data)
    assert (data["start_url"], data["display"], data["theme_color"]) == ("/", "standalone",
                                                                        "#0f3d2c")
    sizes = {icon["sizes"] for icon in data["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in data["icons"]:
        assert client.get(icon["src"]).status_code == 200
    worker = client.get("/sw.js")
    assert worker.status_code == 200 and worker.mimetype == "text/javascript"
    assert worker.headers["Cache-Control"] == "no-cache"
    assert b'request.method !== "GET"' in worker.data  # no change is ever made offline
    offline = client.get("/offline").text
    assert "Everything recorded so far is safe. Reconnect to record the next hand." in offline


def test_a_poll_never_reads_the_session_and_a_page_reads_it_once(app, monkeypatch):
    """The session cookie's signature is checked only by requests that use the session:
    not by the 204 every phone asks for every 2 seconds."""
    from flask.sessions import SecureCookieSessionInterface

    reads = []
    original = SecureCookieSessionInterface.open_session

    def counted(self, app_, request):
        reads.append(request.path)
        return original(self, app_, request)

    monkeypatch.setattr(SecureCookieSessionInterface, "open_session", counted)
    phone = client_as(app, "scorer")
    game = start_game_as(phone)
    page = phone.get(f"/games/{game}")
    assert "Set-Cookie" in page.headers  # the session, with its CSRF token
    first_token = page.text.split('name="csrf-token" content="', 1)[1].split('"', 1)[0]
    reads.clear()
    poll = phone.get(f"/games/{game}/live?v=1&view=game", headers={"HX-Request": "true"})
    assert poll.status_code == 204 and reads == []
    assert "Set-Cookie" not in poll.headers
    page = phone.get(f"/games/{game}")
    assert reads == [f"/games/{game}"]
    # The session the page read is the one it had: the same CSRF token, signed anew.
    token = page.text.split('name="csrf-token" content="', 1)[1].split('"', 1)[0]
    assert token.split(".")[0] == first_token.split(".")[0]


def test_a_lazy_session_is_read_by_every_way_of_looking_at_it():
    from scorekeeper.web.extensions import LazySession

    looks = {
        "in": lambda s: "a" in s, "get": lambda s: s.get("a"), "item": lambda s: s["a"],
        "len": len, "bool": bool, "keys": lambda s: list(s.keys()), "iter": list,
        "items": lambda s: dict(s.items()), "dict": dict, "copy": lambda s: s.copy(),
        "permanent": lambda s: s.permanent,
    }
    for name, look in looks.items():
        session = LazySession(lambda: {"a": 1, "_permanent": True})
        assert not session.loaded
        look(session)
        assert session.loaded and dict.get(session, "a") == 1, name
        assert not session.modified, name
    session = LazySession(lambda: {"a": 1})
    session["b"] = 2
    assert session.modified and dict(session) == {"a": 1, "b": 2}


def test_an_unchanged_poll_costs_two_small_reads_and_no_orm_session(app, monkeypatch):
    """Every phone asks every 2 seconds: who is asking and the game's head, nothing more."""
    from sqlalchemy import event

    import scorekeeper.store.db

    phone = client_as(app, "scorer")
    game = start_game_as(phone)
    phone.get(f"/games/{game}")
    statements, sessions = [], []
    original = scorekeeper.store.db.Session
    monkeypatch.setattr(scorekeeper.store.db, "Session",
                        lambda *args, **kwargs: sessions.append(1) or original(*args, **kwargs))
    engine = app.extensions["db_engine"]
    listener = lambda *args: statements.append(args[2])  # noqa: E731 (the statement text)
    event.listen(engine, "before_cursor_execute", listener)
    try:
        poll = phone.get(f"/games/{game}/live?v=1&view=game", headers={"HX-Request": "true"})
        assert poll.status_code == 204
        assert len(statements) == 2 and sessions == [], statements
        assert "FROM device JOIN member" in statements[0] and "FROM game" in statements[1]
        statements.clear()
        # A page after it still reads and writes through the ORM as ever.
        assert phone.get(f"/games/{game}?number=1&revision=1&calls=pass",
                         headers={"HX-Request": "true"}).status_code == 200
        assert sessions == [1]
    finally:
        event.remove(engine, "before_cursor_execute", listener)
    from sqlmodel import Session

    from scorekeeper.store.models import LiveDraft

    with Session(engine) as session:  # the step's write, on the same connection, committed
        assert session.get(LiveDraft, int(game)).args["calls"] == "pass"


@pytest.mark.parametrize("path", ["/static/x/../app.js", "/static/x/%2e%2e/app.js",
                                  "/static/x%2f..%2fapp.css", "/static/app.css/",
                                  "/static/nothing.js", "/static/../pyproject.toml"])
def test_odd_static_addresses_are_not_found_never_an_error(app, path):
    response = app.test_client().get(path)
    assert response.status_code == 404, (path, response.status_code)


def test_the_apps_own_script_and_stylesheet_are_sent_minified_with_their_types(app):
    client = app.test_client()
    for name, kind in (("app.js", "text/javascript"), ("app.css", "text/css")):
        response = client.get(f"/static/{name}")
        assert response.status_code == 200 and response.mimetype == kind
        source = (Path(app.static_folder) / name).read_text(encoding="utf-8")
        assert len(response.data) < len(source) * 0.9
        assert b"\n//" not in response.data and b"/*" not in response.data
        assert client.get(f"/static/{name}", headers={
            "If-None-Match": response.headers["ETag"]}).status_code == 304


def test_a_worker_draws_in_two_threads_on_postgresql_and_one_on_sqlite_unless_told():
    """(web/aside.py) On PostgreSQL a render waits out each statement's round trip: a
    second thread draws meanwhile. On SQLite the statements run in the thread itself."""
    from scorekeeper.store.db import render_threads

    def threads(url: str, setting=None) -> int:
        return render_threads({"DATABASE_URL": url, "RENDER_THREADS": setting})

    assert threads("postgresql+psycopg://club@db/club") == 2
    assert threads("sqlite:////srv/scorekeeper.sqlite") == 1
    assert threads("postgresql+psycopg://club@db/club", 1) == 1
    assert threads("sqlite:////srv/scorekeeper.sqlite", 0) == 0
