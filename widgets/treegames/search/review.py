"""Review of a finished game: the coach's estimate of the mover's chance to win before and after each move.

No UI imports.  Our method, per decision (a player to move with more than one legal
move; chance nodes and forced moves are skipped):

1. **One search per decision position.**  A :class:`~.mcts.Search` (the coach's
   own UCT, the game's playout policy from :func:`~.bots.rollout_for`) runs
   :func:`iterations_for_review` playouts (the game plug-in's ``review_iterations``) from the position before the move.  In
   Mighty Trees it searches, as always, from what the mover could see then
   (:class:`~.worlds.WorldSampler` deals the unseen cards at random for every
   playout): the hidden cards of the real game are never read.
2. **Both moves compared are topped up in the same tree.**  UCT gives a poor
   move few playouts (and, with many moves, may pick its choice on a handful),
   so an estimate after the search alone could rest on a few games.  Further
   iterations, all starting with the given root move, bring the coach's choice
   and then the move played to at least :data:`COMPARED_SHARE` of the position's
   playouts each.  We top up in the same tree rather than run a second search
   from the position after the move because the position after it may be a
   chance node or another player's turn (no search is defined there), and
   because both estimates then come from one tree of the same player's view,
   so they are comparable.
3. **Before** is the estimate of the coach's choice (the move with the most
   playouts before the top-up, :meth:`~.mcts.Search.best`), **after** that of
   the move played: each the share of its playouts the mover won outright, with the 95% Wilson
   interval and the playout count (:class:`~.mcts.MoveStats`).  The **loss**
   is before − after (negative when the played move scored better).

The injected ``random.Random`` gives every position its own seed when the
review is built, so a review is deterministic for a seed and its rows do not
depend on how far an earlier run got.  :meth:`Review.run` reports
:class:`ReviewProgress` (positions done of the total), hands each row to a
callback as soon as it is made, stops early when ``cancel`` says so (a
position cut short is dropped, not half-reported) and can be called again to go on.

The **turning points** are the :data:`TURNING_POINTS` moves that lost the most
estimated win chance, among those that lost more than :data:`TURNING_THRESHOLD`
and whose 95% interval lies wholly below the coach's choice's, so a difference
the playouts cannot tell from noise is not marked (ties: the earlier move
first).  These are estimates from random playouts, not certainties
(:data:`REVIEW_NOTE`).
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .. import core
from ..plugins import plugin
from .bots import coach_choice, rollout_for
from .mcts import Budget, MoveStats, Progress, Search, SearchError, _cancel_check, _Node

__all__ = ["Review", "ReviewError", "ReviewedMove", "ReviewProgress", "review_position", "history_from_actions",
           "turning_points", "COMPARED_SHARE", "TURNING_POINTS",
           "TURNING_THRESHOLD", "TURNING_MARK", "LINE_CAPTION", "REVIEW_NOTE", "iterations_for_review"]

COMPARED_SHARE = 0.25
"""The coach's choice and the played move each get at least this share of a position's playouts (topped up)."""

TURNING_POINTS = 3
"""How many turning points a review marks at most."""

TURNING_MARK = "⚠"
"""The symbol before a turning point in a list line (always with the words 'turning point')."""

LINE_CAPTION = "Move. Player: move played · estimated win chance before→after (change in points)"
"""What the parts of a list line (:meth:`ReviewedMove.line`) are."""

TURNING_THRESHOLD = 0.10
"""A move is a turning point only if it lost more than this much estimated win chance (10 points)."""

REVIEW_NOTE = ("These are estimates from random playouts, not certainties: each interval is where the true chance "
        "probably lies (95%), and a move the coach dislikes may still have been fine.")
"""What every review says about its numbers."""


class ReviewError(SearchError):
    """A history that cannot be reviewed: not a game, not finished, or malformed."""


@dataclass(frozen=True)
class ReviewProgress:
    """How far a review is: positions done, of the total, and the share done (within a position too)."""

    done: int
    total: int
    fraction: float
    finished: bool = False

    def text(self) -> str:
        """'position 7 of 41' (the one being searched), or 'all 41 positions reviewed'."""
        if self.done >= self.total:
            return f"all {core.plural(self.total, 'position')} reviewed"
        if self.finished:
            return f"stopped after {self.done} of {core.plural(self.total, 'position')}"
        return f"position {self.done + 1} of {self.total}"


@dataclass(frozen=True)
class ReviewedMove:
    """One decision of the game: the coach's estimates before and after the move played there."""

    step: int
    """Index in the history of the position before the move (the dashboard's timeline step)."""
    number: int
    """The move's number among the players' moves of the game (1 = the first; chance draws not counted)."""
    player: int
    played: MoveStats
    best: MoveStats
    playouts: int
    """Playouts spent on this position (the top-up included)."""

    @property
    def before(self) -> float:
        """The mover's estimated chance to win before the move: the coach's choice's win share."""
        return self.best.share

    @property
    def after(self) -> float:
        """The estimated chance after the move played: its win share."""
        return self.played.share

    @property
    def loss(self) -> float:
        """Before − after (negative when the move played scored better than the coach's choice)."""
        return self.before - self.after

    @property
    def points(self) -> int:
        """The change in whole percentage points (after − before, so a loss is negative)."""
        return round(100 * self.after) - round(100 * self.before)

    @property
    def coach_agrees(self) -> bool:
        """Whether the move played is the coach's choice."""
        return self.played.action == self.best.action

    def change_text(self) -> str:
        """'−23 points', '+2 points' or '±0 points'."""
        p = self.points
        sign = "−" if p < 0 else "+" if p > 0 else "±"
        return f"{sign}{abs(p)} {'point' if abs(p) == 1 else 'points'}"

    def text(self, names: Sequence[str] = (), turning: bool = False) -> str:
        """'Move 12, Blue: seed K6 — estimated win chance 61% (52–69%) before, 38% (30–47%) after: −23 points'."""
        head = f"Move {self.number}, {player_name(self.player, names)}: {self.played.notation}"
        if self.coach_agrees:
            body = (f" — estimated win chance {percent(self.best)} before and after ({self.played.visits} "
                    f"playouts): the coach's choice too")
        else:
            body = (f" — estimated win chance {percent(self.best)} before, {percent(self.played)} after: "
                    f"{self.change_text()}; the coach preferred {self.best.notation} "
                    f"({self.best.visits} and {self.played.visits} playouts)")
        return head + body + (" (turning point)" if turning else "")

    def line(self, names: Sequence[str] = (), turning: bool = False) -> str:
        """One short line for a list: '12. Blue: seed K6 · 61→38% (−23)', a turning point led by '⚠ turning point ·'."""
        lead = f"{TURNING_MARK} turning point · " if turning else ""
        return (f"{lead}{self.number}. {player_name(self.player, names)}: {self.played.notation} · "
                f"{100 * self.before:.0f}→{100 * self.after:.0f}% ({self.change_text().split()[0]})")


