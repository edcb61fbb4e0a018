"""Games: the list, starting a new one, and the game page."""
from __future__ import annotations

from flask import Blueprint, abort, redirect, request, url_for

from scorekeeper.clubs import current_club, roster
from scorekeeper.db import get_session
from scorekeeper.forms import NewGameForm, all_errors
from scorekeeper.ledger import load_table
from scorekeeper.models import Game
from scorekeeper.pages import render_game, render_page
from scorekeeper.rules import SEATS, TeamLayout, teams_for
from scorekeeper.seating import name_problems, start_game
from scorekeeper.views.lookup import table_or_404
from scorekeeper.words import verdict_sentence, violation_message
from sqlmodel import select

bp = Blueprint("games", __name__)

RECENT_GAMES = 30


@bp.get("/")
def index():
    """The club's recent games and a way to start one."""
    session = get_session()
    club = current_club(session)
    games = session.exec(
        select(Game).where(Game.club_id == club.id).order_by(Game.id.desc()).limit(RECENT_GAMES)
    ).all()
    tables = [load_table(session, game) for game in games]
    return render_page("index.html", tables=tables, verdict_sentence=verdict_sentence)


def _teams_preview(form: NewGameForm) -> list[tuple[str, list[tuple[int, str]]]]:
    layout = form.teams.data if form.teams.data in {t.value for t in TeamLayout} else "3x2"
    names = dict(zip(SEATS, form.names()))
    return [
        (team, [(seat, (names.get(seat) or "").strip()) for seat in seats])
        for team, seats in teams_for(layout).items()
    ]


def _render_new(form: NewGameForm, messages=(), status: int = 200, bad_seats=frozenset()):
    session = get_session()
    return render_page(
        "new_game.html", status=status, form=form, messages=list(messages),
        bad_seats=bad_seats,
        roster=roster(session, current_club(session)), teams_preview=_teams_preview(form),
    )


@bp.route("/games/new", methods=["GET", "POST"])
def new():
    """Seat six players, choose house rules and the first dealer."""
    form = NewGameForm(formdata=request.form if request.method == "POST" else request.args or None)
    if request.method == "GET":
        return _render_new(form)
    # Every problem at once, so a clumsy form is put right in one go.
    form.validate()
    problems = name_problems(form.names())
    if form.errors or problems:
        messages = [violation_message(p) for p in problems] + all_errors(form)
        bad_seats = {p.params["seat"] for p in problems if "seat" in p.params}
        return _render_new(form, messages, 422, bad_seats)
    session = get_session()
    game = start_game(session, current_club(session), form.names(), form.house_rules(),
                      form.dealer())
    return redirect(url_for("games.show", game_id=game.id), 303)


@bp.get("/games/<int:game_id>")
def show(game_id: int):
    """The game: scores, the hand being entered, the history."""
    return render_game(table_or_404(game_id))


@bp.get("/games/<int:game_id>/hands/<int:number>/edit")
def edit_hand(game_id: int, number: int):
    """The game page with a past hand open for correction."""
    table = table_or_404(game_id)
    if not 1 <= number <= len(table.hands):
        abort(404)
    return render_game(table, editing=number)
