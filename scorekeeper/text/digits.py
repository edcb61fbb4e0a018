"""Digits as a reader types and reads them: a Persian keyboard (or an Arabic one) writes
۰-۹ (or ٠-٩), and a Persian page shows its numbers so; the app reads them as 0-9, and
writes a signed or decimal number the way the reader's language does (``number_text``).

A plain helper: it imports nothing of the app, so forms, drafts, codes and pages may all
use it.
"""
from __future__ import annotations

from babel import Locale
from babel.numbers import format_decimal

PERSIAN = "۰۱۲۳۴۵۶۷۸۹"  # extended Arabic-Indic: CLDR's "arabext"
ARABIC = "٠١٢٣٤٥٦٧٨٩"  # Arabic-Indic: CLDR's "arab"
# Each read as its 0-9.
READER_DIGITS = str.maketrans(PERSIAN + ARABIC, "0123456789" * 2)
# The digits of CLDR's numbering systems that are not 0-9, by CLDR's name for them.
NUMBERING_DIGITS = {"arabext": PERSIAN, "arab": ARABIC}

MINUS = "−"  # a real minus sign, never a hyphen
# Right-to-left text draws a number isolated, left to right inside (U+2066 LEFT-TO-RIGHT
# ISOLATE ... U+2069 POP DIRECTIONAL ISOLATE): its sign stays on the left of its digits,
# its digits in order, and nothing around it (a name, another number) is drawn into it.
ISOLATED = "\u2066%s\u2069"


def latin_digits(text: str) -> str:
    """``text`` with Persian and Arabic-Indic digits written 0-9; all else as it was."""
    return text.translate(READER_DIGITS)


def number_text(value: float, language: str, places: int = 0, *, signed: bool = False,
                grouped: bool = True) -> str:
    """A number as a reader of ``language`` reads it: rounded to ``places`` decimals,
    with the language's own digits, decimal separator and grouping (Persian: ۱٬۲۳۴٫۵, as
    CLDR writes it; English 1,234.5), a real minus sign, and "+" before a number not
    below zero when ``signed`` (a change: +14, −9, +0). In a right-to-left language the
    number is isolated and drawn left to right, so that it reads −۳٫۵ wherever it stands.
    ``grouped``: thousands apart (False for a rating, written 1532 as chess writes Elo)."""
    locale = Locale.parse(language)
    pattern = ("#,##0" if grouped else "0") + ("." + "0" * places if places else "")
    magnitude = format_decimal(abs(value), format=pattern, locale=locale,
                               numbering_system="default")
    below_zero = value < 0 and any(digit in magnitude for digit in "123456789")  # not −0.0
    digits = NUMBERING_DIGITS.get(locale.default_numbering_system)
    if digits:
        magnitude = magnitude.translate(str.maketrans("0123456789", digits))
    sign = MINUS if below_zero else "+" if signed else ""
    text = sign + magnitude
    return ISOLATED % text if locale.character_order == "right-to-left" else text
