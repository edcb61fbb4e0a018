"""The phone's offline copy of the rules (static/rules.js) plays as the rules engine does.

2,000 games of every layout (six seats in pairs, in threes or cutthroat; four in pairs or
cutthroat; five cutthroat) are made up at random and played to their end by the engine
itself, each hand entered as the phone keeps a hand form (its fields, as the form posts
them, a turn for each seat of the table) and read as the app reads a posted hand
(``read_draft``, refused with its first unreadable field, ``to_deal``, ``carry_on``).
Chromium plays the same fields through the script: every hand must give the same deal,
score change, scores, next dealer, hands played and verdict, and every refused hand the
same code. Deals given to ``playDeal`` directly (some wrong) and scores given to
``judge`` are compared too. Nothing expected is written by hand here.
RULES.md, "Bidding", "The six points of a hand", "Scoring after each hand", "End of the game",
"Tables of four, five and six".

The comparison is shown to catch a wrong rule: the script with one rule changed (a set
costing one less, the deal not passing, the tie broken by the first tied team only, the
deal going round six seats at every table) must differ from the engine in some game.
"""
from __future__ import annotations

import json
import random
import zlib
from collections import Counter
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Error as PageError
from scorekeeper.rules import (
    CARD_POINTS, PASS, Deal, HouseRules, RuleViolation, Tally, TeamLayout, VerdictKind,
    bidding_order, carry_on, judge, left_of, replay, team_of, teams_for,
)
from scorekeeper.rules import phone
from scorekeeper.rules.game import play_deal
from scorekeeper.rules.house import HOUSE_RULES
from scorekeeper.table.draft import TallyIncomplete, read_draft
from scorekeeper.web.security import CONTENT_SECURITY_POLICY

pytestmark = pytest.mark.browser

SCRIPT = Path(__file__).resolve().parents[2] / "static" / "rules.js"
DATA = SCRIPT.with_name(phone.FILE)  # the engine's declarations, as the phone reads them
SEED = 1853  # any seed gives such games; this one gives them every time
GAMES = 2000  # of each layout
HAND_CAP = 20  # a game to a large target stops here, unfinished
POINTS = tuple(point.value for point in CARD_POINTS)
SUITS = ("spades", "hearts", "diamonds", "clubs")
PERSIAN = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")
ARABIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")
SPACES = ("", " ", "\t", "\u3000", "\x85", "\x1f")  # \x85 and \x1f are Python's, not trim()'s


# --- random hands, as the phone's form holds them --------------------------------------

def typed(rng: random.Random, number: int) -> str:
    """A number as a phone's keyboard may type it: Latin, Persian or Arabic-Indic digits."""
    text = str(number)
    roll = rng.random()
    if roll < 0.12:
        return text.translate(PERSIAN)
    if roll < 0.2:
        return text.translate(ARABIC)
    return text


def said(rng: random.Random, call) -> str:
    """A call as a field may carry it: mostly as the radio button's value."""
    text = typed(rng, call) if call != PASS else rng.choice(["pass"] * 6 + ["PASS", "Pass"])
    if rng.random() < 0.05:
        text = rng.choice(SPACES) + text + rng.choice(SPACES)
    return text


def legal_calls(rng: random.Random, someone_bids: bool, low: int, seats: int) -> list:
    """An auction as it might go at a table of ``seats``, from the dealer's left: strictly
    higher bids from ``low``, or passes."""
    calls, best = [], 0
    while len(calls) < seats and best < 6:
        if rng.random() < (0.3 if someone_bids else 0):
            best = max(low, best + 1) if rng.random() < 0.75 else rng.randint(max(low, best + 1), 6)
            calls.append(best)
        else:
            calls.append(PASS)
    if someone_bids and best == 0:
        calls[rng.randrange(seats)] = rng.choice((low, 4, 5))
    return calls


def auction_fields(rng: random.Random, dealer: int, low: int, seats: int
                   ) -> tuple[list[tuple[str, str]], int | None]:
    """(the bidding as the form holds it at a table of ``seats``, the seat that should win
    it, if any), its bids from ``low`` (2 in a game whose lowest bid is 3: refused)."""
    kind = rng.choices(
        ["quick", "turns", "passed", "passed_turns", "calls", "link"],
        weights=[46, 34, 5, 5, 5, 5],
    )[0]
    order = bidding_order(dealer, seats)
    if kind == "quick":  # one tap: the winning bid on its turn, every other seat passing
        turn = rng.randint(1, seats)
        return [(f"turn_{turn}", said(rng, rng.choice((low, 3, 3, 4, 4, 5, 6))))], order[turn - 1]
    if kind == "passed":
        return [("bid", "passed")], None
    if kind == "passed_turns":  # the dealer's pass closes it; the open turns passed too
        turns = [t for t in range(1, seats) if rng.random() < 0.5] + [seats]
        return [(f"turn_{t}", said(rng, PASS)) for t in turns], None
    if kind == "link":  # now and then a seat past a smaller table: refused
        seat = rng.randint(1, seats if rng.random() < 0.95 else 6)
        return [("bid", f"{seat}-{rng.choice((low, 3, 4, 5, 6))}")], seat
    calls = legal_calls(rng, someone_bids=True, low=low, seats=seats)
    bidder = order[calls.index(max(c for c in calls if c != PASS))]
    if kind == "calls":
        return [("calls", ",".join(said(rng, call) for call in calls))], bidder
    fields = []
    for turn, call in enumerate(calls, start=1):
        if call != PASS or rng.random() < 0.6:  # a pass may be left open: it passed
            fields.append((f"turn_{turn}", said(rng, call)))
    if calls[-1] == 6 and len(calls) < seats and rng.random() < 0.3:
        fields.append((f"turn_{len(calls) + 1}", rng.choice(["3", "pass", "9"])))  # never shown
    return fields, bidder


