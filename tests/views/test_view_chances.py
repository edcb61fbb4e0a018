"""The game page's "Chances to win from here": each team's chance in words and as a bar,
from hands drawn from the club's own history, the same for a revision every time."""
from __future__ import annotations

import re

import pytest

from scorekeeper.figures import chances as chances_module
from scorekeeper.figures.chances import (
    Deck, Shape, blended, club_shapes, default_shapes, seed_for, simulate,
)
from scorekeeper.store.kept import LockedLRU
from scorekeeper.store.models import Game, GameChange
from scorekeeper.store.replay import load_replay
from tests.views.view_helpers import HTMX, THROW_IN, Page, calls_for, count

SENTENCE = re.compile(r"Chances to win from here: A (\d+)%, B (\d+)% and C (\d+)%\.")
BOB_BIDS_3 = calls_for(1, {2: 3})  # seat 1 deals first: Bob (seat 2, team B) calls first


def shown(page: Page) -> dict[str, int]:
    """The chances the page says, checked against the bars drawn beside each team."""
    sentence = page.root.find("p", id="chances")
    assert sentence is not None, "no chances on the page"
    found = SENTENCE.fullmatch(sentence.text())
    assert found, sentence.text()
    said = dict(zip("ABC", map(int, found.groups())))
    bars = {item.find("span", class_="team-letter").text(): item.find("progress")
            for item in page.root.find_all("li", class_="team")}
    assert {team: int(bar.get("value")) for team, bar in bars.items()} == said
    assert all(bar.get("aria-hidden") == "true" and bar.get("max") == "100"
               for bar in bars.values())  # the sentence says it: read once
    return said


@pytest.fixture
def fresh_caches(monkeypatch):
    """Nothing kept from an earlier page: every number worked out again."""
    def forget():
        monkeypatch.setattr(chances_module, "CHANCES", LockedLRU(8))
        monkeypatch.setattr(chances_module, "DECKS", LockedLRU(8))
    forget()
    return forget


def test_the_page_says_each_teams_chance_adding_up_to_100_and_writes_nothing(
        client, db, start_game, play, row_counts):
    game = start_game()
    play(game, 1, BOB_BIDS_3, "hearts", "AABBC", "B")
    before = row_counts(), count(db, GameChange), db.get(Game, game).revision
    page = Page(client.get(f"/games/{game}"))
    said = shown(page)
    assert sum(said.values()) == 100
    db.expire_all()
    assert (row_counts(), count(db, GameChange), db.get(Game, game).revision) == before


def test_a_revision_shows_the_same_numbers_every_time_and_on_every_server(
        client, db, start_game, play, fresh_caches):
    game = start_game()
    play(game, 1, BOB_BIDS_3, "hearts", "AABBC", "B")
    first = shown(Page(client.get(f"/games/{game}")))
    fresh_caches()  # another app server: nothing kept
    assert shown(Page(client.get(f"/games/{game}", headers={"HX-Request": "true",
                                                             "HX-Target": "game"}))) == first
    replay = load_replay(db, db.get(Game, game))
    rules = replay.rules
    assert first == simulate(replay.state, Deck(rules, default_shapes(rules)),
                             seed_for(replay.state))


def test_the_team_that_scored_gains_on_the_page(client, start_game, play):
    game = start_game()
    play(game, 1, BOB_BIDS_3, "hearts", "AACCA", "A")  # B set: A +4, B -3, C +2
    before = shown(Page(client.get(f"/games/{game}")))
    play(game, 2, calls_for(2, {4: 6}), "spades", "AAAAA", "A")  # Dan (A) bids 6, makes it
    after = shown(Page(client.get(f"/games/{game}")))
    assert after["A"] >= before["A"] + 20, (before, after)
    assert after["B"] <= before["B"] and after["C"] < before["C"]


