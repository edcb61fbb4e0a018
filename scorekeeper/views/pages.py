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
from enum import Enum
from datetime import timedelta
from functools import partial
from typing import Sequence

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
    CARD_POINTS, BIDS, PASS, SEATS, RuleViolation, SUITS, Suit, VerdictKind, carry_on,
    replay as replay_deals,
)
from scorekeeper.rules.cards import left_bauer, trump_order
from scorekeeper.rules.needs import team_needs
from scorekeeper.rules.table import left_of
from scorekeeper.store.db import get_session
from scorekeeper.figures.rounds import TABLE
from scorekeeper.store.models import Evening, aware
from scorekeeper.store.replay import Replay, deal_from_hand, load_replays, recent_changes
from scorekeeper.table.attendance import answers, here_tonight
from scorekeeper.table.corrections import plan_insert
from scorekeeper.table.draft import (
    FIELDS, NOBODY, PASSED, HandDraft, TallyIncomplete, draft_from_deal, read_draft,
)
from scorekeeper.table.evenings import (
    evening_games, evening_state, is_past_game, new_partners, tonight_tally,
)
from scorekeeper.table.live import POLL_SECONDS, PollView, shared_draft, version
from scorekeeper.table.recording import last_undone_hand
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


class Fixing(Enum):
    """What the entry panel is for: the next hand, a past one corrected, or a forgotten
    one put in."""

    NEXT = "next"
    CORRECTING = "correcting"
    INSERTING = "inserting"


@dataclass(frozen=True)
class Mode:
    """Which hand the game page's entry holds: the next hand, hand ``number`` being
    corrected, or a forgotten hand being put in before hand ``number``."""

    fixing: Fixing = Fixing.NEXT
    number: int | None = None

    @classmethod
    def correcting(cls, number: int) -> Mode:
        return cls(Fixing.CORRECTING, number)

    @classmethod
    def inserting(cls, before: int) -> Mode:
        return cls(Fixing.INSERTING, before)

    @property
    def next_hand(self) -> bool:
        return self.fixing is Fixing.NEXT


NEXT_HAND = Mode()


@dataclass(frozen=True)
class Entry:
    """The hand on the entry panel: the next one, or one being edited."""

    number: int
    dealer_seat: int
    draft: HandDraft
    mode: Mode = NEXT_HAND

    @property
    def editing(self) -> bool:
        """A past hand: corrected, or (``inserting``) a forgotten one put in."""
        return not self.mode.next_hand

    @property
    def inserting(self) -> bool:
        return self.mode.fixing is Fixing.INSERTING

    @property
    def first_bidder(self) -> int:
        return left_of(self.dealer_seat)


def entry_for(replay: Replay, mode: Mode, source) -> Entry:
    """The entry panel's hand, with its draft read from ``source`` (query or form).

    A forgotten hand is dealt by the seat that dealt the hand it comes before.
    """
    teams = replay.rules.team_names
    state = replay.state
    if mode.fixing is Fixing.INSERTING:
        dealer = state.deals[mode.number - 1].dealer_seat
        return Entry(mode.number, dealer, read_draft(source, dealer, teams), mode)
    if mode.next_hand:
        draft = read_draft(source, state.next_dealer, teams)
        return Entry(state.next_number, state.next_dealer, draft)
    result = state.deals[mode.number - 1]
    if any(source.get(key) for key in FIELDS):  # a correction being made: what it says
        draft = read_draft(source, result.dealer_seat, teams)
    else:
        draft = draft_from_deal(result.dealer_seat, teams,
                                deal_from_hand(replay.hands[mode.number - 1]))
    return Entry(mode.number, result.dealer_seat, draft, mode)


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


@dataclass(frozen=True)
class TrumpFacts:
    """What the entry shows once a suit is trump: its order and its Left Bauer."""

    suit: Suit
    order: tuple[str, ...]
    left_bauer: str


