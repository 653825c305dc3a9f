"""Mighty Trees' evaluation for the coach: each player's chance to win from the trees grown and the Command (our design).

The features, for one player (:mod:`treegames.search.evaluation` turns them into chances):

* ``canopy`` and ``understory`` -- trees in each layer (two canopy trees capture the habitat,
  *Capturing a Habitat*);
* ``one grow away`` -- 1 with a canopy tree and an understory tree ready to grow into the second;
* ``fitting trees`` -- tree cards in the Command that suit the lasting conditions (GreedyBot's own
  reading of the habitat, trends and lingering disasters);
* ``cards`` -- cards in the Command, per three.

The weights were fitted by ``python tools/fit_evaluation.py mighty_trees`` on positions from seeded
self-play; ``benchmarks/bench_evaluation.py`` prints their calibration on other seeds.
"""

from __future__ import annotations

from ..search.evaluation import WinModel
from .bots import lasting_conditions
from .data import SLOTS, Kind

NAMES = ("canopy", "understory", "one grow away", "fitting trees", "cards")


def features(state, player: int) -> tuple[float, ...]:
    """The player's features (see the module docstring)."""
    lo = SLOTS * player
    canopy = SLOTS - state.canopy_slots[lo : lo + SLOTS].count(-1)
    under = SLOTS - state.under[lo : lo + SLOTS].count(-1)
    hand = state.hand(player)
    if state.habitat >= 0:
        t, w = lasting_conditions(state)
        fitting = sum(1 for c in hand if c.kind is Kind.TREE and c.fits(t, w))
    else:
        fitting = 0
    return (float(canopy), float(under), float(canopy == SLOTS - 1 and under > 0), float(fitting), len(hand) / 3)


WEIGHTS = (2.4069, 1.3763, 1.3616, 0.3264, 1.3323)
"""Fitted by tools/fit_evaluation.py (see the module docstring): its printed line, pasted."""

MODEL = WinModel(NAMES, WEIGHTS, features)
