"""Hands: record the next one, save a correction, undo the last, bring it back."""
from __future__ import annotations

from flask import Blueprint, abort, request, url_for
from flask_babel import gettext as _

from scorekeeper.clubs.access import actor, change_author, current_member, now_plays_as
from scorekeeper.rules import RuleViolation
from scorekeeper.store.db import get_session
from scorekeeper.store.replay import (
    Replay, deal_from_hand, hand_fields, load_replay, stored_fields, who_recorded,
)
from scorekeeper.table.corrections import apply, plan_edit
from scorekeeper.table.draft import TallyIncomplete, draft_from_deal, read_draft
from scorekeeper.table.evenings import is_past_game
from scorekeeper.table.recording import (
    AlreadyBack, AlreadyRecorded, GameChanged, NotTheLastHand, bring_back_hand, confirm_hand,
    hand_by_entry, last_undone_hand, record_hand, undo_last_hand,
)
from scorekeeper.store.models import Member, Player
from scorekeeper.table.confirming import (
    AlreadyConfirmed, CannotConfirm, PlayerTaken, link_player, phone_team,
)
from scorekeeper.text.names import typed
from scorekeeper.views.answers import done, problem_beside_record, refused, sent_again, to_check
from scorekeeper.views.confirming import free_players, refusal, said_player
from scorekeeper.views.lookup import replay_or_404
from scorekeeper.views.pages import NEXT_HAND, Check, Mode, entry_for
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


def _deal_from_form(replay: Replay, mode: Mode):
    entry = entry_for(replay, mode, request.form)
    if entry.draft.unreadable:
        raise entry.draft.unreadable[0]  # carries what its message names
    return entry.draft.to_deal()


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
    sent_before = hand_by_entry(get_session(), replay.game.id, form.entry_key.data)
    if sent_before is not None:
        if _is_the_entry_of(replay, sent_before, number):
            return _sent_again(replay, sent_before)
        return _already(replay, number)  # another hand under that key: never taken for it
    if form.entry_key.data and 1 <= number < replay.state.next_number and _is_the_entry_of(
            replay, replay.hands[number - 1], number):
        # A hand the phone kept (offline, say) that another phone recorded meanwhile
        # exactly as this one has it: nothing differs, so nothing is refused, and the
        # phone sends the hands it kept after it. (A plain form sent twice is told.)
        return _sent_again(replay, replay.hands[number - 1])
    if number != replay.state.next_number:
        return _already(replay, number)
    try:
        deal = _deal_from_form(replay, NEXT_HAND)
        after = record_hand(get_session(), replay, number, deal, form.revision.data, actor(),
                            form.entry_key.data)
    except (AlreadyRecorded, GameChanged):
        get_session().rollback()
        # The same entry sent twice at once (its first answer slow, or lost): the one
        # that got there first recorded it, and this one is told so.
        sent_before = hand_by_entry(get_session(), replay.game.id, form.entry_key.data)
        fresh = load_replay(get_session(), replay.game)
        if sent_before is not None and _is_the_entry_of(fresh, sent_before, number):
            return _sent_again(fresh, sent_before)
        return _already(replay, number)
    except (TallyIncomplete, RuleViolation) as violation:
        return problem_beside_record(replay, violation)
    recorded = {"after": after, "recorded_from": form.revision.data}
    if deal.tally is None:
        dealer = replay.names[replay.state.next_dealer]
        return done(replay, fill(_("Hand %(number)s: thrown in. %(dealer)s deals again."),
                                 number=number, dealer=typed(dealer)), **recorded)
    return done(replay, fill(_("Hand %(number)s recorded: %(scores)s."), number=number,
                             scores=hand_scores(after.state.deals[-1].score_change)),
                **recorded)


