"""Flask extensions, set up once for the app."""
from __future__ import annotations

from flask import Flask, session
from flask_babel import Babel, format_date, format_datetime, format_percent, get_locale
from flask_wtf.csrf import CSRFProtect
from htmx_flask import Htmx

babel = Babel()
csrf = CSRFProtect()
htmx = Htmx()


def init_app(app: Flask) -> None:
    babel.init_app(app)
    csrf.init_app(app)
    htmx.init_app(app)

    @app.before_request
    def keep_session() -> None:
        # A permanent session outlives a browser restart, so the CSRF token does too.
        session.permanent = True

    from scorekeeper.words import minus

    app.jinja_env.globals["minus"] = minus  # scores show a real minus sign everywhere
    app.jinja_env.globals["format_date"] = format_date  # dates in the reader's locale
    app.jinja_env.globals["format_percent"] = format_percent
    app.jinja_env.globals["format_datetime"] = format_datetime

    @app.context_processor
    def locale_context() -> dict:
        return {"page_locale": str(get_locale() or "en")}

    @app.after_request
    def vary_on_htmx(response):
        # The same URL answers with a page or a fragment (which one: HX-Target,
        # HX-Boosted), so caches must tell them apart.
        response.vary.update(("HX-Request", "HX-Target", "HX-Boosted"))
        return response
