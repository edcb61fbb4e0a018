"""The statistics of a club with years of evenings, added up in the database.

Each player's stretch of each game (their seat all game, or the part of it they sat
before or after a substitute) is counted once by ``stats.player_stats`` from the replayed
hands and kept as a ``SeatSummary`` row tagged with the game's revision; the club's per-player
sums of those rows are kept as a ``ClubSummary`` tagged with a stamp of all its games.
Before any figure is read, ``up_to_date`` compares the stamp: if any game changed (a
hand recorded, edited, undone or brought back bumps its revision; a new, imported or
restored game has no rows yet), ``refresh`` recounts the games whose rows don't carry
their current revision. Where the stamp proves that only those games changed since the
sums were kept (the usual case: one hand recorded), the sums are moved on by taking the
games' old rows out and their new rows in; otherwise everything is added up again. So
every figure equals a full replay of the hands, and a page reads it with a few indexed
queries however long the history, recounting only the game that just changed. How the
figures are kept and proven current is ``kept``'s (each one declared in ``caches``): a
page recounts a batch of games at most, and with more to go (a long history new to the
figures) shows the sums of the rows counted so far and keeps none until every game is
counted.

An abandoned game keeps its rows but is left out of every sum; abandoning it (or taking
that back) bumps its revision like any change, and the stamp counts abandoned games too.

A player's games with each partner and opponent are added up from the rows of the games
they shared when their page asks, and kept with the club's stamp (``PlayerPairs``): the
next visit reads them as kept until any game changes. Two players are partners where
their rows hold one team: never in a cutthroat game, whose every seat is a team of its
own, so such a game counts among a player's opponents only.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from types import SimpleNamespace
from datetime import date
from typing import Iterable

from sqlalchemy import and_, exists, func
from sqlalchemy.orm import aliased
from sqlmodel import Session, delete, select

from scorekeeper.figures.stats import (
    TREND_POINTS, HeadToHead, PlayerStats, Record, SeatedGame, TrendPoint, player_stats, trend,
)
from scorekeeper.rules import BIDS, POINTS, Point, TeamLayout
from scorekeeper.store import kept
from scorekeeper.store.caches import CLUB_SUMS, PAIRS, SEAT_ROWS
from scorekeeper.store.kept import Stamp, changed_games, committed, games_to_go, stamp_of
from scorekeeper.store.models import (
    ClubSummary, Evening, Game, GameSeat, Player, SeatSummary,
)
from scorekeeper.store.replay import load_seated

# Games recounted per query and commit when many are stale at once (after an import).
BATCH = 200

# The summed columns and the PlayerStats figure each one feeds.
_POINT_COLUMNS = {point: f"took_{point.value}" for point in POINTS}
_BID_COLUMNS = {level: {"bids": f"bids_{level}", "made": f"made_{level}",
                         "change": f"change_{level}"} for level in BIDS}
_SUMMED = (
    "finished", "won", "hands", "throw_ins_dealt", "taken_as_bidder",
    *(column for columns in _BID_COLUMNS.values() for column in columns.values()),
    *_POINT_COLUMNS.values(),
)


def seat_rows(seated: SeatedGame) -> list[SeatSummary]:
    """The rows one game adds, one per player who sat at one of its hands (a player
    sits once in a game: one stretch, one row), counted by ``player_stats``."""
    replay = seated.replay
    by_player = player_stats([seated])
    team_at = {seat: team for team, seats in replay.rules.team_seats.items() for seat in seats}
    rows = []
    for player_id, stretch in sorted(seated.stretches(),
                                     key=lambda item: (item[1].sitting.seat, item[1].first)):
        seat, counted = stretch.sitting.seat, by_player[player_id]
        row = SeatSummary(
            game_id=replay.game.id, seat=seat, from_hand=stretch.first,
            to_hand=stretch.last, player_id=player_id,
            revision=replay.game.revision, team=team_at[seat],
            finished=int(counted.games.finished), won=counted.won,
            hands=counted.hands_played, throw_ins_dealt=counted.throw_ins_dealt,
            taken_as_bidder=counted.taken_as_bidder,
        )
        for level, columns in _BID_COLUMNS.items():
            for figure, column in columns.items():
                setattr(row, column, getattr(counted.bid_levels[level], figure))
        for point, column in _POINT_COLUMNS.items():
            setattr(row, column, counted.points_taken[point])
        rows.append(row)
    return rows


def to_go(session: Session, club_id: int, stamp: Stamp | None = None) -> int:
    """How many of the club's games are still to be counted (0: the figures are exact);
    ``stamp``: the games as they stand, if read already."""
    summary = CLUB_SUMS.kept(session, club_id)
    return games_to_go(session, SEAT_ROWS, club_id, summary and summary.stamp, stamp)


def _recount(session: Session, games: list[Game]) -> tuple[list[SeatSummary], list[int]]:
    """Count the games' rows afresh in the open transaction (nothing committed): the rows
    written, and the ids of the games that changed while they were counted, whose rows
    are left out."""
    counted = {game.id: game.revision for game in games}
    rows = [row for replay, players in load_seated(session, games)
            for row in seat_rows(SeatedGame(replay, players))]
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
    return rows, moved


def refresh(session: Session, club_id: int, most: int | None = None) -> int:
    """Recount the club's stale games (``most`` of them at most, the oldest first); how
    many were recounted."""
    stale = changed_games(session, SEAT_ROWS, club_id, most)
    for start in range(0, len(stale), BATCH):
        _recount(session, stale[start:start + BATCH])
        # Another page recounting the same games at the same moment: theirs stand, and
        # anything still stale is recounted the next time a page asks.
        committed(session, SEAT_ROWS.name, club_id)
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
    for level, columns in _BID_COLUMNS.items():
        for figure, column in columns.items():
            setattr(stats.bid_levels[level], figure, getattr(sums, column))
    for point, column in _POINT_COLUMNS.items():
        stats.points_taken[Point(point)] = getattr(sums, column)
    return stats


def club_stamp(session: Session, club_id: int) -> str:
    """The club's ``Stamp`` as the kept figures' column holds it."""
    return stamp_of(session, club_id).as_kept()


def _row_sums(session: Session, game_ids: list[int]) -> list[dict]:
    """The games' rows as plain numbers: game, revision, player and every summed column."""
    return [dict(row._mapping) for row in session.exec(
        select(SeatSummary.game_id, SeatSummary.revision, SeatSummary.player_id,
               *(getattr(SeatSummary, column) for column in _SUMMED))
        .where(SeatSummary.game_id.in_(game_ids))  # type: ignore[attr-defined]
    )]


