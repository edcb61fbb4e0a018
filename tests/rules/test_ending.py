"""The end of the game: the target, several teams over it, ties and the house rule.

RULES.md, "End of the game".
"""
import pytest

from scorekeeper.rules import HouseRules, Verdict, VerdictKind, judge

THREE_PAIRS = HouseRules()
TWO_TRIOS = HouseRules(teams="2x3")


def scores(a, b, c=None):
    return {"A": a, "B": b} if c is None else {"A": a, "B": b, "C": c}


# --- nobody, or exactly one --------------------------------------------------------

@pytest.mark.parametrize(
    "points", [scores(0, 0, 0), scores(20, 20, 20), scores(20, -4, 19), scores(-30, -1, 0)],
)
def test_nobody_at_the_target_play_on(points):
    verdict = judge(THREE_PAIRS, points, "A", True)
    assert verdict.kind is VerdictKind.PLAYING
    assert verdict.winner is None
    assert not verdict.finished
    assert verdict.target == 21


@pytest.mark.parametrize(
    "points, winner",
    [
        (scores(21, 0, 0), "A"),  # reaching means the target or more
        (scores(20, 21, 20), "B"),
        (scores(-5, 3, 27), "C"),
    ],
)
@pytest.mark.parametrize("bidding_team", ["A", "B", "C"])
@pytest.mark.parametrize("made", [True, False])
def test_exactly_one_team_at_the_target_wins(points, winner, bidding_team, made):
    verdict = judge(THREE_PAIRS, points, bidding_team, made)
    assert verdict.kind is VerdictKind.REACHED
    assert verdict.winner == winner
    assert verdict.finished
    assert verdict.teams == (winner,)
    assert verdict.score == points[winner]


# --- several at the target ---------------------------------------------------------

@pytest.mark.parametrize(
    "points, bidding_team, winner, reached",
    [
        (scores(22, 21, 3), "B", "A", ("A", "B")),  # the bidding team reached it too, lower
        (scores(22, 21, 3), "A", "A", ("A", "B")),
        (scores(21, 25, 23), "A", "B", ("A", "B", "C")),
        (scores(25, 22, 22), "B", "A", ("A", "B", "C")),  # tied below the top: no matter
        (scores(30, 10, 29), "C", "A", ("A", "C")),
    ],
)
def test_several_at_the_target_the_higher_score_wins(points, bidding_team, winner, reached):
    verdict = judge(THREE_PAIRS, points, bidding_team, True)
    assert verdict.kind is VerdictKind.MORE_POINTS
    assert verdict.winner == winner
    assert verdict.score == points[winner]
    assert set(verdict.teams) == set(reached)


@pytest.mark.parametrize(
    "points, bidding_team, tied",
    [
        (scores(22, 22, 3), "A", ("A", "B")),
        (scores(22, 22, 3), "B", ("A", "B")),
        (scores(21, 21, 21), "C", ("A", "B", "C")),
        (scores(24, 10, 24), "C", ("A", "C")),
    ],
)
def test_tied_on_the_highest_score_the_bidding_team_wins_if_among_them(points, bidding_team, tied):
    verdict = judge(THREE_PAIRS, points, bidding_team, True)
    assert verdict.kind is VerdictKind.BIDDER_BREAKS_TIE
    assert verdict.winner == bidding_team
    assert set(verdict.teams) == set(tied)


@pytest.mark.parametrize(
    "points, bidding_team, tied",
    [
        (scores(22, 22, 3), "C", ("A", "B")),  # e.g. C bid and was set
        (scores(25, 20, 25), "B", ("A", "C")),
        (scores(21, 21, -9), "C", ("A", "B")),
        (scores(23, 23, 22), "C", ("A", "B")),  # C reached it too, but is not tied on top
    ],
)
@pytest.mark.parametrize("made", [True, False])
def test_tied_without_the_bidding_team_there_is_no_winner_yet(points, bidding_team, tied, made):
    verdict = judge(THREE_PAIRS, points, bidding_team, made)
    assert verdict.kind is VerdictKind.TIE_PLAY_ON
    assert verdict.winner is None
    assert not verdict.finished
    assert set(verdict.teams) == set(tied)
    assert verdict.score == points[tied[0]]


