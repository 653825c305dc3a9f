"""Search players for every treegames game: Monte Carlo tree search and the coach bots (no UI imports).

* :mod:`.mcts` -- :class:`Search` (UCT with exact chance nodes), :class:`Budget`,
  :class:`Rollout`, :class:`Progress` and per-move :class:`MoveStats`;
* :mod:`.parallel` -- :class:`ParallelSearch`: root-parallel trees, in worker processes where that pays;
* :mod:`.worlds` -- :class:`WorldSampler`: determinized hidden cards from what a player sees;
* :mod:`.review` -- :class:`Review`: the coach's estimates before and after every move of a finished game;
* :mod:`.bots` -- ``coach-easy``, ``coach-medium`` and ``coach-hard`` for ``GameType.bots``.

Imports go worlds <- mcts <- parallel <- bots <- review; the game packages import :mod:`.bots` to list the coach.
"""

from .bots import (
    COACH_BOTS,
    LEVEL_ITERATIONS,
    LEVEL_TREES,
    CoachBot,
    CoachEasy,
    CoachHard,
    CoachMedium,
    Level,
    coach_choice,
    iterations_for,
    rollout_for,
)
from .mcts import EXPLORATION, Budget, MoveStats, Progress, Rollout, Search, SearchError
from .parallel import ParallelSearch
from .review import (
    COMPARED_SHARE,
    LINE_CAPTION,
    REVIEW_NOTE,
    TURNING_MARK,
    TURNING_POINTS,
    TURNING_THRESHOLD,
    Review,
    ReviewedMove,
    ReviewError,
    ReviewProgress,
    history_from_actions,
    iterations_for_review,
    review_position,
    turning_points,
)
from .worlds import HiddenInformationError, WorldSampler, unseen_cards

__all__ = [
    "COACH_BOTS", "coach_choice", "rollout_for", "LEVEL_ITERATIONS", "LEVEL_TREES", "iterations_for", "CoachBot", "CoachEasy", "CoachHard", "CoachMedium", "Level",
    "EXPLORATION", "Budget", "MoveStats", "Progress", "Rollout", "Search", "SearchError", "ParallelSearch",
    "HiddenInformationError", "WorldSampler", "unseen_cards",
    "Review", "ReviewError", "ReviewedMove", "ReviewProgress", "review_position", "history_from_actions", "turning_points",
    "iterations_for_review", "COMPARED_SHARE", "TURNING_POINTS", "TURNING_THRESHOLD", "TURNING_MARK", "LINE_CAPTION", "REVIEW_NOTE",
]
