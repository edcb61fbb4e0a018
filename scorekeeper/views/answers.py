"""What a change to a game answers, for every form that changes one (a hand recorded or
corrected, a forgotten hand put in, a correction past one hand): done, refused and why,
a problem beside Record, a correction to check first. Every such form's view runs its
change with ``make_here`` (``table.changes``) and words the outcome.

A phone's script reads the verdict header: it forgets a hand it sent only on this
app's own word that the change was done or refused.
"""
from __future__ import annotations

from collections.abc import Mapping

from flask import Response, flash, redirect, request, url_for
from htmx_flask import make_response as htmx_response

from scorekeeper.clubs.access import actor
from scorekeeper.store.db import get_session
from scorekeeper.store.replay import Replay, load_replay
from scorekeeper.table.changes import Outcome, TableChange, make
from scorekeeper.table.draft import TallyIncomplete
from scorekeeper.table.entry import NEXT_HAND, Mode
from scorekeeper.views.pages import (
    Check, Said, build_game, render_game_part, render_recorded, wants_fragment,
)
from scorekeeper.web.words import still_to_choose, violation_message

# Says that an answer is this app's own verdict on a change (done, or refused and why):
# a phone sending a hand forgets it only then, never on a proxy's or a login page.
VERDICT = "X-Scorekeeper-Verdict"
# Sent by the phone's script with a hand: the revision of the game its page shows, where
# that page is the hand's own entry. Only such a page can take just what the hand changed.
SHOWS = "X-Scorekeeper-Shows"
# The game's revision after the answer: a phone sending the hands it kept offline sends
# each with the revision the answer to the one before it gave.
REVISION = "X-Scorekeeper-Revision"


def done(replay: Replay, notice: str, *, after: Replay | None = None,
         recorded_from: int | None = None, entry: dict[str, str] | None = None) -> Response:
    """After a change: a redirect for a plain form, the new game block for htmx.

    ``after``: the game as the change left it, when the change has it already (no need
    to read and replay it again). ``recorded_from``: a hand was just recorded from a page
    of that revision; if that is the page the answer goes to, it gets only what changed.
    ``entry``: a hand put back in the entry (an undone one): its fields, which a plain
    form's page has in its address.
    """
    game_url = url_for("games.show", game_id=replay.game.id)
    if not wants_fragment():
        flash(notice, "notice")  # shown by the page the redirect leads to
        return redirect(url_for("games.show", game_id=replay.game.id, **(entry or {})), 303)
    fresh = after or load_replay(get_session(), replay.game)
    page = build_game(fresh, source=entry or {}, said=Said(notice=notice))
    response = None
    if recorded_from is not None and request.headers.get(SHOWS) == str(recorded_from):
        response = render_recorded(page)
    if response is None:
        response = render_game_part(page)
    response.headers[VERDICT] = "done"
    response.headers[REVISION] = str(fresh.game.revision)
    return htmx_response(response, push_url=game_url)


def refused(replay: Replay, message, status: int, *, mode: Mode = NEXT_HAND,
            keep_draft: bool = True, problem: str | None = None,
            problem_point: str | None = None) -> Response:
    """The page again with the message; nothing was written.

    ``message`` may be a function of the game as it stands now, read afresh: after a
    conflict only that can say what happened (recorded by another phone, or changed).
    It gives the sentence and, where this phone's entry can be put in a hand recorded
    meanwhile, that hand's number and the link to do it. ``problem`` (what stops this
    hand being recorded) is shown beside Record instead.
    """
    get_session().rollback()
    fresh = load_replay(get_session(), replay.game)
    conflict = None
    if callable(message):
        message, conflict = message(fresh)
    source = dict(request.form.items()) if keep_draft else {}
    if keep_draft and status == 409:
        source.pop("revision", None)  # kept for the game as it is now: Record again
    said = Said(message=message, problem=problem, problem_point=problem_point)
    response = render_game_part(build_game(fresh, mode, source=source, said=said,
                                           conflict=conflict), status)
    if not keep_draft and request.htmx:
        # What is shown now is the game itself, not the step or correction that was open.
        response.headers["HX-Replace-Url"] = url_for("games.show", game_id=fresh.game.id)
    response.headers[VERDICT] = "refused"
    response.headers[REVISION] = str(fresh.game.revision)
    return response


def problem_beside_record(replay: Replay, violation: Exception, mode: Mode = NEXT_HAND
                          ) -> Response:
    """A hand that can't be recorded (or saved, or put in) as it is: kept on the page,
    the reason next to Record and beside the choice concerned."""
    if isinstance(violation, TallyIncomplete):
        return refused(replay, None, 422, mode=mode, problem=still_to_choose(violation.missing),
                       problem_point=violation.missing[0])
    point = violation.params.get("point")
    if violation.code.startswith("game_value"):
        point = "game"
    return refused(replay, None, 422, mode=mode, problem=violation_message(violation),
                   problem_point=point)


def to_check(replay: Replay, mode: Mode, check: Check, entry: Mapping | None = None) -> Response:
    """A correction whose consequences are shown before it is made, with Make it; the
    entry on the page is the one the form sent, or ``entry``."""
    source = request.form if entry is None else entry
    response = render_game_part(build_game(replay, mode, source=source, check=check))
    response.headers[VERDICT] = "check"
    return response


def make_here(replay: Replay, change: TableChange, revision: int | None) -> Outcome:
    """``make`` the change for this request: its member's phone, and whether its form is
    the second tap of a check."""
    return make(get_session(), replay, change, revision=revision, by=actor(),
                confirmed=request.form.get("confirm") == "y")
