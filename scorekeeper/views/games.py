"""Games: the list, starting a new one, and the game page."""
from __future__ import annotations

from flask import (
    Blueprint, Response, abort, after_this_request, make_response, redirect, render_template,
    request, url_for,
)
from flask_babel import format_date, gettext as _, ngettext
from markupsafe import Markup
from wtforms.fields.choices import SelectChoice

from scorekeeper.clubs.access import SCORER, can, change_author, current_device, current_member
from scorekeeper.figures.balancing import Balanced, balance_seats, rated_players
from scorekeeper.figures.charts import score_chart
from scorekeeper.figures.summaries import game_counts
from scorekeeper.figures.teams import BEST, nothing_to_go_on
from scorekeeper.rules import teams_for
from scorekeeper.store.db import close_session, get_connection, get_session
from scorekeeper.store.models import Club, Evening, Game, utcnow
from scorekeeper.store.replay import Replay, load_replay, load_replays, recent_changes
from scorekeeper.store.rosters import club_row, roster
from scorekeeper.table.attendance import next_planned
from scorekeeper.table.evenings import (
    current_evening, evening_games, is_past_game, new_evening, open_after_its_day,
)
from scorekeeper.table.live import (
    POLL_SECONDS, EveningHead, GameHead, Poll, PollView, game_head, note_draft, shared_draft,
)
from scorekeeper.table.waiting import first_look, held
from scorekeeper.table.seating import name_problems, start_game
from scorekeeper.text.names import typed
from scorekeeper.views.evenings import who_is_coming
from scorekeeper.views.lookup import current_club, replay_or_404
from scorekeeper.views.page_cache import (
    NOTHING_ASKED, Asked, board_key, drawn_once, keep_game_page, keep_poll_answer,
    kept_game_page, kept_poll_answer, page_key,
)
from scorekeeper.views.boards import render_board, table_head, unchanged_poll
from scorekeeper.table.entry import Mode
from scorekeeper.views.pages import (
    RECENT_CHANGES, Said, build_game, render_game, render_game_part,
    render_other_phone, render_page, render_recorded, wants_fragment,
)
from scorekeeper.web.aside import aside
from scorekeeper.web.assets import YEAR
from scorekeeper.web.forms import NEW_EVENING, NewGameForm, all_errors, new_game_form
from scorekeeper.web.words import change_sentence, verdict_sentence, violation_message
from scorekeeper.web.allow import Allow, allow
from sqlalchemy import bindparam, func
from sqlalchemy.engine import Connection
from sqlmodel import select

bp = Blueprint("games", __name__)

RECENT_GAMES = 30


# The club's newest game (0: none yet), what the home page's poll compares: one indexed
# read, built once (each process's watch asks it four times a second).
_NEWEST_GAME = (select(func.coalesce(func.max(Game.id), 0))
                .where(Game.club_id == bindparam("club_id")))


def newest_game(connection: Connection, club_id: int) -> int:
    return connection.execute(_NEWEST_GAME, {"club_id": club_id}).scalar_one()


@bp.get("/")
@allow(Allow.FRONT)
def index():
    """The club's recent games and a way to start one, following the club's games."""
    session = get_session()
    club = current_club(session)
    # Read before the games: one started between the two reads is then newer than the
    # page says, and the next poll brings it (read after, it would never come).
    newest = newest_game(get_connection(), club.id)
    games = session.exec(
        select(Game).where(Game.club_id == club.id).order_by(Game.id.desc()).limit(RECENT_GAMES)
    ).all()
    # Tonight's or the next planned evening, with this member's own answer to give (on
    # the whole page: a poll's answer is the games alone).
    fragment = wants_fragment()
    evening = None if fragment else next_planned(session, club.id, utcnow().date())
    coming = who_is_coming(evening, evening_games(session, evening)) if evening else {}
    return render_page("index.html", block="games" if fragment else None,
                       replays=load_replays(session, games), verdict_sentence=verdict_sentence,
                       live_url=url_for("games.index_live", v=newest, wait=1),
                       poll_every=POLL_SECONDS,
                       next_evening=evening if coming.get("answers") else None, **coming)


@bp.get("/live")
@allow(Allow.READ)
def index_live():
    """The home page's poll: 204 while the club has no newer game than the page lists;
    else tonight's game just started, or the games listed again."""
    club_id = current_member().club_id
    shown = request.args.get("v", type=int)

    def read(connection) -> int:
        return newest_game(connection, club_id)

    newest = held(("club", club_id), read(get_connection()), read, lambda new: new == shown)
    if newest == shown:
        return unchanged_poll()
    return aside(lambda: _tonights_game_started(newest) or index())


