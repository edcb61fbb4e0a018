"""Static files with a fingerprint in their address, cached by phones for a year.

Every ``url_for("static", ...)`` gets ``?v=<hash of the file>``: a new version of
app.css has a new address, so a phone may keep each one forever and never shows a
stylesheet older than the page.
"""
from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from flask import Flask, Response, request

YEAR = 365 * 24 * 3600


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
