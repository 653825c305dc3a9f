"""Mighty Trees as a treegames plug-in: its engine with the coach, the lab's words and the observer (registered in pyproject.toml).

The engine package imports neither the search nor the UI; this module composes them (:mod:`treegames.plugins`).
"""

from __future__ import annotations

from dataclasses import replace

import treegames.mighty_trees as engine

from ..plugins import GamePlugin
from ..search.bots import COACH_BOTS
from .observer import OBSERVER

GAME = GamePlugin(
    game_type=replace(engine.GAME_TYPE, bots={**engine.GAME_TYPE.bots, **COACH_BOTS}),
    engine=engine,
    evaluation="treegames.mighty_trees.evaluation:MODEL",  # each player's chance to win (the coach's leaf option)
    experiments=("treegames.mighty_trees.experiment:Regroup",),  # its class experiment (loaded only by the experiments)
    picture="treegames.ui.mighty_trees.scene:table_scene",  # the teacher overview's small picture (loaded only there)
    order=3,
    # GreedyBot games are about five times shorter than random ones, so a greedy playout costs one to three
    # random ones; at 200 playouts a move the greedy-playout coach beat GreedyBot 7 times in 10, against 3 in
    # 10 for the random-playout one (a small sample: benchmarks/bench_coach.py measures it)
    coach_rollout="greedy",
    observer=OBSERVER,  # hidden hands: what each seat of a shared table may see
    review_iterations=160,  # benchmarks/bench_review.py on a 2-core machine
    shared_chance="the same first habitat and first-player draw, and the same random numbers for the "
                  "card draws (the same cards only while both games draw from the same pile alike)",
)
"""Mighty Trees' plug-in: the entry point ``treegames.games`` / ``mighty_trees`` names it."""