def _is_the_entry_of(replay: Replay, hand, number: int) -> bool:
    """Whether the posted form is the entry that recorded ``hand``: its number, and the
    same hand read as it was entered (from that hand's dealer's left)."""
    if hand.number != number:
        return False
    if number <= len(replay.state.deals) and hand.undone_at is None:
        dealer = replay.state.deals[number - 1].dealer_seat
    elif number == replay.state.next_number:
        dealer = replay.state.next_dealer  # undone since: it would be dealt by the same seat
    else:
        return True  # undone, and later hands recorded since: its number is the entry's
    return sent_again(replay, hand, read_draft(request.form, dealer, replay.rules.team_names))


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
    mine = read_draft(request.form, dealer, fresh.rules.team_names)
    try:
        mine_deal = None if mine.unreadable else mine.to_deal()
    except (TallyIncomplete, RuleViolation):
        mine_deal = None
    if mine_deal is not None:
        names = fresh.names_at(number)
        theirs = deal_summary(deal_from_hand(fresh.hands[number - 1]), dealer, names)
        put_in = url_for("games.edit_hand", game_id=fresh.game.id, number=number,
                         **mine.fields())
        return fill(_("Hand %(number)s was already recorded by %(who)s: %(theirs)s. This "
                      "phone's entry was not recorded: %(mine)s. If this phone's is the right "
                      "one, put it in hand %(number)s instead."), number=number,
                    who=typed(change_author(recorded)) if recorded else _("another phone"),
                    theirs=theirs,
                    mine=deal_summary(mine_deal, dealer, names)), \
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
        deal = _deal_from_form(replay, mode)
        if hand_fields(deal, replay.rules.team_names) == stored_fields(replay.hands[number - 1]):
            return done(replay, _("Hand %(number)s is as it was: nothing to change.",
                                  number=number))  # already so (a second tap on Save)
        plan = plan_edit(replay, number, deal)
        if (plan.moved or _confirmed(replay, number)) and request.form.get("confirm") != "y":
            # Later hands move, or another team confirmed it: shown first, a second tap.
            return _check_edit(replay, number, plan)
        apply(get_session(), replay, plan, form.revision.data, actor())
    except GameChanged:
        return _changed(replay)
    except (TallyIncomplete, RuleViolation) as violation:
        return problem_beside_record(replay, violation, mode)
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
    if _confirmed(replay, number) and request.form.get("confirm") != "y" \
            and replay.hands[-1].number == number:
        check = Check(_("Undo hand %(number)s?", number=number),
                      _confirmed_lines(replay, number, correcting=False),
                      url_for("hands.undo", game_id=game_id), [("number", str(number))],
                      url_for("games.show", game_id=game_id), in_game=True)
        # A scorer's second tap. The form's number is the hand to undo, not an entry's.
        return to_check(replay, NEXT_HAND, check, entry={})
    try:
        hand = undo_last_hand(get_session(), replay, number, form.revision.data, actor())
    except (NotTheLastHand, GameChanged):
        return _not_undone(replay, form.number.data)
    return _undone(load_replay(get_session(), replay.game), hand,
                   _("Hand %(number)s undone.", number=hand.number))


def _undone(fresh: Replay, hand, notice: str):
    """The game without the hand undone, which is back in the entry as it was recorded:
    a table undoes a hand to put one thing right, then records it again (as the phone
    does with a hand it kept, offline.js). A plain form's page has it in its address."""
    dealer = fresh.state.next_dealer  # the undone hand is the next again, dealt as it was
    entry = draft_from_deal(dealer, fresh.rules.team_names, deal_from_hand(hand)).fields()
    entry["number"] = str(hand.number)
    return done(fresh, notice, after=fresh, entry=entry)


def _not_undone(replay: Replay, number: int):
    """Hand ``number`` was not undone: undone already (a double tap), or the game changed."""
    get_session().rollback()
    fresh = load_replay(get_session(), replay.game)
    undone = last_undone_hand(get_session(), fresh)
    if undone is not None and undone.number == number:
        return _undone(fresh, undone, _("Hand %(number)s is undone already.", number=number))
    return refused(fresh, _("Hand %(number)s was not undone: the game changed on another "
                            "phone after this page was shown. Here it is as it stands.",
                            number=number), 409, keep_draft=False)


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
        hand = bring_back_hand(get_session(), replay, form.hand_id.data, form.revision.data,
                               actor())
    except AlreadyBack as back:
        return refused(replay, _("Hand %(number)s is back already.", number=back.number),
                       409, keep_draft=False)
    except GameChanged:
        return refused(replay, _("That hand can't be brought back: the game has changed "
                                 "since it was undone."), 409, keep_draft=False)
    except RuleViolation as violation:
        return refused(replay, violation_message(violation), 422, keep_draft=False)
    return done(replay, _("Hand %(number)s is back.", number=hand.number))


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
        confirm_hand(get_session(), replay, number, form.revision.data, actor())
    except AlreadyConfirmed as already:
        return done(replay, _("Hand %(number)s was confirmed already, by team %(team)s.",
                              number=number, team=already.team))
    except CannotConfirm as cannot:
        return refused(replay, refusal(cannot.why, number), 409, keep_draft=False)
    except GameChanged:
        get_session().rollback()
        return _confirmed_meanwhile(replay, number)
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


def _confirmed_meanwhile(replay: Replay, number: int):
    """The game changed while the confirmation was on its way: confirmed by another
    phone first (said so), or changed otherwise (nothing written)."""
    fresh = load_replay(get_session(), replay.game)
    hand = next((h for h in fresh.hands if h.number == number), None)
    if hand is not None and hand.confirmed:
        return done(fresh, _("Hand %(number)s was confirmed already, by team %(team)s.",
                             number=number, team=hand.confirmed_team))
    return _changed(fresh)
