"""The tests' URL builders, compiled once per process, build every URL as Werkzeug's own."""
from __future__ import annotations

from werkzeug.routing.converters import IntegerConverter

from tests import url_builders


def _arguments(rule) -> dict:
    return {name: 7 if isinstance(converter, IntegerConverter) else "x-y"
            for name, converter in rule._converters.items()}


def test_every_rule_builds_as_werkzeug_compiles_it(app):
    rules = list(app.url_map.iter_rules())
    assert len(rules) > 50
    for rule in rules:
        arguments = _arguments(rule)
        for append_unknown, extra in ((False, {}), (True, {"game": 3, "lang": "fa"})):
            own = url_builders._compile(rule, append_unknown).__get__(rule, None)
            kept = rule._build_unknown if append_unknown else rule._build
            assert kept(**arguments, **extra) == own(**arguments, **extra), rule.rule


def test_a_second_app_uses_the_builders_the_first_compiled(app):
    from scorekeeper import create_app

    second = create_app({"TESTING": True, "DATABASE_URL": "sqlite://", "SECRET_KEY": "t"})
    first_rules = {rule.rule: rule for rule in app.url_map.iter_rules()}
    for rule in second.url_map.iter_rules():
        assert rule._build.__func__ is first_rules[rule.rule]._build.__func__, rule.rule
