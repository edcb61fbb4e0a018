"""Server time of the game page's win chances: with and without them, at hand 5 and 40;
and the simulation at every table layout, as ratios to three pairs.

    python bench/chances.py                 # a club with 200 games of history
    python bench/chances.py --history 1000 --runs 30
    python bench/chances.py --tables-only   # the layouts alone (no club, no pages)

A club is seeded with ``--history`` games (``bench/seed.py``), then two new games (three
pairs) are recorded hand by hand through Flask's test client: one to 21, timed at hand
5, one to 61 (still in play at hand 40), timed at hand 40. The game page is timed (the
server's own time, the page cache off so that every request renders):

- without chances (the page as it was before them);
- with them worked out afresh, as the first page after a hand does (the simulation
  alone is timed too, its verdicts cold and warm);
- with them kept for the revision, as every later page of that revision finds them.

Reading the club's history and scoring its hands happens once per game and process; it
is timed on its own, in a process that has read nothing yet and in one that has read
the club's games before.

Then every layout (``TeamLayout``: four, five and six seats, pairs, threes, cutthroat),
each with a club history of ``--layout-hands`` hands of its own drawn at random (the
bidder's team taking a little more, as ``bench/seed.py`` plays them): the simulation
alone from three places, each as a ratio to three pairs from the same place, and the
hands it played. A game page's cost with chances is the page without them (the same at
every layout) and the simulation. From the start to 31 every layout plays out the whole
hand budget (``HAND_BUDGET``): the dearest page. Nothing is asserted: numbers are measured.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from unittest import mock

from sqlmodel import Session

sys.path.insert(0, str(Path(__file__).resolve().parent))

import seed as seeding  # noqa: E402  (bench/seed.py)
from page_times import owner_client  # noqa: E402
from scorekeeper import create_app
from scorekeeper.figures import chances  # noqa: E402
from scorekeeper.rules import HouseRules, TeamLayout, replay as replay_deals, team_of
from scorekeeper.store import replay  # noqa: E402
from scorekeeper.store.kept import LockedLRU  # noqa: E402
from scorekeeper.store.models import Game  # noqa: E402
from scorekeeper.store.replay import load_replay  # noqa: E402
from scorekeeper.views import pages

SEATS = {f"seat_{i}": name for i, name in enumerate(seeding.NAMES[:6], 1)}
POINTS = ("high", "low", "right", "left", "joker")
GAMES = ((5, 21), (40, 61))  # (the hand it is timed at, the game's target)


def hand_form(rng: random.Random, number: int, dealer: int) -> dict:
    """A played hand as the page posts it: a quick bid, trump, a team for each point."""
    bidder, bid = rng.randint(1, 6), rng.choice((3, 3, 4, 4, 5, 6))
    calls = []
    for step in range(1, 7):
        calls.append(str(bid) if (dealer + step - 1) % 6 + 1 == bidder else "pass")
        if calls[-1] == "6":
            break
    form = {"number": number, "calls": ",".join(calls), "trump": "hearts",
            "game": rng.choice("ABC")}
    form.update({point: rng.choice("ABC") for point in POINTS})
    return form


class Timing:
    """Milliseconds of ``runs`` runs: the median and the best (on a shared machine the
    best is the one least disturbed by others)."""

    def __init__(self, action, runs: int) -> None:
        times = []
        for _ in range(runs):
            started = time.perf_counter()
            action()
            times.append((time.perf_counter() - started) * 1000)
        self.median, self.best = statistics.median(times), min(times)

    def __format__(self, spec: str) -> str:
        return f"{self.median:5.1f} ({self.best:4.1f})"


# Where each layout's games are played out from: (words, target, scores by team as a
# share of the target, in the order of the teams). From the start to 31 every layout
# plays out the whole hand budget: the dearest page there is.
PLACES = (("start (to 21)", 21, (0,)), ("mid-game (to 21)", 21, (0.6, 0.45, 0.3, 0.5, 0.2, 0.4)),
          ("start (to 31)", 31, (0,)))


def club_history(rng: random.Random, rules: HouseRules, hands: int) -> list[chances.Shape]:
    """Played hands of a club of this layout: any seat deals and bids, each point to any
    team, the bidder's a little more often, Game tied one hand in ten."""
    teams = rules.team_names
    shapes = []
    for _ in range(hands):
        dealer, bidder = rng.randint(1, rules.seats), rng.randint(1, rules.seats)
        owners = (*teams, team_of(bidder, rules.teams))
        won = [rng.choice(owners) for _ in range(5 if rng.random() < 0.1 else 6)]
        taken = {team: won.count(team) for team in teams}
        shapes.append(chances.shape_of(rules, dealer, bidder, rng.choice((3, 3, 4, 4, 5, 6)),
                                       taken))
    return shapes


class Place:
    """One layout's game at one place: its deck (built cold, timed), what the simulation
    shows, and the hands and games it plays out."""

    def __init__(self, layout: TeamLayout, club: list[chances.Shape], target: int,
                 shares: tuple[float, ...]) -> None:
        rules = HouseRules(layout, target=target)
        scores = {team: round(target * shares[i % len(shares)])
                  for i, team in enumerate(rules.team_names)}
        self.state = replace(replay_deals(rules, 1, []), scores=scores)
        self.seed = chances.seed_for(self.state)
        chances.scored.cache_clear()
        started = time.perf_counter()
        self.deck = chances.Deck(rules, chances.blended(rules, club))
        self.deck_ms = (time.perf_counter() - started) * 1000
        self.hands = self.games = 0

        def counted(deck, start, draws, play=chances.played_out):
            winner, took = play(deck, start, draws)
            self.hands += took
            self.games += winner is not None
            return winner, took

        with mock.patch.object(chances, "played_out", counted):  # (the verdicts warmed too)
            self.shown = self.simulate()
        self.times: list[float] = []

    def simulate(self):
        return chances.simulate(self.state, self.deck, self.seed)

    def time_once(self) -> None:
        started = time.perf_counter()
        self.simulate()
        self.times.append((time.perf_counter() - started) * 1000)


