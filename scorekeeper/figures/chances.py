"""Each team's chance to win from here: the rest of the game played out many times.

Every simulated hand is one this club really played (the winning bid and where it sat,
and what each team took), re-seated around the simulated hand's dealer, and the rules
engine scores it and judges the end: the target, the tie-breaks and every house rule
are the game's own (a hand that wins the game by itself, whatever the scores, ends it
there). A throw-in changes no score and not the deal, so only played hands are drawn;
a club's hand at a bid this game's rules don't have is not drawn either.

The hands come from the club's most recent games of the same layout, those recorded
before this game began: what a game is shown is then fixed by its own revision. A club
with few hands yet leans on a neutral default (``DEFAULT_HANDS``: the bid from any
seat alike, made about two times in three), which counts as ``DEFAULT_WEIGHT`` hands
of the club's own, so the club's style takes over as its hands pile up; a new club, or
one that has only thrown in, plays the default alone.

The random draws are seeded by where the game stands (``seed_for``): a revision shows
the same numbers on every server, every time. They are kept per revision for the pages that
show them again (under the game's id, revision and creation: a key never stands for
two states), but nothing depends on that: worked out afresh, they come out the same.
Far from the target, where too few games could be played out in time to tell, there
are none.
"""
from __future__ import annotations

import random
from array import array
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterator, Sequence

from sqlmodel import Session, select

from scorekeeper.rules import (
    CARD_POINTS, PASS, SEATS, Deal, GameState, HouseRules, Tally, TeamLayout, judge, left_of,
    team_of,
)
from scorekeeper.rules.ending import won_by_the_hand
from scorekeeper.rules.game import play_deal
from scorekeeper.store.kept import LockedLRU
from scorekeeper.store.models import Game
from scorekeeper.store.replay import Replay, load_replays

SIMULATED_GAMES = 2000
# Simulated hands per revision at most: a game to a far target plays fewer games out.
HAND_BUDGET = 40_000
MIN_GAMES = 500  # fewer played out within the budget: too soon to tell
TRIAL_GAMES = 20  # played first, to tell whether MIN_GAMES would fit
HISTORY_GAMES = 50  # the club's most recent games its hands are drawn from (~600 hands)
DEFAULT_WEIGHT = 30  # the neutral default counts as this many of the club's own hands

# The neutral default: (bid, what the bidding team took, what each other team took),
# how often in 40 hands. Each is bid from every seat alike, the others' points either
# way round; with two teams the other team takes both shares. A hand of 5 points is
# one whose Game was tied.
DEFAULT_HANDS = (
    ((3, 3, (2, 1)), 7), ((3, 4, (1, 1)), 4), ((3, 4, (2, 0)), 2), ((3, 5, (1, 0)), 1),
    ((3, 2, (2, 2)), 3), ((3, 2, (3, 1)), 2), ((3, 1, (3, 2)), 1),
    ((4, 4, (1, 1)), 5), ((4, 5, (1, 0)), 3), ((4, 3, (2, 1)), 4), ((4, 3, (2, 0)), 1),
    ((5, 5, (1, 0)), 3), ((5, 4, (1, 1)), 2),
    ((6, 6, (0, 0)), 1), ((6, 5, (1, 0)), 1),
)


@dataclass(frozen=True)
class Shape:
    """A played hand seen from its dealer, so that it can be dealt again by any seat.

    ``bidder``: seats from the dealer to the bidder, clockwise (6: the dealer bid).
    ``taken``: the points each team took, the dealer's team first, then the others in
    the order their seats follow the dealer's.
    """

    bidder: int
    bid: int
    taken: tuple[int, ...]


def _seat_after(seat: int, steps: int) -> int:
    for _ in range(steps):
        seat = left_of(seat)
    return seat


@lru_cache(maxsize=None)
def teams_from(layout: TeamLayout, dealer: int) -> tuple[str, ...]:
    """The teams in the order their seats follow ``dealer``, the dealer's team first."""
    order: list[str] = []
    seat = dealer
    for _ in SEATS:
        team = team_of(seat, layout)
        if team not in order:
            order.append(team)
        seat = left_of(seat)
    return tuple(order)


def shape_of(rules: HouseRules, dealer: int, bidder: int, bid: int,
             taken: dict[str, int]) -> Shape:
    """A played hand as a ``Shape``: its dealer, bidder seat, bid and each team's points."""
    steps = (bidder - dealer) % 6 or 6
    return Shape(steps, bid, tuple(taken[team] for team in teams_from(rules.teams, dealer)))


