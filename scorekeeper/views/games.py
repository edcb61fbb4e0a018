"""Games: the list, starting a new one, and the game page."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from flask import (
    Blueprint, Response, abort, after_this_request, make_response, redirect, render_template,
    request, url_for,
)
from flask_babel import format_date, gettext as _, ngettext
from markupsafe import Markup
from wtforms.fields.choices import SelectChoice

from scorekeeper.assets import YEAR
from scorekeeper.charts import score_chart
from scorekeeper.clubs import roster
from scorekeeper.ratings import Rating, club_ratings
from scorekeeper.teams import (
    BEST, OFFERED, Balance, balance, most_even, nothing_to_go_on, read_seats_text, seated,
    seats_text, splits, team_sets, team_size,
)
from scorekeeper.db import get_connection, get_session
from scorekeeper.evenings import current_evening, evening_games, is_past_game, new_evening
from scorekeeper.forms import NEW_EVENING, NewGameForm, all_errors
from scorekeeper.ledger import load_tables, recent_changes
from scorekeeper.models import Evening, Game, utcnow
from scorekeeper.pages import (
    RECENT_CHANGES, render_board, render_game, render_other_phone, render_page,
    render_recorded, wants_fragment,
)
from scorekeeper.rules import SEATS, TeamLayout, teams_for
from scorekeeper.seating import name_problems, start_game
from scorekeeper.access import SCORER, can, change_author, current_device, current_member
from scorekeeper.live import GameHead, game_head, note_draft, shared_draft, version
from scorekeeper.page_cache import (
    board_key, keep_game_page, keep_poll_answer, kept_game_page, kept_poll_answer,
)
from scorekeeper.views.lookup import current_club, table_or_404
from scorekeeper.names import clean_name, name_key, typed
from scorekeeper.words import change_sentence, verdict_sentence, violation_message
from sqlmodel import select

bp = Blueprint("games", __name__)

RECENT_GAMES = 30


@bp.get("/")
def index():
    """The club's recent games and a way to start one."""
    session = get_session()
    club = current_club(session)
    games = session.exec(
        select(Game).where(Game.club_id == club.id).order_by(Game.id.desc()).limit(RECENT_GAMES)
    ).all()
    tables = load_tables(session, games)
    return render_page("index.html", tables=tables, verdict_sentence=verdict_sentence)


def _layout(form: NewGameForm) -> str:
    return form.teams.data if form.teams.data in {t.value for t in TeamLayout} else "3x2"


def _teams_preview(form: NewGameForm) -> list[tuple[str, list[tuple[int, str]]]]:
    names = dict(zip(SEATS, form.names()))
    return [
        (team, [(seat, (names.get(seat) or "").strip()) for seat in seats])
        for team, seats in teams_for(_layout(form)).items()
    ]


@dataclass(frozen=True)
class SeatedTeams:
    """A split as the page shows it: its teams in their seats (letter, names, chance to
    win) and the ``balance`` value that seats it ("14-25-36": seats of the page now)."""

    seats: str
    teams: list[tuple[str, list[str], float]]


@dataclass(frozen=True)
class Balanced:
    """The new-game page after "Balance the teams": the split seated, the two most even
    others, out of how many, and whether a new player was counted as one."""

    seated: SeatedTeams
    others: list[SeatedTeams]
    ways: int
    new_players: bool
    most_even: bool  # no split leaves the favourite a smaller chance (not so, once tapped)

    @property
    def chances(self) -> dict[str, float]:
        return {team: chance for team, _names, chance in self.seated.teams}


def _shown(option: Balance, chairs: Sequence[int], now: Sequence[int], names: list[str],
           layout: str) -> SeatedTeams:
    """The split seated so (``chairs``: the player in each seat), described with the
    seats the players have ``now``."""
    chance = {frozenset(team): odds for team, odds in zip(option.split, option.chances)}
    return SeatedTeams(
        seats_text(tuple(tuple(now.index(player) + 1 for player in team)
                         for team in option.split)),
        [(team, [clean_name(names[chairs[seat - 1]]) for seat in seats],
          chance[frozenset(chairs[seat - 1] for seat in seats)])
         for team, seats in teams_for(layout).items()])