def _tonights_game_started(game_id: int) -> Response | None:
    """A home page goes to tonight's game once a scorer starts it, as a phone left on a
    finished game goes to the next (a whole page: the game has its own address, and the
    home page stays in the phone's history). None: another game (one imported, say)."""
    session = get_session()
    game = session.get(Game, game_id)
    tonight = current_evening(session, current_club(session))
    if game is None or tonight is None or game.evening_id != tonight.id:
        return None
    replay = load_replay(session, game)
    if replay.state.finished or game.abandoned_at is not None:
        return None
    moved = unchanged_poll()
    moved.headers["HX-Redirect"] = url_for("games.show", game_id=game_id)
    return moved


def _teams_preview(form: NewGameForm) -> list[tuple[str, list[tuple[int, str]]]]:
    names = dict(enumerate(form.names(), start=1))
    return [
        (team, [(seat, (names.get(seat) or "").strip()) for seat in seats])
        for team, seats in teams_for(form.layout).items()
    ]


def _seat_form(form: NewGameForm, names: list[str], chairs: tuple[int, ...]) -> None:
    """Put the players in the seats balancing chose, the first dealer chosen staying
    the same player."""
    for field, player in zip(form.seat_fields(), chairs):
        field.data = names[player]
    dealer = form.dealer()
    if dealer is not None:
        form.first_dealer.data = str(chairs.index(dealer - 1) + 1)


def _balance(form: NewGameForm, problems: list) -> Response:
    """"Balance the teams" or one of the next best splits tapped: the page again with the
    seats filled, nothing stored (the game starts with "Start the game")."""
    messages = [violation_message(p) for p in problems] + form.balancing_errors()
    session = get_session()
    names = form.names()  # players are their places in this list, 0 to 5
    rated = {} if messages else rated_players(session, current_club(session), names)
    if not messages and form.balance.data == BEST and nothing_to_go_on(rated):
        return _render_new(form, unrated=True)  # every split alike: the seats stay
    balanced = None if messages else balance_seats(names, form.layout, form.balance.data,
                                                   rated)
    if balanced is None:
        messages = messages or [_("Choose one of the splits offered.")]
        bad_seats = {p.params["seat"] for p in problems if "seat" in p.params}
        return _render_new(form, messages, 422, bad_seats)
    _seat_form(form, names, balanced.chairs)
    return _render_new(form, balanced=balanced)


def _render_new(form: NewGameForm, messages=(), status: int = 200, bad_seats=frozenset(),
                balanced: Balanced | None = None, unrated: bool = False):
    session = get_session()
    return render_page(
        "new_game.html", status=status, form=form, messages=list(messages),
        bad_seats=bad_seats, balanced=balanced, unrated=unrated,
        roster=roster(session, current_club(session)), teams_preview=_teams_preview(form),
        oob=wants_fragment(),  # the teams refreshed as names are typed: the dealers' too
        # Another layout chosen: the table's seats and its dealers' choices too.
        reseat=wants_fragment() and request.headers.get("HX-Trigger-Name") == "teams",
    )


def _earlier_evening(club: Club, asked: str | None, tonight: Evening | None
                     ) -> Evening | None:
    """The club's evening the form names, if a game may be recorded into it after its
    day (``open_after_its_day``: one already played, from paper), tonight's aside."""
    session = get_session()
    evening = club_row(session, club.id, Evening, int(asked)) \
        if asked and asked.isdecimal() else None
    if evening is None or (tonight is not None and evening.id == tonight.id):
        return None
    return evening if open_after_its_day(session, evening, utcnow().date()) else None


