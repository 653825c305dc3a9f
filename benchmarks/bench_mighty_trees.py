"""Mighty Trees benchmark: random full games per second at 2 and 6 players, and GreedyBot's win rate.

Run as ``python benchmarks/bench_mighty_trees.py`` (``--quick`` for a shorter run).  Figures:

* ``random games/s`` -- whole games, RandomBot for every player, chance sampled with
  the state's own ``sample_chance(rng)`` (each card left equally likely) and moves
  with ``random_action(rng)``: the engine's speed;
* ``random games/s via core.play`` -- the same games through ``core.play``, whose generic
  ``core.sample_chance`` builds exact Fraction odds for every draw;
* ``GreedyBot win rate`` -- 200 seeded 2-player games against RandomBot, seats alternating.

Rates are per second of this process's CPU time (``time.process_time``), so a busy
shared machine does not skew them; the wall-clock rate is printed alongside.
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


def games_per_second(players: int, seconds: float, via_core: bool) -> tuple[float, float, float, float]:
    """(games per CPU second, games per wall second, mean turns, share of draws) over ``seconds`` of CPU."""
    game = new_game(players)
    count, turns, draws = 0, [], 0
    start, wall = time.process_time(), time.perf_counter()
    while time.process_time() - start < seconds:
        rng = random.Random(count)
        if via_core:
            final = core.play(game, [core.RandomBot(rng) for _ in range(players)], rng)
        else:
            final = fast_random_game(game, rng)
        count += 1
        turns.append(final.turn)
        draws += not final.winners()
    cpu, wall = time.process_time() - start, time.perf_counter() - wall
    return count / cpu, count / wall, statistics.mean(turns), draws / count


def greedy_win_rate(games: int) -> tuple[float, float]:
    """(GreedyBot's win rate, draw rate) over seeded 2-player games against RandomBot, seats alternating."""
    game = new_game(2)
    wins = draws = 0
    for seed in range(games):
        rng = random.Random(seed)
        seat = seed % 2
        bots = [core.RandomBot(rng), core.RandomBot(rng)]
        bots[seat] = GreedyBot()
        final = core.play(game, bots, rng)
        wins += final.winners() == (seat,)
        draws += not final.winners()
    return wins / games, draws / games


def main() -> None:
    """Print the figures as plain lines."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a shorter run")
    args = parser.parse_args()
    seconds = 2.0 if args.quick else 8.0
    for players in (2, 6):
        rate, wall, turns, draws = games_per_second(players, seconds, via_core=False)
        print(f"mighty_trees {players}p random games/s: {rate:.1f} (wall clock: {wall:.1f})")
        print(f"mighty_trees {players}p random mean turns: {turns:.1f} (draws at max_turns: {draws:.0%})")
    for players in (2, 6):
        rate, wall, _, _ = games_per_second(players, seconds / 2, via_core=True)
        print(f"mighty_trees {players}p random games/s via core.play: {rate:.1f} (wall clock: {wall:.1f})")
    games = 50 if args.quick else 200
    start = time.process_time()
    wins, draws = greedy_win_rate(games)
    print(f"mighty_trees GreedyBot win rate vs RandomBot ({games} 2p games): {wins:.1%} (draws {draws:.1%})")
    print(f"mighty_trees GreedyBot games/s: {games / (time.process_time() - start):.1f}")


if __name__ == "__main__":
    main()
