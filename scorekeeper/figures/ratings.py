"""Ratings that see through partners: openskill's Plackett-Luce model over a club's games.

Every finished game of a club that wasn't abandoned is one match of its teams (each
team: its players), taken in the order the games were played (``rated_moment``: by their
evenings' dates, then the order they finished; ties by the game's id). The
winner is ranked first; the other teams follow by final score, equal scores sharing a
rank. That holds at every table the rules seat: two teams of two at four in pairs, and
at cutthroat (four, five or six, each player a team of one) a match of as many teams
as players, each player ranked alone: the winner first, then the others by their own
final scores, two on one score sharing a place (five alone ending A 6 (won), C 6, B 2,
E 1, D -4 rank A, C, B, E, D). A player's rating is openskill's mu and sigma
(``rated_match`` moves them on after one game). Pages show one number on Elo's scale:
1500 for a new player, 48 points per point of mu (openskill's estimate of the player's
skill), so a win raises it and finishing last lowers it; with fewer than 3 games rated
it reads "new" instead. Sigma (how unsure the estimate is) is not shown. What each game
did to the number is its change: the number after the game less the number before.

A player who sat part of a game (a substitute, or the player they took over from) is
rated for the part they played: their share of the game's hands (``Replay.team_shares``).
They go into the game's update with their mu times their share, and their variance
(sigma squared, with openskill's dynamics for one game added as it adds them) times their
share; so a seat two players shared counts with the blend of the two. They come out
having moved by that share of a whole game's step: mu by what the update gave their
shared mu, sigma by that share of the whole game's narrowing. A player who sat all game
(a share of 1) gets openskill's own update, to the last digit. (openskill's own weights
don't fit: they rescale a team's weights to 1..2 and divide a loss by the weight, so the
player who sat fewest hands would lose the most.)

A game finishes with the hand that ended it: its moment is when that hand was recorded,
kept within its evening's night (``NIGHT``). A game recorded after that night (an evening
already played, brought in from paper; a game finished days later) is rated at the
night's end, after the games played on it and before the next day's: a game of last
March typed in today goes before every later game, which are rated again after it.

A club with years of games is not rated afresh on every page. Each game is looked at
once per revision (``RatedGame``: its moment, or that it is no match), and each
player's rating after each rated game is kept (``PlayerRating``), with everyone's latest
rating under the stamp of the club's games (``ClubRatings``). When the stamp no longer
holds, the games whose revision moved (or that are new) are looked at again, and the
club is rated again from the earliest place any of them held or now holds, starting from
the ratings kept just before it: one game at the end after a game ends, the rest of the
history after an old game is edited. So every rating equals a rating of the whole history
as it is now (``club_matches``), and nothing stale is kept. A page looks at a batch of
games at most (``kept.PER_VISIT``): a long history new to the ratings is rated a batch a
visit, from its first game on, and meanwhile the ratings of the games rated so far stand,
kept under a stamp marked as behind. A page that loses the race to keep them (another
page kept them first, or a hand was recorded meanwhile) shows them as kept now, with how
many games they are behind (``to_go``): pages read the kept rows only, and never rate the
whole club (``club_matches`` is for checking them).

A player's kept rows count their games 1, 2, 3, … in the order rated, so none is searched
for among all their games: what a game did to a rating is read beside the player's row
with one game fewer, and the ratings kept just before a place are the rows a game fewer
than each player's first from there on.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone
from typing import Iterable, Iterator, NamedTuple, Sequence

from openskill.models import PlackettLuce
from sqlalchemy import and_, bindparam, func, insert, or_
from sqlalchemy.orm import aliased
from sqlmodel import Session, delete, select, update

from scorekeeper.figures.stats import TREND_POINTS, thinned
from scorekeeper.figures.summaries import evening_day_numbers
from scorekeeper.rules.table import teams_for
from scorekeeper.store import kept as keeping
from scorekeeper.store.caches import CLUB_RATINGS, RATED_GAMES
from scorekeeper.store.kept import Stamp, changed_games, games_to_go, stamp_of
from scorekeeper.store.models import (
    ClubRatings, Evening, Game, Player, PlayerRating, RatedGame, aware,
)
from scorekeeper.store.replay import Replay, load_replays

MODEL = PlackettLuce()  # its default parameters: mu 25, sigma 25/3
# The one game's dynamics MODEL adds to each player's variance before a match; a match
# is rated by STILL, which adds none, with them added (and shared out) first.
DYNAMICS = MODEL.tau * MODEL.tau
STILL = PlackettLuce(mu=MODEL.mu, sigma=MODEL.sigma, beta=MODEL.beta, kappa=MODEL.kappa,
                     tau=0.0)

# The number pages show: START for a new player, POINTS_PER_MU for each point of mu
# above or below openskill's starting 25. Elo's scale: Elo took a player's form in one
# game to spread 200 points about their rating, and openskill's spread is beta (25/6 of
# mu), so a point of mu is 200 / beta = 48 points; between two players whose ratings are
# sure, openskill's chance of the stronger winning is then Elo's for the same gap (400
# points apart: 92 games in 100).
START = 1500
POINTS_PER_MU = 200 / MODEL.beta
RATED_AFTER = 3  # games rated before a player's number is shown: "new" until then

# Games looked at per query when many changed at once (the first rating, an import).
BATCH = 400


@dataclass(frozen=True)
class Rating:
    """A player's skill as openskill estimates it, and the games it was rated from."""

    mu: float
    sigma: float
    games: int = 0

    @property
    def points(self) -> int:
        """The number pages show: 1500 to start with, 48 points per point of mu."""
        return round(START + POINTS_PER_MU * (self.mu - MODEL.mu))

    @property
    def is_new(self) -> bool:
        """Too few games rated for the number to say much: pages show "new"."""
        return self.games < RATED_AFTER

    @property
    def best_first(self) -> tuple:
        """What "best" means: a number shown before "new", then the higher number (the
        higher mu). New players are all alike: a leaderboard orders them as it orders
        equal figures (by games won)."""
        return (0,) if self.is_new else (1, self.mu)

    def __lt__(self, other: "Rating") -> bool:  # a leaderboard sorts on the figure itself
        return self.best_first < other.best_first


