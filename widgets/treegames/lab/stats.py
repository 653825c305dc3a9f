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
