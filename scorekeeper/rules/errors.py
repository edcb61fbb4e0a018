"""The one exception the rules raise when an entry breaks a rule."""
from __future__ import annotations


class RuleViolation(ValueError):
    """An entry that the rules do not allow.

    ``code`` names the rule (stable, for translation and tests); ``params`` are the
    values the message needs. ``str()`` gives a plain English sentence for logs and the
    command line; pages use their own translated wording keyed by ``code``.
    """

    def __init__(self, code: str, english: str, **params: object) -> None:
        super().__init__(english)
        self.code = code
        self.params = params
        self.english = english
