"""Player statistics and the leaderboard, counted from replayed games.

Nothing here reads the database: ``player_stats`` counts every figure from the replayed
deals of the games given, with who sat where. ``scorekeeper.figures.summaries`` keeps what each
game adds (counted here) beside the game, recounted whenever the game changes, so an
edited or undone hand can never leave a stale statistic behind.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable, Mapping, Protocol, Sequence

from scorekeeper.rules import BIDS, POINTS, Point
from scorekeeper.store.replay import Replay
from scorekeeper.store.sittings import Stretch


@dataclass(frozen=True)
class SeatedGame:
    """A replayed game and who sits in each of its seats now (seat -> player id); who
    sat where at each hand is the table's seating (none read: these players all game)."""

    replay: Replay
    players: Mapping[int, int]

    def stretches(self) -> list[tuple[int, Stretch]]:
        """(player id, their stretch of the game) for everyone who sat at one hand."""
        return [(self.players[s.sitting.seat] if s.sitting.player_id is None
                 else s.sitting.player_id, s) for s in self.replay.stretches()]


def _player_at(stretches: Sequence[tuple[int, Stretch]], number: int) -> dict[int, int]:
    """Seat -> the player who sat there at hand ``number``."""
    return {s.sitting.seat: player for player, s in stretches if s.first <= number <= s.last}


def rate(part: int, whole: int) -> float | None:
    """part / whole, or None when there is nothing to divide by (no games, no bids)."""
    return part / whole if whole else None


@dataclass
class Record:
    """Games played, won and lost. Only a finished game is won or lost."""

    played: int = 0
    won: int = 0
    lost: int = 0

    def add(self, finished: bool, won: bool) -> None:
        self.played += 1
        if finished:
            self.won += won
            self.lost += not won

    @property
    def finished(self) -> int:
        return self.won + self.lost

    @property
    def win_rate(self) -> float | None:
        """Won out of finished games: a game still in play is neither won nor lost."""
        return rate(self.won, self.finished)


class MadeOrSet:
    """Set and made rate from ``bids`` and ``made``, and the average score change from
    ``change``, for one bid level or for all."""

    bids: int
    made: int
    change: int

    @property
    def set_back(self) -> int:
        return self.bids - self.made

    @property
    def made_rate(self) -> float | None:
        return rate(self.made, self.bids)

    @property
    def average_change(self) -> float | None:
        """What a bid did to the bidding team's score, on average: the points it took
        when made, minus the bid when set."""
        return rate(self.change, self.bids)


@dataclass
class BidLevel(MadeOrSet):
    """The contracts a player won at one level of bid, how many were made, and what they
    did to the team's score (summed)."""

    bids: int = 0
    made: int = 0
    change: int = 0


@dataclass
class PlayerStats(MadeOrSet):
    """Everything counted for one player over the games given."""

    player_id: int
    name: str
    games: Record = field(default_factory=Record)
    partners: dict[int, Record] = field(default_factory=dict)  # partner's id -> record
    rivals: dict[int, Record] = field(default_factory=dict)  # opponent's id -> own record
    names: dict[int, str] = field(default_factory=dict)  # partners' and rivals' names
    bid_levels: dict[int, BidLevel] = field(
        default_factory=lambda: {level: BidLevel() for level in BIDS})
    taken_as_bidder: int = 0  # points the bidding team took, summed over the player's bids
    hands_played: int = 0  # hands played out in the player's games (throw-ins not counted)
    points_taken: dict[Point, int] = field(
        default_factory=lambda: {point: 0 for point in POINTS})
    throw_ins_dealt: int = 0
    rating: Any = None  # a ratings.Rating, where a page rated the club's games

    @property
    def played(self) -> int:
        return self.games.played

    @property
    def won(self) -> int:
        return self.games.won

    @property
    def lost(self) -> int:
        return self.games.lost

    @property
    def win_rate(self) -> float | None:
        return self.games.win_rate

    @property
    def bids(self) -> int:
        return sum(level.bids for level in self.bid_levels.values())

    @property
    def made(self) -> int:
        return sum(level.made for level in self.bid_levels.values())

    @property
    def change(self) -> int:
        return sum(level.change for level in self.bid_levels.values())

    @property
    def average_taken(self) -> float | None:
        """The points the player's team took, on average, when the player was the bidder."""
        return rate(self.taken_as_bidder, self.bids)

    @property
    def all_points(self) -> int:
        return sum(self.points_taken.values())

    def per_hand(self, point: Point) -> float | None:
        return rate(self.points_taken[point], self.hands_played)

    @property
    def points_per_hand(self) -> float | None:
        return rate(self.all_points, self.hands_played)

    def partners_by_games(self) -> list[tuple[int, str, Record]]:
        """(partner's id, name, record together), most games together first."""
        return self._by_games(self.partners)

    def rivals_by_games(self) -> list[tuple[int, str, Record]]:
        """(opponent's id, name, the player's record against them), most games first."""
        return self._by_games(self.rivals)

    def _by_games(self, records: Mapping[int, Record]) -> list[tuple[int, str, Record]]:
        return sorted(
            ((pid, self.names[pid], record) for pid, record in records.items()),
            key=lambda item: (-item[2].played, -item[2].won, item[1].casefold(), item[0]),
        )


