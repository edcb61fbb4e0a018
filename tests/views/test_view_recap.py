"""An evening's recap: its lines on the page (names as typed), and its picture for a
phone's chat, as SVG and as PNG: the night's ranking, each game's final scores as bars
and the night's moments, measured as drawn (in English and in Persian, right to left);
all drawn from the hands so that a correction shows at once; only for the club's
members."""
from __future__ import annotations

import re
import struct
from dataclasses import dataclass
from itertools import combinations

import lxml.etree
import pytest

from scorekeeper.store.db import get_session
from tests.drawn_pictures import SVG, content, ink, ink_in_columns, reckoned, size, texts
from tests.members import client_as, first_club, new_club
from tests.table_games import evening_at_every_table
from tests.views.view_helpers import Page, calls_for, rows
from scorekeeper.figures.recap_picture import PADDING, SMALLEST, WIDTH
from scorekeeper.store.models import Evening
from scorekeeper.text.digits import latin_digits
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


def plain(text: str) -> str:
    """The text without its isolates, embeddings and marks (invisible: they only set each
    part's direction, or lead a run of Telugu)."""
    return re.sub("[\u2066-\u2069\u202a-\u202e\u200b-\u200f]", "", text)


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


def test_the_recap_of_tables_of_four_five_and_six_tells_each_game_and_its_moments(
        app, client):
    with app.app_context():
        session = get_session()
        played = evening_at_every_table(session, first_club(session))
        evening, (five, pairs, four, six) = played[0].evening_id, [game.id for game in played]
    assert page_lines(Page(client.get(f"/evenings/{evening}/recap"))) == [
        "Games won: Ann 2, Cid 1, Dan 1.",
        f"Game {five}: Ann won, A 6 · B 2 · C 6 · D −4 · E 1.",
        f"Game {pairs}: Cid & Dan won, A 7 · B 5.",
        f"Game {four}: Ann won, A 7 · B 2 · C 1 · D 1.",
        f"Game {six}, in play: A 0 · B −3 · C 0 · D 0 · E 0 · F 6.",
        "The night's moments",
        f"Biggest bid made: Dan bid 4 in game {pairs}.",
        f"Biggest set: Dan bid 4 and was set in game {five}.",
        f"All six points: Nia in game {six}, hand 1.",
    ]


def test_the_picture_tells_the_night_and_png_and_svg_agree(client, db, play, new_game_form):
    game = evening_of_one_game(client, play, new_game_form)
    evening = rows(db, Evening)[0].id
    svg = client.get(f"/evenings/{evening}/recap.svg")
    assert svg.mimetype == "image/svg+xml"
    drawn = [plain(content(text)) for text in texts(lxml.etree.fromstring(svg.data))]
    assert drawn[:2] == [drawn[0], "The night's ranking"] and drawn[0].startswith("Evening of")
    assert f"Game {game}" in drawn
    for moment in expected(game)[3:]:  # each moment, on a line of its own or under its label
        label, _, rest = moment.partition(": ")
        assert moment in drawn or (label in drawn and rest in drawn), moment
    png = client.get(f"/evenings/{evening}/recap.png")
    assert png.mimetype == "image/png" and png.data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png.data[16:24])
    root = lxml.etree.fromstring(svg.data)
    assert (width, height) == (int(root.get("width")), int(root.get("height")))


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


# --- the picture, measured ---------------------------------------------------------

SECOND_TABLE = ["Gus", "Hal", "Ida", "Joe", "Kim", "Lea"]
# Table 2, two teams of three to 9, Gus deals: 1. Hal (B) bids 4, B takes 3 and the Game,
# A two: A 2, B 4. 2. Ida (A) bids 3, A takes 3 and the Game, B two: A 6, B 6. 3. Joe (B)
# bids 5, B takes 4 and the Game, A one: A 7, B 11, B wins.
TRIOS = [
    (calls_for(1, {2: 4}), "BBBAA", "B"),
    (calls_for(2, {3: 3}), "AAABB", "A"),
    (calls_for(3, {4: 5}), "BBBBA", "B"),
]
# Table 1's second game, three pairs to 9: 1. Bob (B) bids 4, B takes 4 and the Game, A
# one: A 1, B 5. 2. Cid (C) bids 3, C takes 3 and the Game, A and B one each: A 2, B 6,
# C 4. 3. Eve (B) bids 5 and B takes all six: B 12, B wins.
PAIRS = [
    (calls_for(1, {2: 4}), "BBBBA", "B"),
    (calls_for(2, {3: 3}), "CCCAB", "C"),
    (calls_for(3, {5: 5}), "BBBBB", "B"),
]
# Each game's final scores (table 2's second still in play: Hal (B) bid 3 and was set).
FINAL = [{"A": 10, "B": 7, "C": -3}, {"A": 7, "B": 11}, {"A": 2, "B": 12, "C": 4},
         {"A": 4, "B": -3}]
