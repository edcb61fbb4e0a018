"""A player gone for the night is not proposed again: one replaced by a substitute is
gone until they are back, and a scorer says with one tap on the evening's page that
someone went home, or is back. Each test reads the page and the rows.
"""
from __future__ import annotations

from scorekeeper.store.models import GoneTonight, utcnow
from tests.members import client_as
from tests.views.test_view_coming import members, planned_evening
from tests.views.test_view_substitutes import made
from tests.views.view_helpers import Page, count, rows, submit

NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal"]
ALL_PASS = ",".join(["pass"] * 6)


def evening_with_fay_replaced(app, client, db, play, new_game_form) -> int:
    """Eight said they are in; Ann to Fay play the first game, and at hand 2 Gil takes
    Fay's seat: she went home."""
    evening = planned_evening(client, db, utcnow().date())
    phones = members(app, [("viewer", name) for name in NAMES])
    for name in NAMES:
        phones[name].post(f"/evenings/{evening}/coming", data={"coming": "in"})
    response = client.post("/games/new", data=new_game_form(evening=str(evening)))
    game = int(response.headers["Location"].rsplit("/", 1)[1])
    play(game, 1, ALL_PASS)
    made(client, game, 6, 2, "Gil")
    return evening


def proposed(page: Page) -> str:
    return page.section_text("next-round")


def tap(client, page: Page, label: str) -> Page:
    form, button = page.button(label)
    response = submit(client, form, button)
    assert response.status_code == 303, response.text[:500]
    return Page(client.get(response.headers["Location"]))


def test_a_player_replaced_by_a_substitute_is_not_proposed_until_back(
        app, client, db, play, new_game_form):
    evening = evening_with_fay_replaced(app, client, db, play, new_game_form)
    page = Page(client.get(f"/evenings/{evening}"))
    assert "Fay" not in proposed(page)
    assert "Gil" in proposed(page)  # the substitute is here
    assert page.has_button("Fay is back") and not page.has_button("Fay went home")
    assert count(db, GoneTonight) == 0  # the substitute alone says so

    back = tap(client, page, "Fay is back")
    assert "Fay is back tonight." in back.notices()
    assert "Fay" in proposed(back) and back.has_button("Fay went home")
    assert [(word.name_key, word.gone) for word in rows(db, GoneTonight)] == [("fay", False)]


def test_a_scorer_says_who_went_home_with_one_tap_and_undoes_it(
        app, client, db, play, new_game_form):
    evening = evening_with_fay_replaced(app, client, db, play, new_game_form)
    page = Page(client.get(f"/evenings/{evening}"))
    assert "Ann" in proposed(page)

    gone = tap(client, page, "Ann went home")
    assert "Ann is gone for the night." in gone.notices()
    assert "Ann" not in proposed(gone)
    assert gone.has_button("Ann is back") and gone.has_button("Fay is back")
    assert [(word.name_key, word.gone) for word in rows(db, GoneTonight)] == [("ann", True)]

    undone = tap(client, gone, "Ann is back")
    assert "Ann" in proposed(undone)
    db.expire_all()
    assert [(word.name_key, word.gone) for word in rows(db, GoneTonight)] == [("ann", False)]


def test_someone_not_at_the_evening_or_a_viewers_tap_changes_nothing(
        app, client, db, play, new_game_form):
    evening = evening_with_fay_replaced(app, client, db, play, new_game_form)
    for data in ({"name": "Zed", "gone": "yes"}, {"name": "Ann", "gone": "maybe"},
                 {"gone": "yes"}):
        response = client.post(f"/evenings/{evening}/gone", data=data)
        assert response.status_code == 303
        page = Page(client.get(response.headers["Location"]))
        assert "Nobody of that name is at this evening; nothing was changed." in page.notices()
        assert "Ann" in proposed(page)
    viewer = client_as(app, "viewer", name="Vic")
    assert viewer.post(f"/evenings/{evening}/gone",
                       data={"name": "Ann", "gone": "yes"}).status_code == 403
    assert count(db, GoneTonight) == 0
