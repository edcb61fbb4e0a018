"""Flask extensions, set up once for the app."""
from __future__ import annotations

from flask import Flask, request, session
from flask.sessions import SecureCookieSessionInterface
from flask_babel import Babel, format_date, format_datetime, format_percent
from flask_wtf.csrf import CSRFProtect
from flask_compress import Compress
from htmx_flask import Htmx

babel = Babel()
csrf = CSRFProtect()
htmx = Htmx()
compress = Compress()

# Requests that never change the session: a poll every 2 seconds needn't send it back.
QUIET_ENDPOINTS = {"games.live", "health.healthz", "static", "offline.service_worker"}


class QuietPollSessions(SecureCookieSessionInterface):
    """The signed-cookie session, left unsent on polls (it is refreshed by any page)."""

    def should_set_cookie(self, app: Flask, session) -> bool:
        if request.endpoint in QUIET_ENDPOINTS:  # nothing they do needs the session
            return False
        return super().should_set_cookie(app, session)


def init_app(app: Flask) -> None:
    app.session_interface = QuietPollSessions()
    from scorekeeper.languages import select_locale

    babel.init_app(app, locale_selector=select_locale)
    # Registered first, so its after_request runs last: on the finished page.
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "gzip"])
    app.config.setdefault("COMPRESS_MIMETYPES", [
        "text/html", "text/css", "text/javascript", "application/javascript",
        "application/json", "text/csv", "image/svg+xml", "application/manifest+json"])
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

    from scorekeeper.words import card_name, minus

    app.jinja_env.globals["minus"] = minus  # scores show a real minus sign everywhere
    app.jinja_env.globals["card_name"] = card_name
    app.jinja_env.globals["format_date"] = format_date  # dates in the reader's locale
    app.jinja_env.globals["format_percent"] = format_percent
    app.jinja_env.globals["format_datetime"] = format_datetime

    @app.after_request
    def vary_on_htmx(response):
        # The same URL answers with a page or a fragment (which one: HX-Target,
        # HX-Boosted), so caches must tell them apart.
        response.vary.update(("HX-Request", "HX-Target", "HX-Boosted",
                              "HX-History-Restore-Request", "Accept-Language"))
        return response
