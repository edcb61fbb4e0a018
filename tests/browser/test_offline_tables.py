"""With no connection, the phone plays on round the game's own table: four, five or six
seats, in every layout (static/offline.js, with static/rules.js's arithmetic).

A game page as the server draws it (its island, as ``offline_state`` writes it; the
offline words; one turn of the bidding a seat of the table) is given hands kept on this
phone. offline.js plays them on and draws the next hand: each turn named for the seat
that calls it, from the dealer's left round that table; the dealer the hand is kept
with; each team's score, A to F. What it must show is worked out by the rules engine.
RULES.md, "Tables of four, five and six".
"""
from __future__ import annotations

import json
import random
from html import escape

import pytest

from scorekeeper.rules import (
    CARD_POINTS, PASS, Deal, HouseRules, Tally, TeamLayout, bidding_order, quick_auction,
    replay, team_of,
)
from scorekeeper.rules import phone
from tests.browser.test_rules_js import DATA, module_page

pytestmark = pytest.mark.browser

STATIC = DATA.parent
NAMES = ("Ann", "Bob", "Cid", "Dan", "Eve", "Fay")
GAME = "7"
# The words offline.js says, as the server's offline words give them ({part}s to fill).
WORDS = {
    "hand": "Hand {number}", "who": "Dealer: {dealer} (seat {seat}). {first} bids first.",
    "leads": "{name} leads.", "again": "{name} deals again.", "record": "Record hand {number}",
    "undo": "Undo hand {number}", "dealt": "{name} dealt.", "thrown_in": "Thrown in.",
    "bid": "{name} ({team}) bid {bid} {suit}, took {taken}:", "made": "made", "set": "set",
    "nobody": "nobody", "team_score": "Team {team}: {score} points",
    "verdict_playing": "First team to {target} wins.", "recorded": "Hand {number}: {scores}.",
    "thrown_in_again": "Hand {number}: thrown in.", "on_phone_one": "Hand {number} here.",
    "on_phone": "Hands {first}-{last} here.", "not_sent_mark": "Here only",
    "check_other": "{team} {change}",
    **{f"point_{point}": point for point in (*CARD_POINTS, "game")},
    **{f"suit_{suit}": suit for suit in ("spades", "hearts", "diamonds", "clubs")},
}
HOLD = 'import * as offline from "./offline.js";\nwindow.Offline = offline;\n'


def game_page(rules: HouseRules, first_dealer: int) -> str:
    """The parts of a game page offline.js draws on, before hand 1: a turn for each seat."""
    names = dict(zip(range(1, rules.seats + 1), NAMES))
    state = {"game": int(GAME), "revision": 1, "number": 1,
             "rules": {"teams": rules.teams.value, "target": rules.target,
                       "house": rules.house_values},
             "names": names, "scores": dict.fromkeys(rules.team_names, 0),
             "nextDealer": first_dealer,
             "verdict": {"kind": "playing", "winner": None, "teams": [], "score": None}}
    words = "".join(f'<i data-word="{key}">{escape(said)}</i>' for key, said in WORDS.items())
    teams = "".join(f'<li class="team team-{team}"><span class="team-score">0</span></li>'
                    for team in rules.team_names)
    turns = "".join(f'<fieldset class="turn turn-{turn}"><legend>?</legend>'
                    f'<input type="radio" name="turn_{turn}" value="{PASS}">'
                    '<span class="leads"></span></fieldset>'
                    for turn in range(1, rules.seats + 1))
    return f"""<!doctype html><meta charset="utf-8"><title>game</title>
<script type="module" src="/hold.js"></script>
<template id="offline-words">{words}</template>
<div id="game" data-game="{GAME}">
<section class="scores"><ol>{teams}</ol></section><p id="verdict"></p>
<section id="hand-entry"><div id="poller" hidden></div><h2 id="entry-title">Hand 1</h2>
<p class="who"></p>
<form id="hand-form" data-game="{GAME}" data-number="1">
<input type="hidden" name="number" value="1"><input type="hidden" name="dealt_by" value="{first_dealer}">
{turns}<div class="thrown-in-step"><p class="big-line"></p></div>
<button class="record">Record hand 1</button><p class="send-status"></p></form>
<p id="preview"></p><p id="other-phone"></p></section>
<div id="hands-top"></div><p id="no-hands">No hands yet.</p>
<div id="game-state" hidden data-state="{escape(json.dumps(state))}"></div>
</div>"""


