"""Flask extensions, set up once for the app."""
from __future__ import annotations

import re

from flask import Flask, request, session
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from flask_babel import Babel, format_date, format_datetime, format_decimal, format_percent
from flask_compress import Compress
from htmx_flask import Htmx
from jinja2 import BytecodeCache
from jinja2.bccache import Bucket
from jinja2.ext import Extension

from scorekeeper.rules import GAME_TOTAL
from scorekeeper.text.names import team_part, typed
from scorekeeper.web.languages import request_translations, select_locale
from scorekeeper.web.security import SameOriginForms
from scorekeeper.web.words import (
    card_name, game_values, minus, suit_symbol, team_names, time_words, verdict_patterns,
)

babel = Babel()
csrf = SameOriginForms()
htmx = Htmx()
compress = Compress()

# Requests that never change the session: a poll every 2 seconds needn't send it back,
# and a screen link's pages give the browser that opens them no cookie at all.
QUIET_ENDPOINTS = {"games.live", "evenings.live", "evenings.tables_live", "health.healthz",
                   "static", "offline.service_worker", "screens.board", "screens.live",
                   "screens.tables", "screens.tables_live", "screens.chart"}


class LazySession(SecureCookieSession):
    """The signed-cookie session, read from its cookie only when first used.

    A phone's unchanged poll never looks at it, so it never pays for checking the
    cookie's signature; anything that does look finds the same session as ever.
    """

    def __init__(self, load) -> None:
        super().__init__()
        self._load = load

    @property
    def loaded(self) -> bool:
        return self._load is None

    def _ensure_loaded(self) -> None:
        if self._load is not None:
            load, self._load = self._load, None
            dict.update(self, load() or {})  # as read: neither modified nor accessed


def _loading_first(name: str):
    method = getattr(SecureCookieSession, name)

    def wrapper(self, *args, **kwargs):
        self._ensure_loaded()
        return method(self, *args, **kwargs)

    wrapper.__name__ = name
    return wrapper


for _name in ("__getitem__", "__setitem__", "__delitem__", "__contains__", "__iter__",
              "__len__", "__eq__", "__ne__", "__repr__", "__or__", "__ior__", "__reversed__",
              "get", "setdefault", "pop", "popitem", "update", "clear", "keys", "values",
              "items", "copy"):
    setattr(LazySession, _name, _loading_first(_name))


class QuietPollSessions(SecureCookieSessionInterface):
    """The signed-cookie session, read only when used and left unsent on polls (it is
    refreshed by any page)."""

    def open_session(self, app: Flask, request) -> LazySession:
        return LazySession(lambda: super(QuietPollSessions, self).open_session(app, request))

    def save_session(self, app: Flask, session, response) -> None:
        if isinstance(session, LazySession) and not session.loaded:
            return  # never read, so never changed: the browser's cookie stands
        super().save_session(app, session, response)

    def should_set_cookie(self, app: Flask, session) -> bool:
        if request.endpoint in QUIET_ENDPOINTS:  # nothing they do needs the session
            return False
        return super().should_set_cookie(app, session)

    def get_signing_serializer(self, app: Flask):
        keys = (app.secret_key, tuple(app.config.get("SECRET_KEY_FALLBACKS") or ()))
        return made_once(app, "session_serializer", keys,
                         lambda: super(QuietPollSessions, self).get_signing_serializer(app))


def made_once(app: Flask, name: str, key, make):
    """``make()``, kept in the app for as long as ``key`` (the secret it was made with)
    stays the same. For signers: making one serializes a sample to learn what it
    produces, too much to do on every request."""
    kept = app.extensions.get(name)
    if kept is None or kept[0] != key:
        kept = app.extensions[name] = (key, make())
    return kept[1]


def init_app(app: Flask) -> None:
    app.session_interface = QuietPollSessions()
    babel.init_app(app, locale_selector=select_locale)
    # The first after_request hook of the app (create_app calls this before any other
    # init_app), so it runs last: it compresses the finished page.
    compress.init_app(app)
    csrf.init_app(app)
    htmx.init_app(app)

    @app.before_request
    def keep_session() -> None:
        # A permanent session outlives a browser restart, so the CSRF token does too.
        if request.endpoint in QUIET_ENDPOINTS:
            return  # polls and health checks never touch the session
        if not session.permanent:  # setting it marks the session changed: only once
            session.permanent = True

    install_template_gettext(app)
    app.jinja_env.add_extension(UnindentedTemplates)
    app.jinja_env.bytecode_cache = COMPILED_TEMPLATES

    app.jinja_env.globals["minus"] = minus  # scores show a real minus sign everywhere
    app.jinja_env.globals["card_name"] = card_name
    app.jinja_env.globals["suit_symbol"] = suit_symbol
    app.jinja_env.globals["team_names"] = team_names
    app.jinja_env.globals["verdict_patterns"] = verdict_patterns  # for the phone offline
    app.jinja_env.globals["GAME_TOTAL"] = GAME_TOTAL  # the game value of the whole deck
    app.jinja_env.globals["format_date"] = format_date  # dates in the reader's locale
    app.jinja_env.globals["format_decimal"] = format_decimal  # and figures
    app.jinja_env.globals["format_percent"] = format_percent
    app.jinja_env.globals["format_datetime"] = format_datetime
    app.jinja_env.globals["time_words"] = time_words  # "1 h 12 min"
    app.jinja_env.globals["game_values"] = game_values  # a hand's counted game values
    # What people typed, shown as written and isolated; one team's part of a line.
    app.jinja_env.filters["typed"] = typed
    app.jinja_env.filters["team_part"] = team_part

    @app.after_request
    def vary_on_htmx(response):
        # The same URL answers with a page or a fragment (which one: HX-Target,
        # HX-Boosted), so caches must tell them apart.
        response.vary.update(("HX-Request", "HX-Target", "HX-Boosted",
                              "HX-History-Restore-Request", "Accept-Language"))
        return response


class CompiledTemplates(BytecodeCache):
    """Templates compiled once per process, for every app it makes: each app has a Jinja
    environment of its own, which would compile each template again from its source (a
    test makes an app of its own; compiling was a quarter of the view tests' time). A
    template whose source changed is compiled anew: Jinja checks the source's digest."""

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        if bucket.key in self._code:
            bucket.bytecode_from_string(self._code[bucket.key])

    def dump_bytecode(self, bucket: Bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()


COMPILED_TEMPLATES = CompiledTemplates()


class UnindentedTemplates(Extension):
    """Templates lose their lines' indentation as they are read (once, not per page):
    it is there for whoever edits them, and the page weighs a few hundred bytes less
    on the phone. No template holds a <pre>, a <textarea> or a text that spans lines."""

    _INDENT = re.compile(r"\n[ \t]+")

    def preprocess(self, source: str, name: str | None, filename: str | None = None) -> str:
        return self._INDENT.sub("\n", source)


def install_template_gettext(app: Flask) -> None:
    """Templates' _, gettext and ngettext, reading the request's catalogue once.

    Jinja's "newstyle" gettext formats the variables and escapes them itself; these
    only find the words.
    """

    def gettext(message: str) -> str:
        return request_translations().ugettext(message)

    def ngettext(singular: str, plural: str, number: int) -> str:
        return request_translations().ungettext(singular, plural, number)

    app.jinja_env.install_gettext_callables(gettext, ngettext, newstyle=True)