def reseated(rules: HouseRules, shape: Shape, dealer: int) -> Deal:
    """``shape`` dealt by ``dealer``: the winning bid with every other seat passing, and
    a tally giving each team its points (Game to nobody in a hand of five)."""
    calls = [PASS] * 6
    calls[shape.bidder - 1] = shape.bid
    calls = calls[:shape.bidder] if shape.bid == 6 else calls  # a 6 ends the bidding
    owners = [team for team, points in zip(teams_from(rules.teams, dealer), shape.taken)
              for _ in range(points)]
    card_points = {point.value: team for point, team in zip(CARD_POINTS, owners)}
    game = owners[len(CARD_POINTS)] if len(owners) > len(CARD_POINTS) else None
    return Deal(tuple(calls), "hearts", Tally(card_points, game))  # (any trump scores alike)


def default_shapes(rules: HouseRules) -> dict[Shape, float]:
    """The neutral default, each shape with its weight (all together DEFAULT_WEIGHT)."""
    two = len(rules.team_names) == 2
    variants: dict[Shape, float] = {}
    total = sum(weight for _, weight in DEFAULT_HANDS)
    for (bid, took, others), weight in DEFAULT_HANDS:
        orders = [(sum(others),)] if two else sorted({others, others[::-1]})
        for bidder in SEATS:
            bidding = teams_from(rules.teams, 1).index(team_of(_seat_after(1, bidder), rules.teams))
            for order in orders:
                rest = iter(order)
                taken = tuple(took if i == bidding else next(rest)
                              for i in range(len(rules.team_names)))
                shape = Shape(bidder, bid, taken)
                share = DEFAULT_WEIGHT * weight / total / len(SEATS) / len(orders)
                variants[shape] = variants.get(shape, 0.0) + share
    return variants


def blended(rules: HouseRules, club: Sequence[Shape]) -> dict[Shape, float]:
    """The club's hands (one each, those at a bid the game has) with the neutral default
    behind them."""
    weights = default_shapes(rules)
    for shape in club:
        if shape.bid in rules.bids:
            weights[shape] = weights.get(shape, 0.0) + 1.0
    return weights


POOL_BITS = 13  # shapes are drawn from a pool of 2 ** 13 slots, shared by weight
POOL = 1 << POOL_BITS
KEPT_VERDICTS = 50_000  # per house rules, at most
UNJUDGED = object()  # a hand's end not yet put to the rules engine
# Who deals after a played hand, by seat (the deal passes to the left); 0 stands for none.
NEXT_DEALER = (0, *(left_of(seat) for seat in SEATS))


def hand_rules(rules: HouseRules) -> HouseRules:
    """``rules`` at the default target: a hand scores the same, and wins the game by
    itself or not, whatever the target (the hands' cache is shared across targets)."""
    return HouseRules(rules.teams, **rules.house_values)


@lru_cache(maxsize=5_000)
def scored(rules: HouseRules, shape: Shape) -> tuple[tuple[int, ...], int, bool, int | None]:
    """``shape`` as the rules engine scores it (``rules``: ``hand_rules``), seat 1
    dealing: the score change of each team and the bidding team, seen from the dealer
    (as ``Shape.taken``), whether the bid was made, and the team that wins the game by
    this hand alone, if one does. Seen from the dealer, a hand scores the same whoever
    deals it; the same few shapes come up in every game: each is scored once."""
    order = teams_from(rules.teams, 1)
    _auction, _tally, hand = play_deal(rules, 1, reseated(rules, shape, 1))
    won = won_by_the_hand(rules, hand.taken)
    return (tuple(hand.score_change[team] for team in order), order.index(hand.bidding_team),
            hand.made, None if won is None else order.index(won))


@lru_cache(maxsize=30_000)
def outcome_of(rules: HouseRules, shape: Shape, dealer: int) -> tuple:
    """What ``shape`` does when ``dealer`` deals it (``rules``: ``hand_rules``): the score
    change of each of three teams (as ``rules.team_names``; with two teams the third's is
    always 0), the bidding team's index, whether it made its bid, and the index of the
    team that wins by this hand alone (None: the scores decide)."""
    change, bidding, made, won = scored(rules, shape)
    teams = rules.team_names
    order = teams_from(rules.teams, dealer)
    by_team = dict(zip(order, change))
    changes = [by_team[team] for team in teams] + [0] * (3 - len(teams))
    return (*changes, teams.index(order[bidding]), made,
            None if won is None else teams.index(order[won]))


