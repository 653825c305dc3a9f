"""Evaluations: from a position, each player's chance to win, fitted on self-play and checked for calibration.

No UI imports, and no game named here: each game's plug-in names its evaluation
(``GamePlugin.evaluation``, "module:object"), a :class:`WinModel` built from the
engine's own quantities in that game's package.

The model (our design)
----------------------
Each player ``p`` gets a *strength* ``s_p = w . f(state, p)``, a weighted sum of
the game's features for that player (score, trees, cards, ...), and the chances
are the softmax of the strengths: ``P(p wins) = exp(s_p) / sum_q exp(s_q)``.
With two players this is the logistic model of the feature *differences*.
Features that are the same for every player cancel, so a feature such as "how
far the game has gone" enters multiplied by a player's own quantity (a score
margin matters more near the end).  A game over gets its real result: 1 to
its winner, or shared equally among the winners of a shared victory.

Fitting: positions sampled from seeded self-play games (:func:`self_play`), each
labelled with the game's eventual winners (a shared win counts a share to each),
and the weights that maximize the likelihood of those labels (:func:`fit`, by
Newton's method with a small ridge penalty, pure Python: a handful of weights).

Calibration: on positions from *other* seeds, predicted chances are grouped in
bins and set beside the share of those positions the player went on to win
(:func:`calibration`); ``benchmarks/bench_evaluation.py`` prints it per game.
"""

from __future__ import annotations

import importlib
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from .. import core
from ..plugins import plugin

__all__ = ["WinModel", "Sample", "CalibrationBin", "self_play", "fit", "calibration", "brier", "model_for",
           "EvaluationError"]


class EvaluationError(ValueError):
    """An evaluation asked of a game that has none, or a fit given nothing to fit."""


@dataclass(frozen=True)
class WinModel:
    """Each player's chance to win from a position: the softmax of weighted features (see the module docstring)."""

    names: tuple[str, ...]
    weights: tuple[float, ...]
    features: Callable[[Any, int], tuple[float, ...]]

    def strengths(self, state: Any) -> tuple[float, ...]:
        """Each player's strength w . f(state, p)."""
        return tuple(sum(w * x for w, x in zip(self.weights, self.features(state, p), strict=True))
                     for p in range(state.game.num_players))

    def chances(self, state: Any) -> tuple[float, ...]:
        """Each player's chance to win (they sum to 1); a finished game gives its result."""
        players = state.game.num_players
        if state.is_terminal():
            winners = state.winners()
            if not winners:
                return (1 / players,) * players
            return tuple(1 / len(winners) if p in winners else 0.0 for p in range(players))
        return softmax(self.strengths(state))

    def with_weights(self, weights: Sequence[float]) -> WinModel:
        """The same features with other weights."""
        return WinModel(self.names, tuple(float(w) for w in weights), self.features)


def softmax(values: Sequence[float]) -> tuple[float, ...]:
    """exp(v) / sum(exp), computed without overflow."""
    top = max(values)
    exps = [math.exp(v - top) for v in values]
    total = sum(exps)
    return tuple(e / total for e in exps)


@cache
def model_for(game: str) -> WinModel:
    """The evaluation named by ``game``'s plug-in; EvaluationError if it names none."""
    where = plugin(game).evaluation
    if not where:
        raise EvaluationError(f"the game {game!r} has no evaluation (its plug-in names none)")
    module, _, name = where.partition(":")
    return getattr(importlib.import_module(module), name)


# --------------------------------------------------------------------------
# Self-play samples


@dataclass(frozen=True)
class Sample:
    """One position's features for every player, and each player's share of the eventual win."""

    features: tuple[tuple[float, ...], ...]  # one row per player
    outcome: tuple[float, ...]  # 1 to the winner, shares for a shared win, 1/players each for a draw
    progress: float  # how far through its game the position came (0 at the start, 1 at the end)


def _outcome(state: Any) -> tuple[float, ...]:
    """Each player's share of the result of a finished game."""
    players = state.game.num_players
    winners = state.winners()
    if not winners:
        return (1 / players,) * players
    return tuple(1 / len(winners) if p in winners else 0.0 for p in range(players))


def self_play(game: Any, model: WinModel, bots: Sequence[str], games: int, seed: int,
              per_game: int = 8) -> list[Sample]:
    """Positions from ``games`` seeded games between ``bots`` (bot names of the game's type), ``per_game`` each.

    The positions of a game are drawn evenly over its decisions (not its chance
    events), after it has ended, so each is labelled with the game's real result.
    """
    game_type = core.games()[game.name]
    samples: list[Sample] = []
    for index in range(games):
        rng = random.Random(f"treegames-evaluation/{seed}/{index}")
        seats = [game_type.bots[bots[(p + index) % len(bots)]](random.Random(rng.getrandbits(64)))
                 for p in range(game.num_players)]
        state = game.new_initial_state()
        decisions = []
        while not state.is_terminal():
            if state.current_player == core.CHANCE:
                state = state.apply(core.sample_chance(state, rng))
                continue
            decisions.append(state)
            state = state.apply(seats[state.current_player].choose(state))
        if not decisions:
            continue
        outcome = _outcome(state)
        picks = sorted({round(k * (len(decisions) - 1) / max(1, per_game - 1)) for k in range(per_game)})
        for i in picks:
            position = decisions[i]
            rows = tuple(tuple(model.features(position, p)) for p in range(game.num_players))
            samples.append(Sample(rows, outcome, i / max(1, len(decisions) - 1)))
    return samples


