"""The kept game page (scorekeeper/views/page_cache.py): always the page a fresh render gives.

Two apps share one database, as two app servers do: one keeps pages, the other renders
every request afresh. After each kind of change a game can see, every role in two
languages must get the same page from both (the CSRF token aside, which is each
session's own), and the keeping app must have answered from what it kept. The same
holds for a poll's answer after a change (the game part, the scoreboard): the second
phone catching up gets the first one's, never an answer for one phone alone.
"""
from __future__ import annotations

import re
import threading
from dataclasses import replace
from datetime import timedelta

import pytest

from scorekeeper import create_app
from scorekeeper.clubs.access import COOKIE
from scorekeeper.store.models import KeptAnswer, utcnow
from scorekeeper.views import games
from scorekeeper.web.languages import COOKIE as LANGUAGE_COOKIE
from sqlalchemy import select
from tests.databases import database_url
from tests.members import member_cookie
from tests.new_games import start_game_as
from tests.patience import until
from tests.views.view_helpers import Page, calls_for, hand_form, parse

HX = {"HX-Request": "true"}
ROLES = ("owner", "scorer", "viewer")
TOKEN = re.compile(r'(name="csrf-token" content="|name="csrf_token" type="hidden" value="'
                   r'|name="csrf_token" value=")[^"]+"')


def make_app(url: str, **config):
    return create_app({"TESTING": True, "DATABASE_URL": url, "SECRET_KEY": "cache-test",
                       "WTF_CSRF_ENABLED": False, **config})


@pytest.fixture
def apps(tmp_path):
    """(keeping, fresh): the same database, the second keeping nothing."""
    url = database_url(f"sqlite:///{tmp_path / 'shared.sqlite'}")
    keeping, fresh = make_app(url), make_app(url, PAGE_CACHE_BYTES=0)
    assert fresh.extensions["page_cache"] is None
    yield keeping, fresh
    for app in (keeping, fresh):
        app.extensions["db_engine"].dispose()


@pytest.fixture
def phones(apps):
    """(role, language) -> (a phone on the keeping app, the same phone on the fresh one)."""
    keeping, fresh = apps
    found = {}
    for role in ROLES:
        cookie = member_cookie(keeping, role, name=f"{role.title()} Phone")
        for language in ("en", "fa"):
            pair = []
            for app in (keeping, fresh):
                phone = app.test_client()
                phone.set_cookie(COOKIE, cookie)
                phone.set_cookie(LANGUAGE_COOKIE, language)
                pair.append(phone)
            found[role, language] = tuple(pair)
    return found


def without_tokens(html: str) -> str:
    return TOKEN.sub(r'\1TOKEN"', html)


def check_pages(apps, phones, game_id: int) -> dict[tuple[str, str], str]:
    """Every phone's page from both apps; the kept ones must be kept and the same."""
    cache = apps[0].extensions["page_cache"]
    pages = {}
    for key, (kept_phone, fresh_phone) in phones.items():
        first = kept_phone.get(f"/games/{game_id}")
        hits = cache.hits
        again = kept_phone.get(f"/games/{game_id}")
        assert cache.hits == hits + 1, f"{key}: the second visit was rendered again"
        fresh = fresh_phone.get(f"/games/{game_id}")
        assert first.status_code == again.status_code == fresh.status_code == 200
        for response in (first, again):
            assert without_tokens(response.text) == without_tokens(fresh.text), key
        # The kept page carries this session's token (signed anew: the same payload).
        assert Page(again).csrf_meta().split(".")[0] == Page(first).csrf_meta().split(".")[0]
        pages[key] = fresh.text
    return pages


