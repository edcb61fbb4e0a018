"""Club backups (scorekeeper-backup/1): backup, restore into a fresh app, refusals, the
page and the commands. RULES.md, "Backups".

The history is built through the app's own pages. Every score, tally and count below
is worked out by hand from RULES.md (three pairs: A = seats 1 & 4, B = 2 & 5, C = 3 & 6;
two trios: A = 1, 3, 5, B = 2, 4, 6; bidding starts left of the dealer).
"""
from __future__ import annotations

import html
import io
import json
import os
from datetime import datetime, timedelta, timezone

import pytest
from sqlmodel import Session, func, select
from werkzeug.datastructures import FileStorage
from werkzeug.test import encode_multipart

from scorekeeper import create_app
from scorekeeper.clubs.access import COOKIE
from scorekeeper.files import backup as backup_module
from scorekeeper.files.backup import (
    BACKUP_GAME_KEYS, BACKUP_HAND_KEYS, club_backup, restore_backup,
)
from scorekeeper.files.json_files import FileRefused
from scorekeeper.store.db import get_session
from scorekeeper.store.models import (
    Club, Device, Evening, Game, GameChange, GameSeat, Hand, Member, Player, utcnow,
)
from tests.databases import database_url
from tests.disk_full import full_at_hand
from tests.members import client_as, first_club
from tests.sample_games import P
from tests.views.view_helpers import parse

THROW_IN = ",".join([P] * 6)
NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"]
TRIO_NAMES = ["Gus", "Hal", "Ida", "Joe", "Kim", "Lea"]
EVENING_TWO_NAMES = ["Eve", "Ann", "Gus", "Bob", "Cid", "Dan"]
CONTENTS = "12 players, 2 evenings and 3 games"


def fresh_app(**config):
    """An app on a database of its own, with no club yet (as a new install starts)."""
    return create_app({
        "TESTING": True, "DATABASE_URL": database_url(), "SECRET_KEY": "backup-test",
        "WTF_CSRF_ENABLED": False, **config,
    })


def game_form(names, evening, **fields) -> dict:
    form = {f"seat_{seat}": name for seat, name in enumerate(names, start=1)}
    form.update(teams="3x2", target="21", first_dealer="1", evening=evening)
    form.update(fields)
    return form


def start(client, names, evening, **fields) -> int:
    response = client.post("/games/new", data=game_form(names, evening, **fields))
    assert response.status_code == 303, response.text[:500]
    return int(response.headers["Location"].rsplit("/", 1)[1])


def hand(number, calls, trump=None, owners=None, game=None, values=None) -> dict:
    """The hand form: owners are five team letters for High, Low, Right, Left, Joker."""
    form = {"number": str(number), "calls": calls}
    if trump is not None:
        form["trump"] = trump
        form.update(zip(("high", "low", "right", "left", "joker"), owners, strict=True))
        if values is not None:
            form.update({f"value_{team}": str(value) for team, value in values.items()})
        else:
            form["game"] = game
    return form


def play(client, game_id, *args, **kwargs) -> None:
    response = client.post(f"/games/{game_id}/hands", data=hand(*args, **kwargs))
    assert response.status_code == 303, response.text[:2000]


def build_history(client) -> None:
    """Two evenings, three games, as a table would record them."""
    # Evening 1, game 1: three pairs to 21, Ann (1) deals first.
    one = start(client, NAMES, "new", place="The Anchor", note="Cup night")
    play(client, one, 1, THROW_IN)  # all pass: Ann deals again
    # Ann deals; Cid (3, C) bids 4, takes Low, Right, Left, Game: made. A1 B1 C4.
    play(client, one, 2, f"{P},4,{P},{P},{P},{P}", "hearts", "ACCCB", "C")
    # Bob deals; Cid 3, Eve (5, B) 5. B takes High, Right, Joker: 3 < 5, set -5.
    # A: Low and Game (30 of game value is the most): +2; C the Left: +1. A3 B-4 C5.
    play(client, one, 3, f"3,{P},5,{P},{P},{P}", "spades", "BABCB",
         values={"A": 30, "B": 25, "C": 26})
    # Cid deals; Dan (4, A) bids 6 and takes all six: A9 ... then it is undone.
    play(client, one, 4, "6", "clubs", "AAAAA", "A")
    assert client.post(f"/games/{one}/hands/undo", data={"number": "4"}).status_code == 303
    # Hand 4 again: Cid deals and bids 3 last; C takes High, Low, Joker, Game: 4, made;
    # A the Right, B the Left.
    play(client, one, 4, f"{P},{P},{P},{P},{P},3", "diamonds", "CCABC", "C")
    # Hand 2 corrected: the Joker went to A, not B. Replayed: after 2 A2 B0 C4,
    # after 3 A4 B-5 C5, after 4 A5 B-4 C9.
    response = client.post(f"/games/{one}/hands/2",
                           data=hand(2, f"{P},4,{P},{P},{P},{P}", "hearts", "ACCCA", "C"))
    assert response.status_code == 303, response.text[:2000]

    # Evening 1, game 2: two trios to 5, Lea (6) deals first.
    # (At the evening's second table.)
    two = start(client, TRIO_NAMES, "1", teams="2x3", target="5", first_dealer="6", table="2")
    # Gus (1, A) 3, Hal (2, B) 4; B takes 4, A the Left; Game tied. A1 B4.
    play(client, two, 1, f"3,4,{P},{P},{P},{P}", "diamonds", "BBBAB", "none")
    # Gus deals and bids 3 last; A takes five: A6 B5. Both passed 5: A has more, wins.
    play(client, two, 2, f"{P},{P},{P},{P},{P},3", "hearts", "AAABA", "A")

    # Evening 2, game 3: three pairs to 11, Gus (3) deals first.
    # A = Eve & Bob, B = Ann & Cid, C = Gus & Dan.
    three = start(client, EVENING_TWO_NAMES, "new", target="11", first_dealer="3")
    # Bob (4, A) bids 4, A takes all but Low: 5, made. A5 B1 C0.
    play(client, three, 1, f"4,{P},{P},{P},{P},{P}", "clubs", "ABAAA", "A")
    play(client, three, 2, THROW_IN)  # Bob deals, all pass: Bob deals again
    # Cid 3, Dan 4, Ann (2, B) 5. A and B tie on game value: nobody scores Game.
    # B takes High, Right, Left: 3 < 5, set -5; C Low and Joker: +2. A5 B-4 C2.
    play(client, three, 3, f"3,4,{P},5,{P},{P}", "hearts", "BCBBC",
         values={"A": 20, "B": 20, "C": 10})
    # Cid deals; Dan (6, C) bids 6 and takes all: C8 ... undone, and left undone.
    play(client, three, 4, "6", "spades", "CCCCC", "C")
    assert client.post(f"/games/{three}/hands/undo", data={"number": "4"}).status_code == 303
    # The hand came back in the phone's entry, and the table empties it there: the
    # entry's step, its choices all cleared (a hand being entered is the phone's, not
    # the record a backup keeps).
    assert client.get(f"/games/{three}?number=4",
                      headers={"HX-Request": "true"}).status_code == 200
    assert (one, two, three) == (1, 2, 3)
    # The club's season: every evening so far, ranked by average place, two to qualify.
    today = utcnow().date()
    season = client.post("/seasons", data={
        "name": "Winter", "starts_on": (today - timedelta(days=30)).isoformat(),
        "ends_on": (today + timedelta(days=60)).isoformat(), "ranked_by": "place",
        "min_evenings": "2", "drop_worst": "1"})
    assert season.status_code == 303, season.text[:2000]


