"""The Aspens board as a Scene: hex geometry on screen, hit-testing, and the board picture.

Pure computation (numpy only), so tests check the picture without a browser.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

import numpy as np

from ..aspens.data import DIRECTIONS, RADIUS, Board, Hex, cell_name, distance, hex_center, hex_corners
from . import palette
from .scene import Circles, Polygons, Scene, Segments, Texts, as_points, colours, solid

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
        Texts(compass, font="bold 15px sans-serif", colour=palette.INK),
    ]


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
        return f"That point is off the board (axial {cell.q}, {cell.r})."
    kind = "water tile (never playable)" if board.is_water(cell) else "playable space"
    near = ", ".join(f"{d.name} {cell_name(n)}{' (water)' if board.is_water(n) else ''}"
                     for d in DIRECTIONS if (n := board.neighbor(cell, d)) is not None)
    return (f"<b>{cell_name(cell)}</b>: {kind} on the <b>{board.tile_of(cell)}</b> tile; axial (q={cell.q}, "
            f"r={cell.r}), {distance(cell)} steps from the centre.<br>Neighbours: {near}.")


# --------------------------------------------------------------------------
# A game in progress: owners, stacks, legal targets, wind, last move, cascades

PLAYER_COLOURS = (palette.ORANGE, palette.BLUE)
"""Aspen orange, Pine blue: the Okabe-Ito pair that stays apart under colour blindness."""
PLAYER_TINTS = ("#F8DFA6", "#A9CDE6")
"""Light tints of the player colours for the hexes they own."""
TOKEN_INK = (palette.BLACK, "#FFFFFF")
"""Stack-number colour on each player's token, for contrast."""
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


def wind_arrows(state, geo: HexGeometry) -> list:
    """Arrows at the compass points for the three valid Wind directions (the rolled one bold)."""
    winds = state.valid_winds()
    if not winds:
        return []
    arrows, colours_ = [], []
    for d in winds:
        x, y = geo.center(Hex(d.delta[0] * (RADIUS + 1), d.delta[1] * (RADIUS + 1)))
        angle = direction_angle(d)
        back = 36.0
        start = (x - back * math.cos(angle) - 6 * math.sin(angle), y - back * math.sin(angle))
        arrows.append(arrow_polygon(start[0], start[1], angle, 20.0, 7.0 if d is state.wind else 5.0))
        colours_.append(palette.VERMILLION if d is state.wind else palette.REDDISH_PURPLE)
    return [Polygons(as_points(arrows), colours(colours_), stroke=palette.INK, line_width=0.8)]


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
    scene.add(Polygons(shrunk(board, geo, cascade, 0.86), None, stroke=palette.REDDISH_PURPLE, line_width=2.0,
                       tags=tuple(cascade)))
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
