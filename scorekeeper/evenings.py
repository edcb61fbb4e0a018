"""Evenings: the dated gatherings that hold a club's games, and what they add up to."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from typing import Sequence

from sqlmodel import Session, func, select

from scorekeeper.ledger import Table
from scorekeeper.models import Club, Evening, Game, GameSeat, utcnow

# A game started this long after the evening's last one still belongs to it: a card
# table's night runs past midnight.
SAME_EVENING = timedelta(hours=12)
EVENINGS_PER_PAGE = 20


def current_evening(session: Session, club: Club, now: datetime | None = None) -> Evening | None:
    """Tonight's evening: dated today, or with a game begun in the last twelve hours."""
    now = now or utcnow()
    latest = session.exec(
        select(Evening).where(Evening.club_id == club.id)
        .order_by(Evening.played_on.desc(), Evening.id.desc())
    ).first()
    if latest is None:
        return None
    if latest.played_on == now.date():
        return latest
    last_game = session.exec(
        select(func.max(Game.created_at)).where(Game.evening_id == latest.id)
    ).one()
    if last_game is not None and now - _aware(last_game) <= SAME_EVENING:
        return latest
    return None


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def new_evening(club: Club, played_on: date, place: str = "", note: str = "") -> Evening:
    """An evening not yet stored: it is written with the game that opens it."""
    return Evening(club_id=club.id, played_on=played_on,
                   place=" ".join(place.split()) or None, note=note.strip() or None)


def evening_games(session: Session, evening: Evening) -> list[Game]:
    return list(session.exec(
        select(Game).where(Game.evening_id == evening.id).order_by(Game.id)
    ))


@dataclass(frozen=True)
class EveningTally:
    """Games won in an evening, per player and per partnership (a team's players)."""

    games: int
    finished: int
    by_player: list[tuple[str, int]]
    by_partnership: list[tuple[str, int]]


def tally(tables: Sequence[Table]) -> EveningTally:
    """Who won how many of the evening's games, most first; from the hands, never stored."""
    players: Counter[str] = Counter()
    partnerships: Counter[str] = Counter()
    for table in tables:
        for seat in table.names:
            players[table.names[seat]] += 0  # everyone who played is listed
        winner = table.state.winner
        if winner is None:
            continue
        seats = table.rules.team_seats[winner]
        for seat in seats:
            players[table.names[seat]] += 1
        partnerships[" & ".join(sorted(table.names[seat] for seat in seats))] += 1
    order = lambda item: (-item[1], item[0].casefold())  # noqa: E731
    return EveningTally(
        games=len(tables),
        finished=sum(1 for t in tables if t.state.finished),
        by_player=sorted(players.items(), key=order),
        by_partnership=sorted(partnerships.items(), key=order),
    )


def evenings_page(
    session: Session, club: Club, page: int, player_id: int | None = None
) -> tuple[list[Evening], bool]:
    """One page of the club's evenings, newest first (and whether there are more)."""
    query = select(Evening).where(Evening.club_id == club.id)
    if player_id is not None:
        query = query.where(Evening.id.in_(  # type: ignore[union-attr]
            select(Game.evening_id).join(GameSeat, GameSeat.game_id == Game.id)
            .where(GameSeat.player_id == player_id)
        ))
    rows = list(session.exec(
        query.order_by(Evening.played_on.desc(), Evening.id.desc())
        .offset((page - 1) * EVENINGS_PER_PAGE).limit(EVENINGS_PER_PAGE + 1)
    ))
    return rows[:EVENINGS_PER_PAGE], len(rows) > EVENINGS_PER_PAGE


def is_past_game(session: Session, table: Table) -> bool:
    """A finished game of an evening that is over: kept as it was, read-only."""
    if not table.state.finished or table.game.evening_id is None:
        return False
    return evening_is_over(session, table.game.club_id, table.game.evening_id)


def evening_is_over(session: Session, club_id: int, evening_id: int) -> bool:
    """The evening is not tonight's: its finished games are kept as they were."""
    tonight = current_evening(session, session.get(Club, club_id))
    return tonight is None or tonight.id != evening_id