NEW = Rating(MODEL.mu, MODEL.sigma, 0)  # a player without games


@dataclass(frozen=True)
class RatingChange:
    """What one rated game did to a player's rating: the rating just before it and just
    after it, and where the player's team finished (``rank`` 1: won) of ``teams``."""

    game_id: int
    rank: int
    teams: int
    before: Rating
    after: Rating

    @property
    def change(self) -> int:
        """How far the number moved: the number after the game less the one before, so
        that the changes add up to the number shown."""
        return self.after.points - self.before.points


@dataclass(frozen=True)
class Match:
    """One finished game as openskill rates it: its teams' players and their ranks, and
    the share of the game's hands each player sat (none given: everyone sat all game)."""

    game_id: int
    teams: tuple[tuple[int, ...], ...]  # player ids, team by team
    ranks: tuple[int, ...]  # 1 for the winner; equal scores share a rank
    shares: tuple[tuple[float, ...], ...] = ()  # as ``teams``: 1 for a player all game

    @property
    def each_share(self) -> tuple[tuple[float, ...], ...]:
        """``shares``, or 1 for each player when none were given."""
        return self.shares or tuple((1.0,) * len(team) for team in self.teams)


def ranks_of(winner: str, scores: dict[str, int]) -> dict[str, int]:
    """Each team's rank: the winner first, then the others by final score (equal
    scores sharing a rank, the next rank counting the teams ahead)."""
    ranks = {winner: 1}
    others = [team for team in scores if team != winner]
    for team in others:
        ranks[team] = 2 + sum(1 for other in others if scores[other] > scores[team])
    return ranks


def rated_match(teams: Sequence[Sequence[Rating]], ranks: Sequence[int],
                shares: Sequence[Sequence[float]] = ()) -> list[list[Rating]]:
    """One finished game's update, the one place a game moves ratings: each team's
    players' ratings before it (team by team), the teams' ranks and each player's share
    of the game's hands (none given: everyone sat all game), to their ratings after it,
    each with one more game rated.

    A share ``s`` goes in as mu times ``s`` and the variance, with the game's dynamics,
    times ``s``; what the update does to them is then that share of a whole game's step
    (the module's docstring). Written so that ``s`` = 1 is openskill's update exactly."""
    shares = shares or [[1.0] * len(team) for team in teams]
    rated = STILL.rate([[STILL.rating(mu=r.mu * s,
                                      sigma=math.sqrt(s * (r.sigma * r.sigma + DYNAMICS)))
                         for r, s in zip(team, team_shares)]
                        for team, team_shares in zip(teams, shares)], ranks=list(ranks))
    return [[Rating(after.mu + before.mu * (1 - s), after.sigma / math.sqrt(s),
                    before.games + 1)
             for before, s, after in zip(team_before, team_shares, team_after)]
            for team_before, team_shares, team_after in zip(teams, shares, rated)]


