"""A picture drawn on the server as SVG and, for the chat apps that want one, as PNG
(resvg): texts, bars and marks placed by the server, for an evening's recap to share.

SVG neither wraps text nor picks a font per script the way a page does, so the server
places every text itself: each sized to fit where it stands (by a width reckoned from
the fonts, ``text_width``), each run of Lao or Telugu in a font that has it (the rest in
one that has Latin, Cyrillic and Persian), and, for a right-to-left reader, the whole
picture mirrored, so that the PNG reads as the SVG does in a browser. What does not fit
on a line is broken where a reader expects it, between words or between names: never
inside a name, a team's score or a word (``word_lines``, ``name_lines``).
"""
from __future__ import annotations

import math
import re
import string
import unicodedata
from dataclasses import dataclass, field
from itertools import groupby

import resvg_py

from scorekeeper.text.digits import ISOLATED
from scorekeeper.text.names import TYPED_END, TYPED_START, typed_text

FONTS = "DejaVu Sans, Noto Sans, sans-serif"
# The scripts that font lacks, each with one that has it (fonts-noto-core), and the
# digits and stops that one has too: in a text of its script, they are drawn in it.
SCRIPT_FONTS = {"LAO": "Noto Sans Lao, sans-serif", "TELUGU": "Noto Sans Telugu, sans-serif"}
SCRIPT_NEUTRALS = {SCRIPT_FONTS["LAO"]: " ",
                   SCRIPT_FONTS["TELUGU"]: " 0123456789!\"#%'()*+,-./:;<=>?[\\]^_{|}~−–…"}
RIGHT_TO_LEFT_EMBEDDING, POP = "\u202b", "\u202c"
# What people typed (``text.names.typed_text``) is drawn in its own direction, never
# broken, and marked so that its digits stay as typed. A team's part ("A 10",
# ``text.digits.ISOLATED``) is never broken either, and in a right-to-left line each
# part stays in its place, as on the pages.
ISOLATE, POP_ISOLATE = TYPED_START, TYPED_END
LEFT_TO_RIGHT = ISOLATED.split("%s")[0]
# resvg shapes a whole text in the font of its first run, then lays each other run's
# glyphs over it, cluster by cluster: a text whose first run is Latin garbles the Lao or
# Telugu after it (a cluster of several characters shaped by another font: letters lost,
# empty boxes, or resvg failing outright, its issue 732). So a text with a run of Lao
# or Telugu starts with an empty run in that script's font.
LEAD = "\u200b"  # ZERO WIDTH SPACE: nothing drawn
_WORD = re.compile(f"(?:[{LEFT_TO_RIGHT}{ISOLATE}][^{POP_ISOLATE}]*{POP_ISOLATE}|\\S)+")

# Advance widths of DejaVu Sans in thousandths of an em, regular and bold, read from the
# font: of each printable ASCII character in turn (0-9, a-z, A-Z, the stops and signs,
# the space), and of a few more.
_ASCII = string.digits + string.ascii_letters + string.punctuation + " "
_REGULAR = (
    636, 636, 636, 636, 636, 636, 636, 636, 636, 636, 613, 635, 550, 635, 615, 352, 635, 634,
    278, 278, 579, 278, 974, 634, 612, 635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525,
    684, 686, 698, 770, 632, 575, 775, 752, 295, 295, 656, 557, 863, 748, 787, 603, 787, 695,
    635, 611, 732, 684, 989, 685, 611, 685, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500,
    838, 318, 361, 318, 337, 337, 337, 838, 838, 838, 531, 1000, 390, 337, 390, 838, 500, 500,
    636, 337, 636, 838, 318)
_BOLD = (
    696, 696, 696, 696, 696, 696, 696, 696, 696, 696, 675, 716, 593, 716, 678, 435, 716, 712,
    343, 343, 665, 343, 1042, 712, 687, 716, 716, 493, 595, 478, 712, 652, 924, 645, 652, 582,
    774, 762, 734, 830, 683, 683, 821, 837, 372, 372, 775, 637, 995, 837, 850, 733, 850, 770,
    720, 682, 812, 774, 1103, 771, 724, 725, 456, 521, 838, 696, 1002, 872, 306, 457, 457, 523,
    838, 380, 415, 380, 365, 400, 400, 838, 838, 838, 580, 1000, 457, 365, 457, 838, 500, 500,
    712, 365, 712, 838, 348)
