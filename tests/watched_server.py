"""The app as gunicorn serves it in a test, telling the test each poll it holds.

A process's held polls are its own (``scorekeeper/table/waiting.py``): a test on
another process cannot ask how many wait. Served from here, every poll a worker begins
to hold leaves a file in the folder ``HELD_POLLS`` names, so the test waits for exactly
what it needs (the polls held) instead of a fixed time.
"""
from __future__ import annotations

import os
import uuid
from pathlib import Path

from scorekeeper import create_app
from scorekeeper.table.waiting import Watch

app = create_app()
_wait = Watch.wait


def _told_wait(self, key, seen, read, seconds):
    # Told before the poll joins the watch: a change in between still wakes it, as the
    # watch compares the head it reads with the one the poll saw.
    (Path(os.environ["HELD_POLLS"]) / uuid.uuid4().hex).touch()
    _wait(self, key, seen, read, seconds)


Watch.wait = _told_wait
