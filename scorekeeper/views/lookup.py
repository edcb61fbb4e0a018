"""Finding the member's club and its rows for a view (404 for anything else), and
reading query numbers."""
from __future__ import annotations

from flask import abort, g, request

from scorekeeper.clubs.access import current_member
from scorekeeper.store.db import get_session
from scorekeeper.store.models import MAX_ID, Club, Game
from scorekeeper.store.replay import Replay, load_replay
from scorekeeper.store.rosters import club_row
from scorekeeper.text.digits import latin_digits


def current_club(session) -> Club:
    """The club of the member this request comes from (views run only for members)."""
    member = current_member()
    if member is None:
        abort(404)
    return session.get(Club, member.club_id)


def game_or_404(game_id: int) -> Game:
    return row_or_404(Game, game_id)


def replay_or_404(game_id: int) -> Replay:
    """The game as the request found it, read once per request (a check before the view
    and the view itself share it)."""
    replays = g.setdefault("tables_read", {})
    if game_id not in replays:
        replays[game_id] = load_replay(get_session(), game_or_404(game_id))
    return replays[game_id]


def row_or_404(model, row_id: int):
    """The member's club's row of ``model`` with that id (a game, an evening, a player, an
    invite, a member), else 404. The club's own row isn't read: its id is the member's."""
    member = current_member()
    row = club_row(get_session(), member.club_id, model, row_id) if member else None
    if row is None:
        abort(404)
    return row


def whole_number_arg(name: str, default):
    """A query argument as a positive whole number; anything else is the default."""
    value = latin_digits(request.args.get(name, ""))  # as a Persian page's field sends it
    # Its length first: Python won't read a number of more than 4,300 digits at all.
    ok = value.isascii() and value.isdigit() and len(value) <= 10 and 0 < int(value) <= MAX_ID
    return int(value) if ok else default
