"""An evening's recap: its lines on the page (names as typed), the same lines in its SVG
picture and as PNG, drawn from the hands so that a correction shows at once; only for the
club's members."""
from __future__ import annotations

import re
import struct

import lxml.etree
import pytest

from tests.members import client_as, new_club
from tests.views.view_helpers import Page, calls_for, rows
from scorekeeper.store.models import Evening
from scorekeeper.views.recap import needs_isolating

# Three pairs to 9, Ann deals. 1. Bob (B) bids 6 and B takes all six: B 6. 2. Bob deals;
# Dan (A) bids 3 and A takes all six: A 6, B 6. 3. Cid deals; Fay (C) bids 3 and is set,
# A takes 4, B and C 1 each: A 10, B 7, C -3. A wins from 6 behind.
HANDS = [
    (calls_for(1, {2: 6}), "BBBBB", "B"),
    (calls_for(2, {4: 3}), "AAAAA", "A"),
    (calls_for(3, {6: 3}), "AAABC", "A"),
]
LINES = [
    "Games won: Ann 1, Dan 1.",
    "Game {game}: Ann & Dan won, A 10 · B 7 · C −3.",
    "The night's moments",
    "Biggest bid made: Bob bid 6 in game {game}.",
    "Biggest set: Fay bid 3 and was set in game {game}.",
    "All six points: Bob & Eve in game {game}, hand 1.",
    "All six points: Ann & Dan in game {game}, hand 2.",
    "Comeback: Ann & Dan won game {game} from 6 points behind.",
]


def evening_of_one_game(client, play, new_game_form) -> int:
    response = client.post("/games/new", data=new_game_form(target="9", evening="new"))
    game = int(response.headers["Location"].rsplit("/", 1)[1])
    for number, (calls, owners, game_point) in enumerate(HANDS, start=1):
        play(game, number, calls, "hearts", owners, game_point)
    return game


def expected(game: int) -> list[str]:
    return [line.format(game=game) for line in LINES]


def page_lines(page: Page) -> list[str]:
    return [p.text() for p in page.by_id("recap-lines").find_all("p")]


def svg_lines(response) -> list[str]:
    root = lxml.etree.fromstring(response.data)
    texts = root.findall("{http://www.w3.org/2000/svg}text")
    return [plain("".join(text.itertext())) for text in texts]


def plain(text: str) -> str:
    """The text without its isolates (invisible: they only set each part's direction)."""
    return re.sub("[\u2066-\u2069]", "", text)


def test_the_recap_tells_the_games_and_the_moments(client, db, play, new_game_form):
    game = evening_of_one_game(client, play, new_game_form)
    evening = rows(db, Evening)[0].id
    page = Page(client.get(f"/evenings/{evening}/recap"))
    assert page_lines(page) == expected(game)  # the title is the page's heading
    isolated = page.by_id("recap-lines").find_all("bdi")
    typed = [bdi.text() for bdi in isolated if bdi.get("translate") == "no"]
    assert typed[:4] == ["Ann", "Dan", "Ann", "Dan"]  # games won, then game 1's winners
    teams = [bdi.text() for bdi in isolated if bdi.get("translate") is None]
    assert teams == ["A 10", "B 7", "C −3"]  # each team's part in its place
    # The text shared: the same lines, with no direction marks English does not need.
    shared = page.by_id("share-recap").get("data-text").split("\n")
    assert shared[0].startswith("Evening of")
    assert shared[1:] == page_lines(page)
    assert shared[1] == "Games won: Ann 1, Dan 1."
    # The evening's page leads to it.
    evening_page = Page(client.get(f"/evenings/{evening}"))
    assert any(a.get("href") == f"/evenings/{evening}/recap"
               for a in evening_page.root.find_all("a"))


def test_the_picture_draws_the_same_lines_as_svg_and_png(client, db, play, new_game_form):
    game = evening_of_one_game(client, play, new_game_form)
    evening = rows(db, Evening)[0].id
    svg = client.get(f"/evenings/{evening}/recap.svg")
    assert svg.mimetype == "image/svg+xml"
    drawn = " ".join(svg_lines(svg)[1:])
    assert drawn == " ".join(expected(game))  # wrapped rows, the same words in order
    png = client.get(f"/evenings/{evening}/recap.png")
    assert png.mimetype == "image/png" and png.data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png.data[16:24])
    root = lxml.etree.fromstring(svg.data)
    assert (width, height) == (2 * int(root.get("width")), 2 * int(root.get("height")))


def test_a_correction_shows_in_the_recap_at_once(client, db, play, new_game_form):
    game = evening_of_one_game(client, play, new_game_form)
    evening = rows(db, Evening)[0].id
    # Hand 1 corrected: A took the Joker, so B took five of its six: set.
    response = client.post(f"/games/{game}/hands/1", data={
        "number": "1", "calls": calls_for(1, {2: 6}), "trump": "hearts",
        "high": "B", "low": "B", "right": "B", "left": "B", "joker": "A", "game": "B"})
    assert response.status_code == 303, response.get_data(as_text=True)[:400]
    lines = page_lines(Page(client.get(f"/evenings/{evening}/recap")))
    assert f"Biggest set: Bob bid 6 and was set in game {game}." in lines
    assert f"All six points: Bob & Eve in game {game}, hand 1." not in lines


def test_in_persian_the_picture_is_drawn_right_to_left(client, db, play, new_game_form):
    evening_of_one_game(client, play, new_game_form)
    evening = rows(db, Evening)[0].id
    client.set_cookie("lang", "fa")
    root = lxml.etree.fromstring(client.get(f"/evenings/{evening}/recap.svg").data)
    texts = root.findall("{http://www.w3.org/2000/svg}text")
    assert all(text.get("text-anchor") == "end" for text in texts)
    assert all(float(text.get("x")) > 600 for text in texts)
    assert "۱۰" in "".join(root.itertext())  # the scores in Persian digits


def test_in_persian_the_shared_text_isolates_what_reads_left_to_right(
        client, db, play, new_game_form):
    evening_of_one_game(client, play, new_game_form)
    evening = rows(db, Evening)[0].id
    client.set_cookie("lang", "fa")
    shared = Page(client.get(f"/evenings/{evening}/recap")).by_id("share-recap").get("data-text")
    assert "\u2068Ann\u2069" in shared and "\u2068Dan\u2069" in shared  # Latin names
    assert "\u2066A ۱۰\u2069" in shared  # a team's score: its letter first, as on the page


@pytest.mark.parametrize(("part", "rtl", "isolated"), [
    ("Ann", False, False), ("مریم", False, True), ("Ann", True, True), ("مریم", True, False),
    ("A 10", False, False), ("A ۱۰", True, True), ("−3", False, False), ("−۳", True, True),
    ("Ann مریم", False, True),
])
def test_a_part_is_isolated_where_its_direction_is_not_the_texts(part, rtl, isolated):
    assert needs_isolating(part, rtl) is isolated


def test_another_clubs_member_finds_no_recap(app, client, db, play, new_game_form):
    evening_of_one_game(client, play, new_game_form)
    evening = rows(db, Evening)[0].id
    stranger = client_as(app, club_id=new_club(app, "Another club"))
    for path in ("recap", "recap.svg", "recap.png"):
        assert stranger.get(f"/evenings/{evening}/{path}").status_code == 404
