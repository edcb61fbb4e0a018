"""Player statistics, counted from replayed games and checked against figures worked out
by hand from RULES.md.

The history (three pairs: A = seats 1 & 4, B = 2 & 5, C = 3 & 6; target 5). Calls are
listed from the dealer's left, clockwise; "owners" are the teams that took High, Low,
Right, Left and Joker, then Game ("-" when the most game value was tied).

Game 1, first dealer seat 1. Seats: 1 Ann, 2 Bob, 3 Cid, 4 Dan, 5 Eve, 6 Fay
  (A = Ann & Dan, B = Bob & Eve, C = Cid & Fay).
  1. Ann deals; all six pass: thrown in, Ann deals again.
  2. Ann deals; Bob (B) bids 4. Owners A B B C C, Game A: A 2, B 2, C 2.
     B took 2 < 4: set. Scores A 2, B -4, C 2.
  3. Bob deals; Dan (A) bids 3 (Cid passed before him). Owners A A A B C, Game tied:
     A 3, B 1, C 1. A made. Scores A 5, B -3, C 3: A alone reached 5, A wins.
Game 2, first dealer seat 1. Seats: 1 Ann, 2 Gus, 3 Cid, 4 Bob, 5 Dan, 6 Fay
  (A = Ann & Bob, B = Gus & Dan, C = Cid & Fay).
  1. Ann deals; Gus 3, Cid 4, Bob passes, Dan (B) 5, Fay and Ann pass: Dan bids 5.
     Owners B B B B A, Game B: A 1, B 5, C 0. B made, B 5: B wins.
Game 3, first dealer seat 3, seated as game 1. Still in play.
  1. Cid deals; Dan and Eve pass, Fay (C) bids 6 and the auction ends. Owners C C C A C,
     Game C: A 1, B 0, C 5. C set (5 < 6). Scores A 1, B 0, C -6.
  2. Dan deals; all pass: thrown in, Dan deals again.
  3. Dan deals; five pass, Dan (A) bids 3. Owners A C A B B, Game tied: A 2, B 2, C 1.
     A set. Scores A -2, B 2, C -5: nobody has 5, the game goes on.

Played hands: game 1 two (2, 3), game 2 one, game 3 two (1, 3). Throw-ins: Ann (game 1),
Dan (game 3).
"""
from __future__ import annotations

import pytest

from scorekeeper.figures.stats import FIGURES, SeatedGame, TrendPoint, player_stats, rank, thinned
from scorekeeper.rules import Deal, HouseRules, Point, replay as replay_deals
from scorekeeper.store.models import Game
from scorekeeper.store.replay import Replay
from scorekeeper.store.sittings import Sitting
from tests.table_games import CUTTHROAT_FIVE, FIVE, TWO_PAIRS, played

P = "pass"
ALL_PASS = (P,) * 6
IDS = {"Ann": 1, "Bob": 2, "Cid": 3, "Dan": 4, "Eve": 5, "Fay": 6, "Gus": 7}
FIRST = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"]  # games 1 and 3
SECOND = ["Ann", "Gus", "Cid", "Bob", "Dan", "Fay"]  # game 2


def seated(game_id, names, first_dealer, deals, *, teams="3x2", target=5) -> SeatedGame:
    """A game replayed by the rules engine, as ``load_table`` would give it."""
    rules = HouseRules(teams=teams, target=target)
    game = Game(id=game_id, club_id=1, teams=teams, target=target, first_dealer=first_dealer)
    seats = dict(enumerate(names, start=1))
    replay = Replay(game, rules, seats, (), replay_deals(rules, first_dealer, deals))
    return SeatedGame(replay, {seat: IDS[name] for seat, name in seats.items()})


