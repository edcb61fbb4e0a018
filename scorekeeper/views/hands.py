"""Hands: record the next one, save a correction, undo the last, bring it back, confirm
one. Each view runs its change (``table.recording``, ``table.corrections``) with
``make_here`` and words the outcome: done, done already, to check first, or the game
changed meanwhile."""
from __future__ import annotations

from flask import Blueprint, abort, request, url_for
from flask_babel import gettext as _

from scorekeeper.clubs.access import change_author, current_member, now_plays_as
from scorekeeper.rules import RuleViolation
from scorekeeper.store.db import get_session
from scorekeeper.store.replay import Replay, deal_from_hand, load_replay, who_recorded
from scorekeeper.table.changes import Verdict
from scorekeeper.table.corrections import EditHand
from scorekeeper.table.draft import TallyIncomplete, read_draft
from scorekeeper.table.entry import NEXT_HAND, Mode, entry_for
from scorekeeper.table.evenings import is_past_game
from scorekeeper.table.recording import (
    AlreadyRecorded, BringBackHand, ConfirmHand, RecordHand, UndoHand, undone_entry,
)
from scorekeeper.store.models import Member, Player
from scorekeeper.table.confirming import CannotConfirm, PlayerTaken, link_player, phone_team
from scorekeeper.text.names import typed
from scorekeeper.views.answers import (
    done, make_here, problem_beside_record, refused, to_check,
)
from scorekeeper.views.confirming import free_players, refusal, said_player
from scorekeeper.views.lookup import replay_or_404
from scorekeeper.views.pages import Check
from scorekeeper.web.forms import ConfirmForm, HandForm, PlayerForm, RestoreForm, UndoForm
from scorekeeper.web.words import (
    consequences, deal_summary, fill, hand_scores, violation_message,
    what_changed,
)
from scorekeeper.web.allow import Allow, allow

bp = Blueprint("hands", __name__, url_prefix="/games/<int:game_id>/hands")


@bp.before_request
def past_games_are_kept_as_they_were():
    """A finished game of an evening that is over takes no more changes."""
    replay = replay_or_404(request.view_args["game_id"])
    if is_past_game(get_session(), replay):
        return refused(replay, _("This game's evening is closed: the game is kept as it "
                                 "was and can't be changed."), 409, keep_draft=False)
    if replay.game.abandoned_at is not None:
        return refused(replay, _("This game was abandoned: take it back into play to change "
                                 "it."), 409, keep_draft=False)
    return None


def _changed(replay: Replay):
    return refused(replay, _("The game changed on another phone after this page was shown, "
                             "so nothing was written. Here is the game as it stands."),
                   409, keep_draft=False)


@bp.post("")
@allow(Allow.SCORE)
def record(game_id: int):
    """Record the next hand (a throw-in, or a played hand with its points)."""
    replay = replay_or_404(game_id)
    form = HandForm(request.form)
    if not form.validate():
        return refused(replay, _("That form was incomplete; nothing was recorded."), 422)
    number = form.number.data
    try:
        outcome = make_here(replay, RecordHand(number, request.form, form.entry_key.data),
                            form.revision.data)
    except AlreadyRecorded:  # not the next hand, or another hand's entry
        return _already(replay, number)
    except (TallyIncomplete, RuleViolation) as violation:
        return problem_beside_record(replay, violation)
    match outcome.verdict:
        case Verdict.AGAIN:  # the same entry sent twice: recorded once, and told so
            return _sent_again(outcome.replay, outcome.result)
        case Verdict.CHANGED:
            return _already(replay, number)
    after, deal = outcome.result, outcome.plan
    recorded = {"after": after, "recorded_from": form.revision.data}
    if deal.tally is None:
        dealer = replay.names[replay.state.next_dealer]
        return done(replay, fill(_("Hand %(number)s: thrown in. %(dealer)s deals again."),
                                 number=number, dealer=typed(dealer)), **recorded)
    return done(replay, fill(_("Hand %(number)s recorded: %(scores)s."), number=number,
                             scores=hand_scores(after.state.deals[-1].score_change)),
                **recorded)