@pytest.fixture(scope="module")
def history():
    """An app holding the hand-worked history, and its client. Tests only read it."""
    app = fresh_app()
    build_history(client_as(app))
    # A client of its own to read pages: the builder's has notices waiting to be shown.
    return app, client_as(app)


@pytest.fixture(scope="module")
def backup_text(history):
    """The history's backup, as the download gives it."""
    _, client = history
    response = client.get("/backup/download")
    assert response.status_code == 200
    return response.text


@pytest.fixture
def backup(backup_text):
    """The backup as data, a copy each test may change."""
    return json.loads(backup_text)


# --- reading pages and rows -----------------------------------------------------------

def main_text(page: str) -> str:
    """The text a reader sees in <main> (a table cell or a paragraph ends a word)."""
    return parse(page).find("main").text(gaps=True)


def texts(page: str, class_name: str) -> list[str]:
    """The text of each element of one class."""
    return [element.text(gaps=True) for element in parse(page).find_all(class_=class_name)]


def scores(page: str) -> list[str]:
    return texts(page, "team-score")


def counts(app) -> dict[str, int]:
    with Session(app.extensions["db_engine"]) as session:
        return {
            model.__name__: session.exec(select(func.count()).select_from(model)).one()
            for model in (Evening, Game, GameSeat, Player, Hand)
        }


def club_row(app) -> tuple:
    with Session(app.extensions["db_engine"]) as session:
        club = session.exec(select(Club)).one()
        return club.name, club.created_at


def stored_rows(app) -> dict[str, list[tuple]]:
    """Every stored fact, ids and timestamps included (not hand ids: nothing shows them)."""
    with Session(app.extensions["db_engine"]) as session:
        def rows(model, *columns, order):
            return [tuple(getattr(row, c) for c in columns)
                    for row in session.exec(select(model).order_by(*order))]

        return {
            "club": rows(Club, "name", "created_at", order=[Club.id]),
            "players": rows(Player, "id", "name", "name_key", "created_at", order=[Player.id]),
            "evenings": rows(Evening, "id", "played_on", "place", "note", "created_at",
                             order=[Evening.id]),
            "games": rows(Game, "id", "evening_id", "teams", "target", "house_rules",
                          "first_dealer", "first_dealer_drawn", "created_at", "changed_at",
                          order=[Game.id]),
            "seats": rows(GameSeat, "game_id", "seat", "player_id",
                          order=[GameSeat.game_id, GameSeat.seat]),
            "hands": rows(Hand, "game_id", "number", "calls", "trump", "points", "game_values",
                          "recorded_at", "updated_at", "undone_at",
                          order=[Hand.game_id, Hand.recorded_at]),
        }


def restore_into(app, document) -> object:
    text = document if isinstance(document, (str, bytes)) else json.dumps(document)
    with app.app_context():
        session = get_session()
        return restore_backup(session, first_club(session), text)


def backup_of(app) -> dict:
    with app.app_context():
        session = get_session()
        return club_backup(session, first_club(session))


PAGES = ["/", "/evenings", "/evenings/1", "/evenings/2", "/games/1", "/games/2", "/games/3",
         "/players", "/players/1", "/players/7"]
EMPTY = {"Evening": 0, "Game": 0, "GameSeat": 0, "Player": 0, "Hand": 0}


# --- the backup document --------------------------------------------------------------

def test_the_backup_holds_the_club_players_evenings_and_games(backup):
    assert backup["format"] == "scorekeeper-backup/1"
    assert backup["club"]["name"] == "Our table"
    assert [(p["id"], p["name"]) for p in backup["players"]] == \
        list(enumerate(NAMES + TRIO_NAMES, start=1))
    assert [(e["id"], e["place"], e["note"]) for e in backup["evenings"]] == \
        [(1, "The Anchor", "Cup night"), (2, None, None)]
    games = backup["games"]
    assert [(g["id"], g["evening_id"], g["player_ids"]) for g in games] == [
        (1, 1, [1, 2, 3, 4, 5, 6]),
        (2, 1, [7, 8, 9, 10, 11, 12]),
        (3, 2, [5, 1, 7, 2, 3, 4]),  # Eve, Ann, Gus, Bob, Cid, Dan
    ]
    assert [(g["scores"], g["status"], g["winner"]) for g in games] == [
        ({"A": 5, "B": -4, "C": 9}, "playing", None),
        ({"A": 6, "B": 5}, "finished", "A"),
        ({"A": 5, "B": -4, "C": 2}, "playing", None),
    ]
    # Only hand 2 of game 1 was corrected; every hand keeps when it was recorded.
    assert [[h["updated_at"] is not None for h in g["hands"]] for g in games] == [
        [False, True, False, False], [False, False], [False, False, False],
    ]
    assert all(h["recorded_at"] for g in games for h in g["hands"])


def test_the_backup_keeps_each_games_table_where_it_is_not_the_first(backup):
    assert [game.get("table") for game in backup["games"]] == [None, 2, None]


def test_the_backup_keeps_the_seasons_and_their_rules(backup):
    assert [(s["name"], s["ranked_by"], s["min_evenings"], s["drop_worst"])
            for s in backup["seasons"]] == [("Winter", "place", 2, 1)]


