"""Private clubs through their pages: a club waiting for its owner, invite links and
codes, devices and members, and what each role may do. Each test reads the HTML and the
rows. (A new server's first club: test_view_first_club.py.)
"""
from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from sqlmodel import Session

from scorekeeper.clubs.access import COOKIE, new_device, token_hash
from scorekeeper.store.models import (
    Club, Device, Game, GameChange, Invite, JoinAttempt, Member, utcnow,
)
from tests.members import client_as
from tests.sample_games import TRIOS  # a game recorded before anyone was a member
from tests.views.view_helpers import Page, count, hand_form, hands_of, path_of, rows

P = "pass"
BOB_BIDS_4 = "4,pass,pass,pass,pass,pass"  # seat 1 deals, Bob (seat 2) calls first
# Shown as XXXX-XXXX, from letters and digits that can't be mistaken (no I, L, O, U).
SHOWN_CODE = re.compile(r"[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}")


# --- helpers --------------------------------------------------------------------------

def device_cookie_header(response) -> str:
    headers = [value for value in response.headers.getlist("Set-Cookie")
               if value.startswith(f"{COOKIE}=")]
    assert len(headers) == 1, response.headers.getlist("Set-Cookie")
    return headers[0]


def cookie_flags(header: str) -> set[str]:
    return {part.strip().split("=", 1)[0].lower() for part in header.split(";")[1:]}


def cookie_device(app, db, header: str) -> Device:
    """The Device row the cookie in a Set-Cookie header stands for."""
    from itsdangerous import URLSafeSerializer

    value = header.split(";", 1)[0].split("=", 1)[1]
    token = URLSafeSerializer(app.config["SECRET_KEY"], salt="device").loads(value)
    (device,) = rows(db, Device, Device.token_hash == token_hash(token))
    return device


def member_named(db, name: str) -> Member:
    (member,) = rows(db, Member, Member.name == name)
    return member


def first_club(db) -> Club:
    return rows(db, Club, order_by=Club.id)[0]


def make_link(client, db, role: str) -> Invite:
    """The owner presses "Make a new link" for ``role``; returns the new Invite row."""
    before = {invite.id for invite in rows(db, Invite)}
    response = client.post("/club/links", data={"role": role})
    assert response.status_code == 303, response.text
    assert response.headers["Location"].endswith("/club#links")
    (invite,) = [invite for invite in rows(db, Invite) if invite.id not in before]
    return invite


def link_cards(page: Page):
    return page.root.find_all("section", class_="share-link")


def another_device(app, member_id: int, label: str):
    """A client on a second device of the same member."""
    with app.test_request_context(), Session(app.extensions["db_engine"]) as session:
        cookie = new_device(session, session.get(Member, member_id), label)
        session.commit()
    other = app.test_client()
    other.set_cookie(COOKIE, cookie)
    return other


def set_code(db, invite: Invite, code: str) -> None:
    """Give an invite a known code, so a typed variant of it can be tried."""
    db.expire_all()
    row = db.get(Invite, invite.id)
    row.code = code
    db.add(row)
    db.commit()


def make_club(client, club_name: str, your_name: str):
    return client.post("/welcome", data={"club_name": club_name, "your_name": your_name})


@pytest.fixture
def game(client, new_game_form):
    """A game of the owner's club, started through the page."""
    response = client.post("/games/new", data=new_game_form())
    assert response.status_code == 303, response.text
    return int(path_of(response.headers["Location"]).rsplit("/", 1)[1])


# --- a club waiting for its owner ------------------------------------------------------

