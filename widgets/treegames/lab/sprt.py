"""The sequential probability ratio test (SPRT): is one bot better than another, decided as the games come in.

Pure Python (``math`` only); no UI imports.  Engine testing (fishtest, OpenBench)
decides "is the new version better?" this way: play games, and after each one
update a log-likelihood ratio (LLR) of two hypotheses; stop as soon as it leaves
the band between two bounds set by the error rates chosen in advance.  Peeking
is built in, so the error rates hold however often one looks.

The two hypotheses (our design)
-------------------------------
A test is about the candidate's mean *score* per game: 1 for a game it wins
alone, ``1/k`` for a win shared by ``k`` players, 0 for a loss, and the fair
share ``1/players`` for a game nobody wins (a two-player draw counts 1/2, as in
chess).  ``H0``: the mean score is ``s0``; ``H1``: it is ``s1``.  The lab's usual
test is ``s0`` = the fair share (1/2 with two players, 1/4 with four) and ``s1``
five points more (55%, 30%).  The bounds are Wald's: accept H1 when
``LLR >= log((1 - beta) / alpha)``, accept H0 when ``LLR <= log(beta / (1 - alpha))``.

Blocks, not games (our design)
------------------------------
Games are played in the tournament's seat-rotated *blocks* (see
:mod:`.tournament`): one game per seat, all with the same chance seed, so with
two players a block is a pair of games with the seats swapped.  The unit of the
test is the block, and its outcome is the candidate's mean score over the
block's games.  With two players the outcomes are 0, 1/4, 1/2, 3/4, 1: the
*pentanomial* count of engine testing (LL, LD, DD or WL, WD, WW).  With more
players a block's mean takes other values (ties shared three ways give thirds);
the same statistic works on any set of outcome values, so every distinct value
is one category.  Counting blocks rather than games keeps what the shared seed
buys: the luck of a seed falls on both sides of a pair, and the test sees less
noise than if it counted the games one by one.

The statistic
-------------
A match gives a histogram of block outcomes.  The test is the *generalized*
SPRT: for each hypothesis, the most likely distribution over the outcomes whose
mean is that hypothesis's score (a maximum-likelihood fit under one linear
constraint, solved by bisection on its one Lagrange multiplier), and the LLR is
the log-likelihood of the data under the H1 fit minus under the H0 fit.  An
outcome never seen so far is counted as 0.001 of a block so that both fits
stay defined: the same regularization fishtest uses, so our figures can be
checked against its printed ones (see tests/lab/test_sprt.py).
References: M. Van den Bergh's notes "support_MLE_multinomial" and
"normalized_elo_practical" (cantate.be/Fishtest).

:func:`llr_normalized` computes the same test in *normalized Elo* (a t-value
rather than a mean), fishtest's default since 2020, only to check our figures
against engine testing's published ones; the lab's matches use the mean score.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from .stats import Z95, wilson_interval

__all__ = [
    "SprtError",
    "Decision",
    "Sprt",
    "Estimate",
    "wald_bounds",
    "histogram_of",
    "pentanomial",
    "llr_expectation",
    "llr_logistic",
    "llr_normalized",
    "logistic_elo",
    "score_of_elo",
    "estimate",
    "REGULARIZATION",
]

REGULARIZATION = 1e-3
"""An outcome not seen yet counts as this much of a block (so the fits stay defined; fishtest's value)."""

NELO_PER_T = 800 / math.log(10)
"""Normalized Elo per unit of t-value (the scale engine testing prints normalized Elo in)."""


class SprtError(ValueError):
    """A test asked for with impossible settings or counts: names the setting or the count."""


class Decision(StrEnum):
    """Where a sequential test stands."""

    CONTINUE = "keep playing"
    H1 = "H1 accepted"
    H0 = "H0 accepted"


def wald_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's (lower, upper) LLR bounds for false-alarm rate ``alpha`` and miss rate ``beta``."""
    for name, value in (("alpha", alpha), ("beta", beta)):
        if not isinstance(value, int | float) or not 0 < value < 0.5:
            raise SprtError(f"{name} must lie strictly between 0 and 0.5, not {value!r}")
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


# --------------------------------------------------------------------------
# Histograms of outcomes


def histogram_of(outcomes: Iterable[float | Fraction]) -> dict[Fraction, int]:
    """How many blocks had each outcome (a score from 0 to 1), the outcomes as exact fractions."""
    counts: dict[Fraction, int] = {}
    for value in outcomes:
        exact = Fraction(value).limit_denominator(10_000)
        if not 0 <= exact <= 1:
            raise SprtError(f"an outcome is a score from 0 to 1, not {value!r}")
        counts[exact] = counts.get(exact, 0) + 1
    return counts


def pentanomial(counts: Sequence[int]) -> dict[Fraction, int]:
    """The histogram of a pentanomial count [LL, LD, DD+WL, WD, WW] (or a trinomial [L, D, W]) of pairs or games."""
    if len(counts) not in (3, 5):
        raise SprtError(f"a count has 3 entries (L, D, W) or 5 (pairs LL to WW), not {len(counts)}")
    for c in counts:
        if type(c) is not int or c < 0:
            raise SprtError(f"every count must be a whole number of at least 0, not {c!r}")
    top = len(counts) - 1
    return {Fraction(i, top): c for i, c in enumerate(counts)}


def _distribution(histogram: dict[Fraction, int] | dict[float, int],
                  support: Iterable[Fraction | float] = ()) -> tuple[int, list[tuple[float, float]]]:
    """(blocks, [(outcome, observed share)]) with every outcome of ``support`` present and none at zero."""
    values = sorted(set(histogram) | set(support))
    weights = [histogram.get(v, 0) or REGULARIZATION for v in values]
    total = sum(weights)
    return sum(histogram.values()), [(float(v), w / total) for v, w in zip(values, weights, strict=True)]


def _mean_and_variance(pdf: Sequence[tuple[float, float]]) -> tuple[float, float]:
    """Mean and variance of a distribution given as (value, probability) pairs."""
    mean = sum(p * a for a, p in pdf)
    return mean, sum(p * (a - mean) ** 2 for a, p in pdf)


def _multiplier(pdf: Sequence[tuple[float, float]]) -> float:
    """The x with sum p_i a_i / (1 + x a_i) = 0 (a_i of both signs): the fit's Lagrange multiplier.

    Newton's method from x = 0, kept inside the bracket between the two poles (the
    sum falls as x grows).  A Newton step that would leave the bracket, or crawl
    (near a pole the sum is huge and Newton's steps tiny), is replaced by bisection.
    It stops when the sum is zero to rounding, or the bracket cannot shrink further.
    """
    lo, hi = -1 / max(a for a, _ in pdf), -1 / min(a for a, _ in pdf)  # 1 + x a_i > 0 strictly between
    x, previous = 0.0, math.inf
    for _ in range(400):
        value = slope = 0.0
        for a, p in pdf:
            share = a / (1 + x * a)
            value += p * share
            slope -= p * share * share
        if abs(value) < 1e-15:
            return x
        if value > 0:
            lo = x
        else:
            hi = x
        if hi - lo <= 4e-16 * max(1.0, abs(x)):
            return x
        step = x - value / slope if slope < 0 else lo
        if not lo < step < hi or abs(value) > 0.25 * previous:  # Newton left the bracket, or is crawling
            step = (lo + hi) / 2
        previous, x = abs(value), step
    return x


def _fit_with_mean(pdf: Sequence[tuple[float, float]], mean: float) -> list[float]:
    """The most likely probabilities over the same outcomes whose mean is ``mean`` (given the observed shares)."""
    shifted = [(a - mean, p) for a, p in pdf]
    if not min(a for a, _ in shifted) < 0 < max(a for a, _ in shifted):
        raise SprtError(f"a mean score of {mean} lies outside the outcomes {sorted(a for a, _ in pdf)}")
    x = _multiplier(shifted)
    return [p / (1 + x * a) for a, p in shifted]


def _fit_with_t_value(pdf: Sequence[tuple[float, float]], reference: float, t: float) -> list[float]:
    """The most likely probabilities whose (mean - reference) / sd is ``t`` (a fixed-point iteration on the mean fit)."""
    fitted = [1 / len(pdf)] * len(pdf)
    for _ in range(50):
        mean, variance = _mean_and_variance([(a, q) for (a, _), q in zip(pdf, fitted, strict=True)])
        sd = math.sqrt(variance)
        shifted = [(a - reference - t * sd * (1 + ((mean - a) / sd) ** 2) / 2, p) for a, p in pdf]
        x = _multiplier(shifted)
        previous, fitted = fitted, [p / (1 + x * a) for a, p in shifted]
        if max(abs(u - v) for u, v in zip(previous, fitted, strict=True)) < 1e-12:
            break
    return fitted


def _llr(blocks: int, pdf: Sequence[tuple[float, float]], fit0: Sequence[float], fit1: Sequence[float]) -> float:
    """blocks x the observed mean of log(fit1 / fit0)."""
    return blocks * sum(p * (math.log(q1) - math.log(q0)) for (_, p), q0, q1 in zip(pdf, fit0, fit1, strict=True))


def llr_expectation(histogram: dict[Fraction, int] | dict[float, int], s0: float, s1: float,
                    support: Iterable[Fraction | float] = (Fraction(0), Fraction(1))) -> float:
    """The generalized LLR of "mean score s1" against "mean score s0" for a histogram of block outcomes.

    ``support`` lists outcomes that are possible though not yet seen (by default
    the two extremes, so that any mean from 0 to 1 can be fitted).
    """
    blocks, pdf = _distribution(histogram, support)
    if blocks == 0:
        return 0.0
    return _llr(blocks, pdf, _fit_with_mean(pdf, s0), _fit_with_mean(pdf, s1))


def logistic_elo(score: float) -> float:
    """The Elo difference whose expected score is ``score`` (logistic, 400 points = 10 to 1)."""
    if not 0 < score < 1:
        return math.copysign(math.inf, score - 0.5)
    return -400 * math.log10(1 / score - 1)


def score_of_elo(elo: float) -> float:
    """The expected score of an Elo difference (logistic)."""
    return 1 / (1 + 10 ** (-elo / 400))


def llr_logistic(counts: Sequence[int], elo0: float, elo1: float) -> float:
    """The LLR of a trinomial or pentanomial count for Elo bounds in logistic Elo (as engine testing quotes them)."""
    histogram = pentanomial(counts)
    return llr_expectation(histogram, score_of_elo(elo0), score_of_elo(elo1), support=histogram)


def llr_normalized(counts: Sequence[int], nelo0: float, nelo1: float) -> float:
    """The LLR of a trinomial or pentanomial count for bounds in normalized Elo (fishtest's default since 2020)."""
    histogram = pentanomial(counts)
    blocks, pdf = _distribution(histogram, histogram)
    if blocks == 0:
        return 0.0
    scale = math.sqrt(2) if len(counts) == 5 else 1.0  # a pair's t-value is sqrt(2) times a game's
    t0, t1 = (nelo / NELO_PER_T * scale for nelo in (nelo0, nelo1))
    return _llr(blocks, pdf, _fit_with_t_value(pdf, 0.5, t0), _fit_with_t_value(pdf, 0.5, t1))


# --------------------------------------------------------------------------
# The test


@dataclass(frozen=True)
class Estimate:
    """A mean score per game with its 95% interval, from the blocks' outcomes (and its Elo for two players)."""

    mean: float
    low: float
    high: float
    blocks: int

    def text(self, decimals: int = 1) -> str:
        """'57.3% (52.1-62.4)'."""
        return f"{100 * self.mean:.{decimals}f}% ({100 * self.low:.{decimals}f}-{100 * self.high:.{decimals}f})"

    def elo_text(self) -> str:
        """The two-player Elo difference with its interval, '+51 (+15 to +90)'."""
        low, mean, high = (_elo_words(logistic_elo(v)) for v in (self.low, self.mean, self.high))
        return f"{mean} ({low} to {high})"


def _elo_words(elo: float) -> str:
    """An Elo difference as signed whole points ('+0', never '-0'; infinities as '+inf')."""
    if math.isinf(elo):
        return "+inf" if elo > 0 else "-inf"
    return f"{round(elo) + 0:+d}"


def estimate(histogram: dict[Fraction, int] | dict[float, int], games_per_block: int = 1) -> Estimate:
    """The mean score per game and its 95% interval: normal over blocks (each block one observation).

    Where every block had the same outcome (no spread to measure, e.g. a bot that
    won every game), the Wilson interval of the games as wins and losses is used instead.
    """
    blocks = sum(histogram.values())
    if blocks == 0:
        return Estimate(math.nan, 0.0, 1.0, 0)
    mean = sum(float(v) * c for v, c in histogram.items()) / blocks
    variance = sum(c * (float(v) - mean) ** 2 for v, c in histogram.items()) / max(1, blocks - 1)
    if blocks == 1 or variance == 0:
        games = blocks * games_per_block
        low, high = wilson_interval(round(mean * games), games)
        return Estimate(mean, low, high, blocks)
    half = Z95 * math.sqrt(variance / blocks)
    return Estimate(mean, max(0.0, mean - half), min(1.0, mean + half), blocks)


@dataclass(frozen=True)
class Sprt:
    """One sequential test: H0 "mean score s0" against H1 "mean score s1", with error rates alpha and beta."""

    s0: float = 0.5
    s1: float = 0.55
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        for name in ("s0", "s1"):
            value = getattr(self, name)
            if not isinstance(value, int | float) or not 0 < value < 1:
                raise SprtError(f"{name} must be a mean score strictly between 0 and 1, not {value!r}")
        if self.s1 == self.s0:
            raise SprtError(f"s0 and s1 must differ (both are {self.s0})")
        wald_bounds(self.alpha, self.beta)

    @classmethod
    def fair_share(cls, players: int, margin: float = 0.05, alpha: float = 0.05, beta: float = 0.05) -> Sprt:
        """H0 at the fair share 1/players, H1 ``margin`` above it (our usual question: "is it better?")."""
        if type(players) is not int or players < 2:
            raise SprtError(f"players must be a whole number of at least 2, not {players!r}")
        return cls(1 / players, 1 / players + margin, alpha, beta)

    @property
    def bounds(self) -> tuple[float, float]:
        """Wald's (lower, upper) bounds on the LLR."""
        return wald_bounds(self.alpha, self.beta)

    def llr(self, histogram: dict[Fraction, int] | dict[float, int]) -> float:
        """The LLR of H1 against H0 for a histogram of block outcomes."""
        return llr_expectation(histogram, self.s0, self.s1)

    def decide(self, llr: float) -> Decision:
        """Where an LLR leaves the test: H1 at or above the upper bound, H0 at or below the lower."""
        lower, upper = self.bounds
        if llr >= upper:
            return Decision.H1
        if llr <= lower:
            return Decision.H0
        return Decision.CONTINUE

    def describe(self) -> str:
        """The test in words, e.g. 'H0: 50% v H1: 55%, alpha 0.05, beta 0.05 (bounds -2.94, +2.94)'."""
        lower, upper = self.bounds
        return (f"H0: {100 * self.s0:g}% v H1: {100 * self.s1:g}% per game, alpha {self.alpha:g}, beta {self.beta:g} "
                f"(bounds {lower:+.2f}, {upper:+.2f})")
