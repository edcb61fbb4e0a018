"""Evenings: the history of a club's gatherings, each evening's games and tally, its
boards (a table's, and every table's at once), and closing it."""
from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, Response, abort, flash, make_response, redirect, request, url_for
from flask_babel import gettext as _

from scorekeeper.clubs.access import can, current_member
from scorekeeper.figures.pictures import png_of
from scorekeeper.figures.rounds import round_wanted
from scorekeeper.figures.summaries import game_counts
from scorekeeper.rules import TeamLayout, teams_for
from scorekeeper.store.db import get_session
from scorekeeper.store.models import Attendance, Evening, Role, utcnow
from scorekeeper.store.replay import Replay, load_replays
from scorekeeper.store.rosters import roster
from scorekeeper.table.attendance import (
    Answers, Whereabouts, answers, here_tonight, is_planned, plan_evening, say_coming, say_gone,
)
from scorekeeper.table.confirming import ask_confirmation, waiting
from scorekeeper.table.evenings import (
    QUIET_HOURS, already_played, close_evening, current_evening, current_game, evening_games,
    evening_state, evenings_page, open_after_its_day, partners_tonight, proposed_round,
    reopen_evening, tables_now, tally,
)
from scorekeeper.table.live import EveningHead, evening_head
from scorekeeper.views.lookup import current_club, row_or_404, whole_number_arg
from scorekeeper.views.boards import board_poll, render_table_board, render_tables, table_head
from scorekeeper.table.game_page import evening_time, new_partners_fields, table_arg
from scorekeeper.views.pages import render_page
from scorekeeper.views.recap import evening_recap, recap_html, recap_svg, recap_text
from scorekeeper.web.forms import (
    EARLIEST_DAY, ComingForm, ConfirmingForm, PlainForm, PlanEveningForm, all_errors,
)
from scorekeeper.web.languages import current_language, page_digits
from scorekeeper.text.names import name_key, typed
from scorekeeper.web.words import fill, verdict_sentence
from scorekeeper.web.allow import Allow, allow

bp = Blueprint("evenings", __name__, url_prefix="/evenings")


def _history(plan: PlanEveningForm | None = None, refusals: list | None = None,
             status: int = 200):
    session = get_session()
    club = current_club(session)
    page = whole_number_arg("page", 1)
    players = roster(session, club)
    player_id = whole_number_arg("player", None)
    player = next((p for p in players if p.id == player_id), None)
    evenings, more = evenings_page(session, club, page, player.id if player else None)
    counts = game_counts(session, (e.id for e in evenings))
    return render_page("evenings.html", status=status, evenings=evenings, counts=counts,
                       page=page, more=more, players=players, player=player,
                       plan=plan or PlanEveningForm(), refusals=refusals or [],
                       today=utcnow().date(), earliest_day=EARLIEST_DAY)


@bp.get("")
@allow(Allow.READ)
def history():
    """The club's evenings, newest first, a page at a time; optionally one player's."""
    return _history()


@bp.post("/plan")
@allow(Allow.SCORE)
def plan():
    """Plan an evening (scorers): its date and place, for members to say if they come;
    or, dated before today, add an evening already played, for its games to be recorded
    or imported into."""
    form = PlanEveningForm()
    if not form.validate_on_submit():
        return _history(form, all_errors(form), 400)
    session = get_session()
    evening = plan_evening(session, current_club(session), form.played_on.data,
                           form.place.data or "", form.note.data or "")
    if already_played(evening):
        flash(_("The evening already played is added: record or import its games here."),
              "notice")
    else:
        flash(_("The evening is planned: members can say here whether they are coming."),
              "notice")
    return redirect(url_for("evenings.show", evening_id=evening.id), 303)


@bp.post("/<int:evening_id>/coming")
@allow(Allow.DEVICE)
def coming(evening_id: int):
    """A member says whether they are coming to a planned evening (any member, for
    themselves)."""
    session = get_session()
    evening = row_or_404(Evening, evening_id)
    form = ComingForm()
    if not is_planned(evening, utcnow().date()):
        flash(_("This evening is past or closed: nobody says any more whether they come."),
              "notice")
    elif not form.validate_on_submit():
        flash(" ".join(all_errors(form)), "notice")
    else:
        say_coming(session, evening, current_member().id, form.coming.data == "in")
        flash(_("You're in.") if form.coming.data == "in" else _("You're out."), "notice")
    return redirect(url_for("evenings.show", evening_id=evening.id), 303)


