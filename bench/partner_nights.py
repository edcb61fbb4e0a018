"""How many club nights before players have a best partner: the nights until each player
has partnered someone in at least ``SHARED_GAMES`` finished games, for a few thresholds.

    python bench/partner_nights.py                  # 13 members, 3 rounds a night
    python bench/partner_nights.py --members 14 --rounds 4 --nights 30

Each night everyone comes, in an order shuffled afresh (fixed seed), and plays
``--rounds`` rounds seated by ``figures.rounds.next_round`` (partners rotated within the
night, sit-outs in turn). Every game is taken as finished. Printed: for each threshold,
the night by which half the players, and all of them, had such a partner.
"""
from __future__ import annotations

import argparse
import random
from collections import Counter

from scorekeeper.figures.rounds import next_round, partnered
from scorekeeper.rules.table import TeamLayout


def nights_until(members: int, rounds: int, nights: int, threshold: int) -> tuple:
    players = [f"P{number}" for number in range(members)]
    shuffle = random.Random(7).shuffle
    together: Counter[frozenset] = Counter()
    half = everyone = None
    for night in range(1, nights + 1):
        shuffle(players)
        history: list = []
        for _ in range(rounds):
            history.append(next_round(players, history, TeamLayout.THREE_PAIRS))
        together += partnered(history)
        have = {player for pair, games in together.items() if games >= threshold
                for player in pair}
        half = half or (night if 2 * len(have) >= members else None)
        everyone = everyone or (night if len(have) == members else None)
    return half, everyone


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--members", type=int, default=13)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--nights", type=int, default=30)
    args = parser.parse_args()
    print(f"{args.members} members, {args.rounds} rounds a night:")
    for threshold in (3, 5):
        half, everyone = nights_until(args.members, args.rounds, args.nights, threshold)
        print(f"  {threshold} games shared: half the players after night {half}, "
              f"all after night {everyone}")


if __name__ == "__main__":
    main()
