"""Majority scoring for Bosk: Summer (per trail) and Winter (per region), with the tie case explained.

Both seasons use the same shape of rule, with different point values; the
values live in :data:`SUMMER_POINTS` and :data:`WINTER_POINTS`.  One function,
:func:`classify`, decides who is first and second and which case of the rule
applies; :func:`majority_points` (what the engine scores with) and
:func:`majority` (the explained result the tables and the lesson show) are both
built on it, so a table can never disagree with the score.

A player whose total on a trail (or count in a region) is 0 is not there and
never places: the rulebook ranks players by what they have on the trail or in
the region, and a player with nothing there has no tree to admire or square to
count (our reading; it is the same in both seasons).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

__all__ = [
    "MajorityPoints",
    "SUMMER_POINTS",
    "WINTER_POINTS",
    "TieCase",
    "Majority",
    "classify",
    "majority",
    "majority_points",
    "summer_points",
    "winter_points",
    "summer_majority",
    "winter_majority",
    "case_points",
    "every_case",
    "exact_case_odds",
    "case_counts",
]


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


class TieCase(StrEnum):
    """The case of the majority rule that applies to one trail or region."""

    NOBODY = "nobody there"
    """No player has anything there: no points."""
    CLEAR = "first and second"
    """A single leader and a single runner-up (Summer Scoring 1, Winter 2)."""
    TIED_SECOND = "tie for second"
    """A single leader; two or more tie behind them (Summer Scoring 2, Winter 3)."""
    ALONE = "alone"
    """A single player there, nobody behind (Summer Scoring 3, Winter 4)."""
    TIED_FIRST = "tie for first"
    """Two or more tie at the top; no second place (Summer Scoring 4, Winter 5)."""


CASE_ORDER: tuple[TieCase, ...] = (TieCase.CLEAR, TieCase.TIED_SECOND, TieCase.ALONE, TieCase.TIED_FIRST,
                                   TieCase.NOBODY)
"""The cases in rulebook order (the order of the Summer Scoring clauses), nobody-there last."""

_SUMMER_CLAUSE = {TieCase.CLEAR: "Summer Scoring 1", TieCase.TIED_SECOND: "Summer Scoring 2",
                  TieCase.ALONE: "Summer Scoring 3", TieCase.TIED_FIRST: "Summer Scoring 4",
                  TieCase.NOBODY: "Summer Scoring"}
_WINTER_CLAUSE = {TieCase.CLEAR: "IV. Winter 2", TieCase.TIED_SECOND: "IV. Winter 3",
                  TieCase.ALONE: "IV. Winter 4", TieCase.TIED_FIRST: "IV. Winter 5",
                  TieCase.NOBODY: "IV. Winter"}


def clause(case: TieCase, table: MajorityPoints) -> str:
    """The rulebook clause that covers ``case`` in the season whose points are ``table``."""
    return (_WINTER_CLAUSE if table == WINTER_POINTS else _SUMMER_CLAUSE)[case]


def classify(values: Sequence[int]) -> tuple[TieCase, tuple[int, ...], tuple[int, ...]]:
    """(case, players in first place, players in second place) from each player's total (0 = absent)."""
    present = [v for v in values if v > 0]
    if not present:
        return TieCase.NOBODY, (), ()
    best = max(present)
    firsts = tuple(p for p, v in enumerate(values) if v == best)
    if len(firsts) > 1:
        return TieCase.TIED_FIRST, firsts, ()
    rest = [v for v in present if v < best]
    if not rest:
        return TieCase.ALONE, firsts, ()
    runner = max(rest)
    seconds = tuple(p for p, v in enumerate(values) if v == runner)
    return (TieCase.CLEAR if len(seconds) == 1 else TieCase.TIED_SECOND), firsts, seconds


def case_points(case: TieCase, table: MajorityPoints) -> tuple[int, int]:
    """(points for each first-place player, points for each second-place player) in ``case``."""
    if case is TieCase.CLEAR:
        return table.first, table.second
    if case is TieCase.TIED_SECOND:
        return table.first, table.tied_second
    if case is TieCase.ALONE:
        return table.alone, 0
    if case is TieCase.TIED_FIRST:
        return table.tied_first, 0
    return 0, 0


def majority_points(values: Sequence[int], table: MajorityPoints) -> tuple[int, ...]:
    """Points per player for one trail or region, given each player's total there (0 = absent)."""
    return _majority_points(tuple(values), table)


@lru_cache(maxsize=8192)
def _majority_points(values: tuple[int, ...], table: MajorityPoints) -> tuple[int, ...]:
    """majority_points, remembered (a game scores a few dozen trails and regions, mostly alike)."""
    case, firsts, seconds = classify(values)
    points = [0] * len(values)
    first, second = case_points(case, table)
    for p in firsts:
        points[p] = first
    for p in seconds:
        points[p] = second
    return tuple(points)