def game_values(rng: random.Random, teams: tuple[str, ...]) -> dict[str, int]:
    """Counted game values: tied or not, some teams left out, at most 81 in all."""
    roll = rng.random()
    if roll < 0.15:  # the most tied
        tied = rng.randint(10, 40)
        values = {team: tied for team in rng.sample(teams, 2)}
    elif roll < 0.22:  # every team the same
        values = dict.fromkeys(teams, rng.randint(0, 81 // len(teams)))
    else:
        left = 81
        values = {}
        for team in rng.sample(teams, rng.randint(1, len(teams))):
            values[team] = rng.randint(0, left)
            left -= values[team]
    return values


def tally_fields(rng: random.Random, teams: tuple[str, ...], favoured: str,
                 lean: float) -> list:
    """Trump and who took what; each point goes to ``favoured`` (the bidding team) with
    the chance ``lean``, else to any team."""
    def owner() -> str:
        return favoured if rng.random() < lean else rng.choice(teams)

    owners = {point: owner() for point in POINTS}
    fields = [("trump", rng.choice(SUITS))]
    rest = rng.choice(teams) if rng.random() < 0.15 else None
    fields += [(point, team) for point, team in owners.items()
               if rest is None or (team != rest and rng.random() < 0.7)]
    roll = rng.random()
    if roll < 0.45:
        fields.append(("game", owner()))
    elif roll < 0.55:
        fields.append(("game", "none"))
    elif roll < 0.98 or rest is not None:
        if roll > 0.93:  # Game chosen too: counted values decide it
            fields.append(("game", rng.choice((*teams, "none"))))
        for team, value in game_values(rng, teams).items():
            text = typed(rng, value)
            if rng.random() < 0.1:
                text = "0" * rng.randint(1, 2) + text
            fields.append((f"value_{team}", rng.choice(SPACES[:3]) + text))
    if rest is not None:
        fields.append(("rest", rest))
    rng.shuffle(fields)
    return fields


def broken(rng: random.Random, fields: list, teams: tuple[str, ...], seats: int) -> list:
    """A hand with one thing wrong, as a table of ``seats`` might enter it: refused, with
    a code (or, a turn past the table, not read)."""
    kind = rng.choice([
        "over", "not_higher", "missing_point", "missing_game", "bad_team", "bad_game",
        "bad_trump", "no_trump", "bid_and_turns", "bad_call", "bad_link", "unfinished",
        "bad_value", "bad_rest", "calls_too_many", "first_wins", "past_the_table",
    ])
    named = dict(fields)
    beyond = "ABCDEFG"[len(teams)]  # the letter after the game's last team
    if kind == "over":
        share = rng.randint(82, 120)
        fields = [f for f in fields if not f[0].startswith("value_")]
        fields += [("value_A", str(share - 30)), ("value_B", typed(rng, 30))]
    elif kind == "not_higher":
        first = rng.randint(1, seats - 1)
        high = rng.choice((4, 5))
        fields = [f for f in fields if not f[0].startswith(("turn_", "bid", "calls"))]
        fields += [(f"turn_{first}", str(high)),
                   (f"turn_{rng.randint(first + 1, seats)}", str(rng.choice((3, high))))]
    elif kind == "missing_point":
        gone = rng.choice(POINTS)
        fields = [f for f in fields if f[0] not in (gone, "rest")]
    elif kind == "missing_game":
        fields = [f for f in fields if f[0] != "game" and not f[0].startswith("value_")
                  and f[0] != "rest"]
    elif kind == "bad_team":
        fields = [f for f in fields if f[0] != rng.choice(POINTS)]
        wrong = [beyond, "a", "none", "AB"]
        fields.append((rng.choice(POINTS), rng.choice(wrong)))
    elif kind == "bad_game":
        fields = [f for f in fields if f[0] != "game"]
        fields.append(("game", rng.choice(["nobody", beyond, ""])))
    elif kind == "bad_trump":
        fields = [f for f in fields if f[0] != "trump"]
        fields.append(("trump", rng.choice(["Hearts", "stars", "♥"])))
    elif kind == "no_trump":
        fields = [f for f in fields if f[0] != "trump"]
    elif kind == "bid_and_turns":
        if not any(name.startswith("turn_") for name in named):
            fields = fields + [("turn_3", "4")]
        fields = fields + [("bid", rng.choice(["passed", "2-4"]))]
    elif kind == "bad_call":
        fields = [f for f in fields if not f[0].startswith(("turn_", "bid", "calls"))]
        fields.append((f"turn_{rng.randint(1, seats)}", rng.choice(["7", "2", "x", "³", "1", "۹"])))
    elif kind == "bad_link":
        fields = [f for f in fields if not f[0].startswith(("turn_", "bid", "calls"))]
        fields.append(("bid", rng.choice([f"{seats + 1}-3", "1-7", "x", "1-", "-4", "1-4-5",
                                          "0-3", "7-3"])))
    elif kind == "unfinished":  # nobody has bid and the dealer has not called
        fields = [f for f in fields if not f[0].startswith(("turn_", "bid", "calls"))]
        fields += [(f"turn_{t}", "pass") for t in range(1, rng.randint(2, seats))]
    elif kind == "bad_value":
        wrong = rng.choice(["-3", "1.5", "1234567", "²", "x"])
        fields = fields + [(f"value_{rng.choice(teams)}", wrong)]
        rng.shuffle(fields)
    elif kind == "bad_rest":
        fields = fields + [("rest", rng.choice([beyond, "all"]))]
    elif kind == "calls_too_many":
        fields = [f for f in fields if not f[0].startswith(("turn_", "bid", "calls"))]
        fields.append(("calls", rng.choice(["3," + ",".join([PASS] * seats), "6,pass", "4,3"])))
    elif kind == "first_wins":  # a name twice: the form's first value is the one read
        name, value = rng.choice(fields)
        fields = fields + [(name, rng.choice(["stars", beyond, "9", "pass", value]))]
    elif kind == "past_the_table":  # a turn no seat of the table has, as no page posts it
        fields = fields + [(f"turn_{seats + 1}", rng.choice(["4", "6", "pass"]))]
    return fields


def random_hand(rng: random.Random, rules: HouseRules, dealer: int) -> list[tuple[str, str]]:
    """A hand, mostly whole. The bidding team mostly makes its bid; to a small target
    (several teams reaching it at once), points are often spread evenly: ties."""
    even = rules.target <= 6 and rng.random() < 0.4
    low = rules.bids[0] if rng.random() < 0.95 else 2  # a bid of 2 where the lowest is 3
    fields, bidder = auction_fields(rng, dealer, low, rules.seats)
    teams = rules.team_names
    if bidder is not None or rng.random() < 0.1:  # a throw-in's points are never read
        favoured = (team_of(bidder, rules.teams) if bidder and bidder <= rules.seats
                    else rng.choice(teams))
        fields = fields + tally_fields(rng, teams, favoured, 0 if even else rng.uniform(0.4, 1))
    if rng.random() < 0.08:
        fields = broken(rng, fields, teams, rules.seats)
    # Kept on the phone while the deal moved: its dealer with it (now and then a seat past
    # a smaller table, or none).
    if rng.random() < 0.25:
        given = rng.choice([str(dealer), str(rng.randint(1, 6)), str(rng.randint(1, 6)), "9", "۳", ""])
        fields = fields + [("dealt_by", given)]
    return fields


def random_rules(rng: random.Random, layout: TeamLayout) -> HouseRules:
    roll = rng.random()
    if roll < 0.4:  # several teams reach it at once: ties
        target = rng.randint(1, 6)
    elif roll < 0.85:
        target = rng.randint(7, 21)
    elif roll < 0.95:
        target = rng.randint(22, 40)
    else:
        target = rng.choice((120, 500, 999))
    house = {rule.name: rule.default if rng.random() >= 0.3 else rng.choice(
        [choice.value for choice in rule.choices if choice.value != rule.default])
        for rule in HOUSE_RULES}  # each house rule chosen at three games in ten
    return HouseRules(layout, target, **house)


def rules_json(rules: HouseRules) -> dict:
    """The rules as the phone is given them (``offline_state``)."""
    return {"teams": rules.teams.value, "target": rules.target, "house": rules.house_values}


# --- the engine's answers ----------------------------------------------------------------

def verdict_of(verdict) -> dict:
    return {"kind": verdict.kind.value, "target": verdict.target, "winner": verdict.winner,
            "teams": list(verdict.teams), "score": verdict.score,
            "biddingTeam": verdict.bidding_team}


def result_of(result) -> dict:
    tally = result.tally
    return {
        "number": result.number, "dealerSeat": result.dealer_seat,
        "thrownIn": result.thrown_in, "calls": list(result.auction.calls),
        "trump": result.trump.value if result.trump else None,
        "cardPoints": dict(tally.card_points) if tally else None,
        "game": tally.game if tally else None,
        "gameValues": dict(tally.game_values) if tally and tally.game_values else None,
        "bidderSeat": result.bidder_seat, "bid": result.bid,
        "biddingTeam": result.bidding_team, "taken": result.taken, "made": result.made,
        "scoreChange": result.score_change, "scoresAfter": result.scores_after,
        "verdict": verdict_of(result.verdict),
    }


def standing(state) -> dict:
    return {"scores": state.scores, "verdict": verdict_of(state.verdict),
            "nextDealer": state.next_dealer, "handsPlayed": state.hands_played,
            "number": state.next_number}


def record(state, fields):
    """As the app records a hand posted from the phone (views/hands.py): the first field
    it can't read refuses it, then a hand not whole, then the rules."""
    try:
        form = {}
        for name, value in fields:  # the first value of a name, as request.form.get gives
            form.setdefault(name, value)
        draft = read_draft(form, state.next_dealer, state.rules)
        if draft.unreadable:
            raise draft.unreadable[0]
        after = carry_on(state, [draft.to_deal()])
    except TallyIncomplete:
        return state, {"refused": "tally_incomplete"}
    except RuleViolation as violation:
        return state, {"refused": violation.code}
    return after, {**result_of(after.deals[-1]), "nextDealer": after.next_dealer,
                   "handsPlayed": after.hands_played, "nextNumber": after.next_number}


def digest(game: dict) -> int:
    """The engine's answers for a game (each hand's, and the whole game's) as the page
    sums them up: CRC-32 of their JSON, keys sorted, no spaces. An answer the script
    gives that the engine doesn't, in a value or in kind (true for 1), changes it."""
    answers = {"hands": game["expected"], "final": game["final"]}
    return zlib.crc32(json.dumps(answers, sort_keys=True, separators=(",", ":")).encode())


def random_game(rng: random.Random, layout: TeamLayout) -> dict:
    rules = random_rules(rng, layout)
    first_dealer = rng.randint(1, rules.seats)
    state = replay(rules, first_dealer, [])
    hands, expected = [], []
    while len(hands) < HAND_CAP and not (state.finished and rng.random() < 0.6):
        fields = random_hand(rng, rules, state.next_dealer)
        state, answer = record(state, fields)
        hands.append(fields)
        expected.append(answer)
        if state.finished and "refused" in answer:
            break  # at most one hand after the end (game_over, or a field refused first)
    game = {
        "rules": rules_json(rules),
        "firstDealer": first_dealer, "hands": hands,
        "expected": expected, "final": standing(state),
    }
    return {**game, "digest": digest(game)}


def random_deal(rng: random.Random, rules: HouseRules) -> tuple[dict, Deal]:
    """A deal as a file or another script might give it to ``playDeal``, sometimes wrong."""
    teams, seats = rules.team_names, rules.seats
    calls = legal_calls(rng, someone_bids=rng.random() < 0.9, low=rng.choice((2, 3, 3)),
                        seats=seats)
    trump = rng.choice(SUITS)
    card_points = {point: rng.choice(teams) for point in POINTS}
    game = rng.choice((*teams, None))
    values = game_values(rng, teams) if rng.random() < 0.4 else None
    if values is not None and rng.random() < 0.7:
        game = None
    flaw = rng.choice(["none"] * 6 + [
        "bid_not_higher", "call_invalid", "auction_over", "unfinished", "trump_missing",
        "trump_invalid", "tally_missing", "point_unknown", "point_unassigned", "bad_team",
        "game_value_invalid", "game_values_over", "game_disagrees", "throw_in_scored",
        "seat_invalid", "string_calls",
    ])
    dealer = rng.randint(1, seats)
    if flaw == "bid_not_higher":
        calls = [4, 3] + [PASS] * (seats - 2)
    elif flaw == "call_invalid":
        calls[rng.randrange(len(calls))] = rng.choice([7, 2, "x", True, None, "۵"])
    elif flaw == "auction_over":
        calls = calls + [PASS]
    elif flaw == "unfinished":
        calls = [PASS] * rng.randint(0, 5)
    elif flaw == "trump_missing":
        trump = None
    elif flaw == "trump_invalid":
        trump = rng.choice(["Hearts", "stars", 3])
    elif flaw == "tally_missing":
        card_points = None
    elif flaw == "point_unknown":
        card_points["queen"] = teams[0]
    elif flaw == "point_unassigned":
        del card_points[rng.choice(POINTS)]
    elif flaw == "bad_team":
        card_points[rng.choice(POINTS)] = rng.choice(["ABCDEFG"[len(teams)], "", "a"])
    elif flaw == "game_value_invalid":
        values = {teams[0]: rng.choice([-1, 2.5, True, "3"]), teams[1]: 4}
    elif flaw == "game_values_over":
        values = {teams[0]: 60, teams[1]: 22}
    elif flaw == "game_disagrees":
        values = {teams[0]: 30, teams[1]: 20}
        game = teams[1]
    elif flaw == "throw_in_scored":
        calls = [PASS] * seats
    elif flaw == "seat_invalid":
        dealer = rng.choice([0, seats + 1, 7])
    elif flaw == "string_calls":
        calls = [str(call).upper() if rng.random() < 0.5 else f" {call} " for call in calls]
    tally = None if card_points is None else Tally(card_points, game, values)
    as_given = {"calls": calls, "trump": trump, "cardPoints": card_points, "game": game,
                "gameValues": values}
    return {"dealer": dealer, "deal": as_given}, Deal(tuple(calls), trump, tally)


def deal_vector(rng: random.Random, layout: TeamLayout) -> dict:
    rules = random_rules(rng, layout)
    given, deal = random_deal(rng, rules)
    try:
        auction, tally, hand = play_deal(rules, given["dealer"], deal)
    except RuleViolation as violation:
        expected = {"refused": violation.code}
    else:
        expected = {"thrownIn": hand is None, "calls": list(auction.calls),
                    "bidderSeat": auction.bidder_seat, "bid": auction.highest_bid,
                    "biddingTeam": hand and hand.bidding_team, "taken": hand and hand.taken,
                    "made": hand and hand.made, "scoreChange": hand and hand.score_change,
                    "game": tally and tally.game}
    return {"rules": rules_json(rules), **given, "expected": expected}


def judge_vector(rng: random.Random, layout: TeamLayout) -> dict:
    """Scores near a small target, where ties on it are common."""
    rules = random_rules(rng, layout)
    target = rng.randint(1, 8)
    rules = HouseRules(rules.teams, target, **rules.house_values)
    scores = {team: rng.randint(target - 3, target + 2) for team in rules.team_names}
    bidding_team, made = rng.choice(rules.team_names), rng.random() < 0.5
    taken = None
    if rng.random() < 0.7:  # the points taken too: all six to one team, now and then
        taken = dict.fromkeys(rules.team_names, 0)
        sweeper = rng.choice(rules.team_names) if rng.random() < 0.3 else None
        for _ in range(rng.choice((5, 6)) if sweeper is None else 6):
            taken[sweeper or rng.choice(rules.team_names)] += 1
    return {"rules": rules_json(rules), "scores": scores, "biddingTeam": bidding_team,
            "made": made, "taken": taken,
            "expected": verdict_of(judge(rules, scores, bidding_team, made, taken))}


@pytest.fixture(scope="module")
def vectors() -> dict:
    rng = random.Random(SEED)
    made = {
        # Every layout in turn, so that each batch sent to the page holds them all.
        "games": [random_game(rng, layout) for _ in range(GAMES) for layout in TeamLayout],
        "deals": [deal_vector(rng, layout) for _ in range(150) for layout in TeamLayout],
        "judged": [judge_vector(rng, layout) for _ in range(150) for layout in TeamLayout],
    }
    return made  # every answer written as JSON holds it (lists, not tuples): sent as it is


# --- the script's answers, in Chromium ----------------------------------------------------

# Each game played by the script, its answers held to the engine's in the page by their
# digest (``digest``): only a game that differs comes back, whole, for the words. Some 40
# megabytes of answers that agree never cross between the test and the page.
PLAY_GAMES = """
games => {
  const R = SchmierRules;
  const CRC = Array.from({length: 256}, (_, n) => {
    for (let k = 0; k < 8; k++) n = n & 1 ? 0xedb88320 ^ (n >>> 1) : n >>> 1;
    return n >>> 0;
  });
  const crc32 = bytes => {
    let c = ~0;
    for (const b of bytes) c = CRC[(c ^ b) & 255] ^ (c >>> 8);
    return ~c >>> 0;
  };
  const sorted = (key, value) => value && typeof value === "object" && !Array.isArray(value)
    ? Object.fromEntries(Object.keys(value).sort().map(name => [name, value[name]])) : value;
  const encoder = new TextEncoder();
  const play = game => {
    let state = R.start(game.rules, game.firstDealer);
    const deals = [];
    const hands = game.hands.map(fields => {
      try {
        const deal = R.readDeal(fields, state.nextDealer, state.rules);
        state = R.carryOn(state, [deal]);
        deals.push(deal);
      } catch (error) {
        if (!error.code) throw error;
        return {refused: error.code};
      }
      return {...state.results[0], nextDealer: state.nextDealer, handsPlayed: state.handsPlayed,
              nextNumber: state.number};
    });
    // The whole game again in one step, as the app replays it.
    const whole = R.carryOn(R.start(game.rules, game.firstDealer), deals);
    const final = {scores: whole.scores, verdict: whole.verdict, nextDealer: whole.nextDealer,
                   handsPlayed: whole.handsPlayed, number: whole.number};
    return {hands, final};
  };
  return games.map(game => {
    const got = play(game);
    return crc32(encoder.encode(JSON.stringify(got, sorted))) === game.digest ? null : got;
  });
}
"""


PLAY_DEALS = """
vectors => vectors.map(v => {
  try {
    const r = SchmierRules.playDeal(v.rules, v.dealer, v.deal);
    return {thrownIn: r.thrownIn, calls: r.calls, bidderSeat: r.bidderSeat, bid: r.bid,
            biddingTeam: r.biddingTeam, taken: r.taken, made: r.made,
            scoreChange: r.scoreChange, game: r.game};
  } catch (error) {
    if (!error.code) throw error;
    return {refused: error.code};
  }
})
"""

JUDGE = ("vectors => vectors.map(v => "
         "SchmierRules.judge(v.rules, v.scores, v.biddingTeam, v.made, v.taken))")

TABLE = """
([layouts, starts]) => {
  const R = SchmierRules;
  const refusal = (work) => { try { work(); return null; } catch (e) { return e.code; } };
  const each = (work) => Object.fromEntries(layouts.map((layout) => [layout, work(layout)]));
  const seatsOf = (layout) => Array.from({length: R.seatsAt(layout)}, (_, i) => i + 1);
  return {
    teams: each(R.teamsFor),
    seats: each(R.seatsAt),
    teamOf: each((layout) => [0, ...seatsOf(layout), 7].map((seat) =>
      refusal(() => R.teamOf(seat, layout)) ?? R.teamOf(seat, layout))),
    leftOf: each((layout) => seatsOf(layout).map((seat) => R.leftOf(seat, R.seatsAt(layout)))),
    order: each((layout) => seatsOf(layout).map((seat) => R.biddingOrder(seat, R.seatsAt(layout)))),
    refusals: starts.map(([rules, dealer]) => refusal(() => R.start(rules, dealer))),
    defaults: R.start({}, 3),
  };
}
"""


@pytest.fixture(scope="module")
def chromium(browser):
    """The suite's own headless Chromium (tests/browser/conftest.py)."""
    return browser


ORIGIN = "http://rules.test"  # never asked of the network: the page's requests are answered here
PAGE = ('<!doctype html><meta charset="utf-8"><title>rules</title>'
        '<script type="module" src="/hold.js"></script>')
# The test's own module: the rules module imported, and held where the test reaches it.
HOLD = 'import * as rules from "./rules.js";\nwindow.SchmierRules = rules;\n'


@contextmanager
def module_page(browser, scripts: dict[str, str], html: str = PAGE):
    """(page, its errors): the page ``html``, its modules (name -> source) served as the
    app serves its own, from the page's own origin, under the app's own
    Content-Security-Policy (no eval)."""
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text)
            if message.type == "error" else None)
    bodies = {f"{ORIGIN}/{name}": source for name, source in scripts.items()}

    def answer(route):
        script = route.request.url in bodies
        route.fulfill(status=200, headers={"Content-Security-Policy": CONTENT_SECURITY_POLICY},
                      content_type=f"text/{'javascript' if script else 'html'}; charset=utf-8",
                      body=bodies.get(route.request.url, html))

    try:
        page.route(f"{ORIGIN}/**", answer)
        page.goto(f"{ORIGIN}/")
        yield page, errors
    finally:
        page.close()