TRUMP_FACTS = tuple(TrumpFacts(suit, trump_order(suit), left_bauer(suit)) for suit in SUITS)


def next_game_fields(replay: Replay) -> dict[str, str | int]:
    """The new-game form filled for the next game: same seats, rules and evening, and the
    deal going on to the left of the last dealer."""
    game = replay.game
    fields: dict[str, str | int] = {f"seat_{seat}": name for seat, name in replay.names.items()}
    fields.update(teams=game.teams, target=game.target, first_dealer=replay.state.next_dealer,
                  evening=game.evening_id or "new")
    if game.bidder_goes_out:
        fields["bidder_goes_out"] = "y"
    fields.update(table_arg(game.table_number))  # the next game at the same table
    return fields


def game_time(replay: Replay) -> timedelta | None:
    """How long the game has taken: from its start to its last hand (None: no hand yet)."""
    if not replay.hands:
        return None
    last = max(replay.hands, key=lambda hand: hand.number)
    return aware(last.recorded_at) - aware(replay.game.created_at)


def evening_time(replays: Sequence[Replay]) -> timedelta | None:
    """How long the evening has taken: from its first game's start to the last hand of
    any of its games (None: no hand yet)."""
    ends = [aware(replay.game.created_at) + taken for replay in replays
            if (taken := game_time(replay)) is not None]
    if not ends:
        return None
    return max(ends) - min(aware(replay.game.created_at) for replay in replays)


@dataclass(frozen=True)
class NewPartners:
    """The next game with new partners: the new-game form filled, and who sits with whom."""

    fields: dict[str, str | int]
    teams: list[tuple[str, list[str]]]  # each team's letter and its players, seat by seat
    # The evening's next round, where more are here than this table seats: what comes
    # next for them (sit-outs in turn, tables mixed), before this table's next game.
    next_round: str | None = None


def new_partners_fields(replay: Replay, replays: Sequence[Replay]) -> NewPartners:
    """The new-game form filled for "Next game, new partners": ``replay``'s six, rules and
    evening, partners rotated (``replays``: the evening's games so far); the next dealer
    (left of the last one) stays the same player."""
    fields = next_game_fields(replay)
    chairs = new_partners(replay, replays)
    fields.update({f"seat_{seat}": name for seat, name in zip(SEATS, chairs)})
    fields["first_dealer"] = chairs.index(replay.names[replay.state.next_dealer]) + 1
    teams = [(team, [chairs[seat - 1] for seat in seats])
             for team, seats in replay.rules.team_seats.items()]
    return NewPartners(fields, teams)


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
        "evenings.show", evening_id=evening.id, _anchor="next-round") if len(here) > TABLE else None)


@dataclass(frozen=True)
class Chances:
    """Each team's chance to win from here, in whole per cent, and the sentence saying it."""

    shares: dict[str, int]
    sentence: Markup


def in_play(replay: Replay, past: bool) -> bool:
    """Whether there is still something to play for: the game not won, abandoned or past."""
    return not (past or replay.state.finished or replay.game.abandoned_at is not None)


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


def offline_state(replay: Replay) -> dict:
    """What the phone needs to play on from here with no connection (static/offline.js):
    the game as the server has it now, its rules and seats. The phone's own arithmetic
    starts from this and never replaces it: the server's next answer does."""
    state = replay.state
    verdict = state.verdict
    return {
        "game": replay.game.id, "revision": replay.game.revision, "number": state.next_number,
        "rules": {"teams": str(replay.rules.teams), "target": replay.rules.target,
                  "bidderGoesOut": replay.rules.bidder_goes_out},
        "names": replay.names, "scores": state.scores, "nextDealer": state.next_dealer,
        # As the page says it (its target is the rules'): a throw-in on the phone keeps it.
        "verdict": {"kind": str(verdict.kind), "winner": verdict.winner,
                    "teams": list(verdict.teams), "score": verdict.score},
    }


