"""Backups: the whole club as one JSON file, written and read back."""
from __future__ import annotations

from flask import Blueprint

bp = Blueprint("backups", __name__)
