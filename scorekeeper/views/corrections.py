"""Corrections past one hand: a forgotten hand, two seats swapped, a name, a substitute
from a hand on (and that taken back), an abandoned game. Each answers first with what it
would change, and changes it once confirmed."""
from __future__ import annotations

from datetime import timedelta

from flask import Blueprint, abort, redirect, request, url_for
from flask_babel import gettext as _
from markupsafe import Markup

from scorekeeper.clubs.access import actor, current_device
from scorekeeper.rules import RuleViolation
from scorekeeper.store.db import get_session
from scorekeeper.store.models import PLAYER_NAME_LENGTH, ChangeKind, aware, utcnow
from scorekeeper.store.replay import Replay, load_replay, recent_changes
from scorekeeper.store.rosters import roster
from scorekeeper.store.sittings import Sitting, sitting_at, until
from scorekeeper.table.corrections import (
    Plan, apply, last_substitute_hand, plan_abandon, plan_insert, plan_rename, plan_swap,
    plan_substitute, plan_take_back,
)
from scorekeeper.table.draft import TallyIncomplete
from scorekeeper.table.evenings import is_past_game
from scorekeeper.table.recording import GameChanged, hand_by_entry
from scorekeeper.text.names import name_key, team_part, typed
from scorekeeper.views.answers import done, problem_beside_record, refused, sent_again, to_check
from scorekeeper.views.lookup import current_club, replay_or_404, whole_number_arg
from scorekeeper.views.pages import Check, Mode, build_game, entry_for, render_game, render_page
from scorekeeper.web.forms import (
    AbandonForm, HandForm, RenameSeatForm, SubstituteForm, SwapSeatsForm, TakeBackForm,
    all_errors,
)
from scorekeeper.web.words import consequences, fill, violation_message
from scorekeeper.web.allow import Allow, allow

bp = Blueprint("corrections", __name__, url_prefix="/games/<int:game_id>")

# A confirm tapped twice: the second finds the game changed by the first, from the same
# phone, a moment ago, and is told it is done rather than that the game moved.
DOUBLE_TAP = timedelta(seconds=60)


@bp.before_request
def kept_games_take_no_corrections():
    """A game of a closed evening is kept as it was; an abandoned one takes nothing but
    being taken back into play."""
    replay = replay_or_404(request.view_args["game_id"])
    if is_past_game(get_session(), replay):
        message = _("This game's evening is closed: the game is kept as it was and can't "
                    "be changed.")
    elif replay.game.abandoned_at is not None and request.method == "POST" \
            and request.endpoint != "corrections.reinstate":
        message = _("This game was abandoned: take it back into play to change it.")
    else:
        return None
    if request.endpoint == "corrections.insert":  # the hand form's answer, for its phone
        return refused(replay, message, 409)
    return _fix_page(replay, message=message, status=409)


def _fix_page(replay: Replay, *, check: Check | None = None, message=None, status: int = 200):
    last = last_substitute_hand(replay)
    return render_page(
        "fix.html", status=status, replay=replay, game=replay.game, names=replay.names,
        hands=replay.hands, check=check, message=message,
        roster=roster(get_session(), current_club(get_session())),
        name_length=PLAYER_NAME_LENGTH,
        substitute_hands=list(range(2, last + 1)),
        substitutes=[(sitting, substitute_line(replay, sitting))
                     for sitting in replay.substitutes])


@bp.get("/fix")
@allow(Allow.SCORE)
def show(game_id: int):
    """Every correction that reaches past one hand, each checked before it is made."""
    return _fix_page(replay_or_404(game_id))


def _made_here(replay: Replay, kind: str):
    """The game's last change, if it is of ``kind`` and was made from this phone just
    now (a confirm tapped twice: the second finds it made)."""
    last = recent_changes(get_session(), replay.game.id, 1)
    device = current_device()
    if last and last[0].kind == kind and device is not None \
            and last[0].device_id == device.id and utcnow() - aware(last[0].at) < DOUBLE_TAP:
        return last[0]
    return None


