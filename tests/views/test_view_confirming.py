"""A night played for a ranking: each hand waits for a member of another team to confirm it.

A member says once which player they are (an owner may change it); their phones' team
is that player's; any member seated in another team confirms, a viewer too."""
from __future__ import annotations

import re

import pytest
from sqlmodel import Session, select

from scorekeeper.rules import team_of
from scorekeeper.store.models import ChangeKind, Club, Evening, GameChange, Hand, Member, Player
from tests.members import client_as
from tests.views.view_helpers import hand_form, rows

HAND = ("pass,4,pass,pass,pass,pass", "hearts", "ABBCC", "A")


@pytest.fixture
def night(app, client, evening, db):
    """An evening asking for confirmation, its first game, and two more scorers' phones."""
    game_id = evening.game()
    response = client.post(f"/evenings/{evening.id}/confirming", data={"confirming": "on"})
    assert response.status_code == 303
    assert rows(db, Evening)[0].confirm_hands
    return game_id, evening.id


def player_id(db, name: str) -> int:
    return next(p.id for p in rows(db, Player) if p.name == name)


def say_whose(phone, db, evening_id: int, game_id: int, name: str):
    """The member of this phone says once which player they are, on the game's page."""
    response = phone.post(f"/games/{game_id}/hands/player", data={"player_id": player_id(db, name)})
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/games/{game_id}")
    return phone.get(f"/games/{game_id}").text


def record(phone, game_id: int, number: int = 1):
    calls, trump, owners, game = HAND
    return phone.post(f"/games/{game_id}/hands", data=hand_form(number, calls, trump, owners, game))


def confirm(phone, game_id: int, number: int = 1, **extra):
    return phone.post(f"/games/{game_id}/hands/{number}/confirm",
                      data={"number": str(number), **extra})


def games_won(page: str) -> dict[str, int]:
    """The evening page's games won per player (its first tally table)."""
    table = page.split('class="tally-table"')[1]
    return {re.sub(r"<[^>]+>|[\u2066-\u2069]", "", name): int(won) for name, won in
            re.findall(r'<th scope="row">(.*?)</th><td>(\d+)</td>', table)}


def hand(db, number: int = 1) -> Hand:
    return next(h for h in rows(db, Hand) if h.number == number and h.undone_at is None)


def test_a_hand_waits_for_another_teams_phone_and_is_confirmed_once(app, client, night, db):
    game_id, evening_id = night
    page = say_whose(client, db, evening_id, game_id, "Ann")  # seat 1
    assert f"team {team_of(1, '3x2')}" in page
    other = client_as(app, "scorer", name="Bea")
    asked = other.get(f"/games/{game_id}").text
    assert "Which player are you?" in asked and ">Bob</button>" in asked
    assert ">Ann</button>" not in asked  # Ann is another member's already
    say_whose(other, db, evening_id, game_id, "Bob")  # seat 2: another team

    assert record(client, game_id).status_code == 303
    waiting = hand(db)
    assert waiting.to_confirm and waiting.recorded_team == team_of(1, "3x2")
    assert waiting.confirmed_team is None
    mine = client.get(f"/games/{game_id}").text
    assert "Hand 1 waits for confirmation." in mine and "Not confirmed yet." in mine
    assert "/hands/1/confirm" not in mine  # the recording team's phone can't
    assert "A member of another team confirms it." in mine
    theirs = other.get(f"/games/{game_id}").text
    assert f"Confirm hand 1 for team {team_of(2, '3x2')}" in theirs

    response = confirm(other, game_id)
    assert response.status_code == 303
    assert hand(db).confirmed_team == team_of(2, "3x2")
    log = rows(db, GameChange, GameChange.kind == ChangeKind.CONFIRMED)
    assert [(c.number, c.who, c.details) for c in log] == [
        (1, "Bea (Test browser)", {"team": team_of(2, "3x2")})]
    page = other.get(f"/games/{game_id}").text
    assert "Hand 1 confirmed." in page and "Confirmed by team B." in page
    again = confirm(other, game_id)  # a second tap: told, nothing more written
    assert again.status_code == 303
    assert "Hand 1 was confirmed already, by team B." in other.get(f"/games/{game_id}").text
    assert len(rows(db, GameChange, GameChange.kind == ChangeKind.CONFIRMED)) == 1
    changes = client.get(f"/games/{game_id}/changes").text
    assert "confirmed hand 1 for team B" in changes