def test_after_every_kind_of_change_the_kept_page_is_the_fresh_one(apps, phones, monkeypatch):
    keeping, fresh = apps
    # Phones that make the changes (their notices are theirs), one on each server.
    owner, other_server, scorer = keeping.test_client(), fresh.test_client(), keeping.test_client()
    cookie = member_cookie(keeping, "owner", name="Olga")
    owner.set_cookie(COOKIE, cookie)
    other_server.set_cookie(COOKIE, cookie)
    scorer.set_cookie(COOKIE, member_cookie(keeping, "scorer", name="Sam"))
    game = start_game_as(owner, target="5", evening="new")
    pages = check_pages(apps, phones, game)
    assert "No hands yet." in pages["viewer", "en"]

    # A scorer's step of hand 1: the watchers see the bid, the other scorers are told.
    scorer.get(f"/games/{game}?number=1&revision=1&calls=pass,4", headers=HX)
    pages = check_pages(apps, phones, game)
    assert "Bob: pass Cid: 4" in parse(pages["viewer", "en"]).text()
    assert "Another phone is entering hand 1" in pages["owner", "en"]

    # Hand 1 recorded through the other app server: Cid (C) bids 4 and takes 2.
    cid_bids_4 = calls_for(1, {3: 4})
    assert other_server.post(f"/games/{game}/hands",
                             data=hand_form(1, cid_bids_4, "hearts", "ABBCC", "A")
                             ).status_code == 303
    pages = check_pages(apps, phones, game)
    assert 'aria-label="Team C: −4 points"' in pages["owner", "en"]
    assert "Edit hand 1" in pages["owner", "en"]

    # Corrected: C takes 3 points and makes its bid... no: 3 < 4, still set, by 4.
    assert owner.post(f"/games/{game}/hands/1",
                      data=hand_form(1, cid_bids_4, "hearts", "ABCCC", "A")).status_code == 303
    pages = check_pages(apps, phones, game)
    assert "Right Bauer C" in pages["owner", "en"]  # was B's

    # Undone, then brought back.
    assert owner.post(f"/games/{game}/hands/undo", data={"number": "1"}).status_code == 303
    pages = check_pages(apps, phones, game)
    assert "Bring hand 1 back" in pages["owner", "en"]
    restore = Page(owner.get(f"/games/{game}")).button("Bring hand 1 back")[0]
    assert owner.post(restore.action, data=dict(restore.fields())).status_code == 303
    pages = check_pages(apps, phones, game)
    assert "Bring hand 1 back" not in pages["owner", "en"]

    # Bob and Cid sat the other way round (through the other server), then a forgotten
    # throw-in is put in before hand 1, then the game is abandoned and taken back.
    assert other_server.post(f"/games/{game}/seats/swap", data={
        "first": "2", "second": "3", "confirm": "y"}).status_code == 303
    pages = check_pages(apps, phones, game)
    assert "Cid & Eve" in parse(pages["viewer", "en"]).text()
    assert owner.post(f"/games/{game}/hands/insert", data={
        "number": "1", "bid": "passed", "confirm": "y"}).status_code == 303
    pages = check_pages(apps, phones, game)
    assert "All passed: thrown in." in pages["owner", "en"]
    for kind in ("abandon", "reinstate"):
        assert owner.post(f"/games/{game}/{kind}", data={"confirm": "y"}).status_code == 303
        pages = check_pages(apps, phones, game)
        assert ("This game was abandoned" in pages["viewer", "en"]) == (kind == "abandon")

    # Hand 3 (Bob's seat deals, the throw-in kept Ann's deal for hand 2): Eve (B) bids
    # 3 and sweeps, B passes 5: the game is over.
    assert owner.post(f"/games/{game}/hands",
                      data=hand_form(3, calls_for(2, {5: 3}), "spades", "BBBBB", "B")
                      ).status_code == 303
    pages = check_pages(apps, phones, game)
    assert "Game over" in pages["owner", "en"] and "Next game, same seats" in pages["owner", "en"]
    assert "kept as it was" not in pages["owner", "en"]

    # Three days on, nothing in the game changed, but its evening is over.
    later = utcnow() + timedelta(days=3)
    monkeypatch.setattr("scorekeeper.table.evenings.utcnow", lambda: later)
    pages = check_pages(apps, phones, game)
    assert "kept as it was" in pages["owner", "en"]
    assert "Next game, same seats" not in pages["owner", "en"]


