"""The strategy lab: bot tournaments with confidence intervals, for all three games (no UI imports).

* :mod:`.stats` -- Wilson intervals, the exact binomial test and its normal approximation;
* :mod:`.tournament` -- what a tournament plays (:class:`TournamentSpec`) and one seeded game
  (:func:`play_game`, :func:`saved_game`);
* :mod:`.runner` -- :class:`TournamentRun`: in the background, with progress, cancel and
  worker processes;
* :mod:`.sprt` -- the sequential probability ratio test (:class:`Sprt`) on blocks of seat-rotated games;
* :mod:`.sequential` -- :class:`SequentialMatch`: a tournament that stops as soon as its SPRT decides;
* :mod:`.results` -- :class:`Results`: win/tie/loss per bot (one outcome per game), per seat and
  for the first mover, the first-mover test its design allows, seat tests with Holm's adjustment,
  score margins, game lengths, the paired comparison, CSV export.

Example::

    from treegames.lab import TournamentSpec, run_tournament
    results = run_tournament(TournamentSpec("aspens", ("greedy", "random"), games=100, seed=1))
    results.by_bot["greedy"].win.text()      # '99.0% (94.6-99.8)'
"""

from .results import (
    Design,
    FirstMoverTest,
    Paired,
    Results,
    SeatTest,
    Tally,
    bot_outcome,
    records_csv,
    summary_csv,
)
from .runner import MAX_WORKERS, PROCESS_THRESHOLD, RunState, TournamentRun, default_workers, run_tournament
from .sequential import SequentialMatch, SprtStatus, run_sequential, simulate
from .sprt import Decision, Sprt, SprtError
from .stats import (
    Share,
    binomial_pmf,
    binomial_test,
    fisher_exact,
    holm,
    normal_test,
    optional_stopping,
    share,
    sign_test,
    two_proportion_test,
    wilson_interval,
)
from .tournament import (
    MAX_GAMES,
    GameRecord,
    Outcome,
    SpecError,
    TournamentSpec,
    bot_names,
    game_types,
    play_game,
    play_games,
    saved_game,
    seat_names,
    shared_chance,
)

__all__ = [
    "Design", "FirstMoverTest", "Paired", "Results", "SeatTest", "Tally", "bot_outcome", "records_csv", "summary_csv",
    "MAX_WORKERS", "PROCESS_THRESHOLD", "RunState", "TournamentRun", "default_workers", "run_tournament",
    "Share", "binomial_pmf", "binomial_test", "fisher_exact", "holm", "normal_test", "optional_stopping", "share",
    "sign_test", "two_proportion_test", "wilson_interval",
    "SequentialMatch", "SprtStatus", "run_sequential", "simulate", "Decision", "Sprt", "SprtError",
    "MAX_GAMES", "GameRecord", "Outcome", "SpecError", "TournamentSpec", "bot_names", "game_types",
    "play_game", "play_games", "saved_game", "seat_names", "shared_chance",
]
