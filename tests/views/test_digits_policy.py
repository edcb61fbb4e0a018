"""Persian pages write numbers in Persian digits and lists with the Persian comma "،" --
in prose only: never inside what people typed (names, the club's name, an evening's
place and note, device labels), a code, an address or a path into a file.

What is checked is what the reader gets, whatever made it: every page a member (or a
stranger, for the pages of getting in) can open, every htmx fragment those pages ask
for, and the refusals that quote a file or a code, each read with lxml as a browser
would. The club is seeded with digits and commas in everything typed, so a page that
rewrites a name ("Jo ۲", "Room ۱۲", "Kim's، ۲ decks") fails as surely as one that
leaves a number of its own in 0-9.

Prose is every text node of the answer except those inside <script> and <style>,
which a reader never sees as text. Hidden elements count (each step of the hand entry
is shown by CSS as the one before it is chosen, the other phone's hint when there is
one), and so do <template id="phone-words"> (app.js shows those sentences), <noscript>,
<option> and <title> (the tab's title). Attributes are not prose: addresses, form
values and the digits app.js reads; they are checked only never to hold a typed string
rewritten. An SVG chart is an image a reader sees: its <text> is prose too.

Two tests keep the list of cases whole: every GET endpoint of the app is a case (or is
a file download, named with its reason), and every htmx request a page makes (its
hx-get/hx-post, the element it targets) is one of the fragment cases.
"""
from __future__ import annotations

import io
import json
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Callable
from urllib.parse import parse_qsl, urlencode, urlsplit

import lxml.etree
import lxml.html
import pytest
from sqlmodel import Session, select
from werkzeug.datastructures import FileStorage
from werkzeug.test import encode_multipart

from scorekeeper import create_app
from scorekeeper.clubs.access import COOKIE
from scorekeeper.clubs.membership import add_member, new_invite, shown_code
from scorekeeper.files.exchange import import_game
from scorekeeper.store.models import SCREEN, Club, Evening, Game, Invite, Player, Season
from tests.browser import scene
from tests.databases import database_url, forget
from tests.members import first_club_id
from tests.views.view_helpers import HTMX, Page, hands_of, submit, the_hand_form

# --- what people typed: digits and commas in every kind ---------------------------------

CLUB_NAME = "Table 4, upstairs"
# Members and devices (a device's label is what its browser said, kept as it came).
# Not "Eve 3": Eve sits at the table, and a page writing "Eve 3" with a 3 of its own
# would be taken for the member's name.
MEMBERS = {"owner": ("Ivo 3", "Pixel 7, Ivo's"), "scorer": ("Uma 5", "Tab 2, kitchen"),
           "viewer": ("Lev, 8", "TV 1")}
# A second game, over (so the verdict and "next game" show): Jo 2 (seat 2, team B with
# Eve) bids 5 and takes all five points; the bidder goes out.
FINISHED_SEATS = ["Kai, 2nd", "Jo 2", "Max 10", "Anna", "Eve", "Dora"]
FINISHED = {
    "format": "schmier-game/1",
    "rules": {"teams": "3x2", "target": 5, "bidder_goes_out": True},
    "seats": FINISHED_SEATS, "first_dealer": 1,
    "hands": [{"auction": [5, "pass", "pass", "pass", "pass", "pass"], "trump": "spades",
               "points": {"high": "B", "low": "B", "right": "B", "left": "B", "joker": "B",
                          "game": "A"}}],
}
SEASON_NAME = "Cup 2, spring"
TYPED = tuple(dict.fromkeys([
    CLUB_NAME, SEASON_NAME, *(name for name, _ in MEMBERS.values()), *(label for _, label in MEMBERS.values()),
    *scene.SEATS, *FINISHED_SEATS, scene.PLACE, scene.NOTE,
]))
# The formats' names are codes too: a file says them, and they are checked letter by letter.
FORMATS = ("schmier-game/1", "scorekeeper-backup/1")
URL = re.compile(r"https?://[^\s<>\"']+")
LATIN_DIGIT = re.compile(r"[0-9]")
# Between any two characters of a typed string as a page might break it: bidi marks.
BIDI = "[\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]*"
PERSIAN = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")
DIGIT_FORMS = {str(d): f"[{d}{chr(0x06F0 + d)}{chr(0x0660 + d)}]" for d in range(10)}


def _variants(typed: str) -> re.Pattern:
    """The typed string and every rewriting of it: digits in Persian or Arabic-Indic,
    the Persian comma, bidi marks put in, a space become a no-break one."""
    parts = []
    for char in typed:
        if char in DIGIT_FORMS:
            parts.append(DIGIT_FORMS[char])
        elif char == ",":
            parts.append("[,\u060c]")
        elif char == " ":
            parts.append("[ \u00a0\u202f]")
        else:
            parts.append(re.escape(char))
    return re.compile(BIDI.join(parts))


