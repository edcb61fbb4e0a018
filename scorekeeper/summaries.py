"""The statistics of a club with years of evenings, added up in the database.

Each seat of each game is counted once by ``stats.player_stats`` from the replayed hands
and kept as a ``SeatSummary`` row tagged with the game's revision; the club's per-player
sums of those rows are kept as a ``ClubSummary`` tagged with a stamp of all its games.
Before any figure is read, ``up_to_date`` compares the stamp: if any game changed (a
hand recorded, edited, undone or brought back bumps its revision; a new, imported or
restored game has no rows yet), ``refresh`` recounts the games whose rows don't carry
their current revision and the sums are added up again. So every figure equals a full
replay of the hands, and a page reads it with a few indexed queries however long the
history.

An abandoned game keeps its rows but is left out of every sum; abandoning it (or taking
that back) bumps its revision like any change, and the stamp counts abandoned games too.
"""
from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace
from datetime import date
from typing import Iterable

from sqlalchemy import and_, exists, func, or_
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import aliased
from sqlmodel import Session, delete, select

from scorekeeper.ledger import load_seated
from scorekeeper.models import ClubSummary, Evening, Game, GameSeat, Player, SeatSummary
from scorekeeper.rules import BIDS, POINTS, Point
from scorekeeper.stats import PlayerStats, Record, SeatedGame, player_stats

# Games recounted per query and commit when many are stale at once (after an import).
BATCH = 200

# The summed columns and the PlayerStats figure each one feeds.
_POINT_COLUMNS = {point: f"took_{point.value}" for point in POINTS}
_BID_COLUMNS = {level: (f"bids_{level}", f"made_{level}") for level in BIDS}
_SUMMED = (
    "finished", "won", "hands", "throw_ins_dealt", "taken_as_bidder",
    *(column for pair in _BID_COLUMNS.values() for column in pair),
    *_POINT_COLUMNS.values(),
)


def seat_rows(seated: SeatedGame) -> list[SeatSummary]:
    """The rows one game adds, one per seated player, counted by ``player_stats``."""
    table, players = seated.table, seated.players
    by_player = player_stats([seated])
    team_at = {seat: team for team, seats in table.rules.team_seats.items() for seat in seats}
    rows = []
    for seat, player_id in sorted(players.items()):
        counted = by_player[player_id]
        row = SeatSummary(
            game_id=table.game.id, seat=seat, player_id=player_id,
            revision=table.game.revision, team=team_at[seat],
            finished=int(counted.games.finished), won=counted.won,
            hands=counted.hands_played, throw_ins_dealt=counted.throw_ins_dealt,
            taken_as_bidder=counted.taken_as_bidder,
        )
        for level, (bids, made) in _BID_COLUMNS.items():
            setattr(row, bids, counted.bid_levels[level].bids)
            setattr(row, made, counted.bid_levels[level].made)
        for point, column in _POINT_COLUMNS.items():
            setattr(row, column, counted.points_taken[point])
        rows.append(row)
    return rows


def _stale():
    """A game's rows are missing, or one of them was counted at another revision."""
    counted = SeatSummary.game_id == Game.id
    return or_(~exists().where(counted, SeatSummary.revision == Game.revision),
               exists().where(counted, SeatSummary.revision != Game.revision))


def stale_games(session: Session, club_id: int) -> list[Game]:
    """The club's games whose rows are missing or were counted before their last change."""
    return list(session.exec(
        select(Game).where(Game.club_id == club_id, _stale()).order_by(Game.id)
        .execution_options(populate_existing=True)  # the revisions as stored now
    ))


