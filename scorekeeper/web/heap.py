"""What a served process holds from its start is kept out of the garbage collector's way.

Under gunicorn's gevent worker (README, "In production") a process holds thousands of
phones' polls at once, each a greenlet with its request. Python's collector walks the
whole heap now and then (every few seconds with a few hundred tables playing), and the
process stands still while it does. What the process made at its start (modules, the
app, its routes, its translations: some 140,000 objects) lives as long as it does;
frozen there (``gc.freeze``), the collector no longer walks it. A whole walk of a
process with a hundred games in play then takes 4-12 ms instead of 113-135 ms; with
500 tables' polls held (``bench/capacity.py``), whose requests are then most of what
is walked, ~200 ms instead of ~270 ms.

Those held requests pass the collector's younger generations and reach its oldest,
whose walk then comes every few seconds (its third threshold, 10 walks of the younger
ones, is spent in seconds). It is raised to 1,000 (``OLDEST_AFTER``): a whole walk
about a hundredth as often (the collector also waits for a quarter more long-lived
objects than its last walk left), each as long, so that a record rarely meets one;
what it frees of the oldest generation (some 10,000 objects a walk) waits longer.
Measured with ``bench/capacity.py``, one run after the other: at 100, 7 whole walks
instead of ~41 in each worker, and 900 tables held instead of 425 (SQLite). At 1,000,
on PostgreSQL with 505 tables playing: no whole walk in a worker's 90 s of load, where
at 100 there were two or three, each stopping it for 180-360 ms (a record met one:
734 ms at p99).

Only when served under gevent: elsewhere (the tests) apps are made by the hundred, and
what a frozen one holds would never be freed.
"""
from __future__ import annotations

import gc

from flask import Flask

from scorekeeper.web.aside import under_gevent

OLDEST_AFTER = 1000  # walks of the younger generations before one of the whole heap


def init_app(app: Flask) -> None:
    """Last of the app's set-up: everything made so far is frozen, and the whole heap
    walked less often, if served under gevent."""
    if under_gevent():
        gc.collect()  # what start-up left as garbage is freed first, not kept for good
        gc.freeze()
        young, middle, _ = gc.get_threshold()
        gc.set_threshold(young, middle, OLDEST_AFTER)
