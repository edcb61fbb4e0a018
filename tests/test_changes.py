"""One protocol for every change at the table (``table.changes``): asked whether it was
done already, planned, shown first where it must be, applied once; after a conflict,
asked again whether it was done. And the views reach a write only through it.
"""
from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest
from sqlmodel import Session, select

from scorekeeper.rules import RuleViolation
from scorekeeper.store.models import Game
from scorekeeper.store.replay import load_replay
from scorekeeper.table import corrections, recording
from scorekeeper.table.changes import GameChanged, TableChange, Verdict, make
from scorekeeper.table.entry import NEXT_HAND, entry_for
from tests.test_summaries import fresh_club

VIEWS = Path(__file__).resolve().parent.parent / "scorekeeper" / "views"


class Traced(TableChange):
    """A change that says which of its parts ``make`` asked, and answers as told."""

    def __init__(self, *, done_before=None, done_after=None, refuse=False, check=False,
                 conflict=False):
        self.asked: list[str] = []
        self.done = [done_before, done_after]
        self.refuse, self.check, self.conflict = refuse, check, conflict

    def already_done(self, session, replay, revision, by):
        self.asked.append("already_done")
        return self.done.pop(0)

    def plan(self, session, replay, by):
        self.asked.append("plan")
        if self.refuse:
            raise RuleViolation("no_such_hand", "there is no hand 99", number=99)
        return "the plan"

    def check_first(self, replay, plan):
        self.asked.append("check_first")
        return self.check

    def apply(self, session, replay, plan, revision, by):
        self.asked.append("apply")
        if self.conflict:
            raise GameChanged()
        return "written"


@pytest.fixture
def game():
    session, _club, _ = fresh_club(1, 1, 3, random.Random(5))
    with session:
        yield session, load_replay(session, session.exec(select(Game)).first())


def run(game, change, confirmed=False):
    session, replay = game
    return make(session, replay, change, revision=None, by=None, confirmed=confirmed)


def test_a_change_is_asked_planned_checked_and_applied_in_that_order(game):
    change = Traced()
    outcome = run(game, change)
    assert change.asked == ["already_done", "plan", "check_first", "apply"]
    assert (outcome.verdict, outcome.plan, outcome.result) == (Verdict.DONE, "the plan",
                                                               "written")


def test_a_change_done_already_is_neither_planned_nor_written(game):
    change = Traced(done_before="the hand")
    outcome = run(game, change)
    assert change.asked == ["already_done"]
    assert (outcome.verdict, outcome.result) == (Verdict.AGAIN, "the hand")


def test_a_change_to_check_first_is_shown_and_written_on_the_second_tap(game):
    shown = Traced(check=True)
    assert run(game, shown).verdict is Verdict.CHECK
    assert "apply" not in shown.asked
    confirmed = Traced(check=True)
    assert run(game, confirmed, confirmed=True).verdict is Verdict.DONE
    assert confirmed.asked[-1] == "apply"


def test_a_refused_plan_writes_nothing(game):
    change = Traced(refuse=True)
    with pytest.raises(RuleViolation):
        run(game, change)
    assert change.asked == ["already_done", "plan"]


def test_after_a_conflict_it_asks_again_whether_the_change_got_there_first(game):
    first = Traced(conflict=True, done_after="its hand")
    outcome = run(game, first)
    assert first.asked == ["already_done", "plan", "check_first", "apply", "already_done"]
    assert (outcome.verdict, outcome.result) == (Verdict.AGAIN, "its hand")
    other = Traced(conflict=True)
    assert run(game, other).verdict is Verdict.CHANGED


# What writes a game's hands and seats: only a TableChange's ``apply`` calls them.
WRITES = {"record_hand", "undo_last_hand", "bring_back_hand", "confirm_hand", "edit_hand",
          "apply", "commit_change", "log_change"}


def test_the_views_write_a_game_only_through_the_protocol():
    for path in VIEWS.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module in (
                    "scorekeeper.table.recording", "scorekeeper.table.corrections"):
                named = {alias.name for alias in node.names} & WRITES
                assert not named, f"{path.name} calls {named} itself, not through make"


def test_every_change_of_the_table_is_made_by_some_view():
    changes = {name for module in (recording, corrections)
               for name, value in vars(module).items()
               if isinstance(value, type) and issubclass(value, TableChange)
               and value.__module__ == module.__name__ and "plan" not in
               getattr(value, "__abstractmethods__", ())}
    used = {node.func.id for path in VIEWS.glob("*.py")
            for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
    assert changes and changes <= used, changes - used


def test_an_entry_recorded_by_its_twin_between_the_look_and_the_plan_is_told_done(game):
    """The same entry sent twice at once: the second looks (not there yet), the first
    records it, the second plans: it is found done, not refused as another hand."""
    session, replay = game
    other = Session(session.get_bind())
    fields = {"number": str(replay.state.next_number), "calls": ",".join(["pass"] * 6)}

    class Twin(recording.RecordHand):
        def already_done(self, session, replay, revision, by):
            found = super().already_done(session, replay, revision, by)
            if found is None and not self.__dict__.get("_twin"):
                object.__setattr__(self, "_twin", True)  # the twin gets there now
                recording.RecordHand(self.number, self.fields, self.entry_key).apply(
                    other, load_replay(other, other.get(Game, replay.game.id)),
                    recording.read_deal(entry_for(replay, NEXT_HAND, fields).draft),
                    None, None)
            return found

    outcome = run(game, Twin(replay.state.next_number, fields, "twin-entry-" + "t" * 20))
    assert outcome.verdict is Verdict.AGAIN
    assert outcome.result.entry_key == "twin-entry-" + "t" * 20
