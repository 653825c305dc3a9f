"""Exact tree-production odds for Aspens, for the lessons ("2. Gain Trees" and its chart).

One Sun die is rolled for the whole table, so every space reads the same value:
a space with ``h`` trees produces when the Sun shows ``h`` or less.  The spaces are
therefore perfectly correlated, and the number of trees gained on one roll is the
number of spaces whose height is at least the Sun value.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import NamedTuple

from .data import Direction

__all__ = [
    "SUN_FACES",
    "WIND_FACES",
    "FACE_PROBABILITY",
    "RULEBOOK_PERCENT",
    "ChartRow",
    "production_probability",
    "producing_suns",
    "gain_on_sun",
    "gain_distribution",
    "expected_gain",
    "variance_gain",
    "rulebook_chart",
]

SUN_FACES: tuple[int, ...] = (2, 3, 4, 5, 6, 7)
"""The six faces of the Sun die ("1. Roll for Sun and Wind")."""

WIND_FACES: tuple[Direction, ...] = tuple(Direction)
"""The six faces of the Wind die: the six hex directions."""

FACE_PROBABILITY = Fraction(1, 6)
"""The chance of each face of either die."""

RULEBOOK_PERCENT: dict[int, int] = {2: 16, 3: 33, 4: 50, 5: 66, 6: 83, 7: 100}
"""The percentages printed in the rulebook's "Chances for tree production" chart."""


class ChartRow(NamedTuple):
    """One row of the production chart: printed percent beside the exact chance."""

    trees: int
    printed_percent: int
    exact: Fraction
    producing_suns: tuple[int, ...]


def producing_suns(trees: int) -> tuple[int, ...]:
    """The Sun values on which a space with ``trees`` trees produces one tree."""
    return tuple(s for s in SUN_FACES if trees >= s)


def production_probability(trees: int) -> Fraction:
    """The chance that a space with ``trees`` trees produces on one Sun roll (0 for 0-1, 1 for 7+)."""
    if type(trees) is not int:
        raise ValueError(f"a stack height is a whole number of trees, not {trees!r}")
    if trees < 0:
        raise ValueError(f"a space cannot hold {trees} trees")
    return FACE_PROBABILITY * len(producing_suns(trees))


def gain_on_sun(stacks: Iterable[int], sun: int) -> int:
    """Trees gained from spaces with these heights when the Sun shows ``sun`` (no turn bonus)."""
    return sum(1 for h in stacks if h >= sun)


def gain_distribution(stacks: Iterable[int]) -> dict[int, Fraction]:
    """The exact distribution of trees gained from these stack heights on one Sun roll."""
    heights = list(stacks)
    if any(h < 0 for h in heights):
        raise ValueError("stack heights cannot be negative")
    out: dict[int, Fraction] = {}
    for sun in SUN_FACES:
        gained = gain_on_sun(heights, sun)
        out[gained] = out.get(gained, Fraction(0)) + FACE_PROBABILITY
    return dict(sorted(out.items()))


def expected_gain(stacks: Iterable[int]) -> Fraction:
    """The exact expected number of trees these stacks produce on one Sun roll."""
    return sum((k * p for k, p in gain_distribution(stacks).items()), Fraction(0))


def variance_gain(stacks: Iterable[int]) -> Fraction:
    """The exact variance of the trees these stacks produce on one Sun roll."""
    dist = gain_distribution(stacks)
    mean = sum((k * p for k, p in dist.items()), Fraction(0))
    return sum(((k - mean) ** 2 * p for k, p in dist.items()), Fraction(0))


def rulebook_chart() -> list[ChartRow]:
    """The rulebook's chart (2-7 trees): printed percent, exact chance and producing Sun values."""
    return [
        ChartRow(trees, RULEBOOK_PERCENT[trees], production_probability(trees), producing_suns(trees))
        for trees in SUN_FACES
    ]
