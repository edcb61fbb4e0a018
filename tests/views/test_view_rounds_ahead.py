"""The evening's page tells whose turn it is to sit out in the rounds after the next,
so nobody has to ask: seven here (the one count tables of four to six can't seat), one
sits out a round, each in turn."""
from __future__ import annotations

from scorekeeper.figures.rounds import sit_outs_ahead, to_sit_out
from scorekeeper.store.models import utcnow
from tests.views.test_view_coming import members, planned_evening
from tests.views.view_helpers import Page

NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus"]


def test_the_evening_page_tells_the_sit_outs_of_the_rounds_ahead(app, client, db):
    evening = planned_evening(client, db, utcnow().date())
    phones = members(app, [("viewer", name) for name in NAMES])
    for name in NAMES:
        phones[name].post(f"/evenings/{evening}/coming", data={"coming": "in"})
    page = Page(client.get(f"/evenings/{evening}"))
    assert page.by_id("sitting-out").text() == "Sitting out: Gus"  # the last to say so
    ahead = [item.text() for item in page.root.find_all("li")
             if item.parent.get("class") == "sitting-out-after"]
    # Nobody has sat out yet: the last to come sit out first, one each round.
    assert ahead == ["Fay", "Eve", "Dan"]


def test_the_turns_ahead_are_the_turns_each_round_would_take():
    present = [f"P{n}" for n in range(7)]  # one sits out a round
    ahead = sit_outs_ahead(present, [], 7)
    assert ahead[0] == tuple(to_sit_out(present, [], 1))
    out = [name for round_ in ahead for name in round_]
    assert len(out) == len(set(out)) == 7  # everyone once, before anyone twice
    assert sit_outs_ahead([*present, "P7"], [], 3) == [(), (), ()]  # eight: nobody
