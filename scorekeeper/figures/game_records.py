"""A player's counted games one by one, oldest first, from the kept rows: what the trend
chart draws a point for while the player's games are few enough to show each one."""
from __future__ import annotations

from sqlalchemy import func
from sqlmodel import Session

from scorekeeper.figures.summaries import _BID_COLUMNS, EveningRecord, _by_evening
from scorekeeper.store.models import Evening, Game, Player, SeatSummary


def game_records(session: Session, player: Player) -> list[EveningRecord]:
    """What each of the player's counted games added to their record (one record a game,
    with its evening), oldest first; one query. The club's figures must be up to date
    already (``summaries.one_player_stats`` brings them)."""
    bids = sum((getattr(SeatSummary, c["bids"]) for c in _BID_COLUMNS.values()), 0)
    made = sum((getattr(SeatSummary, c["made"]) for c in _BID_COLUMNS.values()), 0)
    rows = session.exec(
        _by_evening(Evening.id, Evening.played_on,
                    func.sum(SeatSummary.finished), func.sum(SeatSummary.won),
                    func.sum(bids), func.sum(made))
        .where(SeatSummary.player_id == player.id)
        .group_by(Game.id, Evening.id, Evening.played_on)
        .order_by(Evening.played_on, Evening.id, Game.id)
    ).all()
    return [EveningRecord(*row) for row in rows]
