"""The Bosk park as Scenes: terrain regions (colour and pattern), trails, trees, leaves, squirrels, the wind board.

Pure computation from a state (numpy only), so tests check what is drawn where
without a browser.  Three pictures:

* :func:`park_scene` -- the park board, the wind board on its side and the legal
  targets of the player to move (with covering costs);
* :func:`supplies_scene` -- each player's trees, leaf tiles, leaf supply, score
  and the Hiker beside the start player;
* :func:`legend_scene` -- what each colour, pattern and mark means.

Naming on screen follows the engine's notation (``treegames.bosk.data``):
lower-case letters along the top and numbers on the left name the trails (so
intersection ``c4`` is where trail ``c`` meets trail ``4``); capitals along the
bottom and numbers on the right name the squares (``C4``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

import numpy as np

from ...bosk import DIRECTIONS, LEAF_TILES, PLAYER_NAMES, Park, Phase
from ...bosk.data import BOARD_FOR_PLAYERS, load_park
from .. import palette
from ..scene import Circles, Polygons, Scene, Segments, Texts, as_points, colours, solid
from .targets import Targets, targets

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
"""Column letters of the notation (capitals for squares, lower case for trails and intersections)."""

# ----------------------------------------------------------------------------------------- styles

PLAYER_COLOURS = (palette.VERMILLION, palette.BLUE, palette.BLUISH_GREEN, palette.REDDISH_PURPLE)
"""Maple, Oak, Birch, Ginkgo: four Okabe-Ito colours that stay apart under colour blindness."""
PLAYER_SHAPES = ("circle", "square", "triangle", "diamond")
"""A shape per player as well as a colour, so nobody needs to tell colours apart."""
PLAYER_SYMBOLS = ("●", "■", "▲", "◆")
"""The same shapes as text, for tables and HTML."""
PLAYER_INK = (palette.BLACK, "#FFFFFF", palette.BLACK, palette.BLACK)
"""Number colour on each player's tokens, for contrast."""

SQUIRREL_COLOUR = "#7A4A1E"
"""Squirrel tokens: a brown disc carrying the owner's shape."""
TARGET = palette.HIGHLIGHT
"""Where the player to move may go: the house highlight yellow."""
SQUIRREL_TARGET = palette.SKY_BLUE
"""Where the squirrel may go."""
TRAIL_INK = "#7D6B4A"
PATTERN_INK = "#5E5E5E"
"""One ink for every hatching pattern: the patterns' shapes tell the regions apart, the fills' colours too."""
GREYED = "#D9D9D9"


class RegionStyle(NamedTuple):
    """How one terrain region is drawn: a pale fill, a pattern, and the pattern's ink."""

    fill: str
    pattern: str
    ink: str


REGION_STYLES: dict[str, RegionStyle] = {
    "Meadow": RegionStyle("#E4F0C0", "dots", "#6F8A2E"),
    "Pine Forest": RegionStyle("#A9D8C2", "slash", "#2E7D5B"),
    "Lake": RegionStyle("#B7DDF4", "waves", "#2F79A8"),
    "Rocky Ridge": RegionStyle("#CFCFCF", "crosshatch", "#6E6E6E"),
    "Marsh": RegionStyle("#D9CBE3", "vertical", "#7B5C93"),
    "Canyon": RegionStyle("#F3C29C", "backslash", "#B5642B"),
    "Birch Grove": RegionStyle("#F6EFB4", "grid", "#9A8C28"),
    "Prairie": RegionStyle("#EAD7B0", "dashes", "#99773A"),
}
"""Eight regions told apart by colour AND pattern (dots, /, waves, crosshatch, |, \\, grid, dashes)."""

_SPARE_STYLES = tuple(REGION_STYLES.values())


def region_style(park: Park, region: int) -> RegionStyle:
    """The style of a region index of a park (by name; by position for unknown names)."""
    name = park.region_names[region]
    return REGION_STYLES.get(name, _SPARE_STYLES[region % len(_SPARE_STYLES)])


# ----------------------------------------------------------------------------------------- geometry


class Place(NamedTuple):
    """A clickable place: an intersection ('c4'), a square ('C4') or a side of the park ('north')."""

    kind: str
    row: int
    col: int
    name: str


