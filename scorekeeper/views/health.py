"""Health check for whatever runs the app: up, and its database answers."""
from __future__ import annotations

from flask import Blueprint
from sqlalchemy import text

from scorekeeper.store.db import get_engine

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz():
    """"ok" when the app can reach its database; no club's data is read."""
    with get_engine().connect() as connection:
        connection.execute(text("SELECT 1"))
    return "ok\n", 200, {"Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store"}
