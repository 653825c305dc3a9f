"""Pig as a treegames plug-in: the engine with the coach's bots (the entry point names ``GAME``)."""

from __future__ import annotations

from dataclasses import replace

import pig_game as engine
from treegames.plugins import GamePlugin
from treegames.search.bots import COACH_BOTS

GAME = GamePlugin(
    game_type=replace(engine.GAME_TYPE, bots={**engine.GAME_TYPE.bots, **COACH_BOTS}),
    engine=engine,
    picture="pig_game.play:race_scene",  # the teacher overview's small picture
    order=50,
    review_iterations=60,
    shared_chance="the same first player and the same die rolls",
)
"""Pig's plug-in."""
