"""The coach as a bot: Monte Carlo search at three budgets, for every game's ``GameType.bots``.

The budgets count playouts, not seconds, so a coach's moves depend only on its
seed: tournaments in the lab replay exactly whichever worker plays them.  A game
with a single legal move is answered at once.  The levels' budgets are set so
that coach-medium answers in well under two seconds on a 2-core machine
(``benchmarks/bench_coach.py`` measures it).
"""

from __future__ import annotations

import random
from enum import StrEnum
from typing import Any

from .. import core
from .mcts import Budget, Rollout, Search

__all__ = ["Level", "LEVEL_ITERATIONS", "CoachBot", "CoachEasy", "CoachMedium", "CoachHard", "COACH_BOTS"]


class Level(StrEnum):
    """How hard the coach thinks."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


LEVEL_ITERATIONS = {Level.EASY: 25, Level.MEDIUM: 200, Level.HARD: 800}
"""Playouts per move at each level."""


class CoachBot:
    """Chooses by Monte Carlo tree search with random playouts; ``iterations`` per move (default: the level's)."""

    level = Level.MEDIUM

    def __init__(self, rng: random.Random | None = None, iterations: int | None = None,
                 rollout: Rollout | str = Rollout.RANDOM):
        self.rng = rng if rng is not None else random.Random(0)
        self.iterations = LEVEL_ITERATIONS[self.level] if iterations is None else iterations
        self.rollout = Rollout(rollout)
        self.last_search: Search | None = None

    def __repr__(self) -> str:
        return f"{type(self).__name__}(iterations={self.iterations})"

    def choose(self, state: Any) -> Any:
        """The move with the most playouts after this bot's budget (a chance node: an exact draw)."""
        if state.current_player == core.CHANCE:
            return core.sample_chance(state, self.rng)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        search = Search(state, self.rng, rollout=self.rollout)
        search.think(Budget(iterations=self.iterations))
        self.last_search = search
        return search.best()


class CoachEasy(CoachBot):
    """The coach at its easy budget."""

    level = Level.EASY


class CoachMedium(CoachBot):
    """The coach at its medium budget."""

    level = Level.MEDIUM


class CoachHard(CoachBot):
    """The coach at its hard budget."""

    level = Level.HARD


COACH_BOTS = {"coach-easy": CoachEasy, "coach-medium": CoachMedium, "coach-hard": CoachHard}
"""The coach's entries for a game type's ``bots``."""
