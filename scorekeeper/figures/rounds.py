"""Rounds: an evening of several tables, seated afresh round by round.

Pure functions over any players that can be told apart (names, ids). ``next_round``
proposes the next round for everyone present from the rounds the evening played so far
(as they were finally seated, the organiser's changes included); the organiser may
change the proposal before it starts. Its rules:

1. **Tables of four to six, nobody left out.** Everyone present plays whenever they can
   be cut into tables of four, five or six: any count from four on but seven. Seven is
   the one count no cut fits: one table of six plays and one sits out, in turn. Fewer
   than four make no table: everyone waits (sits out). How the players are cut into
   tables (``table_sizes``) is the club's choice (``Club.prefers_sixes``):

   - **the fewest tables, as even as can be** (the default): 10 are 5 + 5, 14 are
     5 + 5 + 4. Fewest tables: the fewest decks and card tables to set out. As even as
     can be: the tables' games take about as long, so a round ends together and no
     table waits long for the next one.
   - **as many sixes as fit** (a club that prefers sixes), the rest in fours and fives,
     as even as can be: 10 are 6 + 4, 14 are 6 + 4 + 4, 13 are 5 + 4 + 4 (six and seven
     left would not cut).

   Tables are listed largest first. Each table plays the layout the evening last played
   at a table of its size, else that size's default (``rules.table.layouts_for``):
   three pairs at six, two pairs at four, cutthroat at five.
2. **Sit-outs rotate fairly.** Those to sit out are the ones who have sat out fewest
   rounds this evening; between equals, the ones who played most games this evening
   (each table of a round is one game); then the last in the order of ``present`` (the
   last to come, or to say they come: the first come are the first seated).
   While the same players stay, any two of them have sat out as many rounds, or one
   apart.
3. **Partners rotate, tables mix.** The players who play are cut into tables so that
   the same players meet at a table as seldom as can be: a cut costs, for each two at
   one table, the rounds they already shared a table tonight, and the cut of the lowest
   cost is taken. With one or two tables every cut is weighed (462 for twelve players
   in two sixes, 210 for six and four: ``teams.groups``, the first it lists of equal
   cost). Three tables and more have millions: the players are dealt round the tables
   in the order of ``present``, then two of different tables change places while that
   lowers the cost, the largest saving first, which ends at a cut that no exchange of
   two players improves (not always the cheapest of all). Within each table the teams
   are the split of ``teams.next_partners``: no one with a partner they had tonight,
   where possible, partners counted over every table of every round. A cutthroat table
   has no partners: only its table-mates mix.
4. **Deterministic.** The same players in the same order with the same rounds before
   give the same proposal.
5. **Arrivals and leavers.** A player new to ``present`` has sat out no round and
   played no game; a player who left is not in ``present`` and is not seated.

Each table is its players seat by seat (seat 1 first), its teams as its layout says
(``teams.seated``): as many as the teams allow keep the seat number they last sat in
tonight.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations
from typing import Hashable, Sequence, TypeVar

from scorekeeper.figures.teams import (
    groups, next_partners, partner_pairs, seated, split_of,
)
from scorekeeper.rules.table import TABLE_SIZES, TeamLayout, layouts_for

Player = TypeVar("Player", bound=Hashable)
Table = tuple[Player, ...]
SMALLEST_TABLE, LARGEST_TABLE = min(TABLE_SIZES), max(TABLE_SIZES)
WEIGHED = 2  # up to two tables every cut into tables is weighed; three have millions
EMPTY_CHAIR = object()  # a seat nobody at the table sat in last


@dataclass(frozen=True)
class Round:
    """One round of an evening: each table's players seat by seat (seat 1 first), who
    sat out, and each table's team layout (always given: the partners of a round played
    are read off its seats by it). One layout for every table may be given as one: the
    rounds of an evening of sixes read so."""

    tables: tuple[Table, ...]
    sitting_out: tuple[Player, ...]
    layouts: tuple[TeamLayout, ...]

    def __post_init__(self) -> None:
        layouts = self.layouts
        if isinstance(layouts, str):
            layouts = (layouts,) * len(self.tables)
        layouts = tuple(TeamLayout(layout) for layout in layouts)
        if [len(chairs) for chairs in self.tables] != [layout.seats for layout in layouts]:
            raise ValueError("each table seats as many players as its layout")
        object.__setattr__(self, "layouts", layouts)


def table_sizes(count: int, sixes: bool = False) -> tuple[int, ...]:
    """How many sit at each table when ``count`` players are present, largest first
    (rule 1): as many of them as can be seated, at the fewest tables as even as can be,
    or (``sixes``: the club prefers sixes) at as many sixes as fit."""
    while count and not _cuts_into_tables(count):
        count -= 1  # seven: six play; fewer than four: nobody
    if sixes:
        sixes_fit = next(many for many in range(count // LARGEST_TABLE, -1, -1)
                         if _cuts_into_tables(count - many * LARGEST_TABLE, LARGEST_TABLE - 1))
        return (LARGEST_TABLE,) * sixes_fit + _even(count - sixes_fit * LARGEST_TABLE,
                                                     LARGEST_TABLE - 1)
    return _even(count, LARGEST_TABLE)


def _cuts_into_tables(count: int, largest: int = LARGEST_TABLE) -> bool:
    """Whether ``count`` players make tables of the smallest size to ``largest``, each
    full (none, too: nobody left to seat)."""
    return count == 0 or count >= SMALLEST_TABLE * -(-count // largest)


def _even(count: int, largest: int) -> tuple[int, ...]:
    """``count`` players at the fewest tables of at most ``largest``, as even as can be,
    largest first."""
    tables = -(-count // largest)
    return tuple(count // tables + (table < count % tables) for table in range(tables))


def seated_count(count: int) -> int:
    """How many of ``count`` present play in a round: all but at seven, or under four."""
    return sum(table_sizes(count))


def round_wanted(here: Sequence[Player], last_table: Sequence[Player] = ()) -> bool:
    """Whether a next round is worth proposing for those ``here``: from the smallest
    table on, unless they are just the players of the game that ended (``last_table``):
    those play on together, with new partners."""
    return len(here) >= SMALLEST_TABLE and set(here) != set(last_table)


def table_layouts(played: Sequence[TeamLayout | str] | TeamLayout | str = ()
                  ) -> dict[int, TeamLayout]:
    """Each table size -> the layout its table plays next (rule 1): the last of
    ``played`` (the evening's games' layouts so far, oldest first, or one layout) at a
    table of that size, else the size's default."""
    if isinstance(played, str):
        played = (played,)
    layouts = {size: layouts_for(size)[0] for size in TABLE_SIZES}
    layouts.update((TeamLayout(layout).seats, TeamLayout(layout)) for layout in played)
    return layouts