def _flashed_notice() -> str | None:
    """A notice left by the change a plain (no-JS) form just made, before its redirect."""
    notices = get_flashed_messages(category_filter=["notice"])
    return Markup(" ").join(notices) or None  # each may hold a typed name's markup


@dataclass(frozen=True)
class PageKey:
    """What a game page (or part) showed, for page_cache to keep it under: the very
    values its render used. ``draft_seq`` None: a page holding this phone's own entry,
    which no other phone may get."""

    game_id: int
    revision: int
    draft_seq: int | None
    past: bool


@dataclass(frozen=True)
class Shown:
    """Where the entry's draft comes from and what the page's poll follows."""

    source: object  # the draft's fields (query, form or the hand in progress)
    followed: int | None = None  # the draft's number the page's poll follows
    kept_seq: int | None = None  # the one page_cache keeps the page under
    other_phone: HandDraft | None = None  # another phone's entry, told of


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


def _shown_draft(replay: Replay, mode: Mode, source, watching: bool) -> Shown:
    """The draft the entry holds. A watcher (no right to score) is shown the hand a
    scorer is entering, whatever the request's own address says. A scorer not entering
    one here gets back the hand this phone was entering (after a look at the rules, say),
    or is told of another phone's."""
    if watching:
        shared = shared_draft(get_session(), replay)
        return Shown(shared.args, shared.seq, shared.seq)
    source = request.args if source is None else source
    if not mode.next_hand or "number" in source:
        return Shown(source)
    device = current_device()
    device_id = device.id if device else None
    shared = shared_draft(get_session(), replay)
    other_phone = None
    if shared.is_from(device_id):
        source = shared.args  # this phone's own entry, back as it left it
    elif shared.args:
        other_phone = entry_for(replay, NEXT_HAND, shared.args).draft
    kept_seq = None if shared.is_by(device_id) else shared.seq
    return Shown(source, shared.followed_by(device_id), kept_seq, other_phone)


class Stale(Enum):
    """How out of date the entry a request carries is."""

    FRESH = "fresh"
    GAME = "game"  # entered on an older revision of the game: kept, the scores are now's
    STEP = "step"  # a step of a hand recorded since: dropped
    OVERTAKEN = "overtaken"  # the same, and the page says so (the phone may say it instead)