NO_MATCH = re.compile(r"(?!)")


@lru_cache(maxsize=None)
def rewritings(string: str) -> re.Pattern:
    """``_variants`` of a string that has anything to rewrite (digits, commas)."""
    return _variants(string) if re.search(r"[0-9,]", string) else NO_MATCH


# --- the club -----------------------------------------------------------------------------

@dataclass
class Scene:
    """The seeded club: its app, a phone of each member and a stranger's (all reading
    Persian), and the ids the cases ask for."""

    app: object
    owner: object
    scorer: object
    viewer: object
    stranger: object
    game: int  # the game under way (scene.py): next is hand 9
    finished: int
    evening: int
    player: int  # Jo 2
    partner: int  # مریم, Jo 2's partner
    token: str  # the club's invite link
    screen: str  # the club's screen link, for a TV
    cleanups: list = field(default_factory=list)


def _member(app, role: str, club_id: int) -> str:
    name, label = MEMBERS[role]
    with app.test_request_context(), Session(app.extensions["db_engine"]) as session:
        return add_member(session, club_id, name, role, label)[1]


def _persian_client(app, cookie: str | None = None):
    client = app.test_client()
    client.set_cookie("lang", "fa")
    if cookie:
        client.set_cookie(COOKIE, cookie)
    return client


def _named_club(app) -> int:
    with Session(app.extensions["db_engine"]) as session:
        club = session.get(Club, first_club_id(app))
        club.name = CLUB_NAME
        session.add(club)
        session.commit()
        return club.id


@pytest.fixture
def seeded(app) -> Scene:
    club_id = _named_club(app)
    phones = {role: _persian_client(app, _member(app, role, club_id)) for role in MEMBERS}
    game = scene.start_scene(app)
    engine = app.extensions["db_engine"]
    with app.test_request_context(), Session(engine) as session:
        finished = import_game(session, session.get(Club, club_id), json.dumps(FINISHED)).id
    owner = phones["owner"]
    assert owner.post("/club/links", data={"role": "viewer"}).status_code == 303
    assert owner.post(f"/club/share/{game}").status_code in (200, 303)
    # Another phone enters hand 9 (its page asks for the preview as each choice is
    # made): the owner's page says so, the viewer's follows it.
    phones["scorer"].get(f"/games/{game}", query_string={"number": "9", "calls": "pass,4"},
                         headers=fragment("preview"))
    with Session(engine) as session:
        evening = session.exec(select(Evening.id).where(Evening.place == scene.PLACE)).one()
        player = session.exec(select(Player.id).where(Player.name == "Jo 2")).one()
        partner = session.exec(select(Player.id).where(Player.name == "مریم")).one()
        token = session.exec(select(Invite.token).where(Invite.game_id.is_(None))).first()
    with app.test_request_context(), Session(engine) as session:
        screen = new_invite(session, session.get(Club, club_id), SCREEN).token
    club = Scene(app, stranger=_persian_client(app), game=game, finished=finished,
                 evening=evening, player=player, partner=partner, token=token, screen=screen,
                 **phones)
    yield club
    for cleanup in club.cleanups:
        cleanup()


def codes(app) -> list[str]:
    with Session(app.extensions["db_engine"]) as session:
        found = session.exec(select(Invite.code)).all()
    return [form for code in found for form in (shown_code(code), code)]


# --- the cases ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Case:
    """One answer to read: ``send`` asks for it; ``endpoint`` and ``target`` say what it
    is (the completeness tests compare them with the app), ``status`` what it answers;
    ``kept``: paths into a file (and values quoted from it) the answer must name as the
    file has them."""

    endpoint: str
    send: Callable[[Scene], object]
    target: str | None = None
    method: str = "GET"
    kept: tuple[str, ...] = ()
    status: int = 200
    writes: bool = False  # a GET that changes the game first (asked for last, below)


def fragment(target: str) -> dict:
    return {**HTMX, "HX-Target": target}


def page_of(client, url: str, **kwargs) -> Page:
    response = client.get(url, **kwargs)
    assert response.status_code == 200, (url, response.status_code)
    return Page(response)


def poll_url(page: Page, v: str | None = None) -> str:
    """The address the page polls, as it asks for it; ``v``: as if it showed that version."""
    poller = page.root.find(data_poll="")
    assert poller is not None, "no poller on the page"
    url = poller.get("hx-get")
    if v is None:
        return url
    parts = urlsplit(url)
    query = dict(parse_qsl(parts.query))
    query["v"] = v if v != "revision" else query["v"].split(".")[0]
    return f"{parts.path}?{urlencode(query)}"


BID_9 = "4,pass,pass,pass,pass,pass"
TALLY_9 = {"number": "9", "calls": BID_9, "trump": "hearts", "high": "A", "low": "B",
           "right": "C", "left": "A", "joker": "B", "value_A": "30", "value_B": "22",
           "value_C": "28"}
