"""Seasons: the club's seasons and each one's ladder, for every member; made, changed
and deleted by owners."""
from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, url_for
from flask_babel import format_date, gettext as _
from sqlmodel import select

from scorekeeper.figures.standings import season_standings
from scorekeeper.store.db import get_session
from scorekeeper.store.models import Evening, Ladder, Season
from scorekeeper.store.seasons import club_seasons, delete_season, keep_season, overlapping
from scorekeeper.text.names import typed
from scorekeeper.views.lookup import current_club, row_or_404
from scorekeeper.views.pages import render_page
from scorekeeper.views.players import games_to_go, reader_number, shown
from scorekeeper.web.forms import LADDER_NAMES, PlainForm, SeasonForm, all_errors
from scorekeeper.web.words import fill
from scorekeeper.web.allow import Allow, allow

bp = Blueprint("seasons", __name__, url_prefix="/seasons")

def _list_page(form: SeasonForm | None = None, messages: list | None = None,
               status: int = 200):
    session = get_session()
    club = current_club(session)
    return render_page("seasons.html", status=status, seasons=club_seasons(session, club.id),
                       form=form or SeasonForm(), messages=messages or [])


@bp.get("")
@allow(Allow.READ)
def index():
    """The club's seasons, the latest first, and (owners) the form for a new one."""
    return _list_page()


def _refusals(form: SeasonForm, season_id: int | None = None) -> list[str]:
    """What stops the form's season being kept: its fields' errors, else the club's
    season (other than ``season_id``) that shares a day with it; none: it may be kept."""
    if not form.validate_on_submit():
        return all_errors(form)
    session = get_session()
    other = overlapping(session, current_club(session).id, form.starts_on.data,
                        form.ends_on.data, season_id)
    return [] if other is None else [_overlap(other)]


def _overlap(other: Season) -> str:
    return fill(_("%(name)s already takes in some of these days (%(first)s to %(last)s): "
                  "seasons can't overlap."), name=typed(other.name),
                first=format_date(other.starts_on), last=format_date(other.ends_on))


def _filled(season: Season, form: SeasonForm) -> Season:
    season.name, season.starts_on, season.ends_on = (form.name.data, form.starts_on.data,
                                                     form.ends_on.data)
    season.ranked_by = Ladder(form.ranked_by.data)
    season.min_evenings, season.drop_worst = form.min_evenings.data, form.drop_worst.data
    return season


@bp.post("")
@allow(Allow.OWN)
def create():
    """Make a season (owners): refused, with the reason in the form, if it would
    overlap another."""
    form = SeasonForm()
    refusals = _refusals(form)
    if refusals:
        return _list_page(form, refusals, 400)
    session = get_session()
    season = _filled(Season(club_id=current_club(session).id), form)
    other = keep_season(session, season)
    if other is not None:  # made at the same moment as another: the first stays
        return _list_page(form, [_overlap(other)], 400)
    flash(fill(_("Season %(name)s is made."), name=typed(season.name)), "notice")
    return redirect(url_for("seasons.show", season_id=season.id), 303)


@bp.get("/<int:season_id>")
@allow(Allow.READ)
def show(season_id: int):
    """One season's ladder, worked out from the hands as they stand."""
    season = row_or_404(Season, season_id)
    session = get_session()
    standings = season_standings(session, season)
    played = {evening for line in standings for evening in line.evenings}
    evenings = session.exec(select(Evening).where(Evening.id.in_(played))  # type: ignore[union-attr]
                            .order_by(Evening.played_on, Evening.id)).all()  # type: ignore[arg-type]
    return render_page("season.html", season=season, standings=standings, evenings=evenings,
                       to_go=games_to_go(session, season.club_id),
                       heading=LADDER_NAMES[Ladder(season.ranked_by)],
                       figure=_figure_text, evening_figure=_evening_text, shown=shown)


def _figure_text(season: Season, figure) -> str:
    """A ladder's figure as the page writes it: a count, an average to one decimal, or
    a signed rating change."""
    ranked_by = Ladder(season.ranked_by)
    if ranked_by == Ladder.PLACE:
        return shown(float(figure), "average")
    if ranked_by == Ladder.RATING:
        return reader_number(figure, signed=True)
    return shown(figure, "count")


def _evening_text(season: Season, figure: int) -> str:
    """One evening's figure on the ladder: a place or games won, or a signed rating move."""
    if Ladder(season.ranked_by) == Ladder.RATING:
        return reader_number(figure, signed=True)
    return shown(figure, "count")


def _edit_page(season: Season, form: SeasonForm, messages: list | None = None,
               status: int = 200):
    return render_page("season_edit.html", status=status, season=season, form=form,
                       messages=messages or [], plain_form=PlainForm())


@bp.get("/<int:season_id>/edit")
@allow(Allow.OWN)
def edit(season_id: int):
    """The season's form, filled (owners)."""
    season = row_or_404(Season, season_id)
    return _edit_page(season, SeasonForm(obj=season))


@bp.post("/<int:season_id>/edit")
@allow(Allow.OWN)
def update(season_id: int):
    """Change a season (owners), refused like a new one if it would overlap another."""
    season = row_or_404(Season, season_id)
    form = SeasonForm()
    refusals = _refusals(form, season.id)
    if refusals:
        return _edit_page(season, form, refusals, 400)
    before = season.model_dump(exclude={"id"})
    other = keep_season(get_session(), _filled(season, form), before)
    if other is not None:  # another season took these days at the same moment
        return _edit_page(season, form, [_overlap(other)], 400)
    flash(fill(_("Season %(name)s is changed."), name=typed(season.name)), "notice")
    return redirect(url_for("seasons.show", season_id=season.id), 303)


@bp.post("/<int:season_id>/delete")
@allow(Allow.OWN)
def delete(season_id: int):
    """Delete a season (owners): its evenings and games stay, in the lifetime figures."""
    if not PlainForm().validate_on_submit():
        abort(400)
    season = row_or_404(Season, season_id)
    name = season.name
    delete_season(get_session(), season)
    flash(fill(_("Season %(name)s is deleted; its evenings stay."), name=typed(name)), "notice")
    return redirect(url_for("seasons.index"), 303)
