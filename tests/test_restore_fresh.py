"""A backup restored onto a fresh server: its owner comes back in by the one-time link
the restore prints, and nobody else can take the club over from the welcome page.

The backup is the hand-worked history of tests/test_backup.py, made through the pages
and written by the backup command; the fresh server is an app on a new database with
its forms' CSRF checked, as a real one has.
"""
from __future__ import annotations

import json
import re

import pytest
from sqlmodel import Session, select

from scorekeeper import create_app
from scorekeeper.clubs.access import COOKIE
from scorekeeper.store.models import Club, Invite, Member
from tests.databases import database_url
from tests.members import client_as, new_club
from tests.test_backup import build_history, fresh_app, scores
from tests.test_multiworker import JOINERS, Phone, Tally, _start_server, all_at_once
from tests.views.view_helpers import Page, path_of

CLUB = "Thursday table"
LINK = re.compile(r"link: (\S+/join/[A-Za-z0-9_-]{32,})")
CODE = re.compile(r"code: ([0-9A-Z]{4}-[0-9A-Z]{4})")


@pytest.fixture(scope="module")
def backup_file(tmp_path_factory) -> str:
    """The history's backup as the backup command writes it, its club renamed and without
    its members (as an owner downloads it, or as backups were before they kept members)."""
    app = fresh_app()
    build_history(client_as(app))
    path = tmp_path_factory.mktemp("backup") / "club.json"
    result = app.test_cli_runner().invoke(args=["backup", str(path)])
    assert result.exit_code == 0, result.output
    document = json.loads(path.read_text(encoding="utf-8"))
    document["club"]["name"] = CLUB
    del document["members"], document["invites"]
    path.write_text(json.dumps(document), encoding="utf-8")
    return str(path)


def fresh_server(**config):
    """A server just installed: its first club made, nobody a member; CSRF checked."""
    return create_app({"TESTING": True, "DATABASE_URL": database_url(),
                       "SECRET_KEY": "fresh-server", **config})


def restore(app, backup_file: str, *args: str) -> str:
    result = app.test_cli_runner().invoke(args=["restore", *args, backup_file])
    assert result.exit_code == 0, result.output
    return result.stdout


def link_of(output: str) -> str:
    (link,) = LINK.findall(output)
    return link


def join(client, link: str, name: str):
    """Open the link and join with ``name``, as a phone does (its form's CSRF token)."""
    page = Page(client.get(path_of(link)))
    assert page.status == 200
    fields = dict(page.form_posting_to(path_of(link)).fields())
    return client.post(path_of(link), data={**fields, "your_name": name})


def members(app) -> list[tuple[str, str, int]]:
    with Session(app.extensions["db_engine"]) as session:
        return [(m.name, m.role, m.club_id) for m in session.exec(select(Member))]


def club_names(app) -> list[str]:
    with Session(app.extensions["db_engine"]) as session:
        return [club.name for club in session.exec(select(Club).order_by(Club.id))]


