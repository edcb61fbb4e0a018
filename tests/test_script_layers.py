"""The phone's script (``static/*.js``) is ES modules that share nothing but by import, in
one direction only, as tests/test_layers.py holds the Python: no import circle; each
module imports only the modules ``MAY_IMPORT`` names; what only a phone with no
connection needs is imported later (``import()``), never with the page; no module writes
a global (``window.x = …``, ``globalThis.x``) and none reads a name another module
declares without importing it. The service worker is the one classic script: it runs
apart, in a realm of its own, and imports nothing.

Each file is read by a small tokenizer (comments, strings, template literals, regular
expressions, names and marks), enough for the app's own style: an import names a module
beside it, as ``"./x.js"``.
"""
from __future__ import annotations

import re
from pathlib import Path

from tests.test_layers import circles

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "static"
WORKER = "sw.js"

# Each module and the modules it may import, lowest first. README's "The phone's script"
# says the same in words.
MAY_IMPORT: dict[str, set[str]] = {
    "page.js": set(),  # the page and its words: finding things, digits, filling in words
    "kept.js": {"page.js"},  # what the phone keeps: the hand being entered, the outbox
    "rules_data.js": set(),  # the engine's declarations, made from them (rules/phone.py)
    "rules.js": {"rules_data.js"},  # the rules' arithmetic, a copy of the engine's
    "offline.js": {"page.js", "kept.js", "rules.js"},  # the table playing on, no connection
    # every page's own script (the rules by import(), asked for beside offline.js)
    "app.js": {"page.js", "kept.js", "offline.js", "rules.js", "rules_data.js"},
    "share.js": set(),  # the recap page's share and copy buttons
    WORKER: set(),  # the service worker
}
# What the pages load (templates/): every other module is loaded by these.
PAGE_SCRIPTS = {"app.js", "share.js"}
# Loaded once a game page is up, by import(): not a byte of a page's first load.
LATER = {"offline.js", "rules.js", "rules_data.js"}
GLOBAL_OBJECTS = {"window", "globalThis", "self"}

KEYWORDS = set("""
as async await break case catch class const continue debugger default delete do else
export extends false finally for from function if import in instanceof let new null of
return static super switch this throw true try typeof undefined var void while with yield
""".split())
TOKEN = re.compile(r"""
  (?P<space>\s+)
| (?P<comment>//[^\n]*|/\*.*?\*/)
| (?P<string>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')
| (?P<name>[A-Za-z_$][\w$]*)
| (?P<number>\d[\w.]*|\.\d\w*)
| (?P<mark>\.\.\.|\?\?=|\?\.|=>|[=!]==?|&&=?|\|\|=?|\?\?|\*\*=?|<<=?|>>>?=?|\+\+|--|[-+*/%&|^<>]=?|[{}()\[\];,.:?~!=])
""", re.X | re.S)


# --- reading a script ----------------------------------------------------------------------

def template_part(text: str, start: int) -> tuple[str, int, bool]:
    """A template literal's text from ``start`` (its ` or the } closing a ${…}) to its end
    or its next ${: (the text, where it stops, whether a ${ opened)."""
    i = start + 1
    while text[i] != "`" and not text.startswith("${", i):
        i += 2 if text[i] == "\\" else 1
    opened = text[i] != "`"
    end = i + (2 if opened else 1)
    return text[start:end], end, opened


def regex_end(text: str, start: int) -> int:
    """Where the regular expression literal from ``start`` (its /) ends, flags included."""
    i, in_class = start + 1, False
    while in_class or text[i] != "/":
        if text[i] == "\\":
            i += 1
        elif text[i] in "[]":
            in_class = text[i] == "["
        i += 1
    i += 1
    while i < len(text) and (text[i].isalnum() or text[i] == "_"):
        i += 1
    return i