def test_a_kept_page_carries_the_visitors_own_token_and_its_forms_post(tmp_path):
    app = create_app({"TESTING": True, "SECRET_KEY": "cache-test",
                      "DATABASE_URL": database_url(f"sqlite:///{tmp_path / 'db.sqlite'}")})
    phones = []
    for name in ("Ann's phone", "Bob's phone"):
        phone = app.test_client()
        phone.set_cookie(COOKIE, member_cookie(app, "owner", name=name))
        phones.append(phone)
    first, second = phones
    token = Page(first.get("/games/new")).csrf_meta()
    game = start_game_as(first, csrf_token=token)
    first.get(f"/games/{game}")  # rendered and kept
    hits = app.extensions["page_cache"].hits
    page = Page(second.get(f"/games/{game}"))
    assert app.extensions["page_cache"].hits == hits + 1
    own_token = page.csrf_meta()
    assert own_token != token and app.extensions["page_cache"].marker not in page.text
    response = second.post(f"/games/{game}/hands",
                           data={**hand_form(1, calls_for(1, {3: 4}), "hearts", "ABBCC", "A"),
                                 "csrf_token": own_token})
    assert response.status_code == 303  # the kept page's token is Bob's session's own
    app.extensions["db_engine"].dispose()


def test_a_notice_from_the_last_change_is_shown_once_and_never_kept(client, start_game, play):
    game = start_game()
    client.get(f"/games/{game}")
    play(game, 1, calls_for(1, {3: 4}), "hearts", "ABBCC", "A")  # a plain form: a notice
    page = client.get(f"/games/{game}").text
    assert "Hand 1 recorded: " in page
    again = client.get(f"/games/{game}").text
    assert "Hand 1 recorded" not in again and "Hand 2" in again


def test_a_game_of_another_club_is_not_found_whatever_is_kept(app, client, start_game):
    from sqlmodel import Session

    from scorekeeper.store.models import Club

    game = start_game()
    assert client.get(f"/games/{game}").status_code == 200  # kept now
    with Session(app.extensions["db_engine"]) as session:
        other = Club(name="Other table")
        session.add(other)
        session.commit()
        other_id = other.id
    outsider = app.test_client()
    outsider.set_cookie(COOKIE, member_cookie(app, "owner", club_id=other_id))
    assert outsider.get(f"/games/{game}").status_code == 404


def test_a_head_request_keeps_nothing_for_the_next_visitor(app, client, start_game):
    """A HEAD's page would send the language picker home, not back to the game."""
    game = start_game()
    assert client.head(f"/games/{game}").status_code == 200
    assert len(app.extensions["page_cache"]) == 0
    page = Page(client.get(f"/games/{game}"))
    assert page.root.find("input", name="next").get("value") == f"/games/{game}"


# The poll's answer after a change: kept per revision like the page, for the next phone.

POLL = re.compile(r'hx-get="([^"]*/live\?[^"]*)"')
HX_GAME = {"HX-Request": "true", "HX-Target": "game"}
HX_BOARD = {"HX-Request": "true", "HX-Target": "board"}


def poll_of(phone, path: str) -> str:
    return POLL.search(phone.get(path).text).group(1).replace("&amp;", "&")


@pytest.fixture
def tables(apps):
    """(role, language) -> two members' phones on the keeping app, and the first one's
    twin on the fresh app (the same device, as if it polled the other server)."""
    keeping, fresh = apps
    found = {}
    for role in ROLES:
        for language in ("en", "fa"):
            cookies = [member_cookie(keeping, role, name=f"{role.title()} {n} {language}")
                       for n in (1, 2)]
            found[role, language] = []
            for app, cookie in ((keeping, cookies[0]), (keeping, cookies[1]),
                                (fresh, cookies[0])):
                phone = app.test_client()
                phone.set_cookie(COOKIE, cookie)
                phone.set_cookie(LANGUAGE_COOKIE, language)
                found[role, language].append(phone)
    return found


def poll_addresses(tables, game_id: int) -> dict:
    """What each phone polls now, from its game page and from the scoreboard."""
    return {(key, view): [poll_of(phone, f"/games/{game_id}" + ("/board" if view else ""))
                          for phone in phones]
            for key, phones in tables.items() for view in ("", "board")}


def check_polls(apps, tables, addresses: dict, kept: bool = True) -> dict:
    """Every phone's poll from both apps: the second phone's answer is the first one's,
    kept (or, ``kept=False``, rendered afresh), and the same as the fresh app's."""
    cache = apps[0].extensions["page_cache"]
    answers = {}
    for (key, view), urls in addresses.items():
        first, second, fresh = tables[key]
        headers = HX_BOARD if view else HX_GAME
        one = first.get(urls[0], headers=headers)
        hits = cache.hits
        two = second.get(urls[1], headers=headers)
        assert cache.hits == hits + kept, f"{key} {view}: the second phone's answer"
        again = fresh.get(urls[2], headers=headers)
        assert one.status_code == two.status_code == again.status_code == 200, (key, view)
        assert without_tokens(one.text) == without_tokens(two.text) == without_tokens(
            again.text), (key, view)
        assert one.headers.get("HX-Retarget") == two.headers.get("HX-Retarget")
        assert cache.marker not in two.text
        answers[key, view] = (one, two)
    return answers


