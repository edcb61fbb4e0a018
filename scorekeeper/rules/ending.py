"""The end of the game: who has won after a hand, and why.

RULES.md, "End of the game" (and its house rules *bidder goes out* and *smudge*) and
"Tables of four, five and six" (two to six teams, the same rules: a team is a pair, a
three or one player).
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Mapping

from scorekeeper.rules.table import HIGHEST_BID, HouseRules


class VerdictKind(StrEnum):
    PLAYING = "playing"  # nobody has reached the target
    REACHED = "reached"  # exactly one team reached it
    MORE_POINTS = "more_points"  # several reached it; one has the most
    BIDDER_BREAKS_TIE = "bidder_breaks_tie"  # tied on the most; the bidding team is among them
    TIE_PLAY_ON = "tie_play_on"  # tied on the most, bidding team not among them: play on
    # (only with three teams or more: pairs at six, or cutthroat)
    BIDDER_GOES_OUT = "bidder_goes_out"  # house rule: the bidder made it and reached it
    ALL_SIX = "all_six"  # house rule (smudge): a team took all six points of the hand


@dataclass(frozen=True)
class Verdict:
    """Where the game stands after a hand.

    ``teams`` are the teams the verdict speaks of (those that reached the target, or
    the tied ones), ``score`` the score that decided it, ``bidding_team`` the bidder's.
    """

    kind: VerdictKind
    target: int
    winner: str | None = None
    teams: tuple[str, ...] = ()
    score: int | None = None
    bidding_team: str | None = None

    @property
    def finished(self) -> bool:
        return self.winner is not None


def won_by_the_hand(rules: HouseRules, taken: Mapping[str, int] | None) -> str | None:
    """The team that wins the game by the hand alone, whatever the scores: with the house
    rule *smudge*, the team that took all six points of it (bidding or not); else none."""
    if not rules.smudge or taken is None:
        return None
    return next((team for team, points in taken.items() if points == HIGHEST_BID), None)


def judge(
    rules: HouseRules,
    scores: Mapping[str, int],
    bidding_team: str,
    made: bool,
    taken: Mapping[str, int] | None = None,
) -> Verdict:
    """Check the end of the game after a played hand (RULES.md, "End of the game"):
    ``scores`` after it; ``taken``, the points each team took in it (left out, the hand
    alone is not looked at: the scores decide)."""
    target = rules.target
    swept = won_by_the_hand(rules, taken)
    if swept is not None:
        return Verdict(VerdictKind.ALL_SIX, target, swept, (swept,), scores[swept],
                       bidding_team)
    if rules.bidder_goes_out and made and scores[bidding_team] >= target:
        return Verdict(
            VerdictKind.BIDDER_GOES_OUT, target, bidding_team, (bidding_team,),
            scores[bidding_team], bidding_team,
        )
    reached = tuple(team for team in rules.team_names if scores[team] >= target)
    if not reached:
        return Verdict(VerdictKind.PLAYING, target, bidding_team=bidding_team)
    if len(reached) == 1:
        (team,) = reached
        return Verdict(VerdictKind.REACHED, target, team, reached, scores[team], bidding_team)
    best = max(scores[team] for team in reached)
    leaders = tuple(team for team in reached if scores[team] == best)
    if len(leaders) == 1:
        return Verdict(
            VerdictKind.MORE_POINTS, target, leaders[0], reached, best, bidding_team
        )
    if bidding_team in leaders:
        return Verdict(
            VerdictKind.BIDDER_BREAKS_TIE, target, bidding_team, leaders, best, bidding_team
        )
    return Verdict(VerdictKind.TIE_PLAY_ON, target, None, leaders, best, bidding_team)
