"""Corrections past one hand: a forgotten hand, two seats swapped, a name, an abandoned
game. Each answers first with what it would change, and changes it once confirmed."""
from __future__ import annotations

from datetime import timedelta

from flask import Blueprint, abort, redirect, request, url_for
from flask_babel import gettext as _

from scorekeeper.access import actor, current_device
from scorekeeper.clubs import roster
from scorekeeper.corrections import (
    Plan, apply, plan_abandon, plan_insert, plan_rename, plan_swap,
)
from scorekeeper.db import get_session
from scorekeeper.draft import TallyIncomplete
from scorekeeper.evenings import is_past_game
from scorekeeper.forms import AbandonForm, HandForm, RenameSeatForm, SwapSeatsForm, all_errors
from scorekeeper.ledger import (
    GameChanged, Table, hand_by_entry, hand_fields, load_table, recent_changes, stored_fields,
)
from scorekeeper.models import PLAYER_NAME_LENGTH, aware, utcnow
from scorekeeper.pages import Check, entry_for, render_game, render_page
from scorekeeper.views.hands import VERDICT, _done
from scorekeeper.rules import RuleViolation
from scorekeeper.views.lookup import current_club, table_or_404, whole_number_arg
from scorekeeper.names import name_key, typed
from scorekeeper.words import consequences, fill, still_to_choose, violation_message

bp = Blueprint("corrections", __name__, url_prefix="/games/<int:game_id>")

# A confirm tapped twice: the second finds the game changed by the first, from the same
# phone, a moment ago, and is told it is done rather than that the game moved.
DOUBLE_TAP = timedelta(seconds=60)


@bp.before_request
def kept_games_take_no_corrections():
    """A game of a closed evening is kept as it was; an abandoned one takes nothing but
    being taken back into play."""
    table = table_or_404(request.view_args["game_id"])
    if is_past_game(get_session(), table):
        message = _("This game's evening is closed: the game is kept as it was and can't "
                    "be changed.")
    elif table.game.abandoned_at is not None and request.method == "POST" \
            and request.endpoint != "corrections.reinstate":
        message = _("This game was abandoned: take it back into play to change it.")
    else:
        return None
    if request.endpoint == "corrections.insert":  # the hand form's answer, for its phone
        return _refused(table, message, 409)
    return _fix_page(table, message=message, status=409)


def _fix_page(table: Table, *, check: Check | None = None, message=None, status: int = 200):
    return render_page(
        "fix.html", status=status, table=table, game=table.game, names=table.names,
        hands=table.hands, check=check, message=message,
        roster=roster(get_session(), current_club(get_session())),
        name_length=PLAYER_NAME_LENGTH)


@bp.get("/fix")
def show(game_id: int):
    """Every correction that reaches past one hand, each checked before it is made."""
    return _fix_page(table_or_404(game_id))


def _just_done_here(table: Table, plan: Plan) -> bool:
    """The game's last change is this very correction, made from this phone just now."""
    last = recent_changes(get_session(), table.game.id, 1)
    device = current_device()
    if not (last and last[0].kind == plan.kind and device is not None
            and last[0].device_id == device.id and utcnow() - aware(last[0].at) < DOUBLE_TAP):
        return False
    made, asked = last[0].details or {}, plan.details
    if plan.kind == "seats":
        return sorted(made.get("seats", ())) == sorted(asked["seats"])
    if plan.kind == "renamed":
        return made.get("seat") == asked["seat"] and \
            name_key(made.get("to", "")) == name_key(asked["to"])
    return True


