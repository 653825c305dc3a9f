"""Aspens as a treegames plug-in: its engine with the coach's bots (registered in pyproject.toml).

The engine package imports neither the search nor the UI; this module composes them (:mod:`treegames.plugins`).
"""

from __future__ import annotations

from dataclasses import replace

import treegames.aspens as engine

from ..plugins import GamePlugin
from ..search.bots import COACH_BOTS

GAME = GamePlugin(game_type=replace(engine.GAME_TYPE, bots={**engine.GAME_TYPE.bots, **COACH_BOTS}), engine=engine,
                  order=1)
"""Aspens's plug-in: the entry point ``treegames.games`` / ``aspens`` names it."""
