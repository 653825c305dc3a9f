"""The Aspens board as a Scene: hex geometry on screen, hit-testing, and the board picture.

Pure computation (numpy only), so tests check the picture without a browser.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

from ..aspens.board import DIRECTIONS, RADIUS, Board, Hex, cell_name, distance, hex_center, hex_corners
from . import palette
from .scene import Polygons, Scene, Segments, Texts, as_points, colours

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
