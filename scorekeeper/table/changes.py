"""One way for every change at the table: a hand recorded, corrected, put in, undone,
brought back or confirmed; two seats swapped, a name, a substitute, a game abandoned.

Each is a ``TableChange`` in four parts, and ``make`` runs them in one order for every
form that changes a game:

1. ``already_done``: whether this very change was made already (the same entry sent
   twice because its answer was lost, a confirm tapped twice). What shows it (the hand,
   the log's row) comes back, and nothing more is written.
2. ``plan``: what it would do, worked out through the rules engine. A ``RuleViolation``
   (or ``TallyIncomplete``) says why it can't be made; nothing is written.
3. ``check_first``: whether the table sees its consequences before it is made (later
   hands moving, a confirmed hand changed): a second tap, the form sent again confirmed.
4. ``apply``: written once, with the game's revision checked: ``GameChanged`` if another
   phone changed the game since the page was shown. Then ``already_done`` is asked again
   of the game as it is now: the change got there first from this very phone, or not.

The views only say the ``Outcome`` in words.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from enum import StrEnum

from sqlmodel import Session

from scorekeeper.store.replay import Replay, load_replay


class GameChanged(Exception):
    """The game changed (on another phone) after the page that sent the change was shown."""


class Verdict(StrEnum):
    """How a change ended."""

    DONE = "done"  # made now
    AGAIN = "again"  # made already, by this very change sent before: nothing more written
    CHECK = "check"  # its consequences to be shown first: nothing written yet
    CHANGED = "changed"  # the game moved since the page was shown: nothing written


@dataclass(frozen=True)
class Outcome:
    """What ``make`` did, and the game the answer shows."""

    verdict: Verdict
    replay: Replay  # read afresh after a conflict
    plan: object = None
    result: object = None  # what ``apply`` gave, or what ``already_done`` found


class TableChange(ABC):
    """A change at the table, as ``make`` runs it (the module's docstring)."""

    def already_done(self, session: Session, replay: Replay, revision: int | None,
                     by) -> object | None:
        """What shows that this change was made already, or None (it wasn't)."""
        return None

    @abstractmethod
    def plan(self, session: Session, replay: Replay, by) -> object:
        """What the change would do; a RuleViolation if it can't be made."""

    def check_first(self, replay: Replay, plan) -> bool:
        """Whether the table is shown the plan before it is made."""
        return False

    @abstractmethod
    def apply(self, session: Session, replay: Replay, plan, revision: int | None,
              by) -> object:
        """Write the plan once, or nothing (GameChanged) if the game moved."""


def make(session: Session, replay: Replay, change: TableChange, *, revision: int | None,
         by, confirmed: bool) -> Outcome:
    """Run ``change`` on the game as ``replay`` read it, sent from a page of game
    revision ``revision`` by ``by`` (``confirmed``: the second tap of a check)."""
    found = change.already_done(session, replay, revision, by)
    if found is not None:
        return Outcome(Verdict.AGAIN, replay, result=found)
    try:
        plan = change.plan(session, replay, by)
        if not confirmed and change.check_first(replay, plan):
            return Outcome(Verdict.CHECK, replay, plan)
        return Outcome(Verdict.DONE, replay, plan,
                       change.apply(session, replay, plan, revision, by))
    except GameChanged:
        session.rollback()
        fresh = load_replay(session, replay.game)
        found = change.already_done(session, fresh, revision, by)
        if found is not None:
            return Outcome(Verdict.AGAIN, fresh, result=found)
        return Outcome(Verdict.CHANGED, fresh)
