"""Seconds to review a typical finished game of each game (greedy against greedy, seed 1) at the review budget.

Run: ``PYTHONPATH=widgets python benchmarks/bench_review.py`` (prints one line per game).
"""

from __future__ import annotations

import random
import time

from treegames import core
from treegames.search import Review, iterations_for_review


def typical_game(name: str, seed: int = 1) -> list:
    """Every state of a greedy-against-greedy game of ``name``."""
    rng = random.Random(seed)
    bot = core.games()[name].bots["greedy"](rng)
    state = core.games()[name].new_game().new_initial_state()
    states = [state]
    while not state.is_terminal():
        action = core.sample_chance(state, rng) if state.current_player == core.CHANCE else bot.choose(state)
        state = state.apply(action)
        states.append(state)
    return states


def main() -> None:
    """Time one full review per game."""
    for name in ("aspens", "bosk", "mighty_trees"):
        states = typical_game(name)
        review = Review(states, random.Random(0))
        start, cpu = time.perf_counter(), time.process_time()
        review.run()
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        print(f"{name}: {len(states) - 1} steps, {review.total} positions reviewed at "
              f"{iterations_for_review(name)} playouts (+ top-ups) in {seconds:.1f} s "
              f"({seconds / max(1, review.total):.2f} s each; {cpu:.1f} s of CPU); {review.summary()}")


if __name__ == "__main__":
    main()
