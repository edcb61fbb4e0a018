"""Making a link on the club page keeps the role picker at the role just chosen, so a
second link for the same part is one tap."""
from __future__ import annotations

from scorekeeper.store.models import Invite
from tests.views.view_helpers import Page, rows


def picked(client) -> list[str]:
    page = Page(client.get("/club"))
    return [radio.get("value") for radio in page.root.find_all("input", name="role")
            if radio.get("type") == "radio" and "checked" in radio.attrs]


def test_the_role_picker_stays_at_the_role_the_last_link_was_made_for(client, db):
    assert picked(client) == ["viewer"]  # the usual first choice
    for role in ("scorer", "scorer", "viewer"):
        response = client.post("/club/links", data={"role": role})
        assert response.status_code == 303
        assert response.headers["Location"].endswith("/club#links")
        assert picked(client) == [role]
    assert [invite.role for invite in rows(db, Invite, order_by=Invite.id)] == [
        "scorer", "scorer", "viewer"]


def test_a_refused_link_keeps_what_was_sent_and_makes_nothing(client, db):
    client.post("/club/links", data={"role": "scorer"})
    response = client.post("/club/links", data={"role": "owner"})  # not offered here
    assert response.status_code == 400
    assert len(rows(db, Invite)) == 1
    assert picked(client) == ["scorer"]