def tokens(html: str) -> set[str]:
    return set(re.findall(r'name="csrf_token" (?:type="hidden" )?value="([^".]+)', html))


def test_phones_catching_up_on_a_change_get_the_first_ones_answer(apps, tables):
    keeping, fresh = apps
    owner, other_server = keeping.test_client(), fresh.test_client()
    cookie = member_cookie(keeping, "owner", name="Olga")
    owner.set_cookie(COOKIE, cookie)
    other_server.set_cookie(COOKIE, cookie)
    game = start_game_as(owner, target="5", evening="new")

    # Hand 1 recorded through the other server: every phone's answer tells who did what.
    addresses = poll_addresses(tables, game)
    assert other_server.post(f"/games/{game}/hands",
                             data=hand_form(1, calls_for(1, {3: 4}), "hearts", "ABBCC", "A")
                             ).status_code == 303
    answers = check_polls(apps, tables, addresses)
    one, two = answers[("scorer", "en"), ""]
    assert Page(two).notices()[0].startswith("Olga: recorded hand 1")
    assert "−4" in answers[("viewer", "en"), "board"][1].text
    assert "برگشت به بازی" in answers[("viewer", "fa"), "board"][1].text
    # Each scorer's answer holds its own session's token, never the first phone's.
    own = tokens(one.text), tokens(two.text)
    assert own[0] and own[1] and not own[0] & own[1]
    assert own[1] == tokens(tables["scorer", "en"][1].get(f"/games/{game}").text)

    # A scorer's step of hand 2: watchers and boards follow it, kept alike; a scorer's
    # poll says "another phone" for that phone alone: never kept.
    addresses = poll_addresses(tables, game)
    scorer = keeping.test_client()
    scorer.set_cookie(COOKIE, member_cookie(keeping, "scorer", name="Sam"))
    scorer.get(f"/games/{game}?number=2&revision=2&calls=pass,4", headers=HX)
    watched = {k: v for k, v in addresses.items() if k[0][0] == "viewer" or k[1]}
    answers = check_polls(apps, tables, watched)
    assert "pass" in answers[("viewer", "en"), ""][1].text
    size = len(keeping.extensions["page_cache"])
    mine = {k: v for k, v in addresses.items() if k not in watched}
    answers = check_polls(apps, tables, mine, kept=False)
    assert len(keeping.extensions["page_cache"]) == size
    assert answers[("owner", "en"), ""][0].headers["HX-Reswap"] == "none"

    # The game abandoned, through the other server: the scorers' answers are kept too.
    addresses = poll_addresses(tables, game)
    assert other_server.post(f"/games/{game}/abandon", data={"confirm": "y"}
                             ).status_code == 303
    answers = check_polls(apps, tables, addresses)
    assert "This game was abandoned" in answers[("owner", "en"), ""][1].text


def test_only_a_finished_games_copies_ask_whether_its_evening_is_over(
        apps, tables, monkeypatch):
    """A finished game's copies are kept under whether its evening is over (two reads);
    a game in play's are not: its phones catching up on a hand, the first one's answer
    drawn and the others' kept, never ask."""
    from scorekeeper.views import page_cache

    keeping, _fresh = apps
    asked: list[int] = []
    over = page_cache.evening_is_over
    monkeypatch.setattr(page_cache, "evening_is_over", lambda session, club, evening: (
        asked.append(evening), over(session, club, evening))[1])
    owner = keeping.test_client()
    owner.set_cookie(COOKIE, member_cookie(keeping, "owner", name="Olga"))
    game = start_game_as(owner, target="5", evening="new")
    for number, hand, finished in ((1, (calls_for(1, {3: 4}), "hearts", "ABBCC", "A"), False),
                                   (2, (calls_for(2, {5: 3}), "spades", "BBBBB", "B"), True)):
        addresses = poll_addresses(tables, game)
        assert owner.post(f"/games/{game}/hands", data=hand_form(number, *hand)
                          ).status_code == 303
        answers = check_polls(apps, tables, addresses)
        assert ("Game over" in answers[("owner", "en"), ""][1].text) == finished
        assert bool(asked) == finished, number