@bp.post("/<int:evening_id>/confirming")
@allow(Allow.SCORE)
def confirming(evening_id: int):
    """Turn on or off (scorers) that each hand waits for another team's phone."""
    evening = row_or_404(Evening, evening_id)
    form = ConfirmingForm()
    if not form.validate_on_submit():
        flash(" ".join(all_errors(form)), "notice")
    else:
        on = form.confirming.data == "on"
        changed = ask_confirmation(get_session(), evening, on)
        if on:
            flash(_("From now on each hand waits for a phone of another team to confirm it.")
                  if changed else _("This evening's hands are confirmed already."), "notice")
        else:
            flash(_("Hands are no longer confirmed this evening; those waiting still show.")
                  if changed else _("This evening's hands are not confirmed."), "notice")
    return redirect(url_for("evenings.show", evening_id=evening.id), 303)


@bp.get("/<int:evening_id>")
@allow(Allow.READ)
def show(evening_id: int):
    """One evening: its games with results and reasons, who won how many, and whether
    its games can still be corrected."""
    session = get_session()
    evening = row_or_404(Evening, evening_id)
    games = evening_games(session, evening)
    replays = load_replays(session, games)
    # A roster name is unique in its club, so the tally's names lead to the players' pages.
    player_ids = {player.name: player.id for player in roster(session, current_club(session))}
    state = evening_state(session, evening)
    latest = current_game(games)
    replay = next((replay for replay in replays if latest and replay.game.id == latest.id), None)
    coming = who_is_coming(evening, games)
    where = None if state.over else _whereabouts(evening, replays, coming["answers"])
    tonight = current_evening(session, current_club(session))
    record_here = (can(Role.SCORER) and open_after_its_day(session, evening, utcnow().date())
                   and (tonight is None or tonight.id != evening.id))
    next_round = _next_round(evening, replays, where.here) if where else None
    return render_page("evening.html", evening=evening, replays=replays, tally=tally(replays),
                       player_ids=player_ids, verdict_sentence=verdict_sentence,
                       state=state, quiet_hours=QUIET_HOURS, plain_form=PlainForm(), waiting=waiting,
                       partners=partners_tonight(replays, replay),
                       new_partners=_new_partners_fields(replay, replays, state.over),
                       # typed in afterwards, its games took no time of that night
                       taken=None if already_played(evening) else evening_time(replays),
                       tables=tables_now(games),
                       next_round=next_round, record_here=record_here,
                       whereabouts=where if next_round or (where and where.gone) else None,
                       **coming)


@dataclass(frozen=True)
class ProposedTable:
    """A table of the next round as the evening's page shows it: its number, its layout
    in words, its players seat by seat and its teams (none where each plays alone), the
    new-game form filled for it, and its game once started."""

    number: int
    words: str
    chairs: tuple[str, ...]
    teams: list[tuple[str, list[str]]]
    fields: dict
    started: int | None


@dataclass(frozen=True)
class NextRound:
    """The next round as the evening's page offers it: its tables; and who sits out."""

    tables: list[ProposedTable]
    sitting_out: tuple[str, ...]
    sitting_out_after: list[tuple[str, ...]]  # in each of the rounds after it, while all stay


def _whereabouts(evening: Evening, replays: list[Replay], said: Answers | None
                 ) -> Whereabouts | None:
    """For scorers, from the evening's day: everyone present (who said they are in, and
    everyone who has played tonight, each once), here or gone for the night."""
    if not can(Role.SCORER) or evening.played_on > utcnow().date():
        return None  # (an evening still to come starts no game yet)
    return here_tonight(get_session(), evening, replays, said.coming if said else [])