def _rated(form: NewGameForm) -> dict[int, Rating]:
    """The ratings of the form's six that have one, by their places in its list (0 to 5)."""
    session = get_session()
    club = current_club(session)
    on_roster = {player.name_key: player.id for player in roster(session, club)}
    ratings = club_ratings(session, club.id)
    return {player: ratings[on_roster[name_key(name)]] for player, name in enumerate(form.names())
            if on_roster.get(name_key(name)) in ratings}


def _balance_seats(form: NewGameForm, rated: dict[int, Rating]) -> Balanced | None:
    """Seat the form's six players in the split its ``balance`` asks for: "best" (the
    most even) or seats to put together ("14-25-36"); moving as few players as can be,
    the first dealer chosen staying the same player. None if it asks for no split."""
    layout = _layout(form)
    names = form.names()  # players are their places in this list, 0 to 5
    here = tuple(range(len(SEATS)))
    # Taken in the order of their names, so that equally even splits come in the same
    # order whatever the seats.
    players = sorted(here, key=lambda player: name_key(names[player]))
    best = most_even(players, layout, rated, 1, here)[0]
    if form.balance.data == BEST:
        chosen = best
    else:
        wanted = read_seats_text(form.balance.data, layout)
        if wanted is None:
            return None
        chosen = balance(tuple(tuple(seat - 1 for seat in team) for team in wanted), rated)
    chairs = seated(chosen.split, layout, here)
    for field, player in zip(form.seat_fields(), chairs):
        field.data = names[player]
    dealer = form.dealer()
    if dealer is not None:
        form.first_dealer.data = str(chairs.index(dealer - 1) + 1)
    in_seats = team_sets(chosen.split)
    others = [option for option in most_even(players, layout, rated, chairs=chairs)
              if team_sets(option.split) != in_seats][:OFFERED - 1]
    return Balanced(
        _shown(chosen, chairs, chairs, names, layout),
        [_shown(option, seated(option.split, layout, chairs), chairs, names, layout)
         for option in others],
        len(splits(players, team_size(layout))), new_players=len(rated) < len(SEATS),
        most_even=max(chosen.chances) <= max(best.chances) + 1e-9)


def _balance(form: NewGameForm, problems: list) -> Response:
    """"Balance the teams" or one of the next best splits tapped: the page again with the
    seats filled, nothing stored (the game starts with "Start the game")."""
    messages = [violation_message(p) for p in problems] + form.balancing_errors()
    rated = {} if messages else _rated(form)
    if not messages and form.balance.data == BEST and nothing_to_go_on(rated):
        return _render_new(form, unrated=True)  # every split alike: the seats stay
    balanced = None if messages else _balance_seats(form, rated)
    if balanced is None:
        messages = messages or [_("Choose one of the splits offered.")]
        bad_seats = {p.params["seat"] for p in problems if "seat" in p.params}
        return _render_new(form, messages, 422, bad_seats)
    return _render_new(form, balanced=balanced)


def _render_new(form: NewGameForm, messages=(), status: int = 200, bad_seats=frozenset(),
                balanced: Balanced | None = None, unrated: bool = False):
    session = get_session()
    return render_page(
        "new_game.html", status=status, form=form, messages=list(messages),
        bad_seats=bad_seats, balanced=balanced, unrated=unrated,
        roster=roster(session, current_club(session)), teams_preview=_teams_preview(form),
        oob=wants_fragment(),  # the teams refreshed as names are typed: the dealers' too
    )


