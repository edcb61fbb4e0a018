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

Every table is played out: four, five or six seats, in pairs, in threes or cutthroat
(two to six teams). A hand is kept as seen from its dealer, and at every layout the deal
passes from a team to the next one (A, B, C, A ... in pairs at six; A to F cutthroat at
six): a hand scored once serves every dealer, turned to the dealer's team.
"""
from __future__ import annotations

import random
from array import array
from dataclasses import dataclass
from functools import lru_cache
from itertools import permutations
from typing import Iterator, Sequence

from sqlmodel import Session, select

from scorekeeper.rules import (
    CARD_POINTS, PASS, Deal, GameState, HouseRules, Tally, TeamLayout, judge, left_of, team_of,
)
from scorekeeper.rules.ending import won_by_the_hand
from scorekeeper.rules.game import play_deal
from scorekeeper.rules.table import HIGHEST_BID
from scorekeeper.store.kept import GAMES_IN_PLAY, LockedLRU
from scorekeeper.store.models import Game
from scorekeeper.store.replay import Replay, load_replays

SIMULATED_GAMES = 2000
# Simulated hands per revision at most: a game to a far target plays fewer games out.
HAND_BUDGET = 40_000
MIN_GAMES = 500  # fewer played out within the budget: too soon to tell
TRIAL_GAMES = 20  # played first, to tell whether MIN_GAMES would fit
HISTORY_GAMES = 50  # the club's most recent games its hands are drawn from (~600 hands)
DEFAULT_WEIGHT = 30  # the neutral default counts as this many of the club's own hands

# The neutral default: (bid, what the bidding team took, what two other teams took),
# how often in 40 hands. Each is bid from every seat alike, the others' shares given to
# the other teams in every way alike: with two teams the other team takes both, with
# three each either way round, with more any two of them take them, the rest none. A
# hand of 5 points is one whose Game was tied.
DEFAULT_HANDS = (
    ((3, 3, (2, 1)), 7), ((3, 4, (1, 1)), 4), ((3, 4, (2, 0)), 2), ((3, 5, (1, 0)), 1),
    ((3, 2, (2, 2)), 3), ((3, 2, (3, 1)), 2), ((3, 1, (3, 2)), 1),
    ((4, 4, (1, 1)), 5), ((4, 5, (1, 0)), 3), ((4, 3, (2, 1)), 4), ((4, 3, (2, 0)), 1),
    ((5, 5, (1, 0)), 3), ((5, 4, (1, 1)), 2),
    ((6, 6, (0, 0)), 1), ((6, 5, (1, 0)), 1),
)


@dataclass(frozen=True, order=True)
class Shape:
    """A played hand seen from its dealer, so that it can be dealt again by any seat.

    ``bidder``: seats from the dealer to the bidder, clockwise (the table's size: the
    dealer bid). ``taken``: the points each team took, the dealer's team first, then the
    others in the order their seats follow the dealer's.
    """

    bidder: int
    bid: int
    taken: tuple[int, ...]


def _seat_after(seat: int, steps: int, seats: int) -> int:
    for _ in range(steps):
        seat = left_of(seat, seats)
    return seat


@lru_cache(maxsize=None)
def teams_from(layout: TeamLayout, dealer: int) -> tuple[str, ...]:
    """The teams in the order their seats follow ``dealer``, the dealer's team first."""
    order: list[str] = []
    seat = dealer
    for _ in range(layout.seats):
        team = team_of(seat, layout)
        if team not in order:
            order.append(team)
        seat = left_of(seat, layout.seats)
    return tuple(order)


def shape_of(rules: HouseRules, dealer: int, bidder: int, bid: int,
             taken: dict[str, int]) -> Shape:
    """A played hand as a ``Shape``: its dealer, bidder seat, bid and each team's points."""
    steps = (bidder - dealer) % rules.seats or rules.seats
    return Shape(steps, bid, tuple(taken[team] for team in teams_from(rules.teams, dealer)))


def reseated(rules: HouseRules, shape: Shape, dealer: int) -> Deal:
    """``shape`` dealt by ``dealer``: the winning bid with every other seat passing, and
    a tally giving each team its points (Game to nobody in a hand of five)."""
    calls = [PASS] * rules.seats
    calls[shape.bidder - 1] = shape.bid
    if shape.bid == HIGHEST_BID:
        calls = calls[:shape.bidder]  # a 6 ends the bidding
    owners = [team for team, points in zip(teams_from(rules.teams, dealer), shape.taken)
              for _ in range(points)]
    card_points = {point.value: team for point, team in zip(CARD_POINTS, owners)}
    game = owners[len(CARD_POINTS)] if len(owners) > len(CARD_POINTS) else None
    return Deal(tuple(calls), "hearts", Tally(card_points, game))  # (any trump scores alike)