def history() -> list[SeatedGame]:
    one = seated(1, FIRST, 1, [
        Deal(ALL_PASS),
        played((4, P, P, P, P, P), "hearts", "ABBCC", "A"),
        played((P, 3, P, P, P, P), "spades", "AAABC", "-"),
    ])
    two = seated(2, SECOND, 1, [
        played((3, 4, P, 5, P, P), "clubs", "BBBBA", "B"),
    ])
    three = seated(3, FIRST, 3, [
        played((P, P, 6), "clubs", "CCCAC", "C"),
        Deal(ALL_PASS),
        played((P, P, P, P, P, 3), "diamonds", "ACABB", "-"),
    ])
    return [one, two, three]


@pytest.fixture
def stats():
    by_id = player_stats(history())
    return {s.name: s for s in by_id.values()}


def test_the_history_replays_as_worked_out_above():
    one, two, three = (game.replay.state for game in history())
    assert (one.finished, one.winner, one.scores) == (True, "A", {"A": 5, "B": -3, "C": 3})
    assert (two.finished, two.winner, two.scores) == (True, "B", {"A": 1, "B": 5, "C": 0})
    assert (three.finished, three.scores) == (False, {"A": -2, "B": 2, "C": -5})


def test_games_played_won_lost_and_win_rate(stats):
    # Ann: won game 1 (A), lost game 2 (A), game 3 in play -> 3 played, 1-1, 1/2.
    # Bob: lost 1 (B) and 2 (A). Cid, Fay: lost 1 and 2 (C). Dan: won 1 (A) and 2 (B).
    # Eve: lost 1 (B), no game 2. Gus: only game 2, won with B.
    expected = {
        "Ann": (3, 1, 1, 1 / 2), "Bob": (3, 0, 2, 0.0), "Cid": (3, 0, 2, 0.0),
        "Dan": (3, 2, 0, 1.0), "Eve": (2, 0, 1, 0.0), "Fay": (3, 0, 2, 0.0),
        "Gus": (1, 1, 0, 1.0),
    }
    assert {name: (s.played, s.won, s.lost, s.win_rate) for name, s in stats.items()} == expected


def test_partners_and_the_record_with_each(stats):
    # Ann: Dan in games 1 (won) and 3 (in play), Bob in game 2 (lost).
    assert [(name, r.played, r.won, r.lost) for _, name, r in stats["Ann"].partners_by_games()] \
        == [("Dan", 2, 1, 0), ("Bob", 1, 0, 1)]
    # Dan: Ann in games 1 (won) and 3, Gus in game 2 (won).
    assert [(name, r.played, r.won, r.lost, r.win_rate)
            for _, name, r in stats["Dan"].partners_by_games()] \
        == [("Ann", 2, 1, 0, 1.0), ("Gus", 1, 1, 0, 1.0)]
    # Bob: Eve in games 1 (lost) and 3, Ann in game 2 (lost).
    assert [(name, r.played, r.won, r.lost) for _, name, r in stats["Bob"].partners_by_games()] \
        == [("Eve", 2, 0, 1), ("Ann", 1, 0, 1)]
    # Cid and Fay sat together all three games and lost the two that ended.
    assert [(name, r.played, r.won, r.lost) for _, name, r in stats["Cid"].partners_by_games()] \
        == [("Fay", 3, 0, 2)]
    assert [(pid, name) for pid, name, _ in stats["Gus"].partners_by_games()] \
        == [(IDS["Dan"], "Dan")]


def test_bids_per_level_made_and_set(stats):
    # The bidders: Bob 4 (set, B took 2), Dan 3 (made, A took 3), Dan 5 (made, B took 5),
    # Fay 6 (set, C took 5), Dan 3 (set, A took 2). Gus and Cid bid but were outbid.
    dan = stats["Dan"]
    assert {level: (b.bids, b.made, b.set_back) for level, b in dan.bid_levels.items()} \
        == {3: (2, 1, 1), 4: (0, 0, 0), 5: (1, 1, 0), 6: (0, 0, 0)}
    assert [dan.bid_levels[level].made_rate for level in (3, 4, 5, 6)] == [1 / 2, None, 1.0, None]
    assert (dan.bids, dan.made, dan.set_back, dan.made_rate) == (3, 2, 1, 2 / 3)
    assert dan.average_taken == (3 + 5 + 2) / 3  # 3.33...
    bob, fay = stats["Bob"], stats["Fay"]
    assert (bob.bids, bob.bid_levels[4].bids, bob.set_back, bob.made_rate, bob.average_taken) \
        == (1, 1, 1, 0.0, 2.0)
    assert (fay.bids, fay.bid_levels[6].bids, fay.set_back, fay.made_rate, fay.average_taken) \
        == (1, 1, 1, 0.0, 5.0)
    for name in ("Ann", "Cid", "Eve", "Gus"):
        assert (stats[name].bids, stats[name].made_rate, stats[name].average_taken) \
            == (0, None, None)


