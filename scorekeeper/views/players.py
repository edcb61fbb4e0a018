"""Players: each one's statistics, and the club's leaderboard (as a page and as CSV)."""
from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, abort, request
from flask_babel import format_decimal, format_percent, gettext as _, lazy_gettext as _l
from sqlmodel import Session, select

from scorekeeper.figures import ratings, summaries
from scorekeeper.figures.charts import TrendChart, rating_chart, trend_chart
from scorekeeper.figures.ratings import (
    NEW, RATED_AFTER, START, RatingChange, Rating, club_ratings, latest_changes, player_rating,
)
from scorekeeper.figures.stats import (
    DEFAULT_SORT, FIGURES, SHARED_GAMES, TREND_POINTS, PlayerStats, TrendPoint, best_partner,
    game_trend, natural_order, rank, shared_enough, toughest_rival,
)
from scorekeeper.figures.summaries import (
    abandoned_games, club_stats, cutthroat_games, evening_records, evening_trend,
    head_to_head, one_player_stats,
)
from scorekeeper.files.csvfile import csv_download, spreadsheet_safe
from scorekeeper.rules import BIDS, POINTS, Point
from scorekeeper.store.db import get_session
from scorekeeper.store.kept import bring_once, stamp_of
from scorekeeper.store.models import Club, Player
from scorekeeper.text.digits import number_text
from scorekeeper.views.lookup import current_club, row_or_404, whole_number_arg
from scorekeeper.views.pages import render_page
from scorekeeper.web.languages import current_language
from scorekeeper.web.words import point_name
from scorekeeper.web.allow import Allow, allow

bp = Blueprint("players", __name__)

NONE_YET = "—"  # a figure that can't be worked out yet: no finished game, no bid
# The rated games a player's page lists, the latest first: a phone reads a few rows, and a
# player of years would otherwise get a thousand (the chart shows the whole way).
LATEST_RATED_GAMES = 20


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
# openskill's own figures behind the rating, for a spreadsheet: the CSV's alone.
MU = Column("rating", _l("openskill μ"), "mu")
SIGMA = Column("rating", _l("openskill σ"), "sigma")

# Every figure, in the CSV's order.
COLUMNS = (PLAYED, WON, LOST, WIN_RATE, BID_COUNT, MADE, SET, MADE_RATE, TAKEN, HANDS,
           *PER_POINT.values(), ALL_POINTS, THROW_INS, RATING, RATED, MU, SIGMA)


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
RATING_MEANS = _l("Everyone starts at %(start)s: finishing a game ahead of another team "
                  "raises the rating and behind one lowers it, by more when the ratings "
                  "expected otherwise; it reads “new” until %(games)s games are rated.",
                  start=START, games=RATED_AFTER)
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


def reader_number(value: float, places: int = 0, **how) -> str:
    """A signed or decimal number in the page's language (``digits.number_text``)."""
    return number_text(value, current_language(), places, **how)


def shown(value, shows: str) -> str:
    """A figure as the page writes it, in the reader's locale."""
    if value is None:
        return NONE_YET
    if shows == "rating":
        return rating_number(value)
    if shows == "percent":
        return format_percent(value)
    if shows == "average":
        return reader_number(value, 1)
    if shows == "per_hand":
        return reader_number(value, 2)
    if shows == "change":
        return reader_number(value, 1, signed=True)
    return format_decimal(value)


def rating_number(rating: Rating) -> str:
    """A rating as pages write it: its number (1532), or "new" while too few games
    are rated for it to say much."""
    return _("new") if rating.is_new else reader_number(rating.points, grouped=False)


def rating_change(change: RatingChange) -> str:
    """What a game did to a rating: +14, −9, +0."""
    return reader_number(change.change, signed=True)


# A team's place behind the winner, in a game of three teams or more (up to six
# players alone).
PLACES = {2: _l("Second"), 3: _l("Third"), 4: _l("Fourth"), 5: _l("Fifth"), 6: _l("Sixth")}


def finished(change: RatingChange) -> str:
    """Where the player's team finished in the game: won, or its place behind."""
    if change.rank == 1:
        return _("Won")
    if change.teams == 2:
        return _("Lost")
    return str(PLACES[change.rank])


