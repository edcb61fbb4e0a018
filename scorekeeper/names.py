"""What people type as names: kept on one line, compared without case.

Plain helpers: they import nothing of the app, so anything may use them.
"""
from __future__ import annotations


def clean_name(name: str) -> str:
    """A name on one line: runs of spaces (and line breaks) become one space."""
    return " ".join(name.split())


def name_key(name: str) -> str:
    """A name as it is compared: "Ann" and "ann " are one player."""
    return clean_name(name).casefold()
