"""Live at the table: polls that cost nothing while nothing changes, and the new game
part (with who changed what) when something did; the hand in progress for watchers;
the scoreboard.
"""
from __future__ import annotations

import re

import pytest

from members import client_as
from scorekeeper.models import LiveDraft
from view_helpers import rows

HX = {"HX-Request": "true"}
CID_BIDS_4 = "pass,4,pass,pass,pass,pass"  # dealer Ann (seat 1): Bob passes, Cid (C) 4


def poll_url(page_html: str, target: str = "game") -> str:
    """The address the page polls (its hidden hx-get element)."""
    match = re.search(r'hx-get="([^"]*/live\?[^"]*)" hx-trigger="every 2s" '
                      rf'hx-target="#{target}"', page_html)
    assert match, "the page does not poll"
    return match.group(1).replace("&amp;", "&")


@pytest.fixture
def game(start_game):
    return start_game()


@pytest.fixture
def viewer(app):
    return client_as(app, "viewer", name="Vera")


def test_an_unchanged_game_answers_the_poll_with_an_empty_204(client, viewer, game):
    for phone in (client, viewer):
        url = poll_url(phone.get(f"/games/{game}").text)
        response = phone.get(url, headers=HX)
        assert response.status_code == 204
        assert response.data == b""
        assert "Set-Cookie" not in response.headers  # nothing to send back every 2 s
        # Only what a bodiless answer needs: never kept by a cache, nothing to render.
        assert dict(response.headers) == {"Cache-Control": "no-store"}


def test_after_a_hand_the_poll_brings_the_new_scores_and_who_recorded_it(
        client, viewer, game, play):
    url = poll_url(viewer.get(f"/games/{game}").text)
    play(game, 1, CID_BIDS_4, "hearts", "ABBCC", "A")
    response = viewer.get(url, headers=HX)
    assert response.status_code == 200
    html = response.text
    assert html.lstrip().startswith('<div id="game"')  # the game part, not a whole page
    assert response.headers["HX-Retarget"] == "#game"
    assert 'aria-label="Team C: −4 points"' in html  # Cid's team bid 4 and took 2
    assert "Owner (Test browser): recorded hand 1: A +2, B +2, C −4." in html
    assert "Hand 2" in html
    # The new part polls with the new version, which is now unchanged.
    assert viewer.get(poll_url(html), headers=HX).status_code == 204


def test_a_scorer_mid_hand_is_brought_up_to_date_and_the_stale_step_dropped(
        app, client, game, play):
    scorer = client_as(app, "scorer")
    step = scorer.get(f"/games/{game}?number=1&revision=1&calls=pass,4", headers=HX)
    url = poll_url(scorer.get(f"/games/{game}?number=1&calls=pass,4").text)
    assert scorer.get(url, headers=HX).status_code == 204
    play(game, 1, CID_BIDS_4, "hearts", "ABBCC", "A")  # the owner's phone records it
    response = scorer.get(url, headers=HX)
    assert response.status_code == 200
    assert response.headers["HX-Replace-Url"] == f"/games/{game}"  # not the stale step
    assert "Hand 2" in response.text
    assert step.status_code == 200


def test_watchers_see_the_bids_trump_and_points_as_the_scorer_chooses_them(
        client, viewer, game, db):
    url = poll_url(viewer.get(f"/games/{game}").text)
    client.get(f"/games/{game}?number=1&revision=1&calls=pass,4", headers=HX)
    (draft,) = rows(db, LiveDraft)
    assert draft.args["calls"] == "pass,4"
    response = viewer.get(url, headers=HX)
    assert response.status_code == 200
    assert re.search(r"Bob: pass</li>\s*<li>Cid: <strong>4</strong>", response.text)
    url = poll_url(response.text)
    assert viewer.get(url, headers=HX).status_code == 204
    client.get(f"/games/{game}?number=1&revision=1&calls=pass,4,pass,pass,pass,pass"
               "&trump=hearts&high=A", headers=HX)
    response = viewer.get(url, headers=HX)
    assert "Cid bid 4. Trump: Hearts." in response.text
    assert "Points so far: High → A" in response.text


def test_a_scorers_own_steps_do_not_make_their_poll_answer(client, game):
    """Each step re-renders the poll with what the page now shows: the game only."""
    step = client.get(f"/games/{game}?number=1&revision=1&calls=pass,4",
                      headers={**HX, "HX-Target": "hand-entry"})
    assert step.text.lstrip().startswith('<section id="hand-entry"')
    url = poll_url(step.text)
    assert "v=1&" in url
    client.get(f"/games/{game}?number=1&revision=1&calls=pass,4,pass",
               headers={**HX, "HX-Target": "hand-entry"})
    assert client.get(url, headers=HX).status_code == 204


def test_a_scorer_not_entering_a_hand_follows_the_one_another_phone_enters(app, client, game):
    other = client_as(app, "scorer", name="Sam")
    url = poll_url(other.get(f"/games/{game}").text)
    assert other.get(url, headers=HX).status_code == 204
    client.get(f"/games/{game}?number=1&revision=1&calls=pass,4,pass,pass,pass,pass"
               "&trump=spades", headers=HX)
    response = other.get(url, headers=HX)
    assert response.status_code == 200
    line = re.search(r'id="other-phone">(.*?)</p>', response.text, re.S).group(1)
    assert " ".join(line.split()) == "Another phone is entering hand 1: Cid bid 4. Trump: Spades."
    # Its own entry is untouched: who bids first, and no bids of its own yet.
    assert "Bidding so far" not in response.text


def test_a_draft_for_a_hand_already_recorded_is_not_shown(client, viewer, game, play):
    client.get(f"/games/{game}?number=1&revision=1&calls=pass,4", headers=HX)
    play(game, 1, CID_BIDS_4, "hearts", "ABBCC", "A")
    html = viewer.get(f"/games/{game}").text
    assert "Bidding so far" not in html
    assert "Hand 2" in html


def test_a_viewer_cannot_plant_a_draft(client, viewer, game, db):
    viewer.get(f"/games/{game}?number=1&revision=1&calls=pass,6", headers=HX)
    assert rows(db, LiveDraft) == []


def test_the_scoreboard_shows_scores_dealer_bidder_and_the_last_hand(client, game, play):
    play(game, 1, CID_BIDS_4, "hearts", "ABBCC", "A")
    page = client.get(f"/games/{game}/board")
    assert page.status_code == 200
    text = re.sub(r"\s+", " ", page.text)
    assert 'aria-label="Team A: 2 points"' in text and 'aria-label="Team C: −4 points"' in text
    assert "Hand 2. Dealer: Bob. Cid bids first." in text
    assert "Hand 1: C bid 4, took 2: set, −4. A +2, B +2." in text
    assert "High A · Low B · Right Bauer B · Left Bauer C · Joker C · Game A" in text
    url = poll_url(page.text, "board")
    assert client.get(url, headers=HX).status_code == 204
    client.get(f"/games/{game}?number=2&revision=2&calls=pass,pass,pass,5,pass,pass",
               headers=HX)
    response = client.get(url, headers=HX)  # the board follows the hand in progress
    assert response.status_code == 200
    assert response.text.lstrip().startswith('<div id="board"')
    assert "Fay bid 5." in response.text


def test_a_stranger_polls_nothing(app, game):
    assert app.test_client().get(f"/games/{game}/live?v=1").status_code == 404