def rounds_sat_out(history: Sequence[Round]) -> Counter:
    """Each player -> how many rounds tonight they sat out."""
    return Counter(player for played in history for player in played.sitting_out)


def games_played(history: Sequence[Round]) -> Counter:
    """Each player -> how many games tonight they played (one a round at a table)."""
    return Counter(player for played in history for chairs in played.tables
                   for player in chairs)


def partnered(history: Sequence[Round]) -> Counter[frozenset]:
    """Each two players -> how many games tonight they were partners in."""
    return Counter(pair for played in history
                   for chairs, layout in zip(played.tables, played.layouts)
                   for pair in partner_pairs(split_of(chairs, layout)))


def table_mates(history: Sequence[Round]) -> Counter[frozenset]:
    """Each two players -> how many rounds tonight they sat at one table."""
    return Counter(frozenset(two) for played in history for chairs in played.tables
                   for two in combinations(chairs, 2))


def to_sit_out(present: Sequence[Player], history: Sequence[Round], count: int
               ) -> list[Player]:
    """The ``count`` players to sit out next (rule 2), in the order of ``present``."""
    return _in_turn(present, rounds_sat_out(history), games_played(history), count)


def _in_turn(present: Sequence[Player], sat_out: Counter, played: Counter, count: int
             ) -> list[Player]:
    """``to_sit_out`` from the rounds each sat out and the games each played."""
    order = {player: place for place, player in enumerate(present)}
    turn = sorted(present, key=lambda player: (sat_out[player], -played[player],
                                               -order[player]))
    return sorted(turn[:count], key=order.__getitem__)


