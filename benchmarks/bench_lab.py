"""Strategy lab benchmark: random-bot games per second per engine through the lab, and a 1000-game tournament's wall time.

Run as ``python benchmarks/bench_lab.py`` (about 30 s) or with ``--quick``.
Games/s are measured with one worker (in this process), as the lab plays small
tournaments.  The 1000-game Aspens RandomBot tournament is timed from start to
the last record with worker processes (both cores; aim: at most 5 s), and with
one worker for comparison.  The load average is printed too: on a shared
machine these figures are noisy.
"""

from __future__ import annotations

import argparse
import os
import time

from treegames.lab import TournamentRun, TournamentSpec, default_workers


def games_per_second(game: str, players: int, games: int) -> tuple[float, float]:
    """(games/s, mean player moves per game) of RandomBots through the lab, one worker."""
    run = TournamentRun(TournamentSpec(game, ("random",) * players, games, seed=1), workers=1)
    start = time.perf_counter()
    results = run.run()
    elapsed = time.perf_counter() - start
    return games / elapsed, sum(results.lengths()) / games


def tournament_seconds(games: int, workers: int) -> tuple[float, int]:
    """(wall seconds, workers used) of an Aspens RandomBot tournament of ``games`` games."""
    run = TournamentRun(TournamentSpec("aspens", ("random", "random"), games, seed=7), workers=workers)
    start = time.perf_counter()
    run.run()
    return time.perf_counter() - start, run.workers if run.uses_processes else 1


def main() -> None:
    """Print the lab's figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer games")
    quick = parser.parse_args().quick
    scale = 0.25 if quick else 1.0
    print(f"lab load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores (figures are noisy)")
    for game, players, games in (("aspens", 2, 300), ("bosk", 2, 2000), ("bosk", 4, 1000),
                                 ("mighty_trees", 2, 1000), ("mighty_trees", 6, 400)):
        rate, moves = games_per_second(game, players, max(20, int(games * scale)))
        print(f"lab {game} {players}p random games/s (one worker): {rate:.1f} ({moves:.0f} moves per game)")
    n = 250 if quick else 1000
    both, workers = tournament_seconds(n, default_workers())
    print(f"lab aspens {n}-game random tournament: {both:.2f} s with {workers} worker processes (aim <= 5 s for 1000)")
    one, _ = tournament_seconds(n, 1)
    print(f"lab aspens {n}-game random tournament: {one:.2f} s with one worker (speed-up {one / both:.2f}x)")
    print(f"lab load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