def test_a_poll_as_a_browser_sends_it_gets_the_answer_kept(apps):
    """A browser's poll carries its page's own mark (``page=``, app.js) and, from the
    hand's entry, the step's number: neither changes the answer, and the second phone
    gets the first one's answer kept, as a poll without them does."""
    keeping, _fresh = apps
    cache = keeping.extensions["page_cache"]
    owner = keeping.test_client()
    owner.set_cookie(COOKIE, member_cookie(keeping, "owner", name="Olga"))
    game = start_game_as(owner, target="5", evening="new")
    phones = []
    for name in ("Vera", "Walt"):
        phone = keeping.test_client()
        phone.set_cookie(COOKIE, member_cookie(keeping, "viewer", name=name))
        phones.append(phone)
    urls = [poll_of(phone, f"/games/{game}") for phone in phones]
    assert owner.post(f"/games/{game}/hands", data=hand_form(
        1, calls_for(1, {3: 4}), "hearts", "ABBCC", "A")).status_code == 303
    one = phones[0].get(urls[0] + "&page=k2v9q0xa", headers=HX_GAME)
    hits = cache.hits
    two = phones[1].get(urls[1] + "&page=7hm3p1zd&step=1796610031003", headers=HX_GAME)
    assert one.status_code == two.status_code == 200
    assert cache.hits == hits + 1
    assert without_tokens(one.text) == without_tokens(two.text)


def test_phones_woken_together_by_a_hand_get_one_answer_drawn(apps, monkeypatch):
    """A hand recorded wakes every phone at the table at the same moment: the first
    poll draws the answer, the others wait for it and take it kept, where each missed
    the kept copy and drew its own."""

    keeping, _fresh = apps
    cache = keeping.extensions["page_cache"]
    cache.drawn_once_seconds = 60  # the first draws only once the others all wait
    owner = keeping.test_client()
    owner.set_cookie(COOKIE, member_cookie(keeping, "owner", name="Olga"))
    game = start_game_as(owner, target="5", evening="new")
    phones = []
    for n in range(5):
        phone = keeping.test_client()
        phone.set_cookie(COOKIE, member_cookie(keeping, "viewer", name=f"Viewer {n}"))
        phones.append(phone)
    # Each page's polls carry its own mark, as a browser's do (app.js).
    urls = [poll_of(phone, f"/games/{game}") + f"&page=page{n}"
            for n, phone in enumerate(phones)]
    assert owner.post(f"/games/{game}/hands", data=hand_form(
        1, calls_for(1, {3: 4}), "hearts", "ABBCC", "A")).status_code == 303

    drawn, connections = [], []
    build_game = games.build_game
    pool = keeping.extensions["db_engine"].pool

    def drawn_when_the_others_wait(*args, **kwargs):
        drawn.append(1)
        until(lambda: cache.waiting() == len(phones) - 1)
        connections.append(pool.checkedout())  # the waiting polls hold none
        return build_game(*args, **kwargs)

    monkeypatch.setattr(games, "build_game", drawn_when_the_others_wait)
    answers: list = [None] * len(phones)

    def poll(n: int) -> None:
        answers[n] = phones[n].get(urls[n], headers=HX_GAME)

    threads = [threading.Thread(target=poll, args=(n,)) for n in range(len(phones))]
    hits = cache.hits
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(drawn) == 1 and cache.hits >= hits + len(phones) - 1
    assert connections == [1]
    assert {answer.status_code for answer in answers} == {200}
    assert len({without_tokens(answer.text) for answer in answers}) == 1
    assert "Hand 2" in answers[-1].text
    assert cache.waiting() == 0


