"""A new server's first club: made in a browser on the server's own machine, by a command,
or by anyone where sign-up is open; never by a visitor from elsewhere, whoever finds the
server first. Each test reads the HTML and the rows."""
from __future__ import annotations

import pytest
from sqlmodel import Session

from scorekeeper.clubs.access import COOKIE
from scorekeeper.store.models import (
    CLUB_NAME_LENGTH, PLAYER_NAME_LENGTH, Club, Device, Member, Player,
)
from tests.conftest import close_server, fresh_server
from tests.views.test_view_membership import (
    cookie_device, cookie_flags, device_cookie_header, make_club, member_named,
)
from tests.views.view_helpers import Page, count, path_of, rows

CREATE_CLUB = "flask --app scorekeeper create-club NAME"


@pytest.fixture
def app(new_server):
    """A new server: no club at all."""
    return new_server


@pytest.fixture
def open_app(app):
    """A new server where anyone may make a club of their own."""
    app.config["OPEN_SIGNUP"] = True
    return app


@pytest.fixture
def proxied_app():
    """A new server behind a proxy it trusts (SCOREKEEPER_BEHIND_PROXY=1)."""
    app = fresh_server(PROXY_FIX=True)
    yield app
    close_server(app)


def visitor(app, address: str = "127.0.0.1", **headers):
    """A browser at ``address`` (the test client's own is the server's loopback), its
    requests carrying ``headers`` as a proxy's would."""
    browser = app.test_client()
    browser.environ_base.update({"REMOTE_ADDR": address, **{
        f"HTTP_{name.upper().replace('-', '_')}": value for name, value in headers.items()}})
    return browser


def assert_told_how_the_first_club_is_made(browser) -> None:
    """The welcome page says how the first club is made and offers no form; the form
    posted anyway makes nothing."""
    page = Page(browser.get("/welcome"))
    assert page.status == 200
    assert page.root.find("h1").text() == "No club here yet"
    assert "in a browser on the machine the app runs on" in page.text
    assert CREATE_CLUB in page.text
    assert not [form for form in page.forms() if form.action == "/welcome"]
    posted = make_club(browser, "Mine", "Zed")
    assert posted.status_code == 303 and path_of(posted.headers["Location"]) == "/welcome"
    assert not [v for v in posted.headers.getlist("Set-Cookie") if v.startswith(COOKIE)]
    assert "Make a club of my own" not in Page(browser.get("/join")).text


STRANGERS = {
    "on the LAN": ("192.168.1.23", {}),
    "on the LAN, IPv6": ("fd00::23", {}),
    "from the internet": ("203.0.113.9", {}),
    # Without SCOREKEEPER_BEHIND_PROXY a proxy's every request comes from 127.0.0.1.
    "through a proxy": ("127.0.0.1", {"X-Forwarded-For": "192.168.1.23"}),
    "through a proxy saying loopback": ("127.0.0.1", {"X-Forwarded-For": "127.0.0.1"}),
    "through a proxy, RFC 7239": ("::1", {"Forwarded": "for=192.168.1.23"}),
    "through nginx's X-Real-IP": ("127.0.0.1", {"X-Real-IP": "192.168.1.23"}),
}


@pytest.mark.parametrize("address, headers", STRANGERS.values(), ids=STRANGERS.keys())
def test_a_visitor_from_elsewhere_is_told_how_the_first_club_is_made(app, db, address,
                                                                       headers):
    browser = visitor(app, address, **headers)
    front = browser.get("/")
    assert front.status_code == 303 and path_of(front.headers["Location"]) == "/welcome"
    assert_told_how_the_first_club_is_made(browser)
    assert count(db, Club) == 0 and count(db, Member) == 0 and count(db, Device) == 0


@pytest.mark.parametrize("forwarded_for", ["192.168.1.23", "127.0.0.1"])
def test_behind_a_trusted_proxy_no_phone_makes_the_first_club(proxied_app, forwarded_for):
    """Trusted, the proxy's X-Forwarded-For is the phone's address; even one the proxy
    says is loopback came through it, from anywhere."""
    browser = visitor(proxied_app, "127.0.0.1", **{"X-Forwarded-For": forwarded_for})
    assert_told_how_the_first_club_is_made(browser)
    with Session(proxied_app.extensions["db_engine"]) as db:
        assert count(db, Club) == 0 and count(db, Member) == 0


