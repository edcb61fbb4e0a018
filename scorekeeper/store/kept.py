"""Figures worked out from the hands and kept: one way to keep them, and to prove them current.

The statistics (``summaries``) and the ratings (``ratings``) are both worked out from
the recorded hands, game by game, and kept in the database with the ``Stamp`` of the
club's games they were worked out from. Any recorded change gives a new stamp (a hand
recorded, edited, undone or brought back bumps its game's revision; a new game adds one),
so kept figures whose stamp still holds are exact. Otherwise the games whose kept rows
carry another revision (``changed_games``) are worked out again, at most ``PER_VISIT``
of them in one request: a club with years of games new to the figures (the first
visit, an import, a restore) is brought up to date a batch per page, and by
``flask --app scorekeeper catch-up`` at once, while pages show the figures as last kept
and say how many games are still to go. What is worked out is kept only when the stamp
read again just before it is stored is the one it was worked out from
(``commit_if_current``); a failure to keep it is logged, and the next page tries again.

Every cache of derived data, what it keeps, its key, and what makes it stale:

- ``SeatSummary`` rows (summaries): each player's figures from one stretch of one game;
  key: game, seat, first hand; stale when the game's revision is not the row's.
- ``ClubSummary`` (summaries): each player's sums over the counted games; key: club;
  stale when the club's stamp is not the one kept.
- ``PlayerPairs`` (summaries): one player's games with each partner and opponent; key:
  player; stale when the club's stamp is not the one kept (kept only with the club's
  sums current).
- ``RatedGame`` / ``PlayerRating`` rows (ratings): when a game finished and each of its
  players' rating after it; key: game (and player); stale when the game's revision is
  not the one kept, or a game finishing before it changed.
- ``ClubRatings`` (ratings): everyone's latest rating; key: club; stale when the club's
  stamp is not the one kept.
- ``chances.GAME_HANDS``, ``DECKS``, ``CHANCES`` (in this process, ``LockedLRU``): a
  game's played hands, its club's hands scored for every dealer, and its chances to win;
  keys: game id, revision (or house rules) and creation; never stale, since a key stands
  for one state of a game only. ``chances.VERDICTS`` (likewise): the rules engine's
  verdicts on a game's end, for every deck of the same house rules; key: the house
  rules; never stale, as the rules are code.
- ``chances.teams_from``, ``scored``, ``outcome_of`` (``functools.lru_cache``): the
  rules engine's answers for a layout and a hand's shape; keys: their arguments; never
  stale, as the rules are code.
- ``evenings.GAME_PARTS`` and ``TALLIES`` (in this process, ``LockedLRU``): each game's
  part of its evening's tally, and each evening's tally; keys: game id, creation,
  revision; evening id, creation, and the sum of its games' revisions (with its newest
  game and how many are abandoned); never stale, as above.
- ``replay.REPLAYS`` (in this process): each game's last replay; key: game id; checked
  against the deals read each time, so never trusted stale.
- ``page_cache.PageCache`` (in this process) and ``KeptAnswer`` rows (shared): rendered
  game pages and live answers; key: game id, creation, revision, draft; never stale, as
  above.
"""
from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from typing import Hashable

from cachetools import LRUCache
from sqlalchemy import func
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlmodel import Session, select

from scorekeeper.store.models import Game

log = logging.getLogger(__name__)

# Games worked out again in one request at most; more wait for the next pages (or the
# catch-up command), which show the figures as last kept meanwhile.
PER_VISIT = 200
# What of a club's kept figures a request has brought up to date (its session's note).
_BROUGHT = "kept_figures_brought"


@dataclass(frozen=True)
class Stamp:
    """The state of a club's games in four numbers: how many games, the newest id, the
    revisions' sum and how many are abandoned. Revisions only grow and games are never
    deleted, so any recorded change gives another stamp. ``behind``: kept figures that
    still had games to go; such a stamp never equals a club's own."""

    games: int
    newest: int | None
    revisions: int
    abandoned: int
    behind: bool = False

    def as_kept(self, behind: bool = False) -> str:
        """The stamp as its column keeps it."""
        return ":".join(map(str, (self.games, self.newest, self.revisions, self.abandoned)
                            + ((1,) if behind else ())))

    @classmethod
    def from_kept(cls, kept: str | None) -> "Stamp | None":
        """A kept stamp back as numbers (None: none kept, or not a stamp)."""
        parts = (kept or "").split(":")
        if len(parts) not in (4, 5):
            return None
        games, newest, revisions, abandoned, *behind = parts
        try:
            return cls(int(games), None if newest == "None" else int(newest),
                       int(revisions), int(abandoned), bool(behind))
        except ValueError:
            return None


