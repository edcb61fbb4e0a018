"""A refused import or restore in the reader's language (README, "Languages"): the
sentence and a rule's reason translated, the path into the file and the offending value
exactly as the file wrote them (Latin digits, brackets, its own commas), inside an
element marked translate="no" and drawn left to right. The command line and ``str()``
stay English.

The Persian words expected are read from the catalogue, never from the app's code.
"""
from __future__ import annotations

import copy
import io
import json

import pytest
from flask_babel import force_locale, gettext
from werkzeug.datastructures import FileStorage
from werkzeug.test import encode_multipart

from scorekeeper import create_app
from scorekeeper.files.exchange import read_game_file
from scorekeeper.files.json_files import FileRefused
from tests.databases import database_url
from tests.members import client_as
from tests.test_exchange import EVENING, P, changed, delete_at, set_at
from tests.views.view_helpers import parse

PERSIAN_DIGITS = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")

# A bid that is not higher than the one before it, in hands[2]; a key missing.
BID_NOT_HIGHER = changed(EVENING, set_at(["hands", 2, "auction"], [3, P, 3, P, P, P]))
NO_LOW = changed(EVENING, delete_at(["hands", 1, "points", "low"]))


def persian(app, message: str, **params) -> str:
    """A message as the Persian catalogue says it, its numbers in Persian digits as the
    page writes prose."""
    with app.test_request_context(), force_locale("fa"):
        said = gettext(message) % params if params else gettext(message)
    return said.translate(PERSIAN_DIGITS)


def upload(client, url: str, field: str, content: str):
    boundary, body = encode_multipart(
        {field: FileStorage(io.BytesIO(content.encode()), "file.json", field)})
    return client.post(url, data=body, content_type=f"multipart/form-data; boundary={boundary}")


def refusal(response):
    """The page's one alert: the refusal."""
    assert response.status_code == 422, response.text[:1000]
    (alert,) = parse(response.text).find_all(role="alert")
    return alert


def kept(alert) -> dict[str, dict[str, str]]:
    """What the refusal quotes from the file: each kept element's text and attributes."""
    return {element.text(): element.attrs
            for element in alert.find_all(translate="no") if element.tag == "code"}


def assert_quoted_as_written(alert, text: str) -> None:
    quoted = kept(alert)
    assert text in quoted, (text, alert.text())
    assert quoted[text]["dir"] == "ltr"


@pytest.fixture
def persian_client(app):
    client = client_as(app)
    client.set_cookie("lang", "fa")
    return client


# --- an import ------------------------------------------------------------------------

def test_an_import_refused_for_a_rule_says_the_rule_in_persian(app, persian_client):
    alert = refusal(upload(persian_client, "/games/import", "game_file", BID_NOT_HIGHER))
    text = alert.text()
    assert text.startswith(persian(app, "Nothing was imported: %(problem)s.").split("%")[0])
    # The rule's reason as the hand form says it, in Persian.
    reason = persian(app, "A bid must be higher than %(highest)s.", highest=3).rstrip(".")
    assert reason in text
    assert_quoted_as_written(alert, "hands[2].auction")
    assert_quoted_as_written(alert, "3")  # the bid the file made, as it wrote it
    # No English sentence left: neither the engine's nor the page's English for the rule.
    assert "bid must be higher" not in text and "is not" not in text
    assert "hands[۲]" not in text


def test_an_import_refused_for_its_shape_says_so_in_persian(app, persian_client):
    alert = refusal(upload(persian_client, "/games/import", "game_file", NO_LOW))
    text = alert.text()
    assert persian(app, "missing") in text
    assert "missing" not in text
    assert_quoted_as_written(alert, "hands[1].points.low")


def test_a_value_as_written_keeps_its_own_commas_and_digits(app, persian_client):
    """A value quoted from the file is not given the reader's digits or commas."""
    alert = refusal(upload(persian_client, "/games/import", "game_file",
                           changed(EVENING, set_at(["hands", 1, "trump"], "Hearts, 2"))))
    assert_quoted_as_written(alert, '"Hearts, 2"')
    assert_quoted_as_written(alert, "hands[1].trump")
    reason = persian(app, "Trump must be spades, hearts, diamonds or clubs.").rstrip(".")
    assert reason.replace(",", "،") in alert.text()


def test_english_readers_read_what_they_read_before_the_path_marked(app, client):
    alert = refusal(upload(client, "/games/import", "game_file", NO_LOW))
    assert alert.text() == "Nothing was imported: hands[1].points.low: missing."
    assert_quoted_as_written(alert, "hands[1].points.low")
    alert = refusal(upload(client, "/games/import", "game_file", "[1, 2]"))
    assert alert.text() == "Nothing was imported: a game file holds one JSON object, not a list."
    # A rule's reason in the words the hand form uses, the value the file wrote after it.
    alert = refusal(upload(client, "/games/import", "game_file", BID_NOT_HIGHER))
    assert alert.text() == ("Nothing was imported: hands[2].auction: A bid must be higher "
                            "than 3 (the file says 3).")