@dataclass(frozen=True)
class ParkGeometry:
    """Where the park sits on the canvas: squares of ``cell`` pixels, label and wind-board bands around."""

    size: int
    border: int = 0
    cell: float = 40.0
    label: float = 17.0
    band: float = 46.0

    @classmethod
    def for_park(cls, park: Park, cell: float = 40.0) -> ParkGeometry:
        """The geometry of a park in play (3 players: the 4-player side with its border ring drawn)."""
        return cls(size=park.size, border=park.inset, cell=cell)

    @classmethod
    def fitted(cls, park: Park, width: int = 488) -> ParkGeometry:
        """The geometry whose canvas is ``width`` pixels wide for this park (same canvas for every player count)."""
        probe = cls.for_park(park)
        cell = (width - 2 * (probe.band + probe.label)) / probe.shown
        return cls(size=park.size, border=park.inset, cell=cell)

    @property
    def shown(self) -> int:
        """Squares drawn along a side, border ring included."""
        return self.size + 2 * self.border

    @property
    def x0(self) -> float:
        """Canvas x of the play area's west edge."""
        return self.band + self.label + self.border * self.cell

    @property
    def y0(self) -> float:
        """Canvas y of the play area's north edge."""
        return self.x0

    @property
    def width(self) -> int:
        """Canvas width: the park, its labels and a wind-board band on each side."""
        return int(math.ceil(2 * (self.band + self.label) + self.shown * self.cell))

    @property
    def height(self) -> int:
        """Canvas height (the park picture is square)."""
        return self.width

    def intersection_xy(self, row: int, col: int) -> tuple[float, float]:
        """Canvas pixel of an intersection (row, col)."""
        return (self.x0 + col * self.cell, self.y0 + row * self.cell)

    def square_centre(self, row: int, col: int) -> tuple[float, float]:
        """Canvas pixel centre of a square (row, col); negative or large indices reach the border ring."""
        return (self.x0 + (col + 0.5) * self.cell, self.y0 + (row + 0.5) * self.cell)

    def square_corners(self, row: int, col: int, shrink: float = 1.0) -> list[tuple[float, float]]:
        """The four corners of a square, optionally shrunk towards its centre."""
        cx, cy = self.square_centre(row, col)
        h = self.cell / 2 * shrink
        return [(cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h)]

    def _fractional(self, x: float, y: float) -> tuple[float, float] | None:
        """(row, col) in square units from the play area's north-west corner; None for non-finite input."""
        if not (isinstance(x, int | float) and isinstance(y, int | float) and math.isfinite(x) and math.isfinite(y)):
            return None
        return ((y - self.y0) / self.cell, (x - self.x0) / self.cell)

    def intersection_at(self, x: float, y: float) -> Place | None:
        """The intersection nearest canvas pixel (x, y), if that pixel is near the play area."""
        f = self._fractional(x, y)
        if f is None:
            return None
        row, col = round(f[0]), round(f[1])
        if not (0 <= row <= self.size and 0 <= col <= self.size):
            return None
        if math.hypot(f[0] - row, f[1] - col) > 0.5:
            return None
        return Place("intersection", row, col, f"{LETTERS[col].lower()}{row + 1}")

    def square_at(self, x: float, y: float) -> Place | None:
        """The play square under canvas pixel (x, y), if any."""
        f = self._fractional(x, y)
        if f is None:
            return None
        row, col = math.floor(f[0]), math.floor(f[1])
        if not (0 <= row < self.size and 0 <= col < self.size):
            return None
        return Place("square", row, col, f"{LETTERS[col]}{row + 1}")

    def side_at(self, x: float, y: float) -> Place | None:
        """The side of the park (a Direction index as ``col``) whose band or border holds pixel (x, y)."""
        f = self._fractional(x, y)
        if f is None:
            return None
        row, col = f
        n = self.size
        outside = {0: -row, 1: col - n, 2: row - n, 3: -col}  # north, east, south, west
        side, depth = max(outside.items(), key=lambda kv: kv[1])
        limit = (self.border * self.cell + self.label + self.band) / self.cell
        if depth <= 0 or depth > limit:
            return None
        return Place("side", -1, side, DIRECTIONS[side].value)

    def place_at(self, x: float, y: float) -> Place | None:
        """What a click at (x, y) names: an intersection near a trail crossing, else a square, else a side."""
        f = self._fractional(x, y)
        if f is None:
            return None
        near = self.intersection_at(x, y)
        if near is not None and math.hypot(f[0] - near.row, f[1] - near.col) <= 0.3:
            return near
        return self.square_at(x, y) or self.side_at(x, y)

    def side_band(self, side: int) -> list[tuple[float, float]]:
        """The rectangle of the wind-board band along a side (Direction index), as four corners."""
        a, b = self.x0, self.x0 + self.size * self.cell
        out = self.border * self.cell + self.label
        near, far = out + 2, out + self.band - 2
        if side == 0:
            return [(a, a - far), (b, a - far), (b, a - near), (a, a - near)]
        if side == 2:
            return [(a, b + near), (b, b + near), (b, b + far), (a, b + far)]
        if side == 1:
            return [(b + near, a), (b + far, a), (b + far, b), (b + near, b)]
        return [(a - far, a), (a - near, a), (a - near, b), (a - far, b)]

    def wind_spot_centre(self, side: int, spot: float) -> tuple[float, float]:
        """Centre of wind-board spot ``spot`` (1-8) laid along a side, spot 1 at the west or north end."""
        return _spot_centre(self, side, spot)

    def _spot_centre(self, side: int, spot: float) -> tuple[float, float]:
        """Uncached :meth:`wind_spot_centre`."""
        corners = self.side_band(side)
        xs = [p[0] for p in corners]
        ys = [p[1] for p in corners]
        t = (spot - 0.5) / 8
        if side in (0, 2):
            return (min(xs) + t * (max(xs) - min(xs)), (min(ys) + max(ys)) / 2)
        return ((min(xs) + max(xs)) / 2, min(ys) + t * (max(ys) - min(ys)))


@cache
def _spot_centre(geo: ParkGeometry, side: int, spot: float) -> tuple[float, float]:
    """Wind spot centres, computed once per geometry."""
    return geo._spot_centre(side, spot)


# ----------------------------------------------------------------------------------------- shapes


_SHAPE_UNITS = {
    "square": ((-0.85, -0.85), (0.85, -0.85), (0.85, 0.85), (-0.85, 0.85)),
    "triangle": ((0.0, -1.15), (1.05, 0.8), (-1.05, 0.8)),
    "diamond": ((0.0, -1.2), (1.2, 0.0), (0.0, 1.2), (-1.2, 0.0)),
}


