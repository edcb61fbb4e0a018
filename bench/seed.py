"""Seed a large club for the benchmark: years of evenings of legal, random games.

    python bench/seed.py instance/large.sqlite            # 1,000 evenings, 5,000 games
    python bench/seed.py big.sqlite --evenings 10 --games 50 --hands 1000
    python bench/seed.py small.sqlite --layouts 2x2 c4 c5    # tables of four and five

Every game is played out by the rules engine (random auctions, trump and points), so
each one replays exactly as a table would have recorded it; rows are written with bulk
inserts. A game ends when the rules say it is over; the last games of the run stop
early (still in play) when the hand budget runs out, so the totals come out exact.
Each game's layout is drawn from those given (by default three pairs three times in
four, else two teams of three), and it seats as many players as its layout does.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Sequence

from sqlalchemy import insert
from sqlmodel import Session, select

from scorekeeper.rules import (
    PASS, SUITS, Deal, HandRejected, HouseRules, Tally, quick_auction, replay,
)
from scorekeeper.rules.table import left_of, team_of
from scorekeeper.store.models import Club, Evening, Game, GameSeat, Hand, Player
from scorekeeper.store.replay import hand_fields

NAMES = [
    "Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida", "Jon", "Kim", "Lea",
    "Max", "Nia", "Oli", "Pia", "Quin", "Rob", "Sam", "Tia", "Uma", "Vic", "Wes", "Xia",
    "Yan", "Zoe", "Ari", "Bea", "Cal", "Dee",
]
CARD_POINTS = ("high", "low", "right", "left", "joker")


def random_deal(rng: random.Random, rules: HouseRules, dealer: int) -> Deal:
    """One deal: a throw-in now and then, else a contract, trump and every point owned."""
    seats = range(1, rules.seats + 1)
    if rng.random() < 0.08:
        return Deal((PASS,) * len(seats))
    bidder = rng.choice(seats)
    auction = quick_auction(dealer, bidder, rng.choice((3, 3, 4, 4, 5, 6)), len(seats))
    teams = rules.team_names
    bidding = team_of(bidder, rules.teams)
    owners = (*teams, bidding)  # the bidder's team takes a little more
    points = {name: rng.choice(owners) for name in CARD_POINTS}
    kind = rng.random()
    if kind < 0.1:
        tally = Tally(points, None)  # Game tied
    elif kind < 0.2:
        values = {team: rng.randint(0, 81 // len(teams)) for team in teams}
        tally = Tally(points, None, values)
    else:
        tally = Tally(points, rng.choice(owners))
    return Deal(auction.calls, rng.choice(SUITS).value, tally)


def random_game(rng: random.Random, rules: HouseRules, first_dealer: int,
                most: int) -> list[Deal]:
    """Deals until the game is over (or ``most`` deals), each legal where it is played."""
    deals, dealer = [], first_dealer
    while len(deals) < most:
        deal = random_deal(rng, rules, dealer)
        deals.append(deal)
        if deal.tally is not None:
            dealer = left_of(dealer, rules.seats)
        if len(deals) % 8 == 0 or len(deals) == most:
            try:
                if replay(rules, first_dealer, deals).finished:
                    return deals
            except HandRejected as ended:  # over before this batch was done
                return deals[: ended.number - 1]
    return deals


def first_club(session: Session) -> Club:
    """The database's first club; a new one, made here, where it has none (a new
    database has none: its first club is made by someone, never by the migrations)."""
    club = session.exec(select(Club).order_by(Club.id)).first() or Club(name="Bench club")
    session.add(club)
    session.commit()
    return club


SIXES = ("3x2", "3x2", "3x2", "2x3")  # the layouts drawn unless others are given


def seed(session: Session, club: Club, *, evenings: int, games: int, hands: int,
         rng: random.Random, today: date | None = None,
         layouts: Sequence[str] = SIXES) -> dict[str, int]:
    """Fill ``club`` with that many evenings, games and hands (games spread evenly), each
    game at a layout drawn from ``layouts``."""
    today = today or datetime.now(timezone.utc).date()
    players = [Player(club_id=club.id, name=name, name_key=name.casefold()) for name in NAMES]
    session.add_all(players)
    session.commit()
    player_ids = [player.id for player in players]
    evening_rows = [
        {"club_id": club.id, "played_on": today - timedelta(days=3 * (evenings - i)),
         "created_at": datetime.now(timezone.utc)}
        for i in range(evenings)
    ]
    session.execute(insert(Evening), evening_rows)
    evening_ids = list(session.exec(
        select(Evening.id).where(Evening.club_id == club.id).order_by(Evening.played_on)))
    hands_left, written = hands, 0
    for index in range(games):
        evening_id = evening_ids[index * evenings // games]
        rules = HouseRules(teams=rng.choice(layouts),
                           target=rng.choice((21, 21, 21, 31)))  # a longer game now and then
        seats = range(1, rules.seats + 1)
        first_dealer = rng.choice(seats)
        games_left = games - index
        # Whatever the budget, each remaining game keeps at least one hand to play.
        deals = random_game(rng, rules, first_dealer,
                            max(1, min(60, hands_left - (games_left - 1))))
        game = Game(club_id=club.id, evening_id=evening_id, teams=rules.teams.value,
                    target=rules.target, first_dealer=first_dealer)
        session.add(game)
        session.flush()
        for seat, player_id in zip(seats, rng.sample(player_ids, len(seats))):
            session.add(GameSeat(game_id=game.id, seat=seat, player_id=player_id))
        if deals:
            session.execute(insert(Hand), [
                {"game_id": game.id, "number": number,
                 "recorded_at": datetime.now(timezone.utc),
                 **hand_fields(deal, rules.team_names)}
                for number, deal in enumerate(deals, start=1)
            ])
        hands_left -= len(deals)
        written += len(deals)
        if index % 250 == 249:
            session.commit()
    session.commit()
    return {"players": len(players), "evenings": evenings, "games": games, "hands": written}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("database", type=Path, help="a new SQLite file")
    parser.add_argument("--evenings", type=int, default=1000)
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--layouts", nargs="+", default=list(SIXES), metavar="LAYOUT",
                        help="the layouts games are drawn from (3x2, 2x3, c6, 2x2, c4, c5)")
    args = parser.parse_args(argv)
    if args.database.exists():
        parser.error(f"{args.database} exists: the seed fills a new database")
    from scorekeeper import create_app
    from scorekeeper.figures.summaries import refresh

    app = create_app({"DATABASE_URL": f"sqlite:///{args.database.resolve()}"})
    started = time.perf_counter()
    with Session(app.extensions["db_engine"]) as session:
        club = first_club(session)
        counts = seed(session, club, evenings=args.evenings, games=args.games,
                      hands=args.hands, rng=random.Random(args.seed), layouts=args.layouts)
        seeded = time.perf_counter()
        refresh(session, club.id)
    print(", ".join(f"{value:,} {name}" for name, value in counts.items()))
    print(f"seeded in {seeded - started:.1f} s; statistics counted in "
          f"{time.perf_counter() - seeded:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
