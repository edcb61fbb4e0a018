"""Game export and import as JSON (format schmier-game/1)."""
from __future__ import annotations

from flask import Blueprint

bp = Blueprint("exchange", __name__)


@bp.get("/games/<int:game_id>/export")
def export_game(game_id: int):
    """Download the game as JSON."""
    raise NotImplementedError
