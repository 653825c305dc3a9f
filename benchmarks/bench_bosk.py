"""Bosk benchmark: random full games per second (2 and 4 players) and GreedyBot's win rate over RandomBot.

Run:  python benchmarks/bench_bosk.py [--quick]
"""

from __future__ import annotations

import argparse
import random
import time

from treegames import core
from treegames.bosk import GreedyBot, new_game


def random_games_per_second(players: int, seconds: float) -> tuple[float, float]:
    """(games/s, actions/s) of RandomBot self-play for about ``seconds``."""
    game = new_game(players)
    rng = random.Random(players)
    bots = [core.RandomBot(rng)] * players
    games = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = core.play(game, bots, rng)
        games += 1
        actions += len(state.history)
    elapsed = time.perf_counter() - start
    return games / elapsed, actions / elapsed


def greedy_win_rate(players: int, games: int) -> tuple[float, float]:
    """(win rate, seconds) of one GreedyBot against RandomBots, seat rotating, seeds 0..games-1."""
    game = new_game(players)
    wins = 0
    start = time.perf_counter()
    for seed in range(games):
        rng = random.Random(seed)
        seat = seed % players
        bots = [core.RandomBot(rng) for _ in range(players)]
        bots[seat] = GreedyBot()
        wins += core.play(game, bots, rng).winners() == (seat,)
    return wins / games, time.perf_counter() - start


def main() -> None:
    """Print the figures as plain lines."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a shorter run")
    args = parser.parse_args()
    seconds = 2.0 if args.quick else 8.0
    greedy_games = 40 if args.quick else 200
    for players in (2, 4):
        games, actions = random_games_per_second(players, seconds)
        print(f"bosk {players}p random games/s: {games:.1f}")
        print(f"bosk {players}p random actions/s: {actions:.0f}")
    for players in (2, 4):
        rate, spent = greedy_win_rate(players, greedy_games)
        print(f"bosk {players}p greedy win rate vs random over {greedy_games} games: {rate:.3f} ({spent:.1f} s)")


if __name__ == "__main__":
    main()
