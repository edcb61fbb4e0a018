"""Players: each one's statistics, and the club's leaderboard (as a page and as CSV)."""
from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, request
from flask_babel import format_decimal, format_percent, gettext as _, lazy_gettext as _l
from sqlmodel import Session

from scorekeeper.csvfile import csv_download, spreadsheet_safe
from scorekeeper.db import get_session
from scorekeeper.charts import rating_chart, trend_chart
from scorekeeper.models import Club, Player
from scorekeeper.pages import render_page
from scorekeeper.ratings import Rating, club_ratings, player_rating
from scorekeeper.views.lookup import current_club, row_or_404, whole_number_arg
from scorekeeper.rules import BIDS, POINTS, Point
from scorekeeper.stats import (
    DEFAULT_SORT, FIGURES, PlayerStats, natural_order, rank, thinned, trend,
)
from scorekeeper.summaries import (
    abandoned_games, club_stats, evening_records, one_player_stats,
)
from scorekeeper.words import minus, point_name

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
        """The figure's whole name: the CSV's heading, the sentence saying the sort."""
        if self.title is None:
            return _("%(point)s per hand", point=point_name(self.key))
        return str(self.title)

    @property
    def heading(self) -> str:
        """The page's heading: a point's name alone, its group saying "per hand"."""
        return point_name(self.key) if self.title is None else str(self.title)


def _per_hand(point: Point) -> Column:
    return Column(point.value, None, "per_hand")


PLAYED = Column("played", _l("Played"), "count")
WON = Column("won", _l("Won"), "count")
LOST = Column("lost", _l("Lost"), "count")
WIN_RATE = Column("win_rate", _l("Win rate"), "percent")
BID_COUNT = Column("bids", _l("Bids"), "count")
MADE = Column("made", _l("Made"), "count")
SET = Column("set", _l("Set"), "count")
MADE_RATE = Column("made_rate", _l("Made rate"), "percent")
TAKEN = Column("taken", _l("Points taken per bid"), "average")
HANDS = Column("hands", _l("Hands played"), "count")
PER_POINT = {point: _per_hand(point) for point in POINTS}
ALL_POINTS = Column("points", _l("All points taken per hand"), "per_hand")
THROW_INS = Column("throw_ins", _l("Throw-ins dealt"), "count")
RATING = Column("rating", _l("Rating"), "rating")
RATED = Column("rated", _l("Rated games"), "count")

# Every figure, in the CSV's order.
COLUMNS = (PLAYED, WON, LOST, WIN_RATE, BID_COUNT, MADE, SET, MADE_RATE, TAKEN, HANDS,
           *PER_POINT.values(), ALL_POINTS, THROW_INS, RATING, RATED)


@dataclass(frozen=True)
class Group:
    """The few columns a phone shows at once (the CSV has them all), what they mean,
    and the figure a tap on the group sorts by."""

    key: str
    title: object  # lazy
    columns: tuple[Column, ...]
    sort: str
    note: object  # lazy: what the group's figures count


_EACH_POINT = _l("How often the player's team took each point, per hand played; a tied "
                 "Game counts for nobody.")
# What the rating is, in one sentence: on the leaderboard and on each player's page.
RATING_MEANS = _l("The rating weighs every finished game against the strength of the "
                  "partners and the opponents (openskill's Plackett-Luce model); it is "
                  "the estimate less three times its ± uncertainty, so it rises as games "
                  "prove it.")
GROUPS = (
    Group("rating", _l("Rating"), (RATING, RATED), "rating", RATING_MEANS),
    Group("games", _l("Games"), (PLAYED, WON, LOST, WIN_RATE), "win_rate",
          _l("Played counts games still in play too; win rate counts finished games "
             "only.")),
    Group("bids", _l("Bids"), (BID_COUNT, MADE, SET, MADE_RATE), "made_rate",
          _l("Bids: the hands the player won the auction. Made: the team took at least "
             "the bid; set: fewer.")),
    Group("hands", _l("Hands"), (HANDS, ALL_POINTS, TAKEN, THROW_INS), "points",
          _l("Hands played leave out throw-ins. Points taken per bid: what the team took, "
             "made or set, in the hands the player bid.")),
    Group("high", _l("High, Low, Bauers"),
          tuple(PER_POINT[p] for p in (Point.HIGH, Point.LOW, Point.RIGHT, Point.LEFT)),
          Point.HIGH.value, _EACH_POINT),
    Group("joker", _l("Joker, Game"), (PER_POINT[Point.JOKER], PER_POINT[Point.GAME]),
          Point.JOKER.value, _EACH_POINT),
)
GROUP_OF = {column.key: group for group in GROUPS for column in group.columns}
GROUP_OF["name"] = GROUP_OF["played"]  # the games: a name sort needs no rating


