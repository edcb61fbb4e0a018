"""Balancing the teams on the new-game page: the club's ratings of the players typed
in, and the split asked for seated, with the next best splits to offer.

The page's players are their places in its list of names, 0 to one less than the
layout's seats (a table of four takes the first four names); ``teams`` does the
arithmetic on them, this module reads the ratings and puts its answer in words the page
shows. Two pairs of four have three splits to offer, three pairs fifteen, two trios
ten; a cutthroat layout none, since each player is a team of their own.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from sqlmodel import Session

from scorekeeper.figures.ratings import Rating, club_ratings
from scorekeeper.figures.teams import (
    BEST, OFFERED, Balance, balance, most_even, read_seats_text, seated, seats_text, splits,
    team_sets, team_size,
)
from scorekeeper.rules import TeamLayout, teams_for
from scorekeeper.store.models import Club
from scorekeeper.store.rosters import roster
from scorekeeper.text.names import clean_name, name_key


@dataclass(frozen=True)
class SeatedTeams:
    """A split as the page shows it: its teams in their seats (letter, names, chance to
    win) and the ``balance`` value that seats it ("14-25-36": seats of the page now)."""

    seats: str
    teams: list[tuple[str, list[str], float]]


@dataclass(frozen=True)
class Balanced:
    """The new-game page after "Balance the teams": the split seated, the two most even
    others, out of how many, and whether a new player was counted as one; ``chairs``:
    the player (place in the list) in each seat now."""

    seated: SeatedTeams
    others: list[SeatedTeams]
    ways: int
    new_players: bool
    most_even: bool  # no split leaves the favourite a smaller chance (not so, once tapped)
    chairs: tuple[int, ...] = ()

    @property
    def chances(self) -> dict[str, float]:
        return {team: chance for team, _names, chance in self.seated.teams}


def rated_players(session: Session, club: Club, names: Sequence[str]) -> dict[int, Rating]:
    """The ratings of the players named that have one, by their places in ``names``."""
    on_roster = {player.name_key: player.id for player in roster(session, club)}
    ratings = club_ratings(session, club.id)
    return {player: ratings[on_roster[name_key(name)]] for player, name in enumerate(names)
            if on_roster.get(name_key(name)) in ratings}


def _shown(option: Balance, chairs: Sequence[int], now: Sequence[int], names: Sequence[str],
           layout: str) -> SeatedTeams:
    """The split seated so (``chairs``: the player in each seat), described with the
    seats the players have ``now``."""
    chance = {frozenset(team): odds for team, odds in zip(option.split, option.chances)}
    return SeatedTeams(
        seats_text(tuple(tuple(now.index(player) + 1 for player in team)
                         for team in option.split)),
        [(team, [clean_name(names[chairs[seat - 1]]) for seat in seats],
          chance[frozenset(chairs[seat - 1] for seat in seats)])
         for team, seats in teams_for(layout).items()])


def balances(layout: TeamLayout | str) -> bool:
    """Whether the layout has teams to balance: not where each plays for themselves."""
    return not TeamLayout(layout).cutthroat


def balance_seats(names: Sequence[str], layout: str, asked: str,
                  rated: dict[int, Rating]) -> Balanced | None:
    """Seat the layout's players (the first of ``names``, one a seat) in the split
    ``asked`` for: "best" (the most even) or seats to put together ("14-25-36", "13-24"),
    moving as few players as can be. None if it asks for no split of the layout, or the
    layout has no teams to balance (``balances``)."""
    if not balances(layout):
        return None
    here = tuple(range(TeamLayout(layout).seats))
    # Taken in the order of their names, so that equally even splits come in the same
    # order whatever the seats.
    players = sorted(here, key=lambda player: name_key(names[player]))
    best = most_even(players, layout, rated, 1, here)[0]
    if asked == BEST:
        chosen = best
    else:
        wanted = read_seats_text(asked, layout)
        if wanted is None:
            return None
        chosen = balance(tuple(tuple(seat - 1 for seat in team) for team in wanted), rated)
    chairs = seated(chosen.split, layout, here)
    in_seats = team_sets(chosen.split)
    others = [option for option in most_even(players, layout, rated, chairs=chairs)
              if team_sets(option.split) != in_seats][:OFFERED - 1]
    return Balanced(
        _shown(chosen, chairs, chairs, names, layout),
        [_shown(option, seated(option.split, layout, chairs), chairs, names, layout)
         for option in others],
        len(splits(players, team_size(layout))), new_players=not set(here) <= set(rated),
        most_even=max(chosen.chances) <= max(best.chances) + 1e-9, chairs=chairs)