def shares_among(others: tuple[int, int], teams: int) -> list[tuple[int, ...]]:
    """A default hand's two shares given to ``teams`` other teams in every way alike:
    one other team takes both; more, each way round among any two of them."""
    if teams == 1:
        return [(sum(others),)]
    return sorted(set(permutations((*others, *(0,) * (teams - 2)))))


def default_shapes(rules: HouseRules) -> dict[Shape, float]:
    """The neutral default, each shape with its weight (all together DEFAULT_WEIGHT)."""
    teams, seats = len(rules.team_names), rules.seats
    from_first = teams_from(rules.teams, 1)
    variants: dict[Shape, float] = {}
    total = sum(weight for _, weight in DEFAULT_HANDS)
    for (bid, took, others), weight in DEFAULT_HANDS:
        orders = shares_among(others, teams - 1)
        for bidder in range(1, seats + 1):
            bidding = from_first.index(team_of(_seat_after(1, bidder, seats), rules.teams))
            for order in orders:
                rest = iter(order)
                taken = tuple(took if i == bidding else next(rest) for i in range(teams))
                shape = Shape(bidder, bid, taken)
                share = DEFAULT_WEIGHT * weight / total / seats / len(orders)
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
# The scores played out are one whole number, each team's in a field of its own (``Start``),
# held as the score plus REACHED less the target: a field is at REACHED or more once
# its team has reached the target. A score stays well within 2 ** 19 of the target: a
# game's hands (1000 at most) and the hands played out (HAND_BUDGET) move it by 6 each
# at most.
FIELD_BITS = 20
FIELD = (1 << FIELD_BITS) - 1
REACHED = 1 << (FIELD_BITS - 1)
ENDING_BITS = 4  # a verdict's key: the fields, then the bidding team and made (< 16)


def side_by_side(values: Sequence[int]) -> int:
    """``values`` as one whole number, each in a field of FIELD_BITS, the first lowest:
    adding two such numbers adds them field by field (a field may be negative here, a
    change; summed with the scores, every field is back in its bounds)."""
    return sum(value << (FIELD_BITS * field) for field, value in enumerate(values))


def hand_rules(rules: HouseRules) -> HouseRules:
    """``rules`` at the default target: a hand scores the same, and wins the game by
    itself or not, whatever the target (the hands' cache is shared across targets)."""
    return HouseRules(rules.teams, **rules.house_values)


@lru_cache(maxsize=10_000)
def scored(rules: HouseRules, shape: Shape) -> tuple[tuple[int, int | None, int], ...]:
    """``shape`` as the rules engine scores it (``rules``: ``hand_rules``), for each team
    that may hold the deal (``turn``: the dealer's team's index in ``rules.team_names``):
    the score change of every team side by side (``side_by_side``, as ``team_names``),
    the index of the team that wins the game by this hand alone if one does, and how the
    hand ends (the bidding team's index, twice, and 1 if it made its bid).

    Seen from the dealer, a hand scores the same whoever deals it, and the teams follow
    the dealer round the table one after another at every layout: the hand is played
    once, seat 1 dealing, and turned to each dealer's team. The same few shapes come up
    in every game: each is scored once, and kept once for every deck that holds it."""
    order = teams_from(rules.teams, 1)
    _auction, _tally, hand = play_deal(rules, 1, reseated(rules, shape, 1))
    won = won_by_the_hand(rules, hand.taken)
    teams = len(order)
    change = [hand.score_change[team] for team in order]  # the dealer's team's first
    bidding = order.index(hand.bidding_team)
    return tuple(
        (side_by_side(change[-turn:] + change[:-turn]),
         None if won is None else (order.index(won) + turn) % teams,
         2 * ((bidding + turn) % teams) + hand.made)
        for turn in range(teams))


