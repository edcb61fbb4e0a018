"""Installable on the phone: the service worker, and the page it shows with no connection."""
from __future__ import annotations

from flask import Blueprint, current_app, send_from_directory

from scorekeeper.pages import render_page

bp = Blueprint("offline", __name__)


@bp.get("/sw.js")
def service_worker():
    """Served from the root, so that it looks after every page of the app."""
    response = send_from_directory(current_app.static_folder, "sw.js",
                                   mimetype="text/javascript", max_age=0)
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/offline")
def offline():
    """What the service worker shows when the network is gone."""
    return render_page("offline.html")