def test_a_backup_from_before_seasons_restores_without_any(app, backup):
    del backup["seasons"]
    restore_into(app, backup)
    assert backup_of(app)["seasons"] == []


def test_the_backup_keeps_undone_hands(backup):
    one, two, three = backup["games"]
    assert two["undone_hands"] == []
    (undone,) = one["undone_hands"]
    assert {k: v for k, v in undone.items() if not k.endswith("_at")} == {
        "number": 4, "auction": [6], "trump": "clubs",
        "points": {"high": "A", "low": "A", "right": "A", "left": "A", "joker": "A",
                   "game": "A"},
    }
    # Undone, then a new hand 4 recorded after it.
    assert undone["recorded_at"] < undone["undone_at"] < one["hands"][3]["recorded_at"]
    (undone,) = three["undone_hands"]
    assert (undone["number"], undone["auction"], undone["trump"]) == (4, [6], "spades")
    assert undone["undone_at"] == three["changed_at"]


def test_each_game_in_a_backup_is_the_games_own_export(history, backup):
    _, client = history
    for entry in backup["games"]:
        record = {k: v for k, v in entry.items() if k not in BACKUP_GAME_KEYS}
        record["hands"] = [{k: v for k, v in h.items() if k not in BACKUP_HAND_KEYS}
                           for h in record["hands"]]
        assert record == json.loads(client.get(f"/games/{entry['id']}/export").text)


# --- the round trip -------------------------------------------------------------------

def test_restore_into_a_fresh_app_gives_the_same_pages(history, backup_text):
    original_app, original = history
    app = fresh_app()
    restored = restore_into(app, backup_text)
    assert (restored.players, restored.evenings, restored.games, restored.hands) == \
        (12, 2, 3, 11)
    client = client_as(app)
    for url in PAGES:
        before, after = original.get(url), client.get(url)
        assert (before.status_code, after.status_code) == (200, 200), url
        assert main_text(after.text) == main_text(before.text), url

    # And the pages say what the hands add up to.
    game_one = client.get("/games/1").text
    assert scores(game_one) == ["5", "−4", "9"]
    assert texts(game_one, "deal-scores") == [  # newest first
        "A +1 = 5 · B +1 = −4 · C +4 = 9",
        "A +2 = 4 · B −5 = −5 · C +1 = 5",
        "A +2 = 2 · B +0 = 0 · C +4 = 4",
        "A = 0 · B = 0 · C = 0",
    ]
    assert "Undo hand 4" in game_one and "Bring hand 4 back" not in game_one
    assert "Dealer: Dan (seat 4)." in main_text(game_one)
    game_two = client.get("/games/2").text
    assert scores(game_two) == ["6", "5"]
    assert texts(game_two, "winners") == ["Gus & Ida & Kim win!"]
    game_three = client.get("/games/3").text
    assert scores(game_three) == ["5", "−4", "2"]
    assert texts(game_three, "deal-head")[0].startswith("3. Bob dealt. Ann (B) bid 5")
    assert "Bring hand 4 back" in game_three

    evening_one = main_text(client.get("/evenings/1").text)
    assert "1 game finished (1 still in play)." in evening_one
    # The night's ranking: game 2's winners, 1 of 1 at 6; its losers, 0 of 1 at 5; game
    # 1's six, still in play, no game finished.
    assert ("The night's ranking Place Player Won Played Average score "
            "1 Gus 1 1 6.0 1 Ida 1 1 6.0 1 Kim 1 1 6.0 4 Hal 0 1 5.0 4 Joe 0 1 5.0 "
            "4 Lea 0 1 5.0 7 Ann 0 0 – 7 Bob 0 0 – 7 Cid 0 0 – 7 Dan 0 0 – 7 Eve 0 0 – "
            "7 Fay 0 0 –") in evening_one
    assert "Per partnership Partners Won Gus & Ida & Kim 1" in evening_one
    evening_two = main_text(client.get("/evenings/2").text)
    assert "0 games finished (1 still in play)." in evening_two
    assert ("The night's ranking Place Player Won Played Average score 1 Ann 0 0 – "
            "1 Bob 0 0 – 1 Cid 0 0 – 1 Dan 0 0 – 1 Eve 0 0 – 1 Gus 0 0 –") in evening_two
    # Game 3 is still in play: no pair of evening 2 has won yet.
    assert "Per partnership Partners Won Ann & Cid 0 Bob & Eve 0 Dan & Gus 0" in evening_two
    assert "The Anchor" in evening_one and "Cup night" in evening_one


def test_backup_restore_backup_is_the_same_document(history, backup_text):
    original_app, _ = history
    app = fresh_app()
    restore_into(app, backup_text)
    # The ids are kept too, so not even they differ.
    assert backup_of(app) == json.loads(backup_text)
    assert stored_rows(app) == stored_rows(original_app)


def test_a_night_played_for_a_ranking_keeps_its_confirmations():
    """The evening that asks for confirmation, a hand confirmed, one waiting and the
    log's confirmation: all in the backup, and the same once restored."""
    app = fresh_app()
    ann, bea = client_as(app), client_as(app, "scorer", name="Bea")
    game = start(ann, NAMES, "new")
    assert ann.post("/evenings/1/confirming", data={"confirming": "on"}).status_code == 303
    for phone, seat_player in ((ann, 1), (bea, 2)):  # Ann (A) and Bob (B)
        said = phone.post(f"/games/{game}/hands/player", data={"player_id": seat_player})
        assert said.status_code == 303
    play(ann, game, 1, f"{P},4,{P},{P},{P},{P}", "hearts", "ACCCB", "C")
    assert bea.post(f"/games/{game}/hands/1/confirm", data={"number": "1"}).status_code == 303
    play(ann, game, 2, THROW_IN)
    document = backup_of(app)
    assert document["evenings"][0]["confirm_hands"] is True
    kept = [{key: hand.get(key) for key in ("to_confirm", "recorded_team", "confirmed_team")}
            for hand in document["games"][0]["hands"]]
    # The throw-in scored nothing: it waits for nobody (and the file says nothing of it).
    assert kept == [{"to_confirm": True, "recorded_team": "A", "confirmed_team": "B"},
                    {"to_confirm": None, "recorded_team": None, "confirmed_team": None}]
    assert [c["kind"] for c in document["games"][0]["changes"]] == [
        "recorded", "confirmed", "recorded"]
    restored = fresh_app()
    restore_into(restored, json.dumps(document))
    assert backup_of(restored) == document
    with Session(restored.extensions["db_engine"]) as session:
        assert session.exec(select(Evening)).one().confirm_hands
        assert [(h.to_confirm, h.recorded_team, h.confirmed_team) for h in
                session.exec(select(Hand).order_by(Hand.number))] == [
            (True, "A", "B"), (False, None, None)]