def tokens_ops(items: list[tuple[int, float, float, float, str, object]], font: str) -> list:
    """Batched operations for many players' tokens: (player, x, y, radius, label, tag) each.

    Tokens are grouped by how they are drawn (circles; four-cornered shapes; triangles) and labels by ink,
    so a whole layer of trees or leaves costs a handful of operations whatever the player count.
    """
    if not items:
        return []
    ops: list = []
    circles = [it for it in items if PLAYER_SHAPES[it[0]] == "circle"]
    if circles:
        ops.append(Circles(np.array([(x, y) for _, x, y, _, _, _ in circles], dtype=np.float64),
                           np.array([r for _, _, _, r, _, _ in circles], dtype=np.float64),
                           colours([PLAYER_COLOURS[p] for p, *_ in circles]), stroke=palette.INK, line_width=1.0))
    for corners in (4, 3):
        group = [it for it in items if PLAYER_SHAPES[it[0]] != "circle"
                 and len(_SHAPE_UNITS[PLAYER_SHAPES[it[0]]]) == corners]
        if group:
            pts = np.array([[(x + ux * r, y + uy * r) for ux, uy in _SHAPE_UNITS[PLAYER_SHAPES[p]]]
                            for p, x, y, r, _, _ in group], dtype=np.float64)
            ops.append(Polygons(pts, colours([PLAYER_COLOURS[p] for p, *_ in group]), stroke=palette.INK,
                                line_width=1.0, tags=tuple(tag for *_, tag in group)))
    for ink in sorted(set(PLAYER_INK)):
        labels = [(x, y + (2.0 if PLAYER_SHAPES[p] == "triangle" else 0.0), t) for p, x, y, _, t, _ in items
                  if t and PLAYER_INK[p] == ink]
        if labels:
            ops.append(Texts(labels, font=font, colour=ink))
    return ops


def token_ops(player: int, centres: list[tuple[float, float]], radii, labels: list[str], font: str,
              tags: tuple = ()) -> list:
    """Drawing operations for one player's tokens (shape, colour, outline) with a label on each."""
    if not centres:
        return []
    radii = np.broadcast_to(np.asarray(radii, dtype=np.float64), (len(centres),)).tolist()
    tags = tuple(tags) + (None,) * (len(centres) - len(tags))
    return tokens_ops([(player, x, y, r, t, g) for (x, y), r, t, g in zip(centres, radii, labels, tags, strict=True)],
                      font)


def arrow_polygon(x: float, y: float, angle: float, length: float, width: float) -> list[tuple[float, float]]:
    """A seven-point arrow centred on (x, y) pointing at ``angle`` radians (screen coordinates, y down)."""
    ux, uy = math.cos(angle), math.sin(angle)
    px, py = -uy, ux
    head = length * 0.45
    shaft = width * 0.35
    pts = [(0, -shaft), (length - head, -shaft), (length - head, -width), (length, 0),
           (length - head, width), (length - head, shaft), (0, shaft)]
    sx, sy = x - ux * length / 2, y - uy * length / 2
    return [(sx + a * ux + b * px, sy + a * uy + b * py) for a, b in pts]


def direction_angle(direction: int) -> float:
    """Screen angle of a Direction index (north up)."""
    dr, dc = DIRECTIONS[direction].step
    return math.atan2(dr, dc)


# ----------------------------------------------------------------------------------------- patterns


def _pattern_lines(pattern: str, x: float, y: float, s: float) -> list:
    """Line segments of a hatching pattern inside the square with north-west corner (x, y) and side s."""
    m = 3.0
    lines = []
    if pattern in ("slash", "crosshatch"):
        step = s / 4 if pattern == "slash" else s / 3
        u = step
        while u < 2 * s - 1:
            a = (x, y + u) if u <= s else (x + u - s, y + s)
            b = (x + u, y) if u <= s else (x + s, y + u - s)
            lines.append([a, b])
            u += step
    if pattern in ("backslash", "crosshatch"):
        step = s / 4 if pattern == "backslash" else s / 3
        u = step
        while u < 2 * s - 1:
            a = (x + s - u, y) if u <= s else (x, y + u - s)
            b = (x + s, y + u) if u <= s else (x + 2 * s - u, y + s)
            lines.append([a, b])
            u += step
    if pattern == "vertical":
        for k in (1, 2, 3):
            lines.append([(x + s * k / 4, y + m), (x + s * k / 4, y + s - m)])
    if pattern == "grid":
        for k in (1, 2):
            lines.append([(x + s * k / 3, y + m), (x + s * k / 3, y + s - m)])
            lines.append([(x + m, y + s * k / 3), (x + s - m, y + s * k / 3)])
    if pattern == "waves":
        for k in (1, 2, 3):
            yy = y + s * k / 4
            pts = [(x + m + (s - 2 * m) * i / 6, yy + (2.0 if i % 2 else -2.0)) for i in range(7)]
            lines.extend([[pts[i], pts[i + 1]] for i in range(6)])
    if pattern == "dashes":
        for k, shift in ((1, 0.1), (2, 0.35), (3, 0.1)):
            yy = y + s * k / 4
            for start in (shift, shift + 0.5):
                lines.append([(x + s * start, yy), (x + s * (start + 0.22), yy)])
    return lines


def _pattern_dots(x: float, y: float, s: float) -> list[tuple[float, float]]:
    """Dot centres of the dotted pattern inside a square."""
    return [(x + s * i / 4, y + s * j / 4) for i in (1, 2, 3) for j in (1, 2, 3) if (i + j) % 2 == 0]