def test_the_recording_team_and_a_phone_that_never_said_are_refused(app, client, night, db):
    game_id, evening_id = night
    say_whose(client, db, evening_id, game_id, "Ann")
    record(client, game_id)
    partner = client_as(app, "scorer", name="Dee")
    say_whose(partner, db, evening_id, game_id, "Dan")  # seat 4: Ann's partner
    refused = confirm(partner, game_id)
    assert refused.status_code == 409
    assert "was recorded by your team" in refused.text
    silent = client_as(app, "scorer", name="Sam")
    refused = confirm(silent, game_id)
    assert refused.status_code == 409 and "Say which player you are first" in refused.text
    assert hand(db).confirmed_team is None
    assert rows(db, GameChange, GameChange.kind == ChangeKind.CONFIRMED) == []


def test_a_viewer_seated_in_another_team_confirms_with_one_tap(app, client, night, db):
    """Confirmation needs no scorer at each table: a viewer at the table is a member too."""
    game_id, evening_id = night
    say_whose(client, db, evening_id, game_id, "Ann")
    record(client, game_id)
    viewer = client_as(app, "viewer", name="Vic")
    page = viewer.get(f"/games/{game_id}").text
    assert "Hand 1 waits for confirmation." in page and "Which player are you?" in page
    assert "/confirm" not in page  # not before saying which player
    say_whose(viewer, db, evening_id, game_id, "Bob")
    page = viewer.get(f"/games/{game_id}").text
    assert "Confirm hand 1 for team B" in page and "/hands" in page
    assert 'action="/games/%s/hands"' % game_id not in page  # still no entry to record
    assert confirm(viewer, game_id).status_code == 303
    assert hand(db).confirmed_team == "B"
    assert viewer.post(f"/games/{game_id}/hands", data=hand_form(
        2, *HAND)).status_code == 403  # a viewer still records nothing


def test_a_member_says_once_which_player_they_are_and_only_an_owner_moves_it(
        app, client, night, db):
    """The owner's phone can't pass for another member's: a player taken is refused,
    a member can't change their own, and the owner fixes a wrong link on the club page."""
    game_id, evening_id = night
    bea = client_as(app, "scorer", name="Bea")
    say_whose(bea, db, evening_id, game_id, "Bob")
    taken = client.post(f"/games/{game_id}/hands/player", data={"player_id": player_id(db, "Bob")})
    assert taken.status_code == 409 and "is another member already" in taken.text
    again = bea.post(f"/games/{game_id}/hands/player", data={"player_id": player_id(db, "Cid")})
    assert again.status_code == 409
    assert "You are <bdi translate=no>Bob</bdi> at the table already" in again.text
    assert linked(db) == {"Bea": "Bob"}
    assert bea.post("/club/members/2/player", data={"player_id": player_id(db, "Cid")}
                    ).status_code == 403  # a scorer can't move it either
    club_page = client.get("/club").text
    assert "plays as <bdi translate=no>Bob</bdi>" in club_page
    moved = client.post("/club/members/1/player", data={"player_id": player_id(db, "Bob")},
                        follow_redirects=True)  # the owner is Bob, in fact: taken from Bea
    assert "is <bdi translate=no>Bob</bdi> at the table." in moved.text
    assert linked(db) == {"Owner": "Bob"}
    client.post("/club/members/1/player", data={"player_id": "0"})
    assert linked(db) == {}
    for bad in ({"player_id": "999999"}, {}, {"player_id": "x"}):
        told = client.post("/club/members/1/player", data=bad, follow_redirects=True)
        assert "nothing was changed" in told.text or "Tap your name." in told.text
    assert linked(db) == {}


def linked(db) -> dict[str, str]:
    players = {p.id: p.name for p in rows(db, Player)}
    return {m.name: players[m.player_id] for m in rows(db, Member) if m.player_id}


def test_a_throw_in_waits_for_nobody(app, client, night, db):
    game_id, evening_id = night
    say_whose(client, db, evening_id, game_id, "Ann")
    thrown = client.post(f"/games/{game_id}/hands",
                         data=hand_form(1, "pass,pass,pass,pass,pass,pass"))
    assert thrown.status_code == 303
    assert not hand(db).to_confirm and hand(db).recorded_team is None
    assert "waits for confirmation" not in client.get(f"/games/{game_id}").text