@contextmanager
def rules_page(browser, source: str):
    """(page, its errors): a page importing ``source`` as the app's modules import rules.js,
    with the engine's data beside it."""
    scripts = {"rules.js": source, "hold.js": HOLD, phone.FILE: DATA.read_text(encoding="utf-8")}
    with module_page(browser, scripts) as (page, errors):
        assert page.evaluate("typeof SchmierRules") == "object", errors
        yield page, errors


def run(page, work: str, sent) -> list:
    """``work(sent)`` run by the page itself, in a timer's task: what the test evaluates is
    exempt from the page's no-eval rule, what the page runs is not. JSON each way: one
    string is far quicker to pass than the objects it holds."""
    task = ("sent => new Promise((done, failed) => setTimeout(() => {"
            f" try {{ done(JSON.stringify(({work})(JSON.parse(sent)))); }}"
            " catch (error) { failed(error); } }))")
    return json.loads(page.evaluate(task, json.dumps(sent)))


def differences(page, vectors: dict, enough: int | None = None, batch: int = 500) -> list[str]:
    """Every game, deal and verdict where the script and the engine differ, in words; the
    games are sent ``batch`` at a time, and no more once ``enough`` games differ."""
    games = vectors["games"]
    found = []
    for start in range(0, len(games), batch):
        if enough is not None and len(found) >= enough:
            return found
        chunk = games[start:start + batch]
        sent = [{key: game[key] for key in ("rules", "firstDealer", "hands", "digest")}
                for game in chunk]
        for offset, (game, got) in enumerate(zip(chunk, run(page, PLAY_GAMES, sent))):
            if got is not None:
                number = start + offset
                found.append(game_differences(number, game, got)
                             or f"game {number}: the script's answers differ in kind, or in"
                                f" what JSON holds of them: {json.dumps(got)}")
    got = run(page, PLAY_DEALS, [{k: v[k] for k in ("rules", "dealer", "deal")}
                                 for v in vectors["deals"]])
    for number, (vector, answer) in enumerate(zip(vectors["deals"], got)):
        if answer != vector["expected"]:
            found.append(f"playDeal vector {number}: {json.dumps(vector, ensure_ascii=False)}\n"
                         f"  script: {json.dumps(answer)}")
    got = run(page, JUDGE, vectors["judged"])
    for number, (vector, answer) in enumerate(zip(vectors["judged"], got)):
        if answer != vector["expected"]:
            found.append(f"judge vector {number}: {json.dumps(vector)}\n"
                         f"  script: {json.dumps(answer)}")
    return found