def test_games_recorded_before_the_first_club_wait_for_an_owner_link(app, runner, stranger,
                                                                     db):
    """A game stored before anyone was a member (an upgraded install) is not the first
    visitor's to take: the welcome page says how its owner gets in instead of offering
    the club, a form posted anyway takes nothing over, and the owner link the command
    prints makes Gus its owner, who sees the game."""
    result = runner.invoke(args=["import-game", "-"], input=json.dumps(TRIOS))
    assert result.exit_code == 0, result.output
    game_id = int(result.stdout)
    page = Page(stranger.get("/welcome"))
    assert page.status == 200
    assert "Its owner comes in with a one-time owner link" in page.text
    assert "Make your club" not in page.text
    assert not [form for form in page.forms() if "club_name" in dict(form.fields())]
    posted = make_club(stranger, "Old friends", "Gus")
    assert posted.status_code == 303 and path_of(posted.headers["Location"]) == "/welcome"
    assert count(db, Member) == 0 and first_club(db).name == "Our table"

    printed = runner.invoke(args=["owner-link"])
    assert printed.exit_code == 0, printed.output
    token = re.search(r"/join/([A-Za-z0-9_-]{32,})", printed.output).group(1)
    assert stranger.post(f"/join/{token}", data={"your_name": "Gus"}).status_code == 303
    gus = member_named(db, "Gus")
    assert gus.role == "owner"
    assert gus.club_id == first_club(db).id == db.get(Game, game_id).club_id
    front = Page(stranger.get("/"))
    assert front.status == 200 and "Ida" in front.text
    page = Page(stranger.get(f"/games/{game_id}"))
    assert page.status == 200
    assert page.scores() == {"A": 6, "B": 0}
    # Someone is a member now: the welcome page sends newcomers to the code page.
    assert path_of(app.test_client().get("/welcome").headers["Location"]) == "/join"


# --- invite links ---------------------------------------------------------------------

def test_the_owner_makes_links_shown_with_url_qr_code_and_code(client, db):
    """A scorer link and a viewer link are stored for the club, and the club page shows
    each one's URL, an inline SVG QR code and its code as XXXX-XXXX."""
    scorer_link, viewer_link = make_link(client, db, "scorer"), make_link(client, db, "viewer")
    owner = member_named(db, "Owner")
    for invite, role in ((scorer_link, "scorer"), (viewer_link, "viewer")):
        assert (invite.role, invite.club_id, invite.created_by) == (role, owner.club_id,
                                                                    owner.id)
        assert invite.revoked_at is None and invite.game_id is None

    page = Page(client.get("/club"))
    cards = link_cards(page)
    assert len(cards) == 2
    for card, invite in zip(cards, (scorer_link, viewer_link)):
        url = f"http://localhost/join/{invite.token}"
        assert card.find("a", href=url) is not None, card.text()
        assert url in card.text()
        qr = card.find("div", class_="qr")
        assert qr is not None and qr.find("svg") is not None
        shown = f"{invite.code[:4]}-{invite.code[4:]}"
        assert SHOWN_CODE.fullmatch(shown) and shown in card.text()
    assert "Keep score" in cards[0].text() and "Watch, read-only" in cards[1].text()


def test_a_link_for_an_owner_cannot_be_made_on_the_club_page(client, db):
    """The club page's links let people in as scorers or viewers only: asking for an
    owner's link is refused (400) and stores no invite."""
    response = client.post("/club/links", data={"role": "owner"})
    assert response.status_code == 400
    assert count(db, Invite) == 0


def test_a_link_token_carries_at_least_128_random_bits(client, db):
    """The token is URL-safe base64 (6 bits a character) and long enough for 128 bits;
    two links never share one."""
    tokens = [make_link(client, db, "viewer").token for _ in range(2)]
    for token in tokens:
        assert re.fullmatch(r"[A-Za-z0-9_-]+", token), token
        assert len(token) * 6 >= 128, token
    assert tokens[0] != tokens[1]


@pytest.mark.parametrize("role, offered, welcome", [
    ("scorer", "You are invited to keep score", "You keep score in this club."),
    ("viewer", "You are invited to watch the scores", "You watch this club's games."),
])
def test_a_stranger_joins_by_link_with_the_role_offered(app, client, stranger, db, role,
                                                         offered, welcome):
    """The link shows the club's name and the part offered; posting a name makes a
    member of that role with a device, and the club opens to them."""
    invite = make_link(client, db, role)
    page = Page(stranger.get(f"/join/{invite.token}"))
    assert page.status == 200
    assert page.root.find("h1").text() == "Join Our table"
    assert offered in page.text

    response = stranger.post(f"/join/{invite.token}", data={"your_name": " Zoe  "})
    assert response.status_code == 303
    assert path_of(response.headers["Location"]) == "/"
    zoe = member_named(db, "Zoe")
    assert (zoe.club_id, zoe.role) == (invite.club_id, role)
    device = cookie_device(app, db, device_cookie_header(response))
    assert device.member_id == zoe.id
    club_page = Page(stranger.get("/club"))
    assert club_page.status == 200 and welcome in club_page.text


