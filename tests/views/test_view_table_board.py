"""The table board: one address for a TV that shows the evening's current game, moves on
to the next game by itself, and shows the evening's games won between games.

Hand-worked games (target 5, three pairs, Ann deals first): "B sweeps" is Bob (B)
bidding 3 and taking all six points: B 6 >= 5, so Bob & Eve win at hand 1. "C is set"
is Cid (C) bidding 4 with High, Low, Right, Left to A and the Joker to B, Game tied:
C -4, A +4, B +1; nobody has 5, the game goes on.
"""
from __future__ import annotations

import re
from datetime import timedelta

import pytest
from sqlalchemy import event, update
from scorekeeper.store.models import Game, utcnow
from tests.members import client_as
from tests.views.view_helpers import HTMX, Page, calls_for

B_SWEEPS = (calls_for(1, {2: 3}), "hearts", "BBBBB", "B")  # with Ann dealing
C_IS_SET = (calls_for(1, {3: 4}), "hearts", "AAAAB", "none")


def poll_of(html: str) -> str:
    match = re.search(r'hx-get="([^"]*/live\?[^"]*)" hx-trigger="load, every 2s" hx-request=[^>]*? hx-target="#board"',
                      html)
    assert match, "the board does not poll"
    return match.group(1).replace("&amp;", "&")


def test_the_table_board_shows_the_current_game_and_follows_the_next_one(
        app, client, evening, play):
    one = evening.game()
    play(one, 1, *B_SWEEPS)
    two = evening.game()
    tv = client_as(app, "viewer", name="TV")
    board = tv.get(f"/evenings/{evening.id}/board")
    assert board.status_code == 200
    page = Page(board)
    assert page.root.find("div", id="board").get("data-game") == str(two)
    assert "Hand 1. Dealer: Ann. Bob bids first." in page.text
    url = poll_of(board.text)
    assert url.startswith(f"/evenings/{evening.id}/live?v=")
    assert tv.get(url, headers=HTMX).status_code == 204  # nothing changed: nothing sent

    # A hand of game 2 is recorded: the board brings the new scores.
    play(two, 1, *C_IS_SET)
    moved = tv.get(url, headers=HTMX)
    assert moved.status_code == 200
    assert moved.text.lstrip().startswith('<div id="board"')
    assert 'aria-label="Team A: 4 points"' in moved.text
    # Game 2's Game was tied: the board says it as the game page does.
    assert "Game nobody" in Page(moved).text and "Game —" not in moved.text
    url = poll_of(moved.text)

    # Game 2 is won: between games, the evening's tally (Bob and Eve 2 games each).
    play(two, 2, calls_for(2, {5: 3}), "spades", "BBBBB", "B")
    between = tv.get(url, headers=HTMX)
    assert "Bob & Eve win!" in Page(between).text
    tally = Page(between).section_text("board-tally")
    assert tally.startswith("Games won this evening")
    assert "Bob 2" in tally and "Eve 2" in tally and "Ann 0" in tally
    url = poll_of(between.text)
    assert tv.get(url, headers=HTMX).status_code == 204

    # Game 3 starts on a phone: the board moves to it by itself, and its address with it.
    three = evening.game()
    following = tv.get(url, headers=HTMX)
    assert following.status_code == 200
    assert Page(following).root.find("div", id="board").get("data-game") == str(three)
    assert following.headers["HX-Replace-Url"] == f"/evenings/{evening.id}/board"
    assert Page(following).by_id("board-tally") is None  # a game is in play again


