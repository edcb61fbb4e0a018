"""Digits as a reader types them: a Persian keyboard (or an Arabic one) writes ۰-۹ (or
٠-٩), and a Persian page shows its numbers so; the app reads them as 0-9.

A plain helper: it imports nothing of the app, so forms, drafts and codes may all use it.
"""
from __future__ import annotations

# Extended Arabic-Indic (Persian) and Arabic-Indic digits, each read as its 0-9.
READER_DIGITS = str.maketrans("۰۱۲۳۴۵۶۷۸۹٠١٢٣٤٥٦٧٨٩", "0123456789" * 2)


def latin_digits(text: str) -> str:
    """``text`` with Persian and Arabic-Indic digits written 0-9; all else as it was."""
    return text.translate(READER_DIGITS)
