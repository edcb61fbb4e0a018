"""Reading a JSON file someone gives the app: a game file (exchange.py) or a backup
(backup.py). Its size, its JSON, the shape refusals and the paths they point at.

Both readers refuse a file whole with ``FileRefused``: ``where`` is the bad part as a
path into the file (``hands[3].trump``, ``games[2].hands[0].recorded_at``), ``reason``
says what is wrong with it (a ``Message``, or the rules engine's ``RuleViolation``) and
``value`` is the offending value as the file wrote it, when the reason doesn't say it.

One policy for every refusal (README, "Languages"): ``str()`` is the English the command
line prints; a page (``page()``) says it in the reader's language, a rule's reason in
the words the table reads (words.violation_message), and shows the path and the value
exactly as the file wrote them: marked ``translate="no"`` (so no reader's digits or
commas are put into them) and left to right (so a right-to-left sentence draws them as
written).
"""
from __future__ import annotations

import json
import re
from typing import Any, Callable

from flask_babel import gettext
from markupsafe import Markup
from pydantic import ValidationError

from scorekeeper.rules import RuleViolation
from scorekeeper.text.names import typed
from scorekeeper.web.words import violation_message


def N_(message: str) -> str:
    """Marks a message for the catalogues (a default pybabel keyword); it is translated
    when a page shows it, never when the command line prints it."""
    return message


class AsWritten(str):
    """Text as the file wrote it: a path into it, a value, a format's name. Never
    translated; a page shows it as written, left to right."""


class Typed(str):
    """A name as someone typed it, quoted from the file: a page shows it as written,
    isolated from the sentence around it (a name may be written right to left)."""


class Message:
    """A sentence of a refusal: an English message (marked with ``N_``) and its parts,
    each plain (a count), ``AsWritten``, ``Typed``, or a ``Message``, ``RuleViolation`` or
    ``FileRefused`` of its own. ``str()`` is the English; ``page()`` the reader's."""

    def __init__(self, message: str, **parts: Any) -> None:
        self.message = message
        self.parts = parts

    def __str__(self) -> str:
        return self.message % {key: english(part) for key, part in self.parts.items()}

    def __repr__(self) -> str:
        return f"Message({self.message!r}, {self.parts!r})"

    def page(self) -> Markup:
        return Markup.escape(gettext(self.message)) % {
            key: page_text(part) for key, part in self.parts.items()}


def english(part: Any) -> Any:
    """A refusal's part in English, as the command line says it."""
    if isinstance(part, RuleViolation):
        return part.english
    if isinstance(part, (Message, FileRefused)):
        return str(part)
    return part


def page_text(part: Any) -> Any:
    """A refusal's part as a page shows it (plain text is escaped where it is put in)."""
    if isinstance(part, AsWritten):
        return Markup('<code translate="no" dir="ltr">%s</code>') % part
    if isinstance(part, Typed):
        return typed(part)
    if isinstance(part, (Message, FileRefused)):
        return part.page()
    if isinstance(part, RuleViolation):
        return rule_reason(part)
    return part


def rule_reason(violation: RuleViolation) -> Markup:
    """A rule's sentence as the table reads it (translated), to stand inside a refusal's
    sentence: without its full stop, which the refusal's own sentence ends with."""
    sentence = Markup.escape(violation_message(violation))
    return Markup(str(sentence)[:-1]) if sentence.endswith(".") else sentence


class FileRefused(ValueError):
    """A file that can't be taken in: ``where`` is the bad part (``hands[3].trump``),
    ``reason`` what is wrong with it (a ``Message`` or a ``RuleViolation``), ``value``
    the offending value as the file wrote it (JSON text) when the reason doesn't say it,
    ``more`` how many more problems the file has.

    ``str()`` is the English: a rule's is the engine's own sentence, which names the
    value already. ``page()`` is the reader's, with the path and the value kept as
    written.
    """

    def __init__(self, where: str | None, reason: Message | RuleViolation,
                 value: str | None = None, more: int = 0) -> None:
        self.where = where
        self.reason = reason
        self.value = value
        self.more = more
        problem = reason.english if isinstance(reason, RuleViolation) else str(self._said())
        super().__init__(f"{where}: {problem}" if where else problem)

    def _said(self) -> Message | RuleViolation:
        """The reason, with the value and the count of more problems after it."""
        said: Message | RuleViolation = self.reason
        if self.value is not None and isinstance(said, RuleViolation):
            # A rule's sentence speaks to the table ("choose one of the teams"): the value
            # the file wrote follows it, named as the file's.
            said = Message(N_("%(problem)s (the file says %(value)s)"), problem=said,
                           value=AsWritten(self.value))
        elif self.value is not None:
            said = Message(N_("%(problem)s, not %(value)s"), problem=said, value=AsWritten(self.value))
        if self.more:
            said = Message(N_("%(problem)s (and %(more)s more)"), problem=said, more=self.more)
        return said

    def page(self) -> Markup:
        """The refusal in the reader's language, the path and the value as written."""
        problem = page_text(self._said())
        if self.where is None:
            return problem
        return Markup("%s: %s") % (page_text(AsWritten(self.where)), problem)