def divides(previous: tuple[str, str] | None) -> bool:
    """Whether a / after this token divides (else it starts a regular expression)."""
    if previous is None:
        return False
    kind, value = previous
    if kind == "name":
        return value not in KEYWORDS or value in {"this", "super", "true", "false", "null"}
    return kind in {"number", "string", "template", "regex"} or value in {")", "]", "}"}


def tokens(text: str) -> list[tuple[str, str]]:
    """(kind, text) of each token, comments and spaces left out: kind is one of name,
    number, string, template (a template literal's text between its ${…}s), regex, mark."""
    found: list[tuple[str, str]] = []
    opened: list[bool] = []  # for each { still open: whether it is a template's ${
    i = 0
    while i < len(text):
        if text[i] == "`" or (text[i] == "}" and opened and opened[-1]):
            if text[i] == "}":
                opened.pop()
            part, i, more = template_part(text, i)
            found.append(("template", part))
            if more:
                opened.append(True)
            continue
        if text[i] == "/" and text[i + 1] not in "/*" and not divides(found[-1] if found else None):
            end = regex_end(text, i)
            found.append(("regex", text[i:end]))
            i = end
            continue
        match = TOKEN.match(text, i)
        assert match, f"cannot read {text[i:i + 40]!r}"
        i = match.end()
        kind = match.lastgroup
        if kind in ("space", "comment"):
            continue
        value = match.group()
        if value == "{":
            opened.append(False)
        elif value == "}":
            opened.pop()
        found.append((kind, value))
    return found