def stamp_of(session: Session, club_id: int) -> Stamp:
    """The club's games as they stand now, one query."""
    count, newest, revisions, abandoned = session.exec(
        select(func.count(), func.max(Game.id), func.coalesce(func.sum(Game.revision), 0),
               func.count(Game.abandoned_at))
        .where(Game.club_id == club_id)
    ).one()
    return Stamp(count, newest, revisions, abandoned)


def _changed(club_id: int, counted_at) -> tuple:
    """The club's games whose kept rows are missing or carry another revision."""
    return Game.club_id == club_id, counted_at.is_distinct_from(Game.revision)


def changed_games(session: Session, club_id: int, counted_at, most: int | None = None
                  ) -> list[Game]:
    """The club's games whose kept rows are missing or carry another revision, oldest
    first, ``most`` at most. ``counted_at``: the revision a game's rows were kept at, as a
    subquery correlated with ``Game``."""
    query = (select(Game).where(*_changed(club_id, counted_at))
             .order_by(Game.id).execution_options(populate_existing=True))
    if most is not None:
        query = query.limit(most)
    return list(session.exec(query))


def games_to_go(session: Session, club_id: int, counted_at, kept: str | None,
                stamp: Stamp | None = None) -> int:
    """How many of the club's games are still to be worked out again: none, without
    counting, while the figures kept under the stamp ``kept`` (as its column holds it)
    are of the games as they stand (``stamp``, read here if not given)."""
    if kept and Stamp.from_kept(kept) == (stamp or stamp_of(session, club_id)):
        return 0
    return session.exec(select(func.count()).select_from(Game)
                        .where(*_changed(club_id, counted_at))).one()


def note_brought(session: Session, what: str, club_id: int) -> None:
    """Note that the club's ``what`` ("statistics", "ratings") had this request's batch
    (its session's): a page whose parts read them twice works out one batch, not two."""
    session.info.setdefault(_BROUGHT, set()).add((what, club_id))


def brought(session: Session, what: str, club_id: int) -> bool:
    """Whether the club's ``what`` were brought up to date in this request already."""
    return (what, club_id) in session.info.get(_BROUGHT, ())


def commit_if_current(session: Session, club_id: int, stamp: Stamp | None, what: str
                      ) -> bool:
    """Commit what was worked out in the open transaction if the club's games are still
    as ``stamp`` says (None: just checked); otherwise roll it back. Whether it was kept;
    a failure is logged (another page keeping the same figures at the same moment, a busy
    database)."""
    try:
        if stamp is not None and stamp_of(session, club_id) != stamp:  # a game changed
            session.rollback()
            return False
        session.commit()
    except (IntegrityError, OperationalError) as error:
        log.info("%s of club %s not kept: %s", what, club_id, error.__class__.__name__)
        session.rollback()
        return False
    return True


class LockedLRU:
    """A size-bounded, thread-safe LRU (cachetools' own, behind a lock): what was worked
    out once in this process, for the next page to reuse. ``getsizeof``: how much each
    entry counts against ``maxsize`` (one each when not given)."""

    def __init__(self, maxsize: int, getsizeof=None) -> None:
        self._kept: LRUCache = LRUCache(maxsize=maxsize, getsizeof=getsizeof)
        self._lock = threading.Lock()

    @property
    def maxsize(self) -> int:
        return int(self._kept.maxsize)

    def get(self, key: Hashable, default=None):
        with self._lock:
            return self._kept.get(key, default)

    def put(self, key: Hashable, value) -> None:
        """Keep ``value`` (one too big for the whole cache is not kept)."""
        with self._lock:
            if self._kept.getsizeof(value) <= self._kept.maxsize:
                self._kept[key] = value

    def __len__(self) -> int:
        with self._lock:
            return len(self._kept)