def _moved_on(summary: ClubSummary, taken_out: list[dict], put_in: list[dict]) -> list[dict]:
    """The stored per-player sums less the rows taken out, plus the rows put in."""
    sums = {entry["player_id"]: dict(entry) for entry in summary.players}
    for rows, sign in ((taken_out, -1), (put_in, 1)):
        for row in rows:
            entry = sums.setdefault(row["player_id"], {
                "player_id": row["player_id"], "played": 0, **dict.fromkeys(_SUMMED, 0)})
            entry["played"] += sign
            for column in _SUMMED:
                entry[column] += sign * row[column]
    return [entry for _, entry in sorted(sums.items()) if entry["played"]]


def _abandoned_then(then: Stamp, now: Stamp, stale: list[Game],
                    taken_out: list[dict]) -> int | None:
    """How many of ``stale`` were abandoned when the sums were kept, where it is proven
    that no other game changed since and the rows ``taken_out`` are those the sums hold;
    None where it isn't.

    Revisions only grow and the stored sums were added up when every game's rows were
    current. So if the number of games and the newest id are as they were (games are
    never deleted), and the stale games' revisions have moved on from their rows' by
    exactly as much as the club's revisions have moved on from the stored stamp's, then
    no other game changed and those rows are the ones the sums hold. The other games'
    abandoning is as it was too (it bumps the revision), so the abandoned count tells
    how many of the stale games were abandoned before: when that is none or all of
    them, the rows taken out are those of the games counted then.
    """
    abandoned_then = then.abandoned - now.abandoned + sum(
        game.abandoned_at is not None for game in stale)
    if abandoned_then not in (0, len(stale)):
        return None
    counted_at: dict[int, set[int]] = {}
    for row in taken_out:
        counted_at.setdefault(row["game_id"], set()).add(row["revision"])
    if any(len(counted_at.get(game.id, ())) != 1 or max(counted_at[game.id]) >= game.revision
           for game in stale):
        return None
    moved_by = sum(game.revision - max(counted_at[game.id]) for game in stale)
    return abandoned_then if moved_by == now.revisions - then.revisions else None


