"""Figures worked out from the hands and kept: one way to keep them, and to prove them current.

The statistics (``summaries``) and the ratings (``ratings``) are both worked out from
the recorded hands, game by game, and kept in the database with the ``Stamp`` of the
club's games they were worked out from. Any recorded change gives a new stamp (a hand
recorded, edited, undone or brought back bumps its game's revision; a new game adds one),
so kept figures whose stamp still holds are exact. Otherwise the games whose kept rows
carry another revision (``changed_games``) are worked out again, at most ``PER_VISIT``
of them for each figure in one request: a club with years of games new to the figures
(the first visit, an import, a restore) is brought up to date a batch per page, and by
``flask --app scorekeeper catch-up`` at once, while pages show the figures as last kept
and say how many games are still to go. What is worked out is kept only over what it was
worked out from, and only when the stamp read again just before it is committed is the
one it was worked out from (``KeptFigure.keep``); a page that loses that race to another
keeps nothing, logs it, and shows the figures as kept now, never a replay of the club.

Every cache of the app, kept figures and caches in this process alike, is declared once
in ``scorekeeper.store.caches``: what it keeps, its key, and what makes it stale (or why
nothing does). A cache that is not declared there fails the tests.
"""
from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from typing import Any, Callable, Hashable

from cachetools import LRUCache
from sqlalchemy import func, insert, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlmodel import Session, select

from scorekeeper.store.models import Game

log = logging.getLogger(__name__)

# Games worked out again for each kept figure in one request at most; more wait for the
# next pages (or the catch-up command), which show the figures as last kept meanwhile.
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

    def holds_for(self, kept: str | None) -> bool:
        """Whether figures kept under ``kept`` (as its column holds it; None: nothing
        kept) were worked out from the games as this stamp says they stand: the one
        check that kept figures are current."""
        return Stamp.from_kept(kept) == self


def stamp_of(session: Session, club_id: int) -> Stamp:
    """The club's games as they stand now, one query."""
    count, newest, revisions, abandoned = session.exec(
        select(func.count(), func.max(Game.id), func.coalesce(func.sum(Game.revision), 0),
               func.count(Game.abandoned_at))
        .where(Game.club_id == club_id)
    ).one()
    return Stamp(count, newest, revisions, abandoned)


@dataclass(frozen=True)
class KeptFigure:
    """A figure worked out from the hands and kept in the database, declared once (the
    list is ``caches.KEPT``): its table (``store``), the columns saying whose it is
    (``key``), the column saying what it was worked out from (``stamp``: a game's
    revision for a figure kept game by game, the club's ``Stamp`` as kept for one kept
    club by club), and the function that works a batch of it out again (``recount``,
    by name: it lives with its figure, in a room above this one)."""

    name: str
    keeps: str
    store: Any  # the table's model
    key: tuple[str, ...]
    stamp: str
    recount: str
    stale: str  # what makes it stale, in words

    def _of(self, key: tuple) -> list:
        return [getattr(self.store, column) == value for column, value in zip(self.key, key)]

    def kept(self, session: Session, *key):
        """The kept row under ``key`` as stored now, not as this session last read it
        (None: none kept)."""
        return session.exec(select(self.store).where(*self._of(key))
                            .execution_options(populate_existing=True)).first()

    def counted_at(self):
        """The revision a game's rows were kept at, as a subquery correlated with
        ``Game`` (a figure kept game by game): a game's rows are only ever written
        together, so they share one revision, and one row found by one index lookup
        tells it."""
        return (select(getattr(self.store, self.stamp)).where(self.store.game_id == Game.id)
                .limit(1).correlate(Game).scalar_subquery())

    def keep(self, session: Session, *key, was: str | None, values: dict,
             club_id: int | None = None, stamp: Stamp | None = None,
             writes: Callable[[], None] | None = None) -> bool:
        """Keep ``values`` under ``key``, with what was written in the open transaction,
        only over what was kept as ``was`` (None: nothing was kept): the row is claimed
        first (updated where its stamp is still ``was``, the row count checked; inserted
        where nothing was), so another page keeping the same figure at the same moment
        waits here, then finds the stamp gone and keeps nothing. Then ``writes()`` (the
        rows that go with it), then a commit if the club's games are still as ``stamp``
        says (None: just checked). Whether it was kept; if not, all is rolled back."""
        try:
            if was is None:
                session.execute(insert(self.store).values({**dict(zip(self.key, key)), **values}))
            elif session.execute(update(self.store).where(
                    *self._of(key), getattr(self.store, self.stamp) == was)
                    .values(**values)).rowcount != 1:
                session.rollback()
                return False
            if writes is not None:
                writes()
            if stamp is not None and stamp_of(session, club_id) != stamp:  # a game changed
                session.rollback()
                return False
        except (IntegrityError, OperationalError) as error:
            return _gave_way(session, self.name, key, error)
        return committed(session, self.name, *key)


