"""The Bosk data: the rulebook's components and numbers, and the park board (terrain squares,
trail intersections, regions and wind geometry), loaded from ``boards/*.txt``.

Every number the rules use lives here, so a newcomer can find each rule by its
rulebook name.

Coordinates (our naming, used in all notation)
----------------------------------------------
* A park of ``size`` x ``size`` terrain squares.  Square columns are capital
  letters from the west edge (``A`` ...), square rows are numbers from the
  north edge (``1`` ...): ``C4`` is the square in column C, row 4.
* Trail intersections are the corners of the squares and are written in
  lower case: intersection ``c4`` is the north-west corner of square ``C4``.
  There are ``size + 1`` column trails (``a`` ...) and ``size + 1`` row trails
  (``1`` ...); ``a`` and the last letter, ``1`` and ``size + 1`` are the edges.
* Internally a square is ``row * size + col`` and an intersection is
  ``row * (size + 1) + col`` (both 0-based).

Wind geometry (Autumn, Leaf Placement)
--------------------------------------
The wind blows toward one of the four :class:`Direction` values.  The first
leaf of a tree goes on one of the two squares touching the tree on the
downwind side; each next leaf goes on one of the three squares ahead of the
previous one (straight or diagonal).  A path reaches the edge when the square
straight ahead is off the board.
"""

from __future__ import annotations

from enum import StrEnum
from importlib import resources

__all__ = [
    "Direction",
    "DIRECTIONS",
    "Park",
    "load_park",
    "park_for_players",
    "square_name",
    "intersection_name",
    "parse_coordinates",
    "PLAYER_NAMES",
    "TREE_VALUES",
    "SQUIRREL",
    "LEAF_TILES",
    "LEAVES_PER_PLAYER",
    "ROUNDS",
    "WIND_SPOT_TREE_VALUE",
    "WIND_PATTERNS",
    "tile_name",
]

# --------------------------------------------------------------------------
# Components and numbers (Setup, Autumn)

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


def tile_name(tile: int) -> str:
    """Notation for a leaf tile: '6' or 'squirrel'."""
    return "squirrel" if tile == SQUIRREL else str(tile)


# --------------------------------------------------------------------------
# The park board

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


class Direction(StrEnum):
    """A compass direction the wind blows toward (north is row 1)."""

    NORTH = "north"
    EAST = "east"
    SOUTH = "south"
    WEST = "west"

    @property
    def step(self) -> tuple[int, int]:
        """The (row, column) change of one square in this direction."""
        return _STEPS[self.value]

    @property
    def index(self) -> int:
        """Position in clockwise order: north 0, east 1, south 2, west 3."""
        return _ORDER.index(self.value)

    def turned(self, quarter_turns: int) -> Direction:
        """This direction turned clockwise by a number of quarter turns."""
        return DIRECTIONS[(self.index + quarter_turns) % 4]

    def opposite(self) -> Direction:
        """The direction pointing the other way."""
        return self.turned(2)


_ORDER = ("north", "east", "south", "west")
_STEPS = {"north": (-1, 0), "east": (0, 1), "south": (1, 0), "west": (0, -1)}
DIRECTIONS: tuple[Direction, ...] = tuple(Direction(name) for name in _ORDER)


def square_name(row: int, col: int) -> str:
    """Notation for the square at 0-based (row, col): 'C4'."""
    return f"{LETTERS[col]}{row + 1}"


def intersection_name(row: int, col: int) -> str:
    """Notation for the intersection at 0-based (row, col): 'c4' (north-west corner of square C4)."""
    return f"{LETTERS[col].lower()}{row + 1}"


def parse_coordinates(text: str) -> tuple[int, int]:
    """The 0-based (row, col) of a name such as 'C4' or 'c4' (either case); ValueError if malformed."""
    text = text.strip()
    if len(text) < 2 or not (text.isascii() and text[0].isalpha() and text[1:].isdigit()):
        raise ValueError(f"{text!r} is not a board coordinate (a column letter then a row number, e.g. C4)")
    return int(text[1:]) - 1, LETTERS.index(text[0].upper())


