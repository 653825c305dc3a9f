"""Majority scoring for Bosk: Summer (per trail) and Winter (per region).

Both seasons use the same shape of rule, with different point values; the
values live in :data:`SUMMER_POINTS` and :data:`WINTER_POINTS`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

__all__ = ["MajorityPoints", "SUMMER_POINTS", "WINTER_POINTS", "majority_points", "summer_points",
           "winter_points"]


class MajorityPoints(NamedTuple):
    """The points of one majority scoring table (Summer Scoring / Winter steps 2-5)."""

    first: int
    """A single player in first place."""
    second: int
    """A single player in second place."""
    tied_second: int
    """Each of two or more players tied for second place."""
    alone: int
    """A single first-place player with nobody in second (first plus second)."""
    tied_first: int
    """Each of two or more players tied for first (and no second place is awarded)."""


SUMMER_POINTS = MajorityPoints(first=2, second=1, tied_second=0, alone=3, tied_first=1)
"""II. Summer, Summer Scoring 1-4."""

WINTER_POINTS = MajorityPoints(first=5, second=3, tied_second=1, alone=8, tied_first=4)
"""IV. Winter, steps 2-5."""


def majority_points(values: Sequence[int], table: MajorityPoints) -> tuple[int, ...]:
    """Points per player for one trail or region, given each player's total there (0 = absent)."""
    points = [0] * len(values)
    present = [v for v in values if v > 0]
    if not present:
        return tuple(points)
    best = max(present)
    firsts = [p for p, v in enumerate(values) if v == best]
    if len(firsts) > 1:
        for p in firsts:
            points[p] = table.tied_first
        return tuple(points)
    rest = [v for v in present if v < best]
    if not rest:
        points[firsts[0]] = table.alone
        return tuple(points)
    points[firsts[0]] = table.first
    runner = max(rest)
    seconds = [p for p, v in enumerate(values) if v == runner]
    for p in seconds:
        points[p] = table.second if len(seconds) == 1 else table.tied_second
    return tuple(points)


def summer_points(totals: Sequence[int]) -> tuple[int, ...]:
    """Summer Scoring: points per player on one trail from each player's total tree value (0 = absent)."""
    return majority_points(totals, SUMMER_POINTS)


def winter_points(counts: Sequence[int]) -> tuple[int, ...]:
    """Winter: points per player in one region from each player's count of controlled squares (0 = none)."""
    return majority_points(counts, WINTER_POINTS)
