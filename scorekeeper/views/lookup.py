"""Finding a club's game for a view (404 for anything else)."""
from __future__ import annotations

from flask import abort, g

from scorekeeper.clubs import club_game, current_club
from scorekeeper.db import get_session
from scorekeeper.ledger import Table, load_table
from scorekeeper.models import Game


def game_or_404(game_id: int) -> Game:
    session = get_session()
    game = club_game(session, current_club(session), game_id)
    if game is None:
        abort(404)
    return game


def table_or_404(game_id: int) -> Table:
    """The game as the request found it, read once per request (a check before the view
    and the view itself share it)."""
    tables = g.setdefault("tables_read", {})
    if game_id not in tables:
        tables[game_id] = load_table(get_session(), game_or_404(game_id))
    return tables[game_id]