@pytest.mark.parametrize("name", ["", "   "])
def test_an_empty_name_is_refused_and_makes_nothing(client, stranger, db, name):
    """Joining without a name shows the form again (400) with a message; no member,
    device or cookie is made."""
    invite = make_link(client, db, "scorer")
    members, devices = count(db, Member), count(db, Device)
    response = stranger.post(f"/join/{invite.token}", data={"your_name": name})
    page = Page(response)
    assert page.status == 400
    assert page.alerts()
    assert page.root.find("input", name="your_name") is not None
    assert (count(db, Member), count(db, Device)) == (members, devices)
    assert not [v for v in response.headers.getlist("Set-Cookie") if v.startswith(COOKIE)]


def test_a_revoked_link_is_gone(client, stranger, db):
    """Once revoked, the link is 404 to a GET and to a POST (no member is made), and the
    club page no longer shows it."""
    invite = make_link(client, db, "scorer")
    response = client.post(f"/club/links/{invite.id}/revoke")
    assert response.status_code == 303
    db.expire_all()
    assert db.get(Invite, invite.id).revoked_at is not None

    members = count(db, Member)
    assert stranger.get(f"/join/{invite.token}").status_code == 404
    assert stranger.post(f"/join/{invite.token}",
                         data={"your_name": "Zoe"}).status_code == 404
    assert count(db, Member) == members
    assert invite.token not in client.get("/club").text


def test_a_game_link_sends_the_new_member_to_that_game(client, stranger, db, game):
    """The share page makes a viewer and a scorer link for the game (with a POST: a look
    at the page makes none); joining by one leads straight to that game."""
    assert len(link_cards(Page(client.get(f"/club/share/{game}")))) == 0
    assert rows(db, Invite, Invite.game_id == game) == []
    made = client.post(f"/club/share/{game}")
    assert made.status_code == 303
    client.post(f"/club/share/{game}")  # a second tap keeps the same two links
    page = Page(client.get(f"/club/share/{game}"))
    assert page.status == 200
    assert len(link_cards(page)) == 2
    invites = rows(db, Invite, Invite.game_id == game)
    assert sorted(invite.role for invite in invites) == ["scorer", "viewer"]
    (viewer_link,) = [invite for invite in invites if invite.role == "viewer"]
    assert f"/join/{viewer_link.token}" in page.html

    response = stranger.post(f"/join/{viewer_link.token}", data={"your_name": "Zoe"})
    assert response.status_code == 303
    assert path_of(response.headers["Location"]) == f"/games/{game}"
    assert member_named(db, "Zoe").role == "viewer"
    assert stranger.get(f"/games/{game}").status_code == 200


# --- codes ----------------------------------------------------------------------------

@pytest.mark.parametrize("typed", ["R0AD-5T0P", "r0ad-5t0p", "R0AD5T0P", "road 5top",
                                   "ROAD-5TOP"])
def test_a_code_typed_loosely_finds_the_club(client, stranger, db, typed):
    """Case, a missing dash and O typed for 0 don't matter: the club's name form is
    shown, and it joins the club with the link's role."""
    invite = make_link(client, db, "scorer")
    set_code(db, invite, "R0AD5T0P")
    page = Page(stranger.post("/join", data={"code": typed}))
    assert page.status == 200
    assert page.root.find("h1").text() == "Join Our table"
    assert not page.alerts()
    form = page.form_posting_to(f"/join/{invite.token}/name")

    response = stranger.post(form.action, data={"your_name": "Zoe"})
    assert response.status_code == 303
    zoe = member_named(db, "Zoe")
    assert (zoe.club_id, zoe.role) == (invite.club_id, "scorer")


def test_a_wrong_code_is_refused(client, stranger, db):
    """A code no club has is refused (400) with a message, and nobody joins."""
    invite = make_link(client, db, "scorer")
    set_code(db, invite, "R0AD5T0P")
    members = count(db, Member)
    page = Page(stranger.post("/join", data={"code": "R0AD-5T0Q"}))
    assert page.status == 400
    assert any("No club has that code" in alert for alert in page.alerts())
    assert page.root.find("input", name="your_name") is None
    assert count(db, Member) == members


def test_a_wrong_code_is_given_back_as_typed_in_persian(client, stranger, db):
    """The refusal doesn't repeat the code; the field gives it back exactly as typed (no
    Persian digits or comma put into it), drawn left to right as a code is written."""
    stranger.set_cookie("lang", "fa")
    typed = "R0AD, 5T0Q"
    page = Page(stranger.post("/join", data={"code": typed}))
    assert page.status == 400
    field = page.root.find("input", name="code")
    assert (field.get("value"), field.get("dir")) == (typed, "ltr")
    assert page.alerts() and not any("R0AD" in alert or "۵" in alert for alert in page.alerts())


