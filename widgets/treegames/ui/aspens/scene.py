"""The Aspens board as a Scene: hex geometry on screen, hit-testing, and the board picture.

Pure computation (numpy only), so tests check the picture without a browser.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

import numpy as np

from ...aspens.data import DIRECTIONS, RADIUS, Board, Hex, cell_name, distance, hex_center, hex_corners
from .. import palette
from ..scene import Circles, Polygons, Scene, Segments, Texts, as_points, colours, solid
from ..text import plural

TILE_ORDER = ("centre", "E", "NE", "NW", "W", "SW", "SE")


@dataclass(frozen=True)
class HexGeometry:
    """Where each hex sits on a canvas: hex size in pixels and the canvas centre."""

    size: float = 19.0
    margin: float = 56.0

    @property
    def width(self) -> int:
        """Canvas width that fits the board, its labels and the compass."""
        return int(math.ceil(2 * (math.sqrt(3) * self.size * (RADIUS + 0.5)) + 2 * self.margin))

    @property
    def height(self) -> int:
        """Canvas height that fits the board, its labels and the compass."""
        return int(math.ceil(2 * (1.5 * self.size * RADIUS + self.size) + 2 * self.margin))

    def center(self, cell: tuple[int, int]) -> tuple[float, float]:
        """Canvas pixel centre of a hex."""
        x, y = hex_center(cell, self.size)
        return (x + self.width / 2, y + self.height / 2)

    def corners(self, cell: tuple[int, int], shrink: float = 1.0) -> list[tuple[float, float]]:
        """Canvas pixel corners of a hex, optionally shrunk towards its centre."""
        cx, cy = self.center(cell)
        ox, oy = hex_center(cell, self.size)
        return [(cx + (x - ox) * shrink, cy + (y - oy) * shrink) for x, y in hex_corners(cell, self.size)]

    def hex_at(self, x: float, y: float) -> Hex:
        """The hex (on the board or not) under canvas pixel (x, y)."""
        px, py = x - self.width / 2, y - self.height / 2
        qf = (math.sqrt(3) / 3 * px - py / 3) / self.size
        rf = (2 / 3 * py) / self.size
        return _round_hex(qf, rf)


def _round_hex(qf: float, rf: float) -> Hex:
    """The hex containing fractional axial coordinates (cube rounding)."""
    sf = -qf - rf
    q, r, s = round(qf), round(rf), round(sf)
    dq, dr, ds = abs(q - qf), abs(r - rf), abs(s - sf)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return Hex(q, r)


def tile_colour(board: Board, cell: Hex) -> str:
    """The quiet land tone of the tile a hex lies on."""
    return palette.LAND_TONES[TILE_ORDER.index(board.tile_of(cell))]


def base_layer(board: Board, geo: HexGeometry) -> list:
    """Land hexes tinted by tile, water hexes, thin hex outlines and thick tile borders."""
    cells = board.cells
    fills = [palette.WATER if c in board.water else tile_colour(board, c) for c in cells]
    ops: list = [
        Polygons(as_points([geo.corners(c) for c in cells]), colours(fills), stroke="#B9B29A", line_width=1.0,
                 tags=tuple(cells)),
        Segments(tile_borders(board, geo), stroke=palette.INK, line_width=2.5),
        Texts([(*geo.center(w), "≈") for w in sorted(board.water)], font="bold 16px sans-serif",
              colour=palette.WATER_INK),
    ]
    return ops


def tile_borders(board: Board, geo: HexGeometry) -> list:
    """Edges between hexes of different tiles, and the board's outer edge, as segments."""
    segments = []
    for cell in board.cells:
        corners = geo.corners(cell)
        tile = board.tile_of(cell)
        for index, direction in enumerate(DIRECTIONS):
            other = board.neighbor(cell, direction)
            if other is None or board.tile_of(other) != tile:
                a, b = _edge_corners(index)
                segments.append([corners[a], corners[b]])
    return as_points(segments) if segments else as_points([])


def _edge_corners(direction_index: int) -> tuple[int, int]:
    """The two corner indices (of hex_corners' order) on the side facing a direction."""
    # corners: 0 top, 1 upper-right, 2 lower-right, 3 bottom, 4 lower-left, 5 upper-left
    return {0: (1, 2), 1: (0, 1), 2: (5, 0), 3: (4, 5), 4: (3, 4), 5: (2, 3)}[direction_index]


