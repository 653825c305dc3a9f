"""Aspens' evaluation for the coach: each player's chance to win from the spaces, trees and hand (our design).

The features, for one player (:mod:`treegames.search.evaluation` turns them into chances):

* ``spaces`` -- the share of the playable spaces the player owns (the score, *Finishing & Scoring*);
* ``spaces late`` -- the same times how full the board is: a lead counts more near the end;
* ``trees`` -- trees standing on the player's spaces, per hundred (tall stacks cascade, *Cascades*);
* ``hand`` -- trees in hand, per ten (what the next Sun roll can still plant).

The weights were fitted by ``python tools/fit_evaluation.py aspens`` on positions from seeded
self-play (GreedyBot against GreedyBot and against RandomBot); ``benchmarks/bench_evaluation.py``
prints their calibration on other seeds.
"""

from __future__ import annotations

from ..search.evaluation import WinModel

NAMES = ("spaces", "spaces late", "trees", "hand")


def features(state, player: int) -> tuple[float, ...]:
    """The player's features (see the module docstring)."""
    playable = state.game.playable_count
    owned = state.scores()
    full = (owned[0] + owned[1]) / playable
    spaces = owned[player] / playable
    return (spaces, spaces * full, sum(state.stacks(player)) / 100, state.hand(player) / 10)


WEIGHTS = (-0.9227, 9.2832, 4.9985, 0.5789)
"""Fitted by tools/fit_evaluation.py (see the module docstring): its printed line, pasted."""

MODEL = WinModel(NAMES, WEIGHTS, features)