def _just_done_here(replay: Replay, plan: Plan) -> bool:
    """The game's last change is this very correction, made from this phone just now."""
    change = _made_here(replay, plan.kind)
    if change is None:
        return False
    made, asked = change.details or {}, plan.details
    if plan.kind == ChangeKind.SEATS:
        return sorted(made.get("seats", ())) == sorted(asked["seats"])
    if plan.kind == ChangeKind.RENAMED:
        return made.get("seat") == asked["seat"] and \
            name_key(made.get("to", "")) == name_key(asked["to"])
    if plan.kind in (ChangeKind.SUBBED, ChangeKind.UNSUBBED):
        return _same_seat_change(change, plan.kind, asked["seat"], plan.number)
    return True


def _same_seat_change(change, kind: str, seat: int, number: int, name: str | None = None
                      ) -> bool:
    """Whether ``change`` (None: none) took seat ``seat``'s substitute at hand ``number``
    in or out (``name``: this one)."""
    return change is not None and change.kind == kind and change.number == number \
        and (change.details or {}).get("seat") == seat \
        and (name is None or name_key(change.details.get("to", "")) == name_key(name))


def _make(replay: Replay, plan: Plan, form, heading: str, fields, done_words: str, action: str):
    """Show the plan's consequences, or (confirmed) make it."""
    if request.form.get("confirm") != "y":
        substitute = plan.kind in (ChangeKind.SUBBED, ChangeKind.UNSUBBED)
        said = (substitute_consequences(replay, plan) if substitute
                else consequences(plan, replay.names, replay.rules.team_seats))
        check = Check(heading, said, action, fields,
                      url_for("corrections.show", game_id=replay.game.id))
        return _fix_page(replay, check=check)
    shown = replay.game.revision
    try:
        try:
            apply(get_session(), replay, plan, form.revision.data, actor())
        except GameChanged:
            fresh = load_replay(get_session(), replay.game)
            if fresh.game.revision != shown:
                raise
            # The game itself did not move (a roster name added by another game at the
            # same moment): once more, now that the name is there.
            apply(get_session(), fresh, plan, form.revision.data, actor())
    except GameChanged:
        get_session().rollback()
        if _just_done_here(replay, plan):
            return done(replay, done_words)
        return _fix_page(load_replay(get_session(), replay.game), status=409, message=_(
            "The game changed on another phone after this page was shown, so nothing was "
            "written. Here it is as it stands: check and try again."))
    return done(replay, done_words)


@bp.post("/seats/swap")
@allow(Allow.SCORE)
def swap(game_id: int):
    """Two players sat the other way round: they change seats; the hands stay by seat."""
    replay = replay_or_404(game_id)
    form = SwapSeatsForm(request.form)
    if not form.validate():
        return _fix_page(replay, status=422, message=" ".join(all_errors(form)))
    try:
        plan = plan_swap(replay, form.first.data, form.second.data)
    except RuleViolation as violation:
        return _fix_page(replay, status=422, message=violation_message(violation))
    first, second = typed(replay.names[form.first.data]), typed(replay.names[form.second.data])
    return _make(
        replay, plan, form, fill(_("Swap %(first)s and %(second)s?"), first=first, second=second),
        [("first", str(form.first.data)), ("second", str(form.second.data))],
        fill(_("%(first)s and %(second)s changed seats."), first=first, second=second),
        url_for("corrections.swap", game_id=game_id))


@bp.post("/seats/rename")
@allow(Allow.SCORE)
def rename(game_id: int):
    """Someone else sat in a seat than was entered, or a name was typed wrong."""
    replay = replay_or_404(game_id)
    form = RenameSeatForm(request.form)
    if not form.validate():
        return _fix_page(replay, status=422, message=" ".join(all_errors(form)))
    try:
        plan = plan_rename(replay, form.seat.data, form.name.data or "")
    except RuleViolation as violation:
        if violation.code == "name_same" and request.form.get("confirm") == "y":
            # Confirmed twice, the first already made it: so it is.
            return done(replay, fill(_("Seat %(seat)s is now %(new)s."), seat=form.seat.data,
                                     new=typed(replay.names[form.seat.data])))
        return _fix_page(replay, status=422, message=violation_message(violation))
    old, new = plan.details["from"], plan.details["to"]
    return _make(
        replay, plan, form, fill(_("Seat %(seat)s: %(old)s → %(new)s?"), seat=form.seat.data,
                                 old=typed(old), new=typed(new)),
        [("seat", str(form.seat.data)), ("name", new)],
        fill(_("Seat %(seat)s is now %(new)s."), seat=form.seat.data, new=typed(new)),
        url_for("corrections.rename", game_id=game_id))