def kept_hands(rules: HouseRules, first_dealer: int, rng: random.Random
               ) -> tuple[list[dict], list[Deal]]:
    """Hands entered on the phone with no connection (a form's fields, kept as app.js
    keeps them), and the same hands as the engine's deals: some won by one tap, one
    thrown in, the points spread over the teams."""
    seats, teams = rules.seats, rules.team_names
    entries, deals = [], []
    for number in range(1, 6):
        dealer = replay(rules, first_dealer, deals).next_dealer
        fields = [("number", str(number)), ("dealt_by", str(dealer))]
        if number == 3:  # everyone passed: the same dealer deals again
            entries.append({"fields": [*fields, ("bid", "passed")]})
            deals.append(Deal((PASS,) * seats))
            continue
        turn = rng.randint(1, seats)
        bidder, bid = bidding_order(dealer, seats)[turn - 1], rng.choice((3, 4))
        points = {point.value: rng.choice(teams) for point in CARD_POINTS}
        points["high"] = team_of(bidder, rules.teams)
        game = rng.choice(teams)
        fields += [(f"turn_{turn}", str(bid)), ("trump", "hearts"), *points.items(),
                   ("game", game)]
        entries.append({"fields": fields})
        deals.append(Deal(quick_auction(dealer, bidder, bid, seats).calls, "hearts",
                          Tally(points, game)))
    for number, entry in enumerate(entries, start=1):
        entry.update(game=GAME, number=number, key=f"{GAME}.{number}")
    return entries, deals


def shown(page) -> dict:
    """What the page shows of the game once offline.js has played on."""
    return page.evaluate("""() => ({
      turns: [...document.querySelectorAll(".turn")].map(turn => [
        turn.querySelector("legend").textContent, turn.querySelector(".leads").textContent]),
      who: document.querySelector(".who").textContent,
      title: document.querySelector("#entry-title").textContent,
      dealtBy: document.querySelector("input[name=dealt_by]").value,
      number: document.querySelector("input[name=number]").value,
      scores: Object.fromEntries([...document.querySelectorAll(".scores .team")].map(team =>
        [team.className.match(/team-(\\w)/)[1], team.querySelector(".team-score").textContent])),
      rows: document.querySelectorAll("#deals > li").length,
    })""")


@pytest.mark.parametrize("layout", [layout.value for layout in TeamLayout])
def test_the_next_hand_is_drawn_round_the_games_own_table(browser, layout):
    rules = HouseRules(layout, 99)
    seats = rules.seats
    first_dealer = seats  # the last seat deals first: the deal goes round to seat 1
    entries, deals = kept_hands(rules, first_dealer, random.Random(seats * 7 + len(layout)))
    state = replay(rules, first_dealer, deals)
    scripts = {name: (STATIC / name).read_text(encoding="utf-8")
               for name in ("page.js", "kept.js", "offline.js", "rules.js", phone.FILE)}
    with module_page(browser, {**scripts, "hold.js": HOLD},
                     game_page(rules, first_dealer)) as (page, errors):
        page.wait_for_function("() => window.Offline")
        page.evaluate("outbox => localStorage.setItem('scorekeeper.outbox', outbox)",
                      json.dumps(entries))
        played = page.evaluate("() => Offline.here(() => {}).applied.length")
        got = shown(page)
    assert played == len(entries), errors
    names = dict(zip(range(1, seats + 1), NAMES))
    order = bidding_order(state.next_dealer, seats)
    assert got["turns"] == [[names[seat], f"{names[seat]} leads."] for seat in order]
    assert got["who"] == (f"Dealer: {names[state.next_dealer]} (seat {state.next_dealer}). "
                          f"{names[order[0]]} bids first.")
    assert (got["title"], got["number"]) == (f"Hand {state.next_number}", str(state.next_number))
    assert got["dealtBy"] == str(state.next_dealer)
    minus = {team: str(score).replace("-", "\u2212") for team, score in state.scores.items()}
    assert got["scores"] == minus
    assert got["rows"] == len(entries)
    assert not errors