def test_the_phone_entering_a_hand_gets_its_own_answer_never_kept(apps, tables):
    keeping, fresh = apps
    cache = keeping.extensions["page_cache"]
    owner = keeping.test_client()
    owner.set_cookie(COOKIE, member_cookie(keeping, "owner", name="Olga"))
    game = start_game_as(owner, target="5", evening="new")
    sam = keeping.test_client()
    sam.set_cookie(COOKIE, member_cookie(keeping, "scorer", name="Sam"))
    url = poll_of(sam, f"/games/{game}")
    sam.get(f"/games/{game}?number=1&calls=pass,4", headers=HX)  # Sam's hand in progress
    # Another phone changes the game (Bob and Cid swap seats): Sam's poll brings back
    # Sam's own entry, for Sam alone.
    assert owner.post(f"/games/{game}/seats/swap", data={
        "first": "2", "second": "3", "confirm": "y"}).status_code == 303
    hits, size = cache.hits, len(cache)
    answer = sam.get(url, headers=HX_GAME)
    assert answer.status_code == 200
    assert cache.hits == hits and len(cache) == size
    assert "Another phone is entering" not in answer.text
    # The other scorers' answer says another phone is entering the hand: kept for
    # them, never given to Sam.
    first, second, _ = tables["scorer", "en"]
    other = first.get(url, headers=HX_GAME)
    assert "Another phone is entering hand 1" in other.text
    own = tokens(second.get(f"/games/{game}").text)  # the page that phone polls from
    hits = cache.hits
    kept = second.get(url, headers=HX_GAME).text
    assert cache.hits == hits + 1
    assert without_tokens(kept) == without_tokens(other.text)
    assert tokens(kept) == own != tokens(other.text)
    again = sam.get(url, headers=HX_GAME)
    assert cache.hits == hits + 1
    assert without_tokens(again.text) == without_tokens(answer.text)


def test_a_finished_games_board_follows_its_evening_whatever_was_kept(apps, tables):
    keeping, fresh = apps
    owner = keeping.test_client()
    owner.set_cookie(COOKIE, member_cookie(keeping, "owner", name="Olga"))
    game = start_game_as(owner, target="5", evening="new")
    boards = {k: v for k, v in poll_addresses(tables, game).items() if k[1]}
    # Cid (C) bids 4 and takes all five points: C reaches 5, the game is over.
    assert owner.post(f"/games/{game}/hands",
                      data=hand_form(1, calls_for(1, {3: 4}), "hearts", "CCCCC", "C")
                      ).status_code == 303
    answers = check_polls(apps, tables, boards)
    assert "Team C" in answers[("viewer", "en"), "board"][1].text
    # The evening's next game begins: the old game's board, unchanged itself, now
    # offers to follow the table, on both servers alike.
    before = answers[("viewer", "en"), "board"][1].text
    evening = re.search(r'/evenings/(\d+)', before).group(1)
    start_game_as(owner, evening=evening)
    answers = check_polls(apps, tables, boards)
    assert without_tokens(answers[("viewer", "en"), "board"][1].text) != without_tokens(before)


def test_a_page_restored_by_the_back_button_is_never_taken_for_a_poll_answer(
        apps, tables):
    keeping, _ = apps
    cache = keeping.extensions["page_cache"]
    owner = keeping.test_client()
    owner.set_cookie(COOKIE, member_cookie(keeping, "owner", name="Olga"))
    game = start_game_as(owner)
    first, second, _ = tables["viewer", "en"]
    url = poll_of(first, f"/games/{game}")
    poll_of(second, f"/games/{game}")
    assert owner.post(f"/games/{game}/hands",
                      data=hand_form(1, calls_for(1, {3: 4}), "hearts", "ABBCC", "A")
                      ).status_code == 303
    restored = second.get(url, headers={**HX_GAME, "HX-History-Restore-Request": "true"})
    assert restored.text.lstrip().startswith("<!doctype")  # the whole page, for htmx
    hits = cache.hits
    assert first.get(url, headers=HX_GAME).text.lstrip().startswith('<div id="game"')
    assert second.get(url, headers=HX_GAME).text.lstrip().startswith('<div id="game"')
    assert cache.hits == hits + 1


