"""Who is gone for the night: the latest word on a player, a scorer's tap or the last
game they sat in (``table.attendance.is_gone``)."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from scorekeeper.store.models import GoneTonight
from scorekeeper.table.attendance import is_gone
from scorekeeper.table.evenings import LastGame

NINE = datetime(2026, 12, 20, 21, 0, tzinfo=timezone.utc)


def said(gone: bool, at: datetime) -> GoneTonight:
    return GoneTonight(evening_id=1, name_key="fay", gone=gone, said_at=at)


@pytest.mark.parametrize("word, last, gone", [
    (None, None, False),  # said they are in, not yet played: here
    (None, LastGame(NINE, replaced=False), False),
    (None, LastGame(NINE, replaced=True), True),  # a substitute took her seat
    (said(False, NINE + timedelta(minutes=30)), LastGame(NINE, replaced=True), False),  # back
    (said(True, NINE + timedelta(minutes=30)), LastGame(NINE, replaced=False), True),
    (said(True, NINE - timedelta(minutes=30)), LastGame(NINE, replaced=False), False),  # sat again
    (said(False, NINE - timedelta(minutes=30)), LastGame(NINE, replaced=True), True),  # left again
    (said(True, NINE), None, True),  # said to be gone before she ever sat down
])
def test_the_latest_word_on_a_player_says_whether_they_are_gone(word, last, gone):
    assert is_gone(word, last) is gone