def percent(stats: MoveStats) -> str:
    """'61% (52–69%)': a move's win share and its 95% Wilson interval."""
    return f"{100 * stats.share:.0f}% ({100 * stats.low:.0f}–{100 * stats.high:.0f}%)"


def player_name(player: int, names: Sequence[str] = ()) -> str:
    """A seat's name from ``names``, else 'Player 1', 'Player 2', ..."""
    return names[player] if 0 <= player < len(names) else f"Player {player + 1}"


def iterations_for_review(game: str) -> int:
    """Playouts per reviewed position in ``game`` (its plug-in's ``review_iterations``, from bench_review.py)."""
    return plugin(game).review_iterations


# ------------------------------------------------------------------ one position


class _ReviewSearch(Search):
    """The coach's search, able to spend iterations that all begin with one root move (the top-up)."""

    forced: Any = None

    def _select(self, node: _Node, legal: list, player: int) -> tuple[Any, bool]:
        """At the root during a top-up: the forced move (counting availability as usual); else UCT."""
        if node is not self.root or self.forced is None:
            return super()._select(node, legal, player)
        for action in legal:
            node.avail[action] = node.avail.get(action, 0) + 1
        if self.forced in node.children:
            return self.forced, False
        node.children[self.forced] = _Node(player)
        return self.forced, True


def review_position(state: Any, action: Any, rng: random.Random, iterations: int | None = None,
                    cancel: Callable[[], bool] | threading.Event | None = None,
                    progress: Callable[[Progress], None] | None = None) -> tuple[MoveStats, MoveStats, int] | None:
    """(the played move's stats, the coach's choice's stats, playouts) for ``action`` in ``state``; None if cancelled."""
    if action not in state.legal_actions():
        raise ReviewError(f"{action} is not a legal move in the position reviewed")
    n = iterations or iterations_for_review(state.game.name)
    search = _ReviewSearch(state, rng, rollout=rollout_for(state.game.name))
    stop = _cancel_check(cancel)
    done = search.think(Budget(iterations=n), cancel=stop, progress=progress)
    if done < n or stop():
        return None
    best = coach_choice(state, search)  # the coach's choice before the top-up, which gives the moves compared more playouts
    least = max(1, round(COMPARED_SHARE * n))
    for move in dict.fromkeys((best, action)):
        need = least - _visits(search, move)
        if need > 0:
            search.forced = move
            topped = search.think(Budget(iterations=need), cancel=stop)
            search.forced = None
            if topped < need:
                return None
    stats = {row.action: row for row in search.statistics()}
    return stats[action], stats[best], search.iterations


def _visits(search: Search, action: Any) -> int:
    """Playouts so far below the root move ``action``."""
    child = search.root.children.get(action)
    return child.visits if child is not None else 0


# ------------------------------------------------------------------ a whole game


def history_from_actions(initial: Any, actions: Sequence[Any]) -> list:
    """Every state of a game from its initial state and its actions (chance outcomes included), in order."""
    states = [initial]
    for index, action in enumerate(actions):
        try:
            states.append(states[-1].apply(action))
        except core.IllegalAction as err:
            raise ReviewError(f"action {index + 1} ({action}) cannot be played there: {err}") from None
    return states


