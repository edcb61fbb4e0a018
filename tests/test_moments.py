"""The night's moments for an evening's recap, checked against hands worked out by hand.

The evening of tests/test_stats.py (target 5): Bob bids 4 and is set (game 1, hand 2);
Dan bids 3 and makes it (game 1, hand 3); Dan bids 5 and makes it with 5 (game 2); Fay
bids 6 and is set (game 3, hand 1); Dan bids 3 and is set (game 3, hand 3). Nobody
takes all six, and game 1's winner A was never behind.

The comeback game (three pairs to 9, Ann deals): 1. Bob (B) bids 6 and B takes all six:
A 0, B 6, C 0. 2. Bob deals; Dan (A) bids 3 and A takes all six: A 6, B 6, C 0. 3. Cid
deals; Fay (C) bids 3, A takes 4, B and C 1 each: C is set: A 10, B 7, C -3. A wins
from 6 behind.
"""
from __future__ import annotations

from datetime import datetime, timezone

from scorekeeper.figures.moments import Moment, MomentKind, evening_moments, team_players
from scorekeeper.rules import Deal
from tests.table_games import CUTTHROAT_FIVE, CUTTHROAT_SIX, FIVE, TWO_PAIRS
from tests.test_stats import P, history, played, seated, with_substitute

NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"]


def comeback_game(game_id: int = 4):
    return seated(game_id, NAMES, 1, [
        played((6,), "hearts", "BBBBB", "B"),
        played((P, 3, P, P, P, P), "spades", "AAAAA", "A"),
        played((P, P, 3, P, P, P), "clubs", "AAABC", "A"),
    ], target=9).replay


def test_the_biggest_bid_made_and_the_biggest_set_of_an_evening():
    moments = evening_moments([seated.replay for seated in history()])
    assert moments == [
        Moment(MomentKind.BIGGEST_MADE, 2, "B", ("Gus", "Dan"), 1, "Dan", 5),
        Moment(MomentKind.BIGGEST_SET, 3, "C", ("Cid", "Fay"), 1, "Fay", 6),
    ]


def test_every_sweep_and_the_comeback_from_six_behind():
    moments = evening_moments([comeback_game()])
    assert [m for m in moments if m.kind is MomentKind.SWEEP] == [
        Moment(MomentKind.SWEEP, 4, "B", ("Bob", "Eve"), 1),
        Moment(MomentKind.SWEEP, 4, "A", ("Ann", "Dan"), 2),
    ]
    assert moments[-1] == Moment(MomentKind.COMEBACK, 4, "A", ("Ann", "Dan"), behind=6)
    made = next(m for m in moments if m.kind is MomentKind.BIGGEST_MADE)
    assert (made.bidder, made.bid, made.hand) == ("Bob", 6, 1)


def test_an_abandoned_game_and_a_throw_in_have_no_moments():
    game = comeback_game()
    game.game.abandoned_at = datetime(2026, 12, 2, tzinfo=timezone.utc)
    assert evening_moments([game]) == []
    thrown = seated(5, NAMES, 1, [Deal((P,) * 6)]).replay
    assert evening_moments([thrown]) == []


def test_at_tables_of_four_five_and_six_alone_a_moment_names_one_player_or_a_pair():
    # tests/table_games.py's games: five alone (Gus in Cid's seat from hand 3), six alone
    # (here Fay takes all six points, and Bob is set), four in pairs (Cid bids 4 and
    # makes it, the evening's biggest bid made).
    five = with_substitute(seated(10, FIVE, 5, CUTTHROAT_FIVE, teams="c5"), 3, 3, "Gus")
    six = seated(11, NAMES, 1, CUTTHROAT_SIX, teams="c6", target=21)
    pairs = seated(12, NAMES[:4], 1, TWO_PAIRS, teams="2x2")
    assert evening_moments([five.replay, six.replay, pairs.replay]) == [
        Moment(MomentKind.BIGGEST_MADE, 12, "A", ("Ann", "Cid"), 1, "Cid", 4),
        Moment(MomentKind.BIGGEST_SET, 10, "D", ("Dan",), 1, "Dan", 4),
        Moment(MomentKind.SWEEP, 11, "F", ("Fay",), 1),
    ]
    # A moment's team is told as it sat at the hand: C was Cid, then Gus.
    assert [team_players(five.replay, "C", hand) for hand in (2, 4)] == [("Cid",), ("Gus",)]
