"""Health check for whatever runs the app: up, its database answers and holds what the
app needs; and which version of the app it is."""
from __future__ import annotations

from importlib import metadata

from flask import Blueprint

from scorekeeper.store.db import get_engine
from scorekeeper.store.migrate import SchemaMismatch, check_schema
from scorekeeper.web.allow import Allow, allow

bp = Blueprint("health", __name__)

# The installed distribution's version (pyproject.toml's), said with every answer: what a
# server runs is one `curl -i` away.
VERSION = metadata.version("scorekeeper")


@bp.get("/healthz")
@allow(Allow.PUBLIC)
def healthz():
    """"ok" when the app's database answers with every table and column the app needs;
    no club's data is read."""
    headers = {"Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store",
               "Scorekeeper-Version": VERSION}
    try:
        check_schema(get_engine())
    except SchemaMismatch as mismatch:
        return f"{mismatch}\n", 503, headers
    return "ok\n", 200, headers
