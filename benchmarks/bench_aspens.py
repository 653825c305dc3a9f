"""Aspens benchmark: random games per second, actions per game, history memory, GreedyBot's win rate.

Run as ``python benchmarks/bench_aspens.py`` (about 30-60 s) or with ``--quick``.
Random games go from the first-player roll to the end with RandomBot on both
sides through ``core.play`` (immutable states, one core).
"""

from __future__ import annotations

import argparse
import random
import time
import tracemalloc

from treegames import core
from treegames.aspens import GreedyBot, new_game


def random_games_per_second(games: int, seed: int = 0) -> tuple[float, float, float]:
    """(games/s by the wall clock, games/s by this process's CPU time, mean actions per game)."""
    game = new_game()
    rng = random.Random(seed)
    bots = [core.RandomBot(rng), core.RandomBot(rng)]
    actions = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    for _ in range(games):
        actions += len(core.play(game, bots, rng).history)
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    return games / elapsed, games / cpu, actions / games


def profile_random_games(games: int) -> None:
    """Print where the time of random games goes (cProfile, top functions by own time)."""
    import cProfile
    import pstats

    game = new_game()
    rng = random.Random(1)
    bots = [core.RandomBot(rng), core.RandomBot(rng)]
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(games):
        core.play(game, bots, rng)
    profiler.disable()
    pstats.Stats(profiler).sort_stats("tottime").print_stats(12)


def history_memory(seed: int = 0) -> tuple[int, float]:
    """(states kept, KiB) of a full game's list of states, as for undo (tracemalloc)."""
    game = new_game()
    rng = random.Random(seed)
    tracemalloc.start()
    states = core.play(game, [core.RandomBot(rng), core.RandomBot(rng)], rng, keep=True)
    current, _peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return len(states), current / 1024


def greedy_win_rate(games: int, seed: int = 10_000) -> tuple[float, int, int, float]:
    """(win rate, wins, ties, games/s) of GreedyBot v RandomBot, swapping seats each game."""
    game = new_game()
    wins = ties = 0
    start = time.perf_counter()
    for n in range(games):
        rng = random.Random(seed + n)
        seat = n % 2
        bots = [core.RandomBot(rng), core.RandomBot(rng)]
        bots[seat] = GreedyBot(rng)
        winners = core.play(game, bots, rng).winners()
        wins += winners == (seat,)
        ties += len(winners) == 2
    return wins / games, wins, ties, games / (time.perf_counter() - start)


def main() -> None:
    """Print the figures as plain lines."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer games (a few seconds)")
    parser.add_argument("--profile", action="store_true", help="also print a profile of random games")
    args = parser.parse_args()
    random_games = 100 if args.quick else 1000
    greedy_games = 20 if args.quick else 200
    random_games_per_second(10)  # warm up
    rate, cpu_rate, actions = random_games_per_second(random_games)
    print(f"aspens random games/s: {rate:.1f}")
    print(f"aspens random games/s by cpu time: {cpu_rate:.1f}")
    print(f"aspens actions per random game: {actions:.1f}")
    kept, kib = history_memory()
    print(f"aspens full history memory: {kib:.0f} KiB for {kept} states ({kib * 1024 / kept:.0f} bytes/state)")
    win_rate, wins, ties, greedy_rate = greedy_win_rate(greedy_games)
    print(f"aspens greedy v random win rate: {win_rate:.3f} ({wins}/{greedy_games} wins, {ties} ties)")
    print(f"aspens greedy v random games/s: {greedy_rate:.1f}")
    if args.profile:
        profile_random_games(30)


if __name__ == "__main__":
    main()
