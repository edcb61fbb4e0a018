"""The night's moments, for an evening's recap: the biggest bid made, the biggest set,
every sweep of all six points, and the biggest comeback, drawn from the hands. At every
table alike: a team is a pair, a three or, at cutthroat, one player, told by who sat
for it at that hand.

Nothing is stored: the moments are read off the replayed games each time, so a
correction shows in the recap at once. An abandoned game has no moments.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Iterator, Sequence

from scorekeeper.rules import POINTS
from scorekeeper.rules.game import DealResult
from scorekeeper.store.replay import Replay

# A comeback is a win from at least this many points behind the leading team.
COMEBACK_POINTS = 5
MOST_SWEEPS = 3  # told one by one; more are counted


class MomentKind(StrEnum):
    BIGGEST_MADE = "biggest_made"
    BIGGEST_SET = "biggest_set"
    SWEEP = "sweep"
    COMEBACK = "comeback"


@dataclass(frozen=True)
class Moment:
    """One moment: in which game and hand, which team (its players then), and the bid
    and bidder or the points the winner was behind."""

    kind: MomentKind
    game_id: int
    team: str
    players: tuple[str, ...]
    hand: int | None = None
    bidder: str | None = None
    bid: int | None = None
    behind: int | None = None


def team_players(replay: Replay, team: str, number: int) -> tuple[str, ...]:
    """The team's players at hand ``number``, in seat order."""
    names = replay.names_at(number)
    return tuple(names[seat] for seat in replay.rules.team_seats[team])


def played_deals(replays: Sequence[Replay]) -> Iterator[tuple[Replay, DealResult]]:
    """Every hand played out in the evening's counted games, in order."""
    for replay in replays:
        if replay.game.abandoned_at is None:
            yield from ((replay, deal) for deal in replay.state.deals if not deal.thrown_in)


def bid_moment(kind: MomentKind, replay: Replay, deal: DealResult) -> Moment:
    return Moment(kind, replay.game.id, deal.bidding_team,
                  team_players(replay, deal.bidding_team, deal.number), deal.number,
                  replay.names_at(deal.number)[deal.bidder_seat], deal.bid)


def biggest_bid(replays: Sequence[Replay], made: bool) -> Moment | None:
    """The highest bid made (or set) in the evening, the first of equals; a made bid
    that took more points comes first among equal bids."""
    found = [(replay, deal) for replay, deal in played_deals(replays) if deal.made == made]
    if not found:
        return None
    replay, deal = max(found, key=lambda item: (
        item[1].bid, item[1].taken[item[1].bidding_team] if made else 0))
    return bid_moment(MomentKind.BIGGEST_MADE if made else MomentKind.BIGGEST_SET, replay, deal)


def sweeps(replays: Sequence[Replay]) -> list[Moment]:
    """Every hand in which one team took all six points."""
    return [Moment(MomentKind.SWEEP, replay.game.id, team,
                   team_players(replay, team, deal.number), deal.number)
            for replay, deal in played_deals(replays)
            for team, taken in deal.taken.items() if taken == len(POINTS)]


def comeback(replays: Sequence[Replay]) -> Moment | None:
    """The won game whose winner was furthest behind the leading team after a hand, at
    least ``COMEBACK_POINTS`` behind; the first of equals."""
    best = None
    for replay in replays:
        winner = replay.state.winner
        if replay.game.abandoned_at is not None or winner is None:
            continue
        behind = max((max(deal.scores_after.values()) - deal.scores_after[winner]
                      for deal in replay.state.deals), default=0)
        if behind >= COMEBACK_POINTS and (best is None or behind > best.behind):
            last = replay.state.deals[-1].number
            best = Moment(MomentKind.COMEBACK, replay.game.id, winner,
                          team_players(replay, winner, last), behind=behind)
    return best


def evening_moments(replays: Sequence[Replay]) -> list[Moment]:
    """The evening's moments, in the order a recap tells them."""
    found = [biggest_bid(replays, made=True), biggest_bid(replays, made=False),
             *sweeps(replays), comeback(replays)]
    return [moment for moment in found if moment is not None]