def terrain_ops(cells: list[tuple[int, int, int]], geo: ParkGeometry, park: Park, cell: float | None = None,
                origin=None) -> list:
    """Fills and patterns for squares given as (row, col, region); one batched op per pattern ink."""
    ops: list = []
    s = cell or geo.cell
    corners, fills, tags = [], [], []
    for row, col, region in cells:
        x, y = origin(row, col) if origin else (geo.x0 + col * s, geo.y0 + row * s)
        corners.append([(x, y), (x + s, y), (x + s, y + s), (x, y + s)])
        fills.append(region_style(park, region).fill)
        tags.append((row, col))
    ops.append(Polygons(as_points(corners), colours(fills), tags=tuple(tags)))
    by_region: dict[int, list] = {}
    for row, col, region in cells:
        by_region.setdefault(region, []).append((row, col))
    lines, dots, dot_inks = [], [], []
    for region in sorted(by_region):
        style = region_style(park, region)
        xy = [origin(r, c) if origin else (geo.x0 + c * s, geo.y0 + r * s) for r, c in by_region[region]]
        if style.pattern == "dots":
            found = [d for x, y in xy for d in _pattern_dots(x, y, s)]
            dots += found
            dot_inks += [style.ink] * len(found)
        else:
            lines += [seg for x, y in xy for seg in _pattern_lines(style.pattern, x, y, s)]
    if lines:
        ops.append(Segments(as_points(lines), stroke=PATTERN_INK, line_width=0.9))
    if dots:
        ops.append(Circles(np.asarray(dots, dtype=np.float64), np.full(len(dots), max(1.4, s * 0.045)),
                           colours(dot_inks)))
    return ops


# ----------------------------------------------------------------------------------------- the park


@cache
def full_park(park: Park) -> Park | None:
    """The whole board side a park is cut from (the 4-player side for 3 players), or None if not inset."""
    if not park.inset:
        return None
    for filename, inset in BOARD_FOR_PLAYERS.values():
        if inset == park.inset:
            return load_park(filename, 0)
    return None


@cache
def static_layers(park: Park, geo: ParkGeometry) -> tuple:
    """Terrain, patterns, the inset border, trails and their names: the picture that never changes."""
    n = geo.size
    cells = [(r, c, park.terrain[r * n + c]) for r in range(n) for c in range(n)]
    ops: list = []
    whole = full_park(park)
    if whole is not None:
        b = park.inset
        ring = [(r - b, c - b, whole.terrain[r * whole.size + c]) for r in range(whole.size)
                for c in range(whole.size) if not (b <= r < whole.size - b and b <= c < whole.size - b)]
        ops += terrain_ops(ring, geo, whole)
        ops.append(Polygons(as_points([geo.square_corners(r, c) for r, c, _ in ring]),
                            solid("#FFFFFF", len(ring)), alpha=0.62, tags=tuple((r, c) for r, c, _ in ring)))
    ops += terrain_ops(cells, geo, park)
    a, z = geo.x0, geo.x0 + n * geo.cell
    inner = [[(a, a + k * geo.cell), (z, a + k * geo.cell)] for k in range(1, n)]
    inner += [[(a + k * geo.cell, a), (a + k * geo.cell, z)] for k in range(1, n)]
    ops.append(Segments(as_points(inner), stroke=TRAIL_INK, line_width=1.6))
    ops.append(Polygons(as_points([[(a, a), (z, a), (z, z), (a, z)]]), None, stroke=palette.INK, line_width=3.0))
    ops += trail_labels(geo)
    if whole is not None:
        top = a - park.inset * geo.cell / 2
        ops.append(Texts([((a + z) / 2, top, "white border: not in play with 3 players")],
                         font="italic 11px sans-serif", colour=palette.MUTED_INK))
    return tuple(ops)


def trail_labels(geo: ParkGeometry) -> list:
    """Trail names (top, left: lower-case letters, numbers) and square names (bottom, right: capitals, numbers)."""
    n, c = geo.size, geo.cell
    a, z = geo.x0, geo.x0 + n * c
    out = geo.border * c + geo.label / 2
    interior = [(a + k * c, a - out, LETTERS[k].lower()) for k in range(1, n)]
    interior += [(a - out, a + k * c, str(k + 1)) for k in range(1, n)]
    edges = [(a + k * c, a - out, LETTERS[k].lower()) for k in (0, n)]
    edges += [(a - out, a + k * c, str(k + 1)) for k in (0, n)]
    squares = [(a + (k + 0.5) * c, z + out, LETTERS[k]) for k in range(n)]
    squares += [(z + out, a + (k + 0.5) * c, str(k + 1)) for k in range(n)]
    return [
        Texts(interior, font="bold 11px sans-serif", colour=TRAIL_INK),
        Texts(edges, font="10px sans-serif", colour="#B0A58F"),
        Texts(squares, font="10px sans-serif", colour=palette.MUTED_INK),
    ]


def trail_segment(geo: ParkGeometry, name: str) -> list[tuple[float, float]] | None:
    """The two ends of a trail named like the engine's trails ('row 3', 'column d'), or None."""
    kind, _, label = name.partition(" ")
    n, c = geo.size, geo.cell
    a, z = geo.x0, geo.x0 + n * c
    if kind == "row" and label.isdigit():
        y = a + (int(label) - 1) * c
        return [(a, y), (z, y)]
    if kind == "column" and len(label) == 1 and label.upper() in LETTERS:
        x = a + LETTERS.index(label.upper()) * c
        return [(x, a), (x, z)]
    return None