WINNERS = ["A", "B", "B", None]


def two_table_evening(client, db, play, new_game_form) -> tuple[int, list[int]]:
    """An evening at two tables, four games, the last in play (``FINAL``): Ann, Dan, Bob,
    Eve, Hal, Joe and Lea have won a game each. (evening, its games in order)"""
    first = evening_of_one_game(client, play, new_game_form)
    evening = rows(db, Evening)[0].id
    games = [first]
    for names, teams, table, hands in ((SECOND_TABLE, "2x3", "2", TRIOS),
                                       (None, "3x2", "1", PAIRS),
                                       (SECOND_TABLE, "2x3", "2", [])):
        form = new_game_form(**({"names": names} if names else {}), target="9", teams=teams,
                             evening=str(evening), table=table)
        response = client.post("/games/new", data=form)
        assert response.status_code == 303, response.get_data(as_text=True)[:400]
        games.append(int(response.headers["Location"].rsplit("/", 1)[1]))
        for number, (calls, owners, game_point) in enumerate(hands, start=1):
            play(games[-1], number, calls, "spades", owners, game_point)
    play(games[-1], 1, calls_for(1, {2: 3}), "spades", "AAABB", "A")  # A 4, B −3
    return evening, games


# tests/table_games.py's evening at tables of four, five and six: at table 1 five alone
# (Ann wins), then six alone (in play, Joe set and Nia's sweep); at table 2 four in pairs
# (Cid & Dan win), then four alone (Ann wins). Teams up to F, and teams of one player.
FINAL_AT_EVERY_TABLE = [{"A": 6, "B": 2, "C": 6, "D": -4, "E": 1}, {"A": 7, "B": 5},
                        {"A": 7, "B": 2, "C": 1, "D": 1},
                        {"A": 0, "B": -3, "C": 0, "D": 0, "E": 0, "F": 6}]
WINNERS_AT_EVERY_TABLE = ["A", "A", "A", None]


@dataclass(frozen=True)
class Night:
    """An evening for the measured picture: its games, their final scores and winners,
    and who is first in the night's ranking."""

    evening: int
    games: list[int]
    final: list[dict[str, int]]
    winners: list[str | None]
    first: list[str]


@pytest.fixture(params=["two tables", "every table"])
def night(request, app, client, db, play, new_game_form) -> Night:
    if request.param == "two tables":
        evening, games = two_table_evening(client, db, play, new_game_form)
        return Night(evening, games, FINAL, WINNERS, ["Hal", "Joe", "Lea"])
    with app.app_context():
        session = get_session()
        played = evening_at_every_table(session, first_club(session))
        evening, games = played[0].evening_id, [game.id for game in played]
    return Night(evening, games, FINAL_AT_EVERY_TABLE, WINNERS_AT_EVERY_TABLE, ["Ann"])


def recap_svg(client, evening: int, language: str = "en"):
    """The evening's recap picture as a reader of ``language`` gets it: its SVG's root."""
    client.set_cookie("lang", language)
    return lxml.etree.fromstring(client.get(f"/evenings/{evening}/recap.svg").data)


def number(text) -> int:
    """A score as drawn ("−۳" in Persian): the number."""
    return int(latin_digits(plain(content(text))).replace("−", "-"))


@pytest.mark.parametrize("language", ["en", "fa"])
def test_the_picture_is_a_phones_portrait_whose_every_line_fits(client, night, language):
    root = recap_svg(client, night.evening, language)
    width, height = int(root.get("width")), int(root.get("height"))
    assert width >= 1080 and height > width  # a phone's screen, upright
    drawn = texts(root)
    assert drawn and all(size(text) >= SMALLEST == 36 for text in drawn)  # no small print
    # By the app's own reckoning, every text within the padding...
    for text in drawn:
        left, right = reckoned(text)
        assert PADDING - 0.5 <= left and right <= width - PADDING + 0.5, content(text)
    # ... and drawn: no ink in the padding's columns (but for a glyph's own overhang, a
    # "J" reaching left of its place), and no text's ink on another's or on a bar.
    overhang = 8
    assert not ink_in_columns(root, 0, PADDING - overhang)
    assert not ink_in_columns(root, width - PADDING + overhang, width)
    boxes = [(content(text), ink(root, text)) for text in drawn]
    for (one, box), (other, other_box) in combinations(boxes, 2):
        assert not box.overlaps(other_box), (plain(one), plain(other))
    for bar in root.iterfind(f"{SVG}rect[@class='bar']"):
        x, y, w, h = (float(bar.get(name)) for name in ("x", "y", "width", "height"))
        for text, box in boxes:
            assert not (box.left < x + w and x < box.right and box.top < y + h
                        and y < box.bottom), plain(text)
    # No name or score is broken across two texts: every isolate ends in its text.
    for text in drawn:
        depth = 0
        for character in content(text):
            depth += character in "\u2066\u2067\u2068"
            depth -= character == "\u2069"
            assert depth >= 0
        assert depth == 0, plain(content(text))