class Deck:
    """The hands to draw from, each scored by the rules engine for every dealer.

    Each of POOL slots holds a shape, in as many slots as its weight gives it: a uniform
    draw of a slot is a draw by weight. ``slots`` holds each slot's shape as its index in
    ``shapes`` (two bytes a slot, as there are at most POOL shapes: a deck is ~40 KB, so
    a server keeps one for every game in play), and ``outcomes[dealer]`` each shape's
    ``outcome_of`` with that dealer. The engine's verdicts (``ended``) depend on the house
    rules alone: every deck of the same rules shares them.
    """

    def __init__(self, rules: HouseRules, weights: dict[Shape, float]) -> None:
        self.rules = rules
        ordered = sorted(weights, key=lambda s: (s.bidder, s.bid, s.taken))
        counts = largest_remainder([weights[s] for s in ordered], POOL)
        dealt = [(shape, count) for shape, count in zip(ordered, counts) if count]
        # (A shape too rare to hold a slot is not dealt.)
        self.shapes = tuple(shape for shape, _count in dealt)
        self.slots = array("H", [index for index, (_shape, count) in enumerate(dealt)
                                 for _ in range(count)])
        played = hand_rules(rules)
        self.outcomes: list[tuple[tuple, ...]] = [()] + [  # by dealer seat (1-6)
            tuple(outcome_of(played, shape, dealer) for shape in self.shapes)
            for dealer in SEATS]
        self.teams = rules.team_names
        self.ended = _verdicts(rules)  # the engine's verdicts, as play_out asks

    def judge(self, key: tuple) -> int | None:
        """The winner's index after a hand: (scores of three teams, the bidding team's
        index, made), as the rules engine judges it, kept for the next game to reach it."""
        if len(self.ended) >= KEPT_VERDICTS:
            self.ended.clear()
        *scores, bidding, made = key
        verdict = judge(self.rules, dict(zip(self.teams, scores)), self.teams[bidding], made)
        winner = self.teams.index(verdict.winner) if verdict.finished else None
        self.ended[key] = winner
        return winner


def _verdicts(rules: HouseRules) -> dict[tuple, int | None]:
    """The verdicts every deck of ``rules`` keeps (two made at once: one is kept)."""
    verdicts = VERDICTS.get(rules)
    if verdicts is None:
        verdicts = {}
        VERDICTS.put(rules, verdicts)
    return verdicts


def largest_remainder(shares: Sequence[float], total: int = 100) -> tuple[int, ...]:
    """Whole numbers in proportion to ``shares`` that add up to ``total`` exactly: each
    rounded down, the rest given to the largest remainders (the first on a tie)."""
    whole = sum(shares)
    if whole <= 0:
        shares, whole = [1.0] * len(shares), float(len(shares))
    exact = [share * total / whole for share in shares]
    counts = [int(value) for value in exact]
    by_remainder = sorted(range(len(exact)), key=lambda i: (-(exact[i] - counts[i]), i))
    for i in by_remainder[:total - sum(counts)]:
        counts[i] += 1
    return tuple(counts)


def play_out(deck: Deck, scores: tuple[int, ...], dealer: int, draws: Iterator[int]
             ) -> tuple[int | None, int]:
    """One game played on from ``scores`` (by team, as ``rules.team_names``), ``dealer``
    dealing next, each hand the pool slot ``draws`` gives next: (the winner's index, or
    None if the draws ran out first; the hands it took).

    Only a hand that takes a team to the target can end the game (bidder goes out
    too), so the verdict is asked for only then; or a hand that wins it by itself.
    """
    target = deck.rules.target
    short = target - 1
    a, b, c = (*scores, 0, 0)[:3]
    slots, outcomes = deck.slots, deck.outcomes
    ended = deck.ended
    next_dealer = NEXT_DEALER
    mask = POOL - 1
    hands = 0
    for slot in draws:
        outcome = outcomes[dealer][slots[slot & mask]]
        a += outcome[0]
        b += outcome[1]
        c += outcome[2]
        dealer = next_dealer[dealer]
        hands += 1
        if outcome[5] is not None:
            return outcome[5], hands
        if a < target > b and c < target:
            continue
        # Teams short of the target take no part in the end: they are all kept as one
        # short of it, so that far fewer verdicts are asked for.
        key = (a if a >= target else short, b if b >= target else short,
               c if c >= target else short, outcome[3], outcome[4])
        winner = ended.get(key, UNJUDGED)  # (one look: another thread may clear it)
        if winner is UNJUDGED:
            winner = deck.judge(key)
        if winner is not None:
            return winner, hands
    return None, hands