def tree_radius(geo: ParkGeometry, value: int) -> float:
    """Drawn radius of a tree token: bigger trees are bigger."""
    return geo.cell * (0.17 + 0.035 * value)


def wind_board_spots(state) -> list[tuple[int, int, int]]:
    """The engine's wind board (``state.wind_board``) as (spot 1-8, wind Direction index, required tree
    value 0-4 with 0 = '*'); [] before it is placed."""
    board = state.wind_board
    return [(w.spot, w.direction.index, w.required) for w in board.spots] if board is not None else []


@dataclass(frozen=True)
class Marks:
    """What a view asks the park picture to stress besides the state: a trail, a region, a pending choice."""

    trail: str | None = None
    """A trail name ('row 3', 'column d') to highlight (a selected summer table row)."""
    region: int | None = None
    """A region index to outline (a selected winter table row)."""
    pending: tuple[int, int] | None = None
    """An intersection clicked before its tree value (spring) or a tree before its tile (autumn)."""
    show_targets: bool = True
    """Whether to highlight the legal targets (off while a bot moves)."""


def park_scene(state, geo: ParkGeometry | None = None, marks: Marks | None = None) -> Scene:
    """The park board of a game in progress: terrain, trails, leaves, squirrels, trees, wind board, targets."""
    park = state.park
    geo = geo or ParkGeometry.for_park(park)
    marks = marks or Marks()
    scene = Scene(geo.width, geo.height, background=palette.BACKGROUND)
    for op in static_layers(park, geo):
        scene.add(op)
    t = targets(state) if marks.show_targets else Targets(state.phase)
    if marks.region is not None:
        _outline_region(scene, park, geo, marks.region)
    _draw_square_targets(scene, geo, t)
    _draw_leaves(scene, state, geo)
    _draw_squirrels(scene, state, geo)
    if marks.trail is not None:
        seg = trail_segment(geo, marks.trail)
        if seg is not None:
            scene.add(Segments(as_points([seg]), stroke=palette.INK, line_width=9.0))
            scene.add(Segments(as_points([seg]), stroke=TARGET, line_width=6.0))
    _draw_intersection_targets(scene, geo, t, marks)
    _draw_trees(scene, state, geo, t)
    _draw_selection(scene, state, geo, marks)
    _draw_wind(scene, state, geo, t)
    return scene


def _outline_region(scene: Scene, park: Park, geo: ParkGeometry, region: int) -> None:
    """A thick outline around every square of one region (a selected winter table row)."""
    squares = [park.square_rc(s) for s in park.region_squares[region]]
    scene.add(Polygons(as_points([geo.square_corners(r, c, 0.9) for r, c in squares]), None, stroke=palette.INK,
                       line_width=3.0, tags=tuple(squares)))


def _draw_square_targets(scene: Scene, geo: ParkGeometry, t: Targets) -> None:
    """Squares the next leaf or the squirrel may take, tinted; a covering cost shown in the corner."""
    if not t.squares:
        return
    squares = sorted(t.squares)
    colour = SQUIRREL_TARGET if t.is_squirrel else TARGET
    scene.add(Polygons(as_points([geo.square_corners(r, c, 0.86) for r, c in squares]),
                       solid(colour, len(squares)), stroke=palette.INK, line_width=1.5, tags=tuple(squares)))
    costs = [(r, c, k) for (r, c), k in sorted(t.squares.items()) if k]
    if costs:
        h = geo.cell * 0.43
        boxes = [[(x + h - 17, y - h), (x + h, y - h), (x + h, y - h + 12), (x + h - 17, y - h + 12)]
                 for x, y in (geo.square_centre(r, c) for r, c, _ in costs)]
        scene.add(Polygons(as_points(boxes), solid(palette.INK, len(boxes)), tags=tuple((r, c) for r, c, _ in costs)))
        items = [(geo.square_centre(r, c)[0] + h - 8.5, geo.square_centre(r, c)[1] - h + 6.5, f"-{k}")
                 for r, c, k in costs]
        scene.add(Texts(items, font="bold 10px sans-serif", colour="#FFFFFF"))


def _draw_leaves(scene: Scene, state, geo: ParkGeometry) -> None:
    """Each leaf pile as its top owner's token with the pile height on it."""
    n = state.park.size
    by_owner: dict[int, list] = {}
    for r in range(n):
        for c in range(n):
            pile = state.pile(r, c)
            if pile:
                by_owner.setdefault(pile[-1], []).append((r, c, len(pile)))
    path = set(state.leaf_path())
    if path:
        scene.add(Polygons(as_points([geo.square_corners(r, c, 0.97) for r, c in sorted(path)]), None,
                           stroke=palette.INK, line_width=2.0, tags=tuple(sorted(path))))
    items = [(player, *geo.square_centre(r, c), geo.cell * 0.2, str(h), (r, c))
             for player in sorted(by_owner) for r, c, h in by_owner[player]]
    for op in tokens_ops(items, "bold 10px sans-serif"):
        scene.add(op)


