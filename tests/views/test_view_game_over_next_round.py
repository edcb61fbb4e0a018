"""A game over at a night of more than one table leads to the evening's next round, so
the sit-outs turn and the tables mix; at a night of six, to the same six's next game
with new partners, as before. The game page's over card is read."""
from __future__ import annotations

from scorekeeper.store.models import utcnow
from tests.views.test_view_coming import members, planned_evening
from tests.views.view_helpers import Page

NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal"]


def game_won_at_a_night_of(app, client, db, play, new_game_form, coming: list[str]):
    """``coming`` said they are in; Ann to Fay play a game to 5, won in one hand: the
    evening's id, and the game page's buttons (text, address, classes) in its over card."""
    evening = planned_evening(client, db, utcnow().date())
    phones = members(app, [("viewer", name) for name in coming])
    for name in coming:
        phones[name].post(f"/evenings/{evening}/coming", data={"coming": "in"})
    response = client.post("/games/new", data=new_game_form(evening=str(evening), target="5"))
    game = int(response.headers["Location"].rsplit("/", 1)[1])
    play(game, 1, "pass,6", "hearts", "CCCCC", "C")
    page = Page(client.get(f"/games/{game}"))
    over = page.by_id("hand-entry")
    return evening, [(a.text(), a.get("href"), a.classes)
                     for a in over.find_all("a", class_="button")]


def test_a_game_over_at_a_night_of_eight_leads_to_the_next_round(
        app, client, db, play, new_game_form):
    evening, buttons = game_won_at_a_night_of(app, client, db, play, new_game_form, NAMES)
    text, href, classes = buttons[0]
    assert (text, href) == ("Next round", f"/evenings/{evening}#next-round")
    assert "primary" in classes
    partners = next(button for button in buttons if button[0] == "Next game, new partners")
    assert "secondary" in partners[2]  # still there, for a table that stays together
    # The evening's page has the round it leads to: Gus and Hal play.
    round_ = Page(client.get(f"/evenings/{evening}")).section_text("next-round")
    assert "Gus" in round_ and "Hal" in round_


def test_a_game_over_at_a_night_of_six_leads_to_new_partners(
        app, client, db, play, new_game_form):
    _evening, buttons = game_won_at_a_night_of(app, client, db, play, new_game_form, NAMES[:6])
    assert buttons[0][0] == "Next game, new partners" and "primary" in buttons[0][2]
    assert "Next round" not in [text for text, _href, _classes in buttons]
