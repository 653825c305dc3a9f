"""Mighty Trees' class experiment, the Regroup: fitting trees among the next ``k`` cards of a seeded Regroup.

The position is the first Regroup of ``k`` cards in a seeded game the teacher picks, seen as the table sees
it; the exact chances are :func:`treegames.mighty_trees.odds.hits_distribution` (hypergeometric), and the
projector's headline is "at least one" (1 - P(0)). The plug-in (``plugin.py``) registers :class:`Regroup`;
the engine never imports this module.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from .. import core
from ..experiments.errors import BadSettings
from ..experiments.kinds import Domain, Field, whole
from . import odds

__all__ = ["Regroup", "regroup_position"]


@lru_cache(maxsize=16)
def regroup_position(seed: int, players: int, draws: int):
    """The first Regroup of ``draws`` cards in the seeded game ``seed`` (or the next seeds')."""
    try:
        return odds.first_regroup(seed, players, draws)
    except odds.NoSuchPosition as err:
        raise BadSettings(str(err)) from None


@dataclass(frozen=True)
class Regroup(Domain):
    """Fitting trees among the cards of one Regroup, in a seeded Mighty Trees position (the table's view)."""

    seed: int = 1
    players: int = 3
    draws: int = 2
    kind = "regroup"
    name = "Mighty Trees Regroup"
    page = "mighty_trees/card-odds.ipynb"
    unit = "draws"
    fields = (Field("seed", "Seed:", 1, 0, 10**6), Field("players", "Players:", 3, 2, 6),
              Field("draws", "Next k cards:", 2, 1, 3))

    @classmethod
    def from_settings(cls, settings: Mapping) -> Regroup:
        """From {'seed': 1, 'players': 3, 'draws': 2}."""
        return cls(whole(settings.get("seed", 1), "seed", 0, 10**6),
                   whole(settings.get("players", 3), "players", 2, 6),
                   whole(settings.get("draws", 2), "draws", 1, 3))

    def position(self):
        """The Mighty Trees state at the Regroup."""
        return regroup_position(self.seed, self.players, self.draws)

    def wanted(self):
        """'A tree that fits the habitat now' as a test on cards."""
        return odds.fits_habitat(*self.position().conditions())

    @property
    def exact(self) -> dict[int, Fraction]:
        """{fitting trees drawn: exact chance} (hypergeometric, treegames.mighty_trees.odds)."""
        return odds.hits_distribution(odds.pool_for(self.position()), self.wanted(), self.draws)

    @property
    def at_least_one(self) -> Fraction:
        """The headline: P(at least one fitting tree in the next ``draws`` cards)."""
        return 1 - self.exact.get(0, Fraction(0))

    def headline(self, n: int, pooled: Mapping[int, int]) -> dict:
        """At least one fitting tree: its exact chance, and how many of the class's ``n`` draws had one."""
        return {"question": "at least one fitting tree", "exact": self.at_least_one,
                "observed": n - pooled.get(0, 0), "of": n}

    def settings(self) -> dict[str, Any]:
        """The position's seed, players and draws."""
        return {"seed": self.seed, "players": self.players, "draws": self.draws}

    def title(self) -> str:
        """What is counted."""
        t, w = self.position().conditions()
        return (f"Fitting trees in the next {core.plural(self.draws, 'card')} (temperature {t}, water {w}; "
                f"seeded game {self.seed}, {self.players} players)")

    def label(self, outcome: int) -> str:
        """'1 fitting tree'."""
        return core.plural(outcome, "fitting tree")

    def simulate(self, rng: random.Random, n: int) -> Counter:
        """``n`` Regroups dealt by the engine itself, each counted as fitting trees drawn."""
        state, wanted = self.position(), self.wanted()
        return Counter(sum(1 for c in odds.engine_regroup_draws(state, rng) if wanted(c)) for _ in range(n))