class Park:
    """One side of the park board as data: terrain per square, regions, and precomputed geometry."""

    def __init__(self, side: str, region_letters: str, region_names: tuple[str, ...], rows: list[str],
                 inset: int = 0):
        """Build a park from map rows (one letter per square), keeping only the squares inside the inset."""
        if inset:
            rows = [row[inset:-inset] for row in rows[inset:-inset]]
        self.side = side
        self.inset = inset
        self.size = size = len(rows)
        if size < 3 or any(len(row) != size for row in rows):
            raise ValueError(f"park map for {side} must be square, got rows {rows!r}")
        self.region_letters = region_letters
        self.region_names = region_names
        self.terrain: tuple[int, ...] = tuple(region_letters.index(ch) for row in rows for ch in row)
        self.num_squares = size * size
        self.num_intersections = (size + 1) ** 2
        self.interior: tuple[int, ...] = tuple(
            r * (size + 1) + c for r in range(1, size) for c in range(1, size)
        )
        self.interior_set = frozenset(self.interior)
        self.region_squares: tuple[tuple[int, ...], ...] = tuple(
            tuple(s for s, t in enumerate(self.terrain) if t == region) for region in range(len(region_names))
        )
        self.first_squares = tuple(
            tuple(self._first_squares(i, d) for i in range(self.num_intersections)) for d in DIRECTIONS
        )
        self.ahead_squares = tuple(
            tuple(self._ahead_squares(s, d) for s in range(self.num_squares)) for d in DIRECTIONS
        )
        self._trails = self._list_trails()  # summer scores them once a game: listed once

    def __repr__(self) -> str:
        return f"Park({self.side!r}, size={self.size}, inset={self.inset})"

    # ---- coordinates

    def square(self, row: int, col: int) -> int:
        """Index of the square at 0-based (row, col)."""
        return row * self.size + col

    def square_rc(self, square: int) -> tuple[int, int]:
        """0-based (row, col) of a square index."""
        return divmod(square, self.size)

    def intersection(self, row: int, col: int) -> int:
        """Index of the intersection at 0-based (row, col)."""
        return row * (self.size + 1) + col

    def intersection_rc(self, intersection: int) -> tuple[int, int]:
        """0-based (row, col) of an intersection index."""
        return divmod(intersection, self.size + 1)

    def square_label(self, square: int) -> str:
        """Notation for a square index ('C4')."""
        return square_name(*self.square_rc(square))

    def intersection_label(self, intersection: int) -> str:
        """Notation for an intersection index ('c4')."""
        return intersection_name(*self.intersection_rc(intersection))

    def is_on_board_square(self, row: int, col: int) -> bool:
        """Whether (row, col) is a terrain square of this park."""
        return 0 <= row < self.size and 0 <= col < self.size

    def is_on_board_intersection(self, row: int, col: int) -> bool:
        """Whether (row, col) is a trail intersection of this park (edges included)."""
        return 0 <= row <= self.size and 0 <= col <= self.size

    def is_interior(self, row: int, col: int) -> bool:
        """Whether a tree may stand at intersection (row, col): not on an edge or corner (Spring, note)."""
        return 1 <= row < self.size and 1 <= col < self.size

    def interior_intersections(self) -> list[tuple[int, int]]:
        """(row, col) of every intersection where a tree may grow."""
        return [self.intersection_rc(i) for i in self.interior]

    def region_of(self, row: int, col: int) -> str:
        """The region name of the square at (row, col)."""
        return self.region_names[self.terrain[self.square(row, col)]]

    # ---- trails (Summer)

    def trails(self) -> list[tuple[str, tuple[int, ...]]]:
        """Every trail that can hold trees, rows first then columns: (name, interior intersections)."""
        return list(self._trails)

    def _list_trails(self) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """The trails as :meth:`trails` lists them, computed."""
        n = self.size
        rows = [(f"row {r + 1}", tuple(self.intersection(r, c) for c in range(1, n))) for r in range(1, n)]
        cols = [
            (f"column {LETTERS[c].lower()}", tuple(self.intersection(r, c) for r in range(1, n)))
            for c in range(1, n)
        ]
        return tuple(rows + cols)

    # ---- wind geometry (Autumn)

    def _first_squares(self, intersection: int, direction: Direction) -> tuple[int, ...]:
        """The two squares touching an intersection on its downwind side (Leaf Placement 1)."""
        r, c = self.intersection_rc(intersection)
        dr, dc = direction.step
        if dr:
            row = r if dr > 0 else r - 1
            cells = [(row, c - 1), (row, c)]
        else:
            col = c if dc > 0 else c - 1
            cells = [(r - 1, col), (r, col)]
        return tuple(self.square(*rc) for rc in cells if self.is_on_board_square(*rc))

    def _ahead_squares(self, square: int, direction: Direction) -> tuple[int, ...]:
        """The up-to-three squares ahead of a square, straight or diagonal (Leaf Placement 2); () at the edge."""
        r, c = self.square_rc(square)
        dr, dc = direction.step
        if not self.is_on_board_square(r + dr, c + dc):
            return ()
        cells = [(r + dr + k * abs(dc), c + dc + k * abs(dr)) for k in (-1, 0, 1)]
        return tuple(sorted(self.square(*rc) for rc in cells if self.is_on_board_square(*rc)))

    def to_text(self) -> str:
        """The terrain as an ASCII map, one letter per square."""
        n = self.size
        return "\n".join(
            "".join(self.region_letters[self.terrain[r * n + c]] for c in range(n)) for r in range(n)
        )


def load_park(filename: str, inset: int = 0) -> Park:
    """Read a park map from bosk/boards/<filename>."""
    text = resources.files(__package__).joinpath("boards", filename).read_text(encoding="utf-8")
    side = ""
    letters: list[str] = []
    names: list[str] = []
    rows: list[str] = []
    in_map = False
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if in_map:
            rows.append(line)
        elif line.startswith("side:"):
            side = line.split(":", 1)[1].strip()
        elif line.startswith("region "):
            letter, name = line[len("region "):].split(":", 1)
            letters.append(letter.strip())
            names.append(name.strip())
        elif line == "map:":
            in_map = True
        else:
            raise ValueError(f"{filename}: cannot read line {raw!r}")
    if inset:
        side = f"{side} (inset {inset})"
    return Park(side, "".join(letters), tuple(names), rows, inset=inset)


BOARD_FOR_PLAYERS = {2: ("two_player.txt", 0), 3: ("four_player.txt", 1), 4: ("four_player.txt", 0)}
"""Which board side (and inset) each player count uses: 3 players play inside the 4-player side's white border."""

_PARK_CACHE: dict[int, Park] = {}


def park_for_players(players: int) -> Park:
    """The (shared, read-only) park for a player count."""
    if players not in _PARK_CACHE:
        filename, inset = BOARD_FOR_PLAYERS[players]
        _PARK_CACHE[players] = load_park(filename, inset)
    return _PARK_CACHE[players]