def _sent_again(replay: Replay, hand) -> object:
    """This phone's entry came again (the answer to it was lost): it was recorded once,
    and that is what the phone is told; nothing more is written."""
    if hand.undone_at is None:
        if hand.points is None:  # a throw-in: what it said then, the same dealer again
            return done(replay, _("Hand %(number)s: thrown in.", number=hand.number))
        if hand.number > len(replay.state.deals):
            replay = load_replay(get_session(), replay.game)  # recorded since this request read it
        change = replay.state.deals[hand.number - 1].score_change
        return done(replay, fill(_("Hand %(number)s recorded: %(scores)s."),
                                 number=hand.number, scores=hand_scores(change)))
    return done(replay, _("Hand %(number)s was recorded from this phone and has been "
                          "undone since; nothing more was written.", number=hand.number))


def _already(replay: Replay, number: int):
    """Hand ``number`` could not be recorded: say why, from the game as it is now."""

    def why(fresh: Replay) -> tuple[str, dict | None]:
        if 1 <= number < fresh.state.next_number:
            return _recorded_meanwhile(fresh, number)
        if number == fresh.state.next_number:
            return _("The game changed on another phone while this hand was on its way, so "
                     "nothing was written. The hand is still here: check it against the "
                     "scores as they stand now and tap Record again."), None
        if number > fresh.state.next_number:
            return _("Hand %(number)s was not recorded: the game changed on another phone, "
                     "and the next hand is now hand %(next)s. Here is the game as it stands.",
                     number=number, next=fresh.state.next_number), None
        return _("That form was for hand %(number)s, which is not the next hand. "
                 "Here is the game as it stands.", number=number), None

    # Still the next hand (only the game changed meanwhile): the entry stays on the page.
    keep = number == replay.state.next_number
    return refused(replay, why, 409, keep_draft=keep)


def _recorded_meanwhile(fresh: Replay, number: int) -> tuple[str, dict | None]:
    """Another phone recorded hand ``number`` first: both versions in words, and a link
    that puts this phone's in that hand instead (when this phone's is a whole hand)."""
    recorded = who_recorded(get_session(), fresh.game.id, number)
    dealer = fresh.state.deals[number - 1].dealer_seat
    mine = read_draft(request.form, dealer, fresh.rules)
    try:
        mine_deal = None if mine.unreadable else mine.to_deal()
    except (TallyIncomplete, RuleViolation):
        mine_deal = None
    if mine_deal is not None:
        names = fresh.names_at(number)
        theirs = deal_summary(deal_from_hand(fresh.hands[number - 1]), dealer, names,
                              fresh.rules)
        put_in = url_for("games.edit_hand", game_id=fresh.game.id, number=number,
                         **mine.fields())
        return fill(_("Hand %(number)s was already recorded by %(who)s: %(theirs)s. This "
                      "phone's entry was not recorded: %(mine)s. If this phone's is the right "
                      "one, put it in hand %(number)s instead."), number=number,
                    who=typed(change_author(recorded)) if recorded else _("another phone"),
                    theirs=theirs,
                    mine=deal_summary(mine_deal, dealer, names, fresh.rules)), \
            {"number": number, "url": put_in}
    if recorded:
        return fill(_("Hand %(number)s was already recorded by %(who)s, so this entry was "
                      "not. Check hand %(number)s in the list below; if it is wrong, edit it."),
                    number=number, who=typed(change_author(recorded))), None
    return _("Hand %(number)s was already recorded (by this phone or another), so this "
             "entry was not. Check hand %(number)s in the list below; if it is wrong, edit "
             "it.", number=number), None