def test_the_printed_owner_link_lets_the_owner_back_in_once(backup_file):
    app = fresh_server()
    said = restore(app, backup_file)
    assert said.splitlines()[0] == \
        f"Restored 12 players, 2 evenings and 3 games from {backup_file}."
    assert f"first becomes the owner of club 1 ({CLUB}); then it stops working" in said
    link = link_of(said)
    # No address was given or configured: flask run's own, said to be replaced.
    assert link.startswith("http://127.0.0.1:5000/join/")
    assert "http://127.0.0.1:5000 is where `flask run` serves: put the server's own " \
           "address in its place, or give --base-url" in said
    assert "flask --app scorekeeper owner-link --club 1" in said

    owner = app.test_client()
    page = Page(owner.get(path_of(link)))
    assert page.status == 200
    assert page.root.find("h1").text() == f"Join {CLUB}"
    assert "You are invited to own this club" in page.text
    joined = join(owner, link, "Ann")
    assert joined.status_code == 303, joined.text
    assert members(app) == [("Ann", "owner", 1)]

    # The club as it was: its name, its games and their scores.
    games = Page(owner.get("/"))
    assert games.status == 200
    listed = [a.text(gaps=True) for a in games.root.find_all("a")
              if (a.get("href") or "").startswith("/games/") and a.get("href")[7:].isdigit()]
    assert [item.split(" · ")[0] for item in listed] == ["Game 3", "Game 2", "Game 1"]
    assert "Gus & Ida & Kim" in games.text
    club_page = Page(owner.get("/club"))
    assert club_page.root.find("h1").text() == CLUB
    assert "You are this club's owner." in club_page.text
    assert scores(owner.get("/games/1").text) == ["5", "−4", "9"]

    # Used once, the link lets nobody else in: not its page, not its form, not its code.
    late = app.test_client()
    assert late.get(path_of(link)).status_code == 404
    fields = dict(Page(late.get("/join")).form_posting_to("/join").fields())
    assert late.post(path_of(link), data={**fields, "your_name": "Bob"}).status_code == 404
    typed = late.post("/join", data={**fields, "code": CODE.search(said).group(1)})
    assert typed.status_code == 400 and "No club has that code" in typed.text
    assert members(app) == [("Ann", "owner", 1)]


def test_the_welcome_page_of_a_restored_server_offers_no_club_to_take(backup_file):
    app = fresh_server()
    restore(app, backup_file)
    stranger = app.test_client()
    front = stranger.get("/")
    assert front.status_code == 303 and path_of(front.headers["Location"]) == "/welcome"
    page = Page(stranger.get("/welcome"))
    assert page.status == 200
    assert "Make your club" not in page.text and "Make the club" not in page.text
    assert not [form for form in page.forms() if "club_name" in dict(form.fields())]
    assert page.root.find("h1").text() == "A club is here already"
    assert "It was restored from a backup. Its owner comes back in with the one-time " \
           "owner link the restore printed" in page.text
    assert "flask --app scorekeeper owner-link" in page.root.find("code").text()
    assert page.root.find("a", href="/join") is not None  # "I have a code"
    assert CLUB not in page.text  # a stranger is not told the club's name

    # A form posted anyway (kept from before the restore) takes nothing over.
    token = page.csrf_meta()
    posted = stranger.post("/welcome", data={"club_name": "Mine", "your_name": "Zed",
                                             "csrf_token": token})
    assert posted.status_code == 303 and path_of(posted.headers["Location"]) == "/welcome"
    assert club_names(app) == [CLUB] and members(app) == []
    # The code page doesn't offer a club of one's own either.
    assert "Make a club of my own" not in stranger.get("/join").text


def test_with_open_signup_a_newcomer_makes_a_club_of_their_own_beside_it(backup_file):
    app = fresh_server(OPEN_SIGNUP=True)
    restore(app, backup_file)
    stranger = app.test_client()
    page = Page(stranger.get("/welcome"))
    assert "It was restored from a backup" in page.text
    assert "Or make a club of your own" in page.text
    form = page.form_posting_to("/welcome")
    fields = {**dict(form.fields()), "club_name": "Sunday table", "your_name": "Zed"}
    assert stranger.post("/welcome", data=fields).status_code == 303
    assert club_names(app) == [CLUB, "Sunday table"]
    assert members(app) == [("Zed", "owner", 2)]
    assert stranger.get("/games/1").status_code == 404  # the restored club is not theirs


