"""Yes-or-no settings are read one way, wherever they are said."""
from __future__ import annotations

import pytest

from scorekeeper import create_app

from scorekeeper.web import settings
from tests.databases import database_url

ON = ["1", "true", "TRUE", "True", "yes", "Yes", "on", "ON", " on "]
OFF = ["0", "false", "FALSE", "no", "No", "off", "Off", ""]


@pytest.mark.parametrize("variable, name", settings.ENVIRONMENT_SWITCHES.items())
@pytest.mark.parametrize("word", ON)
def test_every_switch_in_the_environment_is_on_by_the_same_words(variable, name, word):
    assert settings.from_environment({variable: word}) == {name: True}


@pytest.mark.parametrize("variable, name", settings.ENVIRONMENT_SWITCHES.items())
@pytest.mark.parametrize("word", OFF)
def test_every_switch_in_the_environment_is_off_by_the_same_words(variable, name, word):
    assert settings.from_environment({variable: word}) == {name: False}


@pytest.mark.parametrize("variable", settings.ENVIRONMENT_SWITCHES)
@pytest.mark.parametrize("word", ["maybe", "2", "enabled", "y es"])
def test_a_switch_in_no_known_words_stops_the_start_and_says_which(variable, word):
    with pytest.raises(settings.SettingRefused) as refused:
        settings.from_environment({variable: word})
    assert variable in str(refused.value)
    assert repr(word) in str(refused.value)
    assert "1, true, yes or on" in str(refused.value)


def test_open_signup_said_true_in_the_environment_opens_signup(monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_OPEN_SIGNUP", "true")
    app = create_app({"TESTING": True, "DATABASE_URL": database_url(), "SECRET_KEY": "s"})
    assert app.config["OPEN_SIGNUP"] is True


def test_a_wrong_word_in_the_environment_stops_the_app_starting(monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_BEHIND_PROXY", "sometimes")
    with pytest.raises(settings.SettingRefused, match="SCOREKEEPER_BEHIND_PROXY"):
        create_app({"TESTING": True, "DATABASE_URL": database_url(), "SECRET_KEY": "s"})


@pytest.mark.parametrize("name", settings.SWITCHES)
@pytest.mark.parametrize("said, read", [("yes", True), ("Off", False), (True, True),
                                        (False, False), (1, True), (0, False)])
def test_switches_in_the_config_file_are_read_the_same_way(monkeypatch, name, said, read):
    for variable in settings.ENVIRONMENT_SWITCHES:
        monkeypatch.delenv(variable, raising=False)
    app = create_app({"TESTING": True, "DATABASE_URL": database_url(), "SECRET_KEY": "s",
                      name: said})
    assert app.config[name] is read


@pytest.mark.parametrize("name", settings.SWITCHES)
def test_a_switch_in_the_config_file_in_no_known_words_stops_the_start(monkeypatch, name):
    for variable in settings.ENVIRONMENT_SWITCHES:
        monkeypatch.delenv(variable, raising=False)
    with pytest.raises(settings.SettingRefused, match=name):
        create_app({"TESTING": True, "DATABASE_URL": database_url(), "SECRET_KEY": "s",
                    name: "perhaps"})
