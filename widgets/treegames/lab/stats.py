"""The statistics of the strategy lab: Wilson intervals, exact binomial tests and their normal approximation.

Pure Python (``math`` and ``fractions``); no UI imports.  The exact binomial test
sums exact ``Fraction`` probabilities, so its p-value carries no rounding until
it is turned into a float at the very end.

Conventions
-----------
* A *share* is ``k`` successes out of ``n`` trials; :func:`wilson_interval` gives
  its 95% score interval (Wilson 1927), which, unlike the textbook
  ``p +/- 1.96 sqrt(p(1-p)/n)``, never leaves [0, 1] and is sensible at 0/n and n/n.
* :func:`binomial_test` is two-sided in the usual "as likely or less likely"
  sense (the convention of R's ``binom.test``): the p-value is the total
  probability, under the null hypothesis, of every count whose probability is at
  most that of the observed count.
* :func:`normal_test` is the z-test of the same hypothesis, with or without
  Yates' continuity correction, so a lesson can put the two side by side.
* Two shares compared: :func:`two_proportion_test` (the pooled z-test, R's
  ``prop.test(correct=FALSE)``) and :func:`fisher_exact` (Fisher's exact test
  of a 2 x 2 table, two-sided in the same "as likely or less likely" sense).
* Many tests at once: :func:`holm` and :func:`bonferroni` adjust a family of
  p-values so that the chance of *any* false alarm stays at the level chosen.
* Peeking: :func:`optional_stopping` simulates experiments that stop as soon as
  the interval excludes the null value, to show how often that raises a false alarm.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from statistics import NormalDist

__all__ = [
    "Z95",
    "Share",
    "share",
    "wilson_interval",
    "binomial_pmf",
    "binomial_weights",
    "binomial_test",
    "normal_test",
    "sign_test",
    "mean_and_sd",
    "TwoShares",
    "two_proportion_test",
    "fisher_exact",
    "holm",
    "bonferroni",
    "wilson_contains",
    "Peeking",
    "optional_stopping",
    "false_alarm_chance",
]

Z95 = NormalDist().inv_cdf(0.975)
"""The two-sided 95% point of the standard normal distribution (1.95996...)."""


def _check_counts(k: int, n: int) -> None:
    """Raise ValueError unless 0 <= k <= n are whole numbers."""
    if type(k) is not int or type(n) is not int:
        raise ValueError(f"counts must be whole numbers, not k={k!r}, n={n!r}")
    if n < 0 or not 0 <= k <= n:
        raise ValueError(f"need 0 <= k <= n, not k={k}, n={n}")


def _z_for(confidence: float) -> float:
    """The two-sided normal point for a confidence level such as 0.95."""
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must lie strictly between 0 and 1, not {confidence!r}")
    return Z95 if confidence == 0.95 else NormalDist().inv_cdf(0.5 + confidence / 2)


def wilson_interval(k: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval for a share of k out of n; (0.0, 1.0) when n is 0."""
    _check_counts(k, n)
    if n == 0:
        return (0.0, 1.0)
    z = _z_for(confidence)
    p = k / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    low, high = centre - half, centre + half
    return (0.0 if k == 0 else max(0.0, low), 1.0 if k == n else min(1.0, high))


@dataclass(frozen=True)
class Share:
    """k out of n, with its 95% Wilson interval."""

    k: int
    n: int
    low: float
    high: float

    @property
    def value(self) -> float:
        """k / n (0.0 when n is 0)."""
        return self.k / self.n if self.n else 0.0

    def text(self, decimals: int = 1) -> str:
        """'52.0% (42.3-61.5)' -- the share and its interval in percent."""
        if not self.n:
            return "-"
        f = f"{{:.{decimals}f}}"
        return f"{f.format(100 * self.value)}% ({f.format(100 * self.low)}–{f.format(100 * self.high)})"


def share(k: int, n: int) -> Share:
    """A :class:`Share` of k out of n with its 95% Wilson interval."""
    low, high = wilson_interval(k, n)
    return Share(k, n, low, high)


def binomial_pmf(k: int, n: int, p: Fraction = Fraction(1, 2)) -> Fraction:
    """The exact chance of k successes in n independent trials of chance p."""
    _check_counts(k, n)
    p = Fraction(p)
    return math.comb(n, k) * p**k * (1 - p) ** (n - k)