def test_a_hand_recorded_in_parts_brings_the_new_chances(client, start_game, play):
    game = start_game()
    play(game, 1, BOB_BIDS_3, "hearts", "AACCA", "A")
    play(game, 2, calls_for(2, {3: 3}), "clubs", "CCABB", "C")
    before = shown(Page(client.get(f"/games/{game}")))
    page = client.get(f"/games/{game}").get_data(as_text=True)
    revision = re.search(r'name="revision" value="(\d+)"', page).group(1)
    answer = client.post(
        f"/games/{game}/hands",
        headers={**HTMX, "HX-Target": "game", "X-Scorekeeper-Shows": revision},
        data={"number": "3", "calls": calls_for(3, {4: 6}), "trump": "hearts",
              "high": "A", "low": "A", "right": "A", "left": "A", "joker": "A",
              "game": "A", "revision": revision, "entry_key": f"entry-{game}-3"})
    assert answer.headers.get("HX-Reswap") == "none"  # the parts, not the whole game
    parts = Page(answer)
    scores = parts.root.find("section", id="scores")
    assert scores.get("hx-swap-oob") == "true"
    now = shown(parts)
    assert now == shown(Page(client.get(f"/games/{game}")))
    assert now["A"] > before["A"]


def test_a_finished_game_shows_its_winner_not_chances(client, start_game, play):
    game = start_game(target="3")
    play(game, 1, BOB_BIDS_3, "hearts", "AAAAA", "A")
    page = Page(client.get(f"/games/{game}"))
    assert page.winner_marked() == ["A"]
    assert page.root.find("p", id="chances") is None
    assert page.root.find_all("progress") == []


def test_a_new_club_or_one_that_only_threw_in_plays_the_default(client, db, start_game, play):
    earlier = start_game()
    play(earlier, 1, THROW_IN)
    play(earlier, 2, THROW_IN)
    game = start_game()
    play(game, 1, BOB_BIDS_3, "hearts", "AABBC", "B")
    assert club_shapes(db, db.get(Game, game)) == []
    assert club_shapes(db, db.get(Game, earlier)) == []
    replay = load_replay(db, db.get(Game, game))
    default = Deck(replay.rules, default_shapes(replay.rules))
    assert shown(Page(client.get(f"/games/{game}"))) == simulate(replay.state, default,
                                                                 seed_for(replay.state))


def test_the_clubs_hands_before_this_game_began_are_drawn_not_later_or_abandoned_ones(
        client, db, start_game, play):
    earlier = start_game()
    play(earlier, 1, BOB_BIDS_3, "hearts", "BBBBB", "B")  # seat 1 deals, Bob (B) bids 3
    play(earlier, 2, THROW_IN)
    play(earlier, 3, calls_for(2, {2: 4}), "clubs", "AACCB", "C")  # seat 2 deals, bids 4
    abandoned = start_game()
    play(abandoned, 1, BOB_BIDS_3, "hearts", "CCCCC", "C")
    confirm = Page(client.post(f"/games/{abandoned}/abandon", data={}))
    form, _ = confirm.button("Make this change")
    assert client.post(form.action, data=dict(form.fields())).status_code == 303
    game = start_game()
    play(earlier, 4, BOB_BIDS_3, "hearts", "AAAAA", "A")  # after this game began
    db.expire_all()
    # Each as seen from its dealer: steps to the bidder, then the dealer's team's points.
    assert sorted(club_shapes(db, db.get(Game, game)), key=repr) == sorted([
        Shape(bidder=1, bid=3, taken=(0, 6, 0)),  # dealer 1 (A): B took all six
        Shape(bidder=6, bid=4, taken=(1, 3, 2)),  # dealer 2 (B) bid: B 1, C 3, A 2
    ], key=repr)
    replay = load_replay(db, db.get(Game, game))
    play(game, 1, BOB_BIDS_3, "hearts", "AABBC", "B")
    db.expire_all()
    replay = load_replay(db, db.get(Game, game))
    club = Deck(replay.rules, blended(replay.rules, club_shapes(db, replay.game)))
    assert shown(Page(client.get(f"/games/{game}"))) == simulate(replay.state, club,
                                                                 seed_for(replay.state))


def test_a_persian_page_says_the_chances_in_its_own_digits(client, start_game, play):
    game = start_game()
    play(game, 1, BOB_BIDS_3, "hearts", "AABBC", "B")
    page = Page(client.get(f"/games/{game}", headers={"Accept-Language": "fa"}))
    sentence = page.root.find("p", id="chances").text()
    assert "Chances" not in sentence and re.search("[۰-۹]", sentence), sentence
    assert not re.search("[0-9]", sentence), sentence
