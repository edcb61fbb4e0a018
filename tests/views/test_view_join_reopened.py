"""A join whose answer was lost, then the link opened again (not the form sent again):
the phone keeps its join's key from the page it was given, in a short-lived signed
cookie of that link alone, and opening the link again lets it in as the member its join
made. A single-use link still lets in one person only: another phone opening it finds
nothing, whatever cookie it brings.
"""
from __future__ import annotations

from scorekeeper.clubs.access import COOKIE
from scorekeeper.store.models import Device, Member
from tests.views.test_view_join_retry import (
    club_members, device_cookies, join_form, joined, owner_link, without_expires,
)
from tests.views.test_view_membership import make_link
from tests.views.view_helpers import Page, count, path_of, submit

KEPT_KEY = "scorekeeper_join_key"


def kept_key_cookie(response) -> str:
    (header,) = [value for value in response.headers.getlist("Set-Cookie")
                 if value.startswith(f"{KEPT_KEY}=")]
    return header


def lose_the_answer(phone, shown, action: str) -> None:
    """The join's answer never reached the phone: its cookies are as the join page
    (``shown``) left them, its key kept and no device cookie."""
    phone.delete_cookie(COOKIE)
    value = kept_key_cookie(shown).split(";", 1)[0].split("=", 1)[1]
    phone.set_cookie(KEPT_KEY, value, path=action)


def test_an_owner_link_opened_again_after_a_lost_answer_lets_the_same_phone_in(
        app, runner, db):
    """The join page gives the phone its key in a cookie of that link alone (HttpOnly,
    an hour); the join's answer is lost after the link was used up; opening the link
    again answers as the join did, the same member and device, and forgets the key.
    Another phone opening the link gets 404 and makes nobody."""
    invite = owner_link(runner, db)
    action = f"/join/{invite.token}"
    phone = app.test_client()
    shown = phone.get(action)
    kept = kept_key_cookie(shown)
    assert f"Path={action};" in kept and "HttpOnly" in kept and "Max-Age=3600" in kept
    first = submit(phone, join_form(Page(shown), action), changes={"your_name": "Heir"})
    device = joined(app, db, first)
    lose_the_answer(phone, shown, action)
    members = count(db, Member)

    again = phone.get(action)
    assert joined(app, db, again).id == device.id
    assert [without_expires(c) for c in device_cookies(again)] == [
        without_expires(c) for c in device_cookies(first)]
    assert path_of(again.headers["Location"]) == "/"
    assert "max-age=0" in kept_key_cookie(again).lower()  # in: the key is no longer kept
    assert "You are this club's owner." in phone.get("/club").text
    assert (count(db, Member), count(db, Device)) == (members, members)

    other_phone = app.test_client()
    assert other_phone.get(action).status_code == 404
    assert count(db, Member) == members


def test_another_phones_kept_key_lets_nobody_in(app, runner, db):
    """A phone that opened the single-use link too, but whose Join came second, holds a
    key of its own: opening the link again it finds the link used up (404), and a key
    cookie not signed by the server is no key at all."""
    invite = owner_link(runner, db)
    action = f"/join/{invite.token}"
    heir, late = app.test_client(), app.test_client()
    heir_form = join_form(Page(heir.get(action)), action)
    late_form = join_form(Page(late.get(action)), action)
    joined(app, db, submit(heir, heir_form, changes={"your_name": "Heir"}))
    members = count(db, Member)
    assert submit(late, late_form, changes={"your_name": "Late"}).status_code == 404

    assert late.get(action).status_code == 404
    (key,) = [value for name, value in heir_form.fields() if name == "join_key"]
    forger = app.test_client()
    forger.set_cookie(KEPT_KEY, key, path=action)
    assert forger.get(action).status_code == 404
    assert count(db, Member) == members


def test_a_scorer_link_opened_again_after_a_lost_answer_is_the_same_member(app, client, db):
    """A link that stays live, opened again by the phone whose join's answer was lost,
    lets it in as the member it made, not to a second form that would make another."""
    invite = make_link(client, db, "scorer")
    action = f"/join/{invite.token}"
    phone = app.test_client()
    shown = phone.get(action)
    device = joined(app, db, submit(phone, join_form(Page(shown), action),
                                    changes={"your_name": "Zoe"}))
    lose_the_answer(phone, shown, action)

    assert joined(app, db, phone.get(action)).id == device.id
    assert [member.name for member in club_members(db, invite)].count("Zoe") == 1


def test_a_phone_let_in_forgets_its_key(app, client, db):
    """The join's answer arrives: the key cookie goes with it, so the phone's next look
    at the link is a member's, and no later user of the phone is let in by the key."""
    invite = make_link(client, db, "viewer")
    action = f"/join/{invite.token}"
    phone = app.test_client()
    form = join_form(Page(phone.get(action)), action)
    answer = submit(phone, form, changes={"your_name": "Zoe"})
    joined(app, db, answer)
    assert "max-age=0" in kept_key_cookie(answer).lower()
