"""Rounds: an evening of several tables, seated afresh round by round.

Pure functions over any players that can be told apart (names, ids). ``next_round``
proposes the next round for everyone present from the rounds the evening played so far
(as they were finally seated, the organiser's changes included); the organiser may
change the proposal before it starts. Its rules:

1. **Tables of six.** Of ``n`` players present, ``n // 6`` tables play and the rest sit
   out; with fewer than six there is no table and everyone waits (sits out).
2. **Sit-outs rotate fairly.** Those to sit out are the ones who have sat out fewest
   rounds this evening; between equals, the ones who played most games this evening
   (each table of a round is one game); then the last in the order of ``present`` (the
   last to come, or to say they come: the first come are the first seated).
   While the same players stay, any two of them have sat out as many rounds, or one
   apart.
3. **Partners rotate, tables mix.** The players who play are cut into tables so that
   the same players meet at a table as seldom as can be: a cut costs, for each two at
   one table, the rounds they already shared a table tonight, and the cut of the lowest
   cost is taken. With one or two tables every cut is weighed (462 for twelve players:
   ``teams.splits`` into sixes, the first it lists of equal cost). Three tables have
   millions: the players are dealt round the tables in the order of ``present``, then
   two of different tables change places while that lowers the cost, the largest
   saving first, which ends at a cut that no exchange of two players improves (not
   always the cheapest of all). Within each table the teams are the split of
   ``teams.next_partners``: no one with a partner they had tonight, where possible,
   partners counted over every table of every round.
4. **Deterministic.** The same players in the same order with the same rounds before
   give the same proposal.
5. **Arrivals and leavers.** A player new to ``present`` has sat out no round and
   played no game; a player who left is not in ``present`` and is not seated.

Each table is its six players seat by seat (seat 1 first), its teams as the layout
says (``teams.seated``): as many as the teams allow keep the seat number they last sat
in tonight.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations
from typing import Hashable, Sequence, TypeVar

from scorekeeper.figures.teams import (
    next_partners, partner_pairs, seated, split_of, splits,
)
from scorekeeper.rules import SEATS
from scorekeeper.rules.table import TeamLayout

Player = TypeVar("Player", bound=Hashable)
Table = tuple[Player, ...]
TABLE = len(SEATS)  # players at a table
WEIGHED = 2  # up to two tables every cut into tables is weighed; three have 2,858,856
EMPTY_CHAIR = object()  # a seat nobody at the table sat in last


@dataclass(frozen=True)
class Round:
    """One round of an evening: each table's players seat by seat (seat 1 first), who
    sat out, and the team layout the tables played (always given: the partners of a
    round played are read off its seats by it)."""

    tables: tuple[Table, ...]
    sitting_out: tuple[Player, ...]
    layout: TeamLayout

    def __post_init__(self) -> None:
        object.__setattr__(self, "layout", TeamLayout(self.layout))


def rounds_sat_out(history: Sequence[Round]) -> Counter:
    """Each player -> how many rounds tonight they sat out."""
    return Counter(player for played in history for player in played.sitting_out)


def games_played(history: Sequence[Round]) -> Counter:
    """Each player -> how many games tonight they played (one a round at a table)."""
    return Counter(player for played in history for chairs in played.tables
                   for player in chairs)


def partnered(history: Sequence[Round]) -> Counter[frozenset]:
    """Each two players -> how many games tonight they were partners in."""
    return Counter(pair for played in history for chairs in played.tables
                   for pair in partner_pairs(split_of(chairs, played.layout)))


def table_mates(history: Sequence[Round]) -> Counter[frozenset]:
    """Each two players -> how many rounds tonight they sat at one table."""
    return Counter(frozenset(two) for played in history for chairs in played.tables
                   for two in combinations(chairs, 2))


def to_sit_out(present: Sequence[Player], history: Sequence[Round], count: int
               ) -> list[Player]:
    """The ``count`` players to sit out next (rule 2), in the order of ``present``."""
    sat_out, played = rounds_sat_out(history), games_played(history)
    order = {player: place for place, player in enumerate(present)}
    turn = sorted(present, key=lambda player: (sat_out[player], -played[player],
                                               -order[player]))
    return sorted(turn[:count], key=order.__getitem__)


def sit_outs_ahead(present: Sequence[Player], history: Sequence[Round], rounds: int
                   ) -> list[tuple[Player, ...]]:
    """Who sits out in each of the next ``rounds`` rounds while the same stay: rule 2
    alone, since who sits out does not depend on who plays with whom."""
    history, ahead = list(history), []
    for _ in range(rounds):
        out = tuple(to_sit_out(present, history, len(present) % TABLE))
        playing = tuple(player for player in present if player not in out)
        history.append(Round((playing,), out, TeamLayout.THREE_PAIRS))  # games, not tables
        ahead.append(out)
    return ahead


def met_before(table: Sequence[Player], mates: Counter[frozenset]) -> int:
    """How many rounds tonight the table's players already shared a table, two by two."""
    return sum(mates[frozenset(two)] for two in combinations(table, 2))