class Deck:
    """The hands to draw from, each scored by the rules engine.

    Each of POOL slots holds a shape, in as many slots as its weight gives it: a uniform
    draw of a slot is a draw by weight. ``slots`` holds each slot's shape as its index in
    ``shapes`` (two bytes a slot, as there are at most POOL shapes: a deck is ~40 KB, so
    a server keeps one for every game in play), and ``outcomes`` each shape's ``scored``
    (kept once for every deck: a deck holds only where they are). The engine's verdicts
    (``ended``) depend on the house rules alone: every deck of the same rules shares
    them.
    """

    def __init__(self, rules: HouseRules, weights: dict[Shape, float]) -> None:
        self.rules = rules
        ordered = sorted(weights)  # by bidder, bid and what each team took
        counts = largest_remainder([weights[s] for s in ordered], POOL)
        dealt = [(shape, count) for shape, count in zip(ordered, counts) if count]
        # (A shape too rare to hold a slot is not dealt.)
        self.shapes = tuple(shape for shape, _count in dealt)
        self.slots = array("H", [index for index, (_shape, count) in enumerate(dealt)
                                 for _ in range(count)])
        played = hand_rules(rules)
        self.outcomes = tuple(scored(played, shape) for shape in self.shapes)
        self.teams = rules.team_names
        self.reached = side_by_side([REACHED] * len(self.teams))  # a team at the target
        # The next dealer's team, by the dealer's (``scored``'s turns).
        self.following = tuple((turn + 1) % len(self.teams) for turn in range(len(self.teams)))
        self.ended = _verdicts(rules)  # the engine's verdicts, as played_out asks

    def judge(self, key: int) -> int | None:
        """The winner's index after a hand, as the rules engine judges it, kept for the
        next game to reach it: ``key`` is the fields of the teams that reached the target
        (those short of it are 0: they are all one short, and take no part in the end),
        then the hand's ending (as ``scored``), the fields as ``rules.team_names``."""
        if len(self.ended) >= KEPT_VERDICTS:
            self.ended.clear()
        fields, ending = key >> ENDING_BITS, key & ((1 << ENDING_BITS) - 1)
        short = self.rules.target - 1
        scores = {}
        for index, team in enumerate(self.teams):
            field = (fields >> (FIELD_BITS * index)) & FIELD
            scores[team] = field - REACHED + self.rules.target if field else short
        bidding, made = divmod(ending, 2)
        verdict = judge(self.rules, scores, self.teams[bidding], bool(made))
        winner = self.teams.index(verdict.winner) if verdict.finished else None
        self.ended[key] = winner
        return winner


def _verdicts(rules: HouseRules) -> dict[int, int | None]:
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


@dataclass(frozen=True)
class Start:
    """Where the games played out start, as ``played_out`` reads it: the scores side by
    side (``side_by_side``, as ``rules.team_names``), each held as the score plus REACHED
    less the target (a field is at REACHED or more once its team has reached the target),
    and the first dealer's team (its index)."""

    fields: int
    turn: int

    @classmethod
    def of(cls, deck: Deck, scores: tuple[int, ...], dealer: int) -> Start:
        """``scores`` (by team, as ``rules.team_names``), ``dealer`` dealing next."""
        rules = deck.rules
        return cls(side_by_side([score + REACHED - rules.target for score in scores]),
                   deck.teams.index(team_of(dealer, rules.teams)))


def played_out(deck: Deck, start: Start, draws: Iterator[int]) -> tuple[int | None, int]:
    """One game played on from ``start``, each hand the pool slot ``draws`` gives next:
    (the winner's index, or None if the draws ran out first; the hands it took).

    The scores are one whole number, a field a team: a hand adds its change in one
    addition, whatever the number of teams, and the deal passes to the next team. Only
    a hand that takes a team to the target can end the game (bidder goes out too), so
    the verdict is asked for only then; or a hand that wins it by itself.
    """
    fields, turn = start.fields, start.turn
    reached, following = deck.reached, deck.following
    slots, outcomes = deck.slots, deck.outcomes
    ended = deck.ended
    mask = POOL - 1
    hands = 0
    for slot in draws:
        change, won, ending = outcomes[slots[slot & mask]][turn]
        fields += change
        turn = following[turn]
        hands += 1
        if won is not None:
            return won, hands
        if fields & reached:
            # Teams short of the target take no part in the end: they are all kept as
            # one short of it (a field of 0), so that far fewer verdicts are asked for.
            at_target = ((fields & reached) >> (FIELD_BITS - 1)) * FIELD
            key = (fields & at_target) << ENDING_BITS | ending
            winner = ended.get(key, UNJUDGED)  # (one look: another thread may clear it)
            if winner is UNJUDGED:
                winner = deck.judge(key)
            if winner is not None:
                return winner, hands
    return None, hands


def play_out(deck: Deck, scores: tuple[int, ...], dealer: int, draws: Iterator[int]
             ) -> tuple[int | None, int]:
    """One game played on from ``scores`` (by team, as ``rules.team_names``), ``dealer``
    dealing next: as ``played_out``."""
    return played_out(deck, Start.of(deck, scores, dealer), draws)


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
    start = Start.of(deck, tuple(state.scores[team] for team in teams), state.next_dealer)
    games = hands = 0
    while games < SIMULATED_GAMES:
        winner, took = played_out(deck, start, draws)
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
DECKS = LockedLRU(GAMES_IN_PLAY)  # per game in play: its club's hands, scored (~40 KB)
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


def win_chances(session: Session, replay: Replay) -> dict[str, int] | None:
    """Each team's chance to win from the scores as they stand, in whole per cent (None:
    too soon to tell)."""
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
