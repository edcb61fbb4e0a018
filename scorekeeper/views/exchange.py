"""Game export and import as JSON (format schmier-game/1), and a game's hands as CSV."""
from __future__ import annotations

from flask import Blueprint, current_app, flash, make_response, redirect, request, url_for
from flask_babel import gettext as _

from scorekeeper.files.csvfile import csv_download, spreadsheet_safe
from scorekeeper.files.exchange import export_text, import_game as store_import
from scorekeeper.files.json_files import N_, FileRefused, Message, size_text
from scorekeeper.rules import CARD_POINTS, POINTS
from scorekeeper.store.db import get_session
from scorekeeper.store.models import utcnow
from scorekeeper.table.evenings import evening_of_day
from scorekeeper.views.lookup import current_club, replay_or_404
from scorekeeper.views.pages import render_page
from scorekeeper.web.forms import EARLIEST_DAY, ImportForm, first_error
from scorekeeper.web.words import point_name, suit_name
from scorekeeper.web.allow import Allow, allow

bp = Blueprint("exchange", __name__)


def _render_import(form: ImportForm, message: str | None = None, status: int = 200):
    return render_page("import_game.html", status=status, form=form, message=message,
                       earliest_day=EARLIEST_DAY, today=utcnow().date())


@bp.get("/games/<int:game_id>/export")
@allow(Allow.READ)
def export_game(game_id: int):
    """Download the game as JSON."""
    replay = replay_or_404(game_id)
    response = make_response(export_text(replay))
    response.mimetype = "application/json"
    response.headers.set(
        "Content-Disposition", "attachment", filename=f"schmier-game-{game_id}.json"
    )
    return response


@bp.get("/games/<int:game_id>/hands.csv")
@allow(Allow.READ)
def hands_csv(game_id: int):
    """The game's hand record as a CSV file: one row a deal, with the running scores."""
    replay = replay_or_404(game_id)
    teams = replay.rules.team_names
    header = [_("Hand"), _("Dealer"), _("Bidder"), _("Bidding team"), _("Bid"), _("Trump"),
              *(point_name(point) for point in POINTS), _("Made"),
              *(_("%(team)s took", team=team) for team in teams),
              *(_("%(team)s change", team=team) for team in teams),
              *(_("%(team)s score", team=team) for team in teams)]
    rows = []
    for deal in replay.state.deals:
        names = replay.names_at(deal.number)  # who sat where at this hand
        if deal.thrown_in:
            played = ["", "", "", _("thrown in"), *([""] * (len(POINTS) + 1 + 2 * len(teams)))]
        else:
            points = deal.tally.card_points
            played = [
                spreadsheet_safe(names[deal.bidder_seat]), deal.bidding_team, deal.bid,
                suit_name(deal.trump), *(points[p.value] for p in CARD_POINTS),
                deal.tally.game or _("nobody"), _("made") if deal.made else _("set"),
                *(deal.taken[team] for team in teams),
                *(deal.score_change[team] for team in teams),
            ]
        rows.append([deal.number, spreadsheet_safe(names[deal.dealer_seat]), *played,
                     *(deal.scores_after[team] for team in teams)])
    return csv_download(header, rows, f"schmier-game-{game_id}-hands.csv")


@bp.route("/games/import", methods=["GET", "POST"])
@allow(Allow.SCORE)
def import_game():
    """Upload a game file; one that breaks any rule is refused whole and nothing is stored."""
    form = ImportForm()
    if request.method != "POST":  # GET and HEAD alike
        return _render_import(form)
    if not form.validate_on_submit():
        return _render_import(form, first_error(form), 422)
    session = get_session()
    club = current_club(session)
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    evening = evening_of_day(session, club, form.played_on.data or utcnow().date())
    try:
        game = store_import(session, club, form.game_file.data.read(), limit, evening)
    except FileRefused as refused:
        session.rollback()
        # In the reader's words, with the path and the value as the file wrote them.
        return _render_import(
            form, Message(N_("Nothing was imported: %(problem)s."), problem=refused).page(), 422
        )
    flash(_("Game imported as game %(id)s.", id=game.id), "notice")
    return redirect(url_for("games.show", game_id=game.id), 303)


@bp.errorhandler(413)
def file_too_large(_error):
    """An upload over the size limit: the import page again, saying so."""
    # formdata=None: reading the oversized request again would only raise again.
    form = ImportForm(formdata=None)
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    if limit:
        message = _("That file is larger than %(size)s, the most a game file may be. "
                    "Nothing was imported.", size=size_text(limit))
    else:
        message = _("That file is too large. Nothing was imported.")
    return _render_import(form, message, 413)
