"""What the app does in one place only, read from its source: files are parsed as JSON
by ``json_files.read_json`` alone (a game file, a backup, each game of a backup), and a
game row is made by ``seating.new_game`` alone (seated, imported or restored).

A second copy of either is how a game file and a backup came to be read differently.
"""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "scorekeeper"


def calls(name_of_call) -> dict[str, list[str]]:
    """module -> the functions in it that make a call ``name_of_call`` picks."""
    found: dict[str, list[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        if "migrations" in path.parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for function in ast.walk(tree):
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(function):
                if isinstance(node, ast.Call) and name_of_call(node.func):
                    module = path.relative_to(PACKAGE).with_suffix("").as_posix()
                    found.setdefault(module, []).append(function.name)
    return found


def is_json_parse(func: ast.expr) -> bool:
    return (isinstance(func, ast.Attribute) and func.attr in ("loads", "load")
            and isinstance(func.value, ast.Name) and func.value.id == "json")


def is_game_row(func: ast.expr) -> bool:
    return isinstance(func, ast.Name) and func.id == "Game"


def test_only_the_file_reader_parses_json():
    assert calls(is_json_parse) == {"files/json_files": ["read_json"]}


def test_only_new_game_makes_a_game_row():
    assert calls(is_game_row) == {"table/seating": ["new_game"]}