def _check_history(states: Any) -> list:
    """The history as a list, or ReviewError saying what is wrong with it."""
    if isinstance(states, str | bytes) or not isinstance(states, Sequence):
        raise ReviewError(f"a history is a list of game states, not {type(states).__name__}")
    states = list(states)
    if not states:
        raise ReviewError("the history is empty: there is no game to review")
    for index, state in enumerate(states):
        if not all(hasattr(state, name) for name in ("apply", "legal_actions", "is_terminal", "history")):
            raise ReviewError(f"item {index} of the history is not a game state ({type(state).__name__})")
    if states[0].history != ():
        raise ReviewError("the history must start at the beginning of the game")
    for index in range(1, len(states)):
        before, after = states[index - 1], states[index]
        if before.is_terminal():
            raise ReviewError(f"the game ended at step {index - 1}, but the history goes on")
        action = after.last_action
        try:
            follows = action is not None and before.apply(action) == after
        except core.IllegalAction:
            follows = False
        if not follows:
            raise ReviewError(f"step {index} does not follow from step {index - 1} by one action: "
                              "this is not the history of one game")
    if not states[-1].is_terminal():
        raise ReviewError("the game is not finished: a review is for a game that is over")
    return states


class Review:
    """The review of one finished game (a list of its states, oldest first); ``run`` makes the rows."""

    def __init__(self, states: Sequence[Any], rng: random.Random, iterations: int | None = None):
        if not isinstance(rng, random.Random):
            raise ReviewError(f"rng must be a random.Random, not {type(rng).__name__}")
        if iterations is not None and (type(iterations) is not int or iterations < 1):
            raise ReviewError(f"iterations must be a whole number of at least 1, not {iterations!r}")
        self.states = _check_history(states)
        self.iterations = iterations or iterations_for_review(self.states[0].game.name)
        self.positions: list[int] = []
        self._numbers: dict[int, int] = {}
        number = 0
        for step, state in enumerate(self.states[:-1]):
            if state.current_player == core.CHANCE:
                continue
            number += 1
            if len(state.legal_actions()) > 1:
                self.positions.append(step)
                self._numbers[step] = number
        self._seeds = [rng.getrandbits(64) for _ in self.positions]
        self.rows: list[ReviewedMove] = []

    @property
    def total(self) -> int:
        """How many positions the review searches."""
        return len(self.positions)

    @property
    def finished(self) -> bool:
        """Whether every position has been reviewed."""
        return len(self.rows) == len(self.positions)

    def run(self, cancel: Callable[[], bool] | threading.Event | None = None,
            progress: Callable[[ReviewProgress], None] | None = None,
            on_row: Callable[[ReviewedMove], None] | None = None) -> list[ReviewedMove]:
        """Review the remaining positions in order (until ``cancel`` says stop); every row so far."""
        stop = _cancel_check(cancel)
        total = self.total
        while not self.finished and not stop():
            done = len(self.rows)
            if progress is not None:
                progress(ReviewProgress(done, total, done / total))
            step = self.positions[done]
            inner = None if progress is None else (
                lambda report, d=done: progress(ReviewProgress(d, total, (d + report.fraction) / total)))
            found = review_position(self.states[step], self.states[step + 1].last_action,
                                    random.Random(self._seeds[done]), self.iterations, cancel=stop, progress=inner)
            if found is None:
                break
            played, best, playouts = found
            row = ReviewedMove(step, self._numbers[step], self.states[step].current_player, played, best, playouts)
            self.rows.append(row)
            if on_row is not None:
                on_row(row)
        if progress is not None:
            done = len(self.rows)
            progress(ReviewProgress(done, total, done / total if total else 1.0, finished=True))
        return list(self.rows)

    def turning_points(self) -> list[ReviewedMove]:
        """The turning points among the rows so far (see :func:`turning_points`)."""
        return turning_points(self.rows)

    def summary(self, names: Sequence[str] = ()) -> str:
        """One sentence on the turning points found so far."""
        found = self.turning_points()
        if not self.rows:
            return "No move has been reviewed yet."
        scope = "" if self.finished else f" (among the first {core.plural(len(self.rows), 'move')} reviewed)"
        if not found:
            return (f"No move lost more than {100 * TURNING_THRESHOLD:.0f} points of estimated win chance"
                    f"{scope}.")
        listed = "; ".join(f"move {row.number} ({player_name(row.player, names)}, {row.change_text()})"
                           for row in found)
        return f"Turning points{scope}: {listed}."


def turning_points(rows: Sequence[ReviewedMove], count: int = TURNING_POINTS,
                   threshold: float = TURNING_THRESHOLD) -> list[ReviewedMove]:
    """The ``count`` rows that lost most (over ``threshold``, clear of noise; ties: earlier first), in game order."""
    losers = sorted((row for row in rows if row.loss > threshold and row.played.high < row.best.low),
                    key=lambda row: (-row.loss, row.step))
    return sorted(losers[:count], key=lambda row: row.step)
