"""What a phone's poll answers, decided from the poll and the game's head alone (no
page, no database): the views only render what these say."""
from __future__ import annotations

from datetime import datetime, timezone
from types import SimpleNamespace

from scorekeeper.table.live import GameHead, Poll

STARTED = datetime(2026, 1, 1, tzinfo=timezone.utc)


def head(revision: int = 7, draft_seq: int = 0, draft_device: int | None = None) -> GameHead:
    return GameHead(1, STARTED, revision, None, draft_seq, draft_device)


def poll(v: str, view: str | None = None, scorer: bool = True, device: int | None = 5) -> Poll:
    args = {"v": v} if view is None else {"v": v, "view": view}
    return Poll.read(args, scorer, device)


def test_a_watchers_page_follows_every_step_of_the_hand_in_progress():
    assert poll("7.3", scorer=False).unchanged(head(draft_seq=3, draft_device=9))
    assert not poll("7.2", scorer=False).unchanged(head(draft_seq=3, draft_device=9))
    assert not poll("7", scorer=False).unchanged(head(draft_seq=3, draft_device=9))


def test_a_scorers_page_follows_another_phones_entry_never_its_own():
    assert poll("7", device=9).unchanged(head(draft_seq=3, draft_device=9))
    assert not poll("7", device=5).unchanged(head(draft_seq=3, draft_device=9))
    assert poll("7.3", device=5).unchanged(head(draft_seq=3, draft_device=9))


def test_a_correction_and_the_board():
    # A correction follows the game alone; the board every step, scorer or not.
    assert poll("7", "correction").unchanged(head(draft_seq=3, draft_device=9))
    assert poll("7.3", "board").unchanged(head(draft_seq=3, draft_device=9))
    assert not poll("7", "board").unchanged(head(draft_seq=3, draft_device=9))
    assert poll("7", "anything else").view == "game"


def test_only_another_phones_entry_moved_is_this_scorers_answer_alone():
    scorer = poll("7", device=5)
    assert scorer.other_phone_only(7) and not scorer.may_be_kept(7)
    assert not scorer.other_phone_only(8) and scorer.may_be_kept(8)
    for other in (poll("7", scorer=False), poll("7", "board"), poll("7", "correction")):
        assert other.may_be_kept(7) and not other.other_phone_only(7)


def test_a_page_behind_is_told_who_changed_what_and_one_behind_may_take_the_hand_alone():
    behind = poll("6.2", scorer=False)
    assert behind.tells_change(7) and behind.one_behind(7) and not behind.same_game(7)
    assert not poll("5", scorer=False).one_behind(7)
    assert not poll("6", "correction").one_behind(7)
    assert not poll("6", "board").tells_change(7)
    assert not poll("7.1").tells_change(7)


def test_just_the_hand_recorded_only_when_that_was_the_last_change():
    recorded = SimpleNamespace(kind="recorded", number=4)
    undone = SimpleNamespace(kind="undone", number=4)
    behind = poll("6")
    assert behind.recorded_only(7, recorded, 4)
    assert not behind.recorded_only(7, recorded, 5)  # another hand since
    assert not behind.recorded_only(7, undone, 4)
    assert not behind.recorded_only(7, None, 4)
    assert not poll("5").recorded_only(7, recorded, 4)