def refresh(session: Session, club_id: int) -> int:
    """Recount the club's stale games; how many were recounted."""
    stale = stale_games(session, club_id)
    for start in range(0, len(stale), BATCH):
        games = stale[start:start + BATCH]
        counted = {game.id: game.revision for game in games}
        rows = [row for table, players in load_seated(session, games)
                for row in seat_rows(SeatedGame(table, players))]
        ids = list(counted)
        session.exec(delete(SeatSummary).where(SeatSummary.game_id.in_(ids)))  # type: ignore[attr-defined]
        session.add_all(rows)
        session.flush()
        # A game changed while it was being counted: its rows would be out of date, so
        # none are kept and the next page counts it again.
        moved = [game_id for game_id, revision in session.exec(
            select(Game.id, Game.revision).where(Game.id.in_(ids))  # type: ignore[union-attr]
        ) if revision != counted[game_id]]
        if moved:
            session.exec(delete(SeatSummary).where(SeatSummary.game_id.in_(moved)))  # type: ignore[attr-defined]
        try:
            session.commit()
        except IntegrityError:
            # Another page recounted the same games at the same moment: theirs stand,
            # and anything still stale is recounted the next time a page asks.
            session.rollback()
    return len(stale)


def _counted():
    """The games the statistics count: all but the abandoned ones."""
    return Game.abandoned_at.is_(None)  # type: ignore[union-attr]


def _sums():
    return [func.count().label("played"),
            *(func.sum(getattr(SeatSummary, column)).label(column) for column in _SUMMED)]


def _stats_from(player_id: int, name: str, sums) -> PlayerStats:
    stats = PlayerStats(player_id, name)
    stats.games = Record(played=sums.played, won=sums.won, lost=sums.finished - sums.won)
    stats.hands_played = sums.hands
    stats.throw_ins_dealt = sums.throw_ins_dealt
    stats.taken_as_bidder = sums.taken_as_bidder
    for level, (bids, made) in _BID_COLUMNS.items():
        stats.bid_levels[level].bids = getattr(sums, bids)
        stats.bid_levels[level].made = getattr(sums, made)
    for point, column in _POINT_COLUMNS.items():
        stats.points_taken[Point(point)] = getattr(sums, column)
    return stats


def club_stamp(session: Session, club_id: int) -> str:
    """The state of the club's games in a word: any recorded change gives a new stamp."""
    count, newest, revisions, abandoned = session.exec(
        select(func.count(), func.max(Game.id), func.coalesce(func.sum(Game.revision), 0),
               func.count(Game.abandoned_at))
        .where(Game.club_id == club_id)
    ).one()
    return f"{count}:{newest}:{revisions}:{abandoned}"


def up_to_date(session: Session, club_id: int) -> ClubSummary:
    """The club's per-player sums, added up again first if any game changed since.

    The sums are kept with the stamp of the games they were added up from; finding
    another stamp, the changed games are recounted and everything is added up anew.
    """
    stamp = club_stamp(session, club_id)
    summary = session.get(ClubSummary, club_id)
    if summary is not None and summary.stamp == stamp:
        return summary
    refresh(session, club_id)
    sums = [dict(row._mapping) for row in session.exec(
        select(SeatSummary.player_id, *_sums())
        .join(Game, Game.id == SeatSummary.game_id)
        .where(Game.club_id == club_id, _counted())
        .group_by(SeatSummary.player_id)
    )]
    if club_stamp(session, club_id) != stamp or stale_games(session, club_id):
        # A game changed meanwhile, or another page's recount won: these sums are
        # shown this once and not kept, so the next page adds up again.
        session.rollback()
        return ClubSummary(club_id=club_id, stamp="", players=sums)
    summary = session.get(ClubSummary, club_id) or ClubSummary(club_id=club_id)
    summary.stamp, summary.players = stamp, sums
    session.add(summary)
    try:
        session.commit()
    except IntegrityError:  # another page stored the same sums at the same moment
        session.rollback()
    return summary


def abandoned_games(session: Session, club_id: int, player_id: int | None = None) -> int:
    """How many of the club's games (or of those the player sat in) were abandoned, and
    so are left out of the figures."""
    query = select(func.count()).select_from(Game).where(
        Game.club_id == club_id, Game.abandoned_at.is_not(None))  # type: ignore[union-attr]
    if player_id is not None:
        query = query.where(exists().where(GameSeat.game_id == Game.id,
                                           GameSeat.player_id == player_id))
    return session.exec(query).one()