def best_exchange(tables: list[list[Player]], mates: Counter[frozenset]
                  ) -> tuple[int, int, int, int] | None:
    """The exchange of two players of different tables (table, place, table, place)
    that lowers ``met_before`` over the tables most (the first such), if any does."""
    best, gain = None, 0
    for one, other in combinations(range(len(tables)), 2):
        before = met_before(tables[one], mates) + met_before(tables[other], mates)
        for here, there in ((i, j) for i in range(TABLE) for j in range(TABLE)):
            first, second = list(tables[one]), list(tables[other])
            first[here], second[there] = second[there], first[here]
            saved = before - met_before(first, mates) - met_before(second, mates)
            if saved > gain:
                best, gain = (one, here, other, there), saved
    return best


def mixed_tables(players: Sequence[Player], count: int, mates: Counter[frozenset]
                 ) -> list[list[Player]]:
    """The players cut into ``count`` tables of six (rule 3): of every cut up to
    ``WEIGHED`` tables, the lowest ``met_before`` in all; beyond, dealt round the tables,
    then two of different tables exchanged while that lowers it."""
    if count <= WEIGHED:
        cut = min(splits(players, TABLE),
                  key=lambda tables: sum(met_before(table, mates) for table in tables))
        return [list(table) for table in cut]
    tables = [list(players[start::count]) for start in range(count)]
    while (exchange := best_exchange(tables, mates)) is not None:
        one, here, other, there = exchange
        tables[one][here], tables[other][there] = tables[other][there], tables[one][here]
    return tables


def last_chairs(table: Sequence[Player], history: Sequence[Round]) -> tuple:
    """The table's six by the seat number each last sat in tonight (``EMPTY_CHAIR``
    where none did; two who last sat in one seat number: the first of ``table``)."""
    last_seat = {player: seat for played in history for chairs in played.tables
                 for seat, player in enumerate(chairs)}
    return tuple(next((player for player in table if last_seat.get(player) == seat),
                      EMPTY_CHAIR) for seat in range(TABLE))


def next_round(present: Sequence[Player], history: Sequence[Round],
               layout: TeamLayout | str) -> Round:
    """The seating proposed for the evening's next round (the module's rules 1-5).

    ``present``: everyone here now, in a stable order (e.g. of arrival), each once;
    ``history``: the rounds the evening played so far, oldest first."""
    if len(set(present)) != len(present):
        raise ValueError("a player is present twice")
    count = len(present) // TABLE
    out = to_sit_out(present, history, len(present) - count * TABLE)
    resting = set(out)
    playing = [player for player in present if player not in resting]
    partners = partnered(history)
    tables = []
    for table in mixed_tables(playing, count, table_mates(history)):
        table = sorted(table, key=playing.index)
        split = next_partners(table, layout, partners)
        tables.append(seated(split, layout, last_chairs(table, history)))
    return Round(tuple(tables), tuple(out), TeamLayout(layout))