def _adjusted(session: Session, club_id: int, summary: ClubSummary, stamp: Stamp,
              most: int) -> tuple[ClubSummary | None, int]:
    """The stored sums moved on by the games changed since they were added up (``most``
    of them at most), in one transaction with those games' recount, and how many games
    were recounted; None when that can't be proven exact (``_abandoned_then``), and the
    sums are added up in full instead. Kept only over the sums this was worked out from,
    with nothing moved meanwhile: another page (or server) that moved them on first
    wins, and this one adds up afresh."""
    then = Stamp.from_kept(summary.stamp)
    if then is None or (then.games, then.newest) != (stamp.games, stamp.newest):
        return None, 0
    stale = changed_games(session, SEAT_ROWS, club_id, min(BATCH, most) + 1)
    if not stale or len(stale) > min(BATCH, most):
        return None, 0
    taken_out = _row_sums(session, [game.id for game in stale])
    abandoned_then = _abandoned_then(then, stamp, stale, taken_out)
    if abandoned_then is None:
        return None, 0
    rows, moved = _recount(session, stale)
    if moved:
        session.rollback()
        return None, len(stale)
    abandoned_now = {game.id for game in stale if game.abandoned_at is not None}
    counted_now = [{"player_id": row.player_id,
                    **{column: getattr(row, column) for column in _SUMMED}}
                   for row in rows if row.game_id not in abandoned_now]
    moved_on = ClubSummary(club_id=club_id, stamp=stamp.as_kept(), players=_moved_on(
        summary, [] if abandoned_then else taken_out, counted_now))
    if not _kept_sums(session, summary, moved_on, stamp):
        return None, len(stale)
    return moved_on, len(stale)


def _kept_sums(session: Session, summary: ClubSummary | None, sums: ClubSummary,
               stamp: Stamp | None) -> bool:
    """Keep ``sums`` over the kept ``summary`` (None: none kept), if the club's games
    are still as ``stamp`` says (None: just checked)."""
    return CLUB_SUMS.keep(session, sums.club_id, was=summary and summary.stamp,
                          values={"stamp": sums.stamp, "players": sums.players},
                          club_id=sums.club_id, stamp=stamp)


def _summed(session: Session, club_id: int) -> list[dict]:
    """Each player's sums over the rows of the club's counted games, as kept now."""
    return [dict(row._mapping) for row in session.exec(
        select(SeatSummary.player_id, *_sums())
        .join(Game, Game.id == SeatSummary.game_id)
        .where(Game.club_id == club_id, _counted())
        .group_by(SeatSummary.player_id)
    )]


def up_to_date(session: Session, club_id: int, most: int | None = None) -> ClubSummary:
    """The club's per-player sums, brought up to date first if any game changed since.

    The sums are kept with the stamp of the games they were added up from; finding
    another stamp, the changed games are recounted and the sums moved on by them
    (``_adjusted``), or, where that can't be proven exact, added up anew. At most
    ``most`` games are recounted (None: a page's worth, ``kept.PER_VISIT``): with more
    to go, the sums of the rows as they are kept are shown this once (``to_go`` tells
    how many games are left).
    """
    kept.note_brought(session, "statistics", club_id)
    most = kept.PER_VISIT if most is None else most
    stamp = stamp_of(session, club_id)
    summary = CLUB_SUMS.kept(session, club_id)
    if summary is not None and stamp.holds_for(summary.stamp):
        return summary
    recounted = 0
    if summary is not None:
        adjusted, recounted = _adjusted(session, club_id, summary, stamp, most)
        if adjusted is not None:
            return adjusted
    refresh(session, club_id, most - recounted)
    sums = ClubSummary(club_id=club_id, stamp=stamp.as_kept(),
                       players=_summed(session, club_id))
    if changed_games(session, SEAT_ROWS, club_id, 1) or not _kept_sums(
            session, summary, sums, stamp):
        # Games are still to go, another page's recount won, or a game changed
        # meanwhile: these sums are shown this once and not kept.
        session.rollback()
        sums.stamp = ""
    return sums