TEAMS = {"seat_1": "Jo 2", "seat_2": "Kai, 2nd", "seat_3": "", "seat_4": "Max 10",
         "seat_5": "Anna", "seat_6": "Eve", "teams": "2x3"}


def _get(url: Callable[[Scene], str], target: str | None = None, who: str = "owner",
         **kwargs):
    def send(s: Scene):
        headers = fragment(target) if target else {}
        return getattr(s, who).get(url(s), headers=headers, **kwargs)
    return send


def _chart(s: Scene):
    page = page_of(s.owner, f"/games/{s.game}")
    image = next(img for img in page.root.find_all("img") if "chart.svg" in img.get("src", ""))
    return s.owner.get(image.get("src"))


def _next_game(s: Scene):
    page = page_of(s.owner, f"/games/{s.finished}")
    link = next(a.get("href") for a in page.root.find_all("a")
                if a.get("href", "").startswith("/games/new?"))
    return s.owner.get(link)


def _htmx_form(s: Scene, page_url: str, action: str | None = None, **changes):
    """Send one of the page's forms as htmx does (the pages' change forms target #game)."""
    page = page_of(s.owner, page_url)
    form = the_hand_form(page) if action is None else page.form_posting_to(action)
    return submit(s.owner, form, headers=fragment("game"), changes=changes or None)


def _undone(s: Scene, url: str):
    submit(s.owner, page_of(s.owner, url).form_posting_to(f"/games/{s.game}/hands/undo"))
    return s.owner.get(url)


def _record_stale(s: Scene):
    """Hand 8 sent again from a page shown before another phone recorded it."""
    data = {"number": "8", "calls": BID_9, "trump": "clubs", "high": "A", "low": "A",
            "right": "B", "left": "C", "joker": "A", "game": "C"}
    return s.owner.post(f"/games/{s.game}/hands", data=data, headers=fragment("game"))


def _restore_after_undo(s: Scene):
    page = Page(_undone(s, GAME(s)))
    return submit(s.owner, page.form_posting_to(f"/games/{s.game}/hands/restore"),
                  headers=fragment("game"))


def _upload(client, url: str, name: str, content: str):
    boundary, body = encode_multipart(
        {name: FileStorage(io.BytesIO(content.encode()), "file.json", name)})
    return client.post(url, data=body, content_type=f"multipart/form-data; boundary={boundary}")


def _bad_game(change: Callable[[dict], None]) -> Callable[[Scene], object]:
    def send(s: Scene):
        document = json.loads(json.dumps(scene.GAME))
        change(document)
        return _upload(s.owner, "/games/import", "game_file", json.dumps(document))
    return send


def _seats_twice(document: dict) -> None:
    document["seats"][5] = "Jo 2"  # and in seats[0]: "Jo 2 can't sit in seats 1 and 6"
    document["seats"][0] = "Jo 2"


def _point_to_no_team(document: dict) -> None:
    document["hands"][3]["points"]["high"] = "D"


def _restore_bad_dealer(s: Scene):
    """The scene's backup, its first game's first dealer 97, restored where it may be:
    in an empty scorekeeper (of the same club and members)."""
    backup = json.loads(s.owner.get("/backup/download").get_data(as_text=True))
    backup["games"][0]["first_dealer"] = 97
    url = database_url()
    empty = create_app({"TESTING": True, "DATABASE_URL": url, "SECRET_KEY": "test-secret",
                        "WTF_CSRF_ENABLED": False})
    empty.test_client_class = type(s.owner)

    def dispose():
        empty.extensions["db_engine"].dispose()
        forget(url)

    s.cleanups.append(dispose)
    owner = _persian_client(empty, _member(empty, "owner", _named_club(empty)))
    return _upload(owner, "/backup", "backup_file", json.dumps(backup))


def _restore_into_this_club(s: Scene):
    backup = s.owner.get("/backup/download").get_data(as_text=True)
    return _upload(s.owner, "/backup", "backup_file", backup)


def _join_with_code(s: Scene):
    """The club's code typed as a Persian page shows it (Persian digits)."""
    with Session(s.app.extensions["db_engine"]) as session:
        code = session.exec(select(Invite.code).where(Invite.token == s.token)).one()
    persian = shown_code(code).translate(PERSIAN)
    return s.stranger.post("/join", data={"code": persian})


def _season(s: Scene, **changes) -> object:
    """A season over the scene's evening, made by the owner (the answer to that)."""
    today = datetime.now().date()
    return s.owner.post("/seasons", data={
        "name": SEASON_NAME, "starts_on": str(today - timedelta(days=12)),
        "ends_on": str(today + timedelta(days=12)), "ranked_by": "place",
        "min_evenings": "2", "drop_worst": "1", **changes})