def shown(value, shows: str) -> str:
    """A figure as the page writes it, in the reader's locale."""
    if value is None:
        return NONE_YET
    if shows == "rating":
        return rating_text(value)
    if shows == "percent":
        return format_percent(value)
    if shows == "average":
        return format_decimal(value, format="#,##0.0")
    if shows == "per_hand":
        return format_decimal(value, format="#,##0.00")
    return format_decimal(value)


def rating_text(rating: Rating) -> str:
    """A rating as pages write it: the shown rating and its "± sigma"."""
    return _("%(rating)s ± %(sigma)s", rating=minus(rating.shown),  # a real minus sign
             sigma=format_decimal(rating.sigma, format="#,##0.0"))


def exported(value, shows: str) -> str:
    """A figure for a spreadsheet: plain digits and a decimal point, rates as fractions,
    a rating as its shown number."""
    if value is None:
        return ""
    if shows == "rating":
        return str(value.shown)
    if shows == "count":
        return str(value)
    return f"{value:.4f}"


@dataclass(frozen=True)
class Board:
    """The leaderboard as the request asked for it (bad arguments fall back quietly):
    sorted by one figure, showing one group of columns (the sorted figure's, unless the
    query names another)."""

    sort: str
    descending: bool
    min_games: int
    rows: list[PlayerStats]
    group: Group

    @property
    def column(self) -> Column | None:
        return next((c for c in COLUMNS if c.key == self.sort), None)

    def _query(self, sort: str, descending: bool, group: Group) -> dict:
        args: dict = {"sort": sort}
        if descending != natural_order(sort):
            args["order"] = "desc" if descending else "asc"
        if group is not GROUP_OF[sort]:
            args["show"] = group.key
        if self.min_games != 1:
            args["min"] = self.min_games
        return args

    def link_args(self, sort: str) -> dict:
        """The query of a header link: sort by that column, flipping it if it's this one."""
        descending = natural_order(sort)
        if sort == self.sort:
            descending = not self.descending
        return self._query(sort, descending, self.group)

    def group_args(self, group: Group) -> dict:
        """The query of a group's link: its columns, sorted by the figure it leads with."""
        return self._query(group.sort, natural_order(group.sort), group)

    def args(self) -> dict:
        """This board's own query (for the CSV link and the filter form)."""
        return {**self._query(self.sort, self.descending, self.group), "min": self.min_games}

    def aria_sort(self, sort: str) -> str | None:
        if sort != self.sort:
            return None
        return "descending" if self.descending else "ascending"


def _club_board(session: Session, club: Club) -> Board:
    stats = club_stats(session, club.id)
    ratings = club_ratings(session, club.id)
    for player in stats:
        player.rating = ratings.get(player.player_id)
    # Once a game is rated, the rating sees through partners best: it leads.
    default = RATING.key if ratings else DEFAULT_SORT
    sort = request.args.get("sort", default)
    if sort not in FIGURES:
        sort = default
    order = request.args.get("order")
    descending = {"asc": False, "desc": True}.get(order or "", natural_order(sort))
    group = next((g for g in GROUPS if g.key == request.args.get("show")), GROUP_OF[sort])
    min_games = whole_number_arg("min", 1)
    return Board(sort, descending, min_games, rank(stats, sort, descending, min_games), group)


@bp.get("/players")
def leaderboard():
    """The club's players side by side, sorted by any figure, with a minimum of games."""
    session = get_session()
    club = current_club(session)
    board = _club_board(session, club)
    return render_page("leaderboard.html", board=board, groups=GROUPS, figures=FIGURES,
                       shown=shown, abandoned=abandoned_games(session, club.id))


@bp.get("/players.csv")
def leaderboard_csv():
    """The leaderboard as a CSV file: the page's rows, with every column at once."""
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
    trend_points, every = thinned(
        trend(evening_records(session, player, counted=True)) if stats else [])
    rating, rating_points, rating_every = player_rating(session, player) if stats else (None, [], 1)
    return render_page("player.html", player=player, stats=stats, bids=BIDS, points=POINTS,
                       point_name=point_name, shown=shown, trend=trend_points, every=every,
                       chart=trend_chart(trend_points) if trend_points else None,
                       rating=rating,
                       rating_text=rating_text, rating_means=RATING_MEANS,
                       rating_trend=rating_points, rating_every=rating_every,
                       rating_chart=rating_chart(rating_points) if rating_points else None,
                       abandoned=abandoned_games(session, player.club_id, player.id))