def edge_labels(board: Board, geo: HexGeometry) -> list:
    """Row letters left of each row, column numbers above each column, compass points outside."""
    rows, columns = [], []
    for r in range(-RADIUS, RADIUS + 1):
        first = min((c for c in board.cells if c.r == r), key=lambda c: c.q)
        rows.append((16.0, geo.center(first)[1], cell_name(first)[0]))
    for q in range(-RADIUS, RADIUS + 1):
        top = min((c for c in board.cells if c.q == q), key=lambda c: c.r)
        x, y = geo.center(Hex(top.q, top.r - 1))
        columns.append((x, y + geo.size * 0.35, str(q + RADIUS + 1)))
    compass = []
    for d in DIRECTIONS:
        x, y = geo.center(Hex(d.delta[0] * (RADIUS + 1), d.delta[1] * (RADIUS + 1)))
        compass.append((x, y, d.name))
    return [
        Texts(rows, font="11px sans-serif", colour=palette.MUTED_INK),
        Texts(columns, font="11px sans-serif", colour=palette.MUTED_INK),
        Texts(compass, font=f"bold {compass_font(geo)}px sans-serif", colour=palette.INK),
    ]


def compass_font(geo: HexGeometry) -> int:
    """Pixel size of the compass letters (smaller on small boards)."""
    return 15 if geo.size >= 17 else 12


@cache
def static_layers(board: Board, geo: HexGeometry) -> tuple:
    """The parts of the picture that never change for a setup (computed once, then reused)."""
    return tuple(base_layer(board, geo) + edge_labels(board, geo))


def board_scene(board: Board, geo: HexGeometry, selected: Hex | None = None) -> Scene:
    """The board of one setup; a selected hex is outlined and its neighbours marked."""
    scene = Scene(geo.width, geo.height, background=palette.BACKGROUND)
    for op in static_layers(board, geo):
        scene.add(op)
    if selected is not None and selected in board:
        near = list(board.neighbors(selected))
        scene.add(Polygons(as_points([geo.corners(c, 0.55) for c in near]),
                           colours([palette.SKY_BLUE] * len(near)), stroke=palette.BLUE, line_width=1.5,
                           tags=tuple(near)))
        scene.add(Polygons(as_points([geo.corners(selected, 0.92)]), None, stroke=palette.VERMILLION,
                           line_width=4.0, tags=(selected,)))
        scene.add(Texts([(*geo.center(selected), cell_name(selected))], font="bold 10px sans-serif",
                        colour=palette.INK))
    return scene


def describe_hex(board: Board, cell: Hex) -> str:
    """A short HTML description of a hex: name, coordinates, tile, water, neighbours."""
    if cell not in board:
        return "That point is off the board: click one of the hexes."
    kind = "water tile (never playable)" if board.is_water(cell) else "playable space"
    near = ", ".join(f"{d.name} {cell_name(n)}{' (water)' if board.is_water(n) else ''}"
                     for d in DIRECTIONS if (n := board.neighbor(cell, d)) is not None)
    return (f"<b>{cell_name(cell)}</b>: {kind} on the <b>{board.tile_of(cell)}</b> tile; axial (q={cell.q}, "
            f"r={cell.r}), {plural(distance(cell), 'step')} from the centre.<br>Neighbours: {near}.")


# --------------------------------------------------------------------------
# A game in progress: owners, stacks, legal targets, wind, last move, cascades

PLAYER_COLOURS = (palette.ORANGE, palette.BLUE)
"""Aspen orange, Pine blue: the Okabe-Ito pair that stays apart under colour blindness."""
PLAYER_TINTS = ("#F3C35B", "#A8A8B8")
"""Tints of the hexes each player owns: Aspen a strong amber, Pine a cool grey with blue hatching.

Chosen apart from the water (#8CC8EE, with waves) and the pale land tones in colour
and in pattern, so they read apart under colour blindness and in grey print too."""
PINE_HATCH = palette.BLUE
"""Colour of the diagonal hatching on Pine's hexes (the pattern that goes with the tint)."""
TOKEN_INK = (palette.BLACK, "#FFFFFF")
"""Stack-number colour on each player's token, for contrast."""
CASCADE_RING = palette.REDDISH_PURPLE
"""The ring on hexes a cascade just filled (drawn over a dark edge so it stands out)."""
TOKEN_SHAPES = ("circle", "triangle")
"""Aspen's round leaf, Pine's triangle: a shape cue besides the colour."""


@cache
def corner_table(board: Board, geo: HexGeometry) -> tuple[dict[Hex, int], np.ndarray, np.ndarray]:
    """Index of each hex, its six corners and its centre in canvas pixels (computed once per setup)."""
    index = {cell: i for i, cell in enumerate(board.cells)}
    corners = as_points([geo.corners(c) for c in board.cells])
    centres = np.array([geo.center(c) for c in board.cells], dtype=np.float64)
    return index, corners, centres


def shrunk(board: Board, geo: HexGeometry, cells, factor: float) -> np.ndarray:
    """The corners of ``cells`` shrunk towards their centres (for marks inside hexes)."""
    index, corners, centres = corner_table(board, geo)
    rows = [index[c] for c in cells]
    if not rows:
        return as_points([])
    c = centres[rows][:, None, :]
    return c + (corners[rows] - c) * factor