def game_differences(number: int, game: dict, got: dict) -> str | None:
    """The first hand where the script's answers differ from the engine's, in words."""
    hands = list(zip(game["expected"], got["hands"], strict=True))
    first = next((i for i, (want, have) in enumerate(hands) if want != have), None)
    if first is None and got["final"] == game["final"]:
        return None
    lines = [f"game {number}: rules {game['rules']}, first dealer {game['firstDealer']}"]
    for i, (want, have) in enumerate(hands):
        mark = ">>" if i == first else "  "
        fields = json.dumps(game["hands"][i], ensure_ascii=False)
        lines.append(f"{mark} hand {i + 1} fields {fields}")
        if i == first:
            for key in sorted(set(want) | set(have)):
                if want.get(key) != have.get(key):
                    lines.append(f"     {key}: engine {json.dumps(want.get(key))}, "
                                 f"script {json.dumps(have.get(key))}")
            break
        lines.append(f"     {want.get('refused') or want['scoresAfter']}")
    if first is None:
        lines.append(f"   whole game: engine {game['final']}, script {got['final']}")
    return "\n".join(lines)


# --- the tests --------------------------------------------------------------------------

@pytest.mark.parametrize("layout", [layout.value for layout in TeamLayout])
def test_the_vectors_cover_every_way_a_game_goes(vectors, layout):
    """What the comparison below is worth, at every layout: the engine's games hold every
    verdict and every refusal a phone's hand can meet there, and the hands are entered
    every way a phone can (and some ways no page of that table can)."""
    seats, teams = TeamLayout(layout).seats, len(teams_for(layout))
    games = [game for game in vectors["games"] if game["rules"]["teams"] == layout]
    hands = [h for game in games for h in game["expected"]]
    fields = [f for game in games for f in game["hands"]]
    kinds = Counter(h["verdict"]["kind"] for h in hands if "refused" not in h)
    refused = Counter(h["refused"] for h in hands if "refused" in h)
    assert len(games) >= GAMES
    # Two teams tied on the most always hold the bidder's: only three teams or more play on.
    possible = [kind for kind in VerdictKind if teams > 2 or kind is not VerdictKind.TIE_PLAY_ON]
    assert all(kinds[kind.value] >= 5 for kind in possible), kinds
    assert {"game_over", "game_values_over", "bid_not_higher", "tally_incomplete",
            "point_not_a_team", "trump_invalid", "trump_missing", "bid_and_turns",
            "call_invalid", "bid_invalid", "auction_unfinished", "game_value_invalid",
            "auction_over"} <= set(refused), refused
    played = [h for h in hands if "refused" not in h and not h["thrownIn"]]
    assert sum(h["thrownIn"] for h in hands if "refused" not in h) >= 100
    assert sum(not h["made"] for h in played) >= 500  # sets
    assert sum(h["gameValues"] is not None for h in played) >= 500
    assert sum(h["gameValues"] is not None and h["game"] is None for h in played) >= 50
    assert sum(h["game"] is None and h["gameValues"] is None for h in played) >= 100
    assert sum(6 in h["calls"] for h in played) >= 200
    assert sum(len(h["calls"]) - h["calls"].count(PASS) > 1 for h in played) >= 200  # several bids
    assert sum(h["calls"].count(PASS) == seats - 1 for h in played) >= 2000  # one bid, all round
    assert sum(h["dealerSeat"] == seats and h["thrownIn"] for h in hands
               if "refused" not in h) >= 10  # the last seat deals, and deals again
    turns = [[name for name, _ in f if name.startswith("turn_")] for f in fields]
    assert sum(len(t) == 1 for t in turns) >= 3000  # the one tap of a quick bid
    assert sum(len(t) >= 3 for t in turns) >= 1500  # the bidding turn by turn
    assert sum(f"turn_{seats}" in t for t in turns) >= 1000  # the dealer's own turn
    assert sum(len({name for name, _ in f}) < len(f) for f in fields) >= 50  # a name twice
    assert sum(any(v[:1] in "\x85\x1f\u3000" or v[-1:] in "\x85\x1f\u3000" for _, v in f)
               for f in fields) >= 100  # spaces Python's strip() takes and trim() may not
    dealt_by = [value for f in fields for name, value in f if name == "dealt_by"]
    at_the_table = [str(seat) for seat in range(1, seats + 1)]
    assert sum(value in at_the_table for value in dealt_by) >= 600  # deal moved
    # Seats and turns past a table of four or five: no page of it posts them.
    beyond = {str(seat) for seat in range(seats + 1, 7)}
    past = Counter(name for f in fields for name, value in f if name == f"turn_{seats + 1}"
                   or name == "dealt_by" and value in beyond
                   or name == "bid" and value.split("-")[0] in beyond)
    assert len(past) == 3 or seats == 6, past
    assert min(past.values(), default=10) >= 10, past
    reader_digits = set("۰۱۲۳۴۵۶۷۸۹٠١٢٣٤٥٦٧٨٩")
    assert sum(any(reader_digits & set(value) for _, value in f) for f in fields) >= 200
    assert sum(game["final"]["verdict"]["winner"] is None for game in games) >= 20
    for rule in HOUSE_RULES:  # each house rule's every value is played
        values = Counter(json.dumps(game["rules"]["house"][rule.name]) for game in games)
        assert set(values) == {json.dumps(choice.value) for choice in rule.choices}, values
    # ... and does what it does: bids of 2 played (and refused where the lowest is 3), a
    # stuck dealer's pass refused, games won by a team taking all six points.
    assert sum(h["bid"] == 2 for h in played) >= 100
    assert refused["dealer_must_bid"] >= 20, refused
    assert refused["call_invalid"] + refused["bid_invalid"] >= 50, refused
    assert kinds["all_six"] >= 20, kinds
    judged = Counter(v["expected"]["kind"] for v in vectors["judged"]
                     if v["rules"]["teams"] == layout)
    assert judged["all_six"] >= 5, judged
    deals = [v for v in vectors["deals"] if v["rules"]["teams"] == layout]
    assert sum(v["expected"].get("refused") == "dealer_must_bid" for v in deals) >= 1
    assert sum(v["expected"].get("refused") == "seat_invalid" for v in deals) >= 1
    assert sum(v["expected"].get("thrownIn") is False for v in deals) >= 20