def _draw_squirrels(scene: Scene, state, geo: ParkGeometry) -> None:
    """Squirrel tokens: a brown disc with the owner's shape and an 'S'."""
    spots = [(p, rc) for p, rc in enumerate(state.squirrel_squares()) if rc is not None]
    if not spots:
        return
    centres = np.array([geo.square_centre(*rc) for _, rc in spots], dtype=np.float64)
    scene.add(Circles(centres, np.full(len(spots), geo.cell * 0.36), solid(SQUIRREL_COLOUR, len(spots)),
                      stroke=palette.INK, line_width=1.5))
    for p, rc in spots:
        x, y = geo.square_centre(*rc)
        for op in token_ops(p, [(x, y + geo.cell * 0.1)], geo.cell * 0.13, [""], "9px sans-serif", tags=(rc,)):
            scene.add(op)
    scene.add(Texts([(geo.square_centre(*rc)[0], geo.square_centre(*rc)[1] - geo.cell * 0.2, "S")
                     for _, rc in spots], font="bold 9px sans-serif", colour="#FFFFFF"))


def _draw_intersection_targets(scene: Scene, geo: ParkGeometry, t: Targets, marks: Marks) -> None:
    """Spring: yellow dots on the empty interior intersections; autumn: yellow halos behind selectable trees."""
    if t.intersections:
        pts = np.array([geo.intersection_xy(r, c) for r, c in t.intersections], dtype=np.float64)
        scene.add(Circles(pts, np.full(len(pts), geo.cell * 0.16), solid(TARGET, len(pts)), stroke=palette.INK,
                          line_width=1.2))
    if t.trees:
        pts = np.array([geo.intersection_xy(r, c) for r, c in t.trees], dtype=np.float64)
        scene.add(Circles(pts, np.full(len(pts), geo.cell * 0.42), solid(TARGET, len(pts)), stroke=palette.INK,
                          line_width=1.5))


def _draw_trees(scene: Scene, state, geo: ParkGeometry, t: Targets) -> None:
    """Every standing tree: its player's shape and colour, sized and labelled by its value."""
    items = [(owner, *geo.intersection_xy(r, c), tree_radius(geo, value), str(value), (r, c))
             for (r, c), (owner, value) in sorted(state.trees_on_board().items())]
    for op in tokens_ops(items, "bold 12px sans-serif"):
        scene.add(op)


def _draw_selection(scene: Scene, state, geo: ParkGeometry, marks: Marks) -> None:
    """The tree whose leaves are falling, the path head, and a pending click, ringed in ink."""
    rings = []
    if state.selected_tree is not None:
        rings.append(state.selected_tree)
    if marks.pending is not None:
        rings.append(marks.pending)
    if rings:
        pts = np.array([geo.intersection_xy(*rc) for rc in rings], dtype=np.float64)
        scene.add(Circles(pts, np.full(len(pts), geo.cell * 0.46), solid(TARGET, len(pts)), stroke=palette.INK,
                          line_width=3.0))
        if state.selected_tree is not None:
            owner, value = state.tree_at_intersection(*state.selected_tree)
            x, y = geo.intersection_xy(*state.selected_tree)
            for op in token_ops(owner, [(x, y)], tree_radius(geo, value), [str(value)], "bold 12px sans-serif"):
                scene.add(op)
        if marks.pending is not None and state.tree_at_intersection(*marks.pending) is not None:
            owner, value = state.tree_at_intersection(*marks.pending)
            x, y = geo.intersection_xy(*marks.pending)
            for op in token_ops(owner, [(x, y)], tree_radius(geo, value), [str(value)], "bold 12px sans-serif"):
                scene.add(op)
    head = state.path_head
    if head is not None and state.phase is Phase.LEAF_PLACEMENT:
        scene.add(Polygons(as_points([geo.square_corners(*head, 1.0)]), None, stroke=palette.INK, line_width=3.5,
                           tags=(head,)))


def _draw_wind(scene: Scene, state, geo: ParkGeometry, t: Targets) -> None:
    """The wind board on its side (spots, arrows, required values, the marker), or the sides to choose from."""
    if t.sides:
        bands = [geo.side_band(s) for s in t.sides]
        scene.add(Polygons(as_points(bands), solid(TARGET, len(bands)), stroke=palette.INK, line_width=1.5,
                           tags=tuple(t.sides)))
        arrows, labels = [], []
        for s in t.sides:
            blows = state.game.wind_spots(s)[0].direction.index
            for spot in (2, 7):
                arrows.append(arrow_polygon(*geo.wind_spot_centre(s, spot), direction_angle(blows), 20, 7))
            x, y = geo.wind_spot_centre(s, 4.5)
            if s in (0, 2):
                labels.append((x, y, f"wind board here: blows {DIRECTIONS[blows].value}"))
            else:
                labels += [(x, y - 8, "blows"), (x, y + 8, DIRECTIONS[blows].value)]
        scene.add(Polygons(as_points(arrows), solid(palette.INK, len(arrows))))
        scene.add(Texts(labels, font="bold 11px sans-serif", colour=palette.INK))
        return
    board = state.wind_board
    if board is None:
        return
    spots = [(w.spot, w.direction.index, w.required) for w in board.spots]
    side = board.side.index
    current = board.marker
    half = min(geo.band, geo.size * geo.cell / 8) * 0.44
    boxes, fills = [], []
    for spot, _wind, _need in spots:
        x, y = geo.wind_spot_centre(side, spot)
        boxes.append([(x - half, y - half), (x + half, y - half), (x + half, y + half), (x - half, y + half)])
        fills.append(TARGET if spot == current else ("#EEEEEE" if spot < current else "#FFFFFF"))
    scene.add(Polygons(as_points(boxes), colours(fills), stroke=palette.MUTED_INK, line_width=1.0,
                       tags=tuple(s for s, _, _ in spots)))
    if 1 <= current <= len(spots):
        x, y = geo.wind_spot_centre(side, current)
        h = half + 2
        scene.add(Polygons(as_points([[(x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h)]]), None,
                           stroke=palette.INK, line_width=3.0, tags=("marker",)))
    arrows, arrow_fill = [], []
    for spot, wind, _need in spots:
        x, y = geo.wind_spot_centre(side, spot)
        arrows.append(arrow_polygon(x, y - half * 0.3, direction_angle(wind), half * 1.1, half * 0.42))
        arrow_fill.append(palette.INK if spot >= current else "#9E9E9E")
    scene.add(Polygons(as_points(arrows), colours(arrow_fill)))
    need = [(geo.wind_spot_centre(side, s)[0], geo.wind_spot_centre(side, s)[1] + half * 0.6,
             str(v) if v else "*") for s, _, v in spots]
    scene.add(Texts(need, font="bold 10px sans-serif", colour=palette.INK))