CLOSED_AT, ABANDONED_AT = "2026-03-01T23:30:00+00:00", "2026-03-01T22:00:00+00:00"


def corrected(document: dict) -> dict:
    """The backup as a club writes it that closed evening 1, abandoned game 2 and swapped
    two seats of game 1 (the changes a correction keeps, with what each changed)."""
    document["evenings"][0]["closed_at"] = CLOSED_AT
    document["games"][1]["abandoned_at"] = ABANDONED_AT
    totals = document["games"][0]["changes"][-1]["totals_after"]
    document["games"][0]["changes"].append(
        {"at": "2026-03-01T21:00:00+00:00", "kind": "seats", "number": 0, "who": "Ann",
         "hand_before": None, "hand_after": None, "totals_before": totals,
         "totals_after": totals, "details": {"seats": [2, 5], "players": ["Bob", "Eve"]}})
    totals = document["games"][1]["changes"][-1]["totals_after"]
    document["games"][1]["changes"].append(
        {"at": ABANDONED_AT, "kind": "abandoned", "number": 0, "who": "Ann",
         "hand_before": None, "hand_after": None, "totals_before": totals,
         "totals_after": totals, "details": None})
    return document


def test_closed_evenings_abandoned_games_and_what_changes_changed_are_kept(backup):
    app = fresh_app()
    restore_into(app, corrected(backup))
    with Session(app.extensions["db_engine"]) as session:
        evenings = session.exec(select(Evening).order_by(Evening.id)).all()
        assert [e.closed_at and e.closed_at.isoformat() for e in evenings] == [CLOSED_AT, None]
        games = session.exec(select(Game).order_by(Game.id)).all()
        assert [g.abandoned_at and g.abandoned_at.isoformat() for g in games] == \
            [None, ABANDONED_AT, None]
        kept = session.exec(select(GameChange).where(GameChange.number == 0)
                            .order_by(GameChange.id)).all()
        assert [(c.game_id, c.kind, c.details) for c in kept] == [
            (1, "seats", {"seats": [2, 5], "players": ["Bob", "Eve"]}), (2, "abandoned", None)]
        assert session.exec(select(Club)).one().restored_at is not None
    # Backed up again, it is the same document.
    assert backup_of(app) == backup


def test_a_backup_from_before_closing_abandoning_and_details_restores(backup):
    """Older backups lack the keys added since: they restore, with nothing closed,
    abandoned or detailed."""
    for evening in backup["evenings"]:
        del evening["closed_at"]
    for game in backup["games"]:
        del game["abandoned_at"]
        for change in game["changes"]:
            del change["details"]
    app = fresh_app()
    restore_into(app, backup)
    again = backup_of(app)
    assert [e["closed_at"] for e in again["evenings"]] == [None, None]
    assert [g["abandoned_at"] for g in again["games"]] == [None, None, None]
    assert {c["details"] for g in again["games"] for c in g["changes"]} == {None}
    assert len(again["games"][0]["changes"]) == len(backup["games"][0]["changes"])


def test_a_restored_game_plays_on(history, backup_text):
    app = fresh_app()
    restore_into(app, backup_text)
    client = client_as(app)
    # The undone hand comes back as it was: Dan bid 6 and took all. C2 + 6 = 8.
    page = client.get("/games/3").text
    hand_id = page.split('name="hand_id" value="', 1)[1].split('"', 1)[0]
    response = client.post("/games/3/hands/restore", data={"hand_id": hand_id})
    assert response.status_code == 303
    assert scores(client.get("/games/3").text) == ["5", "−4", "8"]
    # New rows follow the restored ids: game 4 on evening 3, and Zed is player 13.
    game = start(client, ["Zed"] + NAMES[1:], "new")
    assert game == 4
    with Session(app.extensions["db_engine"]) as session:
        assert session.get(Game, 4).evening_id == 3
        assert session.exec(select(Player.id).where(Player.name == "Zed")).one() == 13


def test_a_game_that_leaves_out_its_house_rules_keeps_its_undone_hands(backup):
    """A game record may leave out its house rules (the defaults: three pairs to 21,
    RULES.md "Game files"), and its undone hands are checked under those rules too."""
    one = backup["games"][0]
    assert one["rules"] == {"teams": "3x2", "target": 21, "bidder_goes_out": False,
                            "lowest_bid": 3, "all_pass": "throw_in", "smudge": False}
    assert one["undone_hands"]
    del one["rules"]
    app = fresh_app()
    assert restore_into(app, backup).hands == 11  # 9 played and thrown in, 2 undone
    with Session(app.extensions["db_engine"]) as session:
        undone = session.exec(select(Hand).where(Hand.game_id == 1,
                                                 Hand.undone_at.is_not(None))).all()
    assert [(hand.number, hand.calls) for hand in undone] == [(4, [6])]


# --- refusals -------------------------------------------------------------------------

def changed(change):
    def make(document):
        change(document)
        return document
    return make


def at(document, path):
    target = document
    for key in path:
        target = target[key]
    return target


def set_at(path, value):
    return changed(lambda d: at(d, path[:-1]).__setitem__(path[-1], value))


def delete_at(path):
    return changed(lambda d: at(d, path[:-1]).__delitem__(path[-1]))


def text_of(text):
    return lambda _document: text


def a_game_file(document):
    return {k: v for k, v in document["games"][1].items() if k not in BACKUP_GAME_KEYS}


def ended_game_goes_on(document):
    document["games"][1]["hands"].append(
        {"auction": [P] * 6, "trump": None, "points": None,
         "recorded_at": "2025-03-01T21:00:00+00:00"})
    return document


def without_player_seven(document):
    document["players"] = [p for p in document["players"] if p["id"] != 7]
    return document


def without_evening_two(document):
    document["evenings"] = document["evenings"][:1]
    return document


