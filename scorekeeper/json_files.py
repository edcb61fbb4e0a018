"""Reading a JSON file someone gives the app: a game file (exchange.py) or a backup
(backup.py). Its size, its JSON, the shape refusals and the paths they point at.

Both readers refuse a file whole with ``FileRefused``: ``where`` is the bad part as a
path into the file (``hands[3].trump``, ``games[2].hands[0].recorded_at``), ``problem``
says what is wrong with it.
"""
from __future__ import annotations

import json
from typing import Any, Callable

from flask_babel import gettext as _
from pydantic import ValidationError


class FileRefused(ValueError):
    """A file that can't be taken in. ``where`` is the bad part, e.g. ``hands[3].trump``."""

    def __init__(self, where: str | None, problem: str) -> None:
        super().__init__(f"{where}: {problem}" if where else problem)
        self.where = where
        self.problem = problem


def size_text(size: int) -> str:
    """A byte count for people: 2 MB, 64 kB, 500 bytes."""
    if size % (1024 * 1024) == 0:
        return f"{size // (1024 * 1024)} MB"
    if size % 1024 == 0:
        return f"{size // 1024} kB"
    return f"{size} bytes"


def read_json(raw: bytes | str, limit: int | None, too_large: Callable[[str], str]) -> Any:
    """The file's JSON value; refused if over ``limit`` bytes (``too_large(size)`` says
    so), not UTF-8, not JSON, or holding text no database keeps."""
    if limit is not None and len(raw) > limit:
        raise FileRefused(None, too_large(size_text(limit)))
    try:
        found = json.loads(raw)
    except UnicodeDecodeError:
        raise FileRefused(None, "not JSON: the file is not UTF-8 text") from None
    except json.JSONDecodeError as error:
        raise FileRefused(
            None, f"not JSON: {error.msg} (line {error.lineno}, column {error.colno})"
        ) from None
    except RecursionError:
        raise FileRefused(None, "not JSON this app can read: it is nested too deeply") from None
    except ValueError as error:  # e.g. a number with more digits than Python will read
        raise FileRefused(None, f"not JSON this app can read: {error}") from None
    if _holds_unstorable_text(found):
        raise FileRefused(None, "a text in the file holds a null character or half of "
                                "a surrogate pair, which can't be kept")
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


def json_kind(value: Any) -> str:
    """What a JSON value is, in words: a list, a string, true, null, a number."""
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return shown(value)
    if value is None:
        return "null"
    return "a number"


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


def _type_problem(kind: str, file_format: str) -> str | None:
    problems = {
        "missing": _("missing"),
        "extra_forbidden": _("not a key of a %(format)s file", format=file_format),
        "model_type": _("should be a JSON object"),
        "model_attributes_type": _("should be a JSON object"),
        "dict_type": _("should be a JSON object"),
        "list_type": _("should be a JSON list"),
        "string_type": _("should be a string"),
        "int_type": _("should be a whole number"),
        "bool_type": _("should be true or false"),
        "moment": _("should be a date and time such as 2025-03-01T20:15:00+00:00"),
        "day": _("should be a date such as 2025-03-01"),
    }
    return problems.get(kind)


# Refusals that are about a key, not a value: they don't repeat the value.
_ABOUT_A_KEY = ("missing", "extra_forbidden", "game_missing")


def shape_refusal(error: ValidationError, file_format: str, prefix: str = "") -> FileRefused:
    """The first thing wrong with a part's shape (and how many more there are), pointed
    at from ``prefix``, the part's own place in the file."""
    errors = error.errors()
    first = errors[0]
    problem = _type_problem(first["type"], file_format) or first["msg"]
    if first["type"] not in _ABOUT_A_KEY:
        problem = _("%(problem)s, not %(value)s", problem=problem, value=shown(first["input"]))
    if len(errors) > 1:
        problem = _("%(problem)s (and %(more)s more)", problem=problem, more=len(errors) - 1)
    return FileRefused(path(prefix, first["loc"]) or None, problem)
