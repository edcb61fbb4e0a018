"""Numbers as each language writes them (``digits.number_text``): CLDR's digits, decimal
separator and grouping, a real minus sign, a plus sign for a change, and in right-to-left
languages the number isolated (drawn left to right: tests/browser/test_signed_numbers.py
checks the glyphs). The expected texts are written out here by hand."""
from __future__ import annotations

import pytest

from scorekeeper.text.digits import latin_digits, number_text

LRI, PDI = "\u2066", "\u2069"  # left-to-right isolate, and its end


@pytest.mark.parametrize("value, places, how, english, persian", [
    (-3.5, 1, {}, "−3.5", "−۳٫۵"),
    (3.25, 2, {}, "3.25", "۳٫۲۵"),
    (0.6, 2, {}, "0.60", "۰٫۶۰"),
    (1234.5, 1, {}, "1,234.5", "۱٬۲۳۴٫۵"),
    (1532, 0, {"grouped": False}, "1532", "۱۵۳۲"),
    (14, 0, {"signed": True}, "+14", "+۱۴"),
    (-9, 0, {"signed": True}, "−9", "−۹"),
    (0, 0, {"signed": True}, "+0", "+۰"),
    (-0.04, 1, {}, "0.0", "۰٫۰"),  # rounded to nothing: no sign
])
def test_english_and_persian_write_a_number_their_own_way(value, places, how, english,
                                                          persian):
    assert number_text(value, "en", places, **how) == english
    assert number_text(value, "fa", places, **how) == LRI + persian + PDI
    assert "-" not in number_text(value, "en", places, **how)  # never a hyphen
    # The same number: read back as 0-9 with Latin separators, it is the English one.
    assert latin_digits(persian).replace("٫", ".").replace("٬", ",") == english


@pytest.mark.parametrize("language, written", [
    ("sk", "−1\u00a0234,50"), ("fy", "−1.234,50"), ("lo", "−1.234,50"), ("te", "−1,234.50"),
])
def test_the_other_languages_keep_their_own_separators_left_to_right(language, written):
    assert number_text(-1234.5, language, 2) == written