def _season_page(path: str) -> Callable[[Scene], object]:
    """A page of the scene's season (made by the owner the first time): its standings,
    or ``path`` below them."""
    def send(s: Scene):
        with Session(s.app.extensions["db_engine"]) as session:
            season_id = session.exec(select(Season.id)).first()
        if season_id is None:
            response = _season(s)
            assert response.status_code == 303
            season_id = int(response.headers["Location"].rsplit("/", 1)[1])
        return s.owner.get(f"/seasons/{season_id}{path}")
    return send


def _open_signup(send):
    def with_signup(s: Scene):
        s.app.config["OPEN_SIGNUP"] = True
        return send(s)
    return with_signup


GAME = lambda s: f"/games/{s.game}"  # noqa: E731
EDIT = lambda s: f"/games/{s.game}/hands/8/edit"  # noqa: E731
INSERT = lambda s: f"/games/{s.game}/hands/insert"  # noqa: E731

CASES: dict[str, Case] = {
    # Full pages, as the club's owner opens them.
    "index": Case("games.index", _get(lambda s: "/")),
    "new game": Case("games.new", _get(lambda s: "/games/new")),
    "new game, the next one": Case("games.new", _next_game),
    "new game refused": Case("games.new", lambda s: s.owner.post("/games/new", data={
        **TEAMS, "target": "1", "first_dealer": "1", "place": scene.PLACE, "note": scene.NOTE,
        "evening": "new"}), method="POST", status=422),
    "game": Case("games.show", _get(GAME)),
    "game, bidding": Case("games.show", _get(
        GAME, query_string={"number": "9", "calls": "pass,4"})),
    "game, trump": Case("games.show", _get(
        GAME, query_string={"number": "9", "calls": BID_9})),
    "game, tally": Case("games.show", _get(GAME, query_string=TALLY_9)),
    "game, its last hand undone": Case("games.show", lambda s: _undone(s, GAME(s)),
                                       writes=True),
    "game, over": Case("games.show", _get(lambda s: f"/games/{s.finished}")),
    "game, watching": Case("games.show", _get(GAME, who="viewer")),
    "game, scorer": Case("games.show", _get(GAME, who="scorer")),
    "chart": Case("games.chart", _chart),
    "edit hand": Case("games.edit_hand", _get(EDIT)),
    "changes": Case("games.changes", _get(lambda s: f"/games/{s.game}/changes")),
    "fix a mistake": Case("corrections.show", _get(lambda s: f"/games/{s.game}/fix")),
    "a forgotten hand": Case("corrections.insert_form", _get(
        INSERT, query_string={"before": "8"})),
    "a swap checked": Case("corrections.swap", lambda s: s.owner.post(
        f"/games/{s.game}/seats/swap", data={"first": "2", "second": "5"}), method="POST"),
    "board": Case("games.board", _get(lambda s: f"/games/{s.game}/board")),
    "evenings": Case("evenings.history", _get(lambda s: "/evenings")),
    "evenings of a player": Case("evenings.history", _get(
        lambda s: f"/evenings?player={s.player}")),
    "evening": Case("evenings.show", _get(lambda s: f"/evenings/{s.evening}")),
    "table board": Case("evenings.board", _get(lambda s: f"/evenings/{s.evening}/board")),
    "evening board": Case("evenings.tables", _get(lambda s: f"/evenings/{s.evening}/tables")),
    "recap": Case("evenings.recap", _get(lambda s: f"/evenings/{s.evening}/recap")),
    "recap picture": Case("evenings.recap_picture",
                          _get(lambda s: f"/evenings/{s.evening}/recap.svg")),
    "board, the game over": Case("games.board", _get(lambda s: f"/games/{s.finished}/board")),
    "players": Case("players.leaderboard", _get(lambda s: "/players")),
    "players, one game or more": Case("players.leaderboard", _get(
        lambda s: "/players?min=1")),
    "player": Case("players.show", _get(lambda s: f"/players/{s.player}")),
    "head to head": Case("players.versus", _get(
        lambda s: f"/players/{s.player}/versus/{s.partner}")),
    "club": Case("club.show", _get(lambda s: "/club")),
    "seasons, none yet": Case("seasons.index", _get(lambda s: "/seasons")),
    "seasons": Case("seasons.index", lambda s: (_season_page("")(s), s.owner.get("/seasons"))[1]),
    "season": Case("seasons.show", _season_page("")),
    "season, its form": Case("seasons.edit", _season_page("/edit")),
    "season refused, overlapping": Case("seasons.create", lambda s: (
        _season_page("")(s), _season(s, name="Later"))[1], method="POST", status=400),
    "share": Case("club.share", _get(lambda s: f"/club/share/{s.game}")),
    "backup": Case("backups.show", _get(lambda s: "/backup")),
    "import": Case("exchange.import_game", _get(lambda s: "/games/import")),
    "rules": Case("rules.show", _get(lambda s: "/rules")),
    "rules, from a game": Case("rules.show", _get(lambda s: f"/rules?game={s.game}")),
    "join, a member": Case("join.by_code", _get(lambda s: "/join")),
    "offline": Case("offline.offline", _get(lambda s: "/offline")),
    "offline words": Case("offline.words", _get(lambda s: f"/games/{s.game}/offline-words")),
    "no such page": Case("games.show", _get(lambda s: "/games/999"), status=404),
    # Getting in, as a stranger.
    "welcome": Case("join.welcome", _open_signup(_get(lambda s: "/welcome",
                                                            who="stranger"))),
    "welcome refused": Case("join.welcome", _open_signup(lambda s: s.stranger.post(
        "/welcome", data={"club_name": CLUB_NAME, "your_name": ""})), method="POST",
        status=400),
    "join by link": Case("join.by_link", _get(lambda s: f"/join/{s.token}",
                                                    who="stranger")),
    "join, the code's page": Case("join.by_code", _get(lambda s: "/join",
                                                             who="stranger")),
    "join, a right code": Case("join.by_code", _join_with_code, method="POST"),
    "join, a wrong code": Case("join.by_code", lambda s: s.stranger.post(
        "/join", data={"code": "ZZZZ-2345"}), method="POST", status=400),
    # Refusals that point into a file.
    "import refused, a name twice": Case(
        "exchange.import_game", _bad_game(_seats_twice), method="POST", kept=("seats[5]",),
        status=422),
    "import refused, a point to no team": Case(
        "exchange.import_game", _bad_game(_point_to_no_team), method="POST",
        kept=("hands[3].points.high",), status=422),
    # The value the file holds is quoted as the file wrote it, as its path is.
    "restore refused, a first dealer 97": Case(
        "backups.restore", _restore_bad_dealer, method="POST",
        kept=("games[0].first_dealer", "97"),
        status=422),
    "restore refused, games here already": Case(
        "backups.restore", _restore_into_this_club, method="POST", status=422),
    # htmx fragments, as the pages ask for them.
    "fragment: game": Case("games.show", _get(GAME, "game"), "game"),
    "fragment: hand entry, bidding": Case("games.show", _get(
        GAME, "hand-entry", query_string={"number": "9", "turn_1": "pass", "turn_2": "4"}),
        "hand-entry"),
    "fragment: hand entry, trump": Case("games.show", _get(
        GAME, "hand-entry", query_string={"number": "9", "calls": BID_9}), "hand-entry"),
    "fragment: hand entry, tally": Case("games.show", _get(
        GAME, "hand-entry", query_string=TALLY_9), "hand-entry"),
    "fragment: preview": Case("games.show", _get(GAME, "preview", query_string=TALLY_9),
                              "preview"),
    "fragment: preview, a problem": Case("games.show", _get(
        GAME, "preview", query_string={**TALLY_9, "value_A": "60"}), "preview"),
    "fragment: correction entry": Case("games.edit_hand", _get(
        EDIT, "hand-entry", query_string={"number": "8", "calls": BID_9, "trump": "clubs"}),
        "hand-entry"),
    "fragment: correction preview": Case("games.edit_hand", _get(
        EDIT, "preview", query_string={**TALLY_9, "number": "8"}), "preview"),
    "fragment: forgotten hand entry": Case("corrections.insert_form", _get(
        INSERT, "hand-entry", query_string={"before": "8", "number": "8", "calls": BID_9}),
        "hand-entry"),
    "fragment: forgotten hand preview": Case("corrections.insert_form", _get(
        INSERT, "preview", query_string={**TALLY_9, "before": "8", "number": "8"}), "preview"),
    "fragment: latest changes": Case("games.changes", _get(
        lambda s: f"/games/{s.game}/changes", "latest-changes"), "latest-changes"),
    "fragment: teams preview": Case("games.new", _get(
        lambda s: "/games/new", "teams-preview", query_string=TEAMS), "teams-preview"),
    "poll: the game changed": Case("games.live", _get(
        lambda s: poll_url(page_of(s.owner, GAME(s)), "1"), "game"), "game"),
    "poll: another phone's entry": Case("games.live", _get(
        lambda s: poll_url(page_of(s.owner, GAME(s)), "revision"), "game"), "game"),
    "poll: watching": Case("games.live", _get(
        lambda s: poll_url(page_of(s.viewer, GAME(s)), "1"), "game", who="viewer"), "game"),
    "poll: correcting": Case("games.live", _get(
        lambda s: poll_url(page_of(s.owner, EDIT(s)), "1"), "game"), "game"),
    "poll: board": Case("games.live", _get(
        lambda s: poll_url(page_of(s.owner, f"/games/{s.game}/board"), "1"), "board"),
        "board"),
    "poll: table board": Case("evenings.live", _get(
        lambda s: poll_url(page_of(s.owner, f"/evenings/{s.evening}/board"), "1"), "board"),
        "board"),
    "poll: home page": Case("games.index_live", _get(
        lambda s: poll_url(page_of(s.owner, "/"), "0"), "games"), "games"),
    # A TV's screen link: tonight's boards to a browser that is no member (Persian).
    "screen: table board": Case("screens.board", _get(
        lambda s: f"/screen/{s.screen}", who="stranger")),
    "screen: every table": Case("screens.tables", _get(
        lambda s: f"/screen/{s.screen}/tables", who="stranger")),
    "screen: chart": Case("screens.chart", _get(
        lambda s: f"/screen/{s.screen}/games/{s.game}/chart.svg", who="stranger")),
    "poll: screen's table board": Case("screens.live", _get(
        lambda s: poll_url(page_of(s.stranger, f"/screen/{s.screen}"), "1"), "board",
        who="stranger"), "board"),
    "poll: screen's every table": Case("screens.tables_live", _get(
        lambda s: poll_url(page_of(s.stranger, f"/screen/{s.screen}/tables"), "1"), "board",
        who="stranger"), "board"),
    "poll: evening board": Case("evenings.tables_live", _get(
        lambda s: poll_url(page_of(s.owner, f"/evenings/{s.evening}/tables"), "1"), "board"),
        "board"),
    "record: done": Case("hands.record", lambda s: _htmx_form(
        s, GAME(s), **{k: v for k, v in TALLY_9.items() if k != "number"}),
        "game", "POST"),
    "record: thrown in": Case("hands.record", lambda s: _htmx_form(s, GAME(s), bid="passed"),
                              "game", "POST"),
    "record: a problem": Case("hands.record", lambda s: _htmx_form(
        s, GAME(s), **{k: v for k, v in TALLY_9.items() if k != "number"} | {"value_A": "60"}),
        "game", "POST", status=422),
    "record: recorded meanwhile": Case("hands.record", _record_stale, "game", "POST",
                                       status=409),
    "save a correction": Case("hands.save", lambda s: _htmx_form(s, EDIT(s)), "game", "POST"),
    "a forgotten hand checked": Case("corrections.insert", lambda s: _htmx_form(
        s, f"{INSERT(s)}?before=8", bid="passed"), "game", "POST"),
    "undo": Case("hands.undo", lambda s: _htmx_form(
        s, GAME(s), f"/games/{s.game}/hands/undo"), "game", "POST"),
    "bring back": Case("hands.restore", _restore_after_undo, "game", "POST"),
}