def rated_one_by_one(matches: Iterable[Match], start: dict[int, Rating]
                     ) -> Iterator[tuple[Match, dict[int, Rating]]]:
    """Each match in order with its players' ratings just after it; ``start`` (everyone
    else new) is moved on as it goes."""
    ratings = start
    for match in matches:
        rated = rated_match([[ratings.get(p, NEW) for p in team] for team in match.teams],
                            match.ranks, match.shares)
        after = {player_id: rating for players, team in zip(match.teams, rated)
                 for player_id, rating in zip(players, team)}
        ratings.update(after)
        yield match, after


def rate(matches: Iterable[Match], start: dict[int, Rating] | None = None
         ) -> dict[int, Rating]:
    """The ratings after ``matches`` in order, from ``start`` (everyone else new)."""
    ratings = dict(start or {})
    for _ in rated_one_by_one(matches, ratings):
        pass
    return ratings


# An evening's night: from the start of its day (UTC, as its date is) until this long
# after, a card table's night running past midnight. Every game of an evening is rated
# within it (``rated_moment``).
NIGHT = timedelta(hours=36)


def rated_moment(finished_at: datetime, played_on: date | None) -> datetime:
    """Where a game that finished at ``finished_at`` stands in the order rated: then,
    kept within its evening's night (``played_on``: its date; None, a game of no evening:
    then, as it is). A game typed in after its night (from paper) stands at the night's
    end, with any other such game of it, in the order of their ids."""
    if played_on is None:
        return finished_at
    night = datetime.combine(played_on, time(), timezone.utc)
    return min(max(finished_at, night), night + NIGHT)


def game_match(replay: Replay, played_on: date | None = None
               ) -> tuple[datetime, Match] | None:
    """The game's moment in the order rated (``rated_moment``; ``played_on``: its
    evening's date) and the match it is, or None when it counts for nothing (still in
    play, or abandoned). Each team's players are everyone who sat for it, substitutes
    too, with the share of the game's hands each sat; they go by id within a team, so
    that a match read back from the kept rows is the very one rated from the hands."""
    state = replay.state
    if replay.game.abandoned_at is not None or not state.finished or not replay.hands:
        return None
    ending = replay.hands[len(state.deals) - 1]
    ranks = ranks_of(state.winner, state.scores)
    teams = replay.rules.team_names
    shares = replay.team_shares()
    return rated_moment(aware(ending.recorded_at), played_on), Match(
        replay.game.id,
        tuple(tuple(sorted(shares[team])) for team in teams),
        tuple(ranks[team] for team in teams),
        tuple(tuple(shares[team][player] for player in sorted(shares[team]))
              for team in teams))


def _evening_days(session: Session, games: Sequence[Game]) -> dict[int, date]:
    """The dates of ``games``' evenings, by evening id; one query."""
    ids = {game.evening_id for game in games if game.evening_id is not None}
    return dict(session.exec(select(Evening.id, Evening.played_on)
                             .where(Evening.id.in_(ids))).all()) if ids else {}  # type: ignore[union-attr]


def _matches(session: Session, games: Sequence[Game]) -> list[tuple[datetime, Match]]:
    """The matches among ``games``, each with its moment, replayed from their hands."""
    days = _evening_days(session, games)
    return [found for found in (game_match(replay, days.get(replay.game.evening_id))
                                for replay in load_replays(session, games))
            if found is not None]


