"""What each team needs to go out in the next hand, from the scores as they stand.

RULES.md, "What each team needs" (for two to six teams: "Tables of four, five and six").
Every way the next hand can end (any team bidding any bid of the game's, the points
split among the teams in every way) is scored and judged by the same rules as a played
hand; each team's needs are read off those ends. A win by a smudge alone (the house
rule: all six points win, whatever the scores) is not said: every team may win so.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import product
from typing import Iterable, Iterator, Mapping

from scorekeeper.rules.ending import Verdict, VerdictKind, judge
from scorekeeper.rules.scoring import POINTS
from scorekeeper.rules.table import HouseRules

ALL_POINTS = len(POINTS)  # six; five when Game is tied


@dataclass(frozen=True)
class Ending:
    """One way the next hand can end: who bid what, who took how many points, and the
    verdict after it (``plain_winner``: the winner were *bidder goes out* off;
    ``unswept_winner``: the winner were *smudge* off)."""

    bidding_team: str
    bid: int
    taken: Mapping[str, int]
    verdict: Verdict
    plain_winner: str | None
    unswept_winner: str | None = None

    @property
    def made(self) -> bool:
        return self.taken[self.bidding_team] >= self.bid


@dataclass(frozen=True)
class Way:
    """The fewest points a team must take, in one role, to go out next hand whatever the
    others bid and take. ``tie_break``: some of those wins are a tie at the top that goes
    to the team as the bidder. ``goes_out``: some of them are won only by the house rule
    *bidder goes out*.
    """

    points: int
    tie_break: bool = False
    goes_out: bool = False


@dataclass(frozen=True)
class Need:
    """What one team needs: ``short`` of the target now, and its way as the bidding
    team (making its bid) and without the bid; None where it can't go out so."""

    team: str
    short: int
    bidding: Way | None
    not_bidding: Way | None

    @property
    def can_go_out(self) -> bool:
        return self.bidding is not None or self.not_bidding is not None


def splits(teams: tuple[str, ...]) -> Iterator[dict[str, int]]:
    """Every split of one hand's points among the teams: six, or five when Game is tied
    (every point but Game always goes to a team)."""
    for total in (ALL_POINTS, ALL_POINTS - 1):
        for shares in shares_of(total, len(teams)):
            yield dict(zip(teams, shares))


def shares_of(points: int, teams: int) -> Iterator[tuple[int, ...]]:
    """Every way ``points`` go to ``teams`` teams in turn (each taking 0 or more)."""
    if teams == 1:
        yield (points,)
        return
    for first in range(points + 1):
        for rest in shares_of(points - first, teams - 1):
            yield (first, *rest)


def next_hand_endings(rules: HouseRules, scores: Mapping[str, int]) -> list[Ending]:
    """Every way the next played hand can end, judged as the game would judge it."""
    plain = rules.with_house(bidder_goes_out=False)
    unswept = rules.with_house(smudge=False)
    endings = []
    for bidding_team, bid, taken in product(rules.team_names, rules.bids,
                                            list(splits(rules.team_names))):
        made = taken[bidding_team] >= bid
        after = {team: scores[team] + taken[team] for team in scores}
        if not made:
            after[bidding_team] = scores[bidding_team] - bid
        verdict = judge(rules, after, bidding_team, made, taken)
        plain_winner = judge(plain, after, bidding_team, made, taken).winner \
            if rules.bidder_goes_out else verdict.winner
        unswept_winner = judge(unswept, after, bidding_team, made).winner \
            if rules.smudge else verdict.winner
        endings.append(Ending(bidding_team, bid, taken, verdict, plain_winner, unswept_winner))
    return endings


def fewest(team: str, endings: list[Ending], points: Iterable[int]) -> Way | None:
    """The fewest points with which ``team`` wins in every one of ``endings`` where it
    takes them; None where no number of points does. (A team that can win the next
    hand at all can be sure of it with enough points: the tests play that out.)"""
    taking: dict[int, list[Ending]] = {}
    for ending in endings:
        taking.setdefault(ending.taken[team], []).append(ending)
    for p in points:
        ends = taking.get(p, [])
        if ends and all(e.verdict.winner == team for e in ends):
            if all(e.unswept_winner != team for e in ends):
                return None  # (all six points, won by a smudge alone: not said)
            return Way(
                p,
                tie_break=any(e.verdict.kind is VerdictKind.BIDDER_BREAKS_TIE for e in ends),
                goes_out=any(e.plain_winner != team for e in ends),
            )
    return None


def team_needs(rules: HouseRules, scores: Mapping[str, int]) -> tuple[Need, ...]:
    """What each team needs to go out in the next hand (team A first). No hand brings a
    team more than six points: while every team is further off, none can go out, and
    nothing needs working out. Otherwise worked out once for each rules and scores
    (every phone of a table asks it of the same ones)."""
    if all(rules.target - scores[team] > ALL_POINTS for team in rules.team_names):
        return tuple(Need(team, rules.target - scores[team], None, None)
                     for team in rules.team_names)
    return _worked_needs(rules, tuple(sorted(scores.items())))


@lru_cache(maxsize=1024)
def _worked_needs(rules: HouseRules, score_items: tuple[tuple[str, int], ...]
                  ) -> tuple[Need, ...]:
    scores = dict(score_items)
    endings = next_hand_endings(rules, scores)
    needs = []
    for team in rules.team_names:
        bidding = [e for e in endings if e.bidding_team == team and e.made]
        others_bid = [e for e in endings if e.bidding_team != team]
        needs.append(Need(
            team, max(0, rules.target - scores[team]),
            fewest(team, bidding, range(rules.bids[0], ALL_POINTS + 1)),
            fewest(team, others_bid, range(ALL_POINTS + 1)),
        ))
    return tuple(needs)
