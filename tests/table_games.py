"""Games at any table the rules seat (four, five or six, in any layout), started and
recorded through the store as the pages start and record them: ``seating.new_game``
and ``seat_game``, then ``recording.record_hand`` hand by hand."""
from __future__ import annotations

from typing import Sequence

from sqlmodel import Session

from scorekeeper.rules import Deal, HouseRules, Tally
from scorekeeper.store.models import Club, Evening, Game, utcnow
from scorekeeper.store.replay import load_replay
from scorekeeper.table.evenings import new_evening
from scorekeeper.table.recording import record_hand
from scorekeeper.table.seating import in_evening, new_game, seat_game
from tests.test_substitutes import substitute

P = "pass"


def played(calls, trump: str, owners: str, game: str) -> Deal:
    """A played hand: the teams that took High, Low, Right, Left and Joker (a letter
    each), and Game ("-": tied)."""
    points = dict(zip(("high", "low", "right", "left", "joker"), owners, strict=True))
    return Deal(tuple(calls), trump, Tally(points, None if game == "-" else game))


def game_at(session: Session, club: Club, layout: str, names: Sequence[str],
            first_dealer: int, deals: Sequence[Deal] = (), *, target: int = 21,
            evening: Evening | None = None, table: int = 1) -> Game:
    """A game of ``names`` (seat 1 first) at ``layout``, its ``deals`` recorded."""
    rules = HouseRules(layout, target)
    game = seat_game(session, club, names, new_game(
        club, rules, first_dealer, drawn=False, table_number=table,
        **in_evening(session, evening)))
    session.commit()
    record(session, game, deals)
    return game


def record(session: Session, game: Game, deals: Sequence[Deal]) -> None:
    """The next hands of ``game``, recorded one by one."""
    replay = load_replay(session, game)
    for deal in deals:
        replay = record_hand(session, replay, replay.state.next_number, deal, game.revision)


# Games worked out by hand from RULES.md.

# Five players, cutthroat (each seat a team: A = 1 ... E = 5), target 5.
#   1. Eve (5) deals; calls from seat 1: pass, Bob 3, pass, Dan 4, pass: Dan (D) bids 4.
#      Owners D A D B E, Game tied: A 1, B 1, C 0, D 2 (set: -4), E 1.
#   2. Ann (1) deals; calls from seat 2: pass, Cid 3, pass, pass, pass: Cid (C) bids 3.
#      Owners C C C A B, Game C: C 4 (made), A 1, B 1. Scores A 2, B 2, C 4, D -4, E 1.
#   3. Bob (2) deals; all five pass: thrown in, Bob deals again.
#   4. Bob deals; calls from seat 3: pass, pass, pass, Ann 3, pass: Ann (A) bids 3.
#      Owners A A C C A, Game A: A 4 (made), C 2. Scores A 6, B 2, C 6, D -4, E 1: A and
#      C both reached 5, and the bidder among them wins: A.
FIVE = ["Ann", "Bob", "Cid", "Dan", "Eve"]
CUTTHROAT_FIVE = [
    played((P, 3, P, 4, P), "clubs", "DADBE", "-"),
    played((P, 3, P, P, P), "hearts", "CCCAB", "C"),
    Deal((P,) * 5),
    played((P, P, P, 3, P), "spades", "AACCA", "A"),
]
# Four alone (c4), target 5, seat 4 deals. Ann (1, A) bids 3 and takes High, Low, Right
# and Game: A 4, B (Gus) the Left: 1, C (Bob) the Joker: 1. Ann deals and bids 3 as the
# dealer after three passes: High, Low and Joker for A (7, made), the Right for B (2),
# the Left for D (Hal, 1), Game tied. A wins; C and D both end on 1 and share third.
FOUR_ALONE = ["Ann", "Gus", "Bob", "Hal"]
CUTTHROAT_FOUR = [played((3, P, P, P), "hearts", "AAABC", "A"),
                  played((P, P, P, 3), "clubs", "AABDA", "-")]
# Four in pairs (A = seats 1 & 3, B = 2 & 4), target 5, seat 1 deals. Calls from seat 2:
# 3, 4 (seat 3, A), pass, pass: A bids 4 and takes High, Low, Left and Joker (4, made),
# B Right and Game (2). Seat 2 deals; seat 3 bids 3 and the rest pass: A takes High and
# Joker and Game (3, made: 7), B Low, Right and Left (5): both reached 5, and the
# bidder's team wins: A, here Cid & Dan.
PAIRS_AT_FOUR = ["Cid", "Ann", "Dan", "Bob"]
TWO_PAIRS = [played((3, 4, P, P), "spades", "AABAA", "B"),
             played((3, P, P, P), "hearts", "ABBBA", "A")]
# Six alone (c6), target 21, seat 1 deals: seat 2 (B) bids 3 and F (seat 6) takes all six
# points, a sweep: B -3, F 6; the game goes on.
SIX_ALONE = ["Ivy", "Joe", "Kim", "Lea", "Max", "Nia"]
CUTTHROAT_SIX = [played((3, P, P, P, P, P), "diamonds", "FFFFF", "F")]


def evening_at_every_table(session: Session, club: Club) -> list[Game]:
    """Tonight at two tables, every table but six in pairs or threes: at table 1 five
    alone (Gus in Cid's seat from hand 3), then six alone (in play); at table 2 four in
    pairs, then four alone. Its games, in the order they began."""
    evening = new_evening(club, utcnow().date())
    five = game_at(session, club, "c5", FIVE, 5, CUTTHROAT_FIVE, target=5, evening=evening)
    substitute(session, five, 3, 3, "Gus")
    return [five, *(game_at(session, club, layout, names, dealer, deals, target=target,
                            evening=evening, table=table)
                    for layout, names, dealer, deals, target, table in (
                        ("2x2", PAIRS_AT_FOUR, 1, TWO_PAIRS, 5, 2),
                        ("c4", FOUR_ALONE, 4, CUTTHROAT_FOUR, 5, 2),
                        ("c6", SIX_ALONE, 1, CUTTHROAT_SIX, 21, 1)))]
