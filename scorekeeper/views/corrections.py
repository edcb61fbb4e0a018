"""Corrections past one hand: a forgotten hand, two seats swapped, a name, a substitute
from a hand on (and that taken back), an abandoned game. Each answers first with what it
would change, and changes it once confirmed: its view runs the change
(``table.corrections``) with ``make_here`` and words the outcome (``Asked``)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from flask import Blueprint, abort, redirect, request, url_for
from flask_babel import gettext as _
from markupsafe import Markup

from scorekeeper.rules import RuleViolation
from scorekeeper.store.db import get_session
from scorekeeper.store.models import PLAYER_NAME_LENGTH, ChangeKind
from scorekeeper.store.replay import Replay
from scorekeeper.store.rosters import roster
from scorekeeper.store.sittings import Sitting, sitting_at, until
from scorekeeper.table.changes import Outcome, TableChange, Verdict
from scorekeeper.table.corrections import (
    AbandonGame, InsertHand, Plan, RenameSeat, SwapSeats, TakeBackSeat, TakeSeat,
    last_substitute_hand,
)
from scorekeeper.table.draft import TallyIncomplete
from scorekeeper.table.entry import Mode, entry_for
from scorekeeper.table.evenings import is_past_game
from scorekeeper.table.recording import AlreadyRecorded
from scorekeeper.text.names import clean_name, name_key, team_part, typed
from scorekeeper.views.answers import (
    done, make_here, problem_beside_record, refused, to_check,
)
from scorekeeper.views.lookup import current_club, replay_or_404, whole_number_arg
from scorekeeper.views.pages import Check, build_game, render_game, render_page
from scorekeeper.web.forms import (
    AbandonForm, HandForm, RenameSeatForm, SubstituteForm, SwapSeatsForm, TakeBackForm,
    all_errors,
)
from scorekeeper.web.words import consequences, fill, violation_message
from scorekeeper.web.allow import Allow, allow

bp = Blueprint("corrections", __name__, url_prefix="/games/<int:game_id>")


@bp.before_request
def kept_games_take_no_corrections():
    """A game of a closed evening is kept as it was; an abandoned one takes nothing but
    being taken back into play."""
    replay = replay_or_404(request.view_args["game_id"])
    if is_past_game(get_session(), replay):
        message = _("This game's evening is closed: the game is kept as it was and can't "
                    "be changed.")
    elif replay.game.abandoned_at is not None and request.method == "POST" \
            and request.endpoint not in ("corrections.reinstate", "corrections.abandon"):
        # (Abandon tapped twice is told the game is abandoned already, not refused.)
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


@dataclass(frozen=True)
class Asked:
    """A correction as the page words it: the question before it is made (``heading``,
    of the plan), the form that makes it (``fields``, sent to ``action``), and what is
    said once it is made (``done``, of the outcome: made now, or made already)."""

    heading: Callable[[Plan], str]
    fields: list[tuple[str, str]]
    action: str
    done: Callable[[Outcome], str]


def _correct(replay: Replay, change: TableChange, form, asked: Asked):
    """Show the correction's consequences, or (confirmed) make it."""
    try:
        outcome = make_here(replay, change, form.revision.data)
    except RuleViolation as violation:
        return _fix_page(replay, status=422, message=violation_message(violation))
    match outcome.verdict:
        case Verdict.CHECK:
            plan = outcome.plan
            substitute = plan.kind in (ChangeKind.SUBBED, ChangeKind.UNSUBBED)
            said = (substitute_consequences(replay, plan) if substitute
                    else consequences(plan, replay.names, replay.rules.team_seats))
            check = Check(asked.heading(plan), said, asked.action, asked.fields,
                          url_for("corrections.show", game_id=replay.game.id))
            return _fix_page(replay, check=check)
        case Verdict.CHANGED:
            return _fix_page(outcome.replay, status=409, message=_(
                "The game changed on another phone after this page was shown, so nothing "
                "was written. Here it is as it stands: check and try again."))
    return done(replay, asked.done(outcome))


