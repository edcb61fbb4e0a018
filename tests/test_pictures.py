"""A picture's texts laid out on the server: each as wide as the fonts draw it, broken
between words or names but never inside a typed name, Lao and Telugu each in a font that
has them (and drawn so by resvg), everything mirrored for Persian."""
from __future__ import annotations

import lxml.etree
import pytest

from scorekeeper.figures.pictures import (
    ISOLATE, LEAD, POP_ISOLATE, RIGHT_TO_LEFT_EMBEDDING, SCRIPT_FONTS, Run, Sheet, Text,
    name_lines, runs, text_width, word_lines,
)
from scorekeeper.figures.recap_picture import (
    PADDING, PORTRAIT, WIDTH, GameScores, RankedPlayer, RecapFacts, TeamScore,
    moment_parts, recap_picture,
)
from tests.drawn_pictures import Box, drawn

NAME = ISOLATE + "Anna Maria van der Berg" + POP_ISOLATE


def typed(name: str) -> str:
    return ISOLATE + name + POP_ISOLATE


def test_a_line_breaks_at_spaces_but_never_inside_a_name():
    text = "Game 12: " + NAME + " & " + typed("Bob") + " won, A 21 · B 15 · C 9."
    lines = word_lines(text, 40, 500)
    assert len(lines) > 1
    assert " ".join(lines) == text
    assert any(NAME in line for line in lines)  # whole, on one line
    assert all(text_width(line, 40) <= 500 for line in lines if NAME not in line)


def test_a_list_of_names_breaks_between_names_the_and_with_the_name_before_it():
    names = ("Anna Maria van der Berg", "Bob", "Cid")
    assert name_lines(names, 40, 2000) == [typed(names[0]) + ", " + typed("Bob") + " & "
                                           + typed("Cid")]
    assert name_lines(names, 40, 600) == [typed(names[0]) + ",", typed("Bob") + " & "
                                          + typed("Cid")]
    assert name_lines(names, 40, 600, partners=False)[-1] == typed("Bob") + ", " + typed("Cid")


def test_each_script_run_has_a_font_that_draws_it():
    found = runs("ທີມ A 21 తెలుగు " + NAME)
    assert [(run.text, run.font, run.typed) for run in found] == [
        ("ທີມ ", SCRIPT_FONTS["LAO"], False),
        ("A 21 ", None, False),  # the font for Lao has no Latin letters, nor digits
        ("తెలుగు ", SCRIPT_FONTS["TELUGU"], False),
        (NAME, None, True),
    ]


@pytest.mark.parametrize("text", [
    "6 డిసెం, 2026 సాయంత్రం",  # a date: its digits in the Telugu font too, which has them
    typed("Bob") + " & " + typed("Eve") + ", ఆట 1, రౌండ్ 1.",  # a name first
    "ຄືນວັນທີ 6 ທ.ວ. 2026",
])
def test_a_text_with_lao_or_telugu_is_led_by_that_scripts_font(text):
    drawn_runs = Text(0, 0, 40, text).runs
    script = next(run.font for run in drawn_runs if run.font)
    assert drawn_runs[0] == Run(LEAD, script)
    assert "".join(run.text for run in drawn_runs) == LEAD + text
    if script == SCRIPT_FONTS["TELUGU"]:
        assert all(run.font for run in drawn_runs if not run.typed and run.text.strip(" &"))


def test_resvg_draws_a_telugu_line_after_a_name_as_it_draws_it_alone():
    """resvg shapes a whole text in its first run's font: a line led by a Latin name
    lost Telugu letters, or failed (``pictures.LEAD``)."""
    telugu = "ఆట 1, రౌండ్ 1."
    sheet = Sheet(WIDTH, False)
    sheet.text(PADDING, 100, 40, typed("Bob") + ", " + telugu)
    sheet.text(PADDING, 200, 40, telugu)
    ink = [picture_ink(text, sheet.width) for text in sheet.texts]
    bob = picture_ink(Text(PADDING, 100, 40, typed("Bob") + ", "), sheet.width)
    # The Telugu after "Bob, " as wide as alone: no letter lost, none doubled.
    after = ink[0].right - bob.right
    assert abs(after - (ink[1].right - ink[1].left)) < 0.1 * after


