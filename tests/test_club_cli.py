"""The server operator's commands: make a club, list clubs and members, revoke a link."""
from __future__ import annotations

import re

from sqlmodel import Session, select

from scorekeeper.store.models import Club, Invite, Member
from tests.members import client_as


def invite_of(output: str) -> tuple[str, str]:
    token = re.search(r"/join/([A-Za-z0-9_-]{32,})", output).group(1)
    code = re.search(r"code: ([0-9A-Z]{4}-[0-9A-Z]{4})", output).group(1)
    return token, code


def test_create_club_prints_an_owner_link_that_makes_an_owner(app, runner):
    result = runner.invoke(args=["create-club", "  Friday   league ",
                                 "--base-url", "https://score.example/"])
    assert result.exit_code == 0, result.output
    assert "club 2: Friday league" in result.output
    assert "link: https://score.example/join/" in result.output
    token, _code = invite_of(result.output)
    phone = app.test_client()
    joined = phone.post(f"/join/{token}", data={"your_name": "Rita"})
    assert joined.status_code == 303
    with Session(app.extensions["db_engine"]) as session:
        club = session.exec(select(Club).where(Club.name == "Friday league")).one()
        rita = session.exec(select(Member).where(Member.name == "Rita")).one()
        assert (rita.club_id, rita.role) == (club.id, "owner")
    assert phone.get("/club").status_code == 200
    assert "Friday league" in phone.get("/club").text


def test_a_club_name_must_have_letters(runner):
    result = runner.invoke(args=["create-club", "   "])
    assert result.exit_code != 0
    assert "1 to 80 characters" in result.output


def test_clubs_and_members_list_what_the_server_holds(app, runner, client, start_game):
    start_game()
    client_as(app, "viewer", name="Vera")
    clubs = runner.invoke(args=["clubs"])
    assert clubs.exit_code == 0
    assert clubs.output.splitlines() == ["1\tOur table\t2 members\t1 games"]
    link = runner.invoke(args=["new-link", "1", "--role", "viewer"])
    assert link.exit_code == 0
    _token, code = invite_of(link.output)
    members = runner.invoke(args=["members", "1"])
    assert members.exit_code == 0
    lines = members.output.splitlines()
    assert lines[0] == "club 1: Our table"
    assert re.fullmatch(r"member \d+\towner\tOwner", lines[1])
    assert re.fullmatch(r"  device \d+\tTest browser\tlast seen .+", lines[2])
    assert any(re.fullmatch(r"member \d+\tviewer\tVera", line) for line in lines)
    assert any(line.startswith("link ") and f"code {code}" in line for line in lines)
    assert runner.invoke(args=["members", "99"]).exit_code != 0


def test_revoke_link_by_code_or_by_link_and_it_stops_working(app, runner):
    made = runner.invoke(args=["new-link", "1", "--role", "scorer"])
    token, code = invite_of(made.output)
    assert app.test_client().get(f"/join/{token}").status_code == 200
    result = runner.invoke(args=["revoke-link", code.lower()])
    assert result.exit_code == 0, result.output
    assert "revoked link" in result.output
    assert app.test_client().get(f"/join/{token}").status_code == 404
    again = runner.invoke(args=["revoke-link", f"https://x.example/join/{token}"])
    assert again.exit_code != 0
    assert "no live link" in again.output
    with Session(app.extensions["db_engine"]) as session:
        assert session.exec(select(Invite)).one().revoked_at is not None


def test_links_are_printed_on_the_address_given_or_said_to_be_a_guess(runner):
    """Behind a path (a proxy's /score/) the links keep it; with no address given or
    configured, flask run's own is printed, and said to be replaced."""
    given = runner.invoke(args=["new-link", "1", "--base-url", "https://x.example/score/"])
    assert "link: https://x.example/score/join/" in given.output
    assert "(typed on https://x.example/score/join)" in given.output
    assert "is where `flask run` serves" not in given.output
    guessed = runner.invoke(args=["new-link", "1"])
    assert "link: http://127.0.0.1:5000/join/" in guessed.output
    assert ("(http://127.0.0.1:5000 is where `flask run` serves: put the server's own "
            "address in its place, or give --base-url)") in guessed.output


def test_create_club_on_a_new_server_leaves_one_club_nobody_can_claim(new_server):
    """The club made waits for the owner link printed: not even a browser on the server
    itself may take it (or make another), and commands act on it, the only club."""
    result = new_server.test_cli_runner().invoke(args=["create-club", "Thursday club"])
    assert result.exit_code == 0, result.output
    assert "club 1: Thursday club" in result.output
    on_the_server = new_server.test_client()
    page = on_the_server.get("/welcome").text
    assert "A club is here already" in page and "Make your club" not in page
    posted = on_the_server.post("/welcome", data={"club_name": "Mine", "your_name": "Zed"})
    assert posted.status_code == 303 and posted.headers["Location"].endswith("/welcome")
    with Session(new_server.extensions["db_engine"]) as session:
        assert [club.name for club in session.exec(select(Club))] == ["Thursday club"]
        assert session.exec(select(Member)).all() == []
    token, _code = invite_of(result.output)
    assert on_the_server.post(f"/join/{token}", data={"your_name": "Rita"}).status_code == 303
    assert "Thursday club" in on_the_server.get("/club").text