def club_stats(session: Session, club_id: int) -> list[PlayerStats]:
    """Every player of the club who has sat in a game, with their figures."""
    summary = up_to_date(session, club_id)
    names = dict(session.exec(
        select(Player.id, Player.name).where(Player.club_id == club_id)).all())
    return [_stats_from(sums["player_id"], names[sums["player_id"]], SimpleNamespace(**sums))
            for sums in summary.players if sums["player_id"] in names]


def one_player_stats(session: Session, player: Player) -> PlayerStats | None:
    """One player's figures and partners, or None before their first game."""
    up_to_date(session, player.club_id)
    sums = session.exec(
        select(*_sums()).join(Game, Game.id == SeatSummary.game_id)
        .where(SeatSummary.player_id == player.id, _counted())
    ).one()
    if not sums.played:
        return None
    stats = _stats_from(player.id, player.name, sums)
    partner = aliased(SeatSummary)
    for partner_id, name, played, finished, won in session.exec(
        select(partner.player_id, Player.name, func.count(),
               func.sum(SeatSummary.finished), func.sum(SeatSummary.won))
        .join(partner, and_(partner.game_id == SeatSummary.game_id,
                            partner.team == SeatSummary.team,
                            partner.seat != SeatSummary.seat))
        .join(Player, Player.id == partner.player_id)
        .join(Game, Game.id == SeatSummary.game_id)
        .where(SeatSummary.player_id == player.id, _counted())
        .group_by(partner.player_id, Player.name)
    ):
        stats.partners[partner_id] = Record(played=played, won=won, lost=finished - won)
        stats.partner_names[partner_id] = name
    return stats


@dataclass(frozen=True)
class EveningRecord:
    """What one evening added to a player's record: games and bids; ``day_number``
    tells it from the club's other evenings of that date (None when it had none)."""

    evening_id: int
    played_on: date
    day_number: int | None
    finished: int
    won: int
    bids: int
    made: int


def evening_records(session: Session, player: Player) -> list[EveningRecord]:
    """The player's games and bids evening by evening, oldest first; one query."""
    up_to_date(session, player.club_id)
    bids = sum((getattr(SeatSummary, pair[0]) for pair in _BID_COLUMNS.values()), 0)
    made = sum((getattr(SeatSummary, pair[1]) for pair in _BID_COLUMNS.values()), 0)
    same_day = aliased(Evening)
    on_that_day = and_(same_day.club_id == Evening.club_id,
                       same_day.played_on == Evening.played_on)
    rows = session.exec(
        select(Evening.id, Evening.played_on,
               select(func.count()).where(on_that_day, same_day.id <= Evening.id)
               .scalar_subquery(),
               select(func.count()).where(on_that_day).scalar_subquery(),
               func.sum(SeatSummary.finished), func.sum(SeatSummary.won),
               func.sum(bids), func.sum(made))
        .join(Game, Game.id == SeatSummary.game_id)
        .join(Evening, Evening.id == Game.evening_id)
        .where(SeatSummary.player_id == player.id, _counted())
        .group_by(Evening.id, Evening.club_id, Evening.played_on)
        .order_by(Evening.played_on, Evening.id)
    )
    return [EveningRecord(evening_id, played_on, day_number if that_day > 1 else None, *counts)
            for evening_id, played_on, day_number, that_day, *counts in rows]


def game_counts(session: Session, evening_ids: Iterable[int]) -> dict[int, int]:
    """Evening id -> how many games it holds, for a page of evenings; one query."""
    ids = list(evening_ids)
    counts = dict.fromkeys(ids, 0)
    if ids:
        counts.update(session.exec(
            select(Game.evening_id, func.count()).where(Game.evening_id.in_(ids))  # type: ignore[union-attr]
            .group_by(Game.evening_id)
        ).all())
    return counts