# Answers that are files, not pages: they keep 0-9 in every language.
FILES = {
    "static": "the app's own CSS, scripts and icons",
    "offline.service_worker": "a script",
    "health.healthz": "'ok' for a monitor",
    "exchange.export_game": "a game file (JSON), language-neutral",
    "exchange.hands_csv": "a spreadsheet's numbers",
    "players.leaderboard_csv": "a spreadsheet's numbers",
    "backups.download": "a backup file (JSON), language-neutral",
    "evenings.recap_png": "a picture: the recap picture's SVG, drawn (its text is checked there)",
}


# --- reading an answer --------------------------------------------------------------------

def parsed(response):
    """The answer as a tree: an SVG image as XML, anything else as HTML."""
    body = response.get_data()
    if response.mimetype == "image/svg+xml":
        return lxml.etree.fromstring(body)
    text = body.decode()
    if not text.strip():
        return lxml.html.document_fromstring("<html></html>")
    return lxml.html.document_fromstring(text)


NOT_SHOWN = "ancestor::*[local-name()='script' or local-name()='style']"


def prose(tree) -> list[str]:
    return [str(text) for text in tree.xpath(f"//text()[not({NOT_SHOWN})]")]


def everything(tree) -> list[str]:
    """Every text and attribute value of the answer, script and style too."""
    texts = [str(text) for text in tree.xpath("//text()")]
    texts += [str(value) for value in tree.xpath("//@*")]
    return texts