def _next_round(evening: Evening, replays: list[Replay], here: list[str]) -> NextRound | None:
    """Everyone ``here`` seated for the next round (``table.evenings.proposed_round``),
    in tables of four to six as the club prefers them: from four here on; not while
    those here are just the table of the evening's last game (they go on with "Next
    game, new partners")."""
    if not round_wanted(here, replays[-1].names.values() if replays else ()):
        return None
    proposed = proposed_round(replays, here, current_club(get_session()).prefers_sixes)
    tables = []
    for number, (chairs, layout) in enumerate(
            zip(proposed.round.tables, proposed.round.layouts), start=1):
        fields = {f"seat_{seat}": name for seat, name in enumerate(chairs, start=1)}
        fields.update(teams=str(layout), evening=str(evening.id), **table_arg(number))
        teams = [] if layout.cutthroat else [
            (team, [chairs[seat - 1] for seat in seats])
            for team, seats in teams_for(layout).items()]
        tables.append(ProposedTable(number, table_words(layout), chairs, teams, fields,
                                    proposed.started.get(number)))
    return NextRound(tables, proposed.round.sitting_out, proposed.sitting_out_after)


def table_words(layout: TeamLayout) -> str:
    """How a table of the next round plays, in a few words: its players and its teams."""
    if layout.cutthroat:
        return _("%(count)s players, each for themselves", count=layout.seats)
    return {
        TeamLayout.THREE_PAIRS: _("%(count)s players in three pairs", count=layout.seats),
        TeamLayout.TWO_TRIOS: _("%(count)s players in two teams of three",
                                count=layout.seats),
        TeamLayout.TWO_PAIRS: _("%(count)s players in two pairs", count=layout.seats),
    }[layout]


def who_is_coming(evening: Evening, games: list) -> dict:
    """The answers to a planned evening, and this member's own: while it is to come or
    on its day (an evening begun by its first game, nobody asked, has none)."""
    session = get_session()
    said = answers(session, evening) if is_planned(evening, utcnow().date()) else None
    if said is None or (games and not (said.coming or said.not_coming)):
        return {"answers": None}
    mine = session.get(Attendance, (evening.id, current_member().id))
    return {"answers": said, "coming_form": ComingForm(),
            "mine": None if mine is None else "in" if mine.coming else "out"}


def _new_partners_fields(replay: Replay | None, replays: list[Replay], over: bool) -> dict | None:
    """The new-game form filled for "Next game, new partners"; None until a game of the
    evening is finished, once the evening is over, and after a game with no partners
    (each for themselves)."""
    if replay is None or not replay.state.finished or over or replay.rules.teams.cutthroat:
        return None
    return new_partners_fields(replay, replays).fields


@bp.post("/<int:evening_id>/gone")
@allow(Allow.SCORE)
def gone(evening_id: int):
    """Say a player present went home for the night, or is back (scorers): the next
    round seats only those here."""
    if not PlainForm().validate_on_submit():
        abort(400)
    session = get_session()
    evening = row_or_404(Evening, evening_id)
    where = None if evening_state(session, evening).over else _whereabouts(
        evening, load_replays(session, evening_games(session, evening)),
        who_is_coming(evening, [])["answers"])
    present = {name_key(name): name for name in where.here + where.gone} if where else {}
    player, word = present.get(name_key(request.form.get("name", ""))), request.form.get("gone")
    if player is None or word not in ("yes", "no"):
        flash(_("Nobody of that name is at this evening; nothing was changed."), "notice")
    else:
        say_gone(session, evening, player, word == "yes")
        flash(fill(_("%(name)s is gone for the night.") if word == "yes"
                   else _("%(name)s is back tonight."), name=typed(player)), "notice")
    return redirect(url_for("evenings.show", evening_id=evening.id), 303)


@bp.get("/<int:evening_id>/board")
@allow(Allow.READ)
def board(evening_id: int):
    """The table board for a TV: a table's current game (``?table=2``; the first by
    default), the next one by itself, and a line for each other table."""
    evening = row_or_404(Evening, evening_id)
    table = whole_number_arg("table", 1)
    return render_table_board(evening, table, table_head(evening.club_id, evening.id, table))


@bp.get("/<int:evening_id>/live")
@allow(Allow.READ)
def live(evening_id: int):
    """The table board's poll: 204 while the evening is as it shows it, else the board."""
    table = whole_number_arg("table", 1)
    return _poll(evening_id, table, lambda head: _table_board(evening_id, table, head))