def _offer_evenings(form: NewGameForm, tonight: Evening | None,
                    earlier: Evening | None) -> None:
    """Tonight's evening first, if there is one; then the earlier evening asked for, if
    any; then a new evening."""
    counts = game_counts(get_session(), [evening.id for evening in (tonight, earlier) if evening])
    choices = []
    if tonight is not None:
        choices.append(SelectChoice(str(tonight.id), ngettext(
            "Tonight's evening (%(day)s, %(num)s game so far)",
            "Tonight's evening (%(day)s, %(num)s games so far)",
            counts[tonight.id], day=format_date(tonight.played_on))))
    if earlier is not None:
        choices.append(SelectChoice(str(earlier.id), ngettext(
            "The evening of %(day)s (%(num)s game so far)",
            "The evening of %(day)s (%(num)s games so far)",
            counts[earlier.id], day=format_date(earlier.played_on))))
    choices.append(SelectChoice(NEW_EVENING, _("A new evening") if tonight
                                else _("A new evening, today")))
    form.evening.choices = choices
    values = [choice.value for choice in choices]
    if form.evening.data is None or (request.method != "POST"
                                     and form.evening.data not in values):
        form.evening.data = values[0]  # the usual answer, ticked already


@bp.route("/games/new", methods=["GET", "POST"])
@allow(Allow.SCORE)
def new():
    """Seat four, five or six players, choose the teams, house rules, the first dealer
    and the evening."""
    form = new_game_form(formdata=request.form if request.method == "POST" else request.args or None)
    session = get_session()
    club = current_club(session)
    tonight = current_evening(session, club)
    earlier = _earlier_evening(club, form.evening.data, tonight)
    _offer_evenings(form, tonight, earlier)
    if request.method != "POST":  # GET and HEAD: a look, never a submission
        return _render_new(form)
    # Every problem at once, so a clumsy form is put right in one go.
    form.validate()
    problems = name_problems(form.names(), form.layout.seats)
    if form.balance.raw_data:  # a balancing button: seats the players, starts nothing
        return _balance(form, problems)
    if form.errors or problems:
        messages = [violation_message(p) for p in problems] + all_errors(form)
        bad_seats = {p.params["seat"] for p in problems if "seat" in p.params}
        return _render_new(form, messages, 422, bad_seats)
    if form.evening.data == NEW_EVENING:
        evening = new_evening(club, utcnow().date(), form.place.data or "", form.note.data or "")
    else:
        evening = earlier if earlier and form.evening.data == str(earlier.id) else tonight
    game = start_game(session, club, form.names(), form.house_rules(), form.dealer(), evening,
                      form.table.data or 1)
    return redirect(url_for("games.show", game_id=game.id), 303)


@bp.get("/games/<int:game_id>")
@allow(Allow.READ)
def show(game_id: int):
    """The game: scores, the hand being entered, the history."""
    arrival = None
    if not wants_fragment():  # the page opened (not a step of a hand being entered)
        arrival = _arrival_notice(game_id)
        _stays_if_left_behind(game_id)
    asked = kept_game_page(game_id) if arrival is None else NOTHING_ASKED
    if asked.kept is not None:
        return asked.kept
    replay = replay_or_404(game_id)
    if can(SCORER) and request.htmx:
        # For the phones watching. Only the page's own steps (sent in the background as
        # each choice is made): a link from elsewhere can't carry htmx's header, so it
        # can't plant a hand in progress.
        device = current_device()
        note_draft(get_session(), replay, request.args, device.id if device else None,
                   request.args.get("step", 0, type=int))
    page = build_game(replay, said=Said(notice=arrival))
    response = render_game(page)
    keep_game_page(asked, page_key(replay, page.key), response)
    return response


@bp.get("/games/<int:game_id>/live")
@allow(Allow.READ)
def live(game_id: int):
    """A phone's poll: 204 while the game is as it shows it, else the new page part; a
    game page whose table has moved on to the evening's next game goes there."""
    # Every phone asks: one small read, no ORM objects, no replay; held while the game
    # is as the page shows it (table/waiting.py).
    club_id = current_member().club_id
    device = current_device()
    poll = Poll.read(request.args, can(SCORER), device.id if device else None)
    following = request.args.get("view", "game") == "game"  # never a correction, nor a board

    def read(connection) -> GameHead | None:
        return game_head(connection, club_id, game_id)

    def nothing_new(head: GameHead) -> bool:
        return poll.unchanged(head) and not (following and _may_move(head))

    key = ("game", club_id, game_id)
    head = held(key, first_look(key, read, nothing_new), read, nothing_new)
    if head is None:
        abort(404)
    if nothing_new(head):
        return unchanged_poll()
    # Something moved: the answer is drawn aside, never in another poll's way, and once
    # for the phones of the table woken with this one (none keeps a connection meanwhile).
    close_session()
    with drawn_once(head, poll.may_be_kept(head.revision)):
        return aside(lambda: _poll_answer(club_id, head, poll, following))


