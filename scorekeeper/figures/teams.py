"""Splitting a table's four, five or six players into teams: the most even split by
their ratings, and partners that rotate through an evening.

Pure functions over any players that can be told apart (positions, names); the ratings
and the evening's partnerships are handed in. A split is a tuple of teams, each a tuple
of players; the teams have no letters yet: ``seated`` puts a split in the seats. A
cutthroat layout has one split (each player a team of one): nothing to balance, no
partners to rotate.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, permutations, product
from typing import Hashable, Mapping, Sequence, TypeVar

from scorekeeper.figures.ratings import NEW, Rating, rated_odds
from scorekeeper.rules.table import TeamLayout, teams_for

Player = TypeVar("Player", bound=Hashable)
Split = tuple[tuple[Player, ...], ...]

OFFERED = 3  # the most even split and the next two best
BEST = "best"  # "Balance the teams": seat the most even split


def team_size(layout: TeamLayout | str) -> int:
    """How many players a team of the layout has: 2 for pairs, 3 for two trios, 1 where
    each plays for themselves."""
    return len(next(iter(teams_for(layout).values())))


def groups(players: Sequence[Player], sizes: Sequence[int]) -> list[Split]:
    """Every way to put the players into groups of ``sizes`` (largest first; they add up
    to the players), each once: groups of one size have no order among them. Groups,
    and players within a group, keep the order of ``players``, so the same players in
    the same order list the same ways. Teams of a table, or tables of a round."""
    if not sizes:
        return [()]
    size, rest = sizes[0], sizes[1:]
    if rest and rest[0] == size:  # the first of the players left starts the group
        chosen = ((players[0], *others) for others in combinations(players[1:], size - 1))
    else:
        chosen = combinations(players, size)
    found = []
    for group in chosen:
        left = [player for player in players if player not in group]
        found.extend((tuple(group), *others) for others in groups(left, rest))
    return found


def splits(players: Sequence[Player], size: int) -> list[Split]:
    """Every way to split the players into teams of ``size``, each once: 15 for three
    pairs of six, 10 for two teams of three, 3 for two pairs of four, 1 for each alone.
    In the order ``groups`` lists them."""
    return groups(players, (size,) * (len(players) // size))


def partner_pairs(split: Split) -> list[frozenset]:
    """Each two players who are partners in the split."""
    return [frozenset(pair) for team in split for pair in combinations(team, 2)]


@dataclass(frozen=True)
class Balance:
    """A split and each of its teams' predicted chance of winning, team by team."""

    split: Split
    chances: tuple[float, ...]

    @property
    def evenness(self) -> tuple[float, float]:
        """What "most even" compares, smaller first: the favourite's chance, then the
        underdog's chance taken away (so the larger underdog wins a tie). Rounded, so
        that splits equal but for floating-point noise tie, and the earlier split wins."""
        return (round(max(self.chances), 9), -round(min(self.chances), 9))


def nothing_to_go_on(ratings: Mapping[Player, Rating]) -> bool:
    """Whether none of the players has a rated game: then every split is as even as any
    other (a third, or a half, each), and "Balance the teams" has nothing to go on: the
    page says so and leaves the seats as they are."""
    return not any(rating.games for rating in ratings.values())


def balance(split: Split, ratings: Mapping[Player, Rating]) -> Balance:
    """The split with openskill's chances for its teams (a player not rated: new)."""
    return Balance(split, tuple(rated_odds(
        [[ratings.get(player, NEW) for player in team] for team in split])))


def most_even(players: Sequence[Player], layout: TeamLayout | str,
              ratings: Mapping[Player, Rating], count: int | None = None,
              chairs: Sequence[Player] = ()) -> list[Balance]:
    """The splits of the players for the layout, most even first (``count``: only the
    first so many).

    Most even: the split whose favourite has the smallest chance of winning (for two
    teams, the smallest gap between them); between splits whose favourites are equal,
    the one whose underdog has the larger chance; then the one that leaves the most
    players in their ``chairs`` (the players seat by seat now: equal teams are not worth
    a move); then the one ``splits`` lists first."""
    weighed = [balance(split, ratings) for split in splits(players, team_size(layout))]
    ranked = sorted(weighed, key=lambda option: (
        option.evenness, -staying(seated(option.split, layout, chairs), chairs)))
    return ranked if count is None else ranked[:count]


