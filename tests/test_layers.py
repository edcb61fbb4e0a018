"""The app's modules import one another in one direction only: no import circles, and no
import of the app's own modules hidden inside a function to dodge one; and each room (a
package by purpose) imports only the rooms below it that ``MAY_IMPORT`` names.

Every ``import`` and ``from … import`` of a ``scorekeeper`` module is read from the
source (at the top of a module or inside a function alike). ``from scorekeeper import
views`` is an import of that module, not of the package. The one module allowed to
import inside a function is the package itself: ``create_app`` is the app factory, the
top of every chain (as in Flask's own tutorial app).
"""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "scorekeeper"
FACTORY = "scorekeeper"

# Each room of the app and the rooms it may import besides itself, lowest first. README's
# "Layout" says the same in words. The factory (``scorekeeper/__init__.py``) may import
# every room.
LOW = {"rules", "text"}
MAY_IMPORT: dict[str, set[str]] = {
    "rules": set(),  # the rules engine: pure Python
    "text": set(),  # plain helpers for what people type and read
    "store": LOW,  # the database, a game read back and replayed; nothing above it
    "figures": LOW | {"store"},  # derived from the hands; they never change a game
    "table": LOW | {"store", "figures"},  # what happens at the card table
    "web": LOW | {"store"},  # what every page needs: words, forms, languages, headers
    "files": LOW | {"store", "table", "web"},  # game files, backups, CSV
    "clubs": LOW | {"store", "table", "web"},  # members, devices, roles, joining
    "views": LOW | {"store", "figures", "table", "web", "files", "clubs"},
    "cli": LOW | {"store", "figures", "table", "files", "clubs"},
}


def modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        if "migrations" in path.relative_to(PACKAGE).parts:
            continue  # Alembic's scripts, run by Alembic, not imported by the app
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def imported(node: ast.AST, known: dict[str, Path]) -> list[str]:
    """The app's modules an import statement imports."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names if alias.name in known]
    if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
        targets = []
        for alias in node.names:
            submodule = f"{node.module}.{alias.name}"
            if submodule in known:
                targets.append(submodule)
            elif node.module in known:
                targets.append(node.module)
        return targets
    return []


def graph() -> tuple[dict[str, set[str]], dict[str, list[str]]]:
    """(module -> the modules it imports, module -> imports made inside functions)."""
    known = modules()
    edges: dict[str, set[str]] = {name: set() for name in known}
    hidden: dict[str, list[str]] = {}
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            edges[name].update(t for t in imported(node, known) if t != name)
        for function in ast.walk(tree):
            if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for node in ast.walk(function):
                    inside = imported(node, known)
                    if inside:
                        hidden.setdefault(name, []).extend(inside)
    return edges, hidden


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components with more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(module: str) -> None:
        nonlocal counter
        index[module] = low[module] = counter
        counter += 1
        stack.append(module)
        on_stack.add(module)
        for other in sorted(edges[module]):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in on_stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == module:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for module in sorted(edges):
        if module not in index:
            visit(module)
    return found


def test_no_module_of_the_app_is_in_an_import_circle():
    edges, _hidden = graph()
    assert len(edges) > 30  # the walk found the app's modules
    assert circles(edges) == []


def test_no_import_of_the_app_hides_inside_a_function():
    _edges, hidden = graph()
    assert {name: found for name, found in hidden.items() if name != FACTORY} == {}


def room(module: str) -> str:
    """The room a module is in ("" for the factory itself)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def breaches(edges: dict[str, set[str]]) -> list[str]:
    """Every import of a room its room may not import, as "module -> module"."""
    found = []
    for module, targets in edges.items():
        if module == FACTORY:
            continue
        allowed = MAY_IMPORT[room(module)] | {room(module)}
        found += [f"{module} -> {t}" for t in sorted(targets) if room(t) not in allowed]
    return found


def test_every_module_of_the_app_is_in_a_room():
    edges, _hidden = graph()
    assert sorted(m for m in edges if room(m) not in MAY_IMPORT and m != FACTORY) == []
    assert {room(m) for m in edges} - {""} == set(MAY_IMPORT)  # no room stands empty


def test_each_room_imports_only_the_rooms_below_it():
    edges, _hidden = graph()
    assert breaches(edges) == []


def test_the_room_check_sees_a_breach():
    """The check itself can fail: the store may not import a figure, nor a figure the table."""
    edges = {"scorekeeper.store.models": {"scorekeeper.figures.stats"},
             "scorekeeper.figures.stats": {"scorekeeper.table.live", "scorekeeper.store.db"},
             "scorekeeper.table.live": {"scorekeeper.figures.stats"}}
    assert breaches(edges) == ["scorekeeper.store.models -> scorekeeper.figures.stats",
                               "scorekeeper.figures.stats -> scorekeeper.table.live"]


def test_the_rules_engine_imports_nothing_else_of_the_app():
    edges, _hidden = graph()
    for module, targets in edges.items():
        if module.startswith("scorekeeper.rules"):
            assert {t for t in targets if not t.startswith("scorekeeper.rules")} == set(), module


def test_the_walk_sees_a_circle_when_there_is_one():
    """The check itself can fail."""
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
