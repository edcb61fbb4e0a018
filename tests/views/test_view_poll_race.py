"""A hand recorded while a watcher's poll reads the game: the answer is the game as it was
or as it is, never one read half before the hand and half after.

A watcher's page follows each step of the hand being entered on another phone, so the
step just before Record wakes its poll, and Record lands while that poll's answer reads
the game. Each of the answer's reads is a statement of its own: a hand committed between
the game's row (its revision) and its hands must not give a page that shows the new hand
under the revision before it. That page would be the whole game where the hand's parts
were due, and its poll would ask as if the hand were still to come.

Here the hand is committed just before each read of the watcher's poll in turn (as in
test_view_board_race.py): whenever it lands, the answer that brings it is the hand's
parts under the new revision, or the answer is the game before it and the next poll
brings the parts. A hand corrected meanwhile likewise: the answer shows that hand as the
revision its poll names has it.
"""
from __future__ import annotations

import re

import lxml.html
from sqlmodel import Session

from scorekeeper.store import replay as replay_module
from scorekeeper.store.models import Game
from tests.members import client_as
from tests.views.test_view_board_race import ChangeBefore, phone_posting
from tests.views.view_helpers import HTMX, calls_for, hand_form

BOB_BIDS_3 = calls_for(1, {2: 3})  # Ann deals hand 1: Bob (seat 2, team B) calls first
CID_BIDS_4 = calls_for(2, {3: 4})  # Bob deals hand 2: Cid (seat 3, team C) calls first
HAND_2 = (CID_BIDS_4, "spades", "CCCCC", "C")


def poll_of(html: str) -> tuple[str, str]:
    """(the address the answer's poll asks next, the version it names)."""
    match = re.search(r'hx-get="([^"]*/live\?v=([\d.]+)[^"]*)"', html)
    assert match, "the answer does not poll"
    return match.group(1).replace("&amp;", "&"), match.group(2)


def watched_after_hand_1(app, start_game, play) -> tuple[int, object, str]:
    """A game to 999 with hand 1 recorded, and a watcher's phone on it: (the game, the
    watcher, its page)."""
    game = start_game(target="999")
    play(game, 1, BOB_BIDS_3, "hearts", "ABBCC", "A")
    viewer = client_as(app, "viewer", name="Vera")
    return game, viewer, viewer.get(f"/games/{game}").text


def test_a_hand_recorded_while_a_watchers_poll_reads_the_game_comes_in_parts(
        app, client, start_game, play):
    at = 0
    while True:
        game, viewer, page = watched_after_hand_1(app, start_game, play)
        url, shown = poll_of(page)
        assert shown.split(".")[0] == "2"  # the game after hand 1
        # The last step of hand 2 on the owner's phone wakes the watcher's poll ...
        calls, trump, owners, game_point = HAND_2
        step = f"number=2&revision=2&calls={calls}&trump={trump}&game={game_point}" + "".join(
            f"&{point}=C" for point in ("high", "low", "right", "left", "joker"))
        client.get(f"/games/{game}?{step}", headers=HTMX)
        # ... and its Record lands while that poll's answer is read.
        record = phone_posting(app, f"/games/{game}/hands", hand_form(2, *HAND_2))
        with ChangeBefore(app, record, at) as moment:
            answer = viewer.get(url, headers=HTMX)
        if not moment.made:
            break  # the answer was drawn before: every moment has been tried
        assert answer.status_code == 200
        text = answer.text
        if 'id="deal-2"' not in text:
            # The game before the hand (the step it woke for): the next poll brings it.
            url, shown = poll_of(text)
            assert shown.split(".")[0] == "2", (at, shown)
            answer = viewer.get(url, headers=HTMX)
            text = answer.text
            assert 'id="deal-2"' in text, at
        assert poll_of(text)[1].split(".")[0] == "3", (at, poll_of(text)[1])
        assert answer.headers.get("HX-Reswap") == "none", f"read {at}: the whole game"
        assert 'id="game"' not in text
        at += 1
    assert at >= 6, "the poll read less than its answer needs"


def hand_row(html: str, number: int) -> str:
    """The words of hand ``number``'s row in the list."""
    row = lxml.html.fragment_fromstring(html, create_parent=True).get_element_by_id(
        f"deal-{number}")
    return " ".join(row.text_content().split())


def test_a_hand_corrected_while_a_watchers_poll_reads_the_game_shows_as_its_revision(
        app, client, start_game, play):
    at = 0
    while True:
        game, viewer, page = watched_after_hand_1(app, start_game, play)
        url, _shown = poll_of(page)
        before = hand_row(page, 1)
        # A step of hand 2 on the owner's phone wakes the watcher's poll ...
        client.get(f"/games/{game}?number=2&revision=2&calls={CID_BIDS_4}", headers=HTMX)
        # ... and another phone's correction of hand 1 lands while its answer is read.
        correct = phone_posting(app, f"/games/{game}/hands/1",
                                hand_form(1, BOB_BIDS_3, "hearts", "BBBBB", "B"))
        with ChangeBefore(app, correct, at) as moment:
            answer = viewer.get(url, headers=HTMX)
        if not moment.made:
            break
        after = hand_row(viewer.get(f"/games/{game}").text, 1)
        assert after != before
        revision = poll_of(answer.text)[1].split(".")[0]
        assert hand_row(answer.text, 1) == {"2": before, "3": after}[revision], (at, revision)
        at += 1
    assert at >= 6, "the poll read less than its answer needs"


def test_a_game_still_changing_after_its_last_read_keeps_the_revision_of_its_hands(
        app, client, start_game, play, monkeypatch):
    """Read as often as it may be (here once) and changed again just before its seats'
    query: the replay keeps the revision its row had, with the hands read under it. A
    newer revision over older hands would be taken by a poll for the game as it stands
    (its next poll told "unchanged" until another change) and would pass a change's
    check on hands read before the last."""
    monkeypatch.setattr(replay_module, "READS_AT_MOST", 1)
    game = start_game(target="999")
    play(game, 1, BOB_BIDS_3, "hearts", "ABBCC", "A")
    record = phone_posting(app, f"/games/{game}/hands", hand_form(2, *HAND_2))
    with app.test_request_context(), Session(app.extensions["db_engine"]) as session:
        row = session.get(Game, game)
        assert row.revision == 2
        with ChangeBefore(app, record, 1) as moment:  # read 0: the hands; 1: the seats
            replay = replay_module.load_replay(session, row)
        assert moment.made
        assert (replay.game.revision, len(replay.hands)) == (2, 1)
