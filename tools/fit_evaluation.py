"""Fit a game's evaluation weights on seeded self-play and print them with their calibration on other seeds.

Run as ``python tools/fit_evaluation.py GAME [--games N]``; paste the printed weights into
``widgets/treegames/<game>/evaluation.py`` (``WEIGHTS``).  The positions come from games of
GreedyBot against GreedyBot and against RandomBot, seats rotated (:func:`treegames.search.evaluation.self_play`).
"""

from __future__ import annotations

import argparse
import time

from treegames import core
from treegames.search.evaluation import brier, calibration, fit, model_for, self_play


def main() -> None:
    """Fit, then print the weights and the calibration on held-out seeds."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=400, help="self-play games per pairing (default 400)")
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    game_type = core.games()[args.game]
    game = game_type.new_game(**({"players": args.players} if len(game_type.players) > 1 else {}))
    model = model_for(args.game)
    start = time.perf_counter()
    samples = (self_play(game, model, ("greedy",), args.games, seed=1)
               + self_play(game, model, ("greedy", "random"), args.games, seed=2))
    held_out = (self_play(game, model, ("greedy",), args.games // 2, seed=3)
                + self_play(game, model, ("greedy", "random"), args.games // 2, seed=4))
    print(f"{len(samples)} positions to fit, {len(held_out)} held out ({time.perf_counter() - start:.0f} s)")
    weights = fit(samples)
    fitted = model.with_weights(weights)
    print("WEIGHTS = (" + ", ".join(f"{w:.4f}" for w in weights) + ")  # " + ", ".join(model.names))
    fair = 1 / game.num_players
    print(f"Brier score held out: {brier(fitted, held_out):.4f} (the fair share every time: {fair - fair * fair:.4f})")
    for row in calibration(fitted, held_out):
        print(f"  predicted {100 * row.low:3.0f}-{100 * row.high:3.0f}%: {row.count:5d} positions, "
              f"mean {100 * row.predicted:5.1f}%, came true {100 * row.observed:5.1f}%")


if __name__ == "__main__":
    main()