@bp.post("/seats/swap")
@allow(Allow.SCORE)
def swap(game_id: int):
    """Two players sat the other way round: they change seats; the hands stay by seat."""
    replay = replay_or_404(game_id)
    form = SwapSeatsForm(request.form)
    if not form.validate():
        return _fix_page(replay, status=422, message=" ".join(all_errors(form)))
    return _correct(replay, SwapSeats(form.first.data, form.second.data), form, Asked(
        lambda plan: fill(_("Swap %(first)s and %(second)s?"), **_pair(plan)),
        [("first", str(form.first.data)), ("second", str(form.second.data))],
        url_for("corrections.swap", game_id=game_id),
        lambda outcome: fill(_("%(first)s and %(second)s changed seats."),
                             **_pair(outcome.plan or outcome.result))))


def _pair(swap) -> dict:
    """The two players a swap (planned, or in the log) moves, as its words name them."""
    first, second = swap.details["players"]
    return {"first": typed(first), "second": typed(second)}


@bp.post("/seats/rename")
@allow(Allow.SCORE)
def rename(game_id: int):
    """Someone else sat in a seat than was entered, or a name was typed wrong."""
    replay = replay_or_404(game_id)
    form = RenameSeatForm(request.form)
    if not form.validate():
        return _fix_page(replay, status=422, message=" ".join(all_errors(form)))
    seat, name = form.seat.data, form.name.data or ""
    return _correct(replay, RenameSeat(seat, name), form, Asked(
        lambda plan: fill(_("Seat %(seat)s: %(old)s → %(new)s?"), seat=seat,
                          old=typed(plan.details["from"]), new=typed(plan.details["to"])),
        [("seat", str(seat)), ("name", clean_name(name))],
        url_for("corrections.rename", game_id=game_id),
        lambda outcome: fill(_("Seat %(seat)s is now %(new)s."), seat=seat,
                             new=typed(clean_name(name)))))


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
    seat, number, name = form.seat.data, form.from_hand.data, form.name.data or ""
    return _correct(replay, TakeSeat(seat, number, name), form, Asked(
        lambda plan: fill(_("%(old)s leaves, %(new)s takes seat %(seat)s from hand "
                            "%(number)s on?"), old=typed(plan.details["from"]),
                          new=typed(plan.details["to"]), seat=seat, number=number),
        [("seat", str(seat)), ("from_hand", str(number)), ("name", clean_name(name))],
        url_for("corrections.substitute", game_id=game_id),
        lambda outcome: _substitute_done(seat, number, clean_name(name))))


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
    return _correct(replay, TakeBackSeat(seat, number), form, Asked(
        lambda plan: fill(_("Take back %(name)s in seat %(seat)s from hand %(number)s?"),
                          name=typed(plan.details["from"]), seat=seat, number=number),
        [("seat", str(seat)), ("from_hand", str(number))],
        url_for("corrections.take_back", game_id=game_id),
        lambda outcome: _taken_back(seat, number, (outcome.plan or outcome.result)
                                    .details["to"])))


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
    if abandon:
        heading = _("Abandon game %(id)s?", id=game_id)
        made, already = (_("Game %(id)s abandoned.", id=game_id),
                         _("This game is abandoned already."))
    else:
        heading = _("Take game %(id)s back into play?", id=game_id)
        made, already = (_("Game %(id)s is back in play.", id=game_id),
                         _("This game is in play already."))
    return _correct(replay, AbandonGame(abandon), form, Asked(
        lambda plan: heading, [],
        url_for("corrections.abandon" if abandon else "corrections.reinstate",
                game_id=game_id),
        lambda outcome: already if outcome.verdict is Verdict.AGAIN else made))


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
    try:
        outcome = make_here(replay, InsertHand(before, request.form, form.entry_key.data),
                            form.revision.data)
    except AlreadyRecorded as already:  # another hand under that entry's key
        return refused(replay, _(
            "Hand %(number)s was already recorded (by this phone or another), so this entry "
            "was not. Check hand %(number)s in the list below; if it is wrong, edit it.",
            number=already.number), 409)
    except (TallyIncomplete, RuleViolation) as violation:
        return problem_beside_record(replay, violation, mode)
    match outcome.verdict:
        case Verdict.CHECK:
            return _check_insert(replay, mode, outcome.plan, form.entry_key.data)
        case Verdict.CHANGED:
            return refused(replay, _("The game changed on another phone after this page was "
                                     "shown, so nothing was written. Here is the game as it "
                                     "stands."), 409)
    # Made now, or (sent again after its answer was lost) made already.
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
