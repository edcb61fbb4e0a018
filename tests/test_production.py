"""Running for real: SQLite set up for several workers, and a health check."""
from __future__ import annotations

from sqlalchemy import text

from scorekeeper.db import make_engine


def test_a_sqlite_file_gets_wal_a_busy_timeout_and_foreign_keys(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'file.sqlite'}")
    with engine.connect() as connection:
        pragma = lambda name: connection.execute(text(f"PRAGMA {name}")).scalar()  # noqa: E731
        assert pragma("journal_mode") == "wal"
        assert pragma("busy_timeout") == 15000
        assert pragma("foreign_keys") == 1


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