# --- a restore ------------------------------------------------------------------------

def a_backup_with_first_dealer(first_dealer) -> str:
    """A backup of one imported game (EVENING), its first dealer changed."""
    app = create_app({"TESTING": True, "DATABASE_URL": database_url(),
                      "SECRET_KEY": "refusal-test", "WTF_CSRF_ENABLED": False})
    client = client_as(app)
    assert upload(client, "/games/import", "game_file", json.dumps(EVENING)).status_code == 303
    document = json.loads(client.get("/backup/download").text)
    document["games"][0]["first_dealer"] = first_dealer
    return json.dumps(document)


@pytest.fixture(scope="module")
def seventh_dealer() -> str:
    return a_backup_with_first_dealer(7)


def test_a_restore_refused_for_a_rule_says_the_rule_in_persian(app, seventh_dealer):
    client = client_as(app)
    client.set_cookie("lang", "fa")
    alert = refusal(upload(client, "/backup", "backup_file", seventh_dealer))
    text = alert.text()
    assert text.startswith(persian(app, "Nothing was restored: %(problem)s.").split("%")[0])
    assert persian(app, "That is not a seat: this table's seats are 1 to %(seats)s.").split("%")[0] in text
    assert_quoted_as_written(alert, "games[0].first_dealer")
    assert_quoted_as_written(alert, "7")
    assert "is not a seat" not in text and "(1-6)" not in text
    assert "games[۰]" not in text


def test_a_restore_names_the_format_and_a_value_as_written(app):
    client = client_as(app)
    client.set_cookie("lang", "fa")
    document = {"format": "scorekeeper-backup/2"}
    alert = refusal(upload(client, "/backup", "backup_file", json.dumps(document)))
    assert_quoted_as_written(alert, '"scorekeeper-backup/2"')
    assert_quoted_as_written(alert, "scorekeeper-backup/1")
    assert_quoted_as_written(alert, "format")


# --- English where no page is ---------------------------------------------------------

def test_a_refusal_is_english_even_while_a_persian_page_is_answered(app):
    """``str()`` is what the command line prints: English whoever is being answered."""
    with app.test_request_context(), force_locale("fa"):
        for text, english in [
            (BID_NOT_HIGHER, "hands[2].auction: a bid must be higher than 3; 3 is not"),
            (NO_LOW, "hands[1].points.low: missing"),
            (json.dumps({**EVENING, "seats": "Ann"}), 'seats: should be a JSON list, not "Ann"'),
        ]:
            with pytest.raises(FileRefused) as refused:
                read_game_file(text)
            assert str(refused.value) == english


def test_the_command_line_prints_the_rules_engines_english(app, runner, tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(BID_NOT_HIGHER, encoding="utf-8")
    result = runner.invoke(args=["import-game", str(path)], env={"LANG": "fa_IR.UTF-8"})
    assert result.exit_code == 1
    assert result.stderr == (f"Error: nothing was imported from {path}: "
                             "hands[2].auction: a bid must be higher than 3; 3 is not\n")


def test_the_restore_command_prints_english(app, runner, tmp_path, seventh_dealer):
    path = tmp_path / "club.json"
    path.write_text(seventh_dealer, encoding="utf-8")
    result = runner.invoke(args=["restore", str(path)])
    assert result.exit_code == 1
    assert result.stderr == (f"Error: nothing was restored from {path}: "
                             "games[0].first_dealer: 7 is not a seat (1-6)\n")


def test_every_refusal_of_a_shape_is_translated_on_the_page(app, persian_client):
    """The shape problems pydantic names beyond the table's usual ones (a change log's
    kind, hand number, or who) are translated too, not left in pydantic's English."""
    document = json.loads(a_backup_with_first_dealer(1))
    scores = {"A": 0, "B": 0, "C": 0}
    entry = {"at": "2025-03-01T20:15:00+00:00", "kind": "recorded", "number": 1, "who": "Ann",
             "hand_before": None, "hand_after": scores, "totals_before": scores,
             "totals_after": scores}
    for change, english in [({"kind": "redone"}, "Input should be"),
                            ({"number": 0}, "greater than"),
                            ({"who": "x" * 200}, "String should")]:
        broken = copy.deepcopy(document)
        broken["games"][0]["changes"] = [{**entry, **change}]
        text = refusal(upload(persian_client, "/backup", "backup_file", json.dumps(broken))).text()
        assert english not in text, text