def _poll_answer(club_id: int, head: GameHead, poll: Poll, following: bool) -> Response:
    """A poll's answer once its game or its table moved: the table's next game, the
    kept answer, or the new page part (or board) drawn."""
    if following:
        moved = _follow_the_table(head)
        if moved is not None:
            return moved
    if poll.unchanged(head):
        return unchanged_poll()
    table = (table_head(club_id, head.evening_id, head.table_number)
             if poll.view == PollView.BOARD else None)  # read before the game, as a board's must be
    asked = NOTHING_ASKED
    if poll.may_be_kept(head.revision):
        # The second phone to catch up on a change gets the first one's answer.
        asked = kept_poll_answer(head, poll.view, notice=poll.tells_change(head.revision),
                                 one_behind=poll.one_behind(head.revision), table=table)
        if asked.kept is not None:
            return asked.kept
    replay = replay_or_404(head.id)
    if poll.view == PollView.BOARD:
        return _board_changed(replay, table, asked)
    return _game_changed(replay, poll, asked)


def _board_changed(replay: Replay, table: EveningHead | None, asked: Asked) -> Response:
    """A board's poll once its game or its table moved, answered from the game as loaded
    after its table's head (``table``)."""
    seq = shared_draft(get_session(), replay).seq
    key = board_key(replay, seq, table) if asked.head else None
    response = render_board(replay, head=table)
    keep_poll_answer(asked, key, response)
    return response


def _game_changed(replay: Replay, poll: Poll, asked: Asked) -> Response:
    """A game page's poll once the game (or another phone's entry) moved, answered from
    the game as loaded: more may have changed since its head was read."""
    revision = replay.game.revision
    if poll.other_phone_only(revision):
        # Only another phone's entry moved: say so, and leave this phone's entry be.
        return render_other_phone(build_game(replay, source={}))
    changed = recent_changes(get_session(), replay.game.id, 1)
    notice = None
    if changed and not poll.same_game(revision):
        change = changed[0]
        # (Which device, to owners only: the answer is kept for this role alone.)
        who = typed(change_author(change.who)) if change.who else _("The command line")
        notice = Markup("%s: %s") % (who, change_sentence(change))
    # A scorer's page gets its own entry back if it is still for the next hand.
    page = build_game(replay, source=None if poll.watching else {}, said=Said(notice=notice))
    response = None
    if poll.recorded_only(revision, changed[0] if changed else None, len(replay.state.deals)):
        response = render_recorded(page)  # None where only the whole game will do
    if response is None:
        response = render_game_part(page)
    keep_poll_answer(asked, page_key(replay, page.key), response,
                     notice=poll.tells_change(revision), one_behind=poll.one_behind(revision))
    return response


# The phone's own word on which game pages stay put: the games it has seen its table
# leave, newest last (a few: the cookie stays small). A page of one of them is never
# moved on again: the Back button to it, or the game opened on purpose after the table
# left it. A cookie of its own, not the session (which a poll never sends back), and not
# signed: it moves or keeps this phone's own pages, nobody else's.
LEFT_COOKIE = "scorekeeper_left"
LEFT_KEPT = 12
# The move just made ("old.new"), for the new game's page to say, once.
MOVED_COOKIE = "scorekeeper_moved"
COOKIE_DAYS = 2  # an evening, and the morning after


def _cookie_games(name: str) -> list[int]:
    """The game numbers a cookie holds ("12.13"), anything else in it left out."""
    value = request.cookies.get(name, "")[:200]
    return [int(part) for part in value.split(".") if part.isdigit() and len(part) < 11]


def _set_cookie(response: Response, name: str, value: str, seconds: int) -> Response:
    """A cookie for the games' pages and their polls only (made HttpOnly, SameSite and
    Secure as every cookie is, by ``security``)."""
    response.set_cookie(name, value, max_age=seconds, path=f"{request.script_root}/games/")
    return response


def _stay_on(game_id: int) -> None:
    """This phone stays on the game's page from now on, whatever its table does."""
    kept = [game for game in _cookie_games(LEFT_COOKIE) if game != game_id]
    value = ".".join(map(str, (kept + [game_id])[-LEFT_KEPT:]))
    after_this_request(lambda response: _set_cookie(response, LEFT_COOKIE, value,
                                                    COOKIE_DAYS * 24 * 3600))