def club_matches(session: Session, club_id: int) -> list[Match]:
    """The club's finished games that count, as matches, in the order they were played,
    every one replayed from the hands: what the kept ratings (``club_ratings``) are
    proven against, never what a page reads."""
    games = session.exec(
        select(Game).where(Game.club_id == club_id, Game.abandoned_at.is_(None))  # type: ignore[union-attr]
    ).all()
    finished = _matches(session, games)
    finished.sort(key=lambda item: (item[0], item[1].game_id))
    return [match for _, match in finished]


Place = tuple[datetime, int]  # where a game stands in the order: its moment, then id


def _before(place: Place):
    at, game_id = place
    return or_(RatedGame.finished_at < at,  # type: ignore[operator]
               and_(RatedGame.finished_at == at, RatedGame.game_id < game_id))


def to_go(session: Session, club_id: int, stamp: Stamp | None = None) -> int:
    """How many of the club's games are still to be rated (0: the ratings are exact);
    ``stamp``: the games as they stand, if read already."""
    kept = CLUB_RATINGS.kept(session, club_id)
    if kept is None:  # every game is looked at again (``_to_look_at``)
        return session.exec(select(func.count()).select_from(Game)
                            .where(Game.club_id == club_id)).one()
    return games_to_go(session, RATED_GAMES, club_id, kept.stamp, stamp)


def _looked_at(session: Session, games: list[Game]) -> dict[int, tuple[datetime, Match]]:
    """The matches among ``games``, replayed from their hands a batch at a time."""
    found = {}
    for first in range(0, len(games), BATCH):
        found.update((match.game_id, (moment, match))
                     for moment, match in _matches(session, games[first:first + BATCH]))
    return found


def _kept_matches(session: Session, club_id: int, changed: list[int],
                  start: Place | None) -> list[tuple[datetime, Match]]:
    """The kept rated games from ``start`` on (all when None), other than ``changed``,
    as matches read back from their rows; one query."""
    query = (select(RatedGame.game_id, RatedGame.finished_at, PlayerRating.team,
                    PlayerRating.rank, PlayerRating.player_id, PlayerRating.share)
             .join(PlayerRating, PlayerRating.game_id == RatedGame.game_id)
             .where(RatedGame.club_id == club_id, RatedGame.finished_at.is_not(None),  # type: ignore[union-attr]
                    RatedGame.game_id.not_in(changed))  # type: ignore[attr-defined]
             .order_by(RatedGame.finished_at, RatedGame.game_id, PlayerRating.team,
                       PlayerRating.player_id))
    if start is not None:
        query = query.where(~_before(start))
    games: dict[int, tuple[datetime, dict[int, tuple[int, list[int], list[float]]]]] = {}
    for game_id, finished_at, team, rank, player_id, share in session.exec(query):
        teams = games.setdefault(game_id, (aware(finished_at), {}))[1]
        _, players, shares = teams.setdefault(team, (rank, [], []))
        players.append(player_id)
        shares.append(share)
    return [(finished_at, Match(game_id,
                                tuple(tuple(players) for _, players, _ in teams.values()),
                                tuple(rank for rank, _, _ in teams.values()),
                                tuple(tuple(shares) for _, _, shares in teams.values())))
            for game_id, (finished_at, teams) in games.items()]


def _latest_before(session: Session, club_id: int, players: set[int],
                   latest: dict[int, tuple[Rating, int, datetime]], place: Place
                   ) -> dict[int, tuple[Rating, int, datetime]]:
    """Each of ``players``' rating after their last kept game before ``place``, with
    that game and when it finished; ``latest``: everyone's latest kept rating, and every
    game looked at again stands at ``place`` or after it. A player's kept rows count
    their games in the order rated, so that game is the one a game fewer than their
    first from ``place`` on, or, with none from there on, their latest. Two queries, the
    first reading the kept rows from ``place`` on only."""
    if not players:
        return {}
    firsts = dict(session.exec(
        select(PlayerRating.player_id, func.min(PlayerRating.games))
        .join(RatedGame, RatedGame.game_id == PlayerRating.game_id)
        .where(RatedGame.club_id == club_id, RatedGame.finished_at.is_not(None),  # type: ignore[union-attr]
               ~_before(place))
        .group_by(PlayerRating.player_id)).all())
    found = {player: latest[player] for player in players
             if player in latest and player not in firsts}
    wanted = [(player, firsts[player] - 1) for player in players if firsts.get(player, 1) > 1]
    rows = session.exec(
        select(PlayerRating.player_id, PlayerRating.mu, PlayerRating.sigma,
               PlayerRating.games, PlayerRating.game_id, RatedGame.finished_at)
        .join(RatedGame, RatedGame.game_id == PlayerRating.game_id)
        .where(or_(*(and_(PlayerRating.player_id == player, PlayerRating.games == games)
                     for player, games in wanted)))) if wanted else []
    found.update({player_id: (Rating(mu, sigma, games), game_id, aware(finished_at))
                  for player_id, mu, sigma, games, game_id, finished_at in rows})
    return found