class Script:
    """What one script imports, declares and reads."""

    def __init__(self, text: str) -> None:
        self.tokens = tokens(text)
        self.imports: dict[str, bool] = {}  # module -> imported only later, by import()
        self.imported_names: set[str] = set()
        self.top_level: set[str] = set()  # what it declares outside any block or function
        self.bound: set[str] = set()  # every name it declares, anywhere, parameters too
        self.reads: set[str] = set()
        self.global_writes: list[str] = []
        self.read_all()

    def at(self, i: int) -> tuple[str, str]:
        return self.tokens[i] if 0 <= i < len(self.tokens) else ("", "")

    def read_all(self) -> None:
        depth = 0
        for i, (kind, value) in enumerate(self.tokens):
            if value in "([{" and kind == "mark":
                depth += 1
            elif value in ")]}" and kind == "mark":
                depth -= 1
            if kind != "name":
                continue
            if value == "import":
                self.read_import(i)
            elif value == "from" and self.at(i + 1)[0] == "string":
                self.imports[self.module(self.at(i + 1)[1])] = False
            elif value in ("const", "let", "var"):
                names = self.declared(i + 1)
                self.bound |= names
                self.top_level |= names if depth == 0 else set()
            elif value in ("function", "class") and self.at(i + 1)[0] == "name":
                self.bound.add(self.at(i + 1)[1])
                self.top_level |= {self.at(i + 1)[1]} if depth == 0 else set()
            elif value in GLOBAL_OBJECTS and self.at(i + 1)[1] in (".", "[") \
                    and self.assigns(i + 2):
                member = self.at(i + 2)[1]
                self.global_writes.append(
                    f"{value}.{member}" if self.at(i + 1)[1] == "." else f"{value}[{member}]")
            self.read_name(i)
        self.read_parameters()

    @staticmethod
    def module(quoted: str) -> str:
        return quoted[1:-1].removeprefix("./")

    def read_import(self, i: int) -> None:
        """``import("./x.js")``, ``import "./x.js"`` or ``import … from "./x.js"``: the
        names it binds (a default, ``* as X``, ``{a, b as c}``)."""
        if self.at(i + 1)[1] == "(" and self.at(i + 2)[0] == "string":
            self.imports.setdefault(self.module(self.at(i + 2)[1]), True)
            return
        if self.at(i + 1)[0] == "string":
            self.imports[self.module(self.at(i + 1)[1])] = False
            return
        j = i + 1
        while self.at(j)[1] not in ("from", ";", "") and self.at(j)[0] != "string":
            kind, value = self.at(j)
            if kind == "name" and value != "as" and self.at(j + 1)[1] != "as":
                self.imported_names.add(value)
            j += 1

    def declared(self, j: int) -> set[str]:
        """The names a ``const``/``let``/``var`` binds, its pattern read from token ``j``:
        each declarator up to a , or ; at its own depth (or the end of its parentheses)."""
        names: set[str] = set()
        while True:
            names |= self.pattern(j)
            depth = 0
            while self.at(j)[1]:
                value = self.at(j)[1]
                depth += value in ("(", "[", "{") and self.at(j)[0] == "mark"
                depth -= value in (")", "]", "}") and self.at(j)[0] == "mark"
                if depth < 0 or (depth == 0 and value == ";"):
                    return names
                if depth == 0 and value == ",":
                    break
                j += 1
            else:
                return names
            j += 1

    def pattern(self, j: int) -> set[str]:
        """The names a binding pattern from token ``j`` binds: a name, or each name in its
        braces or brackets that is no key (before a :) and no default (after an =)."""
        kind, value = self.at(j)
        if kind == "name":
            return {value}
        if value not in ("{", "["):
            return set()
        names, depth = set(), 0
        while True:
            kind, value = self.at(j)
            depth += value in ("{", "[", "(")
            depth -= value in ("}", "]", ")")
            if kind == "name" and self.at(j + 1)[1] != ":" and self.at(j - 1)[1] != "=":
                names.add(value)
            if depth == 0 or not value:
                return names
            j += 1

    def read_parameters(self) -> None:
        """Each function's parameters: ``(…) =>``, ``x =>``, ``function f(…)``, a method's
        ``name(…) {``, and ``catch (e)``."""
        for i, (kind, value) in enumerate(self.tokens):
            if value == "=>" and self.at(i - 1)[0] == "name":
                self.bound.add(self.at(i - 1)[1])
            if value != "(" or kind != "mark":
                continue
            close = self.closing(i)
            before, after = self.at(i - 1), self.at(close + 1)[1]
            function = before[1] == "function" or self.at(i - 2)[1] == "function"
            method = before[0] == "name" and before[1] not in KEYWORDS and after == "{"
            clause = before[1] == "catch" and self.at(i - 2)[1] not in (".", "?.")
            if after == "=>" or function or method or clause:
                self.bound |= self.pattern_list(i + 1, close)

    def closing(self, i: int) -> int:
        depth = 0
        for j in range(i, len(self.tokens)):
            depth += self.tokens[j][1] in ("(", "[", "{")
            depth -= self.tokens[j][1] in (")", "]", "}")
            if depth == 0:
                return j
        return len(self.tokens)

    def pattern_list(self, start: int, end: int) -> set[str]:
        return {value for j, (kind, value) in enumerate(self.tokens[start:end], start)
                if kind == "name" and self.at(j + 1)[1] != ":" and self.at(j - 1)[1] != "="}

    def assigns(self, j: int) -> bool:
        """Whether the member at token ``j`` (after ``window.`` or ``window[``) is assigned."""
        j = self.closing(j - 1) + 1 if self.at(j - 1)[1] == "[" else j + 1
        return self.at(j)[1] in {"=", "+=", "-=", "||=", "&&=", "??="}

    def read_name(self, i: int) -> None:
        """A name read: not a property (after a . or ?.), nor an object's key."""
        kind, value = self.tokens[i]
        before, after = self.at(i - 1)[1], self.at(i + 1)[1]
        if value in KEYWORDS or before in (".", "?."):
            return
        if after == ":" and before in ("{", ","):
            return
        self.reads.add(value)


def scripts() -> dict[str, Script]:
    return {path.name: Script(path.read_text(encoding="utf-8"))
            for path in sorted(STATIC.glob("*.js"))}


def imports_of(read: dict[str, Script]) -> dict[str, set[str]]:
    return {name: set(script.imports) for name, script in read.items()}


