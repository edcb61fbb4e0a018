"""Finding a club's game for a view (404 for anything else)."""
from __future__ import annotations

from flask import abort

from scorekeeper.clubs import current_club
from scorekeeper.db import get_session
from scorekeeper.ledger import Table, load_table
from scorekeeper.models import Game


# The largest id a database integer column holds (PostgreSQL's INTEGER; SQLite's is
# larger): a bigger number in the URL is no game, not an overflow in the driver.
MAX_ID = 2**31 - 1


def game_or_404(game_id: int) -> Game:
    if game_id > MAX_ID:
        abort(404)
    session = get_session()
    game = session.get(Game, game_id)
    if game is None or game.club_id != current_club(session).id:
        abort(404)
    return game


def table_or_404(game_id: int) -> Table:
    return load_table(get_session(), game_or_404(game_id))
