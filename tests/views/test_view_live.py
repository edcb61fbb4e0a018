"""Live at the table: polls that cost nothing while nothing changes, and the new game
part (with who changed what) when something did; the hand in progress for watchers;
the scoreboard.
"""
from __future__ import annotations

import re

import pytest

from scorekeeper.store.models import LiveDraft
from tests.members import client_as
from tests.views.view_helpers import Page, rows, the_hand_form

HX = {"HX-Request": "true"}
CID_BIDS_4 = "pass,4,pass,pass,pass,pass"  # dealer Ann (seat 1): Bob passes, Cid (C) 4


def poll_url(page_html: str, target: str = "game") -> str:
    """The address the page polls (its hidden hx-get element)."""
    match = re.search(r'hx-get="([^"]*/live\?[^"]*)" hx-trigger="load, every 2s" hx-request=[^>]*? '
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
    assert Page(response).notices() == ["Owner: recorded hand 1: A +2, B +2, "
                                        "C −4. Scores: A 0 → 2, B 0 → 2, C 0 → −4."]
    assert "Hand 2" in html
    # The new part polls with the new version, which is now unchanged.
    assert viewer.get(poll_url(html), headers=HX).status_code == 204


def test_a_scorer_mid_hand_is_told_where_they_look_when_another_phone_records_it(
        app, client, game, play):
    scorer = client_as(app, "scorer", name="Sam")
    url = poll_url(scorer.get(f"/games/{game}").text)
    # Sam's phone sends each choice in the background (what the page's preview asks).
    scorer.get(f"/games/{game}?number=1&revision=1&bid=3-4&trump=hearts", headers=HX)
    assert scorer.get(url, headers=HX).status_code == 204  # its own steps: nothing new
    play(game, 1, CID_BIDS_4, "hearts", "ABBCC", "A")  # the owner's phone records it
    response = scorer.get(url, headers=HX)
    assert response.status_code == 200
    page = Page(response)
    entry = page.by_id("hand-entry")
    assert page.entry_title() == "Hand 2"
    # The notice is in the entry, above the new hand: who recorded what.
    (notice,) = entry.find_all(class_="notice")
    assert notice.text() == ("Owner: recorded hand 1: A +2, B +2, C −4. "
                             "Scores: A 0 → 2, B 0 → 2, C 0 → −4.")
    # Sam's half-entered hand 1 is not offered as hand 2.
    form = the_hand_form(page)
    assert [pair for pair in form.fields() if pair[1] and pair[0] != "csrf_token"] == [
        ("revision", "2"), ("number", "2"), ("dealt_by", "2")]


def test_a_scorers_own_entry_comes_back_and_is_never_another_phones(app, client, game):
    """Opening the rules (or the log, or the board) and coming back keeps the hand."""
    client.get(f"/games/{game}?number=1&revision=1&bid=3-4&trump=hearts&high=A", headers=HX)
    page = Page(client.get(f"/games/{game}"))
    form = the_hand_form(page)
    # Cid (seat 3) is the second to call when Ann deals: his turn holds the 4.
    assert (form.checked("turn_2"), form.checked("trump"), form.checked("high")) == (
        "4", "hearts", "A")
    assert "Another phone" not in page.text
    assert "hidden" in page.by_id("other-phone").attrs
    # Another scorer's phone sees it as another phone's, and gets an empty entry.
    other = Page(client_as(app, "scorer", name="Sam").get(f"/games/{game}"))
    assert " ".join(other.by_id("other-phone").text().split()) == (
        "Another phone is entering hand 1: Cid bid 4. Trump: Hearts.")
    assert the_hand_form(other).checked("turn_2") is None


def test_watchers_see_the_bids_trump_and_points_as_the_scorer_chooses_them(
        client, viewer, game, db):
    url = poll_url(viewer.get(f"/games/{game}").text)
    client.get(f"/games/{game}?number=1&revision=1&calls=pass,4", headers=HX)
    (draft,) = rows(db, LiveDraft)
    assert draft.args["calls"] == "pass,4"
    response = viewer.get(url, headers=HX)
    assert response.status_code == 200
    bidding = Page(response).root.find("ol", class_="calls")
    assert [call.text() for call in bidding.find_all("li")] == ["Bob: pass", "Cid: 4"]
    url = poll_url(response.text)
    assert viewer.get(url, headers=HX).status_code == 204
    client.get(f"/games/{game}?number=1&revision=1&calls=pass,4,pass,pass,pass,pass"
               "&trump=hearts&high=A", headers=HX)
    response = viewer.get(url, headers=HX)
    assert "Cid bid 4. Trump: Hearts." in Page(response).text
    assert "Points so far: High → A" in Page(response).text


def test_a_step_that_arrives_after_a_later_one_of_the_same_phone_is_left_out(
        client, viewer, game, db):
    """Two quick taps send two steps at once; the server may finish them in either order.
    Each carries the phone's step number: an earlier one arriving late changes nothing."""
    later = "calls=pass,4,pass,pass,pass,pass&trump=hearts"
    client.get(f"/games/{game}?number=1&revision=1&{later}&step=1002", headers=HX)
    client.get(f"/games/{game}?number=1&revision=1&calls=pass,4&step=1001", headers=HX)
    (draft,) = rows(db, LiveDraft)
    assert (draft.args.get("trump"), draft.seq) == ("hearts", 1)
    response = viewer.get(f"/games/{game}")
    assert "Cid bid 4. Trump: Hearts." in Page(response).text


def test_the_first_two_steps_at_once_keep_the_later(app, client, game, db):
    """Neither finds a hand in progress: the later one wins whichever is written first."""
    client.get(f"/games/{game}?number=1&revision=1&calls=pass,4&step=7", headers=HX)
    client.get(f"/games/{game}?number=1&revision=1&calls=pass,4,pass&step=9", headers=HX)
    client.get(f"/games/{game}?number=1&revision=1&calls=pass,4,pass,pass&step=8", headers=HX)
    (draft,) = rows(db, LiveDraft)
    assert draft.args["calls"] == "pass,4,pass" and draft.step == 9


def test_another_phones_step_is_never_taken_for_a_late_one(app, client, game, db):
    client.get(f"/games/{game}?number=1&revision=1&calls=pass,4&step=9000", headers=HX)
    other = client_as(app, "scorer", name="Sam")
    other.get(f"/games/{game}?number=1&revision=1&calls=pass,5&step=10", headers=HX)
    (draft,) = rows(db, LiveDraft)
    assert draft.args["calls"] == "pass,5"


def test_a_scorers_own_steps_do_not_make_their_poll_answer(client, game):
    url = poll_url(client.get(f"/games/{game}").text)
    assert "v=1&" in url
    for step in ("bid=2-4", "bid=2-4&trump=spades", "bid=2-4&trump=spades&high=B"):
        client.get(f"/games/{game}?number=1&revision=1&{step}", headers={**HX, "HX-Target": "preview"})
        assert client.get(url, headers=HX).status_code == 204


def test_a_scorer_follows_another_phones_entry_without_losing_its_own(app, client, game):
    other = client_as(app, "scorer", name="Sam")
    url = poll_url(other.get(f"/games/{game}").text)
    assert other.get(url, headers=HX).status_code == 204
    client.get(f"/games/{game}?number=1&revision=1&bid=3-4&trump=spades", headers=HX)
    response = other.get(url, headers=HX)
    assert response.status_code == 200
    # Only that phone's line and the poll itself, swapped in place: Sam's own entry,
    # whatever it holds, is left as it is.
    assert response.headers["HX-Reswap"] == "none"
    page = Page(response)
    line = page.by_id("other-phone")
    assert line.get("hx-swap-oob") == "true"
    assert line.text() == "Another phone is entering hand 1: Cid bid 4. Trump: Spades."
    assert page.by_id("poller").get("hx-swap-oob") == "true"
    assert page.by_id("hand-form") is None and page.by_id("hand-entry") is None
    url = poll_url(response.text)
    assert other.get(url, headers=HX).status_code == 204
    # Sam starts entering: the entry is Sam's now, and the owner's page is told.
    other.get(f"/games/{game}?number=1&revision=1&bid=5-5", headers=HX)
    assert other.get(url, headers=HX).status_code == 200  # Sam's page stops following
    owner_url = poll_url(client.get(f"/games/{game}").text)
    assert "v=1.2" in owner_url


def test_a_draft_for_a_hand_already_recorded_is_not_shown(client, viewer, game, play):
    client.get(f"/games/{game}?number=1&revision=1&bid=3-4", headers=HX)
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
    text = Page(page).text
    html = page.text
    assert 'aria-label="Team A: 2 points"' in html and 'aria-label="Team C: −4 points"' in html
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
    assert "Fay bid 5." in Page(response).text


def test_a_stranger_polls_nothing(app, game):
    assert app.test_client().get(f"/games/{game}/live?v=1").status_code == 404


def test_a_correction_follows_the_game_alone_not_another_phones_next_hand(app, client, game,
                                                                        play):
    play(game, 1, CID_BIDS_4, "hearts", "ABBCC", "A")
    url = poll_url(client.get(f"/games/{game}/hands/1/edit").text)
    assert "view=correction" in url
    other = client_as(app, "scorer", name="Sam")
    other.get(f"/games/{game}?number=2&revision=2&turn_1=4", headers=HX)  # Sam's hand 2
    assert client.get(url, headers=HX).status_code == 204