def test_a_games_own_board_follows_the_evening_once_the_game_is_over(client, evening, play):
    one = evening.game()
    in_play = client.get(f"/games/{one}/board")
    assert poll_of(in_play.text).startswith(f"/games/{one}/live?")  # its own game, in play
    play(one, 1, *B_SWEEPS)
    over = client.get(poll_of(in_play.text), headers=HTMX)
    url = poll_of(over.text)
    assert url.startswith(f"/evenings/{evening.id}/live?")  # over: it follows the table
    assert "Bob 1" in Page(over).section_text("board-tally")
    two = evening.game()
    moved = client.get(url, headers=HTMX)
    assert Page(moved).root.find("div", id="board").get("data-game") == str(two)
    assert moved.headers["HX-Replace-Url"] == f"/evenings/{evening.id}/board"
    # Opened later, the finished game's board shows that game, and offers the table's.
    page = Page(client.get(f"/games/{one}/board"))
    assert page.root.find("div", id="board").get("data-game") == str(one)
    assert f"The table is at game {two} now." in page.text
    (link,) = [a for a in page.root.find_all("a") if a.text() == "Follow the table"]
    assert link.get("href") == f"/evenings/{evening.id}/board"
    assert poll_of(page.html).startswith(f"/games/{one}/live?")


def test_an_abandoned_game_is_not_the_current_game_nor_in_the_tally(client, db, evening, play):
    one = evening.game()
    play(one, 1, *B_SWEEPS)
    two = evening.game()
    url = poll_of(client.get(f"/evenings/{evening.id}/board").text)
    game = db.get(Game, two)
    game.abandoned_at = utcnow()
    db.add(game)
    db.commit()
    board = client.get(url, headers=HTMX)
    assert board.status_code == 200  # the abandoned game is gone from the TV
    assert Page(board).root.find("div", id="board").get("data-game") == str(one)
    assert "Bob 1" in Page(board).section_text("board-tally")
    page = Page(client.get(f"/evenings/{evening.id}"))
    assert f"Game {two} · abandoned" in page.text
    assert "1 game finished." in page.text  # the abandoned game is counted nowhere
    game.abandoned_at = None
    db.add(game)
    db.commit()
    assert Page(client.get(url, headers=HTMX)).root.find(
        "div", id="board").get("data-game") == str(two)


def test_an_evening_with_no_game_in_play_waits_for_the_next(client, db, evening):
    one = evening.game()
    game = db.get(Game, one)
    game.abandoned_at = utcnow()
    db.add(game)
    db.commit()
    board = client.get(f"/evenings/{evening.id}/board")
    assert board.status_code == 200
    assert "the next one shows here as soon as it starts" in Page(board).text
    url = poll_of(board.text)
    assert client.get(url, headers=HTMX).status_code == 204
    two = evening.game()
    assert Page(client.get(url, headers=HTMX)).root.find(
        "div", id="board").get("data-game") == str(two)


@pytest.mark.parametrize("board", ["board", "tables"])  # a table's; every table's
def test_an_unchanged_board_poll_costs_two_small_reads(app, client, evening, board):
    evening.game()
    url = poll_of(client.get(f"/evenings/{evening.id}/{board}").text)
    statements: list[str] = []
    engine = app.extensions["db_engine"]
    listener = lambda *args: statements.append(args[2])  # noqa: E731 (the statement text)
    event.listen(engine, "before_cursor_execute", listener)
    try:
        poll = client.get(url, headers=HTMX)
    finally:
        event.remove(engine, "before_cursor_execute", listener)
    assert poll.status_code == 204 and poll.data == b""
    assert dict(poll.headers) == {"Cache-Control": "no-store"}
    assert len(statements) == 2, statements  # who is asking; the evening's head
    assert "FROM device JOIN member" in statements[0] and "FROM evening" in statements[1]


def test_the_share_page_offers_the_table_board_with_its_qr_code(app, client, evening):
    game = evening.game()
    for phone in (client, client_as(app, "scorer", name="Sam")):
        page = Page(phone.get(f"/club/share/{game}"))
        card = page.root.find("section", class_="table-board-link")
        assert card is not None and card.find("h2").text() == "Table board for a TV"
        assert card.find("div", class_="qr").find("svg") is not None
        assert card.find("a").get("href") == f"http://localhost/evenings/{evening.id}/board"
    page = Page(client.get(f"/evenings/{evening.id}"))
    assert any(a.get("href") == f"/evenings/{evening.id}/board"
               for a in page.root.find_all("a"))