@pytest.mark.parametrize("bidding_team", ["A", "B"])
def test_with_two_teams_a_tie_at_the_top_always_includes_the_bidding_team(bidding_team):
    verdict = judge(TWO_TRIOS, scores(23, 23), bidding_team, True)
    assert verdict.kind is VerdictKind.BIDDER_BREAKS_TIE
    assert verdict.winner == bidding_team


def test_two_teams_higher_score_wins():
    verdict = judge(TWO_TRIOS, scores(21, 24), "A", True)
    assert verdict.kind is VerdictKind.MORE_POINTS
    assert verdict.winner == "B"


def test_two_teams_exactly_one_reached():
    verdict = judge(TWO_TRIOS, scores(21, -3), "B", False)
    assert verdict.kind is VerdictKind.REACHED
    assert verdict.winner == "A"


# --- "bidder goes out" ---------------------------------------------------------------

OUT = HouseRules(bidder_goes_out=True)


def test_bidder_goes_out_is_off_by_default_so_the_higher_score_wins():
    verdict = judge(THREE_PAIRS, scores(21, 25, 0), "A", True)
    assert verdict.kind is VerdictKind.MORE_POINTS
    assert verdict.winner == "B"


@pytest.mark.parametrize(
    "points, bidding_team",
    [
        (scores(21, 25, 0), "A"),  # another team has more
        (scores(22, 22, 3), "B"),
        (scores(21, 26, 30), "A"),
        (scores(21, 0, 0), "A"),  # alone: wins either way
    ],
)
def test_bidder_goes_out_the_bidding_team_that_makes_it_and_reaches_the_target_wins(points, bidding_team):
    verdict = judge(OUT, points, bidding_team, True)
    assert verdict.kind is VerdictKind.BIDDER_GOES_OUT
    assert verdict.winner == bidding_team
    assert verdict.score == points[bidding_team]


def test_bidder_goes_out_needs_the_bid_made():
    # the bidding team is over the target but was set this hand: the usual rules decide
    verdict = judge(OUT, scores(21, 25, 0), "A", False)
    assert verdict.kind is VerdictKind.MORE_POINTS
    assert verdict.winner == "B"


def test_bidder_goes_out_needs_the_target_reached():
    verdict = judge(OUT, scores(20, 25, 0), "A", True)
    assert verdict.kind is VerdictKind.REACHED
    assert verdict.winner == "B"


def test_bidder_goes_out_with_nobody_there_plays_on():
    verdict = judge(OUT, scores(20, 12, 0), "A", True)
    assert verdict.kind is VerdictKind.PLAYING
    assert verdict.winner is None


def test_bidder_goes_out_a_tie_without_the_bidding_team_still_plays_on():
    verdict = judge(OUT, scores(23, 23, 10), "C", True)
    assert verdict.kind is VerdictKind.TIE_PLAY_ON
    assert verdict.winner is None


def test_bidder_goes_out_with_two_teams():
    rules = HouseRules(teams="2x3", bidder_goes_out=True)
    verdict = judge(rules, scores(21, 30), "A", True)
    assert verdict.kind is VerdictKind.BIDDER_GOES_OUT
    assert verdict.winner == "A"


# --- any target ----------------------------------------------------------------------

@pytest.mark.parametrize("target", [11, 15, 31])
def test_any_target(target):
    rules = HouseRules(target=target)
    below = judge(rules, scores(target - 1, target - 1, 0), "A", True)
    assert below.kind is VerdictKind.PLAYING
    assert below.target == target
    at = judge(rules, scores(target - 1, target, 0), "A", True)
    assert at.kind is VerdictKind.REACHED
    assert at.winner == "B"
    over = judge(rules, scores(target + 1, target, 0), "B", True)
    assert over.kind is VerdictKind.MORE_POINTS
    assert over.winner == "A"


def test_a_target_of_21_is_not_reached_at_20_with_a_target_of_11_it_is():
    points = scores(20, 0, 0)
    assert judge(THREE_PAIRS, points, "B", True).winner is None
    assert judge(HouseRules(target=11), points, "B", True).winner == "A"


def test_verdict_finished_follows_the_winner():
    assert Verdict(VerdictKind.REACHED, 21, "A").finished
    assert not Verdict(VerdictKind.TIE_PLAY_ON, 21, None, ("A", "B"), 22, "C").finished