REFUSALS = [
    # what is wrong, how the good backup is changed, the message
    ("not JSON", text_of("hello"), "not JSON: Expecting value (line 1, column 1)"),
    ("a list", text_of("[1, 2]"), "a backup holds one JSON object, not [1, 2]"),
    ("a game file", a_game_file,
     "format: this is one game (schmier-game/1), not a backup: import it as a game"),
    ("other format", set_at(["format"], "scorekeeper-backup/2"),
     'format: "scorekeeper-backup/2" is not scorekeeper-backup/1, the format this app '
     "restores"),
    ("no format", delete_at(["format"]),
     'format: missing: a backup says "format": "scorekeeper-backup/1"'),
    ("no games", delete_at(["games"]), "games: missing"),
    ("a NUL in an evening's note", set_at(["evenings", 0, "note"], "late\u0000"),
     "a text in the file holds a null character or half of a surrogate pair, which "
     "can't be kept"),
    ("unknown key", set_at(["colour"], "green"),
     "colour: not a key of a scorekeeper-backup/1 file"),
    ("players not a list", set_at(["players"], {}), "players: should be a JSON list, not {}"),
    ("a time that isn't", set_at(["players", 0, "created_at"], "yesterday"),
     'players[0].created_at: should be a date and time such as 2025-03-01T20:15:00+00:00, '
     'not "yesterday"'),
    ("a day that isn't", set_at(["evenings", 0, "played_on"], "2025-02-30"),
     'evenings[0].played_on: should be a date such as 2025-03-01, not "2025-02-30"'),
    ("a time out of range", set_at(["club", "created_at"], "0001-01-01T00:00:00+05:00"),
     'club.created_at: should be a date and time such as 2025-03-01T20:15:00+00:00, '
     'not "0001-01-01T00:00:00+05:00"'),
    ("a club without a name", set_at(["club", "name"], "  "), "club.name: the club needs a name"),
    ("a place too long", set_at(["evenings", 1, "place"], "x" * 81),
     "evenings[1].place: at most 80 letters, not 81"),
    ("a name twice", set_at(["players", 1, "name"], "ann"),
     "players[1].name: ann is in the file twice (also players[0])"),
    ("an id of 0", set_at(["players", 0, "id"], 0),
     "players[0].id: an id is a whole number from 1 to 2147483647, not 0"),
    ("a game id twice", set_at(["games", 2, "id"], 1),
     "games[2].id: 1 is in the file twice (also games[0])"),
    ("a game that isn't an object", set_at(["games", 0], "game"),
     'games[0]: should be a JSON object, not "game"'),
    ("a point to no team", set_at(["games", 1, "hands", 0, "points", "high"], "C"),
     "games[1].hands[0].points.high: 'C' is not a team of this game (A, B)"),
    ("a hand after the end", ended_game_goes_on,
     "games[1].hands[2]: the game is over: team A won at hand 2"),
    ("an unknown key in a game", set_at(["games", 0, "colour"], "green"),
     "games[0].colour: not a key of a schmier-game/1 file"),
    ("a hand without its time", delete_at(["games", 0, "hands", 1, "recorded_at"]),
     "games[0].hands[1].recorded_at: missing"),
    # As an imported game: no game of the file may be too long to show.
    # Before anything of a hand is read, its times included.
    ("a game of 1001 hands", set_at(["games", 1, "hands"], [{"auction": [P] * 6}] * 1001),
     "games[1].hands: a game holds at most 1000 hands, not 1001"),
    # A hand's times are read before the game is replayed: the first hand's are named.
    ("a hand without its time before a bad one", changed(lambda d: (
        at(d, ["games", 0, "hands", 0]).pop("recorded_at"),
        at(d, ["games", 0, "hands", 1]).__setitem__("trump", "stars"))),
     "games[0].hands[0].recorded_at: missing"),
    ("a bad undone hand", set_at(["games", 0, "undone_hands", 0, "auction"], [6, P]),
     "games[0].undone_hands[0].auction: the auction is already over"),
    ("an undone hand numbered 0", set_at(["games", 0, "undone_hands", 0, "number"], 0),
     "games[0].undone_hands[0].number: a hand number is a whole number from 1 up, not 0"),
    ("an undone hand without undo time", delete_at(["games", 2, "undone_hands", 0, "undone_at"]),
     "games[2].undone_hands[0].undone_at: missing"),
    ("a seat's unknown player", set_at(["games", 2, "player_ids", 2], 99),
     "games[2].player_ids[2]: there is no player 99 in the file"),
    ("a seated player left out", without_player_seven,
     "games[1].player_ids[0]: there is no player 7 in the file"),
    ("a seat's player of another name", set_at(["games", 0, "player_ids", 0], 2),
     "games[0].player_ids[0]: player 2 is Bob, but seats[0] is Ann"),
    ("five player ids", set_at(["games", 0, "player_ids"], [1, 2, 3, 4, 5]),
     "games[0].player_ids: a player id for each of the game's 6 seats, not 5"),
    ("an evening not in the file", set_at(["games", 2, "evening_id"], 42),
     "games[2].evening_id: there is no evening 42 in the file"),
    ("an evening left out", without_evening_two,
     "games[2].evening_id: there is no evening 2 in the file"),
    ("a change of no known kind", set_at(["games", 0, "changes", 0, "kind"], "deleted"),
     'games[0].changes[0].kind: should be one of "recorded", "edited", "undone", '
     '"restored", "inserted", "confirmed", "seats", "renamed", "subbed", "unsubbed", '
     '"abandoned", "reinstated", not "deleted"'),
    ("a hand's change numbered 0", set_at(["games", 0, "changes", 0, "number"], 0),
     "games[0].changes[0].number: a hand number is a whole number from 1 up, not 0"),
    ("a change numbered past any hand", set_at(["games", 0, "changes", 0, "number"], 2**31),
     "games[0].changes[0].number: a hand number is a whole number from 1 up, not 2147483648"),
    ("a change's details not an object", set_at(["games", 0, "changes", 0, "details"], [1]),
     "games[0].changes[0].details: should be a JSON object, not [1]"),
    ("an abandoning that isn't a time", set_at(["games", 1, "abandoned_at"], "today"),
     'games[1].abandoned_at: should be a date and time such as 2025-03-01T20:15:00+00:00, '
     'not "today"'),
    ("a season ending before it starts", set_at(["seasons", 0, "ends_on"], "2001-01-01"),
     "seasons[0].ends_on: the last day comes before the first"),
    ("two seasons sharing days", changed(lambda d: d["seasons"].append(
        {**d["seasons"][0], "name": "Also winter"})),
     "seasons[1]: shares days with seasons[0]: seasons can't overlap"),
    ("a ladder of no known kind", set_at(["seasons", 0, "ranked_by"], "luck"),
     'seasons[0].ranked_by: should be one of "won", "place", "rating", not "luck"'),
    ("a table of no number", set_at(["games", 1, "table"], 0),
     "games[1].table: should be 1 or more, not 0"),
    ("an evening closed at no time", set_at(["evenings", 0, "closed_at"], 5),
     "evenings[0].closed_at: should be a date and time such as 2025-03-01T20:15:00+00:00, "
     "not 5"),
]