def catch_up(session: Session, club_id: int) -> int:
    """Count every game still to be counted and keep the sums; how many were counted."""
    counted = refresh(session, club_id)
    up_to_date(session, club_id)
    return counted


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
    """One player's figures, partners and rivals, or None before their first game."""
    summary = up_to_date(session, player.club_id)
    sums = next((entry for entry in summary.players if entry["player_id"] == player.id), None)
    if sums is None or not sums["played"]:
        return None
    stats = _stats_from(player.id, player.name, SimpleNamespace(**sums))
    for other_id, partners, record in _kept_pairs(session, player, summary):
        (stats.partners if partners else stats.rivals)[other_id] = record
    stats.names.update(session.exec(
        select(Player.id, Player.name)
        .where(Player.id.in_([*stats.partners, *stats.rivals]))).all())  # type: ignore[union-attr]
    return stats


# The layouts where each player is a team of one: their games make no partners.
CUTTHROAT = tuple(str(layout) for layout in TeamLayout if layout.cutthroat)


def cutthroat_games(session: Session, player: Player) -> int:
    """How many of the player's counted games were cutthroat: they are among the
    player's games and opponents, never among their partners. One query, on the rows
    ``up_to_date`` keeps."""
    return session.exec(
        select(func.count()).select_from(SeatSummary)
        .join(Game, Game.id == SeatSummary.game_id)
        .where(SeatSummary.player_id == player.id, _counted(), Game.teams.in_(CUTTHROAT))  # type: ignore[attr-defined]
    ).one()


def head_to_head(session: Session, player: Player, other: Player) -> HeadToHead:
    """The two players' records as partners and as opponents (the figures brought up to
    date first)."""
    up_to_date(session, player.club_id)
    records = {partners: record
               for _, partners, record in _at_one_table(session, player.id, other.id)}
    against = [record for _, partners, record in _at_one_table(session, other.id, player.id)
               if not partners]
    return HeadToHead(records.get(True, Record()), records.get(False, Record()),
                      against[0] if against else Record())


def _at_one_table(session: Session, player_id: int, other_id: int | None = None
                  ) -> list[tuple[int, bool, Record]]:
    """(other player's id, whether partners, the player's record) for each player who
    sat at the table at one hand with the player in the counted games (only
    ``other_id``, if given): partners when of one team, rivals otherwise."""
    other = aliased(SeatSummary)
    partners = (other.team == SeatSummary.team).label("partners")
    query = (
        select(other.player_id, partners, func.count(),
               func.sum(SeatSummary.finished), func.sum(SeatSummary.won))
        .join(other, and_(other.game_id == SeatSummary.game_id,
                          other.seat != SeatSummary.seat,
                          # at the table together at one hand at least
                          other.from_hand <= SeatSummary.to_hand,
                          SeatSummary.from_hand <= other.to_hand))
        .join(Game, Game.id == SeatSummary.game_id)
        .where(SeatSummary.player_id == player_id, _counted())
        .group_by(other.player_id, partners))
    if other_id is not None:
        query = query.where(other.player_id == other_id)
    return [(found, bool(together), Record(played=played, won=won, lost=finished - won))
            for found, together, played, finished, won in session.exec(query)]


def _kept_pairs(session: Session, player: Player, summary: ClubSummary
                ) -> list[tuple[int, bool, Record]]:
    """``_at_one_table`` for the player, as kept with the club's stamp (``PlayerPairs``),
    or added up again where it no longer holds, and kept where the club's sums are
    (``summary``, as ``up_to_date`` left them: a stamp only when every row is current)."""
    stamp = Stamp.from_kept(summary.stamp)
    kept = PAIRS.kept(session, player.id)
    if stamp is not None and kept is not None and stamp.holds_for(kept.stamp):
        return [(other_id, bool(partners), Record(played=played, won=won, lost=lost))
                for other_id, partners, played, won, lost in kept.pairs]
    pairs = _at_one_table(session, player.id)
    if stamp is not None:  # else shown this once
        PAIRS.keep(session, player.id, was=kept and kept.stamp, values={
            "stamp": summary.stamp,
            "pairs": [[other_id, int(partners), record.played, record.won, record.lost]
                      for other_id, partners, record in pairs]})
    return pairs