def shown(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit] + "…"


def outside_kept(text: str, kept: list[str]) -> str:
    """The text with every kept string (typed, a code, a path) and address taken out."""
    for string in kept:
        text = text.replace(string, "\u2063")
    return URL.sub("\u2063", text)


def around(text: str, match: re.Match, width: int = 40) -> str:
    """The match in its text, a little either side, as the reader has it."""
    before = text[max(0, match.start() - width):match.start()]
    after = text[match.end():match.end() + width]
    return shown(f"{before}⟦{match.group(0)}⟧{after}", 3 * width)


def problems_of(response, kept: list[str], named: tuple[str, ...] = ()) -> list[str]:
    """What is wrong with one answer, each kind listed apart; ``kept``: the strings shown
    as written (typed, codes, formats, paths), ``named``: those it must show."""
    tree = parsed(response)
    nodes = [text for text in prose(tree) if text.strip()]
    digits = [shown(text) for text in nodes if LATIN_DIGIT.search(outside_kept(text, kept))]
    commas = [shown(text) for text in nodes if "," in outside_kept(text, kept)]
    rewritten: dict[tuple[str, str], str] = {}
    # Each text and attribute; then the prose joined, for a string broken over elements.
    for text in [*everything(tree), "".join(nodes)]:
        for string in kept:
            for match in rewritings(string).finditer(text):
                if match.group(0) != string:
                    rewritten.setdefault((match.group(0), string), around(text, match))
    addresses = [shown(url) for text in nodes for url in URL.findall(text) if not url.isascii()]
    joined = "".join(nodes)
    missing = [string for string in named if string not in joined]
    found = []
    for what, items in (
        ("Latin digits in prose", [repr(item) for item in digits]),
        ("a Latin comma in prose", [repr(item) for item in commas]),
        ("typed text, a code or a path not as written", [
            f"{wrong!r} for {string!r}: {context!r}"
            for (wrong, string), context in rewritten.items()]),
        ("an address not as written", [repr(item) for item in addresses]),
        ("a path or value of the file not shown as the file has it",
         [repr(item) for item in missing]),
    ):
        items = list(dict.fromkeys(items))
        if items:
            found.append(f"{what} ({len(items)}):\n      " + "\n      ".join(items[:12]))
    if not nodes:
        found.append("no prose at all: nothing was checked")
    return found