def _kept_players(kept: ClubRatings | None) -> dict[int, tuple[Rating, int, datetime]]:
    """The stored latest ratings: player -> (rating, last game, when it finished)."""
    if kept is None:
        return {}
    return {player_id: (Rating(mu, sigma, games), last, datetime.fromisoformat(at))
            for player_id, mu, sigma, games, last, at in kept.players}


def _rated_again(session: Session, club_id: int, kept: ClubRatings | None,
                 changed: list[Game], found: dict[int, tuple[datetime, Match]]):
    """The ratings moved on by the changed games: everyone's latest (player -> (rating,
    last game, when)), the rows to write for the games rated again, and the kept rows
    whose figures moved."""
    ids = [game.id for game in changed]
    latest = _kept_players(kept)
    old = dict(session.exec(
        select(RatedGame.game_id, RatedGame.finished_at)
        .where(RatedGame.game_id.in_(ids), RatedGame.finished_at.is_not(None))  # type: ignore[union-attr]
    ).all()) if kept is not None else {}
    places = [(aware(at), game_id) for game_id, at in old.items()]
    places += [(at, game_id) for game_id, (at, _) in found.items()]
    if not places:
        return latest, [], []
    start = min(places) if kept is not None else None
    # With nothing kept, rows left from before are dropped when these are kept (``_forget``).
    later = _kept_matches(session, club_id, ids, start) if kept is not None else []
    matches = sorted(later + list(found.values()), key=lambda item: (item[0], item[1].game_id))
    involved = {player for _, match in matches for team in match.teams for player in team}
    if old:  # their players may have lost a game: they start from before it
        involved |= {player for player, (_, last, _) in latest.items() if last in old}
    before = {} if start is None else _latest_before(session, club_id, involved, latest, start)
    for player in involved:  # as they stood before ``start`` (absent: no game before it)
        latest.pop(player, None)
    latest.update(before)
    ratings = {player: rating for player, (rating, _, _) in before.items()}
    finished_at = {match.game_id: at for at, match in matches}
    new_rows, moved_rows = [], []
    for match, after in rated_one_by_one((match for _, match in matches), ratings):
        rows = new_rows if match.game_id in found else moved_rows
        for team_index, (team, rank, shares) in enumerate(
                zip(match.teams, match.ranks, match.each_share)):
            for player, share in zip(team, shares):
                rating = after[player]
                latest[player] = (rating, match.game_id, finished_at[match.game_id])
                rows.append({"game_id": match.game_id, "player_id": player,
                             "team": team_index, "rank": rank, "share": share,
                             "mu": rating.mu, "sigma": rating.sigma, "games": rating.games})
    return latest, new_rows, moved_rows


@dataclass
class _Worked:
    """What one page worked out: the stamp of the games it was worked out from (and
    whether games were left for the next pages), everyone's latest rating as
    ``ClubRatings`` keeps it, the games looked at again, the matches found among them,
    the rows to write for them and the kept rows whose figures moved."""

    stamp: Stamp
    behind: bool
    players: list
    changed: list[Game]
    found: dict[int, tuple[datetime, Match]]
    new_rows: list[dict]
    moved_rows: list[dict]


