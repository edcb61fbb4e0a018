"""Waiting in a test for what it needs, never for a fixed time: a slow, busy machine
only takes longer."""
from __future__ import annotations

import time
from typing import Callable

PATIENCE = 60  # seconds: at most, on a slow machine, for what must come


def until(done: Callable[[], bool], patience: float = PATIENCE) -> None:
    """Return as soon as ``done()`` holds; fail if it never comes."""
    deadline = time.monotonic() + patience
    while not done():
        assert time.monotonic() < deadline, "what the test waited for never came"
        time.sleep(0.02)