def sit_outs_ahead(present: Sequence[Player], history: Sequence[Round], rounds: int
                   ) -> list[tuple[Player, ...]]:
    """Who sits out in each of the next ``rounds`` rounds while the same stay: rule 2
    alone, since who sits out depends neither on who plays with whom nor on the sizes
    of the tables (everyone who can be seated is, whatever the club prefers)."""
    sat_out, played, ahead = rounds_sat_out(history), games_played(history), []
    for _ in range(rounds):
        out = tuple(_in_turn(present, sat_out, played,
                             len(present) - seated_count(len(present))))
        sat_out.update(out)
        played.update(player for player in present if player not in out)
        ahead.append(out)
    return ahead


def met_before(table: Sequence[Player], mates: Counter[frozenset]) -> int:
    """How many rounds tonight the table's players already shared a table, two by two."""
    return sum(mates[frozenset(two)] for two in combinations(table, 2))


def best_exchange(tables: list[list[Player]], mates: Counter[frozenset]
                  ) -> tuple[int, int, int, int] | None:
    """The exchange of two players of different tables (table, place, table, place)
    that lowers ``met_before`` over the tables most (the first such), if any does. An
    exchange keeps every table's size."""
    best, gain = None, 0
    for one, other in combinations(range(len(tables)), 2):
        before = met_before(tables[one], mates) + met_before(tables[other], mates)
        for here, there in ((i, j) for i in range(len(tables[one]))
                            for j in range(len(tables[other]))):
            first, second = list(tables[one]), list(tables[other])
            first[here], second[there] = second[there], first[here]
            saved = before - met_before(first, mates) - met_before(second, mates)
            if saved > gain:
                best, gain = (one, here, other, there), saved
    return best


def mixed_tables(players: Sequence[Player], sizes: Sequence[int], mates: Counter[frozenset]
                 ) -> list[list[Player]]:
    """The players cut into tables of ``sizes`` (rule 3), in that order: of every cut up
    to ``WEIGHED`` tables, the lowest ``met_before`` in all; beyond, dealt round the
    tables, then two of different tables exchanged while that lowers it."""
    if len(sizes) <= WEIGHED:
        cut = min(groups(players, sizes),
                  key=lambda tables: sum(met_before(table, mates) for table in tables))
        return [list(table) for table in cut]
    tables = dealt(players, sizes)
    while (exchange := best_exchange(tables, mates)) is not None:
        one, here, other, there = exchange
        tables[one][here], tables[other][there] = tables[other][there], tables[one][here]
    return tables


def dealt(players: Sequence[Player], sizes: Sequence[int]) -> list[list[Player]]:
    """The players dealt round tables of ``sizes`` in turn, a full table left out."""
    tables: list[list[Player]] = [[] for _ in sizes]
    turn = 0
    for player in players:
        while len(tables[turn % len(sizes)]) == sizes[turn % len(sizes)]:
            turn += 1
        tables[turn % len(sizes)].append(player)
        turn += 1
    return tables


def last_chairs(table: Sequence[Player], history: Sequence[Round]) -> tuple:
    """The table's players by the seat number each last sat in tonight (``EMPTY_CHAIR``
    where none did, or none can at a table this size; two who last sat in one seat
    number: the first of ``table``)."""
    last_seat = {player: seat for played in history for chairs in played.tables
                 for seat, player in enumerate(chairs)}
    return tuple(next((player for player in table if last_seat.get(player) == seat),
                      EMPTY_CHAIR) for seat in range(len(table)))


def next_round(present: Sequence[Player], history: Sequence[Round],
               played: Sequence[TeamLayout | str] | TeamLayout | str = (),
               sixes: bool = False) -> Round:
    """The seating proposed for the evening's next round (the module's rules 1-5).

    ``present``: everyone here now, in a stable order (e.g. of arrival), each once;
    ``history``: the rounds the evening played so far, oldest first; ``played``: the
    layouts of the evening's games so far, oldest first (``table_layouts``); ``sixes``:
    the club prefers tables of six (``table_sizes``)."""
    if len(set(present)) != len(present):
        raise ValueError("a player is present twice")
    sizes = table_sizes(len(present), sixes)
    out = to_sit_out(present, history, len(present) - sum(sizes))
    resting = set(out)
    playing = [player for player in present if player not in resting]
    partners, layouts = partnered(history), table_layouts(played)
    tables = []
    for table in mixed_tables(playing, sizes, table_mates(history)):
        table, layout = sorted(table, key=playing.index), layouts[len(table)]
        split = next_partners(table, layout, partners)
        tables.append(seated(split, layout, last_chairs(table, history)))
    return Round(tuple(tables), tuple(out), tuple(layouts[len(table)] for table in tables))