@pytest.mark.parametrize("address", ["127.0.0.1", "::1", "::ffff:127.0.0.1", "127.0.1.1"])
def test_a_browser_on_the_server_itself_makes_the_first_club(app, db, address):
    browser = visitor(app, address)
    assert "Make a club of my own" in Page(browser.get("/join")).text
    assert make_club(browser, "Thursday table", "Ann").status_code == 303
    (club,) = rows(db, Club)
    assert club.name == "Thursday table"
    assert member_named(db, "Ann").club_id == club.id


def test_behind_a_trusted_proxy_the_server_itself_still_makes_the_first_club(proxied_app):
    """A browser on the server machine that asks the app directly, not through the proxy."""
    browser = visitor(proxied_app, "127.0.0.1")
    response = make_club(browser, "Thursday table", "Ann")
    assert response.status_code == 303 and path_of(response.headers["Location"]) == "/"
    assert Page(browser.get("/club")).root.find("h1").text() == "Thursday table"


def test_the_first_visitor_is_sent_to_make_a_club(app, stranger, db):
    """On a new server the front door leads the server's own browser to /welcome, whose
    form asks for the club's name and the visitor's name."""
    assert count(db, Member) == 0
    response = stranger.get("/")
    assert response.status_code == 303
    assert path_of(response.headers["Location"]) == "/welcome"
    page = Page(stranger.get("/welcome"))
    assert page.status == 200
    form = page.form_posting_to("/welcome")
    assert {"club_name", "your_name"} <= {name for name, _ in form.fields()}
    # The keyboard stops where the database would (models.py holds the lengths).
    lengths = {field.get("name"): field.get("maxlength")
               for field in form.element.find_all("input", type="text")}
    assert lengths == {"club_name": str(CLUB_NAME_LENGTH), "your_name": str(PLAYER_NAME_LENGTH)}


def test_making_the_first_club_makes_the_visitor_its_owner(app, stranger, db):
    """The first club made is the server's only club, with the visitor its owner and a
    device remembered by an HttpOnly, SameSite=Lax cookie (not Secure over http)."""
    response = make_club(stranger, "Thursday table", "Ann")
    assert response.status_code == 303
    assert path_of(response.headers["Location"]) == "/"

    (club,) = rows(db, Club)
    assert club.name == "Thursday table" and club.restored_at is None
    (owner,) = rows(db, Member)
    assert (owner.club_id, owner.name, owner.role) == (club.id, "Ann", "owner")
    assert owner.removed_at is None
    header = device_cookie_header(response)
    flags = cookie_flags(header)
    assert "httponly" in flags and "samesite=lax" in header.lower()
    assert "secure" not in flags
    device = cookie_device(app, db, header)
    assert device.member_id == owner.id and device.forgotten_at is None

    page = Page(stranger.get("/club"))
    assert page.status == 200
    assert page.root.find("h1").text() == "Thursday table"
    assert "You are this club's owner." in page.text


def test_the_owners_cookie_is_secure_over_https(app, stranger, db):
    """Made over https, the device cookie is also marked Secure."""
    response = stranger.post("/welcome", data={"club_name": "Thursday table",
                                               "your_name": "Ann"},
                             base_url="https://localhost")
    assert response.status_code == 303
    header = device_cookie_header(response)
    assert {"secure", "httponly"} <= cookie_flags(header)
    assert "samesite=lax" in header.lower()
    assert member_named(db, "Ann").role == "owner"


@pytest.mark.parametrize("club_name", ["", "   "])
def test_an_empty_club_form_is_refused_and_makes_nothing(app, stranger, db, club_name):
    """Without a club name the welcome form is shown again (400) with a message, and no
    member, device or cookie is made."""
    response = make_club(stranger, club_name, "Ann")
    page = Page(response)
    assert page.status == 400
    assert page.alerts()
    assert count(db, Member) == 0 and count(db, Device) == 0
    assert not [v for v in response.headers.getlist("Set-Cookie") if v.startswith(COOKIE)]