def _played(name: str, first: int, last: int | None) -> Markup:
    """"Ann played hands 1–8", or one hand, or none yet."""
    if last is None or last < first:
        return fill(_("%(name)s played no hand yet"), name=typed(name))
    if first == last:
        return fill(_("%(name)s played hand %(number)s"), name=typed(name), number=first)
    return fill(_("%(name)s played hands %(first)s–%(last)s"), name=typed(name), first=first,
                last=last)


def substitute_line(replay: Replay, sitting: Sitting) -> Markup:
    """A substitute as the page lists it: "From hand 9 on, seat 1 is Gil (Ann played
    hands 1–8)"; "From hand 9 to hand 11, …" when another took the seat after them."""
    seating = replay.sittings()
    leaving = sitting_at(seating, sitting.seat, sitting.from_hand - 1)
    played = _played(leaving.name, leaving.from_hand, sitting.from_hand - 1)
    last = until(seating, sitting)
    if last is None:
        return fill(_("From hand %(number)s on, seat %(seat)s is %(name)s (%(played)s)"),
                    number=sitting.from_hand, seat=sitting.seat, name=typed(sitting.name),
                    played=played)
    return fill(_("From hand %(number)s to hand %(last)s, seat %(seat)s is %(name)s "
                  "(%(played)s)"), number=sitting.from_hand, last=last, seat=sitting.seat,
                name=typed(sitting.name), played=played)


def substitute_consequences(replay: Replay, plan: Plan) -> list[Markup]:
    """What a substitute (or taking one back) will change, before anyone confirms it."""
    subbed = plan.kind == ChangeKind.SUBBED
    said = _coming_in(replay, plan) if subbed else _going_out(replay, plan)
    said.append(Markup.escape(_("Every hand stays as recorded, by seat: the scores stay as "
                                "they are.")))
    return said


def _coming_in(replay: Replay, plan: Plan) -> list[Markup]:
    """Who takes the seat from which hand, who they play with, and whether they are new
    to the club (a name typed wrong shows here)."""
    seat, number = plan.seats[0], plan.number
    after = Replay(replay.game, replay.rules, plan.names_after, replay.hands, replay.state,
                   plan.seating)
    sitting = sitting_at(plan.seating, seat, number)
    team = next(t for t, seats in replay.rules.team_seats.items() if seat in seats)
    partners = Markup(" &amp; ").join(
        typed(after.names_at(number)[s]) for s in replay.rules.team_seats[team] if s != seat)
    said = [substitute_line(after, sitting) + Markup("."),
            fill(_("%(name)s plays for team %(team)s with %(partners)s: what seat %(seat)s "
                   "bids and takes from hand %(number)s on counts for %(name)s."),
                 name=typed(sitting.name), team=team_part(team), partners=partners,
                 seat=seat, number=number)]
    roster_keys = {name_key(p.name) for p in roster(get_session(), current_club(get_session()))}
    if name_key(sitting.name) not in roster_keys:
        said.append(fill(_("%(name)s is new to the club's players."), name=typed(sitting.name)))
    return said


def _going_out(replay: Replay, plan: Plan) -> list[Markup]:
    """Who plays the seat again, for which hands, and what the substitute had played."""
    seat, number = plan.seats[0], plan.number
    gone = sitting_at(replay.sittings(), seat, number)
    last = until(replay.sittings(), gone)
    played = _played(gone.name, number,
                     len(replay.hands) if last is None else min(last, len(replay.hands)))
    parts = dict(number=number, seat=seat, name=typed(plan.details["to"]),
                 gone=typed(gone.name), played=played)
    if last is None:
        return [fill(_("From hand %(number)s on, seat %(seat)s is %(name)s again: %(gone)s "
                       "leaves the game (%(played)s)."), **parts)]
    return [fill(_("From hand %(number)s to hand %(last)s, seat %(seat)s is %(name)s again: "
                   "%(gone)s leaves the game (%(played)s)."), last=last, **parts)]


