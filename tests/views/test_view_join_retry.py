"""Joining over a lossy connection: a join whose answer (the device cookie) was lost on
the way back is sent again by the same phone, with the same form, and answered as the
first time: the same member, the same device, the same cookie. A single-use link still
lets in one person only, and another phone's form is refused as before.
"""
from __future__ import annotations

import re
from datetime import timedelta

import pytest

from scorekeeper.clubs.access import COOKIE
from scorekeeper.store.models import Device, Invite, JoinAttempt, Member, utcnow
from tests.views.test_view_membership import (
    cookie_device, device_cookie_header, first_club, make_link, set_code,
)
from tests.views.view_helpers import Form, Page, count, path_of, rows, submit

ANOTHER_KEY = "another-phones-key-" + "x" * 13


def owner_link(runner, db) -> Invite:
    """The single-use link that makes an owner, as ``new-link --role owner`` prints it."""
    printed = runner.invoke(args=["new-link", str(first_club(db).id), "--role", "owner"])
    assert printed.exit_code == 0, printed.output
    token = re.search(r"/join/([A-Za-z0-9_-]{32,})", printed.output).group(1)
    (invite,) = rows(db, Invite, Invite.token == token)
    return invite


def join_form(page: Page, action: str) -> Form:
    """The name form, with the key it carries for this join."""
    assert page.status == 200
    form = page.form_posting_to(action)
    (key,) = [value for name, value in form.fields() if name == "join_key"]
    assert re.fullmatch(r"[A-Za-z0-9_-]+", key) and len(key) * 6 >= 128, key
    return form


def club_members(db, invite: Invite) -> list[Member]:
    return rows(db, Member, Member.club_id == invite.club_id)


def joined(app, db, response) -> Device:
    """The device a join's answer remembers the phone by (303, with its cookie)."""
    assert response.status_code == 303, response.text
    return cookie_device(app, db, device_cookie_header(response))


def without_expires(cookie: str) -> str:
    return re.sub(r"; Expires=[^;]*", "", cookie)


def device_cookies(response) -> list[str]:
    return [value for value in response.headers.getlist("Set-Cookie")
            if value.startswith(f"{COOKIE}=")]


def test_an_owner_link_whose_answer_was_lost_lets_the_same_form_in_again(app, runner, db):
    """The answer to the phone's Join is lost after the owner link was used up: the same
    form sent again (the phone without its cookie) is let in as the member the first made,
    with the same device and cookie; another phone's form is refused, and stays out."""
    invite = owner_link(runner, db)
    before = len(club_members(db, invite))
    action = f"/join/{invite.token}"
    form = join_form(Page(app.test_client().get(action)), action)

    first = submit(app.test_client(), form, changes={"your_name": "Heir"})
    device = joined(app, db, first)
    phone = app.test_client()  # the same phone, its first answer never arrived
    again = submit(phone, form, changes={"your_name": "Heir"})
    assert joined(app, db, again).id == device.id
    # The same cookie, value and attributes; its Expires is the answer's moment plus its
    # Max-Age (compared), so two answers a second apart differ there.
    assert [without_expires(c) for c in device_cookies(again)] == [
        without_expires(c) for c in device_cookies(first)]
    assert path_of(again.headers["Location"]) == "/"
    heirs = [member for member in club_members(db, invite) if member.name == "Heir"]
    assert len(club_members(db, invite)) == before + 1 and len(heirs) == 1
    assert heirs[0].role == "owner" and device.member_id == heirs[0].id
    assert len(rows(db, Device, Device.member_id == heirs[0].id)) == 1
    assert phone.get("/club").status_code == 200

    other = app.test_client()
    assert other.get(action).status_code == 404  # the link is used up
    refused = submit(other, form, changes={"your_name": "Intruder", "join_key": ANOTHER_KEY})
    assert refused.status_code == 404 and not device_cookies(refused)
    keyless = other.post(action, data={"your_name": "Heir"})  # a page from before keys
    assert keyless.status_code == 404 and not device_cookies(keyless)
    assert len(club_members(db, invite)) == before + 1
    assert other.get("/club").status_code == 404


def test_a_scorer_link_sent_twice_by_the_same_phone_makes_one_member(app, client, db):
    """A link many may use: the same form twice is one member and one device; a form of
    another phone is another member."""
    invite = make_link(client, db, "scorer")
    action = f"/join/{invite.token}"
    form = join_form(Page(app.test_client().get(action)), action)
    first = joined(app, db, submit(app.test_client(), form, changes={"your_name": "Zoe"}))
    again = joined(app, db, submit(app.test_client(), form, changes={"your_name": "Zoe"}))
    assert again.id == first.id
    assert [member.name for member in club_members(db, invite)].count("Zoe") == 1

    other = join_form(Page(app.test_client().get(action)), action)
    assert joined(app, db, submit(app.test_client(), other, changes={"your_name": "Zoe"})).id \
        != first.id
    assert [member.name for member in club_members(db, invite)].count("Zoe") == 2