_EM = {character: (regular / 1000, bold / 1000)
       for character, regular, bold in zip(_ASCII, _REGULAR, _BOLD, strict=True)}
_EM.update({"·": (0.318, 0.380), "−": (0.838, 0.838), "–": (0.5, 0.5), "…": (1.0, 1.0),
            "،": (0.323, 0.380), "؛": (0.318, 0.400), "٪": (0.537, 0.610), "•": (0.590, 0.639)})
_EM.update(dict.fromkeys("۰۱۲۳۴۵۶۷۸۹٠١٢٣٤٥٦٧٨٩", (0.537, 0.610)))  # Persian digits
# Persian's letters in DejaVu Sans, in thousandths of an em, regular and bold, by the form
# each takes in a word: alone, last, first and between (0: a letter that never joins the
# next one), read from the font's forms of them.
_JOINED = {
    "اآأإ": ((278, 305, 0, 0), (343, 375, 0, 0)),
    "بپتث": ((941, 982, 278, 302), (1005, 1059, 375, 408)),
    "جچحخ": ((646, 646, 618, 646), (721, 721, 721, 721)),
    "دذ": ((445, 525, 0, 0), (513, 578, 0, 0)),
    "رزژ": ((483, 552, 0, 0), (576, 622, 0, 0)),
    "سش": ((1221, 1275, 838, 892), (1380, 1414, 983, 1018)),
    "صض": ((1209, 1225, 849, 867), (1345, 1364, 966, 985)),
    "طظ": ((925, 949, 796, 820), (1039, 1071, 942, 974)),
    "عغ": ((597, 532, 597, 482), (683, 683, 683, 564)),
    "ف": ((1037, 1035, 478, 506), (1162, 1191, 655, 720)),
    "ق": ((776, 834, 478, 506), (894, 901, 655, 720)),
    "کگك": ((895, 895, 476, 552), (1024, 1024, 582, 582)),
    "ل": ((727, 757, 305, 331), (868, 893, 375, 408)),
    "م": ((619, 666, 536, 578), (733, 784, 619, 670)),
    "ن": ((734, 761, 278, 302), (854, 900, 375, 408)),
    "وؤ": ((483, 517, 0, 0), (622, 627, 0, 0)),
    "ه": ((524, 536, 527, 461), (590, 606, 693, 660)),
    "ة": ((524, 536, 0, 0), (590, 606, 0, 0)),
    "یيئ": ((783, 833, 278, 302), (917, 1012, 375, 408)),
    "ء": ((470, 0, 0, 0), (511, 0, 0, 0)),
}
_FORMS = {letter: forms for letters, forms in _JOINED.items() for letter in letters}
# Telugu in Noto Sans Telugu, in em, regular and bold: a letter, a consonant joined to the
# one before it (after a virama), a vowel sign beside its letter, and one above or below
# it; Lao in Noto Sans Lao and the Arabic script's other letters: by script. Each fitted
# to the sentences of the app in that language (16 characters or more) as resvg draws
# them, at the widest.
TELUGU_VIRAMA = "\u0c4d"
_TELUGU = {"Lo": (0.85, 0.92), "joined": (0.35, 0.38), "Mc": (0.45, 0.49), "Mn": (0.1, 0.11)}
_SCRIPT_EM = {"LAO": (0.67, 0.68), "TELUGU": _TELUGU["Lo"], "ARABIC": (0.69, 0.79)}
_OTHER_EM = (0.80, 0.88)  # Cyrillic, Greek and the rest: the widest of DejaVu's
_WIDE_EM = (1.0, 1.0)  # a Chinese or Japanese character, an emoji


def script_font(character: str) -> str | None:
    name = unicodedata.name(character, "")
    return next((font for script, font in SCRIPT_FONTS.items() if name.startswith(script)), None)


@dataclass(frozen=True)
class Run:
    text: str
    font: str | None  # None: the picture's own fonts
    typed: bool = False  # what someone typed (a name), to be drawn as typed
    strong: bool = False  # the text's lead (a label), in bold