@dataclass(frozen=True)
class EveningRecord:
    """What one evening added to a player's record: games and bids."""

    evening_id: int
    played_on: date
    finished: int
    won: int
    bids: int
    made: int


def evening_records(session: Session, player: Player, *, by_game: bool = False
                    ) -> list[EveningRecord]:
    """The player's games and bids evening by evening, oldest first; one query.
    ``by_game``: one record a game instead (with its evening), for a trend that shows
    each game."""
    kept.bring_once(session, "statistics", player.club_id, up_to_date)
    bids = sum((getattr(SeatSummary, c["bids"]) for c in _BID_COLUMNS.values()), 0)
    made = sum((getattr(SeatSummary, c["made"]) for c in _BID_COLUMNS.values()), 0)
    each_game = (Game.id,) if by_game else ()
    rows = session.exec(
        _by_evening(Evening.id, Evening.played_on,
                    func.sum(SeatSummary.finished), func.sum(SeatSummary.won),
                    func.sum(bids), func.sum(made))
        .where(SeatSummary.player_id == player.id)
        .group_by(*each_game, Evening.id, Evening.played_on)
        .order_by(Evening.played_on, Evening.id, *each_game)
    ).all()
    return [EveningRecord(*row) for row in rows]


def evening_trend(session: Session, player: Player, most: int = TREND_POINTS
                  ) -> tuple[list[TrendPoint], int]:
    """The player's win rate and made rate after their evenings (``stats.trend`` of
    ``evening_records``), at most ``most`` points, each with its evening's day number;
    and how many evenings apart they are."""
    points, every = trend(evening_records(session, player), most)
    numbers = evening_day_numbers(session, player.club_id,
                                  [point.evening_id for point in points])
    return [replace(point, day_number=numbers.get(point.evening_id))
            for point in points], every


def _by_evening(*columns):
    """A query of ``columns`` over the rows of the counted games, with each game's
    evening joined (a game of no evening left out)."""
    return (select(*columns).join(Game, Game.id == SeatSummary.game_id)
            .join(Evening, Evening.id == Game.evening_id).where(_counted()))


@dataclass(frozen=True)
class EveningGames:
    """One player's counted games of one evening: how many finished, how many won."""

    evening_id: int
    player_id: int
    finished: int
    won: int


def evenings_between(session: Session, club_id: int, first: date, last: date
                     ) -> list[EveningGames]:
    """Each player's games of each of the club's evenings from ``first`` to ``last``
    (both included), brought up to date first; a player is in an evening's list when
    they sat in one of its counted games, finished or not."""
    up_to_date(session, club_id)
    return [EveningGames(*row) for row in session.exec(
        _by_evening(Evening.id, SeatSummary.player_id,
                    func.sum(SeatSummary.finished), func.sum(SeatSummary.won))
        .where(Evening.club_id == club_id, Evening.played_on >= first,
               Evening.played_on <= last)
        .group_by(Evening.id, SeatSummary.player_id)
        .order_by(Evening.id, SeatSummary.player_id)
    )]


def evening_day_numbers(session: Session, club_id: int, evening_ids: Iterable[int]
                        ) -> dict[int, int]:
    """Evening id -> 1, 2, … for the club's evenings that share their date with another,
    on the dates of ``evening_ids`` (most dates have one evening, and those need no
    number)."""
    ids = list(evening_ids)
    if not ids:
        return {}
    asked = aliased(Evening)
    their_dates = select(asked.played_on).where(asked.id.in_(ids))  # type: ignore[union-attr]
    shared_dates = (select(Evening.played_on)
                    .where(Evening.club_id == club_id, Evening.played_on.in_(their_dates))  # type: ignore[attr-defined]
                    .group_by(Evening.played_on).having(func.count() > 1))
    shared = session.exec(
        select(Evening.id, Evening.played_on)
        .where(Evening.club_id == club_id, Evening.played_on.in_(shared_dates))  # type: ignore[attr-defined]
        .order_by(Evening.played_on, Evening.id)
    ).all()
    numbers: dict[int, int] = {}
    previous, number = None, 0
    for evening_id, played_on in shared:
        number = number + 1 if played_on == previous else 1
        numbers[evening_id], previous = number, played_on
    return numbers


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

