"""Where each answer's time went, in its Server-Timing header: asked for by the setting
``SERVER_TIMING`` (``bench/capacity.py`` turns it on to see where a slow record waited),
off otherwise, and then nothing is timed.

The parts: pool, getting a connection (waiting for one, opening one, the ping before it
is used); sql, statements and rollbacks; commit; render, templates drawn. Each is the
part's own time (a query run while a template renders is the query's); app is all of
the request from its start to the header, the four parts with the rest (the rules,
forms, words). A request set aside (``web/aside.py``) says one more, before the app:
queue, from its greenlet setting it aside to the app starting it in a render thread
(a poll's answer drawn aside counts its queue in app).
"""
from __future__ import annotations

from time import perf_counter

from flask import (
    Flask, Response, before_render_template, g, has_app_context, request, request_started,
    template_rendered,
)
from jinja2_fragments.flask import (
    before_render_template_block, before_render_template_blocks, template_block_rendered,
    template_blocks_rendered,
)
from sqlalchemy import event
from sqlalchemy.engine import Engine

from scorekeeper.store.db import engines
from scorekeeper.web.aside import SET_ASIDE_AT

TIMED_PARTS = ("pool", "sql", "commit", "render")


class _Parts:
    """One request's time by part. A part begun inside another pauses the outer one."""

    def __init__(self, set_aside_at: float | None = None) -> None:
        self.began = perf_counter()
        self.queued = None if set_aside_at is None else self.began - set_aside_at
        self.spent = dict.fromkeys(TIMED_PARTS, 0.0)
        self.statements = 0
        self.open: list[list] = []  # [part, since], innermost last

    def enter(self, part: str) -> None:
        now = perf_counter()
        if self.open:
            self.spent[self.open[-1][0]] += now - self.open[-1][1]
        self.open.append([part, now])

    def leave(self, part: str) -> None:
        if not self.open or self.open[-1][0] != part:
            return  # ended by an error that skipped its end: closed with the request
        now = perf_counter()
        self.spent[part] += now - self.open.pop()[1]
        if self.open:
            self.open[-1][1] = now

    def header(self) -> str:
        while self.open:
            self.leave(self.open[-1][0])
        said = [f"{part};dur={self.spent[part] * 1000:.2f}" for part in TIMED_PARTS]
        said[1] += f';desc="{self.statements} statements"'
        if self.queued is not None:
            said.append(f"queue;dur={self.queued * 1000:.2f}")
        return ", ".join(said + [f"app;dur={(perf_counter() - self.began) * 1000:.2f}"])


def _request_parts() -> _Parts | None:
    """The request's timer, if this runs within a timed request (not the watch's reads)."""
    return g.get("timed_parts") if has_app_context() else None


def _timed(part: str, work):
    """``work``, its time counted to ``part`` of the request that runs it."""
    def timed(*args, **kwargs):
        parts = _request_parts()
        if parts is None:
            return work(*args, **kwargs)
        parts.enter(part)
        try:
            return work(*args, **kwargs)
        finally:
            parts.leave(part)
    return timed


def _entering(part: str, counted: bool = False):
    def enter(*_args, **_kwargs) -> None:
        parts = _request_parts()
        if parts is not None:
            parts.enter(part)
            parts.statements += counted
    return enter


def _leaving(part: str):
    def leave(*_args, **_kwargs) -> None:
        parts = _request_parts()
        if parts is not None:
            parts.leave(part)
    return leave


def init_app(app: Flask) -> None:
    """Where ``SERVER_TIMING`` is on, time each request's parts and say them in its
    answer's Server-Timing header (after the database is set up: its engines are timed)."""
    if app.config["SERVER_TIMING"]:
        time_the_parts(app, engines(app))


def time_the_parts(app: Flask, timed_engines: list[Engine]) -> None:
    """Time each request's parts and say them in its answer's Server-Timing header."""
    for engine in timed_engines:
        engine.pool.connect = _timed("pool", engine.pool.connect)
        engine.dialect.do_commit = _timed("commit", engine.dialect.do_commit)
        engine.dialect.do_rollback = _timed("sql", engine.dialect.do_rollback)
        event.listen(engine, "before_cursor_execute", _entering("sql", counted=True))
        for ended in ("after_cursor_execute", "handle_error"):
            event.listen(engine, ended, _leaving("sql"))
    for began, ended in ((before_render_template, template_rendered),
                         (before_render_template_block, template_block_rendered),
                         (before_render_template_blocks, template_blocks_rendered)):
        began.connect(_entering("render"), app, weak=False)
        ended.connect(_leaving("render"), app, weak=False)
    request_started.connect(
        lambda _app, **_extra: setattr(
            g, "timed_parts", _Parts(request.environ.get(SET_ASIDE_AT))),
        app, weak=False)

    @app.after_request
    def say_the_parts(response: Response) -> Response:
        parts = g.pop("timed_parts", None)
        if parts is not None:
            response.headers["Server-Timing"] = parts.header()
        return response
