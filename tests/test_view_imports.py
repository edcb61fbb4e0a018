"""The views share their answers through the app's own modules: no view takes another
view module's private names (its ``_`` helpers), which would tie one blueprint to how
another happens to be written."""
from __future__ import annotations

import ast
from pathlib import Path

VIEWS = Path(__file__).resolve().parent.parent / "scorekeeper" / "views"


def private_imports(source: str) -> list[str]:
    """The private names a module imports from a view module."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "scorekeeper.views."):
            found += [f"{node.module}.{alias.name}" for alias in node.names
                      if alias.name.startswith("_")]
    return found


def test_no_view_imports_another_views_private_names():
    for path in VIEWS.glob("*.py"):
        assert private_imports(path.read_text(encoding="utf-8")) == [], path.name


def test_the_check_sees_a_private_import():
    """The check itself can fail."""
    assert private_imports("from scorekeeper.views.hands import VERDICT, _done\n") == [
        "scorekeeper.views.hands._done"]