def test_after_the_first_club_a_visitor_is_sent_to_join(app, stranger, db):
    """Once a club has an owner there is no open sign-up: /welcome sends a newcomer to
    /join (its form as well), and the join page offers no club of their own."""
    assert make_club(stranger, "Thursday table", "Ann").status_code == 303
    newcomer = app.test_client()
    for response in (newcomer.get("/welcome"),
                     make_club(newcomer, "Mine", "Bob")):
        assert response.status_code == 303
        assert path_of(response.headers["Location"]) == "/join"
    assert [club.name for club in rows(db, Club)] == ["Thursday table"]
    assert [member.name for member in rows(db, Member)] == ["Ann"]
    page = Page(newcomer.get("/join"))
    assert page.status == 200
    assert "Make a club of my own" not in page.text


def test_with_open_signup_a_second_visitor_makes_a_separate_club(open_app, db,
                                                                  new_game_form):
    """With OPEN_SIGNUP anyone makes a club of their own, from anywhere: a second visitor
    makes a new club, and neither club's owner can open the other's games or players
    (404)."""
    first, second = visitor(open_app, "192.168.1.23"), visitor(open_app, "203.0.113.9")
    assert make_club(first, "Thursday table", "Ann").status_code == 303
    assert "Make a club of my own" in Page(second.get("/join")).text
    assert make_club(second, "Sunday table", "Zed").status_code == 303

    clubs = rows(db, Club, order_by=Club.id)
    assert [club.name for club in clubs] == ["Thursday table", "Sunday table"]
    zed = member_named(db, "Zed")
    assert (zed.club_id, zed.role) == (clubs[1].id, "owner")

    games = {}
    for http, names in ((first, ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"]),
                        (second, ["Uma", "Vic", "Wes", "Xia", "Yan", "Zed"])):
        response = http.post("/games/new", data=new_game_form(names))
        assert response.status_code == 303, response.text
        games[http] = int(path_of(response.headers["Location"]).rsplit("/", 1)[1])
    ann_player = rows(db, Player, Player.name == "Ann")[0]
    uma_player = rows(db, Player, Player.name == "Uma")[0]
    assert (ann_player.club_id, uma_player.club_id) == (clubs[0].id, clubs[1].id)

    assert first.get(f"/games/{games[second]}").status_code == 404
    assert second.get(f"/games/{games[first]}").status_code == 404
    assert first.get(f"/players/{uma_player.id}").status_code == 404
    assert second.get(f"/players/{ann_player.id}").status_code == 404
    assert "Uma" not in first.get("/players").text
    assert "Ann" not in second.get("/players").text
    assert second.get(f"/games/{games[second]}").status_code == 200
    # A game's own board likewise (found by its light head, not the game's row).
    assert first.get(f"/games/{games[second]}/board").status_code == 404
    assert second.get(f"/games/{games[first]}/board").status_code == 404
    for missing in (999_999, 99_999_999_999):
        assert second.get(f"/games/{missing}/board").status_code == 404
    assert second.get(f"/games/{games[second]}/board").status_code == 200




ELSEWHERE = {
    # DNS rebinding: another site's name made to point at this machine, in a browser on it.
    "another site's name": {"Host": "attacker.example:5000"},
    # Tunnels and proxies that say only part of what they are.
    "a proxy saying the scheme": {"X-Forwarded-Proto": "https"},
    "a proxy saying the host": {"X-Forwarded-Host": "club.example"},
    "a proxy saying the port": {"X-Forwarded-Port": "443"},
}


@pytest.mark.parametrize("headers", ELSEWHERE.values(), ids=ELSEWHERE.keys())
def test_from_loopback_under_another_name_or_through_a_proxy_no_club_is_made(app, db,
                                                                             headers):
    browser = app.test_client()
    page = Page(browser.get("/welcome", headers=headers))
    assert page.root.find("h1").text() == "No club here yet"
    posted = browser.post("/welcome", headers=headers,
                          data={"club_name": "Taken", "your_name": "Mallory"})
    assert posted.status_code == 303 and path_of(posted.headers["Location"]) == "/welcome"
    assert count(db, Club) == 0 and count(db, Member) == 0


@pytest.mark.parametrize("host", ["localhost:5000", "127.0.0.1:5000", "[::1]:5000",
                                  "LOCALHOST", "127.0.1.1"])
def test_the_server_itself_by_any_of_its_own_names_makes_the_first_club(app, db, host):
    browser = app.test_client()
    posted = browser.post("/welcome", headers={"Host": host},
                          data={"club_name": "Thursday table", "your_name": "Ann"})
    assert posted.status_code == 303 and path_of(posted.headers["Location"]) == "/"
    assert [club.name for club in rows(db, Club)] == ["Thursday table"]
