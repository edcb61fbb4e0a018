"""Backups: the whole club as one JSON file, written and read back."""
from __future__ import annotations

from flask import (
    Blueprint, current_app, flash, get_flashed_messages, make_response, redirect, request,
    url_for,
)
from flask_babel import gettext as _, lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired

from scorekeeper.files.backup import (
    backup_limit, backup_text, club_backup, club_is_empty, restore_backup,
)
from scorekeeper.files.json_files import N_, FileRefused, Message, size_text
from scorekeeper.store.db import get_session
from scorekeeper.store.models import utcnow
from scorekeeper.views.lookup import current_club
from scorekeeper.views.pages import render_page
from scorekeeper.web.extensions import csrf
from scorekeeper.web.forms import first_error
from scorekeeper.web.allow import Allow, allow

bp = Blueprint("backups", __name__)


class BackupForm(FlaskForm):
    """The backup file to restore."""

    backup_file = FileField(
        _l("Backup file (JSON)"), validators=[FileRequired(_l("Choose a backup file to restore."))]
    )


def _render_backup(form: BackupForm, message: str | None = None, status: int = 200):
    session = get_session()
    notices = get_flashed_messages(category_filter=["notice"])
    return render_page("backup.html", status=status, form=form, message=message,
                       notice=" ".join(notices) or None,
                       can_restore=club_is_empty(session, current_club(session)))


@bp.get("/backup")
@allow(Allow.OWN)
def show():
    """Download a backup, or restore one into an empty scorekeeper."""
    return _render_backup(BackupForm())


@bp.get("/backup/download")
@allow(Allow.OWN)
def download():
    """The club's backup as a JSON file."""
    session = get_session()
    response = make_response(backup_text(club_backup(session, current_club(session))))
    response.mimetype = "application/json"
    response.headers.set(
        "Content-Disposition", "attachment",
        filename=f"scorekeeper-backup-{utcnow().date().isoformat()}.json",
    )
    return response


@bp.post("/backup")
@allow(Allow.OWN)
@csrf.exempt  # checked below, once the larger size limit for a backup is in place
def restore():
    """Restore an uploaded backup; a file with anything wrong is refused whole."""
    # Years of games outgrow the app's limit for an upload; the limit must be raised
    # before anything reads the body, the CSRF check included.
    request.max_content_length = backup_limit()
    if current_app.config.get("WTF_CSRF_ENABLED", True):
        csrf.protect()
    form = BackupForm()
    if not form.validate_on_submit():
        return _render_backup(form, first_error(form), 422)
    session = get_session()
    try:
        restored = restore_backup(session, current_club(session), form.backup_file.data.read(),
                                  backup_limit())
    except FileRefused as refused:
        session.rollback()
        # In the reader's words, with the path and the value as the file wrote them.
        return _render_backup(
            form, Message(N_("Nothing was restored: %(problem)s."), problem=refused).page(), 422)
    flash(_("Backup restored: %(contents)s.", contents=restored.contents()), "notice")
    return redirect(url_for("backups.show"), 303)


@bp.errorhandler(413)
def file_too_large(_error):
    """An upload over the size limit: the backup page again, saying so."""
    # formdata=None: reading the oversized request again would only raise again.
    form = BackupForm(formdata=None)
    message = _("That file is larger than %(size)s, the most a backup may be. "
                "Nothing was restored.", size=size_text(backup_limit()))
    return _render_backup(form, message, 413)
