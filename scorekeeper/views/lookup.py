"""Finding a club's game for a view (404 for anything else)."""
from __future__ import annotations

from flask import abort

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
    return load_table(get_session(), game_or_404(game_id))
