"""Which device made a change ("Sam (Samphone 2)") is for owners only, everywhere.

Changes are made on named devices; then every page and part of a page the app answers
a GET with (its routes read from ``app.url_map``, so a new one can't be missed), htmx's
parts of them, the game's polls behind and up to date, kept and shared between two app
servers, and the refusals that name who got there first, are read as each role. No
device's name reaches a scorer or a viewer (their own devices, on the club page, aside),
and owners find the device where the change log shows it.
"""
from __future__ import annotations

from itertools import product

import pytest
from flask import url_for
from sqlmodel import Session, select

from scorekeeper import create_app
from scorekeeper.clubs.access import COOKIE
from scorekeeper.clubs.membership import add_member, new_invite
from scorekeeper.store.models import SCREEN, Club, Game, Player
from tests.views.conftest import CheckedClient
from tests.views.view_helpers import HTMX, Page, calls_for, hand_form, parse

ROLES = ("owner", "scorer", "viewer")
NAMES = {"owner": "Olga", "scorer": "Sam", "viewer": "Vic"}
DEVICES = {"owner": "Olgaphone 1", "scorer": "Samphone 2", "viewer": "Vicphone 3"}
C_IS_SET = (calls_for(1, {3: 4}), "hearts", "AAAAB", "none")  # A 4, B 1, C -4: on
B_SWEEPS_2 = (calls_for(2, {2: 3}), "hearts", "BBBBB", "B")  # Bob deals hand 2: B wins
DAN_BIDS_5 = (calls_for(1, {4: 5}), "spades", "AAAAA", "A")
# Each address is read whole, and as htmx asks for a part of it (the game page's parts,
# the change log's, the scoreboard's: a page without that part answers whole).
TARGETS = (None, "game", "hand-entry", "preview", "latest-changes", "board")


@pytest.fixture
def servers(app):
    """Two app servers on one database, as in production: (app, a second app)."""
    second = create_app({"TESTING": True, "DATABASE_URL": app.config["DATABASE_URL"],
                         "SECRET_KEY": app.config["SECRET_KEY"], "WTF_CSRF_ENABLED": False})
    second.test_client_class = CheckedClient
    assert app.extensions["shared_answers"] is not None  # answers kept for both
    yield app, second
    second.extensions["db_engine"].dispose()


@pytest.fixture
def phones(servers):
    """role -> (its phone on the first server, the same phone on the second)."""
    first, _ = servers
    with first.test_request_context(), Session(first.extensions["db_engine"]) as session:
        club = session.exec(select(Club).order_by(Club.id)).first()
        cookies = {role: add_member(session, club.id, NAMES[role], role, DEVICES[role])[1]
                   for role in ROLES}
    found = {}
    for role in ROLES:
        pair = []
        for server in servers:
            phone = server.test_client()
            phone.set_cookie(COOKIE, cookies[role])
            pair.append(phone)
        found[role] = tuple(pair)
    return found


def new_game(phone, evening: str) -> int:
    form = {f"seat_{seat}": name for seat, name in
            enumerate(["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"], start=1)}
    form.update(teams="3x2", target="5", first_dealer="1", evening=evening)
    response = phone.post("/games/new", data=form)
    assert response.status_code == 303, response.text[:500]
    return int(response.headers["Location"].rsplit("/", 1)[1])


def every_get_address(app, values: dict) -> list[str]:
    """Every address the app answers a GET at, its names filled from ``values``."""
    addresses = []
    with app.test_request_context():
        for rule in app.url_map.iter_rules():
            if "GET" not in rule.methods:
                continue
            unknown = set(rule.arguments) - set(values)
            assert not unknown, f"{rule.rule}: say here what {unknown} should be"
            addresses.append(url_for(rule.endpoint,
                                     **{name: values[name] for name in rule.arguments}))
    return addresses


def poll_addresses(game: int, revision: int) -> list[str]:
    """A game's polls from the pages it may have shown: long behind, one change behind
    (the last hand's own answer) and up to date, with and without a hand in progress, for
    the game, a correction and the scoreboard."""
    return [f"/games/{game}/live?v={shown}{step}&view={view}"
            for shown, step, view in product((0, revision - 1, revision), ("", ".0"),
                                             ("game", "correction", "board"))]


def read(phone, address: str, target: str | None = None) -> str:
    headers = {} if target is None else {**HTMX, "HX-Target": target}
    response = phone.get(address, headers=headers)
    assert response.status_code in (200, 204, 302, 303, 403, 404), (address, response.status)
    return response.get_data().decode("utf-8", "replace")  # a picture too


def poll_notices(read: list[tuple[str, str]]) -> str:
    """What the polls' answers said of who changed what, one notice a line."""
    return "\n".join(notice.text() for address, body in read if "/live?" in address and body
                     for notice in parse(body).find_all(class_="notice"))