# ----------------------------------------------------------------------------------------- supplies

SUPPLY_ROW = 46
"""Pixels per player in the supplies picture."""


def supplies_scene(state, width: int) -> Scene:
    """Each player's shape and name, the Hiker, score, trees, leaf tiles (used ones greyed) and leaf supply."""
    n = state.num_players
    scene = Scene(width, 8 + SUPPLY_ROW * n, background=palette.BACKGROUND)
    names = state.game.player_names
    mover = state.current_player
    bands, band_fill = [], []
    for p in range(n):
        y = 4 + p * SUPPLY_ROW
        bands.append([(2, y), (width - 2, y), (width - 2, y + SUPPLY_ROW - 4), (2, y + SUPPLY_ROW - 4)])
        band_fill.append("#FFF7C2" if p == mover else "#F6F6F6")
    scene.add(Polygons(as_points(bands), colours(band_fill), stroke="#CCCCCC", line_width=1.0,
                       tags=tuple(range(n))))
    texts, bold, small = [], [], []
    for p in range(n):
        y = 4 + p * SUPPLY_ROW
        for op in token_ops(p, [(16, y + 13)], 8, [""], "9px sans-serif"):
            scene.add(op)
        bold.append((30, y + 13, names[p]))
        score = state.scores()[p]
        texts.append((width - 8, y + 13, f"{score} pt · {state.supply_of(p)} leaves"
                      + (f" (+{state.active_of(p)} active)" if state.active_of(p) else "")))
        if p == state.start_player:
            _draw_hiker(scene, 104, y + 13)
        # trees: in hand during spring, standing afterwards
        in_hand = state.phase in (Phase.START_PLAYER, Phase.SPRING)
        values = state.trees_in_hand(p) if in_hand else state.trees_standing(p)
        small.append((8, y + 33, "in hand:" if in_hand else "standing:"))
        centres = [(62 + 17 * i, y + 32) for i in range(len(values))]
        for op in token_ops(p, centres, [5.0 + 0.9 * v for v in values], [str(v) for v in values],
                            "bold 9px sans-serif"):
            scene.add(op)
        _draw_tiles(scene, state, p, width - 8 - 8 * 19, y + 25)
    scene.add(Texts(bold, font="bold 13px sans-serif", colour=palette.INK, align="left"))
    scene.add(Texts(texts, font="12px sans-serif", colour=palette.INK, align="right"))
    scene.add(Texts(small, font="10px sans-serif", colour=palette.MUTED_INK, align="left"))
    return scene


def _draw_hiker(scene: Scene, x: float, y: float) -> None:
    """The Hiker: a small green badge with a walking figure's initial, beside the start player."""
    scene.add(Polygons(as_points([[(x, y - 8), (x + 44, y - 8), (x + 44, y + 8), (x, y + 8)]]),
                       colours(["#2E5E3A"]), tags=("hiker",)))
    scene.add(Texts([(x + 22, y + 1, "Hiker")], font="bold 10px sans-serif", colour="#FFFFFF"))


def _draw_tiles(scene: Scene, state, player: int, x: float, y: float) -> None:
    """The eight leaf tiles 2-8 and squirrel; used tiles greyed, the chosen one ringed."""
    unused = set(state.leaf_tiles(player))
    chosen = state.selected_tile if player == state.current_player else None
    boxes, fills, labels_on, labels_off = [], [], [], []
    for i, tile in enumerate(LEAF_TILES):
        bx = x + i * 19
        boxes.append([(bx, y), (bx + 16, y), (bx + 16, y + 16), (bx, y + 16)])
        on = tile in unused
        fills.append(PLAYER_COLOURS[player] if on else GREYED)
        (labels_on if on else labels_off).append((bx + 8, y + 8.5, "S" if tile == 0 else str(tile)))
    scene.add(Polygons(as_points(boxes), colours(fills), stroke=palette.MUTED_INK, line_width=0.8,
                       tags=tuple(LEAF_TILES)))
    scene.add(Texts(labels_on, font="bold 10px sans-serif", colour=PLAYER_INK[player]))
    scene.add(Texts(labels_off, font="10px sans-serif", colour="#9A9A9A"))
    if chosen is not None:
        i = LEAF_TILES.index(chosen)
        bx = x + i * 19
        scene.add(Polygons(as_points([[(bx - 2, y - 2), (bx + 18, y - 2), (bx + 18, y + 18), (bx - 2, y + 18)]]),
                           None, stroke=palette.INK, line_width=2.5, tags=("chosen",)))


