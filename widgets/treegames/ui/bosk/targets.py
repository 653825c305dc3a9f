"""What the engine allows now, grouped by the place a view would highlight or a click would name.

Nothing here decides a rule: every target is read from ``state.legal_actions()``
and each covering cost from the engine's ``state.covering_cost(row, col)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ... import bosk
from ...bosk import Kind, Phase


def last_event_of(state) -> str:
    """The engine's sentence on the last action."""
    return state.last_event


@dataclass(frozen=True)
class Targets:
    """The places the player to move may use now, read from the engine's legal actions."""

    phase: Phase
    intersections: tuple[tuple[int, int], ...] = ()
    """Spring: empty interior intersections where a tree may grow."""
    tree_values: tuple[int, ...] = ()
    """Spring: the values of the trees still in hand."""
    trees: tuple[tuple[int, int], ...] = ()
    """Falling leaves: the mover's trees the wind board allows."""
    tiles: tuple[int, ...] = ()
    """Falling leaves: the mover's unused leaf tiles (0 = squirrel)."""
    squares: dict = field(default_factory=dict)
    """Leaf placement / squirrel: {(row, col): covering cost} of the squares the next leaf or squirrel may take."""
    sides: tuple[int, ...] = ()
    """Initial wind: the park sides (Direction index) the wind board may go on."""

    @property
    def is_squirrel(self) -> bool:
        """True if the squares are where the squirrel may go (not a leaf)."""
        return self.phase is Phase.SQUIRREL



def targets(state) -> Targets:
    """Every place the player to move may use now (empty for chance, scoring steps and the end)."""
    phase = state.phase
    if state.current_player < 0:
        return Targets(phase)
    actions = state.legal_actions()
    if phase is Phase.SPRING:
        spots = sorted({(a.row, a.col) for a in actions})
        values = sorted({a.value for a in actions})
        return Targets(phase, intersections=tuple(spots), tree_values=tuple(values))
    if phase is Phase.FALLING_LEAVES:
        trees = sorted({(a.row, a.col) for a in actions})
        tiles = tuple(t for t in bosk.LEAF_TILES if any(a.value == t for a in actions))
        return Targets(phase, trees=tuple(trees), tiles=tiles)
    if phase is Phase.LEAF_PLACEMENT:
        return Targets(phase, squares={(a.row, a.col): state.covering_cost(a.row, a.col) for a in actions})
    if phase is Phase.SQUIRREL:
        return Targets(phase, squares={(a.row, a.col): 0 for a in actions})
    if phase is Phase.WIND:
        return Targets(phase, sides=tuple(a.value for a in actions))
    return Targets(phase)


def spring_action(state, row: int, col: int, value: int):
    """The engine's action for growing a value-``value`` tree at intersection (row, col)."""
    return bosk.Action(Kind.TREE, row, col, value)


def choose_action(state, row: int, col: int, tile: int):
    """The engine's action for selecting the tree at (row, col) and a leaf tile."""
    return bosk.Action(Kind.CHOOSE, row, col, tile)


def square_action(state, row: int, col: int):
    """The engine's action for the next leaf or the squirrel on square (row, col), by phase."""
    kind = Kind.SQUIRREL if state.phase is Phase.SQUIRREL else Kind.LEAF
    return bosk.Action(kind, row, col)


def wind_action(side: int):
    """The engine's action for placing the wind board on a side (Direction index)."""
    return bosk.Action(Kind.WIND, value=side)