# --------------------------------------------------------------------------
# Fitting


def _log_likelihood(weights: Sequence[float], samples: Sequence[Sample], ridge: float) -> float:
    """The mean log-likelihood of the outcomes, less the ridge penalty."""
    total = 0.0
    for sample in samples:
        chances = softmax([sum(w * x for w, x in zip(weights, row, strict=True)) for row in sample.features])
        total += sum(y * math.log(max(c, 1e-300)) for y, c in zip(sample.outcome, chances, strict=True))
    return total / len(samples) - ridge * sum(w * w for w in weights)


def fit(samples: Sequence[Sample], ridge: float = 1e-4, steps: int = 50) -> tuple[float, ...]:
    """The weights maximizing the mean log-likelihood of the samples' outcomes (Newton's method, with step halving)."""
    if not samples:
        raise EvaluationError("nothing to fit: no samples")
    k = len(samples[0].features[0])
    weights = [0.0] * k
    current = _log_likelihood(weights, samples, ridge)
    for _ in range(steps):
        gradient = [0.0] * k
        hessian = [[0.0] * k for _ in range(k)]
        for sample in samples:
            strengths = [sum(w * x for w, x in zip(weights, row, strict=True)) for row in sample.features]
            chances = softmax(strengths)
            mean = [sum(c * row[j] for c, row in zip(chances, sample.features, strict=True)) for j in range(k)]
            weight = sum(sample.outcome)
            for y, c, row in zip(sample.outcome, chances, sample.features, strict=True):
                for j in range(k):
                    gradient[j] += y * row[j] - weight * c * row[j]
                    for m in range(j, k):
                        hessian[j][m] -= weight * c * (row[j] - mean[j]) * (row[m] - mean[m])
        n = len(samples)
        for j in range(k):
            gradient[j] = gradient[j] / n - 2 * ridge * weights[j]
            for m in range(j, k):
                hessian[j][m] = hessian[j][m] / n - (2 * ridge if j == m else 0.0)
                hessian[m][j] = hessian[j][m]
        step = _solve([[-h for h in row] for row in hessian], gradient)
        scale = 1.0
        while scale > 1e-6:
            trial = [w + scale * s for w, s in zip(weights, step, strict=True)]
            value = _log_likelihood(trial, samples, ridge)
            if value >= current - 1e-12:
                break
            scale /= 2
        else:
            break
        weights, improvement, current = trial, value - current, value
        if improvement < 1e-10:
            break
    return tuple(weights)


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """x with matrix . x = vector (Gaussian elimination with partial pivoting; a small symmetric positive system)."""
    n = len(vector)
    rows = [list(row) + [v] for row, v in zip(matrix, vector, strict=True)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        if abs(rows[col][col]) < 1e-15:
            continue
        for r in range(col + 1, n):
            factor = rows[r][col] / rows[col][col]
            for c in range(col, n + 1):
                rows[r][c] -= factor * rows[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        if abs(rows[r][r]) < 1e-15:
            continue
        x[r] = (rows[r][n] - sum(rows[r][c] * x[c] for c in range(r + 1, n))) / rows[r][r]
    return x


# --------------------------------------------------------------------------
# Calibration


@dataclass(frozen=True)
class CalibrationBin:
    """Predictions from ``low`` to ``high``: how many, their mean, and the share that came true."""

    low: float
    high: float
    count: int
    predicted: float
    observed: float


def _predictions(model: WinModel, samples: Sequence[Sample]) -> list[tuple[float, float]]:
    """(predicted chance, observed share) for every player of every sample."""
    out = []
    for sample in samples:
        strengths = [sum(w * x for w, x in zip(model.weights, row, strict=True)) for row in sample.features]
        out.extend(zip(softmax(strengths), sample.outcome, strict=True))
    return out


def calibration(model: WinModel, samples: Sequence[Sample], bins: int = 10) -> list[CalibrationBin]:
    """Predicted chances in ``bins`` equal-width bins, each beside the share of them that came true."""
    grouped: list[list[tuple[float, float]]] = [[] for _ in range(bins)]
    for predicted, observed in _predictions(model, samples):
        grouped[min(bins - 1, int(predicted * bins))].append((predicted, observed))
    return [CalibrationBin(i / bins, (i + 1) / bins, len(g), sum(p for p, _ in g) / len(g), sum(o for _, o in g) / len(g))
            for i, g in enumerate(grouped) if g]


def brier(model: WinModel, samples: Sequence[Sample]) -> float:
    """The mean squared error of the predicted chances (lower is better; guessing the fair share scores 1/n - 1/n^2)."""
    pairs = _predictions(model, samples)
    return sum((p - o) ** 2 for p, o in pairs) / len(pairs)