def staying(chairs: Sequence[Player], before: Sequence[Player]) -> int:
    """How many players sit in the same chair as ``before``."""
    return sum(1 for now, then in zip(chairs, before) if now == then)


def team_sets(split: Split) -> frozenset:
    """The split's teams without letters or order: to tell whether two splits are one."""
    return frozenset(frozenset(team) for team in split)


def seated(split: Split, layout: TeamLayout | str, current: Sequence[Player]
           ) -> tuple[Player, ...]:
    """The split put in the layout's seats: the players seat by seat (seat 1 first).

    Of all the ways to seat it, the one that moves fewest players from ``current`` (the
    players seat by seat now): whoever may stay in their chair stays."""
    seats = list(teams_for(layout).values())
    best: tuple[int, tuple] | None = None
    for teams in permutations(split):
        for orders in product(*(permutations(team) for team in teams)):
            placed = {seat: player for team_seats, order in zip(seats, orders)
                      for seat, player in zip(team_seats, order)}
            chairs = tuple(placed[seat] for seat in sorted(placed))
            stay = staying(chairs, current)
            if best is None or stay > best[0]:
                best = (stay, chairs)
    assert best is not None, "a split of a table always has a seating"
    return best[1]


def split_of(chairs: Sequence[Player], layout: TeamLayout | str) -> Split:
    """The split of players seated so (``chairs``: seat by seat), team A first."""
    return tuple(tuple(chairs[seat - 1] for seat in seats)
                 for seats in teams_for(layout).values())


def seats_text(split: Split) -> str:
    """A split of seat numbers written out, team by team: "14-25-36"."""
    return "-".join(sorted("".join(str(seat) for seat in sorted(team)) for team in split))


def read_seats_text(text: str, layout: TeamLayout | str) -> Split | None:
    """The split of seat numbers ``seats_text`` wrote, if it is one for the layout (each
    of its seats once, in teams of its size)."""
    teams = text.split("-")
    seats = [str(seat) for seat in TeamLayout(layout).seat_numbers]
    if sorted("".join(teams)) != seats or any(
            len(team) != team_size(layout) for team in teams):
        return None
    return tuple(tuple(int(seat) for seat in team) for team in teams)


def next_partners(players: Sequence[Player], layout: TeamLayout | str,
                  partnered: Mapping[frozenset, int]) -> Split:
    """The split for the evening's next game: no one with a partner they had tonight,
    where possible.

    ``partnered``: each two players -> how many games tonight they were partners in.
    The split chosen repeats the fewest partnerships (each counted as often as it was
    had); among those, the one after which the most further games can still bring only
    new partners, so that with three pairs five games in a row give everyone each of
    the other five as partner once, and with two pairs three games each of the other
    three (a greedy choice can leave two trios, whose players have no new partner left
    to pair with). Then the first ``splits`` lists. Cutthroat: the one split, each
    alone."""
    options = splits(players, team_size(layout))
    if TeamLayout(layout).cutthroat:
        return options[0]  # no partners: every split would count as endless fresh games
    pairs = {split: frozenset(partner_pairs(split)) for split in options}
    had = frozenset(pair for pair, games in partnered.items() if games)

    @lru_cache(maxsize=None)
    def fresh_games(used: frozenset) -> int:
        # The most games that can follow, each with partners none of whom met before.
        return max((1 + fresh_games(used | pairs[split]) for split in options
                    if not pairs[split] & used), default=0)

    def cost(split: Split) -> tuple[int, int]:
        repeats = sum(partnered.get(pair, 0) for pair in pairs[split])
        return (repeats, -fresh_games(had | pairs[split]))

    return min(options, key=cost)