@pytest.mark.parametrize("change, message", [r[1:] for r in REFUSALS],
                         ids=[r[0] for r in REFUSALS])
def test_a_bad_backup_is_refused_whole_saying_what_and_where(app, backup, change, message):
    club = club_row(app)
    with pytest.raises(FileRefused) as refused:
        restore_into(app, change(backup))
    assert str(refused.value) == message
    assert counts(app) == EMPTY
    assert club_row(app) == club


def test_a_cut_off_backup_is_refused(app, backup_text):
    with pytest.raises(FileRefused) as refused:
        restore_into(app, backup_text[: len(backup_text) // 2])
    assert str(refused.value).startswith("not JSON: ")
    assert counts(app) == EMPTY


def test_a_backup_over_the_limit_is_refused(backup_text):
    app = fresh_app(MAX_BACKUP_LENGTH=1024)
    with app.app_context():
        session = get_session()
        with pytest.raises(FileRefused) as refused:
            restore_backup(session, first_club(session), backup_text, 1024)
    assert str(refused.value) == "the file is larger than 1 kB, the most a backup may be"
    assert counts(app) == EMPTY


def test_restoring_into_a_club_with_games_is_refused(history, backup_text):
    original_app, _ = history
    before = stored_rows(original_app)
    with pytest.raises(FileRefused) as refused:
        restore_into(original_app, backup_text)
    assert str(refused.value) == (
        "this scorekeeper already has players, evenings or games, and a backup is restored "
        "only into an empty one: start the app on a new database and restore there")
    assert stored_rows(original_app) == before


def test_a_failure_while_writing_leaves_nothing_behind(app, backup_text, monkeypatch):
    full_at_hand(monkeypatch, backup_module, 5)
    club = club_row(app)
    with pytest.raises(RuntimeError):
        restore_into(app, backup_text)
    assert counts(app) == EMPTY
    assert club_row(app) == club


# --- the page -------------------------------------------------------------------------

def upload(client, content, headers=None, **fields):
    if isinstance(content, str):
        content = content.encode()
    # Encoded here, in memory, as tests/test_exchange.py does for the same reason.
    boundary, body = encode_multipart(
        {"backup_file": FileStorage(io.BytesIO(content), "backup.json", "backup_file"),
         **fields})
    return client.post("/backup", data=body, headers=headers or {},
                       content_type=f"multipart/form-data; boundary={boundary}")


def test_the_games_list_links_to_the_backup_page(client):
    assert 'href="/backup"' in client.get("/").text


def test_the_backup_page_offers_the_download_and_the_restore_form(client):
    page = client.get("/backup").text
    assert 'href="/backup/download"' in page and "Download a backup" in page
    assert 'enctype="multipart/form-data"' in page
    assert 'type="file"' in page and 'name="backup_file"' in page


def test_the_download_is_a_dated_attachment(history):
    _, client = history
    before = datetime.now(timezone.utc).date()
    response = client.get("/backup/download")
    after = datetime.now(timezone.utc).date()
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert response.headers["Content-Disposition"] in {
        f"attachment; filename=scorekeeper-backup-{day.isoformat()}.json"
        for day in (before, after)
    }
    assert json.loads(response.text)["format"] == "scorekeeper-backup/1"


def test_uploading_a_backup_restores_it_and_says_so(app, client, backup_text):
    response = upload(client, backup_text)
    assert response.status_code == 303
    assert response.headers["Location"] == "/backup"
    assert counts(app) == {"Evening": 2, "Game": 3, "GameSeat": 18, "Player": 12, "Hand": 11}
    page = client.get("/backup").text
    assert f"Backup restored: {CONTENTS}." in page  # said once, after the redirect
    assert "Backup restored" not in client.get("/backup").text
    # Now holding games, the page no longer offers to restore.
    assert 'type="file"' not in page
    assert "a backup can't be restored here" in html.unescape(page)
    assert scores(client.get("/games/1").text) == ["5", "−4", "9"]


def test_the_download_holds_no_members_and_the_web_restores_none(history, backup, tmp_path):
    """Members, devices and live links are the server's backups' alone: a file an owner
    downloads leaves the server, and a link in it would let its holder in."""
    original_app, _ = history
    assert "members" not in backup and "invites" not in backup
    path = tmp_path / "server.json"
    assert original_app.test_cli_runner().invoke(args=["backup", str(path)]).exit_code == 0
    app = fresh_app()
    owner = client_as(app)
    assert upload(owner, path.read_text(encoding="utf-8")).status_code == 303
    assert counts(app)["Game"] == 3
    with Session(app.extensions["db_engine"]) as session:
        assert [(m.name, m.role) for m in session.exec(select(Member))] == [("Owner", "owner")]
        assert session.exec(select(func.count()).select_from(Device)).one() == 1


def test_uploading_a_backup_larger_than_a_game_file_may_be(app, client, backup_text):
    # Years of games outgrow the 2 MB an uploaded game file may have.
    padded = backup_text + " " * (3 * 1024 * 1024)
    assert upload(client, padded).status_code == 303
    assert counts(app)["Game"] == 3


def test_uploading_a_bad_backup_says_what_is_wrong_and_restores_nothing(app, client, backup):
    backup["games"][2]["evening_id"] = 42
    response = upload(client, json.dumps(backup))
    assert response.status_code == 422
    assert alert_text(response) == (
        "Nothing was restored: games[2].evening_id: there is no evening 42 in the file.")
    assert 'type="file"' in response.text  # the form again, to try another file
    assert counts(app) == EMPTY


# A page says a rule's reason in the words the hand form uses (the command line, in the
# rules engine's), then the value the file wrote; every other refusal reads the same.
PAGE_WORDS = {
    "a point to no team":
        'games[1].hands[0].points.high: High: choose one of this game\'s teams (the file says "C")',
    "a hand after the end": "games[1].hands[2]: The game is over: it takes no more hands",
    "a bad undone hand": "games[0].undone_hands[0].auction: The auction is already over",
}


def alert_text(response) -> str:
    (alert,) = parse(response.text).find_all(role="alert")
    return alert.text()


def test_every_bad_backup_is_refused_in_the_page_too(app, client, backup_text):
    for what, change, message in REFUSALS:
        document = change(json.loads(backup_text))
        text = document if isinstance(document, str) else json.dumps(document)
        response = upload(client, text)
        assert response.status_code == 422, what
        assert alert_text(response) == f"Nothing was restored: {PAGE_WORDS.get(what, message)}."
    assert counts(app) == EMPTY


def test_uploading_into_a_club_with_games_is_refused(history, backup_text):
    original_app, client = history
    before = stored_rows(original_app)
    response = upload(client, backup_text)
    assert response.status_code == 422
    assert "Nothing was restored: this scorekeeper already has players" in response.text
    assert stored_rows(original_app) == before


def test_uploading_nothing_asks_for_a_file(app, client):
    response = client.post("/backup", data={}, content_type="multipart/form-data")
    assert response.status_code == 422
    assert "Choose a backup file to restore." in response.text
    assert counts(app) == EMPTY


def test_uploading_a_file_over_the_limit_is_refused_in_the_page(backup_text):
    app = fresh_app(MAX_BACKUP_LENGTH=1024)
    response = upload(client_as(app), backup_text)
    assert response.status_code == 413
    assert ("That file is larger than 1 kB, the most a backup may be. Nothing was restored."
            in response.text)
    assert 'type="file"' in response.text
    assert counts(app) == EMPTY


def test_the_restore_form_carries_csrf_and_refuses_a_post_without_it(backup_text):
    app = fresh_app(WTF_CSRF_ENABLED=True)
    client = client_as(app)
    page = client.get("/backup").text
    assert 'name="csrf_token"' in page
    response = upload(client, backup_text)
    assert response.status_code == 400
    assert counts(app) == EMPTY
    token = page.split('name="csrf_token" type="hidden" value="', 1)[1].split('"', 1)[0]
    # Over the 2 MB an upload may otherwise have: the check must not read it first.
    padded = backup_text + " " * (3 * 1024 * 1024)
    assert upload(client, padded, csrf_token=token).status_code == 303
    assert counts(app)["Game"] == 3


# --- the commands ---------------------------------------------------------------------

def test_backup_and_restore_commands(history, backup_text, tmp_path):
    original_app, reader = history
    path = tmp_path / "club.json"
    result = original_app.test_cli_runner().invoke(args=["backup", str(path)])
    assert result.exit_code == 0, result.output
    assert result.stderr == f"Backed up {CONTENTS} to {path}.\n"
    # The download's document, and the server's own: the members and their devices too.
    document = json.loads(path.read_text(encoding="utf-8"))
    assert without_members(document) == json.loads(backup_text)
    assert [(m["name"], m["role"], [d["label"] for d in m["devices"]])
            for m in document["members"]] == [("Owner", "owner", ["Test browser"])] * 2
    assert document["invites"] == []

    app = fresh_app()
    result = app.test_cli_runner().invoke(args=["restore", str(path)])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        f"Restored {CONTENTS} from {path}.",
        "Its members are back, and their phones are still signed in."]
    assert stored_rows(app) == stored_rows(original_app)
    # The same secret, the same device cookie: the owner's phone is still in.
    phone = app.test_client()
    phone.set_cookie(COOKIE, reader.get_cookie(COOKIE).value)
    assert scores(phone.get("/games/1").text) == ["5", "−4", "9"]


def without_members(document: dict) -> dict:
    """A server's backup as an owner downloads it: without the members and links."""
    return {key: value for key, value in document.items() if key not in ("members", "invites")}


def test_backup_to_stdout(history, backup_text):
    original_app, _ = history
    result = original_app.test_cli_runner().invoke(args=["backup", "-"])
    assert result.exit_code == 0, result.output
    assert without_members(json.loads(result.stdout)) == json.loads(backup_text)


def test_restore_command_refuses_a_bad_file(app, runner, backup, tmp_path):
    path = tmp_path / "club.json"
    backup["games"][0]["player_ids"][0] = 99
    path.write_text(json.dumps(backup))
    result = runner.invoke(args=["restore", str(path)])
    assert result.exit_code == 1
    assert result.stderr == (f"Error: nothing was restored from {path}: "
                             "games[0].player_ids[0]: there is no player 99 in the file\n")
    assert counts(app) == EMPTY


def test_restore_command_refuses_a_club_with_games(history, backup_text, tmp_path):
    original_app, _ = history
    path = tmp_path / "club.json"
    path.write_text(backup_text, encoding="utf-8")
    before = stored_rows(original_app)
    result = original_app.test_cli_runner().invoke(args=["restore", str(path)])
    assert result.exit_code == 1
    assert "nothing was restored" in result.stderr
    assert stored_rows(original_app) == before


def test_beside_another_clubs_rows_a_restore_takes_new_ids_and_keeps_its_links(
        history, backup):
    """A shared server: the file's ids (here pushed to the largest there is) are not kept,
    so they can't collide with another club's or push its next ids out of reach."""
    app = fresh_app()
    other = client_as(app)
    build_history(other)  # club 1 holds games 1-3, its players and evenings
    for entry in backup["games"]:
        entry["id"] += 2**31 - 10
    with app.app_context():
        session = get_session()
        empty = Club(name="Second table")
        session.add(empty)
        session.commit()
        restored = restore_backup(session, empty, json.dumps(backup))
        assert restored.games == 3
        ids = sorted(session.exec(select(Game.id).where(Game.club_id == empty.id)).all())
        assert ids == [4, 5, 6]
    second = client_as(app, club_id=empty.id)
    for game_id in ids:
        assert second.get(f"/games/{game_id}").status_code == 200
        assert other.get(f"/games/{game_id}").status_code == 404
    # The restored games are the same games: the same scores, seats and evenings.
    assert main_text(second.get("/games/4").text) == \
        main_text(history[1].get("/games/1").text).replace("/games/1", "/games/4")
    new_game = other.post("/games/new", data=game_form(["Ann", "Bob", "Cid", "Dan", "Eve",
                                                        "Fay"], "new"))
    assert new_game.headers["Location"].endswith("/games/7")


def server_backup(app) -> dict:
    """The club's backup as the server writes it: its members and live links too."""
    result = app.test_cli_runner().invoke(args=["backup", "-"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_the_player_each_member_is_and_the_clubs_default_come_back(tmp_path):
    """A server's backup keeps which player each member is, whether the club's new
    evenings ask for confirmation and whether it prefers tables of six; restored, all
    are as they were."""
    app = fresh_app()
    ann, bea = client_as(app), client_as(app, "scorer", name="Bea")
    game = start(ann, NAMES, "new")
    assert ann.post("/club/confirming", data={"confirming": "on"}).status_code == 303
    assert bea.post("/club/tables", data={"prefers_sixes": "y"}).status_code == 303
    for phone, seat_player in ((ann, 2), (bea, 5)):
        assert phone.post(f"/games/{game}/hands/player",
                          data={"player_id": seat_player}).status_code == 303
    document = server_backup(app)
    assert document["club"]["confirm_hands"] is True
    assert document["club"]["prefers_sixes"] is True
    assert [member["player_id"] for member in document["members"]] == [2, 5]
    path = tmp_path / "club.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    restored = fresh_app()
    result = restored.test_cli_runner().invoke(args=["restore", str(path)])
    assert result.exit_code == 0, result.output
    with Session(restored.extensions["db_engine"]) as session:
        assert session.exec(select(Club)).one().confirm_hands
        assert session.exec(select(Club)).one().prefers_sixes
        assert [m.player_id for m in session.exec(select(Member).order_by(Member.id))] == [2, 5]
    assert server_backup(restored)["members"] == document["members"]


@pytest.mark.parametrize("player_ids, refusal", [
    ([99, None], "members[0].player_id: there is no player 99 in the file"),
    ([3, 3], "members[1].player_id: 3 is in the file twice (also members[0])")])
def test_a_members_player_must_be_one_player_of_the_file(app, history, player_ids, refusal):
    document = server_backup(history[0])
    for member, player_id in zip(document["members"], player_ids):
        member["player_id"] = player_id
    with pytest.raises(FileRefused) as refused:
        restore_into(app, document)
    assert str(refused.value) == refusal
    assert counts(app) == EMPTY


def test_a_members_link_must_be_a_link_of_the_file(app, history):
    document = server_backup(history[0])
    document["members"][1]["invite_id"] = 5
    with pytest.raises(FileRefused) as refused:
        restore_into(app, document)
    assert str(refused.value) == "members[1].invite_id: there is no link 5 in the file"
    assert counts(app) == EMPTY


def test_a_server_backup_from_before_members_kept_their_link_restores_its_members(
        history, tmp_path):
    document = server_backup(history[0])
    for member in document["members"]:
        assert member.pop("invite_id") is None  # they were let in by the tests, not a link
    path = tmp_path / "club.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    app = fresh_app()
    result = app.test_cli_runner().invoke(args=["restore", str(path)])
    assert result.exit_code == 0, result.output
    assert "Its members are back" in result.stdout
    with Session(app.extensions["db_engine"]) as session:
        assert [(m.name, m.invite_id) for m in session.exec(select(Member))] == \
            [("Owner", None)] * 2


@pytest.fixture
def umask_022():
    """The usual umask, under which a file is made readable by every user."""
    before = os.umask(0o022)
    yield
    os.umask(before)


def test_the_backup_file_is_the_servers_users_alone(history, tmp_path, umask_022):
    """It holds live links, which let their holder in."""
    fresh, old = tmp_path / "club.json", tmp_path / "old.json"
    old.write_text("an older backup")
    old.chmod(0o644)
    for path in (fresh, old):
        result = history[0].test_cli_runner().invoke(args=["backup", str(path)])
        assert result.exit_code == 0, result.output
        assert path.stat().st_mode & 0o777 == 0o600
        assert json.loads(path.read_text(encoding="utf-8"))["format"] == "scorekeeper-backup/1"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["club.json", "old.json"]


def test_a_backup_into_a_missing_folder_says_so(history, tmp_path):
    path = tmp_path / "gone" / "club.json"
    result = history[0].test_cli_runner().invoke(args=["backup", str(path)])
    assert result.exit_code == 1
    assert result.stderr == (f"Error: nothing was backed up: {path}: "
                             "No such file or directory\n")
    assert not path.parent.exists()


def test_games_of_four_and_five_go_through_a_backup_as_they_were():
    """A game of two pairs with a substitute, and one of five each for themselves:
    restored into a fresh app, their pages read the same and the backup is the same."""
    app = fresh_app()
    client = client_as(app)
    pairs = start(client, NAMES[:4], "new", teams="2x2", target="11")
    # Ann deals; Bob (2, B) bids 4: B takes High, Low, Right, Game; A the Left and Joker.
    play(client, pairs, 1, f"4,{P},{P},{P}", "hearts", "BBBAA", "B")
    checked = client.post(f"/games/{pairs}/seats/substitute",
                          data={"seat": "3", "from_hand": "2", "name": "Eve"})
    assert checked.status_code == 200, checked.text[:1000]
    confirm = parse(checked.text).find("form", id="check-form") or next(
        form for form in parse(checked.text).find_all("form")
        if "Make this change" in form.text())
    fields = {field.get("name"): field.get("value") or "" for field in confirm.find_all("input")
              if field.get("name")}
    assert client.post(confirm.get("action"), data=fields).status_code == 303
    five = start(client, NAMES[:5], "1", teams="c5", target="9", first_dealer="5", table="2")
    # Eve deals; Ann (1, A) bids 3 and takes High, Low, Game: made; Eve (E) the Right
    # and the Joker, Bob (B) the Left.
    play(client, five, 1, f"3,{P},{P},{P},{P}", "clubs", "AAEBE", "A")
    document = backup_of(app)
    assert [(game["rules"]["teams"], game["seats"]) for game in document["games"]] == [
        ("2x2", NAMES[:4]), ("c5", NAMES[:5])]
    fresh = fresh_app()
    restore_into(fresh, document)
    assert backup_of(fresh) == document
    again, before = client_as(fresh), client_as(app)  # phones that changed nothing
    for url in (f"/games/{pairs}", f"/games/{five}", "/evenings/1"):
        assert main_text(again.get(url).text) == main_text(before.get(url).text), url
    assert scores(again.get(f"/games/{five}").text) == ["3", "1", "0", "0", "2"]
