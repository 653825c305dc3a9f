"""Mighty Trees benchmark: random full games per second at 2 and 6 players, and GreedyBot's win rate.

Run as ``python benchmarks/bench_mighty_trees.py`` (``--quick`` for a shorter run).  Figures:

* ``random games/s`` -- whole games, RandomBot for every player, chance sampled with
  the state's own ``sample_chance(rng)`` (each card left equally likely) and moves
  with ``random_action(rng)``: the engine's speed;
* ``random games/s via core.play`` -- the same games through ``core.play``, whose generic
  ``core.sample_chance`` builds exact Fraction odds for every draw;
* ``GreedyBot win rate`` -- 200 seeded 2-player games against RandomBot, seats alternating.

Rates are per second of this process's CPU time (``time.process_time``) for the same seeded
batch of games run several times; the best batch is reported (as ``timeit`` does) with the
median alongside, so other processes on a shared machine disturb the figure least.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from treegames import core
from treegames.mighty_trees import GreedyBot, new_game


def fast_random_game(game, rng: random.Random):
    """One whole game of RandomBots, using the state's fast chance and move samplers."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.current_player == core.CHANCE:
            state = state.apply(state.sample_chance(rng))
        else:
            state = state.apply(state.random_action(rng))
    return state


def play_batch(players: int, seeds: range, via_core: bool) -> tuple[float, list[int], int]:
    """(CPU seconds, turns of each game, draws) for one random game per seed."""
    game = new_game(players)
    turns, draws = [], 0
    start = time.process_time()
    for seed in seeds:
        rng = random.Random(seed)
        if via_core:
            final = core.play(game, [core.RandomBot(rng) for _ in range(players)], rng)
        else:
            final = fast_random_game(game, rng)
        turns.append(final.turn)
        draws += not final.winners()
    return time.process_time() - start, turns, draws


def games_per_second(
    players: int, games: int, repeats: int, via_core: bool
) -> tuple[float, float, float, float]:
    """(best-of-repeats games/s, median games/s, mean turns, share of draws) over the same seeded games.

    Like ``timeit``, the best of several identical batches is the figure least disturbed by other
    processes on a shared machine; the median is printed alongside.
    """
    seeds = range(games)
    times, turns, draws = [], [], 0
    for _ in range(repeats):
        cpu, turns, draws = play_batch(players, seeds, via_core)
        times.append(cpu)
    return games / min(times), games / statistics.median(times), statistics.mean(turns), draws / games


def greedy_win_rate(games: int) -> tuple[float, float]:
    """(GreedyBot's win rate, draw rate) over seeded 2-player games against RandomBot, seats alternating."""
    game = new_game(2)
    wins = draws = 0
    for seed in range(games):
        rng = random.Random(seed)
        seat = seed % 2
        bots = [core.RandomBot(rng), core.RandomBot(rng)]
        bots[seat] = GreedyBot(rng)
        final = core.play(game, bots, rng)
        wins += final.winners() == (seat,)
        draws += not final.winners()
    return wins / games, draws / games


def main() -> None:
    """Print the figures as plain lines."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a shorter run")
    args = parser.parse_args()
    repeats = 3 if args.quick else 5
    for players in (2, 6):
        best, median, turns, draws = games_per_second(players, 100, repeats, via_core=False)
        print(f"mighty_trees {players}p random games/s: {best:.1f} (best of {repeats}; median {median:.1f})")
        print(f"mighty_trees {players}p random mean turns: {turns:.1f} (draws at max_turns: {draws:.0%})")
    for players in (2, 6):
        best, median, _, _ = games_per_second(players, 50, repeats, via_core=True)
        print(
            f"mighty_trees {players}p random games/s via core.play: {best:.1f} "
            f"(best of {repeats}; median {median:.1f})"
        )
    games = 50 if args.quick else 200
    start = time.process_time()
    wins, draws = greedy_win_rate(games)
    print(f"mighty_trees GreedyBot win rate vs RandomBot ({games} 2p games): {wins:.1%} (draws {draws:.1%})")
    print(f"mighty_trees GreedyBot games/s: {games / (time.process_time() - start):.1f}")


if __name__ == "__main__":
    main()