@bp.post("/seats/substitute")
@allow(Allow.SCORE)
def substitute(game_id: int):
    """A player left during the game and someone took their seat from a hand on."""
    replay = replay_or_404(game_id)
    form = SubstituteForm(request.form)
    if not form.validate():
        return _fix_page(replay, status=422, message=" ".join(all_errors(form)))
    seat, number = form.seat.data, form.from_hand.data
    try:
        plan = plan_substitute(replay, seat, number, form.name.data or "")
    except RuleViolation as violation:
        if request.form.get("confirm") == "y" and _same_seat_change(
                _made_here(replay, ChangeKind.SUBBED), ChangeKind.SUBBED, seat, number,
                form.name.data or ""):
            # Confirmed twice, the first already made it: so it is.
            return done(replay, _substitute_done(seat, number, form.name.data or ""))
        return _fix_page(replay, status=422, message=violation_message(violation))
    old, new = typed(plan.details["from"]), typed(plan.details["to"])
    return _make(
        replay, plan, form,
        fill(_("%(old)s leaves, %(new)s takes seat %(seat)s from hand %(number)s on?"),
             old=old, new=new, seat=seat, number=number),
        [("seat", str(seat)), ("from_hand", str(number)), ("name", plan.details["to"])],
        _substitute_done(seat, number, plan.details["to"]),
        url_for("corrections.substitute", game_id=game_id))


def _substitute_done(seat: int, number: int, name: str) -> Markup:
    return fill(_("%(name)s sits in seat %(seat)s from hand %(number)s on."),
                name=typed(name), seat=seat, number=number)


@bp.post("/seats/take-back")
@allow(Allow.SCORE)
def take_back(game_id: int):
    """A substitute entered by mistake: the seat's player before them plays on."""
    replay = replay_or_404(game_id)
    form = TakeBackForm(request.form)
    if not form.validate():
        return _fix_page(replay, status=422, message=" ".join(all_errors(form)))
    seat, number = form.seat.data, form.from_hand.data
    try:
        plan = plan_take_back(replay, seat, number)
    except RuleViolation as violation:
        change = _made_here(replay, ChangeKind.UNSUBBED)
        if request.form.get("confirm") == "y" and _same_seat_change(
                change, ChangeKind.UNSUBBED, seat, number):
            # Confirmed twice, the first already took it back: so it is.
            return done(replay, _taken_back(seat, number, change.details["to"]))
        return _fix_page(replay, status=422, message=violation_message(violation))
    return _make(
        replay, plan, form,
        fill(_("Take back %(name)s in seat %(seat)s from hand %(number)s?"),
             name=typed(plan.details["from"]), seat=seat, number=number),
        [("seat", str(seat)), ("from_hand", str(number))],
        _taken_back(seat, number, plan.details["to"]),
        url_for("corrections.take_back", game_id=game_id))


def _taken_back(seat: int, number: int, name: str) -> Markup:
    return fill(_("%(name)s plays seat %(seat)s from hand %(number)s on again."),
                name=typed(name), seat=seat, number=number)


@bp.post("/abandon")
@allow(Allow.SCORE)
def abandon(game_id: int):
    """Set the game aside: kept, shown as abandoned, out of the statistics."""
    return _abandon(game_id, True)


@bp.post("/reinstate")
@allow(Allow.SCORE)
def reinstate(game_id: int):
    """Take an abandoned game back into play."""
    return _abandon(game_id, False)


