"""The game page: one template, one context, whole page or one block of it.

Every view that shows a game builds it with ``build_game`` (in a ``Mode``: the next
hand, a past hand corrected, a forgotten hand put in), once, and sends one of its
answers: the whole page or the step of a hand htmx asked for (``render_game``), the game
part (``render_game_part``), what a hand recorded changed (``render_recorded``), or
another phone's line (``render_other_phone``). So the full page and each htmx fragment
are always built from the same context and can never drift apart; the page's
``PageKey`` says what it showed, for ``page_cache`` to keep it under.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial

from flask import (
    Response, current_app, get_flashed_messages, make_response, render_template, request,
    url_for,
)
from flask_babel import format_percent, gettext as _
from jinja2_fragments.flask import render_block, render_blocks
from markupsafe import Markup

from scorekeeper.clubs.access import SCORER, can, current_device
from scorekeeper.views.confirming import confirm_panel
from scorekeeper.figures.chances import win_chances
from scorekeeper.figures.charts import score_chart
from scorekeeper.rules import (
    CARD_POINTS, PASS, RuleViolation, SUITS, VerdictKind, carry_on,
    replay as replay_deals,
)
from scorekeeper.rules.needs import team_needs
from scorekeeper.store.db import get_session
from scorekeeper.figures.rounds import round_wanted
from scorekeeper.store.models import Evening
from scorekeeper.store.replay import Replay, deal_from_hand, load_replays, recent_changes
from scorekeeper.table.attendance import answers, here_tonight
from scorekeeper.table.corrections import plan_insert
from scorekeeper.table.draft import NOBODY, PASSED, TallyIncomplete
from scorekeeper.table.entry import NEXT_HAND, Entry, Fixing, Mode
from scorekeeper.table.evenings import evening_games, evening_state, tonight_tally
from scorekeeper.table.game_page import (
    TRUMP_FACTS, GameView, NewPartners, PageKey, Stale, game_time, game_view, in_play,
    names_for, new_partners_fields, next_game_fields, offline_state,
)
from scorekeeper.table.live import POLL_SECONDS, PollView, version
from scorekeeper.web.words import (
    fill, hand_preview, list_teams, need_sentence, point_name, signed, suit_name,
    verdict_sentence, violation_message,
)

RECENT_CHANGES = 5  # in the game page's log, once opened; the rest on its own change page

# The element id an htmx request targets -> the template block that answers it.
BLOCKS = {
    "game": "game", "hand-entry": "hand_entry", "teams-preview": "teams_preview",
}
# ... or the template included there, for a part that lives in an include.
PARTS = {"preview": "hand/preview.html"}


def wants_fragment() -> bool:
    """An htmx request that is not a boosted navigation gets just the block it targets.

    The Back button restoring a page htmx did not keep asks for the whole page.
    """
    return (bool(request.htmx) and not request.htmx.boosted
            and request.headers.get("HX-History-Restore-Request") != "true")


def render_page(template: str, status: int = 200, block: str | None = None, **context) -> Response:
    """The page, or (for htmx) the block named by the request's target."""
    if wants_fragment():
        part = PARTS.get(request.htmx.target or "")
        if block is None and part and template == "game.html":
            return make_response(render_template(part, **context), status)
        name = block or BLOCKS.get(request.htmx.target or "", None)
        # A target this page has no block for (another page's id) gets the whole page.
        if name and name in current_app.jinja_env.get_template(template).blocks:
            return make_response(render_block(template, name, **context), status)
    return make_response(render_template(template, **context), status)