def simulate(state: GameState, deck: Deck, seed: str) -> dict[str, int] | None:
    """Each team's chance to win in whole per cent (adding up to 100), from ``state``;
    None where too few games could be played out within HAND_BUDGET hands (a target
    still far away: too soon to tell).

    The first TRIAL_GAMES games tell how long a game runs from here; when MIN_GAMES
    of that length would not fit, the rest are not played at all.
    """
    teams = state.rules.team_names
    if state.finished:
        return {team: 100 if team == state.winner else 0 for team in teams}
    # Two random bytes a hand, drawn at once: the same seed, the same hands.
    draws = iter(memoryview(random.Random(seed).randbytes(2 * HAND_BUDGET)).cast("H"))
    wins = [0] * len(teams)
    scores = tuple(state.scores[team] for team in teams)
    games = hands = 0
    while games < SIMULATED_GAMES:
        winner, took = play_out(deck, scores, state.next_dealer, draws)
        if winner is None:
            break  # the hands ran out mid-game: that game is not counted
        wins[winner] += 1
        games += 1
        hands += took
        if games == TRIAL_GAMES and hands * MIN_GAMES > HAND_BUDGET * TRIAL_GAMES:
            return None
    if games < MIN_GAMES:
        return None
    return dict(zip(teams, largest_remainder(wins)))


def club_shapes(session: Session, game: Game) -> list[Shape]:
    """The played hands of the club's recent games like this one (same layout, not
    abandoned), recorded before this game began. Each of those games is read once per
    revision: the next game of the evening reads only the games new to it."""
    games = session.exec(
        select(Game).where(
            Game.club_id == game.club_id, Game.teams == game.teams, Game.id != game.id,
            Game.abandoned_at.is_(None), Game.created_at < game.created_at,  # type: ignore[union-attr]
        ).order_by(Game.created_at.desc(), Game.id.desc()).limit(HISTORY_GAMES)  # type: ignore[union-attr]
    ).all()
    keys = {source.id: (source.id, source.revision, source.created_at) for source in games}
    played = {source.id: GAME_HANDS.get(keys[source.id]) for source in games}
    for replay in load_replays(session, [source for source in games if played[source.id] is None]):
        hands = tuple(
            (hand.recorded_at,
             shape_of(replay.rules, deal.dealer_seat, deal.bidder_seat, deal.bid, deal.taken))
            for deal, hand in zip(replay.state.deals, replay.hands) if not deal.thrown_in)
        played[replay.game.id] = hands
        GAME_HANDS.put(keys[replay.game.id], hands)
    return [shape for source in games for recorded_at, shape in played[source.id]
            if recorded_at < game.created_at]


GAME_HANDS = LockedLRU(512)  # per game revision: its played hands, as shapes
DECKS = LockedLRU(512)  # per game in play: its club's hands, scored for every dealer (~40 KB)
VERDICTS = LockedLRU(64)  # per house rules: the engine's verdicts on a game's end
CHANCES = LockedLRU(1024)  # per game revision (None kept too: too soon to tell)
UNKNOWN = object()  # not worked out yet


def seed_for(state: GameState) -> str:
    """The draws' seed, from what the simulation starts from (the house rules, the
    scores, who deals next): the same for a revision wherever it is worked out, on any
    server, and for the same game restored from a backup under another id."""
    rules = state.rules
    scores = " ".join(f"{team}{state.scores[team]}" for team in rules.team_names)
    house = " ".join(str(value) for _, value in rules.house)
    return (f"chances {rules.teams} {rules.target} {house} {scores} "
            f"{state.next_dealer}")


# The tables whose games are played out: six in pairs or in threes (a table of four or
# five, or cutthroat, shows no chances yet).
SIMULATED = frozenset({TeamLayout.THREE_PAIRS, TeamLayout.TWO_TRIOS})


def win_chances(session: Session, replay: Replay) -> dict[str, int] | None:
    """Each team's chance to win from the scores as they stand, in whole per cent (None:
    too soon to tell, or a table not ``SIMULATED``)."""
    if replay.rules.teams not in SIMULATED:
        return None
    game = replay.game
    key = (game.id, game.revision, game.created_at)
    chances = CHANCES.get(key, UNKNOWN)
    if chances is UNKNOWN:
        deck_key = (game.id, game.created_at, replay.rules)
        deck = DECKS.get(deck_key)
        if deck is None:
            deck = Deck(replay.rules, blended(replay.rules, club_shapes(session, game)))
            DECKS.put(deck_key, deck)
        chances = simulate(replay.state, deck, seed_for(replay.state))
        CHANCES.put(key, chances)
    return chances