def _abandon(game_id: int, abandon: bool):
    replay = replay_or_404(game_id)
    form = AbandonForm(request.form)
    if not form.validate():
        return _fix_page(replay, status=422, message=" ".join(all_errors(form)))
    if (replay.game.abandoned_at is not None) == abandon:
        return done(replay, _("This game is abandoned already.") if abandon else
                    _("This game is in play already."))
    plan = plan_abandon(replay, abandon)
    if abandon:
        heading, done_words = (_("Abandon game %(id)s?", id=game_id),
                               _("Game %(id)s abandoned.", id=game_id))
    else:
        heading, done_words = (_("Take game %(id)s back into play?", id=game_id),
                               _("Game %(id)s is back in play.", id=game_id))
    return _make(replay, plan, form, heading, [], done_words,
                 url_for("corrections.abandon" if abandon else "corrections.reinstate",
                         game_id=game_id))


@bp.get("/hands/insert")
@allow(Allow.SCORE)
def insert_form(game_id: int):
    """The game page, its entry panel holding a forgotten hand before hand ``before``."""
    replay = replay_or_404(game_id)
    before = whole_number_arg("before", None)
    if before is None:  # which hand it came before is asked on the page of corrections
        return redirect(url_for("corrections.show", game_id=game_id), 303)
    if not 1 <= before <= len(replay.hands):
        abort(404)
    if replay.game.abandoned_at is not None:
        return redirect(url_for("games.show", game_id=game_id), 303)
    return render_game(build_game(replay, Mode.inserting(before)))


@bp.post("/hands/insert")
@allow(Allow.SCORE)
def insert(game_id: int):
    """Put a forgotten hand in before another: checked, then (confirmed) written."""
    replay = replay_or_404(game_id)
    form = HandForm(request.form)
    before = form.number.data if form.validate() else None
    if before is None or not 1 <= before <= len(replay.hands):
        return refused(replay, _("That form was incomplete; nothing was changed."), 422)
    done_words = _("The forgotten hand is in, as hand %(number)s; the hands after it were "
                   "worked out again.", number=before)
    mode = Mode.inserting(before)
    entry = entry_for(replay, mode, request.form)
    sent_before = hand_by_entry(get_session(), game_id, form.entry_key.data)
    if sent_before is not None:
        if _is_this_insert(replay, sent_before, before, entry):
            return done(replay, done_words)  # sent again after its answer was lost: in already
        return refused(replay, _(
            "Hand %(number)s was already recorded (by this phone or another), so this entry "
            "was not. Check hand %(number)s in the list below; if it is wrong, edit it.",
            number=sent_before.number), 409)
    try:
        if entry.draft.unreadable:
            raise entry.draft.unreadable[0]
        plan = plan_insert(replay, before, entry.draft.to_deal())
    except (TallyIncomplete, RuleViolation) as violation:
        return problem_beside_record(replay, violation, mode)
    if request.form.get("confirm") != "y":
        return _check_insert(replay, mode, plan, form.entry_key.data)
    try:
        apply(get_session(), replay, plan, form.revision.data, actor(),
              entry_key=form.entry_key.data)
    except GameChanged:
        get_session().rollback()
        sent_before = hand_by_entry(get_session(), game_id, form.entry_key.data)
        if sent_before is not None and _is_this_insert(replay, sent_before, before, entry):
            return done(replay, done_words)
        return refused(replay, _("The game changed on another phone after this page was "
                                 "shown, so nothing was written. Here is the game as it "
                                 "stands."), 409)
    return done(replay, done_words)


def _check_insert(replay: Replay, mode: Mode, plan: Plan, entry_key: str | None):
    """A forgotten hand's consequences, shown before it is put in, and Put it in."""
    entry = entry_for(replay, mode, request.form)
    fields = [(name, value) for name, value in entry.draft.fields().items()]
    fields += [("number", str(mode.number)), ("entry_key", entry_key or "")]
    check = Check(_("Put the forgotten hand in before hand %(number)s?", number=mode.number),
                  consequences(plan, replay.names, replay.rules.team_seats),
                  url_for("corrections.insert", game_id=replay.game.id), fields,
                  url_for("games.show", game_id=replay.game.id), in_game=True)
    return to_check(replay, mode, check)


def _is_this_insert(replay: Replay, hand, before: int, entry) -> bool:
    """Whether ``hand`` is the forgotten hand this form puts in (sent once already)."""
    return hand.undone_at is None and hand.number == before and \
        sent_again(replay, hand, entry.draft)
