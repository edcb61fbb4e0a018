"""Readable in sunlight and in a dim room: every text colour of the stylesheet against its
background, in the light palette and in the dark one.

WCAG's contrast ratio, computed from the colours `static/app.css` defines; 7:1 is its
AAA level for text, which a phone in the sun needs more than a desk does. The dark theme
(the phone set to dark) is the same custom properties given other values in one media
query, so every pair is checked in both.
"""
import re
from pathlib import Path

import pytest

CSS = (Path(__file__).resolve().parent.parent / "static" / "app.css").read_text()
DARK_QUERY = "@media (prefers-color-scheme: dark)"
COLOUR = r"--([\w-]+):\s*(#[0-9a-fA-F]{3,6})\s*;"


def palette_block(css: str, start: int) -> str:
    """The first ``:root { … }`` block from ``start`` on."""
    opening = css.index(":root {", start)
    return css[opening:css.index("}", opening)]


LIGHT = dict(re.findall(COLOUR, palette_block(CSS, 0)))
DARK = {**LIGHT, **dict(re.findall(COLOUR, palette_block(CSS, CSS.index(DARK_QUERY))))}
PALETTES = {"light": LIGHT, "dark": DARK}
# The same in both: the header's words on its bar (dark in both), the focus ring, and
# the paper the charts are drawn on (their ink is dark: see scorekeeper/figures/charts.py).
ALIKE = {"on-top", "focus", "chart-paper"}

# (text, background) as the stylesheet pairs them.
PAIRS = [
    ("ink", "paper"), ("on-felt", "felt"), ("felt", "paper"), ("on-top", "top"),
    ("red-suit", "paper"), ("team-A", "paper"), ("team-B", "paper"), ("team-C", "paper"),
    ("alert", "paper"), ("alert", "alert-paper"), ("ok", "ok-paper"), ("ink", "soft"),
    ("muted", "paper"), ("ink", "winner-paper"),
    ("team-A", "winner-paper"), ("team-B", "winner-paper"), ("team-C", "winner-paper"),
    ("team-D", "paper"), ("team-E", "paper"), ("team-F", "paper"),
    ("team-D", "winner-paper"), ("team-E", "winner-paper"), ("team-F", "winner-paper"),
]


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


@pytest.mark.parametrize("theme", PALETTES)
@pytest.mark.parametrize("text, background", PAIRS)
def test_text_is_readable_in_sunlight_and_in_the_dark(theme, text, background):
    colours = PALETTES[theme]
    assert contrast(colours[text], colours[background]) >= 7.0


def test_the_dark_theme_is_dark_on_the_whole():
    assert luminance(DARK["paper"]) < 0.02 < 0.8 < luminance(DARK["ink"])


def test_the_dark_theme_gives_every_other_colour_a_value_of_its_own():
    assert set(DARK) == set(LIGHT) and ALIKE < set(LIGHT)
    assert [name for name in LIGHT if name not in ALIKE and DARK[name] == LIGHT[name]] == []
    assert CSS.count(DARK_QUERY) == 1  # one media query, not a second stylesheet


def test_the_stylesheet_names_no_colour_outside_its_palettes():
    """A colour written into a rule would stay as it is in the dark: each is a property."""
    rules = CSS
    for palette in (palette_block(CSS, 0), palette_block(CSS, CSS.index(DARK_QUERY))):
        rules = rules.replace(palette, "")
    elsewhere = re.findall(r"#[0-9a-fA-F]{3,6}\b", rules)
    assert elsewhere == []


def test_every_colour_paired_is_the_stylesheets():
    assert {name for pair in PAIRS for name in pair} <= set(LIGHT)