def player_stats(games: Iterable[SeatedGame]) -> dict[int, PlayerStats]:
    """Player id -> statistics, over every game given, for each player who sat in one.

    Everyone who sat at one hand of a game at least played it, and won or lost it with
    the team of their seat; partners are two players of one team who sat at the table
    at one hand together, rivals two of different teams who did (so a cutthroat game,
    each player a team of one, gives rivals and no partners). Each hand counts for the
    players who sat at it.
    """
    stats: dict[int, PlayerStats] = {}
    for seated in games:
        replay = seated.replay
        state = replay.state
        team_seats = replay.rules.team_seats
        team_at = {seat: team for team, seats in team_seats.items() for seat in seats}
        sat = seated.stretches()
        for player_id, stretch in sat:
            seat = stretch.sitting.seat
            me = stats.setdefault(player_id, PlayerStats(player_id, stretch.sitting.name))
            team = team_at[seat]
            won = state.finished and state.winner == team
            me.games.add(state.finished, won)
            for other_id, other in sat:
                if other.sitting.seat == seat or not stretch.overlaps(other):
                    continue
                together = me.partners if team_at[other.sitting.seat] == team else me.rivals
                together.setdefault(other_id, Record()).add(state.finished, won)
                me.names[other_id] = other.sitting.name
        # Nobody took a seat over: the same players (four, five or six) at every hand.
        every_hand = len(sat) == replay.rules.seats
        players = _player_at(sat, 1)
        for deal in state.deals:
            if not every_hand:
                players = _player_at(sat, deal.number)
            if deal.thrown_in:
                dealer = players.get(deal.dealer_seat)
                if dealer is not None:
                    stats[dealer].throw_ins_dealt += 1
                continue
            tally = deal.tally
            for seat, player_id in players.items():
                me, team = stats[player_id], team_at[seat]
                me.hands_played += 1
                for point, owner in tally.card_points.items():
                    if owner == team:
                        me.points_taken[Point(point)] += 1
                if tally.game == team:  # a tied Game (None) goes to nobody
                    me.points_taken[Point.GAME] += 1
            bidder = players.get(deal.bidder_seat)
            if bidder is not None:
                # (a bid below the game's own, a house rule's, counts with the lowest)
                level = stats[bidder].bid_levels[max(deal.bid, BIDS[0])]
                level.bids += 1
                level.made += bool(deal.made)
                level.change += deal.score_change[deal.bidding_team]
                stats[bidder].taken_as_bidder += deal.taken[deal.bidding_team]
    return stats


# The fewest finished games two players share before a rate of the pair is shown (and
# they can be a best partner or a toughest opponent): fewer say more about luck, more
# take a rotating club months (README, "/players/<a>/versus/<b>").
SHARED_GAMES = 3


def shared_enough(record: Record) -> bool:
    """Whether two players finished enough games together for their rates to show."""
    return record.finished >= SHARED_GAMES


def best_partner(stats: PlayerStats) -> tuple[int, str, Record] | None:
    """(id, name, record together) of the partner the player won most often with, of
    those sharing enough games; None while nobody does."""
    return _first(stats.partners_by_games(), lambda record: -record.win_rate)


def toughest_rival(stats: PlayerStats) -> tuple[int, str, Record] | None:
    """(id, name, the player's record against them) of the opponent the player beat
    least often, of those sharing enough games; None while nobody does."""
    return _first(stats.rivals_by_games(), lambda record: record.win_rate)


def _first(pairs: Iterable[tuple[int, str, Record]], by: Callable[[Record], float]
           ) -> tuple[int, str, Record] | None:
    """The first of the pairs sharing enough games by ``by``; equal ones by more games
    together, then by name."""
    return min((pair for pair in pairs if shared_enough(pair[2])), default=None,
               key=lambda pair: (by(pair[2]), -pair[2].played, pair[1].casefold(), pair[0]))


@dataclass(frozen=True)
class HeadToHead:
    """Two players' games at one table: as partners, their record together; as
    opponents, each one's record against the other (in a game of three teams or more,
    cutthroat's too, a third team may have won)."""

    together: Record
    player_against: Record
    other_against: Record

    @property
    def third_team_won(self) -> int:
        """Finished games as opponents that neither of the two won."""
        return self.player_against.finished - self.player_against.won - self.other_against.won