def test_the_clubs_name_is_shown_as_its_owner_typed_it_in_persian(client, stranger, db):
    invite = make_link(client, db, "viewer")
    set_code(db, invite, "R0AD5T0P")
    club = db.get(Club, invite.club_id)
    club.name = "Table 7, Tehran"
    db.add(club)
    db.commit()
    stranger.set_cookie("lang", "fa")
    page = Page(stranger.post("/join", data={"code": "R0AD-5T0P"}))
    assert page.status == 200
    (name,) = page.root.find("h1").find_all(translate="no")
    assert name.text() == "Table 7, Tehran"


def test_the_eleventh_try_in_ten_minutes_is_refused(app, client, stranger, db):
    """After 10 codes from one address, the 11th is refused (429) with a message even
    when it is right; another address is not held back."""
    invite = make_link(client, db, "viewer")
    set_code(db, invite, "R0AD5T0P")
    for _ in range(10):
        assert stranger.post("/join", data={"code": "WR0N-GC0D"}).status_code == 400
    page = Page(stranger.post("/join", data={"code": "R0AD-5T0P"}))
    assert page.status == 429
    assert any("Too many tries" in alert for alert in page.alerts())
    assert page.root.find("input", name="your_name") is None
    assert [member.name for member in rows(db, Member)] == ["Owner"]

    elsewhere = app.test_client()
    response = elsewhere.post("/join", data={"code": "R0AD-5T0P"},
                              environ_base={"REMOTE_ADDR": "192.0.2.7"})
    assert response.status_code == 200 and "Join Our table" in response.text


def test_other_addresses_guessing_never_lock_out_a_right_code(app, client, db):
    """Thirty addresses guessing (none past its own limit) hold nobody else back: a new
    address's right code lets it in."""
    invite = make_link(client, db, "viewer")
    set_code(db, invite, "R0AD5T0P")
    guesser = app.test_client()
    for address in range(30):
        for _ in range(10):
            response = guesser.post("/join", data={"code": "WR0N-GC0D"},
                                    environ_base={"REMOTE_ADDR": f"198.51.100.{address}"})
            assert response.status_code == 400
    response = app.test_client().post("/join", data={"code": "R0AD-5T0P"},
                                      environ_base={"REMOTE_ADDR": "203.0.113.9"})
    assert response.status_code == 200 and "Join Our table" in response.text


def test_tries_older_than_ten_minutes_no_longer_count(client, stranger, db):
    """Ten tries made eleven minutes ago don't hold back a right code now."""
    invite = make_link(client, db, "viewer")
    set_code(db, invite, "R0AD5T0P")
    for _ in range(10):
        assert stranger.post("/join", data={"code": "WR0N-GC0D"}).status_code == 400
    for attempt in rows(db, JoinAttempt):
        attempt.at = utcnow() - timedelta(minutes=11)
        db.add(attempt)
    db.commit()
    response = stranger.post("/join", data={"code": "R0AD-5T0P"})
    assert response.status_code == 200 and "Join Our table" in response.text


def test_a_revoked_code_no_longer_works(client, stranger, db):
    """The code of a revoked link finds no club (400)."""
    invite = make_link(client, db, "scorer")
    set_code(db, invite, "R0AD5T0P")
    assert stranger.post("/join", data={"code": "R0AD5T0P"}).status_code == 200
    assert client.post(f"/club/links/{invite.id}/revoke").status_code == 303
    page = Page(stranger.post("/join", data={"code": "R0AD5T0P"}))
    assert page.status == 400
    assert page.root.find("input", name="your_name") is None


# --- devices and members --------------------------------------------------------------

def test_a_member_sees_their_devices_and_forgets_one(app, client, db, game):
    """The club page lists the member's devices; forgetting one marks its row and its
    cookie then opens nothing (404), while this device still works."""
    owner = member_named(db, "Owner")
    tablet = another_device(app, owner.id, "Kitchen tablet")
    assert tablet.get(f"/games/{game}").status_code == 200
    page = Page(client.get("/club"))
    devices = page.section_text("devices")
    assert "Test browser" in devices and "Kitchen tablet" in devices
    assert page.has_button("Forget Kitchen tablet") and page.has_button("Forget this device")

    (tablet_row,) = rows(db, Device, Device.label == "Kitchen tablet")
    response = client.post(f"/club/devices/{tablet_row.id}/forget")
    assert response.status_code == 303
    db.expire_all()
    assert db.get(Device, tablet_row.id).forgotten_at is not None
    assert rows(db, Device, Device.label == "Test browser")[0].forgotten_at is None
    assert tablet.get(f"/games/{game}").status_code == 404
    assert client.get(f"/games/{game}").status_code == 200
    assert "Kitchen tablet" not in Page(client.get("/club")).section_text("devices")