def test_only_a_phone_behind_on_the_game_gets_the_answer_telling_what_changed(apps, tables):
    keeping, _ = apps
    owner = keeping.test_client()
    owner.set_cookie(COOKIE, member_cookie(keeping, "owner", name="Olga"))
    game = start_game_as(owner)
    first, second, fresh = tables["viewer", "en"]
    behind = poll_of(first, f"/games/{game}")
    assert owner.post(f"/games/{game}/hands",
                      data=hand_form(1, calls_for(1, {3: 4}), "hearts", "ABBCC", "A")
                      ).status_code == 303
    current = poll_of(second, f"/games/{game}")  # already showing hand 1
    owner.get(f"/games/{game}?number=2&revision=2&calls=pass,4", headers=HX)  # a step
    told = first.get(behind, headers=HX_GAME)
    assert Page(told).notices()[0].startswith("Olga: recorded hand 1")
    for phone in (second, fresh):
        answer = phone.get(current, headers=HX_GAME)  # the same game: only the step moved
        assert answer.status_code == 200 and Page(answer).notices() == []


def test_a_phone_polling_another_server_gets_the_answer_the_first_server_rendered(tmp_path):
    # Two servers keeping answers, one rendering afresh, all on one database: a table's
    # phones spread over both servers still cost one render of each answer.
    url = database_url(f"sqlite:///{tmp_path / 'servers.sqlite'}")
    one, two, fresh = make_app(url), make_app(url), make_app(url, PAGE_CACHE_BYTES=0)
    shared = [app.extensions["shared_answers"] for app in (one, two)]
    assert fresh.extensions["shared_answers"] is None
    owner = one.test_client()
    owner.set_cookie(COOKIE, member_cookie(one, "owner", name="Olga"))
    game = start_game_as(owner)
    phones = {}
    for role in ("viewer", "scorer"):
        cookies = [member_cookie(one, role, name=f"{role} {n}") for n in (1, 2)]
        for name, app, cookie in (("first", one, cookies[0]), ("second", two, cookies[1]),
                                  ("fresh", fresh, cookies[0])):
            phone = phones[role, name] = app.test_client()
            phone.set_cookie(COOKIE, cookie)
            phone.set_cookie(LANGUAGE_COOKIE, "fa")
    for number in (1, 2):
        polls = {key: poll_of(phone, f"/games/{game}") for key, phone in phones.items()}
        assert owner.post(f"/games/{game}/hands", data=hand_form(
            number, calls_for(number, {3: 4}), "hearts", "ABBCC", "A")).status_code == 303
        for role in ("viewer", "scorer"):
            kept, hits = shared[0].kept, shared[1].hits
            first = phones[role, "first"].get(polls[role, "first"], headers=HX_GAME)
            assert shared[0].kept == kept + 1, role  # rendered on the first server, kept
            second = phones[role, "second"].get(polls[role, "second"], headers=HX_GAME)
            assert shared[1].hits == hits + 1, f"{role}: the other server rendered it again"
            again = phones[role, "fresh"].get(polls[role, "fresh"], headers=HX_GAME)
            assert first.status_code == second.status_code == again.status_code == 200
            assert without_tokens(second.text) == without_tokens(again.text) == (
                without_tokens(first.text)), role
            assert one.extensions["page_cache"].marker not in second.text
            if role == "scorer":  # its forms carry the second phone's own token
                own = tokens(phones[role, "second"].get(f"/games/{game}").text)
                assert tokens(second.text) == own and not own & tokens(first.text)
        with one.app_context():
            engine = one.extensions["db_engine"]
            with engine.connect() as connection:
                revisions = {row.revision for row in connection.execute(
                    select(KeptAnswer.revision).where(KeptAnswer.game_id == game))}
        assert revisions == {number + 1}, "older revisions' copies are dropped"
    for app in (one, two, fresh):
        app.extensions["db_engine"].dispose()


def test_a_server_running_other_code_never_reads_what_another_kept(tmp_path):
    url = database_url(f"sqlite:///{tmp_path / 'versions.sqlite'}")
    old, new = make_app(url), make_app(url)
    new.extensions["shared_answers"]._build = "another version of the app"
    owner = old.test_client()
    owner.set_cookie(COOKIE, member_cookie(old, "owner", name="Olga"))
    game = start_game_as(owner)
    phones = []
    for app in (old, new):
        phone = app.test_client()
        phone.set_cookie(COOKIE, member_cookie(old, "viewer", name=f"Vic {len(phones)}"))
        phones.append((phone, poll_of(phone, f"/games/{game}")))
    assert owner.post(f"/games/{game}/hands", data=hand_form(
        1, calls_for(1, {3: 4}), "hearts", "ABBCC", "A")).status_code == 303
    for phone, poll in phones:
        assert phone.get(poll, headers=HX_GAME).status_code == 200
    assert old.extensions["shared_answers"].kept == 1
    assert new.extensions["shared_answers"].hits == 0
    assert new.extensions["shared_answers"].kept == 1  # its own copy, under its own key
    for app in (old, new):
        app.extensions["db_engine"].dispose()