def token_triangles(centres: np.ndarray, radius: float) -> np.ndarray:
    """Upward triangles (pine trees) centred on each point."""
    offsets = np.array([(0.0, -1.05), (0.95, 0.7), (-0.95, 0.7)]) * radius
    return centres[:, None, :] + offsets[None, :, :]


def arrow_polygon(x: float, y: float, angle: float, length: float, width: float) -> list[tuple[float, float]]:
    """A seven-point arrow starting at (x, y) and pointing at ``angle`` radians (screen coordinates)."""
    ux, uy = math.cos(angle), math.sin(angle)
    px, py = -uy, ux
    head = length * 0.45
    shaft = width * 0.35
    pts = [(0, -shaft), (length - head, -shaft), (length - head, -width), (length, 0),
           (length - head, width), (length - head, shaft), (0, shaft)]
    return [(x + a * ux + b * px, y + a * uy + b * py) for a, b in pts]


def direction_angle(direction) -> float:
    """Screen angle (radians, y down) of a hex direction."""
    x, y = hex_center(direction.delta, 1.0)
    return math.atan2(y, x)


WIND_ROLLED = palette.VERMILLION
"""The rolled Wind direction's arrow (also drawn larger)."""
WIND_BESIDE = palette.REDDISH_PURPLE
"""The arrows of the two directions beside the rolled one."""


def wind_arrows(state, geo: HexGeometry) -> list:
    """Arrows beside the compass letters for the three valid Wind directions (the rolled one larger).

    Each arrow lies next to its compass letter (turned a quarter clockwise from the
    board centre) and points the Wind's way, so it never covers the letters, the row
    names or the column numbers; sizes scale with the hexes.
    """
    winds = state.valid_winds()
    if not winds:
        return []
    length = min(20.0, geo.size * 1.05)
    arrows, fills = [], []
    for d in winds:
        x, y = geo.center(Hex(d.delta[0] * (RADIUS + 1), d.delta[1] * (RADIUS + 1)))
        angle = direction_angle(d)
        rolled = d is state.wind
        width = length * (0.36 if rolled else 0.27)
        font = compass_font(geo)
        px, py = -math.sin(angle), math.cos(angle)
        letter = abs(px) * len(d.name) * font * 0.33 + abs(py) * font * 0.5  # the label's reach that way
        aside = letter + width + 6.0
        cx, cy = x + aside * px, y + aside * py
        start = (cx - length / 2 * math.cos(angle), cy - length / 2 * math.sin(angle))
        arrows.append(arrow_polygon(start[0], start[1], angle, length, width))
        fills.append(WIND_ROLLED if rolled else WIND_BESIDE)
    return [Polygons(as_points(arrows), colours(fills), stroke=palette.INK, line_width=0.8,
                     tags=tuple(("wind", d.name) for d in winds))]


@cache
def hatch_table(board: Board, geo: HexGeometry) -> np.ndarray:
    """Pine's hatching for every hex of a board, (cells, 3, 2, 2), computed once per setup."""
    _index, _corners, centres = corner_table(board, geo)
    segments = hatch_segments(centres, geo.size)  # (3 * cells, 2, 2), grouped by line
    return segments.reshape(3, len(centres), 2, 2).transpose(1, 0, 2, 3).copy()


def hatch_segments(centres: np.ndarray, size: float) -> np.ndarray:
    """Three short rising diagonal lines inside each hex (Pine's pattern), as (n*3, 2, 2) segments."""
    if len(centres) == 0:
        return np.zeros((0, 2, 2))
    inner = size * 0.80
    along = np.array([1.0, -1.0]) / math.sqrt(2)
    across = np.array([1.0, 1.0]) / math.sqrt(2)
    pieces = []
    for offset in (-0.5, 0.0, 0.5):
        d = offset * inner
        half = math.sqrt(max(inner * inner - d * d, 0.0))
        mid = centres + across * d
        pieces.append(np.stack([mid - along * half, mid + along * half], axis=1))
    return np.concatenate(pieces, axis=0)