def test_the_script_plays_every_game_as_the_engine_does(chromium, vectors):
    with rules_page(chromium, SCRIPT.read_text(encoding="utf-8")) as (page, errors):
        found = differences(page, vectors)
    assert not found, f"{len(found)} differ; the first:\n{found[0]}"
    assert not errors


# Rules and first dealers start() refuses, as the engine's HouseRules and replay do (a
# first dealer past the table too), and some it takes.
REFUSED_STARTS = [({"teams": "3x3"}, 1), ({"target": 0}, 1), ({"target": 1000}, 1),
                  ({"target": 2.5}, 1), ({"house": {"bidder_goes_out": "yes"}}, 1),
                  ({"house": {"no_such_rule": True}}, 1), ({}, 7), ({}, 0),
                  ({"teams": "2x2"}, 5), ({"teams": "c4"}, 4), ({"teams": "c5"}, 6),
                  ({"teams": "c5"}, 5), ({"teams": "c6"}, 6), ({"teams": "2x2"}, 4.5)]


def refusal_of_start(rules: dict, dealer: int) -> str | None:
    given = {key: value for key, value in rules.items() if key != "house"}
    try:
        replay(HouseRules(**given, **rules.get("house", {})), dealer, [])
    except RuleViolation as violation:
        return violation.code
    return None