def preview_of(replay: Replay, entry: Entry) -> tuple[str | None, str | None]:
    """(sentence, problem): what the hand would score, or what stops it being recorded.

    A point not chosen yet is no problem here: the page itself lists what is still to
    choose, on the phone, as each point is tapped.
    """
    draft = entry.draft
    if draft.step != "tally":
        return None, None
    if draft.unreadable:
        return None, violation_message(draft.unreadable[0])
    try:
        deal = draft.to_deal()
    except TallyIncomplete:
        return None, None
    except RuleViolation as violation:
        return None, violation_message(violation)
    try:
        if entry.inserting:
            state = plan_insert(replay, entry.number, deal).after
        elif entry.editing:
            deals = [deal_from_hand(h) for h in replay.hands]
            deals[entry.number - 1] = deal
            state = replay_deals(replay.rules, replay.game.first_dealer, deals)
        else:
            state = carry_on(replay.state, [deal])  # the next hand: played on from here
    except RuleViolation as violation:
        return None, violation_message(violation)
    result = state.deals[entry.number - 1]
    sentence = hand_preview(result)
    if not entry.editing and result.verdict.finished:
        sentence += " " + fill(_("This ends the game: %(reason)s"),
                               reason=verdict_sentence(result.verdict))
    elif not entry.editing and result.verdict.kind is VerdictKind.TIE_PLAY_ON:
        sentence += " " + verdict_sentence(result.verdict)
    return sentence, None


@dataclass(frozen=True)
class Check:
    """A correction's consequences, shown before it is made, and the form that makes it."""

    heading: str
    sentences: list
    action: str
    fields: list[tuple[str, str]]
    cancel_url: str
    in_game: bool = False  # on the game page (htmx swaps the game), or a page of its own


def game_over_new_partners(replay: Replay) -> NewPartners | None:
    """For the game-over card: the evening's next game with new partners, while the
    evening goes on (None for a game of no evening, or of one that is over)."""
    session = get_session()
    evening = session.get(Evening, replay.game.evening_id) if replay.game.evening_id else None
    if evening is None or evening_state(session, evening).over:
        return None
    replays = load_replays(session, evening_games(session, evening))
    here = here_tonight(session, evening, replays, answers(session, evening).coming).here
    return replace(new_partners_fields(replay, replays), next_round=url_for(
        "evenings.show", evening_id=evening.id, _anchor="next-round")
        if round_wanted(here, replay.names.values()) else None)


@dataclass(frozen=True)
class Chances:
    """Each team's chance to win from here, in whole per cent, and the sentence saying it."""

    shares: dict[str, int]
    sentence: Markup


def shown_chances(replay: Replay, past: bool) -> Chances | None:
    """The chances the game page shows; none once there is nothing left to play for, nor
    while the target is too far off to tell."""
    if not in_play(replay, past):
        return None
    shares = win_chances(get_session(), replay)
    if shares is None:
        return None
    # (Each part isolated by list_teams; the letter never wrapped away from its figure.)
    parts = tuple(f"{team}\u00a0{format_percent(share / 100)}" for team, share in shares.items())
    return Chances(shares, fill(_("Chances to win from here: %(chances)s."),
                                chances=list_teams(parts)))


def shown_needs(replay: Replay, past: bool) -> tuple[Markup, ...]:
    """What each team needs to go out in the next hand, a sentence each; none while no
    team can go out in it, or once there is nothing left to play for."""
    if not in_play(replay, past):
        return ()
    needs = team_needs(replay.rules, replay.state.scores)
    if not any(need.can_go_out for need in needs):
        return ()
    return tuple(need_sentence(need) for need in needs)


def _flashed_notice() -> str | None:
    """A notice left by the change a plain (no-JS) form just made, before its redirect."""
    notices = get_flashed_messages(category_filter=["notice"])
    return Markup(" ").join(notices) or None  # each may hold a typed name's markup


@dataclass(frozen=True)
class GamePage:
    """The game page built once: everything it shows, and what decides how it answers."""

    replay: Replay
    context: dict
    key: PageKey
    entry_url: str
    stale: bool = False  # the step asked for is out of date: the whole game answers
    forget_step: bool = False  # and its address is not the one to keep


