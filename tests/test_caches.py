"""Every cache the app makes is declared in ``store.caches``, and everything declared
there is made by the source as it says.

The source is read for what makes a cache: a memoising decorator (``lru_cache``,
``functools.cache``, ``cached_property``), a cache made by a call (``LockedLRU(…)``,
``LRUCache(…)``, any ``…Cache(…)``), a Jinja ``BytecodeCache``, a module-level dict or set
that functions write into, anything kept in ``g`` or in ``app.extensions``; and the
tables whose docstring calls them a cache.
"""
from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

from sqlmodel import SQLModel

from scorekeeper.store import caches
from scorekeeper.store.caches import ALONGSIDE, KEPT, NOT_CACHES, OTHERS

PACKAGE = Path(__file__).resolve().parent.parent / "scorekeeper"
MEMOISING = {"lru_cache", "cache", "cached_property"}
CACHE_BASES = {"BytecodeCache"}
CONTAINERS = {"dict", "set", "defaultdict", "OrderedDict", "WeakKeyDictionary",
              "WeakValueDictionary"}
WRITING = {"setdefault", "update", "add", "__setitem__"}


def called_name(node: ast.AST) -> str:
    """The last name of what is called or decorated with: ``lru_cache`` of
    ``@functools.lru_cache(maxsize=4)``."""
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def makes_a_cache(value: ast.AST) -> bool:
    return any(isinstance(node, ast.Call) and re.search(r"(Cache|LRU)$", called_name(node))
               for node in ast.walk(value))


class Finder(ast.NodeVisitor):
    """The places (``module:name``) one module's source makes a cache at."""

    def __init__(self, module: str) -> None:
        self.module, self.scope, self.found = module, [], set()

    def place(self, name: str) -> None:
        self.found.add(f"{self.module}:{name}")

    def _inside(self, node, name: str) -> None:
        self.scope.append((node, name))
        self.generic_visit(node)
        self.scope.pop()

    def visit_FunctionDef(self, node) -> None:
        if any(called_name(decorator) in MEMOISING for decorator in node.decorator_list):
            self.place(".".join([name for _, name in self.scope] + [node.name]))
        self._inside(node, node.name)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node) -> None:
        if any(called_name(base) in CACHE_BASES for base in node.bases):
            self.place(node.name)
        self._inside(node, node.name)

    def _target(self, target: ast.AST) -> str:
        if (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
                and target.value.id == "self"):
            owner = next(name for node, name in reversed(self.scope)
                         if isinstance(node, ast.ClassDef))
            return f"{owner}.{target.attr}"
        if isinstance(target, ast.Name) and self.scope:
            return ".".join([name for _, name in self.scope] + [target.id])
        return ast.unparse(target)

    def _assigned(self, targets: list, value: ast.AST | None) -> None:
        for target in targets:
            text = ast.unparse(target)
            if (value is not None and makes_a_cache(value)) or text.startswith("g.") or (
                    isinstance(target, ast.Subscript) and text.split("[")[0].endswith(
                        "extensions")):
                self.place(self._target(target))

    def visit_Assign(self, node) -> None:
        self._assigned(node.targets, node.value)
        self.generic_visit(node)

    def visit_AnnAssign(self, node) -> None:
        self._assigned([node.target], node.value)
        self.generic_visit(node)

    def visit_Call(self, node) -> None:
        function = node.func
        if (isinstance(function, ast.Attribute) and isinstance(function.value, ast.Name)
                and function.value.id == "g" and function.attr == "setdefault"
                and node.args and isinstance(node.args[0], ast.Constant)):
            self.place(f"g.{node.args[0].value}")
        self.generic_visit(node)


def module_containers(tree: ast.Module) -> set[str]:
    """The module-level dicts and sets that a function of the module writes into."""
    made = {target.id for node in tree.body if isinstance(node, (ast.Assign, ast.AnnAssign))
            for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
            if isinstance(target, ast.Name) and node.value is not None
            and (isinstance(node.value, (ast.Dict, ast.Set))
                 or called_name(node.value) in CONTAINERS)}
    written = set()
    for function in ast.walk(tree):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(function):
            if isinstance(node, (ast.Assign, ast.AugAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                written |= {target.value.id for target in targets
                            if isinstance(target, ast.Subscript)
                            and isinstance(target.value, ast.Name)}
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                  and node.func.attr in WRITING and isinstance(node.func.value, ast.Name)):
                written.add(node.func.value.id)
    return made & written


def module_of(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def caches_in_the_source() -> set[str]:
    found = set()
    for path in PACKAGE.rglob("*.py"):
        if "migrations" in path.parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        finder = Finder(module_of(path))
        finder.visit(tree)
        found |= finder.found | {f"{finder.module}:{name}" for name in module_containers(tree)}
    return found


def test_every_cache_the_source_makes_is_declared():
    assert caches_in_the_source() - caches.places() == set()


def test_every_place_declared_is_one_the_source_makes():
    assert caches.places() - caches_in_the_source() == set()


def test_the_finder_sees_each_way_of_making_a_cache():
    source = '''
import functools
TALLIES = LockedLRU(8)
SEEN = {}
class Pages:
    def __init__(self):
        self._kept = LRUCache(4)
class Compiled(BytecodeCache):
    pass
@functools.lru_cache(maxsize=2)
def worked(x):
    @cache
    def inner(y):
        return y
    g.memo = x
    g.setdefault("other", {})
    app.extensions["kept"] = PageCache()
    SEEN[x] = x
'''
    tree = ast.parse(source)
    finder = Finder("m")
    finder.visit(tree)
    assert finder.found | {f"m:{name}" for name in module_containers(tree)} == {
        "m:TALLIES", "m:SEEN", "m:Pages._kept", "m:Compiled", "m:worked", "m:worked.inner",
        "m:g.memo", "m:g.other", "m:app.extensions['kept']"}


def test_every_kept_figure_names_its_table_key_stamp_and_recount():
    for figure in KEPT:
        columns = set(figure.store.__table__.columns.keys())
        assert set(figure.key) | {figure.stamp} <= columns, figure.name
        module, _, name = figure.recount.rpartition(".")
        assert callable(getattr(importlib.import_module(module), name)), figure.name
        assert figure.keeps and figure.stale, figure.name
    for cache in OTHERS:
        assert cache.keeps and cache.key and cache.never_stale, cache.places
    assert all(NOT_CACHES.values())


def test_every_table_that_is_a_cache_is_declared():
    tables = [model for model in SQLModel.__subclasses__()
              if getattr(model, "__table__", None) is not None
              and model.__module__ == "scorekeeper.store.models"]
    said_a_cache = {model for model in tables
                    if re.search(r"\bcache\b", model.__doc__ or "")}
    declared = ({figure.store for figure in KEPT} | set(ALONGSIDE)
                | {cache.table for cache in OTHERS if cache.table is not None})
    assert said_a_cache and said_a_cache <= declared
