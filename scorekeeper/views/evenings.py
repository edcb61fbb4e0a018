"""Evenings: the history of a club's gatherings, and each evening's games and tally."""
from __future__ import annotations

from flask import Blueprint

from scorekeeper.clubs import roster
from scorekeeper.db import get_session
from scorekeeper.evenings import evening_games, evenings_page, tally
from scorekeeper.ledger import load_tables
from scorekeeper.models import Evening
from scorekeeper.pages import render_page
from scorekeeper.summaries import game_counts
from scorekeeper.views.lookup import current_club, row_or_404, whole_number_arg
from scorekeeper.words import verdict_sentence

bp = Blueprint("evenings", __name__, url_prefix="/evenings")


@bp.get("")
def history():
    """The club's evenings, newest first, a page at a time; optionally one player's."""
    session = get_session()
    club = current_club(session)
    page = whole_number_arg("page", 1)
    players = roster(session, club)
    player_id = whole_number_arg("player", None)
    player = next((p for p in players if p.id == player_id), None)
    evenings, more = evenings_page(session, club, page, player.id if player else None)
    counts = game_counts(session, (e.id for e in evenings))
    return render_page("evenings.html", evenings=evenings, counts=counts, page=page,
                       more=more, players=players, player=player)


@bp.get("/<int:evening_id>")
def show(evening_id: int):
    """One evening: its games with results and reasons, and who won how many."""
    session = get_session()
    evening = row_or_404(Evening, evening_id)
    tables = load_tables(session, evening_games(session, evening))
    # A roster name is unique in its club, so the tally's names lead to the players' pages.
    player_ids = {player.name: player.id for player in roster(session, current_club(session))}
    return render_page("evening.html", evening=evening, tables=tables, tally=tally(tables),
                       player_ids=player_ids, verdict_sentence=verdict_sentence)