@pytest.mark.parametrize("language", ["en", "fa"])
def test_each_game_has_a_bar_per_team_as_long_as_its_score_and_its_winner_starred(
        client, night, language):
    root = recap_svg(client, night.evening, language)
    width = int(root.get("width"))
    right_to_left = language == "fa"
    numbers = [text for text in texts(root)
               if re.fullmatch("−?[0-9]+", latin_digits(plain(content(text))))]
    for game, final, winner in zip(night.games, night.final, night.winners, strict=True):
        bars = root.findall(f"{SVG}rect[@class='bar'][@data-game='{game}']")
        assert {bar.get("data-team"): int(bar.get("data-score")) for bar in bars} == final
        # Each bar as long as its team's score, on one scale; from the same line of zero,
        # one way for a score above it and the other way below it (mirrored right to
        # left: scores above zero grow leftwards).
        # (Drawn to a tenth of a pixel: the longest bar gives the scale most nearly.)
        longest = max(bars, key=lambda bar: abs(int(bar.get("data-score"))))
        per_point = float(longest.get("width")) / abs(int(longest.get("data-score")))
        assert per_point > 10
        for bar in bars:
            assert float(bar.get("width")) == pytest.approx(
                per_point * abs(int(bar.get("data-score"))), abs=0.06)
        zeros = []
        for bar in bars:
            x, length = float(bar.get("x")), float(bar.get("width"))
            score = int(bar.get("data-score"))
            grows_right = (score >= 0) != right_to_left
            zeros.append(x if grows_right else x + length)
            # The score drawn at the bar's end (beside the line of zero below zero).
            end = x + length if grows_right else x
            middle = float(bar.get("y")) + float(bar.get("height")) / 2
            beside = [text for text in numbers
                      if abs(float(text.get("y")) - size(text) * 0.36 - middle) < 4]
            said = min(beside, key=lambda text: abs(float(text.get("x")) - end))
            assert number(said) == score
        assert max(zeros) - min(zeros) < 0.15
        stars = root.findall(f"{SVG}polygon[@class='winner'][@data-game='{game}']")
        assert len(stars) == (winner is not None)
        if winner:
            won = next(bar for bar in bars if bar.get("data-team") == winner)
            star_x = float(stars[0].get("points").split(",")[0])
            end = (float(won.get("x")) + float(won.get("width")) if not right_to_left
                   else float(won.get("x")))
            assert 0 < (star_x - end) * (-1 if right_to_left else 1) < 200
            assert 0 < star_x < width
    # The night's ranking: at two tables, seven players won a game each, Hal, Joe and
    # Lea first (theirs was the only finished game they played); at every table, Ann
    # alone (two games of three).
    drawn = [plain(content(text)) for text in texts(root)]
    first = drawn.index(("، " if language == "fa" else ", ").join(night.first))
    assert latin_digits(drawn[first - 3]) == "1"  # its place


def test_a_long_name_is_never_broken_and_a_long_list_of_names_breaks_between_names(
        client, db, play, new_game_form):
    names = ["Anna Maria van der Berg", "Bob", "Christiaan Huygens", "Dan", "Eve", "Fay"]
    response = client.post("/games/new", data=new_game_form(names=names, target="9",
                                                            evening="new"))
    game = int(response.headers["Location"].rsplit("/", 1)[1])
    for number_, (calls, owners, game_point) in enumerate(HANDS, start=1):
        play(game, number_, calls, "hearts", owners, game_point)
    evening = rows(db, Evening)[0].id
    root = recap_svg(client, evening)
    assert int(root.get("width")) == WIDTH
    drawn = [content(text) for text in texts(root)]
    for name in names:  # each whole, in its own isolate, wherever it is
        assert any(f"\u2068{name}\u2069" in text for text in drawn), name
    # Game 1's team A, beside or above its bar: broken between its names, if at all.
    lines = [plain(text) for text in drawn]
    assert "Anna Maria van der Berg & Dan" in lines or any(
        pair == ("Anna Maria van der Berg &", "Dan") for pair in zip(lines, lines[1:]))