def summer_points(totals: Sequence[int]) -> tuple[int, ...]:
    """Summer Scoring: points per player on one trail from each player's total tree value (0 = absent)."""
    return majority_points(totals, SUMMER_POINTS)


def winter_points(counts: Sequence[int]) -> tuple[int, ...]:
    """Winter: points per player in one region from each player's count of controlled squares (0 = none)."""
    return majority_points(counts, WINTER_POINTS)


@dataclass(frozen=True)
class Majority:
    """One trail or region scored: totals, places, points and the case of the rule, ready to explain."""

    values: tuple[int, ...]
    """Each player's total there (tree values in summer, controlled squares in winter)."""
    table: MajorityPoints
    case: TieCase
    firsts: tuple[int, ...]
    seconds: tuple[int, ...]
    points: tuple[int, ...]

    @property
    def places(self) -> tuple[int | None, ...]:
        """Each player's place: 1, 2, or None (absent, or behind second place)."""
        return tuple(1 if p in self.firsts else 2 if p in self.seconds else None
                     for p in range(len(self.values)))

    @property
    def clause(self) -> str:
        """The rulebook clause that decided the points."""
        return clause(self.case, self.table)

    def place_label(self, player: int) -> str:
        """'1st', '1st (tied)', '2nd', '2nd (tied)', '-' (behind) or '' (absent) for a table cell."""
        if self.values[player] <= 0:
            return ""
        if player in self.firsts:
            return "1st (tied)" if len(self.firsts) > 1 else "1st"
        if player in self.seconds:
            return "2nd (tied)" if len(self.seconds) > 1 else "2nd"
        return "-"

    def explain(self, names: Sequence[str], unit: str = "") -> str:
        """One sentence: who placed where and why they earn what, citing the rulebook clause."""
        t = self.table

        def who(players: Iterable[int]) -> str:
            items = [f"{names[p]} ({self.values[p]}{unit})" for p in players]
            return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]

        if self.case is TieCase.NOBODY:
            return f"{self.clause}: nobody is there, so nobody scores."
        if self.case is TieCase.ALONE:
            return (f"{self.clause}: {who(self.firsts)} is first and nobody is second, so they take both "
                    f"places' points: {t.alone}.")
        if self.case is TieCase.TIED_FIRST:
            return (f"{self.clause}: {who(self.firsts)} tie for first: {t.tied_first} each, and no second "
                    f"place is awarded.")
        if self.case is TieCase.CLEAR:
            return (f"{self.clause}: {who(self.firsts)} is first ({t.first}) and {who(self.seconds)} is "
                    f"second ({t.second}).")
        return (f"{self.clause}: {who(self.firsts)} is first ({t.first}); {who(self.seconds)} tie for second "
                f"and earn {t.tied_second} each.")


def majority(values: Sequence[int], table: MajorityPoints) -> Majority:
    """The explained result for one trail or region; its points equal :func:`majority_points`."""
    values = tuple(int(v) for v in values)
    case, firsts, seconds = classify(values)
    return Majority(values, table, case, firsts, seconds, majority_points(values, table))


def summer_majority(totals: Sequence[int]) -> Majority:
    """One trail scored in summer, explained."""
    return majority(totals, SUMMER_POINTS)


def winter_majority(counts: Sequence[int]) -> Majority:
    """One region scored in winter, explained."""
    return majority(counts, WINTER_POINTS)


def every_case(players: int) -> list[tuple[TieCase, tuple[int, ...]]]:
    """One small example of each case that can happen with ``players`` players, in rulebook order."""
    examples = {
        TieCase.CLEAR: (5, 3) + (1,) * (players - 2),
        TieCase.TIED_SECOND: (5, 3, 3) + (0,) * (players - 3),
        TieCase.ALONE: (4,) + (0,) * (players - 1),
        TieCase.TIED_FIRST: (4, 4) + (2,) * (players - 2),
        TieCase.NOBODY: (0,) * players,
    }
    return [(case, examples[case]) for case in CASE_ORDER if players >= 3 or case is not TieCase.TIED_SECOND]


def exact_case_odds(players: int, values: Sequence[int]) -> dict[TieCase, Fraction]:
    """Exact chance of each case when every player's total is drawn independently and uniformly from ``values``."""
    counts: Counter[TieCase] = Counter()
    total = 0
    for combo in itertools.product(values, repeat=players):
        counts[classify(combo)[0]] += 1
        total += 1
    return {case: Fraction(counts[case], total) for case in CASE_ORDER}


def case_counts(rows: Iterable[Sequence[int]]) -> Counter[TieCase]:
    """How often each case occurs among many trails' or regions' totals."""
    return Counter(classify(values)[0] for values in rows)