def _gave_way(session: Session, what: str, key: tuple, error: Exception) -> bool:
    """Another page kept the same figures at the same moment (or held the database):
    theirs stand, and this one's are rolled back, logged."""
    log.info("%s of %s not kept: %s", what, ", ".join(map(str, key)),
             error.__class__.__name__)
    session.rollback()
    return False


def committed(session: Session, what: str, *key) -> bool:
    """Commit the figures worked out in the open transaction (``what``, of ``key``);
    whether they were kept (another page keeping the same at the same moment, or a busy
    database, rolls them back, logged: the next page tries again)."""
    try:
        session.commit()
    except (IntegrityError, OperationalError) as error:
        return _gave_way(session, what, key, error)
    return True


def _changed(figure: KeptFigure, club_id: int) -> tuple:
    """The club's games whose kept rows are missing or carry another revision."""
    return Game.club_id == club_id, figure.counted_at().is_distinct_from(Game.revision)


def changed_games(session: Session, figure: KeptFigure, club_id: int,
                  most: int | None = None) -> list[Game]:
    """The club's games whose rows of ``figure`` (one kept game by game) are missing or
    carry another revision, oldest first, ``most`` at most."""
    query = (select(Game).where(*_changed(figure, club_id))
             .order_by(Game.id).execution_options(populate_existing=True))
    if most is not None:
        query = query.limit(most)
    return list(session.exec(query))


def games_to_go(session: Session, figure: KeptFigure, club_id: int, kept: str | None,
                stamp: Stamp | None = None) -> int:
    """How many of the club's games are still to be worked out again for ``figure``:
    none, without counting, while the figures kept under the stamp ``kept`` (as its
    column holds it) are of the games as they stand (``stamp``, read here if not given)."""
    if kept and (stamp or stamp_of(session, club_id)).holds_for(kept):
        return 0
    return session.exec(select(func.count()).select_from(Game)
                        .where(*_changed(figure, club_id))).one()


def note_brought(session: Session, what: str, club_id: int) -> None:
    """Note that the club's ``what`` ("statistics", "ratings") had this request's batch
    (its session's): a page whose parts read them twice works out one batch, not two."""
    session.info.setdefault(_BROUGHT, set()).add((what, club_id))


def brought(session: Session, what: str, club_id: int) -> bool:
    """Whether the club's ``what`` were brought up to date in this request already."""
    return (what, club_id) in session.info.get(_BROUGHT, ())


def bring_once(session: Session, what: str, club_id: int, bring) -> None:
    """Bring the club's ``what`` up to date with ``bring(session, club_id)``, unless this
    request did already (the one way a reader of kept figures asks for them current)."""
    if not brought(session, what, club_id):
        bring(session, club_id)


# The games in play one process keeps a figure of each for (its replay, its deck): more
# than the tables one server holds. A cache per game in play smaller than the games in
# play misses on every hand, as the hands come round the tables in turn.
GAMES_IN_PLAY = 2048


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
