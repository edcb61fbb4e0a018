"""Screen links: a TV on the wall shows the club's boards of tonight by a link an owner
made, without joining the club.

Whoever opens one gets tonight's table board (``?table=2``: another table's) or every
table at once, and their polls, as a stranger would see them (``clubs.access``): no
cookie is read or given, no member, device or answer to an evening is made, and nothing
leads on to the club's other pages. The link follows whichever evening is tonight's,
week after week (``table.evenings.tonight_id``), so it never runs out mid-night; an owner
revokes it from the club page, and from then on its pages and polls are "no such page".
"""
from __future__ import annotations

from flask import Blueprint, Response, abort

from scorekeeper.clubs.membership import screen_club
from scorekeeper.store.db import get_connection, get_session
from scorekeeper.store.models import Evening, Game
from scorekeeper.store.replay import load_replay
from scorekeeper.store.rosters import club_row
from scorekeeper.table.evenings import tonight_id
from scorekeeper.table.live import TonightHead, evening_head
from scorekeeper.views.games import chart_picture
from scorekeeper.views.lookup import whole_number_arg
from scorekeeper.views.boards import (
    BoardLinks, board_poll, render_no_evening, render_table_board, render_tables,
)
from scorekeeper.web.allow import Allow, allow

bp = Blueprint("screens", __name__, url_prefix="/screen")

TOKEN_LENGTH = 64  # the longest token a link holds (``Invite.token``)


def tonight_head(connection, token: str, table: int | None) -> TonightHead | None:
    """The head of tonight's board of the screen link ``token``, at one table (or every
    table: None), in a few small reads; None once the link is revoked (or never was)."""
    club_id = screen_club(connection, token) if len(token) <= TOKEN_LENGTH else None
    if club_id is None:
        return None
    evening_id = tonight_id(connection, club_id)
    return TonightHead(club_id, None if evening_id is None
                       else evening_head(connection, club_id, evening_id, table))


def _tonight(token: str, table: int | None) -> TonightHead:
    head = tonight_head(get_connection(), token, table)
    if head is None:
        abort(404)  # revoked or never made: nothing to tell
    return head


def _evening(head: TonightHead) -> Evening:
    return get_session().get(Evening, head.evening.evening_id)


@bp.get("/<screen_token>")
@allow(Allow.SCREEN)
def board(screen_token: str):
    """Tonight's table board (``?table=2``; the first by default), as an evening's."""
    table = whole_number_arg("table", 1)
    return _table_board(screen_token, _tonight(screen_token, table), table)


def _table_board(token: str, head: TonightHead, table: int):
    links = BoardLinks(token)
    if head.evening is None:
        return render_no_evening(links.live(None, table), links)
    return render_table_board(_evening(head), table, head.evening, links)


@bp.get("/<screen_token>/live")
@allow(Allow.SCREEN)
def live(screen_token: str):
    """The table board's poll: 204 while tonight is as it shows it, else the board (of
    tonight's evening, a new one too); 404 once the link is revoked."""
    table = whole_number_arg("table", 1)
    return _poll(screen_token, table, lambda head: _table_board(screen_token, head, table))


@bp.get("/<screen_token>/tables")
@allow(Allow.SCREEN)
def tables(screen_token: str):
    """Every table of tonight at once, as the evening board."""
    head = _tonight(screen_token, None)
    links = BoardLinks(screen_token)
    if head.evening is None:
        return render_no_evening(links.tables_live(None), links)
    return render_tables(_evening(head), links)


@bp.get("/<screen_token>/tables/live")
@allow(Allow.SCREEN)
def tables_live(screen_token: str):
    """Every table's board's poll: 204 while no table's game changed, else the board."""
    return _poll(screen_token, None, lambda _head: tables(screen_token))


def _poll(token: str, table: int | None, draw) -> Response:
    """A board's poll of tonight at one table (or every table: None), held while tonight
    is as the board shows it."""
    return board_poll(("screen", token, table),
                      lambda connection: tonight_head(connection, token, table), draw)


@bp.get("/<screen_token>/games/<int:game_id>/chart.svg")
@allow(Allow.SCREEN)
def chart(screen_token: str, game_id: int):
    """The score chart of one of tonight's games, for the board; any other is none."""
    head = _tonight(screen_token, None)
    game = club_row(get_session(), head.club_id, Game, game_id) if head.evening else None
    if game is None or game.evening_id != head.evening.evening_id:
        abort(404)
    return chart_picture(load_replay(get_session(), game))