def endpoint_of(app, method: str, url: str) -> str:
    adapter = app.url_map.bind("localhost")
    return adapter.match(urlsplit(url).path, method=method)[0]


@pytest.mark.parametrize("name", list(CASES))
def test_persian_prose_has_persian_digits_and_typed_text_stays_as_typed(seeded, name):
    case = CASES[name]
    response = case.send(seeded)
    request = response.request
    where = f"{name} ({request.method} {request.full_path.rstrip('?')}"
    where += f", HX-Target {case.target})" if case.target else ")"
    assert response.status_code == case.status, f"{where}: {response.status_code}"
    assert (request.method, endpoint_of(seeded.app, request.method, request.path)) == \
        (case.method, case.endpoint), where
    if case.target:
        assert request.headers.get("HX-Target") == case.target
    kept = sorted({*TYPED, *codes(seeded.app), *FORMATS, *case.kept}, key=len, reverse=True)
    problems = problems_of(response, kept, case.kept)
    assert not problems, f"{where}:\n  " + "\n  ".join(problems)


# --- the cases are every page and every fragment --------------------------------------------

def test_every_page_the_app_serves_is_a_case(app):
    served = {rule.endpoint for rule in app.url_map.iter_rules() if "GET" in rule.methods}
    cased = {case.endpoint for case in CASES.values()}
    assert sorted(served - cased - set(FILES)) == []
    assert set(FILES) <= served


def htmx_requests(page: Page, app) -> set[tuple[str, str, str]]:
    """(method, endpoint, target id) of every element that makes an htmx request."""
    found = set()
    for element in page.root.iter():
        for method in ("get", "post"):
            url = element.get(f"hx-{method}")
            if url is None:
                continue
            holder = element
            while holder is not None and holder.get("hx-target") is None:
                holder = holder.parent
            target = holder.get("hx-target") if holder is not None else "this"
            if target == "this":
                target = f"#{(holder or element).get('id')}"
            assert target.startswith("#"), f"hx-target {target!r}: say which element"
            endpoint = endpoint_of(app, method.upper(), url)
            found.add((method.upper(), endpoint, target[1:]))
    # app.js sends the hand form itself, as htmx would, for the game block
    # (static/app.js, send()).
    for form in page.root.find_all("form", id="hand-form"):
        found.add(("POST", endpoint_of(app, "POST", form.get("action")), "game"))
    return found


def test_every_htmx_request_the_pages_make_is_a_case(seeded):
    asked: set = set()
    pages = sorted((name for name, case in CASES.items() if case.method == "GET"
                    and not case.target), key=lambda name: CASES[name].writes)
    for name in pages:
        response = CASES[name].send(seeded)
        if response.mimetype == "text/html" and response.status_code == 200:
            asked |= {(*request, name) for request in htmx_requests(Page(response), seeded.app)}
    cased = {(case.method, case.endpoint, case.target) for case in CASES.values() if case.target}
    missing = sorted({request for request in asked if request[:3] not in cased})
    assert missing == [], "htmx requests no case reads (method, endpoint, target, page)"
    assert len({request[:3] for request in asked}) >= 8  # the walk found the pages' requests


# --- numbers typed in the reader's digits ---------------------------------------------------

ARABIC_INDIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")
LATIN = str.maketrans("۰۱۲۳۴۵۶۷۸۹٠١٢٣٤٥٦٧٨٩", "0123456789" * 2)