def _make(table: Table, plan: Plan, form, heading: str, fields, done: str, action: str):
    """Show the plan's consequences, or (confirmed) make it."""
    if request.form.get("confirm") != "y":
        check = Check(heading, consequences(plan, table.names, table.rules.team_seats), action,
                      fields, url_for("corrections.show", game_id=table.game.id))
        return _fix_page(table, check=check)
    shown = table.game.revision
    try:
        try:
            apply(get_session(), table, plan, form.revision.data, actor())
        except GameChanged:
            fresh = load_table(get_session(), table.game)
            if fresh.game.revision != shown:
                raise
            # The game itself did not move (a roster name added by another game at the
            # same moment): once more, now that the name is there.
            apply(get_session(), fresh, plan, form.revision.data, actor())
    except GameChanged:
        get_session().rollback()
        if _just_done_here(table, plan):
            return _done(table, done)
        return _fix_page(load_table(get_session(), table.game), status=409, message=_(
            "The game changed on another phone after this page was shown, so nothing was "
            "written. Here it is as it stands: check and try again."))
    return _done(table, done)


@bp.post("/seats/swap")
def swap(game_id: int):
    """Two players sat the other way round: they change seats; the hands stay by seat."""
    table = table_or_404(game_id)
    form = SwapSeatsForm(request.form)
    if not form.validate():
        return _fix_page(table, status=422, message=" ".join(all_errors(form)))
    try:
        plan = plan_swap(table, form.first.data, form.second.data)
    except RuleViolation as violation:
        return _fix_page(table, status=422, message=violation_message(violation))
    first, second = typed(table.names[form.first.data]), typed(table.names[form.second.data])
    return _make(
        table, plan, form, fill(_("Swap %(first)s and %(second)s?"), first=first, second=second),
        [("first", str(form.first.data)), ("second", str(form.second.data))],
        fill(_("%(first)s and %(second)s changed seats."), first=first, second=second),
        url_for("corrections.swap", game_id=game_id))


@bp.post("/seats/rename")
def rename(game_id: int):
    """Someone else sat in a seat than was entered, or a name was typed wrong."""
    table = table_or_404(game_id)
    form = RenameSeatForm(request.form)
    if not form.validate():
        return _fix_page(table, status=422, message=" ".join(all_errors(form)))
    try:
        plan = plan_rename(table, form.seat.data, form.name.data or "")
    except RuleViolation as violation:
        if violation.code == "name_same" and request.form.get("confirm") == "y":
            # Confirmed twice, the first already made it: so it is.
            return _done(table, fill(_("Seat %(seat)s is now %(new)s."), seat=form.seat.data,
                                     new=typed(table.names[form.seat.data])))
        return _fix_page(table, status=422, message=violation_message(violation))
    old, new = plan.details["from"], plan.details["to"]
    return _make(
        table, plan, form, fill(_("Seat %(seat)s: %(old)s → %(new)s?"), seat=form.seat.data,
                                old=typed(old), new=typed(new)),
        [("seat", str(form.seat.data)), ("name", new)],
        fill(_("Seat %(seat)s is now %(new)s."), seat=form.seat.data, new=typed(new)),
        url_for("corrections.rename", game_id=game_id))


@bp.post("/abandon")
def abandon(game_id: int):
    """Set the game aside: kept, shown as abandoned, out of the statistics."""
    return _abandon(game_id, True)


@bp.post("/reinstate")
def reinstate(game_id: int):
    """Take an abandoned game back into play."""
    return _abandon(game_id, False)


def _abandon(game_id: int, abandon: bool):
    table = table_or_404(game_id)
    form = AbandonForm(request.form)
    if not form.validate():
        return _fix_page(table, status=422, message=" ".join(all_errors(form)))
    if (table.game.abandoned_at is not None) == abandon:
        done = _("This game is abandoned already.") if abandon else \
            _("This game is in play already.")
        return _done(table, done)
    plan = plan_abandon(table, abandon)
    if abandon:
        heading, done = _("Abandon game %(id)s?", id=game_id), _("Game %(id)s abandoned.",
                                                                  id=game_id)
    else:
        heading, done = (_("Take game %(id)s back into play?", id=game_id),
                         _("Game %(id)s is back in play.", id=game_id))
    return _make(table, plan, form, heading, [], done,
                 url_for("corrections.abandon" if abandon else "corrections.reinstate",
                         game_id=game_id))