# The leaderboard's figures by the name a page sorts on. Each is None when it can't be
# worked out yet (no finished game, no bid, no hand played); those rows sort last.
Figure = Callable[[PlayerStats], "int | float | str | None"]
FIGURES: dict[str, Figure] = {
    "name": lambda s: s.name.casefold(),
    "played": lambda s: s.played,
    "won": lambda s: s.won,
    "lost": lambda s: s.lost,
    "win_rate": lambda s: s.win_rate,
    "bids": lambda s: s.bids,
    "made": lambda s: s.made,
    "set": lambda s: s.set_back,
    "made_rate": lambda s: s.made_rate,
    "taken": lambda s: s.average_taken,
    "hands": lambda s: s.hands_played,
    **{point.value: (lambda s, point=point: s.per_hand(point)) for point in POINTS},
    "points": lambda s: s.points_per_hand,
    "throw_ins": lambda s: s.throw_ins_dealt,
    "rating": lambda s: s.rating,  # sorts best first: shown rating, then mu
    "rated": lambda s: s.rating.games if s.rating else 0,
}
DEFAULT_SORT = "win_rate"


def natural_order(sort: str) -> bool:
    """Whether a figure reads best highest first (all of them but the name)."""
    return sort != "name"


def rank(
    stats: Iterable[PlayerStats], sort: str = DEFAULT_SORT, descending: bool | None = None,
    min_games: int = 1,
) -> list[PlayerStats]:
    """The players with at least ``min_games`` games, ordered by the figure ``sort``.

    Equal figures go by games won (most first), then by name; a figure that can't be
    worked out yet comes last whichever way the list runs.
    """
    figure = FIGURES[sort]
    if descending is None:
        descending = natural_order(sort)
    eligible = sorted(
        (s for s in stats if s.played >= min_games),
        key=lambda s: (-s.won, s.name.casefold(), s.player_id),
    )
    known = [s for s in eligible if figure(s) is not None]
    unknown = [s for s in eligible if figure(s) is None]
    # Python's sort is stable, reversed too: equal figures keep the order above.
    known.sort(key=figure, reverse=descending)
    return known + unknown


@dataclass(frozen=True)
class TrendPoint:
    """A player's record up to and including one evening.

    ``number`` counts the player's own evenings (1 = their first); ``day_number`` tells
    two evenings of the club on one date apart (1, 2, …), None when the date had one.
    """

    evening_id: int
    played_on: object  # a date
    win_rate: float | None
    made_rate: float | None
    number: int = 1
    day_number: int | None = None


class EveningCounts(Protocol):
    """What one evening added to a player's record (``summaries.EveningRecord``)."""

    evening_id: int
    played_on: object
    finished: int
    won: int
    bids: int
    made: int


def trend(evenings: Sequence[EveningCounts], most: int | None = None
          ) -> tuple[list[TrendPoint], int]:
    """Win rate and made rate as they stood after each evening, in the order given: at
    most ``most`` points (None: one an evening) as ``thinned`` keeps them, only those
    built, and how many evenings apart they are (their ``day_number``s left out)."""
    indexes, every = thinned(range(len(evenings)), most or max(1, len(evenings)))
    kept = set(indexes)
    points = []
    finished = won = bids = made = 0
    for index, evening in enumerate(evenings):
        finished += evening.finished
        won += evening.won
        bids += evening.bids
        made += evening.made
        if index in kept:
            points.append(TrendPoint(evening.evening_id, evening.played_on,
                                     rate(won, finished), rate(made, bids), index + 1))
    return points, every


def game_trend(games: Sequence[EveningCounts]) -> list[TrendPoint]:
    """Win rate and made rate as they stood after each game (``games``: one record a
    game, oldest first, with its evening), each numbered by the player's evening it was
    played at: a first evening of three games tells its story in three points."""
    points, _every = trend(games)
    numbers: dict[int, int] = {}
    for point in points:
        numbers.setdefault(point.evening_id, len(numbers) + 1)
    return [replace(point, number=numbers[point.evening_id]) for point in points]


TREND_POINTS = 24  # the most points a trend shows: a table a phone can scroll through


def thinned(points: Sequence[TrendPoint], most: int = TREND_POINTS
            ) -> tuple[list[TrendPoint], int]:
    """At most ``most`` points, one every so many evenings, always ending at the latest.

    Returns the points kept and how many evenings apart they are (1: every evening).
    """
    every = max(1, -(-len(points) // most))  # ceiling division
    last = len(points) - 1
    return [point for index, point in enumerate(points) if (last - index) % every == 0], every