def _write_rows(session: Session, club_id: int, worked: _Worked) -> None:
    """The rows of the games looked at again, written afresh; the moved rows updated."""
    ids = [game.id for game in worked.changed]
    for first in range(0, len(ids), BATCH):
        batch = ids[first:first + BATCH]
        session.exec(delete(PlayerRating).where(PlayerRating.game_id.in_(batch)))  # type: ignore[attr-defined]
        session.exec(delete(RatedGame).where(RatedGame.game_id.in_(batch)))  # type: ignore[attr-defined]
    if worked.changed:
        session.execute(insert(RatedGame), [
            {"game_id": game.id, "club_id": club_id, "revision": game.revision,
             "finished_at": worked.found[game.id][0] if game.id in worked.found else None}
            for game in worked.changed])
    if worked.new_rows:
        session.execute(insert(PlayerRating), worked.new_rows)
    if worked.moved_rows:
        replay = PlayerRating.__table__  # type: ignore[attr-defined]
        session.connection().execute(
            update(replay)
            .where(replay.c.game_id == bindparam("at_game"),
                   replay.c.player_id == bindparam("of_player"))
            .values(mu=bindparam("mu"), sigma=bindparam("sigma"), games=bindparam("games")),
            [{"at_game": row["game_id"], "of_player": row["player_id"], "mu": row["mu"],
              "sigma": row["sigma"], "games": row["games"]} for row in worked.moved_rows])


def _stored(session: Session, club_id: int, kept: ClubRatings | None,
            worked: _Worked) -> bool:
    """Keep what was worked out: only over the ratings it was worked out from, and only
    if no game changed meanwhile. Whether it was kept."""
    def rows() -> None:
        if kept is None:
            _forget(session, club_id)
        _write_rows(session, club_id, worked)
    return CLUB_RATINGS.keep(session, club_id, was=kept and kept.stamp, values={
        "stamp": worked.stamp.as_kept(worked.behind), "players": worked.players},
        club_id=club_id, stamp=worked.stamp, writes=rows)


def _forget(session: Session, club_id: int) -> None:
    """With no ratings kept to start from, the games are looked at again from the first:
    the club's rated rows from before are dropped, in the open transaction."""
    rated = select(RatedGame.game_id).where(RatedGame.club_id == club_id)
    session.exec(delete(PlayerRating).where(PlayerRating.game_id.in_(rated)))  # type: ignore[attr-defined]
    session.exec(delete(RatedGame).where(RatedGame.club_id == club_id))  # type: ignore[arg-type]


def _to_look_at(session: Session, club_id: int, kept: ClubRatings | None,
                most: int) -> tuple[list[Game], bool]:
    """The games to look at again, ``most`` at most, and whether more are left."""
    limit = most + 1
    if kept is None:  # nothing kept to start from: every game is looked at again
        query = select(Game).where(Game.club_id == club_id).order_by(Game.id).limit(limit)
        changed = list(session.exec(query.execution_options(populate_existing=True)))
    else:
        changed = changed_games(session, RATED_GAMES, club_id, limit)
    return changed[:most], len(changed) > most


def _ratings_of(latest: dict[int, tuple[Rating, int, datetime]]) -> dict[int, Rating]:
    """Player -> rating, of everyone's latest as ``_kept_players`` has them."""
    return {player: rating for player, (rating, _, _) in latest.items()}


def _up_to_date(session: Session, club_id: int, most: int | None = None
                ) -> tuple[dict[int, Rating], bool]:
    """Every rated player's latest rating as the kept rows hold them, and whether this
    page kept them as it worked them out (False when another page, or a hand recorded
    meanwhile, got in first: the ratings are then those kept now). At most ``most``
    games are looked at again (None: a page's worth, ``kept.PER_VISIT``); the ratings
    of the games rated so far stand meanwhile, and ``to_go`` tells how many games are
    left."""
    keeping.note_brought(session, "ratings", club_id)
    stamp = stamp_of(session, club_id)
    kept = CLUB_RATINGS.kept(session, club_id)
    if kept is not None and stamp.holds_for(kept.stamp):
        return _ratings_of(_kept_players(kept)), True
    changed, behind = _to_look_at(session, club_id, kept,
                                  keeping.PER_VISIT if most is None else most)
    found = _looked_at(session, changed)
    latest, new_rows, moved_rows = _rated_again(session, club_id, kept, changed, found)
    players = [[player, rating.mu, rating.sigma, rating.games, last, at.isoformat()]
               for player, (rating, last, at) in sorted(latest.items())]
    worked = _Worked(stamp, behind, players, changed, found, new_rows, moved_rows)
    if _stored(session, club_id, kept, worked):
        return _ratings_of(latest), True
    return _ratings_of(_kept_players(CLUB_RATINGS.kept(session, club_id))), False