def team_or_refusal(seat: int, layout: TeamLayout) -> str:
    try:
        return team_of(seat, layout)
    except RuleViolation as violation:
        return violation.code


def test_the_table_is_the_engines(chromium):
    """Every layout's seats and teams, and where the deal and the bidding go round it."""
    layouts = [layout.value for layout in TeamLayout]
    with rules_page(chromium, SCRIPT.read_text(encoding="utf-8")) as (page, _):
        got = run(page, TABLE, [layouts, REFUSED_STARTS])
    seats = {layout: range(1, layout.seats + 1) for layout in TeamLayout}
    assert got["teams"] == {layout: {t: list(s) for t, s in teams_for(layout).items()}
                            for layout in TeamLayout}
    assert got["seats"] == {layout: layout.seats for layout in TeamLayout}
    assert got["teamOf"] == {layout: [team_or_refusal(seat, layout)
                                      for seat in (0, *seats[layout], 7)]
                             for layout in TeamLayout}
    assert got["leftOf"] == {layout: [left_of(seat, layout.seats) for seat in seats[layout]]
                             for layout in TeamLayout}
    assert got["order"] == {layout: [list(bidding_order(seat, layout.seats))
                                     for seat in seats[layout]]
                            for layout in TeamLayout}
    assert got["refusals"] == [refusal_of_start(rules, dealer) for rules, dealer in REFUSED_STARTS]
    assert got["defaults"]["rules"] == rules_json(HouseRules())
    assert got["defaults"]["verdict"] == verdict_of(replay(HouseRules(), 3, []).verdict)


