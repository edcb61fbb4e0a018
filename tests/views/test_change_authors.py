"""The change log names who made each change; which device they used, to owners only
(an owner looks after the club's devices: the others need only the name)."""
from __future__ import annotations

import pytest

from scorekeeper.clubs.access import without_device
from tests.members import client_as
from scorekeeper.store.models import GameChange
from tests.views.view_helpers import HTMX, Page, hand_form, rows

THROW_IN = ",".join(["pass"] * 6)


@pytest.mark.parametrize("who, name", [
    ("Ann (Chrome on Android)", "Ann"),
    ("Ann (big) (Firefox on Linux)", "Ann (big)"),  # a bracket of the name's own is kept
    ("Ann Lee (A browser)", "Ann Lee"),
    ("Ann", "Ann"),
    ("", ""),
])
def test_without_device_leaves_the_name_the_member_has(who, name):
    assert without_device(who) == name


def authors(response) -> list[str]:
    page = Page(response)
    assert page.status == 200
    return [item.find("strong").text() for item in page.root.find_all("li")
            if item.parent is not None and "change-log" in item.parent.classes]


def test_owners_see_the_device_and_everyone_else_the_name(app, client, db, start_game):
    game = start_game()
    bea = client_as(app, "scorer", name="Bea")  # on "Test browser"
    assert bea.post(f"/games/{game}/hands", data=hand_form(1, THROW_IN)).status_code == 303
    (change,) = rows(db, GameChange)
    assert change.who == "Bea (Test browser)"  # kept whole, for the owner

    viewer = client_as(app, "viewer", name="Vic")
    for reader, shown in ((client, "Bea (Test browser)"), (bea, "Bea"), (viewer, "Bea")):
        page = reader.get(f"/games/{game}/changes")
        assert authors(page) == [shown]
        # The game page's log, opened (htmx asks for its latest changes only).
        part = reader.get(f"/games/{game}/changes",
                          headers={**HTMX, "HX-Target": "latest-changes"})
        assert "<html" not in part.text
        assert authors(part) == [shown]
        if reader is not client:
            assert "Test browser" not in page.text and "Test browser" not in part.text
    # Nor is the whole club's backup (devices and all) theirs to download.
    assert bea.get("/backup/download").status_code == 403
    assert viewer.get("/backup/download").status_code == 403