def catch_up(session: Session, club_id: int) -> int:
    """Rate every game still to be rated, a batch at a time; how many were to go.
    Another page keeping ratings at the same moment only delays a batch: three misses
    in a row end it, and pages carry on from there."""
    left = to_go(session, club_id)
    misses = 0
    while misses < 3 and to_go(session, club_id):
        misses = 0 if _up_to_date(session, club_id, BATCH)[1] else misses + 1
    return left


def club_ratings(session: Session, club_id: int) -> dict[int, Rating]:
    """Every rated player of the club: player id -> Rating (players without a counted
    game are not in it: they are ``NEW``)."""
    return _up_to_date(session, club_id)[0]


def best_first(ratings: dict[int, Rating]) -> list[tuple[int, Rating]]:
    """(player id, rating), best first: the numbers shown, highest first, then the new
    players, the higher mu first."""
    return sorted(ratings.items(), key=lambda item: (item[1].best_first, item[1].mu,
                                                     -item[0]), reverse=True)


@dataclass(frozen=True)
class RatingPoint:
    """A player's rating as it stood after one of their evenings (``number`` counts
    their evenings, 1 = the first; ``day_number`` as in ``stats.TrendPoint``)."""

    evening_id: int
    played_on: date
    rating: Rating
    number: int = 1
    day_number: int | None = None


@dataclass(frozen=True)
class RatingHistory:
    """A player's rating (None before their first rated game) and how it came to be:
    the number after each of their evenings once it is shown (oldest first, thinned as
    ``stats.thinned`` thins, ``every`` so many evenings apart), and what each of their
    latest rated games did to it (newest first)."""

    rating: Rating | None
    evenings: list[RatingPoint]
    every: int
    games: list[RatingChange]


LATEST_GAMES = 10  # the rated games a player's page lists, newest first


class RatedRow(NamedTuple):
    """One of a player's rated games: where their team finished (``rank``) of how many
    ``teams``, their rating just after it, and its evening (None: a game of none)."""

    game_id: int
    rank: int
    teams: int
    after: Rating
    evening_id: int | None
    played_on: date | None


def _kept_rows(session: Session, player_id: int, counts: list[int]) -> list[RatedRow]:
    """The player's kept rows of the games that brought their rated games to each of
    ``counts``, with their evenings; one query."""
    if not counts:
        return []
    return [RatedRow(game_id, rank, len(teams_for(layout)), Rating(mu, sigma, games),
                     evening_id, played_on)
            for game_id, rank, layout, mu, sigma, games, evening_id, played_on in
            session.exec(
                select(PlayerRating.game_id, PlayerRating.rank, Game.teams,
                       PlayerRating.mu, PlayerRating.sigma, PlayerRating.games,
                       Evening.id, Evening.played_on)
                .join(Game, Game.id == PlayerRating.game_id)
                .join(Evening, Evening.id == Game.evening_id, isouter=True)
                .where(PlayerRating.player_id == player_id,
                       PlayerRating.games.in_(counts)))]  # type: ignore[attr-defined]


def _kept_evening_ends(session: Session, player_id: int) -> list[int]:
    """The player's rated games by the end of each of their evenings, in the order
    rated (the most of any of the evening's rows); one query."""
    return list(session.exec(
        select(func.max(PlayerRating.games))
        .join(Game, Game.id == PlayerRating.game_id)
        .where(PlayerRating.player_id == player_id, Game.evening_id.is_not(None))  # type: ignore[union-attr]
        .group_by(Game.evening_id).order_by(func.max(PlayerRating.games))))


def player_rating(session: Session, player: Player, most: int = TREND_POINTS,
                  latest: int = LATEST_GAMES) -> RatingHistory:
    """The player's ``RatingHistory``: at most ``most`` evenings drawn, ``latest``
    games listed. An evening's last game is where it left the rating; it is drawn once
    the number is shown, and only the rows drawn are read."""
    ratings, _ = _up_to_date(session, player.club_id)
    shown = [(number, games) for number, games in
             enumerate(_kept_evening_ends(session, player.id), 1) if games >= RATED_AFTER]
    drawn, every = thinned(shown, most)
    at = {row.after.games: row
          for row in _kept_rows(session, player.id, [games for _, games in drawn])}
    day_numbers = evening_day_numbers(session, player.club_id,
                                      [at[games].evening_id for _, games in drawn])
    return RatingHistory(ratings.get(player.id), [
        RatingPoint(row.evening_id, row.played_on, row.after, number,
                    day_numbers.get(row.evening_id))
        for number, row in ((number, at[games]) for number, games in drawn)],
        every, [change for _, change in _kept_changes(
            session, PlayerRating.player_id == player.id, latest)])