@dataclass(frozen=True)
class Said:
    """What the page says above the game (``message``, ``notice``) and beside Record
    (``problem``, ``problem_point``'s choice marked)."""

    message: str | None = None
    notice: str | None = None
    problem: str | None = None
    problem_point: str | None = None


def _said(view: GameView, said: Said) -> tuple[Said, bool]:
    """(said, overtaken): what the page says of the entry as the request carried it, of a
    problem with no Record to show it beside, and of a link partly unread. ``overtaken``:
    the page says the hand on its way was recorded since (the phone may say it instead,
    where it kept its own entry for that hand, and drops this line then)."""
    overtaken = view.stale is Stale.STEP and said.message is None
    if overtaken:
        said = replace(said, message=_("That page was for a hand that has been recorded "
                                       "since. Here is the game as it stands."))
    elif view.stale is Stale.GAME and said.notice is None:
        said = replace(said, notice=_("The game was changed on another phone; the scores "
                                      "are as they stand now."))
    state = view.replay.state
    if said.problem and said.message is None and (
            view.past or (state.finished and view.mode.next_hand)):
        # No Record to show it beside: the game is over.
        said = replace(said, message=said.problem, problem=None)
    if view.entry.draft.problems and said.message is None and said.problem is None \
            and not view.watching:
        # (A watcher's page shows another phone's entry: its link is not the watcher's.)
        said = replace(said, message=_("Part of that link could not be read, so it was "
                                       "left out: check the hand and carry on."))
    return said, overtaken


def _urls(replay: Replay, mode: Mode) -> tuple[str, str]:
    """(the entry's own address, where its form is sent)."""
    game_id = replay.game.id
    if mode.fixing is Fixing.INSERTING:
        return (url_for("corrections.insert_form", game_id=game_id, before=mode.number),
                url_for("corrections.insert", game_id=game_id))
    if mode.next_hand:
        return url_for("games.show", game_id=game_id), url_for("hands.record", game_id=game_id)
    return (url_for("games.edit_hand", game_id=game_id, number=mode.number),
            url_for("hands.save", game_id=game_id, number=mode.number))


def build_game(replay: Replay, mode: Mode = NEXT_HAND, *, source=None, said: Said = Said(),
               conflict: dict | None = None, check=None) -> GamePage:
    """The game page for ``replay`` in ``mode``, its entry holding the draft from
    ``source`` (None: the request's address), built once for whichever answer is sent:
    the model read (``table.game_page``), what the page says, its context, its key."""
    device = current_device()
    view = game_view(get_session(), replay, mode, request.args if source is None else source,
                     watching=not can(SCORER), device_id=device.id if device else None)
    said, overtaken = _said(view, said)
    entry_url, save_url = _urls(replay, mode)
    context = _context(view, said, conflict=conflict, check=check, entry_url=entry_url,
                       save_url=save_url, other_phone=view.shown.other_phone,
                       overtaken=overtaken,
                       live_url=_live_url(replay, mode, view.shown.followed))
    return GamePage(replay, context, view.key, entry_url,
                    stale=view.stale is not Stale.FRESH, forget_step=view.stale is Stale.STEP)


def _live_url(replay: Replay, mode: Mode, followed: int | None) -> str:
    """The page's poll: a correction follows the game alone (another phone's next hand
    is not its business)."""
    return url_for("games.live", game_id=replay.game.id,
                   v=version(replay.game.revision, followed),
                   view=PollView.GAME if mode.next_hand else PollView.CORRECTION, wait=1)