def test_the_page_holds_the_script_to_the_apps_policy(chromium):
    """A copy of the rules that evaluated a string would be refused on this page, as on
    the app's: the comparison passing shows the script needs no eval."""
    source = SCRIPT.read_text(encoding="utf-8")
    old = "function judge(rules, scores, biddingTeam, made, taken = null) {"
    assert source.count(old) == 1
    vector = {"rules": rules_json(HouseRules("2x3", 5)),
              "scores": {"A": 0, "B": 0}, "biddingTeam": "A", "made": True}
    with rules_page(chromium, source.replace(old, old + ' eval("1");')) as (page, _):
        with pytest.raises(PageError, match="unsafe-eval"):
            run(page, JUDGE, [vector])


# One rule changed in the script: (as it is written, as the mutant writes it).
MUTANTS = {
    "a set costs the bid less one": (
        "if (!made) scoreChange[biddingTeam] = -bid;",
        "if (!made) scoreChange[biddingTeam] = 1 - bid;"),
    "the deal stays after a played hand": (
        "if (!hand.thrownIn) dealer = leftOf(dealer, seats);",
        "if (hand.thrownIn) dealer = leftOf(dealer, seats);"),
    "the deal goes round six seats at every table": (
        "const leftOf = (seat, seats) => (checkSeat(seat, seats) % seats) + 1;",
        "const leftOf = (seat, seats) => (checkSeat(seat, seats) % 6) + 1;"),
    "the dealer's turn is the sixth at every table": (
        "Boolean(turns[seats - 1]);",
        "Boolean(turns[5]);"),
    "the dealer is stuck on the sixth call at every table": (
        "const dealersTurn = calls.length === bidding.seats - 1;",
        "const dealersTurn = calls.length === 5;"),
    "the tie-break looks only at the first tied team": (
        "if (leaders.includes(biddingTeam)) {",
        "if (leaders[0] === biddingTeam) {"),
    "the lowest bid is always the game's own": (
        "const low = rules.house.lowest_bid;",
        "const low = BIDS[0];"),
    "a stuck dealer may pass": (
        'stuck: rules.house.all_pass === "dealer_stuck" };',
        "stuck: false };"),
    "a smudge wins only for the bidding team": (
        "? Object.keys(taken).find((team) => taken[team] === CARD_POINTS.length + 1) : undefined;",
        "? [biddingTeam].find((team) => taken[team] === CARD_POINTS.length + 1) : undefined;"),
    "a hand kept while the deal moved keeps its turns, not its seats": (
        "calls = finished(calls, seats) ? reseated(calls, enteredBy, dealer, bidding) : [];",
        "calls = finished(calls, seats) ? calls : [];"),
}


@pytest.mark.parametrize("mutant", MUTANTS)
def test_a_wrong_rule_is_caught(chromium, vectors, mutant):
    """The games alone (no playDeal or judge vectors) tell the mutant from the engine: most
    in the first hundred, all in some."""
    old, new = MUTANTS[mutant]
    source = SCRIPT.read_text(encoding="utf-8")
    assert source.count(old) == 1, f"the rule to change is no longer written {old!r}"
    with rules_page(chromium, source.replace(old, new)) as (page, _):
        found = differences(page, {**vectors, "deals": [], "judged": []}, enough=1, batch=100)
    assert found