def test_device_names_reach_owners_only(servers, phones, db):
    first, _ = servers
    olga, sam = phones["owner"][0], phones["scorer"][0]
    # Game 1, on named devices: Sam records, Olga corrects, Sam undoes and brings back,
    # Olga swaps two seats, Sam ends the game; game 2: Sam records its first hand.
    one = new_game(olga, "new")
    assert sam.post(f"/games/{one}/hands", data=hand_form(1, *C_IS_SET)).status_code == 303
    assert olga.post(f"/games/{one}/hands/1", data=hand_form(
        1, C_IS_SET[0], "hearts", "AAABB", "none")).status_code == 303
    assert sam.post(f"/games/{one}/hands/undo", data={"number": "1"}).status_code == 303
    restore = sam.get(f"/games/{one}").text
    hand_id = restore.split('name="hand_id" value="')[1].split('"')[0]
    assert sam.post(f"/games/{one}/hands/restore", data={"hand_id": hand_id}).status_code == 303
    assert olga.post(f"/games/{one}/seats/swap", data={
        "first": "4", "second": "6", "confirm": "y"}).status_code == 303
    assert sam.post(f"/games/{one}/hands", data=hand_form(2, *B_SWEEPS_2)).status_code == 303
    evening = str(db.exec(select(Game.evening_id).where(Game.id == one)).one())
    two = new_game(olga, evening)
    assert sam.post(f"/games/{two}/hands", data=hand_form(1, *C_IS_SET)).status_code == 303
    db.expire_all()
    revisions = {game.id: game.revision for game in db.exec(select(Game)).all()}
    player, other = db.exec(select(Player.id).order_by(Player.id).limit(2)).all()
    with first.test_request_context(), Session(first.extensions["db_engine"]) as session:
        club = session.exec(select(Club).order_by(Club.id)).first()
        token = new_invite(session, club, "viewer").token
        screen_token = new_invite(session, club, SCREEN).token
    season = olga.post("/seasons", data={"name": "Spring", "starts_on": "2000-01-01",
                                         "ends_on": "2999-12-31", "ranked_by": "rating",
                                         "min_evenings": "0", "drop_worst": "0"})
    assert season.status_code == 303, season.text[:500]

    seen: dict[str, list[tuple[str, str]]] = {role: [] for role in ROLES}
    cache, shared = first.extensions["page_cache"], first.extensions["shared_answers"]
    hits_before = cache.hits + shared.hits
    for game in (one, two):
        values = {"game_id": game, "evening_id": int(evening), "player_id": player,
                  "other_id": other,
                  "number": 1, "token": token, "screen_token": screen_token,
                  "filename": "app.js",
                  "season_id": int(season.headers["Location"].rsplit("/", 1)[1])}
        addresses = every_get_address(first, values) + [
            f"/rules?game={game}", f"/evenings?player={player}",
            f"/games/{game}?number=2&revision=1&calls=pass,4",
        ]
        polls = poll_addresses(game, revisions[game])
        # Game 1's polls are answered (and kept) for the owner first, game 2's for the
        # viewer first; the others then ask for the same, on both servers: an answer
        # kept for one role must reach no other, either way.
        for role in ROLES if game == one else reversed(ROLES):
            for address, target in product(addresses, TARGETS):
                seen[role].append((address, read(phones[role][0], address, target)))
            for phone, address in product(phones[role], polls):
                target = "board" if address.endswith("board") else "game"
                for _ in range(2):  # the second asks for what the first kept
                    seen[role].append((address, read(phone, address, target)))
    assert cache.hits + shared.hits > hits_before, "no kept answer was read"

    # Refusals naming who recorded a hand first: Sam's hand 1 of game 2.
    other_hand = hand_form(1, *DAN_BIDS_5)
    refusals = {}
    for role in ("owner", "scorer"):
        for headers in ({}, HTMX):
            response = phones[role][0].post(f"/games/{two}/hands", data=other_hand,
                                             headers=headers)
            assert response.status_code == 409
            (said,) = Page(response).alerts()
            assert said.startswith("Hand 1 was already recorded by Sam")
            seen[role].append(("refused", response.text))
            refusals[role] = said

    for role in ROLES:
        for address, body in seen[role]:
            for other, label in DEVICES.items():
                if role == "owner" or (other == role and address == "/club"):
                    continue  # an owner sees every device; each member their own
                assert label not in body, f"{role} reads {label!r} at {address}"
    # The owner does find them: in the change log, a poll's notice (game 2's, kept for
    # the viewer first) and the refusal.
    owner_reads = {address: body for address, body in seen["owner"]}
    assert "Sam (Samphone 2)" in owner_reads[f"/games/{two}/changes"]
    assert "Olga (Olgaphone 1)" in owner_reads[f"/games/{one}/changes"]
    assert "Sam (Samphone 2): recorded hand 1" in poll_notices(seen["owner"])
    assert refusals["owner"].startswith("Hand 1 was already recorded by Sam (Samphone 2):")
    assert refusals["scorer"].startswith("Hand 1 was already recorded by Sam:")
    for role in ("scorer", "viewer"):
        assert "Sam: recorded hand 1" in poll_notices(seen[role]), role
