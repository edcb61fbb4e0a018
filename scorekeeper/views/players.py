"""Players: each one's statistics, and the club's leaderboard (as a page and as CSV)."""
from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, request
from flask_babel import format_decimal, format_percent, gettext as _, lazy_gettext as _l
from sqlmodel import Session

from scorekeeper.csvfile import csv_download, spreadsheet_safe
from scorekeeper.db import get_session
from scorekeeper.charts import trend_chart
from scorekeeper.models import Club, Player
from scorekeeper.pages import render_page
from scorekeeper.views.lookup import current_club, row_or_404, whole_number_arg
from scorekeeper.rules import BIDS, POINTS, Point
from scorekeeper.stats import (
    DEFAULT_SORT, FIGURES, PlayerStats, natural_order, rank, thinned, trend,
)
from scorekeeper.summaries import club_stats, evening_records, one_player_stats
from scorekeeper.words import point_name

bp = Blueprint("players", __name__)

NONE_YET = "—"  # a figure that can't be worked out yet: no finished game, no bid


@dataclass(frozen=True)
class Column:
    """A leaderboard column: the figure it shows (a key of FIGURES) and how."""

    key: str
    title: object  # a lazy string (None for a point): the reader's language, per request
    shows: str  # "count", "percent", "average" (one decimal) or "per_hand" (two)

    @property
    def label(self) -> str:
        if self.title is None:
            return _("%(point)s per hand", point=point_name(self.key))
        return str(self.title)


def _per_hand(point: Point) -> Column:
    return Column(point.value, None, "per_hand")


COLUMNS = (
    Column("played", _l("Played"), "count"),
    Column("won", _l("Won"), "count"),
    Column("lost", _l("Lost"), "count"),
    Column("win_rate", _l("Win rate"), "percent"),
    Column("bids", _l("Bids"), "count"),
    Column("made", _l("Made"), "count"),
    Column("set", _l("Set"), "count"),
    Column("made_rate", _l("Made rate"), "percent"),
    Column("taken", _l("Points per bid"), "average"),
    Column("hands", _l("Hands"), "count"),
    *(_per_hand(point) for point in POINTS),
    Column("points", _l("All points per hand"), "per_hand"),
    Column("throw_ins", _l("Throw-ins dealt"), "count"),
)


def shown(value, shows: str) -> str:
    """A figure as the page writes it, in the reader's locale."""
    if value is None:
        return NONE_YET
    if shows == "percent":
        return format_percent(value)
    if shows == "average":
        return format_decimal(value, format="#,##0.0")
    if shows == "per_hand":
        return format_decimal(value, format="#,##0.00")
    return format_decimal(value)


def exported(value, shows: str) -> str:
    """A figure for a spreadsheet: plain digits and a decimal point, rates as fractions."""
    if value is None:
        return ""
    if shows == "count":
        return str(value)
    return f"{value:.4f}"


@dataclass(frozen=True)
class Board:
    """The leaderboard as the request asked for it (bad arguments fall back quietly)."""

    sort: str
    descending: bool
    min_games: int
    rows: list[PlayerStats]

    @property
    def column(self) -> Column | None:
        return next((c for c in COLUMNS if c.key == self.sort), None)

    def link_args(self, sort: str) -> dict:
        """The query of a header link: sort by that column, flipping it if it's this one."""
        descending = natural_order(sort)
        if sort == self.sort:
            descending = not self.descending
        args: dict = {"sort": sort}
        if descending != natural_order(sort):
            args["order"] = "desc" if descending else "asc"
        if self.min_games != 1:
            args["min"] = self.min_games
        return args

    def args(self) -> dict:
        """This board's own query (for the CSV link and the filter form)."""
        args = {"sort": self.sort, "min": self.min_games}
        if self.descending != natural_order(self.sort):
            args["order"] = "desc" if self.descending else "asc"
        return args

    def aria_sort(self, sort: str) -> str | None:
        if sort != self.sort:
            return None
        return "descending" if self.descending else "ascending"


def _club_board(session: Session, club: Club) -> Board:
    sort = request.args.get("sort", DEFAULT_SORT)
    if sort not in FIGURES:
        sort = DEFAULT_SORT
    order = request.args.get("order")
    descending = {"asc": False, "desc": True}.get(order or "", natural_order(sort))
    min_games = whole_number_arg("min", 1)
    stats = club_stats(session, club.id)
    return Board(sort, descending, min_games, rank(stats, sort, descending, min_games))


@bp.get("/players")
def leaderboard():
    """The club's players side by side, sorted by any figure, with a minimum of games."""
    session = get_session()
    board = _club_board(session, current_club(session))
    return render_page("leaderboard.html", board=board, columns=COLUMNS, figures=FIGURES,
                       shown=shown)


@bp.get("/players.csv")
def leaderboard_csv():
    """The leaderboard as a CSV file: the same rows and columns as the page."""
    session = get_session()
    board = _club_board(session, current_club(session))
    rows = (
        [spreadsheet_safe(stats.name),
         *(exported(FIGURES[column.key](stats), column.shows) for column in COLUMNS)]
        for stats in board.rows
    )
    return csv_download([_("Player"), *(column.label for column in COLUMNS)], rows,
                        "schmier-players.csv")


@bp.get("/players/<int:player_id>")
def show(player_id: int):
    """One player's record: games, partners, bids, points taken and throw-ins."""
    session = get_session()
    player = row_or_404(Player, player_id)
    stats = one_player_stats(session, player)
    trend_points, every = thinned(trend(evening_records(session, player)) if stats else [])
    return render_page("player.html", player=player, stats=stats, bids=BIDS, points=POINTS,
                       point_name=point_name, shown=shown, trend=trend_points, every=every,
                       chart=trend_chart(trend_points) if len(trend_points) > 1 else None)