def test_another_clubs_evening_board_is_no_page(app, client, stranger, evening):
    evening.game()
    for url in (f"/evenings/{evening.id}/board", f"/evenings/{evening.id}/live?v=1"):
        assert stranger.get(url).status_code == 404
    for url in ("/evenings/999/board", "/evenings/999/live?v=1",
                "/evenings/99999999999/live?v=1"):
        assert client.get(url).status_code == 404


def test_a_watcher_sees_game_among_the_points_so_far(app, client, evening):
    game = evening.game()
    viewer = client_as(app, "viewer", name="Vera")
    calls = calls_for(1, {2: 3})
    client.get(f"/games/{game}", headers=HTMX, query_string={
        "number": "1", "calls": calls, "trump": "hearts", "high": "B", "game": "none"})
    points = Page(viewer.get(f"/games/{game}")).section_text("live-points")
    assert points == "Points so far: High → B · Game → nobody"
    client.get(f"/games/{game}", headers=HTMX, query_string={
        "number": "1", "calls": calls, "trump": "hearts", "game": "C"})
    assert Page(viewer.get(f"/games/{game}")).section_text("live-points") == \
        "Points so far: Game → C"


def test_a_game_page_replays_the_evenings_other_games_only_once_they_change(
        client, evening, play, monkeypatch):
    """The line "Games won this evening" on a game page counts every game of the
    evening. Each other game is replayed for it once, then again only after it changed:
    its part of the tally is kept per state of the game."""
    from scorekeeper.table import evenings

    replayed: list[int] = []
    read = evenings.load_replays
    monkeypatch.setattr(evenings, "load_replays", lambda session, games: (
        replayed.extend(game.id for game in games), read(session, games))[1])
    one = evening.game()
    play(one, 1, *B_SWEEPS)  # Bob & Eve win
    two = evening.game()
    play(two, 1, *C_IS_SET)
    three = evening.game()
    tonight = lambda: Page(client.get(f"/games/{three}")).root.find("p", class_="tonight").text()  # noqa: E731
    assert "Bob 1" in tonight() and set(replayed) <= {one, two}

    play(two, 2, calls_for(2, {5: 3}), "spades", "BBBBB", "B")  # Bob & Eve win again
    replayed.clear()
    play(three, 1, *C_IS_SET)  # game 3's page changes, and is drawn again
    assert "Bob 2" in tonight() and replayed == [two]
    replayed.clear()
    play(three, 2, calls_for(2, {3: 4}), "hearts", "AAAAB", "none")
    assert "Bob 2" in tonight() and replayed == []


def test_a_hand_at_one_table_is_counted_with_no_read_of_the_evenings_other_games(
        app, client, evening, play, monkeypatch):
    """At a big evening a hand at one table is counted from the evening's last count and
    that table's game as its page read it: the other tables' games are not read (a row
    each, every hand); the tally is the one they would give read afresh."""
    from sqlmodel import Session

    from scorekeeper.store.models import Evening
    from scorekeeper.table import evenings

    parts_now = evenings._parts_now
    _one, two, read = evening_counted_once(client, evening, play, monkeypatch, won=1)
    play(two, 2, calls_for(2, {5: 3}), "spades", "BBBBB", "B")  # Bob & Eve win game 2
    assert "Bob 2" in tonight_at(client, two) and read == []
    with app.test_request_context(), Session(app.extensions["db_engine"]) as session:
        afresh = parts_now(session, session.get(Evening, evening.id), (), None)
        counted = evenings.evening_tally(session, session.get(Evening, evening.id))
    assert counted == evenings.tally_of([part for _revision, part in afresh.values()])


def test_a_hand_at_another_table_meanwhile_reads_only_the_games_changed_since(
        client, evening, play, monkeypatch):
    """A change the page did not read (a hand at another table) is not in the last count:
    the games changed since it was read are read, not the whole evening."""
    from scorekeeper.table import evenings

    one, two, read = evening_counted_once(client, evening, play, monkeypatch, won=2)
    changed: list[list[int]] = []
    since = evenings._changed_since
    monkeypatch.setattr(evenings, "_changed_since", lambda *args: (
        found := since(*args), changed.append(sorted(found or ())))[0])
    play(one, 2, calls_for(2, {5: 3}), "spades", "BBBBB", "B")  # Bob & Eve win game 1
    assert "Bob 2" in tonight_at(client, two) and read == [] and changed == [[one, two]]