def every_table(runs: int, hands: int) -> None:
    """The simulation alone at every layout, each place as a ratio to three pairs'. The
    layouts take turns, a run each, so that whatever else the machine does falls on all
    of them alike."""
    rng = random.Random(42)
    clubs = {layout: club_history(rng, HouseRules(layout), hands) for layout in TeamLayout}
    places = {(layout, words): Place(layout, clubs[layout], target, shares)
              for words, target, shares in PLACES for layout in TeamLayout}
    for _ in range(runs):
        for place in places.values():
            place.time_once()
    print(f"every table, the simulation alone: ms, median (best) of {runs} runs, verdicts"
          f" warm; x three pairs' best; hands and games played out; club {hands} hands")
    for words, _target, _shares in PLACES:
        print(f"  {words}")
        base = min(places[TeamLayout.THREE_PAIRS, words].times)
        for layout in TeamLayout:
            place = places[layout, words]
            median, best = statistics.median(place.times), min(place.times)
            print(f"    {layout:3}  {median:5.1f} ({best:4.1f}) x{best / base:4.2f}"
                  f"   {place.hands:6} hands {place.games:5} games"
                  f"{'   (too soon to tell)' if place.shown is None else ''}")
    print("  the deck (the club's hands with the default), scored cold, once per game:")
    for layout in TeamLayout:
        place = places[layout, PLACES[0][0]]
        print(f"    {layout:3}  {place.deck_ms:6.1f} ms, {len(place.deck.shapes)} shapes")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--history", type=int, default=200, help="games the club played")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--layout-hands", type=int, default=600,
                        help="each layout's club history, in hands")
    parser.add_argument("--tables-only", action="store_true",
                        help="only the simulation at every layout")
    args = parser.parse_args(argv)
    if args.tables_only:
        every_table(args.runs, args.layout_hands)
        return 0
    rng = random.Random(16)
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"DATABASE_URL": f"sqlite:///{Path(folder) / 'club.sqlite'}",
                          "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False,
                          "PAGE_CACHE_BYTES": 0})
        engine = app.extensions["db_engine"]
        with Session(engine) as session:
            club = seeding.first_club(session)
            seeding.seed(session, club, evenings=max(1, args.history // 5),
                         games=args.history, hands=args.history * 40, rng=rng)
        client = owner_client(app)
        rows = []
        for hand, target in GAMES:
            started = client.post("/games/new", data={**SEATS, "teams": "3x2",
                                                      "target": str(target), "first_dealer": "1"})
            game_id = int(started.headers["Location"].rsplit("/", 1)[1])
            url = f"/games/{game_id}"
            played = 0
            while played < hand:
                with Session(engine) as session:
                    replayed = load_replay(session, session.get(Game, game_id))
                response = client.post(f"{url}/hands", data=hand_form(
                    rng, played + 1, replayed.state.next_dealer))
                assert response.status_code == 303, response.get_data(as_text=True)[:300]
                played += 1
            with Session(engine) as session:
                replayed = load_replay(session, session.get(Game, game_id))
                def read_history(cold: bool):
                    if cold:  # the first game this process shows: nothing read or scored
                        chances.GAME_HANDS = LockedLRU(512)
                        chances.scored.cache_clear()
                        replay.REPLAYS = replay.Replays(games=2048)
                    chances.Deck(replayed.rules, chances.blended(
                        replayed.rules, chances.club_shapes(session, replayed.game)))

                deck_ms = (Timing(lambda: read_history(True), 3),
                           Timing(lambda: read_history(False), 3))
                deck = chances.Deck(replayed.rules, chances.blended(
                    replayed.rules, chances.club_shapes(session, replayed.game)))
            seed = chances.seed_for(replayed.state)

            def cold():
                deck.ended.clear()
                chances.simulate(replayed.state, deck, seed)

            client.get(url)  # warm: templates compiled, the deck built
            def afresh():
                chances.CHANCES = LockedLRU(8)  # a new revision: nothing kept for it
                client.get(url)

            fresh = Timing(afresh, args.runs)
            kept = Timing(lambda: client.get(url), args.runs)
            with mock.patch.object(pages, "shown_chances", lambda replayed, past: None):
                without = Timing(lambda: client.get(url), args.runs)
            shown = chances.simulate(replayed.state, deck, seed)
            assert not replayed.state.finished
            rows.append((f"hand {hand} (target {target})", replayed.state.scores, shown, without, fresh, kept,
                         Timing(cold, args.runs),
                         Timing(lambda: chances.simulate(replayed.state, deck, seed), args.runs),
                         deck_ms))
    print(f"club history: {args.history} games; ms, median (best) of {args.runs} runs")
    for hand, scores, shown, without, fresh, kept, cold_ms, warm_ms, deck_ms in rows:
        print(f"{hand}: scores {scores}, chances {shown}")
        print(f"  page without chances {without}   with them worked out {fresh}"
              f"   kept for the revision {kept}")
        print(f"  simulation alone: {cold_ms} (verdicts cold), {warm_ms} (warm)")
        print(f"  the club's history read and scored, once per game: {deck_ms[0]} (the"
              f" process's first game), {deck_ms[1]} (its games read before)")
    every_table(args.runs, args.layout_hands)
    return 0


if __name__ == "__main__":
    sys.exit(main())
