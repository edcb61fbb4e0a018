"""Error pages: a clear message in the page, never a stack trace."""
from __future__ import annotations

from flask import Flask
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from scorekeeper.views.pages import render_page
from scorekeeper.web.security import UnstorableInput


def _error_page(title: str, message: str, status: int):
    return render_page("error.html", status=status, block="content",
                       title=title, message=message)


def init_app(app: Flask) -> None:
    @app.errorhandler(CSRFError)
    def csrf_error(error: CSRFError):
        return _error_page(
            _("Please try again"),
            _("This page could not be checked as coming from this app (it may have been "
              "open a very long time, or cookies were cleared). Nothing was changed. "
              "Go back, reload the page and tap again."),
            400,
        )

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        messages = {
            403: _("Your part in this club doesn't allow that. Nothing was changed; the "
                   "club's owner can give you another part."),
            404: _("There is no such page here. The game may have another number."),
            429: _("Too many tries. Wait a few minutes, then try again."),
            405: _("That page can't be used that way."),
            413: _("That file is too large."),
        }
        message = messages.get(error.code, _("That request could not be handled."))
        if isinstance(error, UnstorableInput):
            message = _("Something typed or pasted held an invisible null character, which "
                        "can't be kept. Nothing was changed: type it again.")
        return _error_page(error.name, message, error.code or 400)

    if app.testing:
        return  # let tests see the real exception

    @app.errorhandler(Exception)
    def unexpected(error: Exception):
        app.logger.exception("unexpected error")
        return _error_page(
            _("Something went wrong"),
            _("Nothing was lost: every hand recorded before this is safe. "
              "Reload the page and try again."),
            500,
        )
