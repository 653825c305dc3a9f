"""The coach as a bot: Monte Carlo search at three budgets, for every game's ``GameType.bots``.

The coach searches with a prior (:attr:`~.mcts.Prior.GREEDY`): PUCT leans on the
move the game's GreedyBot would play at each node, and leaves it only when playouts
say so.  Plain UCT gives every legal move one playout before any gets two, so at a
budget smaller than the number of legal moves (25 playouts for about 40 moves)
it chose among single noisy playouts, and lost every game to RandomBot there.

The budgets count playouts, not seconds, so a coach's moves depend only on its
seed: tournaments in the lab replay exactly whichever worker plays them.  A game
with a single legal move is answered at once.  Each level has a base budget
(:data:`LEVEL_ITERATIONS`), multiplied by the game's ``coach_scale`` (its plug-in,
:mod:`treegames.plugins`) where random playouts are much quicker, so that coach-medium
answers in about a second or less on a 2-core machine in every game
(``benchmarks/bench_coach.py`` measures it).  The playouts follow the game's
``coach_rollout``: random, or greedy where greedy ones cost little more.

Where nothing is hidden, a coach keeps the part of its last search
below the move it played (``keep_tree``, on by default): when its next decision is
that move's node or one action further (the rest of its own turn, a forced reply, a
die), the playouts already there count towards the budget and only the rest are
run.  The root holds the same number of playouts either way, so a level keeps its
strength for less work (the README gives the figures).  A position the tree never reached (after an undo, say) gets
a new tree.

coach-medium and coach-hard search root-parallel (:data:`LEVEL_TREES` trees,
:mod:`.parallel`): on a Play page the second tree grows in a worker process when
the move would otherwise take over a second, and in a lab tournament both grow in
the worker already playing the game.  With a playout budget the moves are the same
either way.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator
from enum import StrEnum
from typing import Any

from .. import core
from ..plugins import plugin
from .mcts import Budget, Prior, Rollout, Search
from .parallel import ParallelSearch

__all__ = ["Level", "LEVEL_ITERATIONS", "LEVEL_TREES", "iterations_for", "rollout_for", "CoachBot", "CoachEasy", "CoachMedium", "CoachHard", "COACH_BOTS",
           "coach_choice"]


class Level(StrEnum):
    """How hard the coach thinks."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


LEVEL_ITERATIONS = {Level.EASY: 25, Level.MEDIUM: 200, Level.HARD: 800}
"""Playouts per move at each level (times the game's ``coach_scale``)."""

LEVEL_TREES = {Level.EASY: 1, Level.MEDIUM: 2, Level.HARD: 2}
"""Root-parallel trees per level (the playouts are shared among them; see :mod:`.parallel`)."""

def rollout_for(game: str) -> Rollout:
    """The coach's playout policy in ``game`` (its plug-in's ``coach_rollout``)."""
    return Rollout(plugin(game).coach_rollout)


def iterations_for(level: Level, game: str, players: int) -> int:
    """Playouts per move for ``level`` in ``game`` with ``players`` seats (times its plug-in's ``coach_scale``)."""
    return LEVEL_ITERATIONS[level] * plugin(game).coach_scale.get(players, 1)


