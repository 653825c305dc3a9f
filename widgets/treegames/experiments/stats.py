"""Pooled statistics of a class experiment: counts, total variation to exact, chi-square with its p-value.

No SciPy: the chi-square tail is the regularized upper incomplete gamma function
``Q(df/2, x/2)``, computed by its power series below ``a + 1`` and by its continued
fraction above (the classic pair; tested against printed table values and, for
even degrees of freedom, against the exact finite sum).

What the chi-square line means (and what it does not) is written once here, in
:func:`chi_square_sentence`, for every page that shows it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

__all__ = [
    "total_variation",
    "chi_square",
    "chi_square_sf",
    "ChiSquare",
    "chi_square_sentence",
    "Trace",
    "guide_line",
]

_EPS = 1e-15
_MAX_TERMS = 10_000


def total_variation(counts: Mapping, exact: Mapping) -> float:
    """Half the sum of |observed share - exact chance| over every outcome (0 = identical, 1 = disjoint)."""
    n = sum(counts.values())
    if n == 0:
        return 1.0
    keys = set(exact) | set(counts)
    return 0.5 * sum(abs(counts.get(k, 0) / n - float(exact.get(k, 0))) for k in keys)


def _lower_series(a: float, x: float) -> float:
    """The regularized lower incomplete gamma P(a, x) by its power series (good for x < a + 1)."""
    term = total = 1.0 / a
    ap = a
    for _ in range(_MAX_TERMS):
        ap += 1.0
        term *= x / ap
        total += term
        if abs(term) < abs(total) * _EPS:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _upper_fraction(a: float, x: float) -> float:
    """The regularized upper incomplete gamma Q(a, x) by its continued fraction (modified Lentz; x >= a + 1)."""
    tiny = 1e-300
    b = x + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for i in range(1, _MAX_TERMS):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        step = d * c
        h *= step
        if abs(step - 1.0) < _EPS:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def chi_square_sf(statistic: float, df: int) -> float:
    """P(a chi-square variable with ``df`` degrees of freedom is at least ``statistic``): the p-value."""
    if type(df) is not int or df < 1:
        raise ValueError(f"degrees of freedom must be a whole number of 1 or more, not {df!r}")
    if statistic <= 0:
        return 1.0
    a, x = df / 2.0, statistic / 2.0
    if x < a + 1.0:
        return max(0.0, min(1.0, 1.0 - _lower_series(a, x)))
    return max(0.0, min(1.0, _upper_fraction(a, x)))


@dataclass(frozen=True)
class ChiSquare:
    """Pearson's goodness-of-fit test of pooled counts against the exact distribution."""

    statistic: float
    df: int
    p_value: float
    n: int
    smallest_expected: float  # the smallest expected count over the outcomes (the test wants >= 5)

    @property
    def is_reliable(self) -> bool:
        """True when every expected count is at least 5 (the usual rule of thumb for the approximation)."""
        return self.df >= 1 and self.smallest_expected >= 5


def chi_square(counts: Mapping, exact: Mapping[object, Fraction]) -> ChiSquare:
    """Sum of (observed - expected)^2 / expected over the outcomes of nonzero chance; df = outcomes - 1."""
    n = sum(counts.values())
    outcomes = [k for k, p in exact.items() if p > 0]
    if any(counts.get(k, 0) for k in counts if k not in outcomes):
        return ChiSquare(math.inf, max(1, len(outcomes) - 1), 0.0, n, 0.0)
    df = len(outcomes) - 1
    if n == 0 or df < 1:
        return ChiSquare(0.0, max(df, 0), 1.0, n, 0.0)
    statistic = 0.0
    for k in outcomes:
        expected = n * float(exact[k])
        statistic += (counts.get(k, 0) - expected) ** 2 / expected
    smallest = min(n * float(exact[k]) for k in outcomes)
    return ChiSquare(statistic, df, chi_square_sf(statistic, df), n, smallest)


def chi_square_sentence(test: ChiSquare) -> str:
    """What this chi-square line means, and what it does not, in one or two plain sentences."""
    if test.n == 0 or test.df < 1:
        return "No results yet: the chi-square test needs results to compare with the exact chances."
    line = (f"Chi-square = {test.statistic:.2f} with {test.df} degrees of freedom, p = {test.p_value:.3f}. "
            f"If the results really follow the exact chances, a difference at least this big happens in "
            f"{test.p_value:.1%} of classes of this size. ")
    if test.p_value < 0.01:
        line += "That is rare: look for a reason (a biased die, a mistyped entry). "
    line += "A large p does not prove the chances are right, and p is not the chance that they are."
    if not test.is_reliable:
        line += " Some outcomes expect fewer than 5 results yet, so treat p as rough."
    return line


def guide_line(n: int, first_tv: float, first_n: int) -> float:
    """The 1/sqrt(n) guide through the first point of the trace: its height at ``n``."""
    return first_tv * math.sqrt(first_n / n)


class Trace:
    """Total variation after each batch, kept at roughly log-spaced n (for the TV-against-n chart)."""

    def __init__(self, exact: Mapping, growth: float = 1.06):
        self.exact = exact
        self.growth = growth
        self.counts: dict = {}
        self.n = 0
        self.points: list[tuple[int, float]] = []

    def add(self, batch: Mapping) -> None:
        """Count one batch (outcome -> count) and record a point when n has grown enough."""
        for k, c in batch.items():
            self.counts[k] = self.counts.get(k, 0) + c
        self.n += sum(batch.values())
        if self.n and (not self.points or self.n >= self.points[-1][0] * self.growth):
            self.points.append((self.n, total_variation(self.counts, self.exact)))

    def extend(self, batches: Iterable[Mapping]) -> Trace:
        """Count batches in order; return the trace."""
        for batch in batches:
            self.add(batch)
        return self

    def series(self) -> list[tuple[int, float]]:
        """The kept points, with the latest n always last."""
        if self.n and (not self.points or self.points[-1][0] != self.n):
            return [*self.points, (self.n, total_variation(self.counts, self.exact))]
        return list(self.points)
