"""Installable on the phone: the service worker, the page it shows with no connection,
and the words a game page needs to play on without one."""
from __future__ import annotations

from flask import Blueprint, current_app, render_template, send_from_directory

from scorekeeper.rules import CARD_POINTS, SUITS
from scorekeeper.views.lookup import replay_or_404
from scorekeeper.views.pages import render_page
from scorekeeper.web.words import point_name
from scorekeeper.web.allow import Allow, allow

bp = Blueprint("offline", __name__)


@bp.get("/sw.js")
@allow(Allow.PUBLIC)
def service_worker():
    """Served from the root, so that it looks after every page of the app."""
    response = send_from_directory(current_app.static_folder, "sw.js",
                                   mimetype="text/javascript", max_age=0)
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/offline")
@allow(Allow.PUBLIC)
def offline():
    """What the service worker shows when the network is gone."""
    return render_page("offline.html")


@bp.get("/games/<int:game_id>/offline-words")
@allow(Allow.READ)
def words(game_id: int):
    """What the game page says when it plays on with no connection, in the reader's
    language (static/offline.js fills in the numbers and names)."""
    replay = replay_or_404(game_id)
    return render_template("hand/offline_words.html", replay=replay, teams=replay.rules.team_seats,
                           card_points=CARD_POINTS, suits=SUITS, point_name=point_name) \
        + render_template("hand/offline_check.html")