def binomial_weights(n: int, p: Fraction) -> tuple[list[int], int]:
    """Whole numbers w_0..w_n and their total b^n with P(i successes) = w_i / b^n exactly, for p = a/b.

    w_i = C(n, i) a^i (b - a)^(n - i), built one from the last by an exact division,
    so even 10 000 trials take a few milliseconds.
    """
    p = Fraction(p)
    a, b = p.numerator, p.denominator
    c = b - a
    if a == 0 or c == 0:
        weights = [0] * (n + 1)
        weights[0 if a == 0 else n] = 1
        return weights, 1
    w = c**n
    weights = [w]
    for i in range(n):
        w = w * (n - i) * a // ((i + 1) * c)
        weights.append(w)
    return weights, b**n


def binomial_test(k: int, n: int, p: Fraction = Fraction(1, 2)) -> float:
    """Exact two-sided p-value of k successes in n trials if the true chance is p.

    Sums the exact probabilities of every count no more likely than k (R's
    ``binom.test`` convention), in whole-number arithmetic; for p = 1/2 this is
    twice the smaller tail.
    """
    _check_counts(k, n)
    p = Fraction(p)
    if not 0 <= p <= 1:
        raise ValueError(f"the chance p must lie in [0, 1], not {p}")
    if n == 0:
        return 1.0
    weights, total = binomial_weights(n, p)
    observed = weights[k]
    return min(1.0, float(Fraction(sum(w for w in weights if w <= observed), total)))


def normal_test(k: int, n: int, p: float = 0.5, continuity: bool = False) -> tuple[float, float]:
    """(z, two-sided p-value) of the normal approximation to the binomial test of k in n.

    ``continuity`` applies Yates' correction (the count moves half a step towards
    the expected count before standardising).
    """
    _check_counts(k, n)
    p = float(p)
    if n == 0 or p in (0.0, 1.0):
        return (0.0, 1.0)
    expected = n * p
    diff = k - expected
    if continuity:
        diff = math.copysign(max(0.0, abs(diff) - 0.5), diff)
    z = diff / math.sqrt(n * p * (1 - p))
    return (z, math.erfc(abs(z) / math.sqrt(2)))


def sign_test(better: int, worse: int) -> float:
    """Exact two-sided p-value of a paired comparison: pairs one way against pairs the other (ties dropped)."""
    return binomial_test(better, better + worse)


def mean_and_sd(values: list[float] | tuple[float, ...]) -> tuple[float, float]:
    """(mean, sample standard deviation) of some numbers; (0, 0) for none, sd 0 for one."""
    if not values:
        return (0.0, 0.0)
    mean = math.fsum(values) / len(values)
    if len(values) == 1:
        return (mean, 0.0)
    var = math.fsum((v - mean) ** 2 for v in values) / (len(values) - 1)
    return (mean, math.sqrt(var))


# ------------------------------------------------------------------ two shares compared


@dataclass(frozen=True)
class TwoShares:
    """k1 of n1 against k2 of n2: the pooled two-proportion z-test of "the same chance"."""

    first: Share
    second: Share
    z: float
    p_value: float

    @property
    def difference(self) -> float:
        """first share minus second share."""
        return self.first.value - self.second.value


def two_proportion_test(k1: int, n1: int, k2: int, n2: int) -> TwoShares:
    """Two-sided pooled z-test that two shares have the same true chance (R's prop.test without correction).

    z = (k1/n1 - k2/n2) / sqrt(q (1 - q) (1/n1 + 1/n2)) with the pooled share
    q = (k1 + k2) / (n1 + n2); p = 1 when either side has no trials or q is 0 or 1.
    """
    _check_counts(k1, n1)
    _check_counts(k2, n2)
    first, second = share(k1, n1), share(k2, n2)
    pooled = (k1 + k2) / (n1 + n2) if n1 + n2 else 0.0
    if not n1 or not n2 or pooled in (0.0, 1.0):
        return TwoShares(first, second, 0.0, 1.0)
    z = (k1 / n1 - k2 / n2) / math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    return TwoShares(first, second, z, math.erfc(abs(z) / math.sqrt(2)))


def fisher_exact(a: int, b: int, c: int, d: int) -> float:
    """Fisher's exact two-sided p-value of the 2 x 2 table [[a, b], [c, d]] (R's fisher.test convention).

    With the margins fixed, the top-left count is hypergeometric; the p-value is
    the total exact probability of every table no more likely than the observed one.
    """
    for name, v in zip("abcd", (a, b, c, d), strict=True):
        if type(v) is not int or v < 0:
            raise ValueError(f"table cell {name} must be a whole number of at least 0, not {v!r}")
    row1, row2, col1 = a + b, c + d, a + c
    low, high = max(0, col1 - row2), min(row1, col1)
    weights = {x: math.comb(row1, x) * math.comb(row2, col1 - x) for x in range(low, high + 1)}
    observed = weights[a]
    return min(1.0, float(Fraction(sum(w for w in weights.values() if w <= observed), sum(weights.values()))))


