"""Readable in sunlight: every text colour of the stylesheet against its background.

WCAG's contrast ratio, computed from the colours `static/app.css` defines; 7:1 is its
AAA level for text, which a phone in the sun needs more than a desk does.
"""
import re
from pathlib import Path

import pytest

CSS = (Path(__file__).resolve().parent.parent / "static" / "app.css").read_text()
COLOURS = dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{3,6})\s*;", CSS))
WHITE = "#fff"

# (text, background) as the stylesheet pairs them.
PAIRS = [
    ("ink", "paper"), (WHITE, "felt"), ("felt", "paper"), ("red-suit", "paper"),
    ("team-A", "paper"), ("team-B", "paper"), ("team-C", "paper"),
    ("alert", "#fff4f4"), ("ok", "#f0faf3"), ("ink", "#fff7d6"),
]


def colour(name: str) -> str:
    return name if name.startswith("#") else COLOURS[name]


def luminance(hex_colour: str) -> float:
    digits = hex_colour.lstrip("#")
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    channels = [int(digits[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(text: str, background: str) -> float:
    lighter, darker = sorted((luminance(text), luminance(background)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def test_the_ratio_is_wcags():
    assert contrast("#000", "#fff") == pytest.approx(21.0)
    assert contrast("#777", "#fff") == pytest.approx(4.48, abs=0.01)


@pytest.mark.parametrize("text, background", PAIRS)
def test_text_is_readable_in_sunlight(text, background):
    assert contrast(colour(text), colour(background)) >= 7.0


def test_the_background_colours_paired_above_are_the_stylesheets():
    for literal in ("#fff4f4", "#f0faf3", "#fff7d6"):
        assert literal in CSS