def test_points_taken_by_kind_per_hand(stats):
    # Per played hand, what each player's team took (H L R Lf J G):
    #   g1h2 A: H G     B: L R      C: Lf J
    #   g1h3 A: H L R   B: Lf       C: J        (Game tied: nobody)
    #   g2h1 A(Ann, Bob): J   B(Gus, Dan): H L R Lf G   C: -
    #   g3h1 A: Lf      B: -        C: H L R J G
    #   g3h3 A: H R     B: Lf J     C: L        (Game tied: nobody)
    counts = {name: tuple(s.points_taken[p] for p in Point) for name, s in stats.items()}
    assert counts == {
        "Ann": (3, 1, 2, 1, 1, 1),  # 9 points in 5 hands
        "Dan": (4, 2, 3, 2, 0, 2),  # 13 in 5
        "Bob": (0, 1, 1, 2, 2, 0),  # 6 in 5
        "Eve": (0, 1, 1, 2, 1, 0),  # 5 in 4 (no game 2)
        "Cid": (1, 2, 1, 1, 3, 1),  # 9 in 5
        "Fay": (1, 2, 1, 1, 3, 1),
        "Gus": (1, 1, 1, 1, 0, 1),  # 5 in 1
    }
    assert {name: s.hands_played for name, s in stats.items()} == {
        "Ann": 5, "Bob": 5, "Cid": 5, "Dan": 5, "Eve": 4, "Fay": 5, "Gus": 1}
    assert [stats["Dan"].per_hand(p) for p in Point] == [4 / 5, 2 / 5, 3 / 5, 2 / 5, 0.0, 2 / 5]
    assert [stats["Eve"].per_hand(p) for p in Point] == [0.0, 1 / 4, 1 / 4, 2 / 4, 1 / 4, 0.0]
    assert {name: s.points_per_hand for name, s in stats.items()} == {
        "Ann": 9 / 5, "Bob": 6 / 5, "Cid": 9 / 5, "Dan": 13 / 5, "Eve": 5 / 4, "Fay": 9 / 5,
        "Gus": 5 / 1}
    # Each point counts for both players of its team: 6+5+6+6+5 = 28 points given out.
    assert sum(s.all_points for s in stats.values()) == 2 * 28


def test_throw_ins_dealt(stats):
    assert {name: s.throw_ins_dealt for name, s in stats.items()} == {
        "Ann": 1, "Bob": 0, "Cid": 0, "Dan": 1, "Eve": 0, "Fay": 0, "Gus": 0}


def names(ranked) -> list[str]:
    return [s.name for s in ranked]


