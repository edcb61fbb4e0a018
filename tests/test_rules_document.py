"""The project's own RULES.md: every section the code and the tests point to exists, each
module of the rules engine names the sections it implements, and every section has
tests that point to it."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "RULES.md"
# RULES.md, "Bidding" and "The six points of a hand": every quoted name on that line.
POINTER = re.compile(r'RULES\.md[^\n"]*((?:"[^"\n]+"[^"\n]*)+)')


def sections() -> set[str]:
    return {line[3:].strip() for line in RULES.read_text(encoding="utf-8").splitlines()
            if line.startswith("## ")}


def pointers(folder: Path) -> dict[Path, set[str]]:
    found = {}
    for path in folder.rglob("*.py"):
        names = set()
        for match in POINTER.finditer(path.read_text(encoding="utf-8")):
            names.update(re.findall(r'"([^"\n]+)"', match.group(1)))
        if names:
            found[path] = names
    return found


def test_every_section_pointed_to_is_in_the_document():
    known = sections()
    for folder in (ROOT / "scorekeeper", ROOT / "tests"):
        for path, names in pointers(folder).items():
            assert names <= known, f"{path.relative_to(ROOT)} names {names - known}"


def test_each_module_of_the_rules_engine_names_its_sections():
    engine = pointers(ROOT / "scorekeeper" / "rules")
    for path in (ROOT / "scorekeeper" / "rules").glob("*.py"):
        if path.name in ("__init__.py", "errors.py"):
            continue
        assert engine.get(path), f"{path.name} names no section of RULES.md"


def test_every_section_has_tests_that_point_to_it():
    tested = set().union(*pointers(ROOT / "tests").values())
    assert sections() - tested == set()