def exported(value, shows: str) -> str:
    """A figure for a spreadsheet: plain digits and a decimal point, rates as fractions,
    a rating as its number (nothing while new) and openskill's mu and sigma beside it
    (nothing before a rated game)."""
    if value is None:
        return ""
    if shows == "rating":
        return "" if value.is_new else str(value.points)
    if shows in ("mu", "sigma"):
        return f"{getattr(value, shows):.4f}" if value.games else ""
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
        player.rating = ratings.get(player.player_id, NEW)
    # Once a number is shown, the rating sees through partners best: it leads.
    default = RATING.key if any(not r.is_new for r in ratings.values()) else DEFAULT_SORT
    sort = request.args.get("sort", default)
    if sort not in FIGURES:
        sort = default
    order = request.args.get("order")
    descending = {"asc": False, "desc": True}.get(order or "", natural_order(sort))
    group = next((g for g in GROUPS if g.key == request.args.get("show")), GROUP_OF[sort])
    min_games = whole_number_arg("min", 1)
    return Board(sort, descending, min_games, rank(stats, sort, descending, min_games), group)


def games_to_go(session: Session, club_id: int) -> int:
    """Games the kept statistics or ratings have still to count (0: they are exact),
    once both have had this visit's batch: a page that read only one of them (a season
    ranked by games won reads no rating) brings the other up to date too, so that its
    notice goes by itself, not only once someone opens the players' page."""
    bring_once(session, "statistics", club_id, summaries.up_to_date)
    bring_once(session, "ratings", club_id, ratings.club_ratings)
    stamp = stamp_of(session, club_id)
    return max(summaries.to_go(session, club_id, stamp), ratings.to_go(session, club_id, stamp))


@bp.get("/players")
@allow(Allow.READ)
def leaderboard():
    """The club's players side by side, sorted by any figure, with a minimum of games."""
    session = get_session()
    club = current_club(session)
    board = _club_board(session, club)
    latest = (latest_changes(session, club.id) if board.group.key == "rating"
              else None)
    return render_page("leaderboard.html", board=board, groups=GROUPS, figures=FIGURES,
                       to_go=games_to_go(session, club.id),
                       shown=shown, abandoned=abandoned_games(session, club.id),
                       latest=latest and _latest_line(session, *latest),
                       rating_change=rating_change)


def _latest_line(session: Session, game_id: int, changes: dict[int, RatingChange]
                 ) -> tuple[int, list[tuple[str, RatingChange]]]:
    """The game rated last and its players' changes, (name, change), the biggest rise
    first (then by name)."""
    names = dict(session.exec(select(Player.id, Player.name)
                              .where(Player.id.in_(list(changes)))).all())  # type: ignore[union-attr]
    return game_id, sorted(((names[player], change) for player, change in changes.items()),
                           key=lambda item: (-item[1].change, item[0].casefold()))


@bp.get("/players.csv")
@allow(Allow.READ)
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
@allow(Allow.READ)
def show(player_id: int):
    """One player's record: games, partners, bids, points taken and throw-ins."""
    session = get_session()
    player = row_or_404(Player, player_id)
    stats = one_player_stats(session, player)
    trend_points, every = evening_trend(session, player) if stats else ([], 1)
    history = player_rating(session, player) if stats else None
    return render_page("player.html", player=player, stats=stats, bids=BIDS, points=POINTS,
                       to_go=games_to_go(session, player.club_id),
                       point_name=point_name, shown=shown, trend=trend_points, every=every,
                       chart=_trend_chart(session, player, trend_points) if trend_points else None,
                       history=history, rating_number=rating_number,
                       rating_change=rating_change, finished=finished,
                       rating_means=RATING_MEANS, latest_rated=LATEST_RATED_GAMES,
                       rating_chart=rating_chart(history.evenings)
                       if history and history.evenings else None,
                       best_partner=stats and best_partner(stats),
                       toughest_rival=stats and toughest_rival(stats),
                       shared_games=SHARED_GAMES,
                       cutthroat=cutthroat_games(session, player) if stats else 0,
                       abandoned=abandoned_games(session, player.club_id, player.id))


def _trend_chart(session: Session, player: Player, evenings: list[TrendPoint]) -> TrendChart:
    """A point for each game while they are few enough to show each one (an evening's
    story: a first evening of three games is three points); else one for each evening."""
    games = evening_records(session, player, by_game=True)
    if len(games) <= TREND_POINTS:
        return trend_chart(game_trend(games), by_game=True)
    return trend_chart(evenings)


@bp.get("/players/<int:player_id>/versus/<int:other_id>")
@allow(Allow.READ)
def versus(player_id: int, other_id: int):
    """Two players head to head: their games as partners and as opponents."""
    if player_id == other_id:
        abort(404)
    session = get_session()
    player, other = row_or_404(Player, player_id), row_or_404(Player, other_id)
    return render_page("versus.html", player=player, other=other,
                       pair=head_to_head(session, player, other),
                       to_go=games_to_go(session, player.club_id), shown=shown,
                       shared_enough=shared_enough, shared_games=SHARED_GAMES)