def _offer_evenings(form: NewGameForm, tonight: Evening | None) -> None:
    """Tonight's evening first, if there is one; else only a new evening."""
    if tonight is None:
        form.evening.choices = [SelectChoice(NEW_EVENING, _("A new evening, today"))]
        if request.method != "POST" or form.evening.data is None:
            form.evening.data = NEW_EVENING
        return
    games = len(evening_games(get_session(), tonight))
    label = ngettext("Tonight's evening (%(day)s, %(num)s game so far)",
                     "Tonight's evening (%(day)s, %(num)s games so far)",
                     games, day=format_date(tonight.played_on))
    form.evening.choices = [SelectChoice(str(tonight.id), label),
                            SelectChoice(NEW_EVENING, _("A new evening"))]
    if form.evening.data is None or (request.method != "POST" and
                                     form.evening.data not in (str(tonight.id), NEW_EVENING)):
        form.evening.data = str(tonight.id)  # the usual answer, ticked already


@bp.route("/games/new", methods=["GET", "POST"])
def new():
    """Seat six players, choose house rules, the first dealer and the evening."""
    form = NewGameForm(formdata=request.form if request.method == "POST" else request.args or None)
    session = get_session()
    club = current_club(session)
    tonight = current_evening(session, club)
    _offer_evenings(form, tonight)
    if request.method != "POST":  # GET and HEAD: a look, never a submission
        return _render_new(form)
    # Every problem at once, so a clumsy form is put right in one go.
    form.validate()
    problems = name_problems(form.names())
    if form.balance.raw_data:  # a balancing button: seats the players, starts nothing
        return _balance(form, problems)
    if form.errors or problems:
        messages = [violation_message(p) for p in problems] + all_errors(form)
        bad_seats = {p.params["seat"] for p in problems if "seat" in p.params}
        return _render_new(form, messages, 422, bad_seats)
    if form.evening.data == NEW_EVENING:
        evening = new_evening(club, utcnow().date(), form.place.data or "", form.note.data or "")
    else:
        evening = tonight
    game = start_game(session, club, form.names(), form.house_rules(), form.dealer(), evening)
    return redirect(url_for("games.show", game_id=game.id), 303)


@bp.get("/games/<int:game_id>")
def show(game_id: int):
    """The game: scores, the hand being entered, the history."""
    arrival = None
    if not wants_fragment():  # the page opened (not a step of a hand being entered)
        arrival = _arrival_notice(game_id)
        _stays_if_left_behind(game_id)
    kept = kept_game_page(game_id) if arrival is None else None
    if kept is not None:
        return kept
    table = table_or_404(game_id)
    if can(SCORER) and request.htmx:
        # For the phones watching. Only the page's own steps (sent in the background as
        # each choice is made): a link from elsewhere can't carry htmx's header, so it
        # can't plant a hand in progress.
        device = current_device()
        note_draft(get_session(), table, request.args, device.id if device else None,
                   request.args.get("step", 0, type=int))
    response = render_game(table, notice=arrival)
    keep_game_page(table, response)
    return response


