"""The Aspens data: the players and the rulebook's numbers, the board (151 pointy-top hexes on seven
tiles) and the water layouts of setups 2-7.

Our interpretation (the rulebook's board diagrams are missing)
--------------------------------------------------------------
* Hexes are pointy-topped, so the six neighbours lie E, NE, NW, W, SW and SE,
  the six faces of the Wind die (rulebook, "Roll for Sun and Wind").
* The board is every hex within distance 7 of the centre (169 hexes) less the
  six corner hexes of the outer ring and each corner's two ring neighbours:
  151 hexes.
* Seven tiles (rulebook, "Components"): the centre tile is the 19 hexes within
  distance 2; the six outer tiles are 60-degree sectors of rings 3-7, one around
  each corner direction, 22 hexes each (a hex exactly between two corners
  belongs to the next corner counter-clockwise).
* A water tile covers one hex.  Setups 2-4 use three, setups 5-7 four
  (rulebook, "Variable Starting Setups"); :data:`WATER_LAYOUTS` is the single
  place they are defined.  Every layout keeps each water hex's six neighbours
  on the board and playable, no hex touches two water tiles, and each layout has
  a mirror or rotational symmetry.  Setup 2, the standard one, puts water to the
  West, East and South, as the rulebook's Example Turns speak of them.
* Hexes are named by row letter A-O (top to bottom) and diagonal column number
  1-15 (the axial ``q`` coordinate plus 8), so ``H8`` is the centre.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import Enum
from functools import cache
from typing import NamedTuple

from ..core import quote

__all__ = [
    "Hex",
    "Direction",
    "Board",
    "make_board",
    "SETUPS",
    "WATER_LAYOUTS",
    "RADIUS",
    "cell_name",
    "parse_cell",
    "distance",
    "hex_center",
    "hex_corners",
    "PLAYER_NAMES",
    "ASPEN",
    "PINE",
    "HOLD_LIMIT",
    "GROW_START_TREES",
]

RADIUS = 7
"""Distance from the centre hex to the outer ring."""

SETUPS = (2, 3, 4, 5, 6, 7)
"""The setups of "Variable Starting Setups"; 2 is the standard one."""

PLAYER_NAMES = ("Aspen", "Pine")
"""Player 0 plays the Aspen trees, player 1 the Pine trees."""
ASPEN, PINE = 0, 1

HOLD_LIMIT = 5
"""A player may end the turn holding at most this many trees ("Important reminders")."""

GROW_START_TREES = 4
"""Trees each player adds to its seeded spaces in "2. Grow Your Starting Forests"."""


class Hex(NamedTuple):
    """A hex in axial coordinates: q grows to the East, r to the South-East."""

    q: int
    r: int

    def __add__(self, other: tuple) -> Hex:  # type: ignore[override]
        """The hex reached by moving by ``other`` (a Hex or a Direction's delta)."""
        return Hex(self.q + other[0], self.r + other[1])

    def __str__(self) -> str:
        return cell_name(self)


class Direction(Enum):
    """The six hex directions, which are the six faces of the Wind die, counter-clockwise."""

    E = (1, 0)
    NE = (1, -1)
    NW = (0, -1)
    W = (-1, 0)
    SW = (-1, 1)
    SE = (0, 1)

    @property
    def delta(self) -> tuple[int, int]:
        """The (dq, dr) step to the neighbour in this direction."""
        return self.value

    def turned(self, steps: int) -> Direction:
        """The direction ``steps`` sixths of a turn counter-clockwise (negative: clockwise)."""
        order = list(Direction)
        return order[(order.index(self) + steps) % 6]

    def wind_directions(self) -> tuple[Direction, Direction, Direction]:
        """The three valid Wind directions for this roll: it and the one on either side."""
        return (self.turned(-1), self, self.turned(1))

    def __str__(self) -> str:
        return self.name


DIRECTIONS = tuple(Direction)

CENTRE = Hex(0, 0)

WATER_LAYOUTS: dict[int, tuple[Hex, ...]] = {
    2: (Hex(-4, 0), Hex(4, 0), Hex(-2, 4)),  # West, East, South: the standard setup
    3: (Hex(4, -4), Hex(-4, 0), Hex(0, 4)),  # NE, W, SE: a turning triangle
    4: (Hex(0, -4), Hex(4, 0), Hex(-4, 4)),  # NW, E, SW: the other triangle
    5: (Hex(-4, 0), Hex(4, 0), Hex(2, -4), Hex(-2, 4)),  # W, E, N, S: a diamond
    6: (Hex(0, 0), Hex(4, -4), Hex(-4, 0), Hex(0, 4)),  # the centre and a triangle
    7: (Hex(0, 0), Hex(0, -4), Hex(4, 0), Hex(-4, 4)),  # the centre and the other triangle
}
"""Water hexes for each setup: our design, since the rulebook's diagrams are missing."""

ROW_LETTERS = "ABCDEFGHIJKLMNO"


def distance(a: Hex, b: Hex = CENTRE) -> int:
    """Hex distance between two hexes (from the centre if one is given)."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def cell_name(cell: tuple[int, int]) -> str:
    """The hex's name: row letter A-O from the top and column number 1-15, e.g. 'H8' for the centre."""
    q, r = cell
    return f"{ROW_LETTERS[r + RADIUS]}{q + RADIUS + 1}"


def parse_cell(text: str) -> Hex:
    """The hex named ``text`` (like 'D5'); ValueError if no such name can exist."""
    cleaned = text.strip().upper()
    if len(cleaned) < 2 or cleaned[0] not in ROW_LETTERS or not (cleaned[1:].isascii() and cleaned[1:].isdigit()):
        raise ValueError(f"{quote(text, 24)} is not a hex name: a row letter A-O and a column number 1-15, like 'H8'")
    column = int(cleaned[1:])
    if not 1 <= column <= 2 * RADIUS + 1:
        raise ValueError(f"{quote(text, 24)}: the column number must be 1-15")
    return Hex(column - RADIUS - 1, ROW_LETTERS.index(cleaned[0]) - RADIUS)


def _ring(k: int) -> list[tuple[Hex, int]]:
    """The hexes at distance k with the index of the outer tile (corner direction) each belongs to."""
    out = []
    for side in range(6):
        corner = DIRECTIONS[side].delta
        nxt = DIRECTIONS[(side + 1) % 6].delta
        step = (nxt[0] - corner[0], nxt[1] - corner[1])
        for j in range(k):
            cell = Hex(k * corner[0] + j * step[0], k * corner[1] + j * step[1])
            tile = side if 2 * j < k else (side + 1) % 6
            out.append((cell, tile))
    return out


def _removed_corners() -> set[Hex]:
    """The outer ring's six corners and each corner's two ring neighbours."""
    removed = set()
    for d in DIRECTIONS:
        corner = Hex(RADIUS * d.delta[0], RADIUS * d.delta[1])
        removed.add(corner)
        for n in DIRECTIONS:
            other = corner + n.delta
            if distance(other) == RADIUS:
                removed.add(other)
    return removed


@dataclass(frozen=True)
class Board:
    """The hexes of one setup: which are on the board, which are water, which tile each is on."""

    setup: int
    cells: tuple[Hex, ...]
    water: frozenset[Hex]
    tiles: dict[str, frozenset[Hex]] = field(compare=False)
    cell_set: frozenset[Hex] = field(repr=False, compare=False)

    @property
    def playable(self) -> tuple[Hex, ...]:
        """The hexes a tree may stand on: every board hex that is not water, in board order."""
        return tuple(c for c in self.cells if c not in self.water)

    def __contains__(self, cell: object) -> bool:
        return cell in self.cell_set

    def neighbor(self, cell: Hex, direction: Direction) -> Hex | None:
        """The hex next to ``cell`` in ``direction``, or None off the board's edge."""
        other = Hex(cell[0] + direction.delta[0], cell[1] + direction.delta[1])
        return other if other in self.cell_set else None

    def neighbors(self, cell: Hex) -> tuple[Hex, ...]:
        """Every board hex next to ``cell`` (water included), in Direction order."""
        found = (self.neighbor(cell, d) for d in DIRECTIONS)
        return tuple(c for c in found if c is not None)

    def tile_of(self, cell: Hex) -> str:
        """The name of the board tile the hex lies on ('centre', 'E', 'NE', ...)."""
        for name, members in self.tiles.items():
            if cell in members:
                return name
        raise ValueError(f"{cell_name(cell)} is not on the board")

    def is_water(self, cell: Hex) -> bool:
        """True for a water tile (never a legal place for a tree)."""
        return cell in self.water


@cache
def make_board(setup: int = 2) -> Board:
    """The board for a setup 2-7 (see WATER_LAYOUTS); ValueError naming the allowed values otherwise."""
    if type(setup) is not int or setup not in SETUPS:
        raise ValueError(f"setup must be one of 2, 3, 4, 5, 6, 7 (2 is the standard setup), not {setup!r}")
    removed = _removed_corners()
    tiles: dict[str, set[Hex]] = {"centre": set()}
    tiles.update({d.name: set() for d in DIRECTIONS})
    for q in range(-RADIUS, RADIUS + 1):
        for r in range(-RADIUS, RADIUS + 1):
            cell = Hex(q, r)
            if distance(cell) <= 2:
                tiles["centre"].add(cell)
    for k in range(3, RADIUS + 1):
        for cell, tile in _ring(k):
            if cell not in removed:
                tiles[DIRECTIONS[tile].name].add(cell)
    all_cells = set().union(*tiles.values())
    ordered = tuple(sorted(all_cells, key=lambda c: (c.r, c.q)))
    return Board(
        setup=setup,
        cells=ordered,
        water=frozenset(WATER_LAYOUTS[setup]),
        tiles={name: frozenset(members) for name, members in tiles.items()},
        cell_set=frozenset(all_cells),
    )


# --------------------------------------------------------------------------
# Geometry for pictures (pure arithmetic: no drawing library needed)

SQRT3 = math.sqrt(3.0)


def hex_center(cell: tuple[int, int], size: float) -> tuple[float, float]:
    """Pixel centre of a pointy-top hex of circumradius ``size``, the board centre at (0, 0)."""
    q, r = cell
    return (size * SQRT3 * (q + r / 2.0), size * 1.5 * r)


def hex_corners(cell: tuple[int, int], size: float) -> list[tuple[float, float]]:
    """The six corner points of a pointy-top hex, starting at the top and going clockwise."""
    cx, cy = hex_center(cell, size)
    return [
        (cx + size * math.cos(math.radians(a)), cy + size * math.sin(math.radians(a)))
        for a in (-90, -30, 30, 90, 150, 210)
    ]
