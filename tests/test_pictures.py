"""Lines of text laid out for a picture: wrapped within its width but never inside a
typed name, Lao and Telugu each in a font that has them, right to left for Persian."""
from __future__ import annotations

from scorekeeper.figures.pictures import (
    ISOLATE, PADDING, POP_ISOLATE, RIGHT_TO_LEFT_EMBEDDING, SCRIPT_FONTS, WIDTH, picture, runs,
    wrapped,
)

NAME = ISOLATE + "Anna Maria van der Berg" + POP_ISOLATE


def test_a_line_wraps_at_spaces_but_never_inside_a_name():
    text = "Game 12: " + NAME + " & " + ISOLATE + "Bob" + POP_ISOLATE + " won, A 21 · B 15 · C 9."
    lines = wrapped(text, 40)
    assert len(lines) > 1
    assert " ".join(lines) == text
    assert any(NAME in line for line in lines)  # whole, on one line


def test_each_script_run_has_a_font_that_draws_it():
    found = runs("ທີມ A 21 తెలుగు " + NAME)
    assert [(run.text, run.font, run.typed) for run in found] == [
        ("ທີມ ", SCRIPT_FONTS["LAO"], False),
        ("A 21 ", None, False),
        ("తెలుగు ", SCRIPT_FONTS["TELUGU"], False),
        (NAME, None, True),
    ]


def test_right_to_left_rows_start_at_the_right_edge_embedded_right_to_left():
    drawn = picture([("title", "شب ۲ دسامبر"), ("line", "بازی " + NAME)], right_to_left=True)
    assert drawn.x == WIDTH - PADDING
    for row in drawn.rows:
        assert row.runs[0].text.startswith(RIGHT_TO_LEFT_EMBEDDING)
    assert picture([("line", "Game 1")], right_to_left=False).x == PADDING
    ys = [row.y for row in drawn.rows]
    assert ys == sorted(ys) and drawn.height > ys[-1] and drawn.band < ys[-1]