def game_scene(state, geo: HexGeometry, show_targets: bool = True) -> Scene:
    """The board of a game in progress: who owns what and how high, where the mover may plant, the Wind."""
    board = state.board
    scene = Scene(geo.width, geo.height, background=palette.BACKGROUND)
    for op in static_layers(board, geo):
        scene.add(op)
    index, _corners, centres = corner_table(board, geo)
    owned = [sorted(state.spaces(0)), sorted(state.spaces(1))]
    for player in (0, 1):
        cells = owned[player]
        scene.add(Polygons(shrunk(board, geo, cells, 0.97), solid(PLAYER_TINTS[player], len(cells)),
                           tags=tuple(cells)))
    if owned[1]:
        rows = [index[c] for c in owned[1]]
        scene.add(Segments(hatch_table(board, geo)[rows].reshape(-1, 2, 2), stroke=PINE_HATCH, line_width=1.2))
    if show_targets:
        targets = state.legal_targets()
        plant_here = sorted(targets["seed"] | targets["grow-out"])
        scene.add(Polygons(shrunk(board, geo, plant_here, 0.78), solid(palette.HIGHLIGHT, len(plant_here)),
                           stroke=palette.INK, line_width=1.0, tags=tuple(plant_here)))
        up_here = sorted(targets["grow-up"])
        scene.add(Polygons(shrunk(board, geo, up_here, 0.93), None, stroke="#C9B800", line_width=4.0,
                           tags=tuple(up_here)))
    radius = geo.size * 0.52
    for player in (0, 1):
        cells = owned[player]
        if not cells:
            continue
        points = centres[[index[c] for c in cells]]
        if TOKEN_SHAPES[player] == "circle":
            scene.add(Circles(points, np.full(len(cells), radius), solid(PLAYER_COLOURS[player], len(cells)),
                              stroke=palette.INK, line_width=0.8))
        else:
            scene.add(Polygons(token_triangles(points, radius * 1.15),
                               solid(PLAYER_COLOURS[player], len(cells)), stroke=palette.INK,
                               line_width=0.8, tags=tuple(cells)))
        dy = 0.0 if player == 0 else radius * 0.22
        labels = [str(state.height(c)) for c in cells]
        scene.add(Texts([(x, y + dy, t) for (x, y), t in zip(points.tolist(), labels, strict=True)],
                        font="bold 11px sans-serif", colour=TOKEN_INK[player]))
    cascade = sorted(state.last_cascade)
    ring = shrunk(board, geo, cascade, 0.84)
    scene.add(Polygons(ring, None, stroke=palette.INK, line_width=5.0, tags=tuple(cascade)))
    scene.add(Polygons(ring, None, stroke=CASCADE_RING, line_width=3.0, tags=tuple(cascade)))
    last = last_cell(state)
    if last is not None:
        scene.add(Polygons(shrunk(board, geo, [last], 0.98), None, stroke=palette.VERMILLION, line_width=3.5,
                           tags=(last,)))
    for op in wind_arrows(state, geo):
        scene.add(op)
    return scene


def last_cell(state) -> Hex | None:
    """The hex the last action placed a tree on, if it placed one."""
    action = state.last_action
    return getattr(action, "cell", None)


# --------------------------------------------------------------------------
# The dice


def dice_scene(state, width: int = 250, height: int = 92) -> Scene:
    """The Sun and Wind dice as they lie now, with the three valid Wind directions."""
    scene = Scene(width, height, background=palette.BACKGROUND)
    face = 64
    rolled_sun, rolled_wind = state.sun is not None, state.wind is not None
    boxes = [[(10, 14), (10 + face, 14), (10 + face, 14 + face), (10, 14 + face)],
             [(90, 14), (90 + face, 14), (90 + face, 14 + face), (90, 14 + face)]]
    fills = ["#FFF6B0" if rolled_sun else "#EEEEEE", "#D7ECF8" if rolled_wind else "#EEEEEE"]
    scene.add(Polygons(as_points(boxes), colours(fills), stroke=palette.INK, line_width=2.0))
    scene.add(Texts([(42, 8, "Sun"), (122, 8, "Wind")], font="11px sans-serif", colour=palette.MUTED_INK))
    scene.add(Texts([(42, 47, str(state.sun) if rolled_sun else "?")], font="bold 34px sans-serif",
                    colour=palette.INK))
    if rolled_wind:
        angle = direction_angle(state.wind)
        cx, cy = 122, 46
        start = (cx - 20 * math.cos(angle), cy - 20 * math.sin(angle))
        scene.add(Polygons(as_points([arrow_polygon(*start, angle, 40, 10)]), colours([WIND_ROLLED]),
                           stroke=palette.INK, line_width=1.0))
        scene.add(Texts([(122, 71, state.wind.name)], font="bold 11px sans-serif", colour=palette.INK))
        valid = " · ".join(d.name for d in state.valid_winds())
        scene.add(Texts([(170, 36, "Grow out:"), (170, 56, valid)], font="13px sans-serif", colour=palette.INK,
                        align="left"))
    else:
        scene.add(Texts([(122, 47, "?")], font="bold 34px sans-serif", colour=palette.INK))
        scene.add(Texts([(170, 46, "not rolled")], font="13px sans-serif", colour=palette.MUTED_INK, align="left"))
    return scene


def overview_scene(state) -> Scene:
    """The board small and plain, as the teacher overview draws a table (no highlighted targets)."""
    return game_scene(state, HexGeometry(), show_targets=False)