def test_forgetting_this_device_signs_out(app, client, db, game):
    """Forgetting the device in hand sends it to /join, saying so, and it is a stranger
    after; with their last device gone the member has left the club (no duplicate if
    they join again)."""
    scorer = client_as(app, "scorer", name="Sia")
    sia = member_named(db, "Sia")
    (device,) = rows(db, Device, Device.member_id == sia.id)
    response = scorer.post(f"/club/devices/{device.id}/forget")
    assert response.status_code == 303
    assert path_of(response.headers["Location"]) == "/join"
    assert "This device was forgotten" in scorer.get("/join").text
    assert scorer.get(f"/games/{game}").status_code == 404
    db.expire_all()
    assert db.get(Member, sia.id).removed_at is not None
    assert "Sia" not in client.get("/club").text


def test_the_only_owner_cannot_forget_their_only_device(client, db, game):
    """Nobody could let people in any more: refused, with the reason, device kept."""
    (device,) = rows(db, Device)
    response = client.post(f"/club/devices/{device.id}/forget")
    assert path_of(response.headers["Location"]) == "/club"
    assert "make someone else an owner first" in client.get("/club").text
    db.expire_all()
    assert db.get(Device, device.id).forgotten_at is None
    assert client.get(f"/games/{game}").status_code == 200


def test_the_owner_gives_a_member_another_part(app, client, db, game):
    viewer = client_as(app, "viewer", name="Vic")
    vic = member_named(db, "Vic")
    assert viewer.post(f"/games/{game}/hands", data={}).status_code == 403
    response = client.post(f"/club/members/{vic.id}/role", data={"role": "scorer"})
    assert response.status_code == 303
    assert "Vic is now scorer." in Page(client.get("/club")).notices()
    db.expire_all()
    assert db.get(Member, vic.id).role == "scorer"
    assert viewer.get("/games/new").status_code == 200
    assert client.post(f"/club/members/{vic.id}/role", data={"role": "king"}).status_code == 400
    assert viewer.post(f"/club/members/{member_named(db, 'Owner').id}/role",
                       data={"role": "viewer"}).status_code == 403


def test_in_persian_the_notices_keep_a_members_name_as_typed(app, client, db, game):
    """The notice after a change of part or a removal names the member as typed: no
    Persian digit put into "Uma 5"."""
    client_as(app, "viewer", name="Uma 5")
    uma = member_named(db, "Uma 5")
    client.set_cookie("lang", "fa")
    client.post(f"/club/members/{uma.id}/role", data={"role": "scorer"})
    (notice,) = Page(client.get("/club")).notices()
    assert notice.startswith("Uma 5 ") and "۵" not in notice
    client.post(f"/club/members/{uma.id}/remove")
    (notice,) = Page(client.get("/club")).notices()
    assert notice.startswith("Uma 5 ") and "۵" not in notice


def test_a_member_cannot_forget_another_members_device(app, client, db, game):
    """A scorer posting to forget the owner's device gets 404 and the device stays."""
    scorer = client_as(app, "scorer")
    (owner_device,) = rows(db, Device, Device.member_id == member_named(db, "Owner").id)
    assert scorer.post(f"/club/devices/{owner_device.id}/forget").status_code == 404
    db.expire_all()
    assert db.get(Device, owner_device.id).forgotten_at is None
    assert client.get(f"/games/{game}").status_code == 200


def test_a_removed_members_device_is_a_stranger(app, client, db, game):
    """The owner removes a scorer: the row is marked and the scorer's device then gets
    404 on the club's pages."""
    scorer = client_as(app, "scorer")
    assert scorer.get(f"/games/{game}").status_code == 200
    member = member_named(db, "Scorer")
    page = Page(client.get("/club"))
    assert page.has_button("Remove Scorer") and not page.has_button("Remove Owner")
    response = client.post(f"/club/members/{member.id}/remove")
    assert response.status_code == 303
    db.expire_all()
    assert db.get(Member, member.id).removed_at is not None
    assert scorer.get(f"/games/{game}").status_code == 404
    assert scorer.get("/club").status_code == 404
    assert "Scorer" not in Page(client.get("/club")).section_text("members")


