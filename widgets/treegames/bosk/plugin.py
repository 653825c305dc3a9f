"""Bosk as a treegames plug-in: its engine with the coach and the lab's words (registered in pyproject.toml).

The engine package imports neither the search nor the UI; this module composes them (:mod:`treegames.plugins`).
"""

from __future__ import annotations

from dataclasses import replace

import treegames.bosk as engine

from ..plugins import GamePlugin
from ..search.bots import COACH_BOTS

GAME = GamePlugin(
    game_type=replace(engine.GAME_TYPE, bots={**engine.GAME_TYPE.bots, **COACH_BOTS}),
    engine=engine,
    evaluation="treegames.bosk.evaluation:MODEL",  # each player's chance to win (the coach's leaf option)
    picture="treegames.ui.bosk.scene:park_scene",  # the teacher overview's small picture (loaded only there)
    order=2,
    coach_scale={2: 5, 3: 2, 4: 2},  # playouts are quick here (Bosk 2p: about 2,000 random ones a second)
    review_iterations=240,  # benchmarks/bench_review.py on a 2-core machine
    shared_chance="the same start player (Bosk's only chance event)",
)
"""Bosk's plug-in: the entry point ``treegames.games`` / ``bosk`` names it."""