def test_the_leaderboard_sorts_by_a_figure_ties_by_games_won_then_name(stats):
    everyone = list(stats.values())
    # Win rate: Dan 1.0 (2 won) before Gus 1.0 (1 won); Ann 1/2; 0 for the rest, by name.
    assert names(rank(everyone)) == ["Dan", "Gus", "Ann", "Bob", "Cid", "Eve", "Fay"]
    # Played: 3 for Ann, Bob, Cid, Dan, Fay (Dan won 2, Ann 1, then by name); Eve 2; Gus 1.
    assert names(rank(everyone, "played")) == ["Dan", "Ann", "Bob", "Cid", "Fay", "Eve", "Gus"]
    # Points per bid: Fay 5, Dan 3.33, Bob 2; nobody else bid, so they come last.
    assert names(rank(everyone, "taken")) == ["Fay", "Dan", "Bob", "Ann", "Gus", "Cid", "Eve"]
    # Points per hand: Gus 5, Dan 2.6, Ann/Cid/Fay 1.8 (Ann won a game), Eve 1.25, Bob 1.2.
    assert names(rank(everyone, "points")) == ["Gus", "Dan", "Ann", "Cid", "Fay", "Eve", "Bob"]
    assert names(rank(everyone, "name")) == ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus"]
    # Lowest first: ties keep their order (games won, then name); no figure stays last.
    assert names(rank(everyone, "win_rate", descending=False)) == [
        "Bob", "Cid", "Eve", "Fay", "Ann", "Dan", "Gus"]
    assert names(rank(everyone, "made_rate", descending=False)) == [
        "Bob", "Fay", "Dan", "Ann", "Gus", "Cid", "Eve"]


def test_the_minimum_of_games_keeps_one_lucky_game_off_the_top(stats):
    everyone = list(stats.values())
    assert names(rank(everyone, min_games=2)) == ["Dan", "Ann", "Bob", "Cid", "Eve", "Fay"]
    assert names(rank(everyone, min_games=3)) == ["Dan", "Ann", "Bob", "Cid", "Fay"]
    assert rank(everyone, min_games=4) == []


def test_every_figure_can_be_sorted_on(stats):
    for key in FIGURES:
        assert sorted(names(rank(stats.values(), key))) == sorted(IDS)


def test_two_teams_of_three_have_two_partners_each():
    # Seats 1, 3, 5 (A) against 2, 4, 6 (B), target 5. Ann (seat 1) deals; Bob (2, B)
    # bids 3, owners B B B A A, Game B: B 4 made, A 2. Then Bob deals; Cid (3, A) bids 6
    # and takes everything: A 2 + 6 = 8, B 4; A reached 5 alone and wins.
    game = seated(9, FIRST, 1, [
        played((3, P, P, P, P, P), "spades", "BBBAA", "B"),
        played((6,), "hearts", "AAAAA", "A"),
    ], teams="2x3")
    assert (game.replay.state.winner, game.replay.state.scores) == ("A", {"A": 8, "B": 4})
    stats = {s.name: s for s in player_stats([game]).values()}
    assert [(name, r.won) for _, name, r in stats["Ann"].partners_by_games()] \
        == [("Cid", 1), ("Eve", 1)]
    assert [(name, r.lost) for _, name, r in stats["Bob"].partners_by_games()] \
        == [("Dan", 1), ("Fay", 1)]
    # Ann's team took Left, Joker, then all six: 8 points; Bob's: High, Low, Right, Game.
    assert (stats["Ann"].all_points, stats["Bob"].all_points) == (8, 4)
    assert stats["Cid"].bid_levels[6].made == 1 and stats["Cid"].average_taken == 6.0


def test_a_game_without_hands_is_played_but_neither_won_nor_lost():
    stats = {s.name: s for s in player_stats([seated(5, FIRST, 1, [])]).values()}
    ann = stats["Ann"]
    assert (ann.played, ann.won, ann.lost, ann.win_rate) == (1, 0, 0, None)
    assert (ann.hands_played, ann.points_per_hand, ann.per_hand(Point.HIGH)) == (0, None, None)
    assert names(rank(stats.values())) == ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"]


def test_nothing_counted_without_games():
    assert player_stats([]) == {}
    assert rank([]) == []


@pytest.mark.parametrize("count, every, kept", [
    (0, 1, 0), (1, 1, 1), (24, 1, 24), (25, 2, 13), (48, 2, 24), (49, 3, 17), (1000, 42, 24),
])
def test_a_long_trend_keeps_one_point_in_so_many_evenings_ending_at_the_latest(
        count, every, kept):
    points = [TrendPoint(i, i, None, None) for i in range(count)]
    shown, step = thinned(points)
    assert (step, len(shown)) == (every, kept)
    if points:
        assert shown[-1] is points[-1]
        assert all(b.evening_id - a.evening_id == every for a, b in zip(shown, shown[1:]))