def _out_of_date(replay: Replay, mode: Mode, source, said: Said) -> tuple[object, Said, Stale]:
    """(source, said, how stale): the entry as it may still be offered, and what the
    page says of it."""
    shown = source.get("number")
    if shown is not None and shown != str(mode.number or replay.state.next_number):
        # A step of a hand that has been recorded since (the browser's Back button, or
        # another phone): its state must not be offered again as the next hand's.
        if said.message is None:
            # Said by the phone itself instead, where it kept its own entry for that hand
            # (with a way to put it in): the page's script drops this one then.
            said = replace(said, message=_(
                "That page was for a hand that has been recorded since. "
                "Here is the game as it stands."))
            return {}, said, Stale.OVERTAKEN
        return {}, said, Stale.STEP
    if source.get("revision") not in (None, str(replay.game.revision)):
        # Another phone changed the game meanwhile, but this hand is still the one to
        # enter: keep what was entered, and show the scores as they are now.
        if said.notice is None:
            said = replace(said, notice=_("The game was changed on another phone; the "
                                          "scores are as they stand now."))
        return source, said, Stale.GAME
    return source, said, Stale.FRESH


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
    ``source`` (None: the request's address), built once for whichever answer is sent."""
    watching = not can(SCORER)
    shown = _shown_draft(replay, mode, source, watching)
    source, said, stale = _out_of_date(replay, mode, shown.source, said)
    entry = entry_for(replay, mode, source)
    past = is_past_game(get_session(), replay)
    if said.problem and said.message is None and (
            past or (replay.state.finished and mode.next_hand)):
        # No Record to show it beside: the game is over.
        said = replace(said, message=said.problem, problem=None)
    if entry.draft.problems and said.message is None and said.problem is None \
            and not watching:
        # (A watcher's page shows another phone's entry: its link is not the watcher's.)
        said = replace(said, message=_("Part of that link could not be read, so it was "
                                       "left out: check the hand and carry on."))
    entry_url, save_url = _urls(replay, mode)
    context = _context(replay, entry, past, watching, said, conflict=conflict, check=check,
                       entry_url=entry_url, save_url=save_url, other_phone=shown.other_phone,
                       overtaken=stale is Stale.OVERTAKEN,
                       live_url=_live_url(replay, mode, shown.followed))
    key = PageKey(replay.game.id, replay.game.revision, shown.kept_seq, past)
    return GamePage(replay, context, key, entry_url, stale=stale is not Stale.FRESH,
                    forget_step=stale in (Stale.STEP, Stale.OVERTAKEN))


def _live_url(replay: Replay, mode: Mode, followed: int | None) -> str:
    """The page's poll: a correction follows the game alone (another phone's next hand
    is not its business)."""
    return url_for("games.live", game_id=replay.game.id,
                   v=version(replay.game.revision, followed),
                   view=PollView.GAME if mode.next_hand else PollView.CORRECTION, wait=1)


def _context(replay: Replay, entry: Entry, past: bool, watching: bool, said: Said,
             **shown) -> dict:
    """What game.html is rendered with (``shown``: the page's own parts besides)."""
    state = replay.state
    session = get_session()
    evening = session.get(Evening, replay.game.evening_id) if replay.game.evening_id else None
    sentence, preview_problem = preview_of(replay, entry)
    kept_as_is = past or replay.game.abandoned_at is not None
    read_only = kept_as_is or watching
    return dict(
        replay=replay, game=replay.game, state=state, names=_names_for(replay, entry),
        teams=replay.rules.team_seats, entry=entry, draft=entry.draft,
        preview=sentence, preview_problem=preview_problem,
        problem=said.problem, problem_point=said.problem_point,
        verdict=verdict_sentence(state.verdict),
        message=said.message, notice=said.notice or _flashed_notice(),
        restorable=last_undone_hand(session, replay), evening=evening,
        # Read only where the page shows it (not for each step of a hand being entered).
        tonight=partial(tonight_tally, session, replay),
        chances=partial(shown_chances, replay, past),
        needs=partial(shown_needs, replay, past),
        next_game=next_game_fields(replay),
        new_partners=partial(game_over_new_partners, replay),
        game_time=partial(game_time, replay),
        chart=score_chart(replay) if state.deals else None,
        past=past, watching=watching,
        # A viewer seated at the table confirms too: only a game kept as it was can't.
        read_only=read_only, confirming=confirm_panel(replay, evening, kept_as_is),
        poll_every=POLL_SECONDS,
        changes=recent_changes(session, replay.game.id, 1),  # any: its log is opened
        history=list(reversed(state.deals)), hands=replay.hands,
        bids=BIDS, PASS=PASS, PASSED=PASSED, NOBODY=NOBODY, suits=SUITS,
        card_points=CARD_POINTS, trump_facts=TRUMP_FACTS,
        suit_name=suit_name, point_name=point_name, signed=signed,
        offline_state=partial(offline_state, replay), **shown,
    )


def _names_for(replay: Replay, entry: Entry) -> dict[int, str]:
    """Who sits where for the hand the entry is about: the table now for the next hand,
    the players of that hand for a correction, and of the hand before it for a forgotten
    hand (a substitute who came in there moves one hand later)."""
    if entry.inserting:
        return replay.names_at(max(entry.number - 1, 1))
    return replay.names_at(entry.number)


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


def table_arg(table: int) -> dict:
    """A table's number in an address, where it is not the first (the only one, mostly)."""
    return {} if table == 1 else {"table": table}
