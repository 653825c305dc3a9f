"""Aspens' class experiment, the Sun die: trees produced on one Sun roll by the stacks the teacher picks.

An outcome is the number of trees produced on one roll (rulebook: 2. Gain Trees); the exact chances are
:func:`treegames.aspens.odds.gain_distribution`. Students may also enter real dice: Sun faces 2-7, or an
ordinary six-sided die whose face ``f`` is read as Sun ``f + 1`` (our mapping: 1 -> 2, ..., 6 -> 7); those
are kept apart from simulated rolls. The plug-in (``plugin.py``) registers :class:`SunDie`; the engine
never imports this module.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any

from .. import core
from ..experiments.errors import BadCount, BadOutcome, BadSettings, BatchTooLarge
from ..experiments.kinds import MAX_BATCH, Domain, Field, whole
from .odds import gain_distribution, gain_on_sun, roll_sun

__all__ = ["Die", "SunDie", "MAX_STACKS"]

MAX_STACKS = 12
"""The most stacks a Sun-die configuration may have (each of 0 to 12 trees)."""


class Die(StrEnum):
    """The physical dice a student may enter."""

    SUN = "sun"  # a printed Sun die: faces 2-7
    D6 = "d6"  # an ordinary die: face f read as Sun f + 1

    def sun_face(self, face: object) -> int:
        """The Sun value a face of this die stands for (BadOutcome for a face the die does not have)."""
        faces = range(2, 8) if self is Die.SUN else range(1, 7)
        if type(face) is not int or face not in faces:
            raise BadOutcome(f"a {self.label} has faces {faces.start} to {faces.stop - 1}; "
                             f"{core.quote(face)} is not one of them")
        return face if self is Die.SUN else face + 1

    @property
    def label(self) -> str:
        """Words for the die."""
        return "Sun die" if self is Die.SUN else "six-sided die"


@dataclass(frozen=True)
class SunDie(Domain):
    """Trees produced on one Sun roll by the teacher's stack configuration (rulebook: 2. Gain Trees)."""

    stacks: tuple[int, ...] = (4, 3, 2)
    kind = "sun-die"
    name = "The Sun die"
    page = "aspens/sun-die-probability.ipynb"
    unit = "rolls"
    fields = (Field("stacks", "Stacks:", (4, 3, 2), 0, 12, many=True),)
    physical_dice = (("sun", "Sun die (2-7)"), ("d6", "six-sided die (1-6)"))

    @classmethod
    def from_settings(cls, settings: Mapping) -> SunDie:
        """From {'stacks': [4, 3, 2]} (1 to 12 stacks of 0 to 12 trees)."""
        stacks = settings.get("stacks", [4, 3, 2])
        if not isinstance(stacks, list | tuple) or not 1 <= len(stacks) <= MAX_STACKS:
            raise BadSettings(f"setting 'stacks' must list 1 to {MAX_STACKS} stack heights")
        return cls(tuple(whole(h, "stacks", 0, 12) for h in stacks))

    @property
    def exact(self) -> dict[int, Fraction]:
        """The exact distribution of trees gained (treegames.aspens.odds)."""
        return gain_distribution(self.stacks)

    def settings(self) -> dict[str, Any]:
        """{'stacks': [...]}."""
        return {"stacks": list(self.stacks)}

    def title(self) -> str:
        """What is counted."""
        return f"Trees produced per Sun roll by stacks {', '.join(map(str, self.stacks))}"

    def label(self, outcome: int) -> str:
        """'2 trees'."""
        return core.plural(outcome, "tree")

    def simulate(self, rng: random.Random, n: int) -> Counter:
        """``n`` Sun rolls, each turned into trees produced."""
        return Counter(gain_on_sun(self.stacks, roll_sun(rng)) for _ in range(n))

    def from_physical(self, die: object, faces: object) -> dict[int, int]:
        """Counts of trees produced from real dice: faces validated against the die, then read as Sun values."""
        try:
            kind = Die(die)
        except ValueError:
            raise BadOutcome(f"{core.quote(die)} is not a die we know; use 'sun' or 'd6'") from None
        if not isinstance(faces, list | tuple) or not faces:
            raise BadCount("enter at least one face")
        if len(faces) > MAX_BATCH:
            raise BatchTooLarge(f"a batch may hold at most {MAX_BATCH} results, not {len(faces)}")
        counts = Counter(gain_on_sun(self.stacks, kind.sun_face(face)) for face in faces)
        return dict(sorted(counts.items()))
