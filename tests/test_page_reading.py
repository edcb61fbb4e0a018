"""The helpers the tests read pages with: they see what a reader sees, and they let no
hyphen pass for a minus sign (the regression ``words.minus`` is there to prevent)."""
from __future__ import annotations

import re

import pytest

from tests.browser.table_steps import number_pattern
from tests.views.view_helpers import as_int, parse


def test_a_negative_score_is_read_only_with_the_real_minus_sign():
    assert as_int("−4") == -4 and as_int(" 12 ") == 12
    with pytest.raises(AssertionError):
        as_int("-4")
    assert re.fullmatch(number_pattern(-4), "−4")
    assert not re.fullmatch(number_pattern(-4), "-4")
    assert re.fullmatch(number_pattern(4), "4")


def test_a_page_is_read_whole_as_html_is_written():
    # Unclosed paragraphs and list items, a void input, a comment: a browser's tree.
    root = parse("<main><p>One<p>Two <b>bold</b><ul><li>A<li>B</ul>"
                 "<input name=x value=1><!-- not text --><td>x</td></main>")
    main = root.find("main")
    assert [p.text() for p in main.find_all("p")] == ["One", "Two bold"]
    assert [li.text() for li in main.find_all("li")] == ["A", "B"]
    assert main.find("input", name="x").get("value") == "1"
    assert "not text" not in main.text()
    assert main.text(gaps=True) == "One Two bold A B x"
    assert parse("").find("main") is None