@bp.get("/hands/insert")
def insert_form(game_id: int):
    """The game page, its entry panel holding a forgotten hand before hand ``before``."""
    table = table_or_404(game_id)
    before = whole_number_arg("before", None)
    if before is None:  # which hand it came before is asked on the page of corrections
        return redirect(url_for("corrections.show", game_id=game_id), 303)
    if not 1 <= before <= len(table.hands):
        abort(404)
    if table.game.abandoned_at is not None:
        return redirect(url_for("games.show", game_id=game_id), 303)
    return render_game(table, inserting=before)


@bp.post("/hands/insert")
def insert(game_id: int):
    """Put a forgotten hand in before another: checked, then (confirmed) written."""
    table = table_or_404(game_id)
    form = HandForm(request.form)
    before = form.number.data if form.validate() else None
    if before is None or not 1 <= before <= len(table.hands):
        return _refused(table, _("That form was incomplete; nothing was changed."), 422)
    done = _("The forgotten hand is in, as hand %(number)s; the hands after it were worked "
             "out again.", number=before)
    entry = entry_for(table, None, request.form, before)
    sent_before = hand_by_entry(get_session(), game_id, form.entry_key.data)
    if sent_before is not None:
        if _is_this_insert(table, sent_before, before, entry):
            return _done(table, done)  # sent again after its answer was lost: in already
        return _refused(table, _(
            "Hand %(number)s was already recorded (by this phone or another), so this entry "
            "was not. Check hand %(number)s in the list below; if it is wrong, edit it.",
            number=sent_before.number), 409)
    try:
        if entry.draft.unreadable:
            raise entry.draft.unreadable[0]
        plan = plan_insert(table, before, entry.draft.to_deal())
    except TallyIncomplete as incomplete:
        return _refused(table, None, 422, inserting=before,
                        problem=still_to_choose(incomplete.missing),
                        problem_point=incomplete.missing[0])
    except RuleViolation as violation:
        return _refused(table, None, 422, inserting=before,
                        problem=violation_message(violation),
                        problem_point=violation.params.get("point"))
    if request.form.get("confirm") != "y":
        fields = [(name, value) for name, value in entry.draft.fields().items()]
        fields += [("number", str(before)), ("entry_key", form.entry_key.data or "")]
        check = Check(_("Put the forgotten hand in before hand %(number)s?", number=before),
                      consequences(plan, table.names, table.rules.team_seats),
                      url_for("corrections.insert", game_id=game_id), fields,
                      url_for("games.show", game_id=game_id), in_game=True)
        response = render_game(table, inserting=before, source=request.form, check=check,
                               block="game")
        response.headers[VERDICT] = "check"
        return response
    try:
        apply(get_session(), table, plan, form.revision.data, actor(),
              entry_key=form.entry_key.data)
    except GameChanged:
        get_session().rollback()
        sent_before = hand_by_entry(get_session(), game_id, form.entry_key.data)
        if sent_before is not None and _is_this_insert(table, sent_before, before, entry):
            return _done(table, done)
        return _refused(table, _("The game changed on another phone after this page was "
                                 "shown, so nothing was written. Here is the game as it "
                                 "stands."), 409)
    return _done(table, done)


def _is_this_insert(table: Table, hand, before: int, entry) -> bool:
    """Whether ``hand`` is the forgotten hand this form puts in (sent once already)."""
    try:
        deal = entry.draft.to_deal()
    except (TallyIncomplete, RuleViolation):
        return False
    return hand.undone_at is None and hand.number == before and \
        stored_fields(hand) == hand_fields(deal, table.rules.team_names)


def _refused(table: Table, message, status: int, *, inserting=None, problem=None,
             problem_point=None):
    get_session().rollback()
    fresh = load_table(get_session(), table.game)
    response = render_game(fresh, inserting=inserting, source=dict(request.form.items()),
                           message=message, problem=problem, problem_point=problem_point,
                           status=status, block="game")
    response.headers[VERDICT] = "refused"
    return response
