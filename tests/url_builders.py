"""URL builders compiled once per test process, not once per app.

Werkzeug compiles two Python functions for every URL rule of every app (the URL built
with and without extra query arguments); the suite makes an app per test, and that
compiling was two thirds of making one (about 25 ms of 35). The function compiled for a
rule depends only on the rule's parts, its defaults and the converters they pass
through; everything else it reads from the rule it is bound to when called. So the
tests keep one function per such key. The app itself is unchanged: a server makes its
app once.
"""
from __future__ import annotations

from werkzeug.routing.rules import Rule

_compile = Rule._compile_builder
_compiled: dict[tuple, object] = {}


def _key(rule: Rule, append_unknown: bool) -> tuple:
    converters = tuple((name, type(converter)) for name, converter in rule._converters.items())
    return (tuple(rule._trace), tuple(sorted((rule.defaults or {}).items())), converters,
            append_unknown)


def _compile_once(rule: Rule, append_unknown: bool = True):
    try:
        key = _key(rule, append_unknown)
        hash(key)
    except TypeError:  # a default no key can hold: compiled as Werkzeug does
        return _compile(rule, append_unknown)
    if key not in _compiled:
        _compiled[key] = _compile(rule, append_unknown)
    return _compiled[key]


def compile_once() -> None:
    """From now on, each rule's builders are compiled once in this process."""
    Rule._compile_builder = _compile_once