def _context(view: GameView, said: Said, **shown) -> dict:
    """What game.html is rendered with (``shown``: the page's own parts besides)."""
    replay, entry, past = view.replay, view.entry, view.past
    state = replay.state
    session = get_session()
    sentence, preview_problem = preview_of(replay, entry)
    return dict(
        replay=replay, game=replay.game, state=state, names=names_for(replay, entry),
        teams=replay.rules.team_seats, entry=entry, draft=entry.draft,
        preview=sentence, preview_problem=preview_problem,
        problem=said.problem, problem_point=said.problem_point,
        verdict=verdict_sentence(state.verdict),
        message=said.message, notice=said.notice or _flashed_notice(),
        restorable=view.restorable, evening=view.evening,
        # Read only where the page shows it (not for each step of a hand being entered).
        tonight=partial(tonight_tally, session, replay),
        chances=partial(shown_chances, replay, past),
        needs=partial(shown_needs, replay, past),
        next_game=next_game_fields(replay),
        new_partners=partial(game_over_new_partners, replay),
        game_time=partial(game_time, replay),
        chart=score_chart(replay) if state.deals else None,
        past=past, watching=view.watching,
        # A viewer seated at the table confirms too: only a game kept as it was can't.
        read_only=view.kept_as_is or view.watching,
        confirming=confirm_panel(replay, view.evening, view.kept_as_is),
        poll_every=POLL_SECONDS,
        changes=recent_changes(session, replay.game.id, 1),  # any: its log is opened
        history=list(reversed(state.deals)), hands=replay.hands,
        bids=replay.rules.bids, PASS=PASS, PASSED=PASSED, NOBODY=NOBODY, suits=SUITS,
        card_points=CARD_POINTS, trump_facts=TRUMP_FACTS,
        suit_name=suit_name, point_name=point_name, signed=signed,
        offline_state=partial(offline_state, replay), **shown,
    )


def _answer(page: GamePage, block: str | None, status: int) -> Response:
    """The page, or the block of it htmx asked for (``block``: this one)."""
    if page.stale and block is None and wants_fragment():
        block = "game"  # the whole game, not just the step this request asked for
    response = render_page("game.html", status=status, block=block, **page.context)
    if block == "game" and wants_fragment() and request.htmx.target != "game":
        response.headers["HX-Retarget"] = "#game"
        response.headers["HX-Reswap"] = "outerHTML"
    if page.forget_step and wants_fragment():
        response.headers["HX-Push-Url"] = page.entry_url  # not the stale step's address
    return response


def render_game(page: GamePage, status: int = 200) -> Response:
    """The game page; for htmx, the part its request targets (a step of a hand: the
    entry, its preview)."""
    return _answer(page, None, status)


def render_game_part(page: GamePage, status: int = 200) -> Response:
    """The game part of the page (for htmx; the whole page for a plain form): the answer
    to a change made, refused, to be checked, or seen by a poll."""
    return _answer(page, "game", status)


# What a hand recorded changes on the page it was entered on, each part swapped in by its
# id: the scores and verdict, the next hand's entry (with the notice and the poll), the
# Undo and the chart, the hand's own row on top of the list, the evening so far.
RECORDED_PARTS = ["scores", "hand_entry", "hands_top", "new_deal", "tonight"]


def render_recorded(page: GamePage) -> Response | None:
    """The answer to a hand just recorded, for the page that showed the game just before
    it: only what the hand changed, so that it costs the same at hand 60 as at hand 2.

    None where only the whole game will do: the game over or tied (the page changes
    around it), its first hand (the list begins), or a game whose log begins only now.
    """
    replay = page.replay
    state = replay.state
    if state.verdict.kind is not VerdictKind.PLAYING or len(state.deals) < 2:
        return None
    if len(recent_changes(get_session(), replay.game.id, 2)) < 2:
        return None
    if page.stale:
        return render_game_part(page)
    html = render_blocks("game.html", RECORDED_PARTS, swap_oob=True, **page.context)
    return make_response(html, 200, {"HX-Reswap": "none"})


def render_other_phone(page: GamePage) -> Response:
    """For a scorer's poll when only another phone's entry moved: that phone's line and
    the poll itself, swapped in place (out of band), so the hand this phone is entering
    is left exactly as it is."""
    html = render_blocks("game.html", ["poller", "other_phone"], oob=True, **page.context)
    return make_response(html, 200, {"HX-Reswap": "none"})