@pytest.mark.parametrize("typed", ["۱۵", "١٥", " ۱۵ "])
def test_play_to_typed_in_persian_or_arabic_digits_starts_the_game_to_it(
        app, client, db, new_game_form, typed):
    client.set_cookie("lang", "fa")
    response = client.post("/games/new", data=new_game_form(target=typed))
    assert response.status_code == 303, Page(response).alerts()
    game_id = int(response.headers["Location"].rsplit("/", 1)[1])
    db.expire_all()
    assert db.get(Game, game_id).target == 15


@pytest.mark.parametrize("language", ["fa", "en"])  # en: a Persian keyboard, English pages
def test_a_refused_new_game_keeps_play_to_as_typed_and_sends_it_again(
        client, db, new_game_form, language):
    """The form comes back holding 15 in a way the browser keeps and sends (a number
    input holding "۱۵" is empty to it), and sent again it starts the game to 15."""
    client.set_cookie("lang", language)
    response = client.post("/games/new", data=new_game_form(
        names=["Ann", "Bob", "", "Dan", "Eve", "Fay"], target="۱۵"))
    assert response.status_code == 422
    page = Page(response)
    assert len(page.alerts()) == 1 and "Play to" not in page.alerts()[0]  # only seat 3
    field = page.root.find("input", name="target")
    value = field.get("value") or ""
    assert value.translate(LATIN) == "15", value
    if field.get("type") == "number":
        assert value == "15"
    if field.get("pattern"):
        assert re.fullmatch(field.get("pattern"), value), (field.get("pattern"), value)
    db.expire_all()
    assert db.exec(select(Game)).all() == []
    form = next(form for form in page.forms() if form.action == "/games/new")
    response = submit(client, form, changes={"seat_3": "Cid"})
    assert response.status_code == 303, Page(response).alerts()
    db.expire_all()
    assert [game.target for game in db.exec(select(Game))] == [15]


def test_game_values_typed_in_persian_digits_are_recorded(client, db, start_game):
    """Ann deals; Bob (B) bids 4 and takes High, Low and Right; the game values counted
    give Game to B (30 to 22 and 28): 4 taken, made, +4; A takes Left, C the Joker."""
    game = start_game()
    values = {"A": "۲۲", "B": "٣٠", "C": "۲۸"}  # Persian, Arabic-Indic, Persian
    query = {"number": "1", "calls": "۴,pass,pass,pass,pass,pass", "trump": "hearts",
             "high": "B", "low": "B", "right": "B", "left": "A", "joker": "C",
             **{f"value_{team}": value for team, value in values.items()}}
    latin = {key: value.translate(LATIN) for key, value in query.items()}
    # The preview says what the same values in 0-9 say.
    shown = [Page(client.get(f"/games/{game}", query_string=asked)).section_text("preview")
             for asked in (query, latin)]
    assert shown[0] == shown[1] == "B bid 4, took 4: made, +4. A +1, C +1."
    # The hand's number and the game's revision (hidden fields) in Persian digits too.
    revision = the_hand_form(Page(client.get(f"/games/{game}"))).checked("revision")
    client.set_cookie("lang", "fa")
    response = client.post(f"/games/{game}/hands", data={
        **query, "number": "۱", "revision": revision.translate(PERSIAN)})
    assert response.status_code == 303, Page(response).alerts()
    (hand,) = hands_of(db, game)
    assert (hand.number, hand.calls[0]) == (1, 4)
    assert hand.game_values == {"A": 22, "B": 30, "C": 28}
    client.set_cookie("lang", "en")
    page = Page(client.get(f"/games/{game}"))
    assert page.scores() == {"A": 1, "B": 4, "C": 1}
    assert page.entry_title() == "Hand 2"


def test_a_bid_and_a_hand_number_in_persian_digits_read_as_in_0_to_9(client, db, start_game):
    game = start_game()
    # A link's winning bid: Bob (seat 2) bids 4.
    entries = [Page(client.get(f"/games/{game}", query_string={"bid": bid}))
               .section_text("hand-entry") for bid in ("۲-۴", "2-4")]
    assert entries[0] == entries[1] and "Bob" in entries[0]
    # Undo hand ۱, then bring it back by its id in Persian digits.
    response = client.post(f"/games/{game}/hands", data={
        "number": "1", "calls": "pass,pass,pass,pass,pass,pass"})
    assert response.status_code == 303
    assert client.post(f"/games/{game}/hands/undo",
                       data={"number": "۱"}).status_code == 303
    (hand,) = hands_of(db, game)
    assert hand.undone_at is not None
    hand_id = str(hand.id).translate(ARABIC_INDIC)
    assert client.post(f"/games/{game}/hands/restore",
                       data={"hand_id": hand_id}).status_code == 303
    assert hands_of(db, game, live_only=True) == hands_of(db, game)