def picture_ink(text: Text, width: int) -> Box:
    """Where a text's ink is, drawn by resvg as the recap's picture draws it."""
    spans = "".join(
        f'<tspan{f" font-family={chr(34)}{run.font}{chr(34)}" if run.font else ""}>'
        f"{run.text.replace('&', '&amp;')}</tspan>" for run in text.runs)
    root = lxml.etree.fromstring(
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="300" '
        f'font-family="DejaVu Sans, Noto Sans, sans-serif"><text x="{text.x}" '
        f'y="{text.y}" font-size="{text.size}">{spans}</text></svg>')
    box = drawn(root, root[0]).getbbox()
    return Box(*box)


def facts(**changes) -> RecapFacts:
    told = dict(
        title="Evening of Dec 2, 2026", place=None, ranking_head="The night's ranking",
        won="Won", played="Played",
        ranking=(RankedPlayer(1, "Ann", 1, 1), RankedPlayer(1, "Dan", 1, 1),
                 RankedPlayer(3, "Bob", 0, 1), RankedPlayer(3, "Eve", 0, 1)),
        games=(GameScores(7, "Game 7", None, 9, (
            TeamScore("A", ("Ann", "Dan"), 10, "10", True),
            TeamScore("B", ("Bob", "Eve"), -3, "−3", False))),),
        moments_head="The night's moments",
        moments=("Comeback: " + typed("Ann") + " & " + typed("Dan") + " won game 7 from 6 "
                 "points behind.",),
        nothing=None)
    return RecapFacts(**(told | changes))


def test_the_picture_is_a_phones_portrait_even_for_one_short_game():
    drawn_picture = recap_picture(facts(), right_to_left=False)
    assert drawn_picture.width == WIDTH >= 1080
    assert drawn_picture.height >= WIDTH * PORTRAIT
    assert min(text.size for text in drawn_picture.texts) >= 36


def test_right_to_left_the_picture_is_mirrored():
    left, right = (recap_picture(facts(), right_to_left=rtl) for rtl in (False, True))
    assert [text.text for text in right.texts] == [
        RIGHT_TO_LEFT_EMBEDDING + text.text + "\u202c" for text in left.texts]
    flipped = {"start": "end", "end": "start", "middle": "middle"}
    for ltr, rtl in zip(left.texts, right.texts, strict=True):
        assert (rtl.y, rtl.anchor) == (ltr.y, flipped[ltr.anchor])
        assert rtl.x == pytest.approx(WIDTH - ltr.x, abs=0.11)
    for ltr, rtl in zip(left.boxes, right.boxes, strict=True):
        assert rtl.x == pytest.approx(WIDTH - ltr.x - ltr.width, abs=0.11)
    # The bar above zero grows from the line of zero to the left, the one below it to
    # the right.
    above, below = (box for box in right.boxes if box.game)
    assert above.x + above.width == pytest.approx(below.x, abs=0.11)


def test_a_name_too_long_for_any_line_widens_the_picture_rather_than_breaking():
    long = "W" * 40
    wide = recap_picture(facts(ranking=(RankedPlayer(1, long, 1, 1),)), right_to_left=False)
    assert wide.width > WIDTH
    assert any(typed(long) in text.text for text in wide.texts)


@pytest.mark.parametrize(("sentence", "label"), [
    ("Comeback: " + typed("Ann: the first") + " won game 3.", "Comeback"),
    ("بازگشت: " + typed("مریم") + " بازی ۱ را برد.", "بازگشت"),
    ("And 2 more hands with all six points.", None),
])
def test_a_moment_is_told_under_its_label(sentence, label):
    found, rest = moment_parts(sentence)
    assert found == label
    assert rest == (sentence.split(": ", 1)[1] if label else sentence)
