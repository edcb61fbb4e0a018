"""A hand recorded from its own entry page is answered with what it changed, and that
page, with the answer's parts swapped in, is the page a fresh visit shows.

The parts are applied here as htmx applies them out of band (``hx-swap-oob``): "true"
replaces the element of the same id; "beforebegin:<selector>" puts the part's children
before the element the selector names, if there is one. The page's own script sends
the revision its page shows (``X-Scorekeeper-Shows``), and only such a page gets parts.
"""
from __future__ import annotations

import difflib
import re

import lxml.html

from tests.views.view_helpers import (
    HTMX, THROW_IN, Game, Page, calls_for, hand_form, hands_of, rows,
)

BOB_BIDS_3 = calls_for(1, {2: 3})  # seat 1 deals first: Bob (seat 2, team B) calls first
TARGET = re.compile(r"#([\w-]+):first-child")


def revision_of(html: str) -> str:
    return re.search(r'name="revision" value="(\d+)"', html).group(1)


def record_from_page(client, game, number, calls, trump=None, owners=None, point=None, *,
                     shows: str | None = "page"):
    """Post hand ``number`` as the phone's script sends it from the game page: the page
    first, then the hand with that page's revision (and, by default, saying so)."""
    page = client.get(f"/games/{game}").get_data(as_text=True)
    revision = revision_of(page)
    headers = {**HTMX, "HX-Target": "game"}
    if shows is not None:
        headers["X-Scorekeeper-Shows"] = revision if shows == "page" else shows
    form = {**hand_form(number, calls, trump, owners, point), "revision": revision,
            "entry_key": f"entry-{game}-{number}"}
    return page, client.post(f"/games/{game}/hands", data=form, headers=headers)


def swapped_in(page_html: str, answer_html: str) -> lxml.html.HtmlElement:
    """The page's #game once the answer's out-of-band parts are applied to it."""
    page = lxml.html.document_fromstring(page_html)
    for part in lxml.html.fragments_fromstring(answer_html):
        if isinstance(part, str):
            assert not part.strip(), f"text outside the parts: {part!r}"
            continue
        how = part.attrib.pop("hx-swap-oob")
        if how == "true":
            target = page.get_element_by_id(part.get("id"))
            part.tail = target.tail
            target.getparent().replace(target, part)
            continue
        style, selector = how.split(":", 1)
        assert style == "beforebegin", how
        wanted = TARGET.fullmatch(selector)
        assert wanted, selector
        target = page.get_element_by_id(wanted.group(1), None)
        if target is None or target.getparent().index(target) != 0:
            continue  # htmx finds no such element: the part is left out
        for child in list(part):
            target.addprevious(child)
    return page.get_element_by_id("game")


def shape(node) -> tuple:
    """An element as a reader and a script meet it: tag, attributes, text (whitespace
    collapsed) and child elements, in order; comments left out."""
    def words(text):
        return " ".join((text or "").split())
    children = [(shape(child), words(child.tail)) for child in node
                if isinstance(child.tag, str)]
    attrs = dict(node.attrib)
    if attrs.get("name") == "csrf_token":
        attrs["value"] = "…"  # signed with the second it was made: the same token
    return node.tag, sorted(attrs.items()), words(node.text), children


def assert_same_game(after, fresh) -> None:
    """The two #game elements alike (shape), else the lines where they differ."""
    if shape(after) != shape(fresh):
        lines = [lxml.html.tostring(game, encoding=str).splitlines() for game in (after, fresh)]
        raise AssertionError("\n".join(difflib.unified_diff(*lines, lineterm="", n=1)))


def without_notice(game: lxml.html.HtmlElement) -> lxml.html.HtmlElement:
    """The notice a change leaves is for the phone that made it, once (a fresh visit
    shows one only if a plain form's change left it behind)."""
    for notice in game.find_class("notice"):
        notice.drop_tree()
    return game


def fresh_game(client, game) -> lxml.html.HtmlElement:
    html = client.get(f"/games/{game}").get_data(as_text=True)
    return without_notice(lxml.html.document_fromstring(html).get_element_by_id("game"))


def test_a_hand_answers_with_its_parts_and_the_page_is_then_as_a_fresh_one(
        client, db, start_game, play):
    game = start_game(target="999")
    play(game, 1, BOB_BIDS_3, "hearts", "ABBCC", "A")
    play(game, 2, THROW_IN)
    page, answer = record_from_page(client, game, 3, calls_for(2, {3: 4}), "spades",
                                    "CCCCC", "C")
    assert answer.status_code == 200
    assert answer.headers["X-Scorekeeper-Verdict"] == "done"
    assert answer.headers["HX-Reswap"] == "none"
    text = answer.get_data(as_text=True)
    assert 'id="game"' not in text  # parts, not the whole game
    # Cid (C) bid 4 and C took every point and Game: C +6, nobody else scores.
    assert Page(answer).notices() == ["Hand 3 recorded: A +0, B +0, C +6."]
    assert [hand.number for hand in hands_of(db, game)] == [1, 2, 3]
    assert hands_of(db, game)[-1].calls == [4] + ["pass"] * 5

    after = swapped_in(page, text)
    assert after.find_class("notice")  # what the hand did, where the player looks
    assert_same_game(without_notice(after), fresh_game(client, game))