class CoachBot:
    """Chooses by Monte Carlo tree search; ``iterations`` per move, ``rollout``, ``trees`` and ``prior`` (defaults: the level's and game's, and the greedy prior)."""

    level = Level.MEDIUM
    thinks_long = True
    """A move takes long enough (up to seconds) that a page should think on a worker thread, not its loop."""

    def __init__(self, rng: random.Random | None = None, iterations: int | None = None,
                 rollout: Rollout | str | None = None, trees: int | None = None, prior: Prior | str = Prior.GREEDY,
                 leaf_depth: int | None = None, keep_tree: bool = True):
        self.rng = rng if rng is not None else random.Random(0)
        self.keep_tree = keep_tree  # the subtree of its move goes on to its next decision (see ``choose``)
        self._kept: tuple[Search | ParallelSearch, Any] | None = None  # the last search and the move played from it
        self.leaf_depth = leaf_depth  # None: playouts to the end; else that many actions, then the evaluation
        self.prior = Prior(prior)
        self.iterations = iterations  # None: the level's budget for the game being played
        self.rollout = None if rollout is None else Rollout(rollout)  # None: the game's (rollout_for)
        self.trees = LEVEL_TREES[self.level] if trees is None else trees
        self.last_search: Search | ParallelSearch | None = None

    def __repr__(self) -> str:
        return f"{type(self).__name__}(iterations={self.iterations})"

    def budget(self, state: Any) -> int:
        """Playouts per move in the game of ``state``."""
        if self.iterations is not None:
            return self.iterations
        return iterations_for(self.level, state.game.name, state.num_players)

    def choose(self, state: Any) -> Any:
        """The move with the most playouts after this bot's budget (a chance node: an exact draw).

        With ``keep_tree``, where nothing is hidden, the part of its last search below the move it played goes on:
        if ``state`` is that move's node or one action further, its playouts count towards this decision's budget
        and only the rest are run (the root holds the budget either way: the same strength for less work).
        A win in one is taken first; a move that could hand the next player one gives way to the next most
        played that hands less (:func:`treegames.core.least_handing`, the rest of a weighed turn played by
        the game's GreedyBot heuristic).
        """
        if state.current_player == core.CHANCE:
            return core.sample_chance(state, self.rng)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        win = core.winning_action(state)  # a win in one is taken at every level, whatever the playouts say
        if win is not None:
            return win
        search = self._kept_search(state) or self._new_search(state)
        left = self.budget(state) - search.iterations
        if left > 0:
            search.think(Budget(iterations=left))
        self.last_search = search
        action = coach_choice(state, search)
        self._kept = (search, action) if self.keep_tree and search.keeps_states else None
        return action

    def _new_search(self, state: Any) -> Search | ParallelSearch:
        """An empty search of ``state`` with this bot's rollout, prior, trees and leaves."""
        rollout = self.rollout or rollout_for(state.game.name)
        if self.trees == 1 or self.leaf_depth is not None:  # the evaluation's leaves: one tree, in this process
            return Search(state, self.rng, rollout=rollout, prior=self.prior, leaf_depth=self.leaf_depth)
        return ParallelSearch(state, self.rng, rollout=rollout, trees=self.trees, prior=self.prior)

    def _kept_search(self, state: Any) -> Search | ParallelSearch | None:
        """The last search moved on to ``state`` with the playouts it already holds there, or None if it holds none."""
        kept, self._kept = self._kept, None
        if kept is None:
            return None
        search, action = kept
        return search if search.move_to(action, state) else None


def coach_choice(state: Any, search: Search | ParallelSearch) -> Any:
    """The coach's move in ``state`` after ``search``: a win in one, else the most played that hands a rival the least.

    What CoachBot plays, Hint marks and Review compares with (:func:`treegames.core.least_handing`, the
    rest of a weighed turn played by the game's GreedyBot heuristic).
    """
    win = core.winning_action(state)
    if win is not None:
        return win
    return core.least_handing(state, _by_playouts(search, state.legal_actions()), _finisher(state))


def _by_playouts(search: Search | ParallelSearch, legal: list) -> Iterator:
    """The searched moves, most playouts first, then any move never tried (legal order)."""
    played = [stats.action for stats in search.statistics()]
    return core.best_first(played[0] if played else legal[0], rest=itertools.chain(played, legal))


def _finisher(state: Any) -> Callable[[Any], Any] | None:
    """How the coach finishes a turn it weighs for handing a win in one: the game's GreedyBot heuristic, if any."""
    greedy = getattr(core.game_module(state.game.name), "GreedyBot", None)
    return None if greedy is None else getattr(greedy(random.Random(0)), "heuristic", None)


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