def _table_board(evening_id: int, table: int, head: EveningHead) -> Response:
    """The table board at ``head``, as its poll answers it."""
    response = render_table_board(row_or_404(Evening, evening_id), table, head)
    # A game's own board that moved on is the table board now: a reload stays with it.
    response.headers["HX-Replace-Url"] = url_for("evenings.board", evening_id=evening_id,
                                                 **table_arg(table))
    return response


@bp.get("/<int:evening_id>/tables")
@allow(Allow.READ)
def tables(evening_id: int):
    """The evening board, for a TV or a phone: every table at once, each following its
    table to the next game by itself, and the evening's games won."""
    return render_tables(row_or_404(Evening, evening_id))


@bp.get("/<int:evening_id>/tables/live")
@allow(Allow.READ)
def tables_live(evening_id: int):
    """The evening board's poll: 204 while no table's game changed, else the board."""
    return _poll(evening_id, None, lambda _head: tables(evening_id))


def _poll(evening_id: int, table: int | None, draw) -> Response:
    """A board's poll of the evening at one of its tables, or at every table (None):
    held while the evening is as the board shows it. 404 for an evening not of the
    member's club."""
    # One small read, no ORM objects, no replay; held while nothing changes.
    club_id = current_member().club_id

    def read(connection) -> EveningHead | None:
        return evening_head(connection, club_id, evening_id, table)

    return board_poll(("evening", club_id, evening_id, table), read, draw)


@bp.get("/<int:evening_id>/recap")
@allow(Allow.READ)
def recap(evening_id: int):
    """The evening's recap to share: its picture, and its lines for the table's chat."""
    evening = row_or_404(Evening, evening_id)
    told = evening_recap(get_session(), evening)
    # The page's heading says the first line, the title.
    return render_page("recap.html", evening=evening, picture=told.picture,
                       lines=[recap_html(text) for _style, text in told.lines[1:]],
                       text=recap_text(told.lines))


def _picture(body: str | bytes, mimetype: str) -> Response:
    response = make_response(body)
    response.mimetype = mimetype
    response.headers["Cache-Control"] = "no-cache"  # the recap moves with any correction
    return response


@bp.get("/<int:evening_id>/recap.svg")
@allow(Allow.READ)
def recap_picture(evening_id: int):
    """The recap's picture, drawn on the server."""
    evening = row_or_404(Evening, evening_id)
    return _picture(recap_svg(evening_recap(get_session(), evening)), "image/svg+xml")


@bp.get("/<int:evening_id>/recap.png")
@allow(Allow.READ)
def recap_png(evening_id: int):
    """The same picture as PNG, for the chat apps that take no SVG."""
    evening = row_or_404(Evening, evening_id)
    svg = page_digits(recap_svg(evening_recap(get_session(), evening)), current_language())
    return _picture(png_of(svg), "image/png")


@bp.post("/<int:evening_id>/close")
@allow(Allow.SCORE)
def close(evening_id: int):
    """Close the evening (scorers): from now on its finished games are kept as they are.

    A second tap, or another phone's at the same moment, closes nothing more: it is told
    the evening was closed already."""
    if not PlainForm().validate_on_submit():
        abort(400)
    evening = row_or_404(Evening, evening_id)
    if close_evening(get_session(), evening):
        flash(_("The evening is closed: its finished games are kept as they are."), "notice")
    else:
        flash(_("This evening was closed already."), "notice")
    return redirect(url_for("evenings.show", evening_id=evening.id), 303)


@bp.post("/<int:evening_id>/reopen")
@allow(Allow.SCORE)
def reopen(evening_id: int):
    """Open a closed evening again (scorers), to put right a mistake found after closing.

    A scorer may: a scorer corrects any hand of an open evening anyway, so reopening
    gives no power closing took away. An evening quiet for 36 hours stays as it was."""
    if not PlainForm().validate_on_submit():
        abort(400)
    session = get_session()
    evening = row_or_404(Evening, evening_id)
    if evening_state(session, evening).quiet_since is not None:
        flash(_("Nothing in this evening changed for %(hours)s hours: it stays as it was.",
                hours=QUIET_HOURS), "notice")
    elif reopen_evening(session, evening):
        flash(_("The evening is open again: its games can be corrected."), "notice")
    else:
        flash(_("This evening was open already."), "notice")
    return redirect(url_for("evenings.show", evening_id=evening.id), 303)