def size_text(size: int) -> str:
    """A byte count for people: 2 MB, 64 kB, 500 bytes."""
    if size % (1024 * 1024) == 0:
        return f"{size // (1024 * 1024)} MB"
    if size % 1024 == 0:
        return f"{size // 1024} kB"
    return f"{size} bytes"


def read_json(raw: bytes | str, limit: int | None, too_large: Callable[[str], Message]) -> Any:
    """The file's JSON value; refused if over ``limit`` bytes (``too_large(size)`` says
    so), not UTF-8, not JSON, or holding text no database keeps."""
    if limit is not None and len(raw) > limit:
        raise FileRefused(None, too_large(size_text(limit)))
    try:
        found = json.loads(raw)
    except UnicodeDecodeError:
        raise FileRefused(None, Message(N_("not JSON: the file is not UTF-8 text"))) from None
    except json.JSONDecodeError as error:
        # The parser's own words are English: shown as it said them.
        raise FileRefused(None, Message(
            N_("not JSON: %(error)s (line %(line)s, column %(column)s)"),
            error=AsWritten(error.msg), line=error.lineno, column=error.colno)) from None
    except RecursionError:
        raise FileRefused(None, Message(
            N_("not JSON this app can read: it is nested too deeply"))) from None
    except ValueError as error:  # e.g. a number with more digits than Python will read
        raise FileRefused(None, Message(N_("not JSON this app can read: %(error)s"),
                                        error=AsWritten(error))) from None
    if _holds_unstorable_text(found):
        raise FileRefused(None, Message(N_(
            "a text in the file holds a null character or half of a surrogate pair, "
            "which can't be kept")))
    return found


def _holds_unstorable_text(value: Any) -> bool:
    """Whether any text in the parsed JSON (a key or a value) holds what no database
    keeps: a NUL, or a lone surrogate (JSON's "\\ud800" escape, which isn't UTF-8)."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if "\x00" in item or not item.isascii() and _not_utf8(item):
                return True
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return False


def _not_utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def json_kind(value: Any) -> Message | AsWritten:
    """What a JSON value is, in words: a list, a string, a number; true, false and null
    as written."""
    if isinstance(value, list):
        return Message(N_("a list"))
    if isinstance(value, str):
        return Message(N_("a string"))
    if isinstance(value, bool) or value is None:
        return AsWritten(shown(value))
    return Message(N_("a number"))


def shown(value: Any) -> str:
    """A value as the file wrote it, cut short if long."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def path(prefix: str, loc: tuple[int | str, ...]) -> str:
    """A place in the file: ``games[2]`` and ("hands", 0, "trump") make
    ``games[2].hands[0].trump``; no prefix, ``hands[0].trump``."""
    found = prefix
    for part in loc:
        found += f"[{part}]" if isinstance(part, int) else (f".{part}" if found else str(part))
    return found


_QUOTED = re.compile(r"'((?:[^'\\]|\\.)*)'")


def _type_problem(error: dict[str, Any], file_format: str) -> Message | None:
    kind, context = error["type"], error.get("ctx") or {}
    if kind == "extra_forbidden":
        return Message(N_("not a key of a %(format)s file"), format=AsWritten(file_format))
    if kind == "literal_error":
        # Pydantic lists the choices in English ("'a', 'b' or 'c'"): as the file writes them.
        choices = ", ".join(json.dumps(choice) for choice in
                            _QUOTED.findall(context.get("expected", "")))
        return Message(N_("should be one of %(choices)s"), choices=AsWritten(choices))
    if kind == "greater_than_equal":
        return Message(N_("should be %(limit)s or more"), limit=context.get("ge"))
    if kind == "string_too_long":
        return Message(N_("should have at most %(limit)s letters"),
                       limit=context.get("max_length"))
    problems = {
        "missing": N_("missing"),
        "model_type": N_("should be a JSON object"),
        "model_attributes_type": N_("should be a JSON object"),
        "dict_type": N_("should be a JSON object"),
        "list_type": N_("should be a JSON list"),
        "string_type": N_("should be a string"),
        "int_type": N_("should be a whole number"),
        "bool_type": N_("should be true or false"),
        "moment": N_("should be a date and time such as 2025-03-01T20:15:00+00:00"),
        "day": N_("should be a date such as 2025-03-01"),
        "game_missing": N_(
            "no Game: give the team that took it (null when tied), or game_values"),
    }
    return Message(problems[kind]) if kind in problems else None


# Refusals that are about a key, not a value: they don't repeat the value.
_ABOUT_A_KEY = ("missing", "extra_forbidden", "game_missing")


def shape_refusal(error: ValidationError, file_format: str, prefix: str = "") -> FileRefused:
    """The first thing wrong with a part's shape (and how many more there are), pointed
    at from ``prefix``, the part's own place in the file."""
    errors = error.errors()
    first = errors[0]
    # A problem no table above names is said in pydantic's own (English) words.
    problem = _type_problem(first, file_format) or Message("%(problem)s", problem=first["msg"])
    value = None if first["type"] in _ABOUT_A_KEY else shown(first["input"])
    return FileRefused(path(prefix, first["loc"]) or None, problem, value, len(errors) - 1)
