"""Aspens as a treegames plug-in: its engine with the coach and the lab's words (registered in pyproject.toml).

The engine package imports neither the search nor the UI; this module composes them (:mod:`treegames.plugins`).
"""

from __future__ import annotations

from dataclasses import replace

import treegames.aspens as engine

from ..plugins import GamePlugin
from ..search.bots import COACH_BOTS

GAME = GamePlugin(
    game_type=replace(engine.GAME_TYPE, bots={**engine.GAME_TYPE.bots, **COACH_BOTS}),
    engine=engine,
    evaluation="treegames.aspens.evaluation:MODEL",  # each player's chance to win (the coach's leaf option)
    experiments=("treegames.aspens.experiment:SunDie",),  # its class experiment (loaded only by the experiments)
    picture="treegames.ui.aspens.scene:overview_scene",  # the teacher overview's small picture (loaded only there)
    order=1,
    preheat=2,  # the Play page a class opens first: two kernels ready on the class server
    review_iterations=32,  # benchmarks/bench_review.py on a 2-core machine
    shared_chance="the same first-player draw and the same random numbers for the Sun and Wind dice "
                  "(the same rolls for as long as both games roll alike)",
)
"""Aspens' plug-in: the entry point ``treegames.games`` / ``aspens`` names it."""
