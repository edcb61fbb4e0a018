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