def test_a_club_that_confirms_by_default_starts_each_evening_asking(app, client, evening, db):
    page = client.get("/club").text
    assert "Confirm hands on every new evening" in page
    assert client.post("/club/confirming", data={"confirming": "on"}).status_code == 303
    assert rows(db, Club)[0].confirm_hands
    scorer = client_as(app, "scorer", name="Bea")
    assert scorer.post("/club/confirming", data={"confirming": "off"}).status_code == 403
    game_id = evening.game()
    assert rows(db, Evening)[0].confirm_hands
    record(client, game_id)
    assert hand(db).to_confirm
    told = client.post("/club/confirming", data={"confirming": "maybe"}, follow_redirects=True)
    assert "Say on or off." in told.text and rows(db, Club)[0].confirm_hands


def confirmed_hand(app, client, night, db) -> int:
    """Hand 1 recorded on Ann's phone (team A) and confirmed on Bob's (team B)."""
    game_id, evening_id = night
    say_whose(client, db, evening_id, game_id, "Ann")
    record(client, game_id)
    other = client_as(app, "scorer", name="Bea")
    say_whose(other, db, evening_id, game_id, "Bob")
    assert confirm(other, game_id).status_code == 303
    assert hand(db).confirmed_team == "B"
    return game_id


def test_a_confirmed_hand_changes_only_on_a_second_tap_and_waits_again(app, client, night, db):
    game_id = confirmed_hand(app, client, night, db)
    calls, trump, _owners, game = HAND
    corrected = hand_form(1, calls, trump, "ABBCB", game)
    first = client.post(f"/games/{game_id}/hands/1", data=corrected)
    assert first.status_code == 200
    assert "Team B confirmed hand 1" in first.text and "Make this change" in first.text
    assert hand(db).points["joker"] == "C"  # nothing written yet
    second = client.post(f"/games/{game_id}/hands/1", data={**corrected, "confirm": "y"})
    assert second.status_code == 303
    edited = hand(db)
    assert edited.points["joker"] == "B"
    assert edited.to_confirm and edited.confirmed_team is None  # asked again
    assert edited.recorded_team == "A"
    kinds = [c.kind for c in rows(db, GameChange, order_by=GameChange.id)]
    assert kinds[-3:] == ["recorded", "confirmed", "edited"]


def test_undoing_a_confirmed_hand_asks_first(app, client, night, db):
    game_id = confirmed_hand(app, client, night, db)
    first = client.post(f"/games/{game_id}/hands/undo", data={"number": "1"})
    assert first.status_code == 200 and "Undo hand 1?" in first.text
    # The undo's form is not an entry of hand 1: nothing is said of a page out of date.
    assert "recorded since" not in first.text and 'role="alert"' not in first.text
    assert hand(db).undone_at is None
    second = client.post(f"/games/{game_id}/hands/undo", data={"number": "1", "confirm": "y"})
    assert second.status_code == 303
    assert [h.undone_at is not None for h in rows(db, Hand)] == [True]


def test_a_won_game_counts_tonight_once_its_hands_are_confirmed(app, client, evening, db):
    game_id = evening.game()  # to 5: one hand of all six points wins it
    client.post(f"/evenings/{evening.id}/confirming", data={"confirming": "on"})
    say_whose(client, db, evening.id, game_id, "Ann")
    response = client.post(f"/games/{game_id}/hands", data=hand_form(
        1, "pass,6", "hearts", "CCCCC", "C"))
    assert response.status_code == 303
    page = client.get(f"/evenings/{evening.id}").text
    assert "1 game won is counted once its hands are confirmed." in page
    assert "1 hand to confirm" in page
    assert games_won(page)["Cid"] == 0
    other = client_as(app, "scorer", name="Bea")
    say_whose(other, db, evening.id, game_id, "Bob")
    assert confirm(other, game_id).status_code == 303
    page = client.get(f"/evenings/{evening.id}").text
    assert "counted once its hands are confirmed" not in page
    assert games_won(page)["Cid"] == 1


def test_an_evening_that_asks_nothing_shows_nothing_and_off_stops_asking(client, evening, db):
    game_id = evening.game()
    page = client.get(f"/games/{game_id}").text
    assert "Which player are you?" not in page and "waits for confirmation" not in page
    assert "Confirm each hand" in client.get(f"/evenings/{evening.id}").text
    client.post(f"/evenings/{evening.id}/confirming", data={"confirming": "on"})
    again = client.post(f"/evenings/{evening.id}/confirming", data={"confirming": "on"},
                        follow_redirects=True)
    assert "This evening&#39;s hands are confirmed already." in again.text
    client.post(f"/evenings/{evening.id}/confirming", data={"confirming": "off"})
    assert not rows(db, Evening)[0].confirm_hands
    record(client, game_id)
    assert not hand(db).to_confirm