def test_the_same_form_back_with_another_name_is_not_the_first_member(app, client, db):
    """The Back button on a phone several people join from: the form comes back with the
    key it had, and another name. That is someone else: never let in as the first."""
    invite = make_link(client, db, "scorer")
    action = f"/join/{invite.token}"
    form = join_form(Page(app.test_client().get(action)), action)
    first = joined(app, db, submit(app.test_client(), form, changes={"your_name": "Zoe"}))
    other = submit(app.test_client(), form, changes={"your_name": "Yan"})
    assert other.status_code == 404 and not device_cookies(other)
    names = [member.name for member in club_members(db, invite)]
    assert names.count("Zoe") == 1 and "Yan" not in names
    assert rows(db, Device, Device.member_id == first.member_id) == [first]


def test_a_code_whose_answer_was_lost_lets_the_same_form_in_again(app, runner, db):
    """An owner's code typed on /join, then the name form: its answer lost, the same form
    sent again gets in as that member, and spends no try of the address's ten."""
    invite = owner_link(runner, db)
    set_code(db, invite, "R0AD5T0P")
    before = len(club_members(db, invite))
    action = f"/join/{invite.token}/name"
    form = join_form(Page(app.test_client().post("/join", data={"code": "R0AD-5T0P"})),
                     action)
    tries = count(db, JoinAttempt)

    device = joined(app, db, submit(app.test_client(), form, changes={"your_name": "Heir"}))
    phone = app.test_client()
    assert joined(app, db, submit(phone, form, changes={"your_name": "Heir"})).id == device.id
    assert len(club_members(db, invite)) == before + 1
    assert count(db, JoinAttempt) == tries
    assert phone.get("/club").status_code == 200

    other = app.test_client()
    typed = Page(other.post("/join", data={"code": "R0AD-5T0P"}))
    assert typed.status == 400 and typed.root.find("input", name="your_name") is None
    refused = submit(other, form, changes={"your_name": "Intruder", "join_key": ANOTHER_KEY})
    assert refused.status_code == 404 and not device_cookies(refused)
    assert len(club_members(db, invite)) == before + 1


GONE = {  # what happened since the join, as the row it was written to
    "removed": (Member, "removed_at", utcnow()),
    "forgotten": (Device, "forgotten_at", utcnow()),
    "an hour later": (Device, "created_at", utcnow() - timedelta(hours=1, minutes=1)),
}


@pytest.mark.parametrize("gone", GONE)
def test_a_join_sent_again_finds_nobody_once_its_member_or_device_is_gone(app, runner, db,
                                                                         gone):
    """The answer is given again only while it still opens the club, and not for long:
    the member removed, their device forgotten, or an hour gone, the copy is refused."""
    invite = owner_link(runner, db)
    action = f"/join/{invite.token}"
    form = join_form(Page(app.test_client().get(action)), action)
    device = joined(app, db, submit(app.test_client(), form, changes={"your_name": "Heir"}))
    model, column, value = GONE[gone]
    row = db.get(model, device.member_id if model is Member else device.id)
    setattr(row, column, value)
    db.add(row)
    db.commit()
    again = submit(app.test_client(), form, changes={"your_name": "Heir"})
    assert again.status_code == 404 and not device_cookies(again)
    assert len(rows(db, Device, Device.member_id == device.member_id)) == 1


@pytest.mark.parametrize("key", ["x" * 65, "k" * 5000, "short", "not a key!", "..%00..",
                                 "ÿ" * 32, "a/b+c=" * 6])
def test_a_key_no_form_makes_is_refused_cleanly(app, client, runner, db, key):
    """A key this app's form never sends (too long, too short, other characters) is
    refused (400) and nobody joins; on a used link it finds nothing (404). Never a 500."""
    scorer_link = make_link(client, db, "scorer")
    members = count(db, Member)
    refused = app.test_client().post(f"/join/{scorer_link.token}",
                                     data={"your_name": "Zoe", "join_key": key})
    assert refused.status_code == 400 and not device_cookies(refused)
    assert count(db, Member) == members

    used = owner_link(runner, db)
    assert app.test_client().post(f"/join/{used.token}",  # a form without a key joins
                                  data={"your_name": "Heir"}).status_code == 303
    again = app.test_client().post(f"/join/{used.token}",
                                   data={"your_name": "Heir", "join_key": key})
    assert again.status_code == 404 and not device_cookies(again)
    assert count(db, Member) == members + 1