def test_a_throw_in_and_a_long_game_answer_with_one_row_each(client, start_game, play):
    game = start_game(target="999")
    for number in range(1, 12):
        play(game, number, BOB_BIDS_3 if number % 2 else calls_for(2, {3: 3}),
             "clubs", "BBBBB", "A")
    page, answer = record_from_page(client, game, 12, THROW_IN)
    text = answer.get_data(as_text=True)
    rows = lxml.html.fragment_fromstring(text, create_parent=True).find_class("deal")
    assert [row.get("id") for row in rows] == ["deal-12"]  # the new row alone
    assert "thrown-in" in rows[0].classes
    after = swapped_in(page, text)
    fresh = fresh_game(client, game)
    assert_same_game(without_notice(after), fresh)
    assert [li.get("id") for li in fresh.find_class("deal")][:3] == [
        "deal-12", "deal-11", "deal-10"]


def test_a_page_that_has_the_hand_already_keeps_one_row_of_it(client, start_game, play):
    """A poll that came back before the hand's answer brought the hand already."""
    game = start_game(target="999")
    play(game, 1, BOB_BIDS_3, "hearts", "ABBCC", "A")
    _page, answer = record_from_page(client, game, 2, BOB_BIDS_3, "clubs", "BBBBB", "A")
    polled = client.get(f"/games/{game}").get_data(as_text=True)  # hand 2 is in it
    after = swapped_in(polled, answer.get_data(as_text=True))
    assert [li.get("id") for li in after.find_class("deal")] == ["deal-2", "deal-1"]
    assert_same_game(without_notice(after), fresh_game(client, game))


def test_any_other_page_gets_the_whole_game(client, db, start_game, play):
    game = start_game(target="999")
    # The first hand: the list itself begins.
    _page, first = record_from_page(client, game, 1, BOB_BIDS_3, "hearts", "ABBCC", "A")
    assert 'id="game"' in first.get_data(as_text=True)
    assert "HX-Reswap" not in first.headers
    # No word of the page (not the script's own entry page) ...
    _page, unsaid = record_from_page(client, game, 2, THROW_IN, shows=None)
    assert 'id="game"' in unsaid.get_data(as_text=True)
    # ... or a page of another revision than the one the hand was entered on.
    _page, other = record_from_page(client, game, 3, THROW_IN, shows="0")
    assert 'id="game"' in other.get_data(as_text=True)
    assert "HX-Reswap" not in other.headers
    assert [hand.number for hand in hands_of(db, game)] == [1, 2, 3]


def test_the_hand_that_ends_the_game_gets_the_whole_game(client, start_game, play):
    game = start_game(target="7")
    play(game, 1, BOB_BIDS_3, "clubs", "BBBBB", "A")  # B +5: one hand short
    _page, answer = record_from_page(client, game, 2, calls_for(2, {5: 3}), "clubs",
                                     "BBBBB", "A")
    assert answer.status_code == 200
    assert Page(answer).winner_marked()  # B reached 7: the game is over
    assert 'id="game"' in answer.get_data(as_text=True)
    assert "HX-Reswap" not in answer.headers


def test_a_plain_form_is_still_redirected(client, db, start_game, play):
    game = start_game(target="999")
    play(game, 1, BOB_BIDS_3, "hearts", "ABBCC", "A")
    response = client.post(f"/games/{game}/hands", data=hand_form(2, THROW_IN),
                           headers={"X-Scorekeeper-Shows": "1"})
    assert response.status_code == 303
    assert [hand.number for hand in hands_of(db, game)] == [1, 2]


def test_the_evening_so_far_comes_with_the_hand(client, db, start_game, play):
    """Another game of the evening won since the page was shown: the hand's answer brings
    the evening's tally as it is now, as a fresh visit shows it."""
    game = start_game(target="999")
    play(game, 1, BOB_BIDS_3, "hearts", "ABBCC", "A")
    evening = rows(db, Game, Game.id == game)[0].evening_id
    other = start_game(target="5", evening=str(evening))
    page = client.get(f"/games/{game}").get_data(as_text=True)
    assert 'class="tonight"' not in page
    play(other, 1, BOB_BIDS_3, "clubs", "BBBBB", "A")  # B +5: B wins the other game
    revision = revision_of(page)
    answer = client.post(
        f"/games/{game}/hands",
        data={**hand_form(2, THROW_IN), "revision": revision, "entry_key": "entry-tonight"},
        headers={**HTMX, "HX-Target": "game", "X-Scorekeeper-Shows": revision})
    assert answer.headers["HX-Reswap"] == "none"
    after = swapped_in(page, answer.get_data(as_text=True))
    assert after.find_class("tonight")
    assert_same_game(without_notice(after), fresh_game(client, game))