def test_the_owner_cannot_remove_themself(client, db):
    """An owner's post to remove themself is 403 and they stay."""
    owner = member_named(db, "Owner")
    assert client.post(f"/club/members/{owner.id}/remove").status_code == 403
    db.expire_all()
    assert db.get(Member, owner.id).removed_at is None
    assert client.get("/club").status_code == 200


def test_a_scorer_cannot_remove_anyone(app, client, db):
    """A scorer's post to remove a member is 403 and nobody is removed."""
    scorer = client_as(app, "scorer")
    client_as(app, "viewer")
    viewer = member_named(db, "Viewer")
    assert "Remove Viewer" not in scorer.get("/club").text
    assert scorer.post(f"/club/members/{viewer.id}/remove").status_code == 403
    assert [m.name for m in rows(db, Member) if m.removed_at is not None] == []


# --- roles ----------------------------------------------------------------------------

@pytest.fixture
def played(client, game):
    """The game with hand 1 recorded by the owner: Bob bids 4 and is set."""
    form = hand_form(1, BOB_BIDS_4, "hearts", "ABBCC", "A")
    assert client.post(f"/games/{game}/hands", data=form).status_code == 303
    return game


def test_a_viewer_sees_scores_and_dealer_but_no_controls(app, client, played):
    """A viewer's game page has the scores and who deals next, but no form that posts,
    no edit link and no way to start a game."""
    viewer = client_as(app, "viewer")
    page = Page(viewer.get(f"/games/{played}"))
    assert page.status == 200
    assert page.scores() == {"A": 2, "B": -4, "C": 2}
    assert "Dealer: Bob (seat 2)." in page.root.find("p", class_="who").text()
    assert [form.action for form in page.forms()
            if form.method == "post" and form.action != "/language"] == []  # not the picker
    assert "hx-post" not in page.html
    assert page.root.find_all("a", class_="edit-link") == []
    hrefs = [a.get("href") or "" for a in page.root.find_all("a")]
    assert not [href for href in hrefs if "/edit" in href or href.endswith("/games/new")]
    # The owner's page of the same game does have them: the checks above can fail.
    owner_page = Page(client.get(f"/games/{played}"))
    assert owner_page.root.find_all("a", class_="edit-link")
    assert [form for form in owner_page.forms()
            if form.method == "post" and form.action != "/language"]


def test_a_viewer_cannot_record_a_hand(app, db, played):
    """A viewer's post of the next hand is 403, and no hand, change or revision is
    written."""
    viewer = client_as(app, "viewer")
    revision = db.get(Game, played).revision
    changes = count(db, GameChange)
    form = hand_form(2, "4,pass,pass,pass,pass,pass", "spades", "CCCCC", "C")
    assert viewer.post(f"/games/{played}/hands", data=form).status_code == 403
    assert len(hands_of(db, played)) == 1
    assert count(db, GameChange) == changes
    db.expire_all()
    assert db.get(Game, played).revision == revision


def test_a_scorer_can_record_a_hand(app, db, played):
    """A scorer's post of the next hand is stored, and the change is put to them."""
    scorer = client_as(app, "scorer")
    form = hand_form(2, "4,pass,pass,pass,pass,pass", "spades", "CCCCC", "C")
    response = scorer.post(f"/games/{played}/hands", data=form)
    assert response.status_code == 303, response.text
    hands = hands_of(db, played)
    assert [hand.number for hand in hands] == [1, 2]
    assert hands[1].trump == "spades"
    change = rows(db, GameChange, GameChange.number == 2)[0]
    assert change.member_id == member_named(db, "Scorer").id
    assert Page(scorer.get(f"/games/{played}")).scores()["C"] == 2 + 6


def test_a_game_link_past_its_evening_leaves_the_club_page(client, db, game):
    """Once a game's links have expired they let nobody in, so the owner isn't shown them."""
    client.post(f"/club/share/{game}")
    invites = rows(db, Invite, Invite.game_id == game)
    page = client.get("/club").text
    assert all(invite.token in page for invite in invites)
    for invite in invites:
        invite.expires_at = invite.expires_at - timedelta(days=2)
        db.add(invite)
    db.commit()
    page = client.get("/club").text
    assert not any(invite.token in page for invite in invites)
    assert len(link_cards(Page(client.get(f"/club/share/{game}")))) == 0
