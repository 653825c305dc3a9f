"""Bosk rules data: components, wind board, interpretation options and player names.

Every number the rules use lives here, so a newcomer can find each rule by its
rulebook name.  The interpretation options are described in the package
docstring (:mod:`treegames.bosk`, section "Our interpretation").
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "PLAYER_NAMES",
    "TREE_VALUES",
    "SQUIRREL",
    "LEAF_TILES",
    "LEAVES_PER_PLAYER",
    "ROUNDS",
    "WIND_SPOT_TREE_VALUE",
    "WIND_PATTERNS",
    "OPTION_DEFAULTS",
    "OPTION_CHOICES",
    "tile_name",
]

PLAYER_NAMES: tuple[str, ...] = ("Maple", "Oak", "Birch", "Ginkgo")
"""A species per seat (Setup 1: each player chooses a species of tree)."""

TREE_VALUES: tuple[int, ...] = (1, 1, 2, 2, 3, 3, 4, 4)
"""Setup 1.3: each player's 8 trees, two of each value 1-4."""

SQUIRREL = 0
"""The squirrel leaf tile's identity in actions (its turn-order value is an option)."""

LEAF_TILES: tuple[int, ...] = (2, 3, 4, 5, 6, 7, 8, SQUIRREL)
"""Setup 1.1: each player's 8 leaf tiles, 2 through 8 and the squirrel."""

LEAVES_PER_PLAYER = 36
"""Setup 1.2: each player's leaf tokens."""

ROUNDS = 8
"""Autumn: one round per wind board spot."""

WIND_SPOT_TREE_VALUE: tuple[int, ...] = (1, 2, 3, 4, 0, 0, 0, 0)
"""Falling Leaves 1a: the tree value each wind spot requires (0 = any remaining tree, the '*' spots)."""

WIND_PATTERNS: dict[str, tuple[int, ...]] = {
    # Our interpretation: the arrow on each wind board spot, as clockwise quarter
    # turns from the first wind direction.
    "clockwise": (0, 1, 2, 3, 0, 1, 2, 3),
    "crosswise": (0, 2, 1, 3, 0, 2, 1, 3),
}
"""The wind board arrows: spot k blows (first direction turned clockwise by pattern[k-1] quarter turns)."""

OPTION_DEFAULTS: dict[str, Any] = {
    "wind_pattern": "clockwise",
    "squirrel_tile_value": 1,
    "squirrel_may_pass_squirrels": True,
}
"""Every named interpretation option with its default."""

OPTION_CHOICES: dict[str, tuple] = {
    "wind_pattern": tuple(WIND_PATTERNS),
    "squirrel_tile_value": (1, 9),
    "squirrel_may_pass_squirrels": (True, False),
}
"""The allowed values of each option (for core.check_options)."""


def tile_name(tile: int) -> str:
    """Notation for a leaf tile: '6' or 'squirrel'."""
    return "squirrel" if tile == SQUIRREL else str(tile)