@bp.post("/<int:number>")
@allow(Allow.SCORE)
def save(game_id: int, number: int):
    """Save a correction to a past hand; everything after it is replayed."""
    replay = replay_or_404(game_id)
    if not 1 <= number <= len(replay.hands):
        abort(404)
    form = HandForm(request.form)
    mode = Mode.correcting(number)
    if not form.validate() or form.number.data != number:
        return refused(replay, _("That form was incomplete; nothing was changed."), 422,
                       mode=mode)
    try:
        outcome = make_here(replay, EditHand(number, request.form), form.revision.data)
    except (TallyIncomplete, RuleViolation) as violation:
        return problem_beside_record(replay, violation, mode)
    match outcome.verdict:
        case Verdict.AGAIN:  # already so (a second tap on Save)
            return done(outcome.replay, _("Hand %(number)s is as it was: nothing to change.",
                                          number=number))
        case Verdict.CHECK:  # later hands move, or another team confirmed it: a second tap
            return _check_edit(replay, number, outcome.plan)
        case Verdict.CHANGED:
            return _changed(outcome.replay)
    plan = outcome.plan
    changed = what_changed(plan.details)
    if changed:
        return done(replay, fill(_("Hand %(number)s corrected (%(what)s); the scores after it "
                                   "were worked out again."), number=number, what=changed))
    return done(replay, _("Hand %(number)s corrected; the scores after it were worked out again.",
                          number=number))


def _check_edit(replay: Replay, number: int, plan):
    """A correction that moves later hands' dealers: its consequences, and Make it."""
    mode = Mode.correcting(number)
    entry = entry_for(replay, mode, request.form)
    fields = list(entry.draft.fields().items()) + [("number", str(number))]
    check = Check(_("Correct hand %(number)s?", number=number),
                  _confirmed_lines(replay, number)
                  + consequences(plan, replay.names, replay.rules.team_seats),
                  url_for("hands.save", game_id=replay.game.id, number=number), fields,
                  url_for("games.show", game_id=replay.game.id), in_game=True)
    return to_check(replay, mode, check)


def _confirmed(replay: Replay, number: int) -> bool:
    """Whether hand ``number`` was confirmed by another team's phone."""
    hand = replay.hands[number - 1] if 1 <= number <= len(replay.hands) else None
    return hand is not None and hand.confirmed


def _confirmed_lines(replay: Replay, number: int, correcting: bool = True) -> list:
    """What a scorer is told before the second tap that changes a confirmed hand."""
    if not _confirmed(replay, number):
        return []
    lines = [_("Team %(team)s confirmed hand %(number)s: this change is kept in the game's "
               "log with who made it.", team=replay.hands[number - 1].confirmed_team,
               number=number)]
    if correcting:
        lines.append(_("Corrected, the hand waits for a phone of another team again."))
    return lines


@bp.post("/undo")
@allow(Allow.SCORE)
def undo(game_id: int):
    """Take back the last hand (kept, and can be brought back): it comes back in the entry."""
    replay = replay_or_404(game_id)
    form = UndoForm(request.form)
    if not form.validate():
        return refused(replay, _("That form was incomplete; nothing was changed."), 422,
                       keep_draft=False)
    number = form.number.data
    outcome = make_here(replay, UndoHand(number), form.revision.data)
    match outcome.verdict:
        case Verdict.AGAIN:  # a double tap
            return _undone(outcome.replay, outcome.result,
                           _("Hand %(number)s is undone already.", number=number))
        case Verdict.CHECK:  # another team confirmed it: a scorer's second tap
            check = Check(_("Undo hand %(number)s?", number=number),
                          _confirmed_lines(replay, number, correcting=False),
                          url_for("hands.undo", game_id=game_id), [("number", str(number))],
                          url_for("games.show", game_id=game_id), in_game=True)
            # The form's number is the hand to undo, not an entry's.
            return to_check(replay, NEXT_HAND, check, entry={})
        case Verdict.CHANGED:
            return refused(outcome.replay, _(
                "Hand %(number)s was not undone: the game changed on another phone after "
                "this page was shown. Here it is as it stands.", number=number), 409,
                keep_draft=False)
    return _undone(load_replay(get_session(), replay.game), outcome.result,
                   _("Hand %(number)s undone.", number=number))