def test_bad_answers_are_told_and_change_nothing(app, client, night, db):
    game_id, evening_id = night
    bad = client.post(f"/evenings/{evening_id}/confirming", data={"confirming": "maybe"},
                      follow_redirects=True)
    assert "Say on or off." in bad.text
    for data in ({"player_id": "999999"}, {}, {"player_id": "9" * 30},  # past any id
                 {"player_id": "x"}):
        answer = client.post(f"/games/{game_id}/hands/player", data=data)
        assert answer.status_code == 409 and "nothing was changed" in answer.text
    assert "Which player are you?" in client.get(f"/games/{game_id}").text
    assert confirm(client, game_id, 7).status_code == 409  # no such hand waits
    assert rows(db, GameChange, GameChange.kind == ChangeKind.CONFIRMED) == []


def test_a_phone_from_another_club_learns_nothing(app, client, night, db):
    game_id, evening_id = night
    with Session(app.extensions["db_engine"]) as session:
        assert session.exec(select(Evening)).one().confirm_hands
    stranger = app.test_client()
    assert confirm(stranger, game_id).status_code == 404
    assert stranger.post(f"/evenings/{evening_id}/confirming",
                         data={"confirming": "off"}).status_code == 404


def test_saying_which_player_from_the_page_answers_with_the_game_saying_so(app, client, night, db):
    game_id, evening_id = night
    answer = client.post(f"/games/{game_id}/hands/player", headers={"HX-Request": "true"},
                         data={"player_id": player_id(db, "Bob")})
    assert answer.status_code == 200
    assert "You are <bdi translate=no>Bob</bdi> at the table, team B." in answer.text
    assert 'id="game"' in answer.text and "Which player are you?" not in answer.text
    assert answer.headers["HX-Push-Url"].endswith(f"/games/{game_id}")


def revision(db, game_id: int) -> str:
    from scorekeeper.store.models import Game
    return str(next(g.revision for g in rows(db, Game) if g.id == game_id))


def test_a_later_hand_arriving_meanwhile_leaves_the_confirmation_standing(app, client, night,
                                                                          db):
    """Hands sent one after another (a phone back online): the other team's phone confirms
    hand 1 from a page shown before hand 2 arrived, and it is confirmed at the first tap."""
    game_id, evening_id = night
    say_whose(client, db, evening_id, game_id, "Ann")
    record(client, game_id)
    other = client_as(app, "scorer", name="Bea")
    say_whose(other, db, evening_id, game_id, "Bob")
    shown = revision(db, game_id)
    assert record(client, game_id, number=2).status_code == 303
    both_shown = revision(db, game_id)
    assert both_shown != shown
    response = confirm(other, game_id, revision=shown)
    assert response.status_code == 303
    assert hand(db).confirmed_team == "B" and hand(db, 2).confirmed_team is None
    assert "Hand 1 confirmed." in other.get(f"/games/{game_id}").text
    # hand 2 from the page that showed both: hand 1's confirmation came between
    assert confirm(other, game_id, number=2, revision=both_shown).status_code == 303
    assert hand(db, 2).confirmed_team == "B"


def test_a_hand_changed_meanwhile_is_not_confirmed_from_the_older_page(app, client, night, db):
    game_id, evening_id = night
    say_whose(client, db, evening_id, game_id, "Ann")
    record(client, game_id)
    record(client, game_id, number=2)
    other = client_as(app, "scorer", name="Bea")
    say_whose(other, db, evening_id, game_id, "Bob")
    shown = revision(db, game_id)
    calls, trump, _owners, game = HAND
    assert client.post(f"/games/{game_id}/hands/1",
                       data=hand_form(1, calls, trump, "ABBCB", game)).status_code == 303
    for number in (1, 2):  # the hand itself, and a hand after it: both scored anew
        refused = confirm(other, game_id, number=number, revision=shown)
        assert refused.status_code == 409
        assert "changed on another phone" in refused.text
        assert hand(db, number).confirmed_team is None
    assert rows(db, GameChange, GameChange.kind == ChangeKind.CONFIRMED) == []
