"""Static files with a fingerprint in their address, cached by phones for a year.

Every ``url_for("static", ...)`` gets ``?v=<hash of the file>``: a new version of
app.css has a new address, so a phone may keep each one forever and never shows a
stylesheet older than the page.

The app's own stylesheet and script are sent minified (comments and spaces out, made
once per version of the file): the files in ``static/`` stay readable, with their
comments, and a phone on a weak signal downloads a quarter less.

The app's scripts are ES modules. A module's import of another (``from "./page.js"``,
``import("./offline.js")``) is sent with that module's fingerprinted address, and a
module's own fingerprint is of the module as sent: a change to any module it imports,
however deep, gives it a new address too, and no phone runs a module with an older one's
imports. (tests/test_script_layers.py holds them free of circles.)
"""
from __future__ import annotations

import hashlib
import mimetypes
import os
import posixpath
import re
from functools import lru_cache
from pathlib import Path

import rcssmin
import rjsmin
from flask import Flask, Response, abort, request
from werkzeug.security import safe_join

YEAR = 365 * 24 * 3600
MINIFIERS = {".css": rcssmin.cssmin, ".js": rjsmin.jsmin}
# An import of one of the app's modules, beside it in static/: `import … from "./x.js"` or
# `import "./x.js"`, loaded with the module, or `import("./x.js")`, loaded when it runs.
MODULE_IMPORT = re.compile(r"""\b(?:from|import)\s*(\(?)\s*(["'])\./([\w-]+\.js)\2""")


def module_imports(text: str) -> dict[str, bool]:
    """The modules a module's source imports, in the order it names them: each with
    whether it is imported only later (``import()``)."""
    found: dict[str, bool] = {}
    for match in MODULE_IMPORT.finditer(text):
        found[match[3]] = found.get(match[3], True) and match[1] == "("
    return found


class StaticFiles:
    """An app's static files as its server sends them (one per app: its caches go with
    it). A file is read again when it changes on disk; a module is sent with each import
    at its fingerprinted address; the app's own .css and .js are minified."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    @lru_cache(maxsize=256)
    def read(self, filename: str, _mtime: float) -> tuple[bytes, dict[str, bool]]:
        """The file, and the modules it imports if it is one of the app's own modules."""
        body = (self.folder / filename).read_bytes()
        ours = Path(filename).suffix == ".js" and not filename.startswith("vendor/")
        return body, module_imports(body.decode("utf-8")) if ours else {}

    def source(self, filename: str) -> tuple[float, bytes, dict[str, bool]] | None:
        """(when the file last changed, the file, what it imports), or None: no such file."""
        try:
            mtime = (self.folder / filename).stat().st_mtime
            return mtime, *self.read(filename, mtime)
        except OSError:
            return None

    @lru_cache(maxsize=256)
    def linked(self, filename: str, mtime: float,
               versions: tuple[tuple[str, str | None], ...]) -> bytes:
        """A module as sent: each module it imports named by its fingerprinted address."""
        address = {name: f"./{name}?v={version}" if version else f"./{name}"
                   for name, version in versions}
        text = self.read(filename, mtime)[0].decode("utf-8")
        return MODULE_IMPORT.sub(
            lambda m: m[0].replace(f"./{m[3]}", address[m[3]]), text).encode("utf-8")

    def sent(self, filename: str) -> bytes | None:
        """The file as the server sends it (before it is minified), or None."""
        found = self.source(filename)
        if found is None:
            return None
        mtime, body, imports = found
        if not imports:
            return body
        return self.linked(filename, mtime,
                           tuple((name, self.current(name)) for name in imports))

    @staticmethod
    @lru_cache(maxsize=256)
    def fingerprint(body: bytes) -> str:
        return hashlib.sha256(body).hexdigest()[:12]

    def current(self, filename: str) -> str | None:
        """The file's fingerprint as sent now (None: no such file)."""
        body = self.sent(filename)
        return None if body is None else self.fingerprint(body)

    @lru_cache(maxsize=32)
    def minified(self, filename: str, _version: str | None) -> bytes:
        text = (self.sent(filename) or b"").decode("utf-8")
        minify = MINIFIERS[Path(filename).suffix]
        return minify(text).encode("utf-8")

    def static_imports(self, filename: str) -> list[str]:
        """Every module a page loading ``filename`` loads with it: those it imports (not
        later, by ``import()``), theirs, and so on; for the page to ask for them at once."""
        found: list[str] = []
        imports = (self.source(filename) or (0, b"", {}))[2]
        for name in [name for name, later in imports.items() if not later]:
            found += [m for m in [name, *self.static_imports(name)] if m not in found]
        return found


def init_app(app: Flask) -> None:
    """Serve the app's static files through ``StaticFiles``: the app's own .css and .js
    minified, every address with its fingerprint, cached a year by that address."""
    files = StaticFiles(Path(app.static_folder or ""))

    def static_file(filename: str):
        """Flask's static files, but the app's own .css and .js minified. An address is
        a file's own path or nothing: no "x/../", no trailing slash."""
        found = safe_join(str(files.folder), filename)
        if found is None or posixpath.normpath(filename) != filename or not os.path.isfile(found):
            abort(404)
        if Path(filename).suffix not in MINIFIERS or filename.startswith("vendor/"):
            return app.send_static_file(filename)
        body = files.minified(filename, files.current(filename))
        response = Response(body, mimetype=mimetypes.guess_type(filename)[0])
        response.set_etag(hashlib.sha256(body).hexdigest()[:16])
        return response.make_conditional(request)

    app.view_functions["static"] = static_file
    app.add_template_global(files.static_imports, "static_imports")

    @app.url_defaults
    def add_fingerprint(endpoint: str, values: dict) -> None:
        if endpoint == "static" and "filename" in values and "v" not in values:
            version = files.current(values["filename"])
            if version:
                values["v"] = version

    @app.after_request
    def cache_fingerprinted(response: Response) -> Response:
        if request.endpoint != "static" or response.status_code not in (200, 304):
            return response
        filename = (request.view_args or {}).get("filename", "")
        if request.args.get("v") and request.args.get("v") == files.current(filename):
            response.headers["Cache-Control"] = f"public, max-age={YEAR}, immutable"
        else:
            response.headers["Cache-Control"] = "no-cache"  # revalidate: ETag, 304
        return response
