"""Templates are compiled once per process, for every app it makes, and anew when their
source changes."""
from __future__ import annotations

import re

from jinja2 import DictLoader, Environment

from scorekeeper import create_app
from scorekeeper.web.extensions import CompiledTemplates
from tests.databases import database_url, forget


def rules_page() -> str:
    """The rules page, as a new app of this process renders it."""
    url = database_url()
    app = create_app({"TESTING": True, "DATABASE_URL": url, "SECRET_KEY": "t"})
    page = app.test_client().get("/rules").text
    app.extensions["db_engine"].dispose()
    forget(url)
    return page


def test_a_second_app_renders_the_rules_page_without_compiling_a_template(monkeypatch):
    compiled: list[str] = []
    original = Environment.compile

    def counting(self, source, name=None, filename=None, raw=False, defer_init=False):
        compiled.append(name)
        return original(self, source, name, filename, raw, defer_init)

    monkeypatch.setattr(Environment, "compile", counting)
    first = rules_page()
    compiled.clear()  # the first app compiled what no app of the process had
    second = rules_page()
    assert compiled == []
    token = re.compile(r'"[\w-]+\.[\w-]+\.[\w-]+"')  # CSRF tokens: each app signs its own
    assert token.sub("", first) == token.sub("", second) and "<h1" in second


def test_a_changed_template_is_compiled_anew():
    kept = CompiledTemplates()
    first = Environment(loader=DictLoader({"hand.html": "made {{ n }}"}), bytecode_cache=kept)
    assert first.get_template("hand.html").render(n=6) == "made 6"
    again = Environment(loader=DictLoader({"hand.html": "made {{ n }}"}), bytecode_cache=kept)
    assert again.get_template("hand.html").render(n=4) == "made 4"
    changed = Environment(loader=DictLoader({"hand.html": "set {{ n }}"}), bytecode_cache=kept)
    assert changed.get_template("hand.html").render(n=4) == "set 4"
