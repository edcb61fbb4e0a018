"""Every house rule is declared once (``rules.house``): nothing else in the app names
one, and a rule added to the declaration is on the new-game form, kept with the game, in
the game file, in the engine and in the phone's data with nothing else written.

RULES.md, "House rules"; README's recipe for adding a house rule.
"""
from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
from sqlmodel import Session

from scorekeeper.rules import HouseRules, RuleViolation, house, phone
from scorekeeper.rules.house import ON_OFF, HouseRule, N_
from scorekeeper.store.models import Game
from tests.new_games import start_game_as
from tests.test_exchange import export_of, import_text
from tests.views.view_helpers import Page

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "scorekeeper"
# The phone's copy of the rules plays them (its code of each rule) and reads their data.
PHONE_RULES = {"rules.js", phone.FILE}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def names_in(tree: ast.AST) -> set[str]:
    """Every name the source says: names, attributes, keywords and whole strings."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            found.add(node.id)
        elif isinstance(node, ast.Attribute):
            found.add(node.attr)
        elif isinstance(node, ast.keyword) and node.arg:
            found.add(node.arg)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            found.add(node.value)
    return found


def places_naming(rule: HouseRule) -> list[str]:
    """The app's modules, templates and scripts that name ``rule``, besides its
    declaration and the engine's code of it."""
    allowed = {"scorekeeper.rules.house", *rule.code}
    found = [module_name(path) for path in PACKAGE.rglob("*.py")
             if "migrations" not in path.parts and module_name(path) not in allowed
             and rule.name in names_in(ast.parse(path.read_text(encoding="utf-8")))]
    word = re.compile(rf"\b{re.escape(rule.name)}\b")
    found += [str(path.relative_to(ROOT)) for folder, pattern in (("templates", "*.html"),
                                                                  ("static", "*.js"))
              for path in (ROOT / folder).rglob(pattern)
              if path.name not in PHONE_RULES and word.search(path.read_text(encoding="utf-8"))]
    return found


@pytest.mark.parametrize("rule", house.HOUSE_RULES, ids=lambda rule: rule.name)
def test_no_part_of_the_app_names_a_house_rule_but_its_declaration_and_its_code(rule):
    assert places_naming(rule) == []


def test_the_check_finds_a_module_that_names_a_house_rule():
    """The check above can fail: a rule whose code it isn't told of is found there."""
    rule = house.house_rule("bidder_goes_out")
    untold = HouseRule(rule.name, rule.words, rule.says, rule.default, rule.choices, code=())
    assert {"scorekeeper.rules.ending", "scorekeeper.rules.needs"} <= set(places_naming(untold))


def test_the_rules_page_lists_every_house_rule_with_its_default(client):
    listed = Page(client.get("/rules")).section_text("house-rules")
    for rule in house.HOUSE_RULES:
        assert f"{rule.words}: {rule.says} (unless chosen: {rule.default_words})" in listed


def test_the_phones_data_file_is_the_one_the_engine_makes():
    written = (ROOT / "static" / phone.FILE).read_text(encoding="utf-8")
    assert written == phone.phone_module(), \
        "run `flask --app scorekeeper write-phone-rules` and commit static/rules_data.js"


NEW_RULE = HouseRule("second_chance", N_("Second chance"), N_("a rule only this test plays"),
                     False, ON_OFF, code=())


@pytest.fixture
def a_new_rule(monkeypatch):
    """A house rule added to the declaration, and nowhere else."""
    monkeypatch.setattr(house, "HOUSE_RULES", (*house.HOUSE_RULES, NEW_RULE))
    return NEW_RULE


def test_a_rule_added_to_the_declaration_is_in_the_engine(a_new_rule):
    assert HouseRules().second_chance is False
    assert HouseRules(second_chance=True).second_chance is True
    assert HouseRules(second_chance=True).house_values == {
        "bidder_goes_out": False, "lowest_bid": 3, "all_pass": "throw_in", "smudge": False,
        "second_chance": True}
    with pytest.raises(RuleViolation) as refused:
        HouseRules(second_chance="yes")
    assert (refused.value.code, refused.value.params["rule"]) == ("house_rule_invalid",
                                                                 "second_chance")


def test_a_rule_added_to_the_declaration_is_in_the_phones_data(a_new_rule):
    data = phone.phone_data()["HOUSE_RULES"]
    assert data["second_chance"] == {"default": False, "values": [False, True]}
    assert "export const HOUSE_RULES = " + json.dumps(data) in phone.phone_module()


def test_a_rule_added_to_the_declaration_is_on_the_form_kept_and_in_the_game_file(
        a_new_rule, app, client):
    form = Page(client.get("/games/new"))
    (box,) = form.root.find_all("input", name="second_chance")
    assert box.get("type") == "checkbox"
    assert "Second chance: a rule only this test plays" in form.text
    game = start_game_as(client, second_chance="y")
    with Session(app.extensions["db_engine"]) as session:
        assert session.get(Game, game).house_rules == {
            "bidder_goes_out": False, "lowest_bid": 3, "all_pass": "throw_in",
            "smudge": False, "second_chance": True}
    page = Page(client.get(f"/games/{game}"))
    island = json.loads(page.by_id("game-state").get("data-state"))
    assert island["rules"]["house"]["second_chance"] is True  # the phone plays by it
    rules_page = Page(client.get("/rules")).section_text("house-rules")
    assert "Second chance: a rule only this test plays (unless chosen: Off)" in rules_page
    exported = export_of(app, game)
    assert exported["rules"]["second_chance"] is True
    again = import_text(app, json.dumps(exported))
    with Session(app.extensions["db_engine"]) as session:
        assert session.get(Game, again).house_rules["second_chance"] is True


# A game file and a club's backup written before house rules were declared (each rule a
# key of its own, as they still are): a game of two threes to 15, bidder goes out.
WRITTEN_BEFORE = ROOT / "tests" / "files"
# The house rules declared since, as a file written before them reads: their defaults.
DECLARED_SINCE = {"lowest_bid": 3, "all_pass": "throw_in", "smudge": False}


def test_a_game_file_written_before_the_declaration_reads_unchanged(app):
    text = (WRITTEN_BEFORE / "game-before-house-rules.json").read_text(encoding="utf-8")
    game = import_text(app, text)
    exported = export_of(app, game)
    assert json.loads(text)["rules"] == {"teams": "2x3", "target": 15, "bidder_goes_out": True}
    assert exported["rules"] == {**json.loads(text)["rules"], **DECLARED_SINCE}
    assert exported["scores"] == json.loads(text)["scores"]


def test_a_backup_written_before_the_declaration_restores_unchanged(app):
    from tests.test_backup import backup_of, restore_into

    text = (WRITTEN_BEFORE / "backup-before-house-rules.json").read_text(encoding="utf-8")
    restore_into(app, text)
    games = backup_of(app)["games"]
    assert [game["rules"] for game in games] == [{**game["rules"], **DECLARED_SINCE}
                                                 for game in json.loads(text)["games"]]
    assert games[0]["rules"]["bidder_goes_out"] is True
    assert games[0]["scores"] == json.loads(text)["games"][0]["scores"]