def test_owner_link_prints_a_new_link_and_the_unused_one_stops_working(backup_file):
    app = fresh_server()
    first = link_of(restore(app, backup_file, "--base-url", "https://score.example/"))
    assert first.startswith("https://score.example/join/")
    result = app.test_cli_runner().invoke(args=["owner-link", "--base-url",
                                                "https://score.example"])
    assert result.exit_code == 0, result.output
    assert "The owner links printed before it no longer work (1 revoked)." in result.output
    second = link_of(result.output)
    assert second != first
    phone = app.test_client()
    assert phone.get(path_of(first)).status_code == 404
    assert join(phone, second, "Ann").status_code == 303
    assert members(app) == [("Ann", "owner", 1)]
    with Session(app.extensions["db_engine"]) as session:
        assert all(invite.revoked_at is not None for invite in session.exec(select(Invite)))


def test_owner_link_uses_the_servers_configured_name(backup_file):
    app = fresh_server(SERVER_NAME="cards.example", PREFERRED_URL_SCHEME="https")
    said = restore(app, backup_file)
    assert link_of(said).startswith("https://cards.example/join/")
    assert "code: " in said and "(typed on https://cards.example/join)" in said
    assert "is where `flask run` serves" not in said


def test_owner_link_of_no_such_club_fails(runner):
    result = runner.invoke(args=["owner-link", "--club", "9"])
    assert result.exit_code != 0
    assert "there is no club 9" in result.output


def test_the_owner_link_lets_one_in_however_many_tap_it_at_once_on_two_workers(
        backup_file, tmp_path):
    """Restored onto a SQLite file served by gunicorn (two worker processes, several
    threads each), the printed link tapped by eight phones at the same moment makes one
    owner; the others are told it is gone (404), and nothing fails."""
    url = database_url(f"sqlite:///{tmp_path / 'restored.sqlite'}")
    app = create_app({"DATABASE_URL": url, "SECRET_KEY": "restored-server"})
    path = path_of(link_of(restore(app, backup_file)))
    server = _start_server(tmp_path, url, "restored-server")
    try:
        tally = Tally()
        phones = [Phone(f"Heir {n}", "", server.port, tally) for n in range(JOINERS)]
        for phone in phones:
            phone.cookies.clear()
        replies = all_at_once(phones, path, lambda i, phone, _revision:
                              phone.post(path, {"your_name": f"Heir {i}"}))
        statuses = sorted(reply.status for reply in replies)
        assert statuses.count(303) == 1, statuses
        assert set(statuses) <= {303, 404}, statuses
        assert [role for _name, role, _club in members(app)] == ["owner"]
        # Each phone's answers: its join page, then "no such page" or in.
        assert all(error.startswith(f"POST {path}: 404 ") for error in tally.errors), \
            tally.errors
    finally:
        server.stop()
        app.extensions["db_engine"].dispose()


def test_into_the_club_create_club_made_its_members_come_back_and_its_link_goes(tmp_path):
    """The owner link create-club printed let nobody in yet: the file's members come back
    in its place (they were left out, and the link was all there was)."""
    old = fresh_app()
    owner = client_as(old, club_id=new_club(old, "Thursday"))
    scorer = client_as(old, "scorer")
    path = tmp_path / "club.json"
    assert old.test_cli_runner().invoke(args=["backup", str(path)]).exit_code == 0
    new = fresh_app()  # the same secret
    made = new.test_cli_runner().invoke(args=["create-club", "Thursday"])
    assert made.exit_code == 0, made.output
    printed = link_of(made.stdout)

    said = restore(new, str(path), "--club", "1")
    assert said.splitlines() == [f"Restored 0 players, 0 evenings and 0 games from {path}.",
                                 "Its members are back, and their phones are still signed in."]
    assert members(new) == members(old) == [("Owner", "owner", 1), ("Scorer", "scorer", 1)]
    with Session(new.extensions["db_engine"]) as session:
        assert session.exec(select(Invite)).all() == []  # none in the file, and not its link
    assert new.test_client().get(path_of(printed)).status_code == 404
    for phone in (owner, scorer):
        back = new.test_client()
        back.set_cookie(COOKIE, phone.get_cookie(COOKIE).value)
        assert "Thursday" in Page(back.get("/club")).root.find("h1").text()
