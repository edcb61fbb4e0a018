"""Static files with a fingerprint in their address, cached by phones for a year.

Every ``url_for("static", ...)`` gets ``?v=<hash of the file>``: a new version of
app.css has a new address, so a phone may keep each one forever and never shows a
stylesheet older than the page.

The app's own stylesheet and script are sent minified (comments and spaces out, made
once per version of the file): the files in ``static/`` stay readable, with their
comments, and a phone on a weak signal downloads a quarter less.
"""
from __future__ import annotations

import hashlib
import mimetypes
import os
import posixpath
from functools import lru_cache
from pathlib import Path

import rcssmin
import rjsmin
from flask import Flask, Response, abort, request
from werkzeug.security import safe_join

YEAR = 365 * 24 * 3600
MINIFIERS = {".css": rcssmin.cssmin, ".js": rjsmin.jsmin}


def init_app(app: Flask) -> None:
    static = Path(app.static_folder or "")

    @lru_cache(maxsize=256)
    def fingerprint(filename: str, _mtime: float) -> str | None:
        try:
            return hashlib.sha256((static / filename).read_bytes()).hexdigest()[:12]
        except OSError:
            return None

    def current(filename: str) -> str | None:
        path = static / filename
        try:
            return fingerprint(filename, path.stat().st_mtime)
        except OSError:
            return None

    @lru_cache(maxsize=32)
    def minified(filename: str, _mtime: float) -> bytes:
        text = (static / filename).read_text(encoding="utf-8")
        minify = MINIFIERS[Path(filename).suffix]
        return minify(text).encode("utf-8")

    def static_file(filename: str):
        """Flask's static files, but the app's own .css and .js minified. An address is
        a file's own path or nothing: no "x/../", no trailing slash."""
        found = safe_join(str(static), filename)
        if found is None or posixpath.normpath(filename) != filename or not os.path.isfile(found):
            abort(404)
        if Path(filename).suffix not in MINIFIERS or filename.startswith("vendor/"):
            return app.send_static_file(filename)
        body = minified(filename, os.stat(found).st_mtime)
        response = Response(body, mimetype=mimetypes.guess_type(filename)[0])
        response.set_etag(hashlib.sha256(body).hexdigest()[:16])
        return response.make_conditional(request)

    app.view_functions["static"] = static_file

    @app.url_defaults
    def add_fingerprint(endpoint: str, values: dict) -> None:
        if endpoint == "static" and "filename" in values and "v" not in values:
            version = current(values["filename"])
            if version:
                values["v"] = version

    @app.after_request
    def cache_fingerprinted(response: Response) -> Response:
        if request.endpoint != "static" or response.status_code not in (200, 304):
            return response
        filename = (request.view_args or {}).get("filename", "")
        if request.args.get("v") and request.args.get("v") == current(filename):
            response.headers["Cache-Control"] = f"public, max-age={YEAR}, immutable"
        else:
            response.headers["Cache-Control"] = "no-cache"  # revalidate: ETag, 304
        return response