def runs(text: str) -> tuple[Run, ...]:
    """The text in runs of one font each, what was typed in runs of its own (spaces
    and marks stay with the run they are in). In a text with Lao or Telugu, the digits
    and stops that script's font has are drawn in it too: resvg would draw them in a
    font of its own choosing (``LEAD``)."""
    script = next(filter(None, map(script_font, text)), None)
    neutrals = "" if script is None else SCRIPT_NEUTRALS[script]
    kinds, typed, isolates = [], False, 0
    for character in text:
        typed = typed or character == ISOLATE
        isolates += character in (ISOLATE, LEFT_TO_RIGHT)
        font = script_font(character) or (script if not typed and character in neutrals
                                          else None)
        if kinds and (character.isspace() or unicodedata.category(character) == "Mn"):
            font = kinds[-1][0]
        kinds.append((font, typed))
        isolates -= character == POP_ISOLATE
        typed = typed and isolates > 0
    return tuple(Run("".join(c for c, _ in group), *kind)
                 for kind, group in groupby(zip(text, kinds), key=lambda pair: pair[1]))


def character_em(character: str, bold: bool) -> float:
    """How wide one character is drawn, in em (a mark or a direction control: 0)."""
    if character in _EM:
        return _EM[character][bold]
    if unicodedata.category(character) in ("Mn", "Me", "Cf", "Cc"):
        return 0.0
    base = unicodedata.normalize("NFD", character)[0]  # é as e
    if base in _EM:
        return _EM[base][bold]
    name = unicodedata.name(character, "")
    script = next((script for script in _SCRIPT_EM if name.startswith(script)), None)
    if script:
        return _SCRIPT_EM[script][bold]
    return (_WIDE_EM if unicodedata.east_asian_width(character) in "WF" else _OTHER_EM)[bold]


def text_width(text: str, size: float, bold: bool = False) -> float:
    """The text's width drawn at ``size`` px, reckoned a little wide (a Persian letter
    in the form it takes between the letters around it, a Telugu consonant joined to
    the one before it narrower)."""
    letters = [character for character in text if unicodedata.category(character) != "Mn"
               or _is_telugu(character)]
    width = 0.0
    for before, letter, after in zip([""] + letters, letters, letters[1:] + [""]):
        if _is_telugu(letter):
            kind = unicodedata.category(letter)
            kind = "joined" if kind == "Lo" and before == TELUGU_VIRAMA else kind
            width += _TELUGU.get(kind, _TELUGU["Lo"])[bold]
            continue
        if letter not in _FORMS:
            width += character_em(letter, bold)
            continue
        alone, last, first, between = _FORMS[letter][bold]
        joined_before = _joins(before, after=True) and last > 0
        joined_after = first > 0 and _joins(after, after=False)
        width += (between if joined_before and joined_after else last if joined_before
                  else first if joined_after else alone) / 1000
    return size * width


def _is_telugu(character: str) -> bool:
    return "\u0c00" <= character <= "\u0c7f"


def _joins(letter: str, after: bool) -> bool:
    """Whether a Persian letter joins the one after it (``after``) or before it."""
    forms = _FORMS.get(letter)
    return forms is not None and forms[0][2 if after else 1] > 0


def word_lines(text: str, size: float, width: float, bold: bool = False) -> list[str]:
    """The text in lines no wider than ``width``, broken at spaces but never inside
    what was typed or a team's part (a line holds one word at least)."""
    lines: list[str] = []
    for word in _WORD.findall(text):
        if lines and text_width(f"{lines[-1]} {word}", size, bold) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def name_list(names: tuple[str, ...], partners: bool = True) -> list[str]:
    """A list of names as it is read, cut into the pieces it may be broken between:
    partners "Ann,", "Cid &", "Eve", others "Ann,", "Cid,", "Eve" (each name as typed;
    the "&" and the comma stay with the name before them, as on the pages)."""
    last = len(names) - 1
    ends = ["," if number < last - 1 or not partners else " &" for number in range(last)]
    return [typed_text(name) + end for name, end in zip(names, ends + [""])]


def name_lines(names: tuple[str, ...], size: float, width: float, bold: bool = False,
               partners: bool = True) -> list[str]:
    """A list of names ("Ann, Cid & Eve") in lines no wider than ``width``, broken
    between names only."""
    return word_lines(" ".join(name_list(names, partners)), size, width, bold)


