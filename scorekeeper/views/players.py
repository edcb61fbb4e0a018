"""Players: each one's statistics, and the club's leaderboard."""
from __future__ import annotations

from flask import Blueprint

bp = Blueprint("players", __name__)