def shared_names(read: dict[str, Script]) -> list[str]:
    """Every name a script reads that another declares at its top level, unimported."""
    found = []
    for name, script in read.items():
        own = script.bound | script.imported_names
        for other, declaring in read.items():
            if other != name:
                found += [f"{name} reads {shared} of {other}"
                          for shared in sorted(script.reads & declaring.top_level - own)]
    return found


def breaches(imports: dict[str, set[str]]) -> list[str]:
    return [f"{name} -> {other}" for name, targets in imports.items()
            for other in sorted(targets) if other not in MAY_IMPORT.get(name, set())]


def loaded_with(name: str, read: dict[str, Script]) -> set[str]:
    """The modules a page loading ``name`` loads with it (its imports, not its import()s)."""
    found, todo = set(), [name]
    while todo:
        for other, later in read[todo.pop()].imports.items():
            if not later and other not in found:
                found.add(other)
                todo.append(other)
    return found


# --- the tests -------------------------------------------------------------------------------

def test_every_script_is_named_with_what_it_may_import():
    read = scripts()
    assert set(read) == set(MAY_IMPORT)
    assert all(other in read for targets in imports_of(read).values() for other in targets)


def test_no_script_is_in_an_import_circle():
    assert circles(imports_of(scripts())) == []


def test_each_script_imports_only_what_it_may():
    read = scripts()
    assert breaches(imports_of(read)) == []
    assert imports_of(read)["app.js"], "the walk found the imports"


def test_no_script_shares_a_global_with_another():
    read = scripts()
    assert {name: script.global_writes for name, script in read.items()
            if script.global_writes} == {}
    assert shared_names(read) == []


def test_what_only_a_phone_with_no_connection_needs_loads_later():
    read = scripts()
    for page_script in PAGE_SCRIPTS:
        assert loaded_with(page_script, read) & LATER == set(), page_script
    # offline.js, and the rules and their data beside it, by import(), once a game page is up
    assert read["app.js"].imports == {"page.js": False, "kept.js": False,
                                      "offline.js": True, "rules.js": True,
                                      "rules_data.js": True}


def test_the_pages_load_their_scripts_as_modules():
    tags = [tag for path in (ROOT / "templates").rglob("*.html")
            for tag in re.findall(r"<script\b[^>]*>", path.read_text(encoding="utf-8"))]
    ours = {re.search(r"filename='([^']+\.js)'", tag)[1]: tag for tag in tags
            if "vendor/" not in tag}
    assert set(ours) == PAGE_SCRIPTS
    assert all('type="module"' in tag for tag in ours.values()), ours


# --- the checks can fail -------------------------------------------------------------------

def test_the_reading_sees_imports_globals_and_names_shared_without_import():
    low = Script('export const $ = (s) => document.querySelector(s);\nexport let words = 1;\n')
    high = Script("""
import {$} from "./low.js";
const later = () => import("./lower.js");
window.PlayOn = {here() { return $("#game"); }};
globalThis["x"] ||= 1;
function draw({detail: {elt}}, values = words) { return `${elt}: ${values}` + /[/]/.source; }
const kept = () => fetch("/").catch(function () { return caches; });
""")
    assert high.imports == {"low.js": False, "lower.js": True}
    assert high.global_writes == ["window.PlayOn", 'globalThis["x"]']
    assert shared_names({"low.js": low, "high.js": high}) == ["high.js reads words of low.js"]
    assert {"elt", "values", "draw", "later", "kept"} <= high.bound
    assert "caches" in high.reads - high.bound  # a promise's .catch(…) is no catch clause


def test_the_checks_see_a_circle_and_a_breach():
    assert circles({"a.js": {"b.js"}, "b.js": {"a.js"}}) == [["a.js", "b.js"]]
    assert breaches({"page.js": {"app.js"}, "app.js": {"page.js"}}) == ["page.js -> app.js"]
