"""The night's ranking on the evening's page: by the share of their finished games each
player won (a round sat out costs nothing), then by games won, then by their team's
average final score; equal on all three, one place. Worked by hand from the hands."""
from __future__ import annotations

from collections import Counter

from scorekeeper.table.evenings import ranked
from tests.views.test_view_evenings import B_SWEEPS, evening_of, new_game
from tests.views.view_helpers import Page


def ranking_rows(page: Page) -> list[list[str]]:
    table = page.by_id("night-ranking")
    return [[cell.text() for cell in row.iter() if cell.tag in ("th", "td")]
            for row in table.find("tbody").find_all("tr")]


def test_a_night_of_two_games_is_ranked_by_share_then_wins_then_score(
        client, db, new_game_form, play):
    # Game one, Ann to Fay: B (Bob & Eve) takes all six points at once: B 6, A 0, C 0.
    one = new_game(client, new_game_form, evening="new")
    play(one, 1, *B_SWEEPS)
    evening = evening_of(db, one).id
    # Game two: Gus takes Cid's chair, B sweeps again: Cid played one game, Gus one.
    two = new_game(client, new_game_form, evening=str(evening),
                   names=["Ann", "Bob", "Gus", "Dan", "Eve", "Fay"])
    play(two, 1, *B_SWEEPS)
    rows = ranking_rows(Page(client.get(f"/evenings/{evening}")))
    # Bob and Eve won 2 of 2. The rest won nothing, each with their team's score: A and
    # C took no point in either game (0 a game), so all of them share third place.
    assert rows[:2] == [["1", "Bob", "2", "2", "6.0"], ["1", "Eve", "2", "2", "6.0"]]
    assert {row[1] for row in rows[2:]} == {"Ann", "Cid", "Dan", "Fay", "Gus"}
    assert {row[0] for row in rows[2:]} == {"3"}
    assert [row[3] for row in rows if row[1] in ("Cid", "Gus")] == ["1", "1"]


def test_a_round_sat_out_costs_nothing_and_ties_are_broken_as_stated():
    played = Counter({"Ann": 2, "Bob": 3, "Cid": 3, "Dan": 3, "Eve": 2})
    won = Counter({"Ann": 1, "Bob": 1, "Cid": 1, "Dan": 0, "Eve": 1})
    points = Counter({"Ann": 30, "Bob": 50, "Cid": 40, "Dan": 60, "Eve": 30})
    places = [(place.place, place.name) for place in ranked(played, won, points)]
    # Ann and Eve won 1 of 2 (sat out a round): ahead of Bob and Cid's 1 of 3; equal on
    # everything, they share a place. Then the average score: Bob's 50 in 3 games
    # (16.7) beats Cid's 40 (13.3).
    assert places == [(1, "Ann"), (1, "Eve"), (3, "Bob"), (4, "Cid"), (5, "Dan")]


def test_an_evening_with_no_game_finished_shows_no_empty_ranking(client, db):
    """An evening added from paper (or planned) before its games: no table of headers."""
    from datetime import timedelta

    from scorekeeper.store.models import Evening, utcnow
    from tests.views.view_helpers import rows

    day = utcnow().date() - timedelta(days=30)
    assert client.post("/evenings/plan", data={"played_on": day.isoformat()}).status_code == 303
    page = Page(client.get(f"/evenings/{rows(db, Evening)[-1].id}"))
    assert page.root.find("table", id="night-ranking") is None
    assert "Ranked by the share" not in page.text
