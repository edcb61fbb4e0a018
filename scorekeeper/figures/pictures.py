"""A picture of lines of text, drawn on the server as SVG and, for the chat apps that
want one, as PNG (resvg): an evening's recap to share.

SVG does not wrap text, nor pick a font per script the way a page does, so the lines
are laid out here: wrapped to the picture's width, each run of Lao or Telugu in a font
that has it (the rest in one that has Latin, Cyrillic and Persian), and right to left
for a right-to-left reader, so that the PNG reads as the SVG does in a browser.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from itertools import groupby

import resvg_py

from scorekeeper.text.digits import ISOLATED
from scorekeeper.text.names import TYPED_END, TYPED_START

WIDTH = 720
PADDING = 28
SIZES = {"title": 30, "head": 24, "line": 21}  # px
LEADING = 1.45  # line height, in the line's own size
EM_PER_CHARACTER = 0.58  # a wide guess, so that no line runs off the picture
FONTS = "DejaVu Sans, Noto Sans, sans-serif"
# The scripts that font lacks, each with one that has it (fonts-noto-core).
SCRIPT_FONTS = {"LAO": "Noto Sans Lao, sans-serif", "TELUGU": "Noto Sans Telugu, sans-serif"}
RIGHT_TO_LEFT_EMBEDDING, POP = "\u202b", "\u202c"
# What people typed (``text.names.typed_text``) is drawn in its own direction, never
# wrapped, and marked so that its digits stay as typed. A team's part of a line ("A 10",
# ``text.digits.ISOLATED``) is never wrapped either, and in a right-to-left line each
# part stays in its place, as on the pages.
ISOLATE, POP_ISOLATE = TYPED_START, TYPED_END
LEFT_TO_RIGHT = ISOLATED.split("%s")[0]
_WORD = re.compile(f"(?:[{LEFT_TO_RIGHT}{ISOLATE}][^{POP_ISOLATE}]*{POP_ISOLATE}|\\S)+")


@dataclass(frozen=True)
class Run:
    text: str
    font: str | None  # None: the picture's own fonts
    typed: bool = False  # what someone typed (a name), to be drawn as typed


@dataclass(frozen=True)
class Row:
    """One drawn line: its style, its baseline and its runs of text."""

    style: str
    y: float
    runs: tuple[Run, ...]

    @property
    def size(self) -> int:
        return SIZES[self.style]


@dataclass(frozen=True)
class Picture:
    rows: tuple[Row, ...]
    height: int
    right_to_left: bool
    width: int = WIDTH
    fonts: str = FONTS

    @property
    def band(self) -> float:
        """How far down the band behind the title reaches."""
        return max(row.y for row in self.rows if row.style == "title") + SIZES["title"] * 0.6

    @property
    def x(self) -> int:
        """Where each row starts: the right edge for a right-to-left reader."""
        return self.width - PADDING if self.right_to_left else PADDING


def script_font(character: str) -> str | None:
    name = unicodedata.name(character, "")
    return next((font for script, font in SCRIPT_FONTS.items() if name.startswith(script)), None)


def runs(text: str) -> tuple[Run, ...]:
    """The text in runs of one font each, what was typed in runs of its own (spaces
    and marks stay with the run they are in)."""
    kinds, typed, isolates = [], False, 0
    for character in text:
        typed = typed or character == ISOLATE
        isolates += character in (ISOLATE, LEFT_TO_RIGHT)
        font = script_font(character)
        if kinds and (character.isspace() or unicodedata.category(character) == "Mn"):
            font = kinds[-1][0]
        kinds.append((font, typed))
        isolates -= character == POP_ISOLATE
        typed = typed and isolates > 0
    return tuple(Run("".join(c for c, _ in group), *kind)
                 for kind, group in groupby(zip(text, kinds), key=lambda pair: pair[1]))


def wrapped(text: str, size: int, width: int = WIDTH) -> list[str]:
    """The text in lines no wider than the picture (by a wide guess), broken at spaces
    but never inside what was typed."""
    most = max(8, int((width - 2 * PADDING) / (size * EM_PER_CHARACTER)))
    lines: list[str] = []
    for word in _WORD.findall(text):
        if lines and len(lines[-1]) + 1 + len(word) <= most:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def picture(lines: list[tuple[str, str]], right_to_left: bool) -> Picture:
    """``lines``: (style, text) in order, each wrapped and laid out below the last."""
    rows, y = [], PADDING / 2
    for style, text in lines:
        size = SIZES[style]
        for part in wrapped(text, size):
            y += size * LEADING
            if right_to_left:
                part = RIGHT_TO_LEFT_EMBEDDING + part + POP
            rows.append(Row(style, round(y, 1), runs(part)))
        if style != "line":
            y += size * 0.4  # a little air under a heading
    return Picture(tuple(rows), int(y + PADDING), right_to_left)


def png_of(svg: str) -> bytes:
    """The SVG drawn as PNG, twice its size for a sharp picture on a phone."""
    return bytes(resvg_py.svg_to_bytes(svg_string=svg, zoom=2, background="#ffffff"))