def _undone(fresh: Replay, hand, notice: str):
    """The game without the hand undone, which is back in the entry as it was recorded:
    a table undoes a hand to put one thing right, then records it again (as the phone
    does with a hand it kept, offline.js). A plain form's page has it in its address;
    the undo kept it as this phone's entry too (``undo_last_hand``)."""
    return done(fresh, notice, after=fresh, entry=undone_entry(fresh.state, fresh.rules, hand))


@bp.post("/restore")
@allow(Allow.SCORE)
def restore(game_id: int):
    """Bring back the hand the last change undid."""
    replay = replay_or_404(game_id)
    form = RestoreForm(request.form)
    if not form.validate():
        return refused(replay, _("That form was incomplete; nothing was changed."), 422,
                       keep_draft=False)
    try:
        outcome = make_here(replay, BringBackHand(form.hand_id.data), form.revision.data)
    except RuleViolation as violation:
        return refused(replay, violation_message(violation), 422, keep_draft=False)
    match outcome.verdict:
        case Verdict.AGAIN:
            return refused(replay, _("Hand %(number)s is back already.",
                                     number=outcome.result.number), 409, keep_draft=False)
        case Verdict.CHANGED:
            return refused(replay, _("That hand can't be brought back: the game has changed "
                                     "since it was undone."), 409, keep_draft=False)
    return done(replay, _("Hand %(number)s is back.", number=outcome.result.number))


@bp.post("/<int:number>/confirm")
@allow(Allow.DEVICE)
def confirm(game_id: int, number: int):
    """Confirm a hand another team's phone wrote (a night played for a ranking)."""
    replay = replay_or_404(game_id)
    form = ConfirmForm(request.form)
    if not form.validate() or form.number.data != number:
        return refused(replay, _("That form was incomplete; nothing was changed."), 422,
                       keep_draft=False)
    try:
        outcome = make_here(replay, ConfirmHand(number), form.revision.data)
    except CannotConfirm as cannot:
        return refused(replay, refusal(cannot.why, number), 409, keep_draft=False)
    match outcome.verdict:
        case Verdict.AGAIN:  # a second tap, or another phone of that team first
            return done(outcome.replay, _("Hand %(number)s was confirmed already, by team "
                                          "%(team)s.", number=number,
                                          team=outcome.result.confirmed_team))
        case Verdict.CHANGED:
            return _changed(outcome.replay)
    return done(replay, _("Hand %(number)s confirmed.", number=number))


@bp.post("/player")
@allow(Allow.DEVICE)
def my_player(game_id: int):
    """Say once which of the table's players this member is (any member, a viewer too):
    their phones confirm for that player's team. An owner changes it on the club page."""
    replay = replay_or_404(game_id)
    form = PlayerForm(request.form)
    session = get_session()
    member = session.get(Member, current_member().id)
    if member.player_id is not None:
        return refused(replay, fill(_("You are %(name)s at the table already; an owner can "
                                      "change that on the club page."),
                                    name=typed(session.get(Player, member.player_id).name)),
                       409, keep_draft=False)
    free = dict(free_players(replay))
    if form.validate() and form.player_id.data in free:
        try:
            link_player(session, member, form.player_id.data)
        except PlayerTaken:
            pass  # another member took that player a moment ago
        else:
            now_plays_as(member.player_id)
            return done(replay, said_player(free[member.player_id], phone_team(
                replay, member.player_id, replay.state.next_number)))
    return refused(replay, _("That player is not at this table, or is another member "
                             "already; nothing was changed."), 409, keep_draft=False)