# ------------------------------------------------------------------ many tests at once


def bonferroni(p_values: list[float] | tuple[float, ...]) -> list[float]:
    """Each p-value times the number of tests, at most 1 (keeps the chance of any false alarm at the level)."""
    m = len(p_values)
    return [min(1.0, m * p) for p in p_values]


def holm(p_values: list[float] | tuple[float, ...]) -> list[float]:
    """Holm's step-down adjusted p-values, in the given order (R's p.adjust(method="holm")).

    The smallest p is multiplied by m, the next by m - 1, and so on, each kept
    at least as large as the one before it and at most 1.  Never larger than
    Bonferroni's, with the same guarantee.
    """
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


# ------------------------------------------------------------------ peeking (optional stopping)


def wilson_contains(k: int, n: int, p: float = 0.5, confidence: float = 0.95) -> bool:
    """True when the Wilson interval of k out of n contains p.

    The Wilson interval is the set of chances the score test does not reject, so
    this is |k - n p| <= z sqrt(n p (1 - p)), without computing the interval.
    """
    _check_counts(k, n)
    if n == 0:
        return True
    return abs(k - n * p) <= _z_for(confidence) * math.sqrt(n * p * (1 - p)) + 1e-9


@dataclass(frozen=True)
class Peeking:
    """Simulated experiments with no advantage at all: how many raised an alarm, peeking or looking once."""

    experiments: int
    max_games: int
    first_look: int
    chance: float  # the true chance in every game (the null value: any alarm is false)
    alarms_peeking: int  # stopped early: the interval excluded the null value at some look
    alarms_once: int  # looked only after max_games: the interval excluded it then
    stops: tuple[int, ...]  # the game at which each peeking alarm was raised
    exact_once: float  # the exact chance of a false alarm with one look after max_games games

    @property
    def peeking(self) -> Share:
        """Share of experiments with a false alarm when checking after every game."""
        return share(self.alarms_peeking, self.experiments)

    @property
    def once(self) -> Share:
        """Share of experiments with a false alarm when checking once, at the planned number of games."""
        return share(self.alarms_once, self.experiments)


def optional_stopping(experiments: int = 1000, max_games: int = 500, first_look: int = 10,
                      chance: float = 0.5, seed: int = 0) -> Peeking:
    """Simulate ``experiments`` runs of up to ``max_games`` fair games (seeded, so always the same result).

    Each run checks the 95% Wilson interval after every game from ``first_look``
    on and stops at the first game where it excludes ``chance`` (a false alarm,
    since every game really has that chance); separately, each run is checked
    once after ``max_games`` games.  Games are coin flips from ``random.Random(seed)``.
    """
    import random

    for name, v in (("experiments", experiments), ("max_games", max_games), ("first_look", first_look)):
        if type(v) is not int or v < 1:
            raise ValueError(f"{name} must be a whole number of at least 1, not {v!r}")
    if not 0 < chance < 1:
        raise ValueError(f"chance must lie strictly between 0 and 1, not {chance!r}")
    z = Z95
    # For each n, the win counts whose interval still contains the chance (the score test's acceptance region).
    low = [math.ceil(n * chance - z * math.sqrt(n * chance * (1 - chance)) - 1e-9) for n in range(max_games + 1)]
    high = [math.floor(n * chance + z * math.sqrt(n * chance * (1 - chance)) + 1e-9) for n in range(max_games + 1)]
    rng = random.Random(seed)
    alarms = once = 0
    stops = []
    for _ in range(experiments):
        k = 0
        stopped = False
        for n in range(1, max_games + 1):
            k += rng.random() < chance
            if not stopped and n >= first_look and not low[n] <= k <= high[n]:
                stopped = True
                stops.append(n)
        alarms += stopped
        once += not low[max_games] <= k <= high[max_games]
    return Peeking(experiments, max_games, first_look, chance, alarms, once, tuple(stops),
                   false_alarm_chance(max_games, chance))


def false_alarm_chance(n: int, chance: float = 0.5) -> float:
    """The exact chance that the 95% Wilson interval of n games excludes their true chance (one look)."""
    if type(n) is not int or n < 1:
        raise ValueError(f"n must be a whole number of at least 1, not {n!r}")
    weights, total = binomial_weights(n, Fraction(chance).limit_denominator(10**6))
    outside = sum(w for k, w in enumerate(weights) if not wilson_contains(k, n, chance))
    return float(Fraction(outside, total))