def fitted(text: str, sizes: tuple[int, ...], width: float, bold: bool = False) -> int | None:
    """The largest of ``sizes`` at which the text fits on one line in ``width``."""
    return next((size for size in sizes if text_width(text, size, bold) <= width), None)


@dataclass(frozen=True)
class Text:
    """One text drawn: its left edge at x ("start"), its right edge ("end") or its middle;
    y is its baseline. Its first ``strong`` characters (a label) are drawn in bold, in
    ``strong_fill``."""

    x: float
    y: float
    size: int
    text: str
    bold: bool = False
    fill: str = "#111111"
    anchor: str = "start"
    strong: int = 0
    strong_fill: str = "#111111"

    @property
    def runs(self) -> tuple[Run, ...]:
        """The runs to draw: led by an empty one in a script's font where the text has
        a run of that script (``LEAD``); the strong part in runs of its own."""
        found, start = [], 0
        for run in runs(self.text):
            end = start + len(run.text)
            if start < self.strong < end:
                cut = self.strong - start
                found += [Run(run.text[:cut], run.font, run.typed, True),
                          Run(run.text[cut:], run.font, run.typed)]
            else:
                found.append(Run(run.text, run.font, run.typed, end <= self.strong))
            start = end
        font = next((run.font for run in found if run.font), None)
        return ((Run(LEAD, font),) if font else ()) + tuple(found)


@dataclass(frozen=True)
class Box:
    """A rectangle: a bar (with the game, team and score it stands for), or a ground."""

    x: float
    y: float
    width: float
    height: float
    fill: str
    game: int | None = None
    team: str = ""
    score: int = 0


@dataclass(frozen=True)
class Star:
    """The mark of a game's winner: a five-pointed star centred on (x, y)."""

    x: float
    y: float
    radius: float
    game: int
    fill: str = "#d89b00"

    @property
    def points(self) -> str:
        corners = []
        for corner in range(10):
            angle = math.pi * corner / 5 - math.pi / 2
            reach = self.radius if corner % 2 == 0 else self.radius * 0.45
            corners.append(f"{self.x + reach * math.cos(angle):.1f},"
                           f"{self.y + reach * math.sin(angle):.1f}")
        return " ".join(corners)


@dataclass
class Sheet:
    """A picture being laid out, left to right: what is placed on it is mirrored for a
    right-to-left reader (bars grow from the right, texts start at the right), and each
    text set in the reader's direction."""

    width: int
    right_to_left: bool
    texts: list[Text] = field(default_factory=list)
    boxes: list[Box] = field(default_factory=list)
    stars: list[Star] = field(default_factory=list)

    def x(self, x: float) -> float:
        return round(self.width - x if self.right_to_left else x, 1)

    def text(self, x: float, y: float, size: int, text: str, *, bold: bool = False,
             fill: str = "#111111", anchor: str = "start", strong: int = 0,
             strong_fill: str = "#111111") -> None:
        if self.right_to_left:
            anchor = {"start": "end", "end": "start"}.get(anchor, anchor)
            text = RIGHT_TO_LEFT_EMBEDDING + text + POP
            strong += bool(strong)
        self.texts.append(Text(self.x(x), round(y, 1), size, text, bold, fill, anchor,
                               strong, strong_fill))

    def box(self, x: float, y: float, width: float, height: float, fill: str, **bar) -> None:
        left = self.width - x - width if self.right_to_left else x
        self.boxes.append(Box(round(left, 1), round(y, 1), round(width, 1), round(height, 1),
                              fill, **bar))

    def star(self, x: float, y: float, radius: float, game: int) -> None:
        self.stars.append(Star(self.x(x), round(y, 1), radius, game))

    def picture(self, height: float, band: float) -> Picture:
        return Picture(self.width, int(height), self.right_to_left, round(band, 1),
                       tuple(self.texts), tuple(self.boxes), tuple(self.stars))


@dataclass(frozen=True)
class Picture:
    width: int
    height: int
    right_to_left: bool
    band: float  # how far down the band behind the title reaches
    texts: tuple[Text, ...]
    boxes: tuple[Box, ...]
    stars: tuple[Star, ...]
    fonts: str = FONTS


def png_of(svg: str) -> bytes:
    """The SVG drawn as PNG, at its own size (the picture is drawn for a phone's
    screen already)."""
    return bytes(resvg_py.svg_to_bytes(svg_string=svg, background="#ffffff"))