def evening_changes(session: Session, club_id: int, evening_ids: Iterable[int]
                    ) -> dict[tuple[int, int], int]:
    """(evening id, player id) -> how far the evening's games moved the player's number:
    the sum of each game's ``RatingChange.change``, for the evenings given."""
    ids = list(evening_ids)
    _up_to_date(session, club_id)
    evening_of = dict(session.exec(select(Game.id, Game.evening_id)
                                   .where(Game.evening_id.in_(ids))).all()) if ids else {}  # type: ignore[union-attr]
    moved: dict[tuple[int, int], int] = {}
    for player_id, change in _changes(session, list(evening_of)):
        key = (evening_of[change.game_id], player_id)
        moved[key] = moved.get(key, 0) + change.change
    return moved


def game_changes(session: Session, club_id: int, game_id: int) -> dict[int, RatingChange]:
    """What one game did to each of its players' ratings: player id -> their change
    (empty for a game that counts for nothing: in play, abandoned)."""
    _up_to_date(session, club_id)
    return dict(_changes(session, [game_id]))


def latest_changes(session: Session, club_id: int
                   ) -> tuple[int, dict[int, RatingChange]] | None:
    """The club's game rated last (the last played) and what it did to each of its
    players' ratings (as ``game_changes``); None before the first game is over."""
    keeping.bring_once(session, "ratings", club_id, _up_to_date)
    game_id = session.exec(
        select(RatedGame.game_id)
        .where(RatedGame.club_id == club_id, RatedGame.finished_at.is_not(None))  # type: ignore[union-attr]
        .order_by(RatedGame.finished_at.desc(), RatedGame.game_id.desc())  # type: ignore[union-attr]
        .limit(1)).first()
    return None if game_id is None else (game_id, dict(_changes(session, [game_id])))


def _changes(session: Session, game_ids: list[int]) -> list[tuple[int, RatingChange]]:
    """(player id, what the game did to their rating) for each player of each of
    ``game_ids`` that counts (none for a game in play or abandoned), from the kept rows."""
    return _kept_changes(session, PlayerRating.game_id.in_(game_ids))  # type: ignore[attr-defined]


_BEFORE = aliased(PlayerRating)  # a player's row with one game fewer


def _kept_changes(session: Session, picked, most: int | None = None
                  ) -> list[tuple[int, RatingChange]]:
    """(player id, what the game did to their rating) for the kept rows ``picked``
    chooses, each player's latest first, ``most`` at most (None: all); one query. The
    rating before a game is the player's row with one game fewer (none: they were new)."""
    query = (select(PlayerRating.player_id, PlayerRating.game_id, PlayerRating.rank,
                    Game.teams, PlayerRating.mu, PlayerRating.sigma, PlayerRating.games,
                    _BEFORE.mu, _BEFORE.sigma)
             .join(Game, Game.id == PlayerRating.game_id)
             .join(_BEFORE, and_(_BEFORE.player_id == PlayerRating.player_id,
                                 _BEFORE.games == PlayerRating.games - 1), isouter=True)
             .where(picked).order_by(PlayerRating.games.desc()).limit(most))  # type: ignore[attr-defined]
    return [(player_id, RatingChange(game_id, rank, len(teams_for(layout)),
                                   NEW if was_mu is None else Rating(was_mu, was_sigma, games - 1),
                                   Rating(mu, sigma, games)))
            for player_id, game_id, rank, layout, mu, sigma, games, was_mu, was_sigma
            in session.exec(query)]


def rated_odds(teams: Sequence[Sequence[Rating]]) -> list[float]:
    """openskill's predicted chance of each team winning, in order (they sum to 1)."""
    return MODEL.predict_win([[MODEL.rating(mu=r.mu, sigma=r.sigma) for r in team]
                              for team in teams])
