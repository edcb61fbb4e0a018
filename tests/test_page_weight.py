"""Page-weight budgets (bytes are deterministic): what a phone downloads at the table.

The game page's first load (HTML, CSS and scripts, gzipped) must stay within 34 KB, and
the htmx answer that records a hand within 8 KB, with 20 hands in the game. (30 KB until
every name and team's part of a line was isolated, so that each is drawn in place in
right-to-left text: some 120 bytes over 20 hands; 31 KB until the table could play on with
no connection: the game as the server has it, and sending kept hands in order; 32 KB
until each step of a hand went with its number, so that two quick taps reaching the
server at once leave the later for the watchers, and the evening flows; 33 KB until a
team's players were set in one order wherever a page names them, the next hand's first
row kept on screen after Record, and an undone hand put back in the entry (34,124 bytes
then). What only
a phone with no connection needs, the rules, their drawing and their words, loads after
the page and is not counted here.)
"""
from __future__ import annotations

import gzip
import re

from tests.members import client_as
from tests.new_games import start_game_as

FIRST_LOAD_BUDGET = 34 * 1024
RECORD_BUDGET = 8 * 1024
HANDS = 20
TALLY = {"high": "A", "low": "B", "right": "C", "left": "A", "joker": "B", "game": "C"}
CALLS = "3," + ",".join(["pass"] * 5)


def gzipped(data: bytes) -> int:
    return len(gzip.compress(data, 6))


def test_the_game_page_and_the_record_answer_stay_within_budget(app):
    client = client_as(app)
    game = start_game_as(client, target="999")
    for number in range(1, HANDS + 1):
        response = client.post(f"/games/{game}/hands",
                               data={"number": number, "calls": CALLS, "trump": "hearts", **TALLY})
        assert response.status_code == 303
    html = client.get(f"/games/{game}").data
    assets = re.findall(rb'(?:href|src)="(/static/[^"]+\.(?:css|js)[^"]*)"', html)
    assert len(assets) == 3  # the stylesheet, htmx and the app's script
    first_load = gzipped(html) + sum(gzipped(client.get(a.decode().replace("&amp;", "&")).data)
                                     for a in assets)
    assert first_load <= FIRST_LOAD_BUDGET, first_load
    record = client.post(f"/games/{game}/hands", headers={"HX-Request": "true", "HX-Target": "game"},
                         data={"number": HANDS + 1, "calls": CALLS, "trump": "hearts", **TALLY})
    assert record.status_code == 200
    assert gzipped(record.data) <= RECORD_BUDGET, gzipped(record.data)
