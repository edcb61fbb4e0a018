"""Renders set aside: a phone asking "anything new?" never waits for a page being drawn.

Under gunicorn's gevent worker (README, "In production") one thread serves all of a
process's requests, a greenlet each, and a greenlet gives way only where it waits
(the network, a held poll). A render waits for nothing: it holds the process for its
whole time (tens of milliseconds), and every poll answer due meanwhile waits behind it.

Here every request that may render runs in a native thread, gevent's own ``ThreadPool``,
while its greenlet waits for it: a page in one of ``RENDER_THREADS``
(``render_threads``), a write (a record, any form sent) in the worker's one thread for
writes (``WRITE_THREADS``): a record may wait behind another form, never behind a page
or the answers a hand woke its table's polls for (``bench/capacity.py`` on PostgreSQL at
694 tables: the slowest records had queued 120 ms for a thread, and 1 ms with their
own). The interpreter hands its lock from a render to the greenlets every few
milliseconds (``sys.getswitchinterval``), so a poll is answered beside a render instead
of after it. What stays on the greenlets: a poll while it asks and waits (the answer it
renders after a change is set aside too, ``aside``), the health check and the static
files. Elsewhere (``flask run``, gunicorn's threaded workers, the tests) a render holds
no other request up, and nothing is set aside.
"""
from __future__ import annotations

import contextvars
import io
from time import perf_counter
from typing import Callable, TypeVar

from flask import Flask, current_app

from scorekeeper.store.db import WRITE_THREADS, close_session, drawing, render_threads

T = TypeVar("T")
# What is never set aside: a poll (its wait must stay a greenlet's), and what draws nothing.
NOT_ASIDE = ("/static/", "/healthz")
SMALL_BODY = 64 * 1024  # bytes: a form's body, read before the request is set aside
READS = ("GET", "HEAD")  # what a render thread draws; all else is a write's
SET_ASIDE_AT = "scorekeeper.set_aside_at"  # in a request's environ: when it was set aside


def init_app(app: Flask) -> None:
    threads = render_threads(app.config)
    if threads and under_gevent():
        from gevent.threadpool import ThreadPool

        pool = ThreadPool(threads)
        app.extensions["render_pool"] = pool
        app.wsgi_app = _SetAside(app.wsgi_app, pool, ThreadPool(WRITE_THREADS))


def aside(work: Callable[[], T]) -> T:
    """``work`` (a render), in the request's context, in the render pool while this
    greenlet waits; at once where there is no pool. No database connection is kept while
    it waits (many polls may wait at once): the work opens its own."""
    pool = current_app.extensions.get("render_pool")
    if pool is None:
        return work()
    close_session()
    return pool.apply(contextvars.copy_context().run, (drawing, _given_back, work))


def _given_back(work: Callable[[], T]) -> T:
    """``work``, its connection given back as soon as it is done: not when the poll's
    greenlet next runs (its render thread draws on meanwhile)."""
    try:
        return work()
    finally:
        close_session()


def under_gevent() -> bool:
    """Whether this process is served by gunicorn's gevent worker (its threads patched)."""
    try:
        from gevent import monkey
    except ImportError:
        return False
    return monkey.is_module_patched("threading")


class _SetAside:
    """The app, run in a native thread: a GET or HEAD in the render pool, any other
    method in the writes' own; but a poll, what draws nothing, and a large upload (a
    backup: it stays with its greenlet, as it reads the network) stay on their greenlet.
    A small body is read here first: the network is the greenlets' to read."""

    def __init__(self, wsgi_app, pages, writes) -> None:
        self.wsgi_app, self.pages, self.writes = wsgi_app, pages, writes

    def __call__(self, environ, start_response):
        length = _body_to_read_first(environ)
        if length is None:
            return self.wsgi_app(environ, start_response)
        if length:
            environ["wsgi.input"] = io.BytesIO(environ["wsgi.input"].read(length))
        pool = self.pages if environ["REQUEST_METHOD"] in READS else self.writes
        environ[SET_ASIDE_AT] = perf_counter()
        return pool.apply(drawing, (self.wsgi_app, environ, start_response))


def _body_to_read_first(environ) -> int | None:
    """How much of the body to read before the request is set aside (0: none); None
    where it is served on its greenlet: a poll, what draws nothing (Flask's own answer
    to OPTIONS too), a body too large to read first or of no length said."""
    path = environ.get("PATH_INFO", "")
    said = environ.get("CONTENT_LENGTH") or "0"
    if (path.endswith("/live") or path.startswith(NOT_ASIDE)
            or environ.get("REQUEST_METHOD") == "OPTIONS"
            or not (said.isascii() and said.isdigit())
            or "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()):
        return None
    length = int(said)
    return length if length <= SMALL_BODY else None