def test_a_page_one_hand_behind_gets_just_what_the_hand_changed_kept_for_the_next(
        apps, tables):
    keeping, fresh_app = apps
    owner = keeping.test_client()
    owner.set_cookie(COOKIE, member_cookie(keeping, "owner", name="Olga"))
    game = start_game_as(owner, target="99")
    for role in ("viewer", "scorer"):
        first, second, fresh = tables[role, "fa"]
        two_behind = poll_of(first, f"/games/{game}")
        behind = {}
        for number in (1, 2):
            # The phones show hand 1 when hand 2 is recorded.
            behind = {phone: poll_of(phone, f"/games/{game}") for phone in (first, second, fresh)}
            assert owner.post(f"/games/{game}/hands", data=hand_form(
                number, calls_for(number, {3: 4}), "hearts", "ABBCC", "A")).status_code == 303
        cache = keeping.extensions["page_cache"]
        one = first.get(behind[first], headers=HX_GAME)
        hits = cache.hits
        two = second.get(behind[second], headers=HX_GAME)
        assert cache.hits == hits + 1, role
        again = fresh.get(behind[fresh], headers=HX_GAME)
        for answer in (one, two, again):
            assert answer.status_code == 200 and answer.headers["HX-Reswap"] == "none"
            assert not answer.text.lstrip().startswith('<div id="game"')
            parsed = parse(answer.text)
            swapped = {node.get("id") for node in parsed.iter() if node.get("hx-swap-oob")}
            assert {"scores", "hand-entry", "hands-top", "tonight"} <= swapped, swapped
            row = parsed.find("li", id="deal-2")
            assert row.parent.get("hx-swap-oob").startswith("beforebegin:#deal-1")
        assert without_tokens(one.text) == without_tokens(two.text) == without_tokens(
            again.text), role
        # Two changes behind: the whole game part, as ever.
        whole = first.get(two_behind, headers=HX_GAME)
        assert whole.text.lstrip().startswith('<div id="game"')
        assert "HX-Reswap" not in whole.headers
        assert owner.post(f"/games/{game}/hands/undo", data={"number": 2}).status_code == 303
        assert owner.post(f"/games/{game}/hands/undo", data={"number": 1}).status_code == 303


def test_a_page_two_hands_behind_by_the_time_the_game_is_read_gets_the_whole_game(
        apps, tables, monkeypatch):
    # The poll's first read says one change behind; two hands are recorded before the
    # game itself is read: only the whole game part can bring both.
    from scorekeeper.table.live import game_head
    import scorekeeper.views.games as games_view

    keeping, _ = apps
    owner = keeping.test_client()
    owner.set_cookie(COOKIE, member_cookie(keeping, "owner", name="Olga"))
    game = start_game_as(owner, target="99")
    first, _, _ = tables["viewer", "en"]
    for number in (1, 2, 3):
        assert owner.post(f"/games/{game}/hands", data=hand_form(
            number, calls_for(number, {3: 4}), "hearts", "ABBCC", "A")).status_code == 303
    behind = poll_of(first, f"/games/{game}")  # showing hand 3
    shown = int(behind.split("v=")[1].split(".")[0].split("&")[0])
    for number in (4, 5):
        assert owner.post(f"/games/{game}/hands", data=hand_form(
            number, calls_for(number, {3: 4}), "hearts", "ABBCC", "A")).status_code == 303

    def head_read_between(connection, club_id, game_id):
        head = game_head(connection, club_id, game_id)
        return replace(head, revision=shown + 1)  # as read before hand 5 was recorded

    monkeypatch.setattr(games_view, "game_head", head_read_between)
    answer = first.get(behind, headers=HX_GAME)
    assert answer.status_code == 200
    assert answer.text.lstrip().startswith('<div id="game"'), "not just the last hand"
    assert "HX-Reswap" not in answer.headers
    rows = [row.get("id") for row in parse(answer.text).find_all("li", class_="deal")]
    assert rows[:2] == ["deal-5", "deal-4"]
