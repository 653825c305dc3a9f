"""Bosk's evaluation for the coach: each player's chance to win from points, trees and leaves (our design).

The features, for one player (:mod:`treegames.search.evaluation` turns them into chances):

* ``points`` -- points scored so far, per ten (summer's trail majorities, *II. Summer*);
* ``points late`` -- the same times how far the game has gone: a lead counts more near the end;
* ``trees`` -- the values of the player's standing trees, per twenty (trail majorities to come);
* ``leaves`` -- the player's leaves on the park, per ten (region majorities in *IV. Winter*).

How far the game has gone: the share of trees grown in spring (to 0.4), then autumn's leaf tiles
used (0.5 to 1). The weights were fitted by ``python tools/fit_evaluation.py bosk`` on positions from
seeded self-play; ``benchmarks/bench_evaluation.py`` prints their calibration on other seeds.
"""

from __future__ import annotations

from ..search.evaluation import WinModel
from .actions import Phase
from .data import LEAF_TILES

NAMES = ("points", "points late", "trees", "leaves")


def progress(state) -> float:
    """How far the game has gone, from 0 (setup) to 1 (winter)."""
    phase = state.phase
    players = range(state.game.num_players)
    if phase is Phase.START_PLAYER:
        return 0.0
    if phase is Phase.SPRING:
        standing = sum(len(state.trees_standing(p)) for p in players)
        held = sum(len(state.trees_in_hand(p)) for p in players)
        return 0.4 * standing / max(1, standing + held)
    if phase is Phase.SUMMER or phase is Phase.WIND:
        return 0.45
    if phase is Phase.WINTER or phase is Phase.GAME_OVER:
        return 1.0
    left = sum(len(state.leaf_tiles(p)) for p in players)
    return 0.5 + 0.5 * (1 - left / (len(LEAF_TILES) * state.game.num_players))


def features(state, player: int) -> tuple[float, ...]:
    """The player's features (see the module docstring)."""
    points = state.scores()[player] / 10
    return (points, points * progress(state), sum(state.trees_standing(player)) / 20,
            state.leaves_on_board(player) / 10)


WEIGHTS = (6.2179, 4.4776, 3.3070, -0.1267)
"""Fitted by tools/fit_evaluation.py (see the module docstring): its printed line, pasted."""

MODEL = WinModel(NAMES, WEIGHTS, features)
