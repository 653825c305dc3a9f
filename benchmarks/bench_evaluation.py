"""Evaluation benchmark: each game's evaluation calibrated on held-out self-play, and the coach with evaluated leaves.

Run as ``python benchmarks/bench_evaluation.py`` (what ``make bench`` runs: the calibration of
every game's evaluation, then one SPRT match per game of coach-easy with evaluated leaves against
plain coach-easy), ``--quick`` (fewer positions, short matches) or ``--only GAME``.

* **Calibration** -- positions from seeded self-play games that the fit never saw (GreedyBot against
  GreedyBot and against RandomBot, seats rotated): the predicted chances in ten bins, each beside the
  share that came true, and the Brier score beside the fair share's.
* **Leaves** -- the coach's search at coach-easy's budget, once with playouts to the end (today's
  coach) and once with ``leaf_depth`` actions of playout and then the evaluation, at the same number of
  playouts and at ``--factor`` times as many (evaluated leaves are cheaper); an SPRT match in
  seat-swapped pairs with one seed each (H0: 50%, H1: 55%, alpha = beta = 0.05), stopped at its
  decision, its cap of pairs or its minutes; with the time per move of each side.
"""

from __future__ import annotations

import argparse
import os
import random
import time

from treegames import core
from treegames.lab.sequential import Tracker
from treegames.lab.sprt import Decision, Sprt
from treegames.search import CoachEasy
from treegames.search.bots import Level, iterations_for
from treegames.search.evaluation import brier, calibration, model_for, self_play

GAMES = [("aspens", 2), ("bosk", 2), ("bosk", 4), ("mighty_trees", 2)]


def new_game(name: str, players: int):
    """A game with ``players`` seats."""
    game_type = core.games()[name]
    return game_type.new_game(**({"players": players} if len(game_type.players) > 1 else {}))


def show_calibration(name: str, players: int, games: int) -> None:
    """Print the evaluation's calibration on held-out positions."""
    game, model = new_game(name, players), model_for(name)
    start = time.perf_counter()
    held = self_play(game, model, ("greedy",), games, seed=71) + self_play(game, model, ("greedy", "random"), games, seed=72)
    fair = 1 / players
    print(f"calibration {name} {players}p: {len(held)} held-out positions, Brier {brier(model, held):.4f} "
          f"(fair share every time {fair - fair * fair:.4f}), {time.perf_counter() - start:.0f} s", flush=True)
    for row in calibration(model, held):
        print(f"calibration {name} {players}p   predicted {100 * row.low:3.0f}-{100 * row.high:3.0f}%: "
              f"{row.count:5d}, mean {100 * row.predicted:5.1f}%, came true {100 * row.observed:5.1f}%", flush=True)


def play_pair(name: str, players: int, depth: int, index: int, factor: int = 1) -> tuple[float, float, float]:
    """One seat-swapped pair (same seed): the evaluated coach's mean score, and each side's seconds per move."""
    game = new_game(name, players)
    score, spent, moves = 0.0, [0.0, 0.0], [0, 0]
    for turn in range(2):
        rng = random.Random(f"bench-evaluation/{name}/{index}")
        bots = []
        for seat in range(players):
            evaluated = (seat + turn) % players == 0
            seed = rng.getrandbits(64)
            if evaluated:
                bot = CoachEasy(random.Random(seed), leaf_depth=depth)
                bot.iterations = factor * iterations_for(Level.EASY, name, players)
            else:
                bot = CoachEasy(random.Random(seed))
            bots.append((bot, evaluated))
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player == core.CHANCE:
                state = state.apply(core.sample_chance(state, rng))
                continue
            bot, evaluated = bots[state.current_player]
            started = time.process_time()
            action = bot.choose(state)
            spent[not evaluated] += time.process_time() - started
            moves[not evaluated] += 1
            state = state.apply(action)
        seat = turn and (players - turn) % players  # where the evaluated coach sat
        winners = state.winners()
        score += (1 / len(winners) if seat in winners else 0.0) if winners else 1 / players
    return score / 2, spent[0] / max(1, moves[0]), spent[1] / max(1, moves[1])


def leaves_match(name: str, players: int, depth: int, cap: int, minutes: float, factor: int = 1) -> None:
    """An SPRT match of coach-easy with evaluated leaves against plain coach-easy (two players)."""
    test = Sprt.fair_share(players)
    tracker = Tracker(test, players=2, block_size=2, cap=cap)
    start = time.perf_counter()
    per_move = [0.0, 0.0]
    while not tracker.is_over and time.perf_counter() - start < minutes * 60:
        outcome, evaluated, plain = play_pair(name, players, depth, tracker.blocks, factor)
        tracker.add(outcome)
        per_move = [per_move[0] + evaluated, per_move[1] + plain]
    status = tracker.status()
    n = max(1, status.blocks)
    print(f"leaves {name} {players}p coach-easy leaf_depth={depth} x{factor} playouts v coach-easy: {status.decision} "
          f"({test.describe()}); LLR {status.llr:+.2f} after {status.games} games; score per game "
          f"{status.estimate.text()}; CPU a move {1000 * per_move[0] / n:.0f} v {1000 * per_move[1] / n:.0f} ms; "
          f"{time.perf_counter() - start:.0f} s" + ("" if status.decision is not Decision.CONTINUE else " (no decision)"),
          flush=True)


def main() -> None:
    """Print the calibration, then the leaf matches."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--only", action="append", help="a game name; may be repeated")
    parser.add_argument("--depth", type=int, action="append", help="leaf depths to match (default 4)")
    parser.add_argument("--cap", type=int, default=None, help="most pairs per match (default 200)")
    parser.add_argument("--minutes", type=float, default=None, help="most minutes per match (default 6)")
    parser.add_argument("--factor", type=int, action="append",
                        help="the evaluated coach's playouts, times coach-easy's (default 1 and 5: equal playouts, "
                             "and about equal time with a 4-action playout)")
    parser.add_argument("--skip-calibration", action="store_true")
    parser.add_argument("--skip-matches", action="store_true")
    args = parser.parse_args()
    chosen = [(g, p) for g, p in GAMES if not args.only or g in args.only]
    print(f"evaluation load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    for name, players in chosen if not args.skip_calibration else ():
        show_calibration(name, players, 40 if args.quick else 200)
    for name, players in chosen if not args.skip_matches else ():
        if players != 2:
            continue
        for depth in args.depth or [4]:
            for factor in args.factor or [1, 5]:
                leaves_match(name, players, depth, args.cap or (10 if args.quick else 200),
                             args.minutes or (1 if args.quick else 6), factor)


if __name__ == "__main__":
    main()
