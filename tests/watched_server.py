"""The app as gunicorn serves it in a test, telling the test each poll it holds.

A process's held polls are its own (``scorekeeper/table/waiting.py``): a test on
another process cannot ask how many wait. Served from here, each time a poll begins to
wait in a worker a file is left in the folder ``HELD_POLLS`` names, so the test waits
for exactly what it needs (the polls held) instead of a fixed time; and once it stops
waiting, a file in its ``ended`` folder says how: ``woken-…`` by a change, or
``timed-out-…``.
"""
from __future__ import annotations

import functools
import os
import uuid
from pathlib import Path

from scorekeeper import create_app
from scorekeeper.table.waiting import Watch

app = create_app()
_wait = Watch.wait
_told = Path(os.environ["HELD_POLLS"])  # no folder named: the server doesn't start


@functools.wraps(_wait)
def _told_wait(self, key, seen, read, seconds):
    # Told before the poll joins the watch: a change in between still wakes it, as the
    # watch compares the head it reads with the one the poll saw.
    (_told / uuid.uuid4().hex).touch()
    woken = _wait(self, key, seen, read, seconds)
    (_told.parent / "ended" / f"{'woken' if woken else 'timed-out'}-{uuid.uuid4().hex}").touch()
    return woken


Watch.wait = _told_wait
