"""Every house rule a table may choose when a game starts, declared once.

RULES.md, "House rules". Each ``HouseRule`` says its name (the one word the game's
stored rules, the new-game form, the game file and the phone's data all use), its words,
its values and its default (the game's own rule, as the seeds play it), and which of the
engine's modules carry it out. Nothing else in the app names a house rule: the form,
the game's stored rules, the game file, backups and the phone's offline data are all
made from ``HOUSE_RULES`` (``tests/test_house_rules.py`` fails on a module that does).

Adding a house rule: declare it here, write what it does in the modules its ``code``
names (and in the phone's ``static/rules.js``, which plays the same rules offline), say
it in RULES.md, and test it; README's recipe for a house rule says how.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Mapping, Union

from scorekeeper.rules.errors import RuleViolation

Value = Union[bool, int, str]


def N_(words: str) -> str:
    """Words a page says in its reader's language: marked here for translation, and
    translated where they are shown (the engine itself speaks no language)."""
    return words


@dataclass(frozen=True)
class Choice:
    """One value a house rule may take, and what the form calls it."""

    value: Value
    words: str


ON_OFF = (Choice(False, N_("Off")), Choice(True, N_("On")))


@dataclass(frozen=True)
class HouseRule:
    """A rule a table may choose for a game, as the game keeps it."""

    name: str
    words: str  # the rule's name on the form and the rules page
    says: str  # what the rule does, in a few words (beside it on the form)
    default: Value  # the game's own rule: a game that never chose keeps it
    choices: tuple[Choice, ...]
    code: tuple[str, ...]  # the engine's modules that carry it out

    @property
    def default_words(self) -> str:
        """What the form calls the rule's default."""
        return next(choice.words for choice in self.choices if choice.value == self.default)

    @property
    def on_or_off(self) -> bool:
        """Whether the rule is simply on or off (a box to tick on the form)."""
        return tuple(choice.value for choice in self.choices) == (False, True)

    def read(self, value: object) -> Value:
        """``value`` if it is one of the rule's (a bool is no number), else refused."""
        for choice in self.choices:
            if type(choice.value) is type(value) and choice.value == value:
                return choice.value
        shown = " or ".join(json.dumps(choice.value) for choice in self.choices)
        given = json.dumps(value, default=repr)
        raise RuleViolation("house_rule_invalid", f"should be {shown}, not {given}",
                            rule=self.name, value=value)

    def from_form(self, text: str | None) -> Value:
        """The value a form (or an address) gives as text; left out: off, or the default."""
        if self.on_or_off:
            return bool(text) and text not in ("n", "off", "false")
        for choice in self.choices:
            if str(choice.value) == (text or ""):
                return choice.value
        if not text:
            return self.default
        raise RuleViolation("house_rule_invalid", f"{self.name} can't be {text!r}",
                            rule=self.name, value=text)

    def to_form(self, value: Value) -> str | None:
        """The text a form (or an address) gives for ``value``; None: left out."""
        if self.on_or_off:
            return "y" if value else None
        return str(value)


HOUSE_RULES: tuple[HouseRule, ...] = (
    HouseRule(
        "bidder_goes_out", N_("Bidder goes out"),
        N_("a bidding team that makes its bid and reaches the target wins at once"),
        False, ON_OFF, code=("scorekeeper.rules.ending", "scorekeeper.rules.needs")),
    HouseRule(
        "lowest_bid", N_("Lowest bid"), N_("the lowest bid a seat may make"),
        3, (Choice(3, N_("3, the game's own: bids 3 to 6")), Choice(2, N_("2: bids 2 to 6"))),
        code=("scorekeeper.rules.table",)),
    HouseRule(
        "all_pass", N_("When everyone passes"),
        N_("what happens when every seat before the dealer has passed"),
        "throw_in", (Choice("throw_in", N_("The dealer may pass too: thrown in, the same "
                                           "dealer deals again")),
                     Choice("dealer_stuck", N_("The dealer is stuck: the dealer must bid"))),
        code=("scorekeeper.rules.auction",)),
    HouseRule(
        "smudge", N_("Smudge"),
        N_("a team that takes all six points of a hand wins the game at once, whatever "
           "the scores"),
        False, ON_OFF, code=("scorekeeper.rules.ending", "scorekeeper.rules.needs")),
)


def house_rule(name: str) -> HouseRule:
    """The house rule of that name; refused if no such rule is declared."""
    for rule in HOUSE_RULES:
        if rule.name == name:
            return rule
    raise RuleViolation("house_rule_unknown", f"there is no house rule {name!r}", rule=name)


def house_values(given: Mapping[str, object]) -> dict[str, Value]:
    """Every house rule's value, in the declaration's order: ``given``'s, each checked,
    and the default of each rule not given (a game kept before the rule was added)."""
    for name in given:
        house_rule(name)
    return {rule.name: rule.read(given[rule.name]) if rule.name in given else rule.default
            for rule in HOUSE_RULES}


def form_values(values: Mapping[str, Value]) -> dict[str, str]:
    """The house rules as a new-game form's fields (a rule left off is left out)."""
    fields = {}
    for rule in HOUSE_RULES:
        text = rule.to_form(values.get(rule.name, rule.default))
        if text is not None:
            fields[rule.name] = text
    return fields