# ----------------------------------------------------------------------------------------- legend

LEGEND_ROW = 22
"""Pixels per legend line."""

MARKS_LEGEND = (
    ("dot", "empty crossing: a tree may grow"),
    ("halo", "your tree the wind board allows"),
    ("tree", "tree on a crossing (number: value)"),
    ("leaf", "leaf pile on a square (number: height)"),
    ("target", "square for your next leaf"),
    ("cost", "covering cost: leaves sent back"),
    ("squirrel target", "square the squirrel may reach"),
    ("squirrel", "squirrel (owner's shape inside)"),
)
"""The marks the park picture uses, in legend order."""


def legend_scene(park: Park, width: int, players: int | None = None) -> Scene:
    """Each region's colour, pattern and name; the players' shapes; and what the marks mean."""
    regions = len(park.region_names)
    cols = 4 if width >= 400 else 2
    rows = math.ceil(regions / cols)
    col_w = (width - 8) / cols
    mark_rows = math.ceil(len(MARKS_LEGEND) / 2)
    scene = Scene(width, 8 + LEGEND_ROW * (rows + 1 + mark_rows), background=palette.BACKGROUND)
    sw = 16.0

    def origin(row: int, col: int) -> tuple[float, float]:
        return (4 + col * col_w, 4 + row * LEGEND_ROW)

    cells = [(i // cols, i % cols, i) for i in range(regions)]
    for op in terrain_ops(cells, None, park, cell=sw, origin=origin):  # type: ignore[arg-type]
        scene.add(op)
    boxes = []
    for r, c, _ in cells:
        x, y = origin(r, c)
        boxes.append([(x, y), (x + sw, y), (x + sw, y + sw), (x, y + sw)])
    scene.add(Polygons(as_points(boxes), None, stroke=palette.MUTED_INK, line_width=0.8))
    scene.add(Texts([(origin(r, c)[0] + sw + 5, origin(r, c)[1] + sw / 2 + 1, park.region_names[i])
                     for r, c, i in cells], font="12px sans-serif", colour=palette.INK, align="left"))
    y = 4 + rows * LEGEND_ROW + 9
    players = players or len(PLAYER_NAMES)
    step = (width - 8) / max(players, 1)
    for p in range(players):
        for op in token_ops(p, [(12 + p * step, y)], 7, [""], "9px sans-serif"):
            scene.add(op)
    scene.add(Texts([(24 + p * step, y + 1, f"{PLAYER_NAMES[p]} {PLAYER_SHAPES[p]}") for p in range(players)],
                    font="12px sans-serif", colour=palette.INK, align="left"))
    half = (width - 8) / 2
    labels = []
    for i, (mark, text) in enumerate(MARKS_LEGEND):
        x = 12 + (i % 2) * half
        yy = y + LEGEND_ROW * (1 + i // 2)
        _legend_mark(scene, mark, x, yy)
        labels.append((x + 14, yy + 1, text))
    scene.add(Texts(labels, font="11px sans-serif", colour=palette.INK, align="left"))
    return scene


def _legend_mark(scene: Scene, mark: str, x: float, y: float) -> None:
    """One small sample of a park mark, centred on (x, y)."""
    box = [[(x - 7, y - 7), (x + 7, y - 7), (x + 7, y + 7), (x - 7, y + 7)]]
    if mark == "dot":
        scene.add(Circles(np.array([[x, y]]), np.array([5.0]), solid(TARGET, 1), stroke=palette.INK, line_width=1.2))
    elif mark == "halo":
        scene.add(Circles(np.array([[x, y]]), np.array([8.0]), solid(TARGET, 1), stroke=palette.INK, line_width=1.2))
        scene.add(Circles(np.array([[x, y]]), np.array([4.5]), solid(palette.MUTED_INK, 1)))
    elif mark == "tree":
        scene.add(Circles(np.array([[x, y]]), np.array([8.0]), solid(palette.MUTED_INK, 1), stroke=palette.INK))
        scene.add(Texts([(x, y + 1, "3")], font="bold 10px sans-serif", colour="#FFFFFF"))
    elif mark == "leaf":
        scene.add(Circles(np.array([[x, y]]), np.array([6.0]), solid(palette.MUTED_INK, 1), stroke=palette.INK))
        scene.add(Texts([(x, y + 1, "2")], font="bold 9px sans-serif", colour="#FFFFFF"))
    elif mark in ("target", "squirrel target"):
        scene.add(Polygons(as_points(box), solid(TARGET if mark == "target" else SQUIRREL_TARGET, 1),
                           stroke=palette.INK, line_width=1.0))
    elif mark == "cost":
        scene.add(Polygons(as_points([[(x - 9, y - 6), (x + 9, y - 6), (x + 9, y + 6), (x - 9, y + 6)]]),
                           solid(palette.INK, 1)))
        scene.add(Texts([(x, y + 1, "-2")], font="bold 10px sans-serif", colour="#FFFFFF"))
    elif mark == "squirrel":
        scene.add(Circles(np.array([[x, y]]), np.array([8.0]), solid(SQUIRREL_COLOUR, 1), stroke=palette.INK))
        scene.add(Texts([(x, y - 2, "S")], font="bold 8px sans-serif", colour="#FFFFFF"))