def test_a_change_written_late_has_the_evening_read_whole(
        app, client, evening, play, monkeypatch):
    """A change whose time is older than the last count (written late, or by a server
    whose clock is behind) is not among the games changed since: the revisions summed
    fall short of the evening's, and the evening is read whole."""
    one, two, read = evening_counted_once(client, evening, play, monkeypatch, won=2)
    play(one, 2, calls_for(2, {5: 3}), "spades", "BBBBB", "B")  # Bob & Eve win game 1
    with app.app_context():
        engine = app.extensions["db_engine"]
        with engine.begin() as connection:
            connection.execute(update(Game).where(Game.id == one).values(
                changed_at=utcnow() - timedelta(hours=1)))
    assert "Bob 2" in tonight_at(client, two) and read == [evening.id]


def test_a_hand_that_ends_no_game_leaves_the_tally_as_counted(
        client, evening, play, monkeypatch):
    """Most hands neither end their game nor change who sits in it: every game's part of
    the evening's tally is as last counted, and the tally is that count's, not counted
    again."""
    from scorekeeper.table import evenings

    _one, two, read = evening_counted_once(client, evening, play, monkeypatch, won=1)
    counted: list[int] = []
    count = evenings.tally_of
    monkeypatch.setattr(evenings, "tally_of", lambda parts: (
        counted.append(len(parts)), count(parts))[1])
    play(two, 2, calls_for(2, {3: 4}), "hearts", "CCCCC", "C")
    assert "Bob 1" in tonight_at(client, two) and counted == [] and read == []


def evening_counted_once(client, evening, play, monkeypatch, won: int):
    """Two games of the evening, game ``won`` (1 or 2) won by Bob & Eve in one hand, the
    other a hand in; game two's page drawn once (the evening counted), and from then on
    each read of the evening's games noted: (game one, game two, the evenings read)."""
    from scorekeeper.table import evenings

    one = evening.game()
    play(one, 1, *(B_SWEEPS if won == 1 else C_IS_SET))
    two = evening.game()
    play(two, 1, *(B_SWEEPS if won == 2 else C_IS_SET))
    assert "Bob 1" in tonight_at(client, two)
    read: list[int] = []
    parts_now = evenings._parts_now
    monkeypatch.setattr(evenings, "_parts_now", lambda session, evening, *rest: (
        read.append(evening.id), parts_now(session, evening, *rest))[1])
    return one, two, read


def tonight_at(client, game: int) -> str:
    """The "Games won this evening" line of the game's page."""
    return Page(client.get(f"/games/{game}")).root.find("p", class_="tonight").text()


def test_the_evenings_tally_is_worked_out_once_for_every_phone(
        app, client, evening, play, monkeypatch):
    """After a hand, the scorer's page and a viewer's page both show the evening's tally:
    it is worked out once for that state of the evening, and again after a change."""
    from scorekeeper.table import evenings

    worked: list[int] = []
    work = evenings.tally_of
    monkeypatch.setattr(evenings, "tally_of", lambda parts: (
        worked.append(evening.id), work(parts))[1])
    one = evening.game()
    play(one, 1, *B_SWEEPS)
    two = evening.game()
    play(two, 1, *C_IS_SET)
    viewer = client_as(app, "viewer", name="Vic")
    tonight = lambda phone: Page(phone.get(f"/games/{two}")).root.find(  # noqa: E731
        "p", class_="tonight").text()
    worked.clear()
    assert "Bob 1" in tonight(client) and "Bob 1" in tonight(viewer)
    assert worked == [evening.id]
    play(two, 2, calls_for(2, {5: 3}), "spades", "BBBBB", "B")  # Bob & Eve win game 2
    assert "Bob 2" in tonight(viewer) and "Bob 2" in tonight(client)
    assert worked == [evening.id] * 2
