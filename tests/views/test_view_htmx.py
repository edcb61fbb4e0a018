"""htmx: a fragment for the block an htmx request targets, the whole page otherwise."""
from __future__ import annotations

from tests.views.view_helpers import (
    HTMX, Hand, Page, calls_for, count, hand_form, hands_of, parse, the_hand_form,
)

BOB_BIDS_4 = calls_for(1, {2: 4})
TALLY = {"calls": BOB_BIDS_4, "trump": "hearts", "high": "A", "low": "B", "right": "B",
         "left": "C", "joker": "C", "game": "A"}


def test_the_hand_entry_target_gets_only_that_section(client, start_game):
    game = start_game()
    response = client.get(f"/games/{game}", query_string={"number": "1", "turn_1": "pass"},
                          headers={**HTMX, "HX-Target": "hand-entry"})
    assert response.status_code == 200
    body = response.text.strip()
    assert body.startswith('<section id="hand-entry"')
    assert body.endswith("</section>")
    assert "<html" not in body and "<head" not in body
    assert 'id="scores-title"' not in body and 'id="history-title"' not in body
    page = Page(response)
    assert the_hand_form(page).checked("turn_1") == "pass"  # Bob's pass, back as it was
    assert "HX-Request" in response.vary


def test_the_preview_target_gets_only_the_sentence(client, db, start_game):
    game = start_game()
    response = client.get(f"/games/{game}", query_string=TALLY,
                          headers={**HTMX, "HX-Target": "preview"})
    assert response.status_code == 200
    # Only the sentence: it goes inside the page's <output>, which stays in place. Each
    # team's part is isolated, so that right-to-left text keeps it together.
    sentence = parse(response.text).find("body")
    assert {element.tag for element in sentence.iter()} == {"body", "bdi"}
    assert [bdi.text() for bdi in sentence.find_all("bdi")] == ["B", "A +2", "C +2"]
    assert sentence.text() == "B bid 4, took 2: set, −4. A +2, C +2."
    assert len(hands_of(db, game)) == 0


def test_what_is_still_missing_is_listed_on_the_page_not_asked_of_the_server(client,
                                                                              start_game):
    """The phone strikes each point off as it is tapped (CSS); the server's preview of
    an unfinished tally is empty rather than a second, slower list."""
    game = start_game()
    query = {k: v for k, v in TALLY.items() if k not in ("low", "game")}
    response = client.get(f"/games/{game}", query_string=query,
                          headers={**HTMX, "HX-Target": "preview"})
    assert response.text.strip() == ""
    page = Page(client.get(f"/games/{game}", query_string=query))
    missing = page.root.find("p", class_="missing")
    assert [span.text() for span in missing.find_all("span")] == [
        "High", "Low", "Right Bauer", "Left Bauer", "Joker", "Game"]
    assert [span.get("class") for span in missing.find_all("span")] == [
        "missing-high", "missing-low", "missing-right", "missing-left", "missing-joker",
        "missing-game"]


def test_a_boosted_request_gets_the_whole_page(client, start_game):
    game = start_game()
    response = client.get(f"/games/{game}",
                          headers={**HTMX, "HX-Boosted": "true", "HX-Target": "hand-entry"})
    assert response.status_code == 200
    assert "<html" in response.text
    page = Page(response)
    assert page.by_id("scores-title") is not None and page.by_id("hand-entry") is not None
    assert "HX-Request" in response.vary


def test_an_htmx_request_without_a_known_target_gets_the_whole_page(client, start_game):
    """A history restore sends HX-Request with no target; another page's id is no block."""
    game = start_game()
    for headers in (HTMX, {**HTMX, "HX-Target": "teams-preview"},
                    {**HTMX, "HX-Target": "nonsense"}):
        response = client.get(f"/games/{game}", headers=headers)
        assert response.status_code == 200
        assert "<html" in response.text
    response = client.get("/games/new", headers={**HTMX, "HX-Target": "hand-entry"})
    assert response.status_code == 200 and "<html" in response.text


def test_the_edit_page_answers_its_entry_block(client, start_game, play):
    game = start_game()
    play(game, 1, BOB_BIDS_4, "hearts", "ABBCC", "A")
    response = client.get(f"/games/{game}/hands/1/edit",
                          headers={**HTMX, "HX-Target": "hand-entry"})
    assert response.text.strip().startswith('<section id="hand-entry"')
    assert Page(response).entry_title() == "Correcting hand 1"


def test_every_kind_of_answer_varies_on_hx_request(client, start_game):
    game = start_game()
    answers = [
        client.get("/"),
        client.get("/games/new"),
        client.get(f"/games/{game}"),
        client.get(f"/games/{game}", headers={**HTMX, "HX-Target": "hand-entry"}),
        client.post(f"/games/{game}/hands", data=hand_form(1, BOB_BIDS_4, "hearts", "ABBCC", "A")),
        client.post(f"/games/{game}/hands", data=hand_form(1, BOB_BIDS_4, "hearts", "ABBCC", "A")),
        client.get("/games/999"),
    ]
    assert [r.status_code for r in answers] == [200, 200, 200, 200, 303, 409, 404]
    for response in answers:
        assert "HX-Request" in response.vary


def test_an_htmx_record_answers_the_game_block_and_pushes_the_game_url(client, db,
                                                                     start_game):
    game = start_game()
    response = client.post(f"/games/{game}/hands",
                           data=hand_form(1, BOB_BIDS_4, "hearts", "ABBCC", "A"),
                           headers={**HTMX, "HX-Target": "game"})
    assert response.status_code == 200
    assert response.headers["HX-Push-Url"] == f"/games/{game}"
    body = response.text.strip()
    assert body.startswith('<div id="game"') and "<html" not in body
    page = Page(response)
    assert page.notices() == ["Hand 1 recorded: A +2, B −4, C +2."]
    assert page.scores() == {"A": 2, "B": -4, "C": 2}
    assert page.entry_title() == "Hand 2"
    assert len(hands_of(db, game)) == 1


def test_an_htmx_refusal_answers_the_game_block_with_the_message(client, db, start_game):
    game = start_game()
    response = client.post(f"/games/{game}/hands",
                           data=hand_form(1, BOB_BIDS_4, "hearts", "ABBC-", "A"),
                           headers={**HTMX, "HX-Target": "game"})
    assert response.status_code == 422
    assert response.text.strip().startswith('<div id="game"')
    assert Page(response).alerts() == ["Still to choose: Joker."]
    assert count(db, Hand) == 0


def test_answers_vary_on_every_header_that_picks_the_block(client, start_game):
    game = start_game()
    for headers in ({}, {**HTMX, "HX-Target": "hand-entry"}, {**HTMX, "HX-Boosted": "true"}):
        response = client.get(f"/games/{game}", headers=headers)
        assert {"HX-Request", "HX-Target", "HX-Boosted"} <= set(response.vary)


def test_a_boosted_record_is_a_navigation_and_gets_a_redirect(client, db, start_game):
    game = start_game()
    response = client.post(f"/games/{game}/hands", headers={**HTMX, "HX-Boosted": "true"},
                           data=hand_form(1, BOB_BIDS_4, "hearts", "ABBCC", "A"))
    assert response.status_code == 303
    assert response.headers["Location"] == f"/games/{game}"
    assert len(hands_of(db, game)) == 1
