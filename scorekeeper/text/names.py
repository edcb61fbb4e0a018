"""What people type as names: kept on one line, compared without case.

Plain helpers: they import nothing of the app, so anything may use them.
"""
from __future__ import annotations

from markupsafe import Markup


def clean_name(name: str) -> str:
    """A name on one line: runs of spaces (and line breaks) become one space."""
    return " ".join(name.split())


def name_key(name: str) -> str:
    """A name as it is compared: "Ann" and "ann " are one player."""
    return clean_name(name).casefold()


# Plain text (a recap to share, a picture's line) marks what a person typed between
# U+2068 FIRST STRONG ISOLATE and U+2069 POP DIRECTIONAL ISOLATE: ``typed``'s <bdi>.
TYPED_START, TYPED_END = "\u2068", "\u2069"


def typed_text(text: str) -> str:
    """Text a person typed, in plain text: isolated as ``typed`` isolates it on a page,
    and so marked that its digits can be kept as written (``web.languages.text_digits``)."""
    return TYPED_START + text + TYPED_END


def typed(text) -> Markup:
    """Text a person typed (a name, a place, a note), as a page shows it: isolated, so
    that its letters and digits never regroup with the sentence around it, and marked to
    be kept as written (no reader's digits or punctuation put into it)."""
    return Markup("<bdi translate=no>%s</bdi>") % text


def team_part(text) -> Markup:
    """One team's part of a line ("A +2 = 9"): isolated, so that in a right-to-left line
    each team's letter stays beside its own numbers."""
    return Markup("<bdi>%s</bdi>") % text


def partners(names) -> Markup:
    """A team's players in a line, in seat order: each name isolated, and the line set in
    the page's direction (``.partners`` in app.css), so that a page names a team in one
    order wherever it does, whatever the scripts of its names. The "&" is bound to the
    name before it: a line too narrow breaks between the names, never before the "&"."""
    return Markup('<span class="partners">%s</span>') % Markup("&nbsp;&amp; ").join(
        typed(name) for name in names)