def _stays_if_left_behind(game_id: int) -> None:
    """A game opened after its table moved on to a newer game is looked at on purpose:
    its page is never moved on."""
    head = game_head(get_connection(), current_member().club_id, game_id)
    if (head is not None and head.newer_game is not None
            and game_id not in _cookie_games(LEFT_COOKIE)):
        _stay_on(game_id)


def _follow_the_table(head: GameHead) -> Response | None:
    """A phone on a game that is over, whose table has moved on to the evening's next
    game, goes to that game (and is told so there); None: it stays.

    Asked once per phone and game, the game replayed only then: the phone is moved, or
    stays for good (a game the table left unfinished keeps whoever is on it). Every poll
    after that is the usual small read. A whole page (``HX-Redirect``), not a part swapped
    in: the new game has its own address, title, language links and what the phone keeps
    of it; and the address the phone leaves stays in its history, for the Back button.
    """
    if not _may_move(head):
        return None
    replay = replay_or_404(head.id)
    _stay_on(head.id)
    if not replay.state.finished and replay.game.abandoned_at is None:
        return None
    moved = unchanged_poll()
    newer = head.moved_on_to()
    moved.headers["HX-Redirect"] = url_for("games.show", game_id=newer)
    return _set_cookie(moved, MOVED_COOKIE, f"{head.id}.{newer}", 60)


def _may_move(head: GameHead) -> bool:
    """Whether the table has moved on from the game to another, and this phone has not
    stayed on it for good."""
    return head.moved_on_to() is not None and head.id not in _cookie_games(LEFT_COOKIE)


def _arrival_notice(game_id: int) -> str | None:
    """On the page a phone was just moved to: where it came from, said once."""
    if MOVED_COOKIE not in request.cookies:
        return None
    moved = _cookie_games(MOVED_COOKIE)
    after_this_request(lambda response: _set_cookie(response, MOVED_COOKIE, "", 0))
    if len(moved) != 2 or moved[1] != game_id:
        return None
    return _("Game %(old)s is over and game %(new)s has started: you're on it now.",
             old=moved[0], new=game_id)


@bp.get("/games/<int:game_id>/chart.svg")
@allow(Allow.READ)
def chart(game_id: int):
    """The game's score chart as an image, kept by the phone while the game is as it was."""
    return chart_picture(replay_or_404(game_id))


def chart_picture(replay: Replay) -> Response:
    """The game's score chart (404 before its first hand), kept by the browser forever
    where its address names the game's revision."""
    if not replay.state.deals:
        abort(404)
    response = make_response(render_template("chart.svg", chart=score_chart(replay)))
    response.mimetype = "image/svg+xml"
    if request.args.get("v") == str(replay.game.revision):
        # The address names the revision (and the language): it shows this forever.
        response.headers["Cache-Control"] = f"private, max-age={YEAR}, immutable"
    else:
        response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/games/<int:game_id>/board")
@allow(Allow.READ)
def board(game_id: int):
    """The scoreboard for a tablet or TV in the middle of the table."""
    club_id = current_member().club_id
    game = game_head(get_connection(), club_id, game_id)  # its table, found without loading it
    if game is None:
        abort(404)
    table = table_head(club_id, game.evening_id, game.table_number)  # before the game
    return render_board(replay_or_404(game_id), head=table)


@bp.get("/games/<int:game_id>/hands/<int:number>/edit")
@allow(Allow.SCORE)
def edit_hand(game_id: int, number: int):
    """The game page with a past hand open for correction."""
    replay = replay_or_404(game_id)
    if not 1 <= number <= len(replay.hands):
        abort(404)
    if is_past_game(get_session(), replay):
        return render_game(build_game(replay, said=Said(message=_(
            "This game's evening is closed: the game is kept as it was and can't be "
            "changed."))))
    return render_game(build_game(replay, Mode.correcting(number)))


@bp.get("/games/<int:game_id>/changes")
@allow(Allow.READ)
def changes(game_id: int):
    """Every change to the game, newest first: who, when, and the scores it moved."""
    replay = replay_or_404(game_id)
    if wants_fragment() and request.htmx.target == "latest-changes":
        # The game page's log, opened: only the latest, as the page's own part.
        return render_template("_latest_changes.html", change_sentence=change_sentence,
                               changes=recent_changes(get_session(), game_id, RECENT_CHANGES))
    return render_page("changes.html", game=replay.game,
                       changes=recent_changes(get_session(), replay.game.id),
                       change_sentence=change_sentence)