def with_substitute(game: SeatedGame, seat: int, from_hand: int, name: str) -> SeatedGame:
    """The game with ``name`` in ``seat`` from hand ``from_hand`` on."""
    replay = game.replay
    seating = tuple(sorted((*(Sitting(s, 1, n, IDS[n]) for s, n in replay.names.items()),
                            Sitting(seat, from_hand, name, IDS[name])),
                           key=lambda s: (s.seat, s.from_hand)))
    return SeatedGame(Replay(replay.game, replay.rules, replay.names, (), replay.state,
                             seating), game.players)


def test_at_five_cutthroat_each_player_is_a_team_and_nobody_a_partner():
    game = seated(10, FIVE, 5, CUTTHROAT_FIVE, teams="c5")
    state = game.replay.state
    assert (state.winner, state.scores) == ("A", {"A": 6, "B": 2, "C": 6, "D": -4, "E": 1})
    stats = {s.name: s for s in player_stats([game]).values()}
    assert {name: (s.played, s.won, s.lost) for name, s in stats.items()} == {
        "Ann": (1, 1, 0), "Bob": (1, 0, 1), "Cid": (1, 0, 1), "Dan": (1, 0, 1),
        "Eve": (1, 0, 1)}
    assert all(not s.partners for s in stats.values())
    assert [name for _, name, _ in stats["Ann"].rivals_by_games()] == ["Bob", "Cid", "Dan", "Eve"]
    # Each player took their own points alone: Cid High, Low, Right and Game in hand 2.
    assert {name: s.all_points for name, s in stats.items()} == {
        "Ann": 1 + 1 + 4, "Bob": 1 + 1, "Cid": 4 + 2, "Dan": 2, "Eve": 1}
    assert (stats["Dan"].bid_levels[4].bids, stats["Dan"].set_back) == (1, 1)
    assert stats["Bob"].throw_ins_dealt == 1
    assert {name: s.hands_played for name, s in stats.items()} == dict.fromkeys(FIVE, 3)


def test_a_substitute_at_five_is_counted_for_the_hands_they_sat_only():
    # Gus takes Cid's seat (3, C) from hand 3. Five seats and one substitute make six
    # stretches, as many as a table of six without one: each hand still counts for
    # whoever sat at it.
    game = with_substitute(seated(10, FIVE, 5, CUTTHROAT_FIVE, teams="c5"), 3, 3, "Gus")
    stats = {s.name: s for s in player_stats([game]).values()}
    assert (stats["Cid"].hands_played, stats["Gus"].hands_played) == (2, 1)
    # Cid: hand 2's High, Low, Right and Game; Gus: hand 4's Right and Left.
    assert (stats["Cid"].all_points, stats["Gus"].all_points) == (4, 2)
    assert (stats["Cid"].bids, stats["Gus"].bids) == (1, 0)
    assert (stats["Cid"].games.lost, stats["Gus"].games.lost) == (1, 1)


def test_four_in_pairs_are_partners_across_the_table():
    # tests/table_games.py's game: Ann & Cid (A) bid 4 and 3, make both, and win 7 to 5.
    game = seated(11, FIRST[:4], 1, TWO_PAIRS, teams="2x2")
    assert (game.replay.state.winner, game.replay.state.scores) == ("A", {"A": 7, "B": 5})
    stats = {s.name: s for s in player_stats([game]).values()}
    assert [(name, r.won) for _, name, r in stats["Ann"].partners_by_games()] == [("Cid", 1)]
    assert [(name, r.lost) for _, name, r in stats["Dan"].partners_by_games()] == [("Bob", 1)]
    assert [name for _, name, _ in stats["Ann"].rivals_by_games()] == ["Bob", "Dan"]
    assert (stats["Cid"].bids, stats["Cid"].made, stats["Ann"].all_points) == (2, 2, 7)