@bp.get("/games/<int:game_id>/live")
def live(game_id: int):
    """A phone's poll: 204 while the game is as it shows it, else the new page part; a
    game page whose table has moved on to the evening's next game goes there."""
    # Every phone asks every 2 s: one small read, no ORM objects, no replay.
    head = game_head(get_connection(), current_member().club_id, game_id)
    if head is None:
        abort(404)
    if request.args.get("view", "game") == "game":  # never a correction, nor a board
        moved = _follow_the_table(head)
        if moved is not None:
            return moved
    board = request.args.get("view") == "board"
    watching = board or not can(SCORER)
    device = current_device()
    shown = request.args.get("v", "")
    # "revision.draft": the page follows the hand in progress too (a watcher's, the
    # scoreboard, a scorer's while another phone enters one); "revision": the game only.
    correcting = request.args.get("view") == "correction"
    followed = None if correcting else head.followed_draft(watching, device.id if device else None)
    if shown == version(head.revision, followed):
        return _unchanged()
    view = "board" if board else "correction" if correcting else "game"
    same_game = shown.split(".")[0] == str(head.revision)
    # A game page one change behind may take just what that change did, if it was a
    # hand recorded: the answer that page's own Record would have had.
    one_behind = view == "game" and shown.split(".")[0] == str(head.revision - 1)
    if board or watching or not same_game or correcting:
        # The second phone to catch up on a change gets the first one's answer.
        kept = kept_poll_answer(head, view, notice=not board and not same_game,
                                one_behind=one_behind)
        if kept is not None:
            return kept
    table = table_or_404(game_id)
    game = table.game
    if board:
        key = board_key(table, shared_draft(get_session(), table).seq)
        response = render_board(table)
        keep_poll_answer(table, response, board=key)
        return response
    same_game = shown.split(".")[0] == str(game.revision)
    # (Read again from the game as loaded: more may have changed since its head was read.)
    one_behind = view == "game" and shown.split(".")[0] == str(game.revision - 1)
    if not watching and same_game and not correcting:
        # Only another phone's entry moved: say so, and leave this phone's entry be.
        return render_other_phone(table)
    changed = recent_changes(get_session(), game.id, 1)
    notice = None
    if changed and not same_game:
        change = changed[0]
        # (Which device, to owners only: the answer is kept for this role alone.)
        who = typed(change_author(change.who)) if change.who else _("The command line")
        notice = Markup("%s: %s") % (who, change_sentence(change))
    response = None
    if (one_behind and changed and changed[0].kind == "recorded"
            and changed[0].number == len(table.state.deals)):
        response = render_recorded(table, notice)  # None where only the whole game will do
    if response is None:
        # A scorer's page gets its own entry back if it is still for the next hand.
        response = render_game(table, source=None if watching else {}, notice=notice,
                               block="game")
    keep_poll_answer(table, response, notice=not same_game, one_behind=one_behind)
    return response


def _unchanged() -> Response:
    """The poll's answer while nothing changed: empty, and never kept by a browser or a
    proxy (the next poll must ask again)."""
    unchanged = Response(status=204, headers={"Cache-Control": "no-store"})
    del unchanged.headers["Content-Type"]  # no body, so no type either
    return unchanged


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
    newer = head.moved_on_to()
    if newer is None or head.id in _cookie_games(LEFT_COOKIE):
        return None
    table = table_or_404(head.id)
    _stay_on(head.id)
    if not table.state.finished and table.game.abandoned_at is None:
        return None
    moved = _unchanged()
    moved.headers["HX-Redirect"] = url_for("games.show", game_id=newer)
    return _set_cookie(moved, MOVED_COOKIE, f"{head.id}.{newer}", 60)


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
def chart(game_id: int):
    """The game's score chart as an image, kept by the phone while the game is as it was."""
    table = table_or_404(game_id)
    if not table.state.deals:
        abort(404)
    response = make_response(render_template("chart.svg", chart=score_chart(table)))
    response.mimetype = "image/svg+xml"
    if request.args.get("v") == str(table.game.revision):
        # The address names the revision (and the language): it shows this forever.
        response.headers["Cache-Control"] = f"private, max-age={YEAR}, immutable"
    else:
        response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/games/<int:game_id>/board")
def board(game_id: int):
    """The scoreboard for a tablet or TV in the middle of the table."""
    return render_board(table_or_404(game_id))


@bp.get("/games/<int:game_id>/hands/<int:number>/edit")
def edit_hand(game_id: int, number: int):
    """The game page with a past hand open for correction."""
    table = table_or_404(game_id)
    if not 1 <= number <= len(table.hands):
        abort(404)
    if is_past_game(get_session(), table):
        return render_game(table, message=_("This game's evening is closed: the game is kept "
                                             "as it was and can't be changed."))
    return render_game(table, editing=number)


@bp.get("/games/<int:game_id>/changes")
def changes(game_id: int):
    """Every change to the game, newest first: who, when, and the scores it moved."""
    table = table_or_404(game_id)
    if wants_fragment() and request.htmx.target == "latest-changes":
        # The game page's log, opened: only the latest, as the page's own part.
        return render_template("_latest_changes.html", change_sentence=change_sentence,
                               changes=recent_changes(get_session(), game_id, RECENT_CHANGES))
    return render_page("changes.html", game=table.game,
                       changes=recent_changes(get_session(), table.game.id),
                       change_sentence=change_sentence)
