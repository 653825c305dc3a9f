"""Exact tree-production odds for Aspens, for the lessons ("2. Gain Trees" and its chart).

One Sun die is rolled for the whole table, so every space reads the same value:
a space with ``h`` trees produces when the Sun shows ``h`` or less.  The number of
trees gained on one roll is the number of spaces whose height is at least the Sun value.

The spaces are *positively correlated*, not perfectly: the events are nested (when a
shorter stack produces, every taller one does too), so two stacks of different
heights have a correlation below 1 -- about 0.71 for stacks of 4 and 3
(:func:`production_correlation`).  Two stacks of the same height produce on exactly
the same faces; with 2 to 6 trees each their correlation is 1.  With 0-1 trees (never
produces) or 7+ trees (always produces) a space does not vary at all, so its
correlation with anything is undefined (``None``), not 0.

The Wind die (3B Grow Out): an empty space can take a tree grown out from one of your
spaces when the direction *from that space to it* is one of the three valid ones.  A
space touched by several of your spaces is reached from several directions, so its
chance is more than 1/2: :func:`reach_chance` (one space of a real position) and
:func:`reach_table` (every pattern of touching directions).

Also here: moments of any distribution, the "a die for each space" counterfactual
the lesson compares against (not a rule of the game), and Sun rolls sampled with an
injected ``random.Random``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping
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
    "distribution_mean",
    "distribution_variance",
    "independent_gain_distribution",
    "production_covariance",
    "production_correlation",
    "wind_valid_probability",
    "touching_directions",
    "reach_chance",
    "ReachRow",
    "reach_table",
    "reach_census",
    "roll_sun",
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


def distribution_mean(dist: Mapping[int, Fraction]) -> Fraction:
    """The exact mean of a distribution given as value -> probability."""
    return sum((Fraction(k) * p for k, p in dist.items()), Fraction(0))


def distribution_variance(dist: Mapping[int, Fraction]) -> Fraction:
    """The exact variance of a distribution given as value -> probability."""
    mean = distribution_mean(dist)
    return sum(((k - mean) ** 2 * p for k, p in dist.items()), Fraction(0))


def independent_gain_distribution(stacks: Iterable[int]) -> dict[int, Fraction]:
    """NOT the game: trees gained if every space rolled its own Sun die (a teaching counterfactual).

    Each space produces with its real chance (:func:`production_probability`), but
    independently of the others, so the count is a sum of independent yes/no trials.
    """
    dist: dict[int, Fraction] = {0: Fraction(1)}
    for height in stacks:
        p = production_probability(height)
        step: dict[int, Fraction] = {}
        for k, q in dist.items():
            for gained, chance in ((k, q * (1 - p)), (k + 1, q * p)):
                if chance:
                    step[gained] = step.get(gained, Fraction(0)) + chance
        dist = step
    return dict(sorted(dist.items()))


def production_covariance(a: int, b: int) -> Fraction:
    """The exact covariance of "a space of ``a`` trees produces" and "one of ``b`` trees produces" (one Sun roll).

    Both read the same die, so both produce exactly when the Sun is at most the shorter stack.
    """
    both = production_probability(min(a, b))
    return both - production_probability(a) * production_probability(b)


def production_correlation(a: int, b: int) -> float | None:
    """The correlation of two spaces' production on one Sun roll; None (undefined) when either never varies.

    A space of 0-1 trees never produces and one of 7+ always does: its variance is 0,
    so a correlation with it is 0/0, undefined.
    """
    pa, pb = production_probability(a), production_probability(b)
    spread = pa * (1 - pa) * pb * (1 - pb)
    if spread == 0:
        return None
    return float(production_covariance(a, b)) / math.sqrt(spread)


def wind_valid_probability(directions: Iterable[Direction]) -> Fraction:
    """The chance that at least one of these directions is valid after one roll of the Wind die."""
    wanted = set(directions)
    hits = sum(1 for face in WIND_FACES if wanted & set(face.wind_directions()))
    return Fraction(hits, len(WIND_FACES))


def touching_directions(board, owned: Iterable, space) -> frozenset[Direction]:
    """The directions from each of the ``owned`` spaces that touch ``space`` into it (3B Grow Out)."""
    mine = set(owned)
    return frozenset(d for d in WIND_FACES if board.neighbor(space, d.turned(3)) in mine)


def reach_chance(state, player: int, space) -> Fraction:
    """The chance that ``player`` can grow out onto the empty ``space`` from a space they own now, this Wind roll.

    It is reachable when the direction from at least one of the player's touching
    spaces into it is valid (3B Grow Out).  Trees planted earlier in the same turn can
    open further paths (a chain); this counts only the spaces owned before planting.
    """
    if state.owner(space) is not None or space not in state.board or state.board.is_water(space):
        raise ValueError(f"3B Grow Out plants on an empty space; {space} is not one")
    return wind_valid_probability(touching_directions(state.board, state.spaces(player), space))


class ReachRow(NamedTuple):
    """One pattern of touching directions (up to turning and mirroring) and its exact reach chance."""

    touching: int
    example: tuple[Direction, ...]
    chance: Fraction
    patterns: int  # how many of the 63 direction sets have this shape


def _shape(directions: frozenset[Direction]) -> tuple[int, ...]:
    """A canonical form of a set of directions under the hex's turns and mirror images."""
    order = list(Direction)
    forms = []
    for mirror in (False, True):
        idx = [(-order.index(d)) % 6 if mirror else order.index(d) for d in directions]
        for turn in range(6):
            forms.append(tuple(sorted((i + turn) % 6 for i in idx)))
    return min(forms)


def reach_table() -> list[ReachRow]:
    """Every shape of 1-6 touching directions with its chance, fewest touching spaces first."""
    groups: dict[tuple[int, ...], list[frozenset[Direction]]] = {}
    for mask in range(1, 64):
        chosen = frozenset(d for i, d in enumerate(WIND_FACES) if mask >> i & 1)
        groups.setdefault(_shape(chosen), []).append(chosen)
    rows = []
    for shape, members in groups.items():
        example = tuple(WIND_FACES[i] for i in shape)
        rows.append(ReachRow(len(shape), example, wind_valid_probability(example), len(members)))
    return sorted(rows, key=lambda r: (r.touching, r.chance, r.example[-1].value))


def reach_census(states: Iterable, player_of=lambda state: state.current_player) -> dict[Fraction, int]:
    """Over many positions: how many (position, empty space touching the player) pairs have each reach chance."""
    counts: dict[Fraction, int] = {}
    for state in states:
        player = player_of(state)
        mine = state.spaces(player)
        empty = state.empty_cells()
        frontier = {n for cell in mine for n in state.board.neighbors(cell) if n in empty}
        for space in frontier:
            chance = wind_valid_probability(touching_directions(state.board, mine, space))
            counts[chance] = counts.get(chance, 0) + 1
    return dict(sorted(counts.items()))


def roll_sun(rng: random.Random) -> int:
    """One roll of the Sun die with the injected random generator."""
    return rng.choice(SUN_FACES)
