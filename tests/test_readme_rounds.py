"""README's table of what the next round proposes, for 4 to 30 present under both of the
club's choices, is what ``next_round`` proposes: it cannot go stale."""
from __future__ import annotations

from pathlib import Path

from scorekeeper.figures.rounds import next_round

README = Path(__file__).resolve().parent.parent / "README.md"
START, END = "<!-- rounds table: start -->", "<!-- rounds table: end -->"


def readme_rows() -> list[list[str]]:
    """The table's rows below its heading, cell by cell."""
    text = README.read_text(encoding="utf-8")
    lines = text[text.index(START) + len(START):text.index(END)].strip().splitlines()
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in lines[2:]]


def proposed(count: int, sixes: bool) -> tuple[str, int]:
    """The tables ``next_round`` proposes to ``count`` present on the evening's first
    round, as README writes them ("5 + 5 + 4"), and how many sit out."""
    proposal = next_round([f"P{n}" for n in range(count)], [], (), sixes)
    return " + ".join(str(len(table)) for table in proposal.tables), len(proposal.sitting_out)


def test_readmes_table_is_what_the_next_round_proposes():
    expected = []
    for count in range(4, 31):
        (fewest, out), (sixes, out_too) = proposed(count, False), proposed(count, True)
        assert out == out_too
        expected.append([str(count), fewest, sixes, str(out)])
    assert readme_rows() == expected, "README's rounds table is stale: write it again as " + \
        "\n".join(f"| {' | '.join(row)} |" for row in expected)


def test_the_table_tells_the_two_choices_apart_where_they_differ():
    """The check above reads something: 14 present are 5 + 5 + 4, or 6 + 4 + 4."""
    rows = {row[0]: row[1:] for row in readme_rows()}
    assert rows["14"] == ["5 + 5 + 4", "6 + 4 + 4", "0"]
    assert rows["7"] == ["6", "6", "1"]
