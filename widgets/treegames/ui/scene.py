"""A picture as plain data: batched drawing operations computed from a state without a browser.

A :class:`Scene` is an ordered list of operations.  Each operation batches many
shapes of one kind, so the whole picture goes to the browser in one message.
Tests inspect scenes directly (what is drawn where, in which colour).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .chart_numbers import ChartNumbers
from .palette import hex_to_rgb


@dataclass
class Polygons:
    """Many polygons with the same number of corners, filled and/or outlined."""

    points: np.ndarray  # shape (n, corners, 2)
    fill: np.ndarray | None = None  # shape (n, 3) uint8, or None for outline only
    stroke: str | None = None
    line_width: float = 1.0
    alpha: float = 1.0
    tags: tuple = ()  # one tag per polygon (e.g. the hex it draws), for tests and hit-testing


@dataclass
class Segments:
    """Many straight line segments in one colour."""

    points: np.ndarray  # shape (n, 2, 2)
    stroke: str
    line_width: float = 1.0


@dataclass
class Circles:
    """Many filled circles, each with its own colour."""

    centres: np.ndarray  # shape (n, 2)
    radii: np.ndarray  # shape (n,)
    fill: np.ndarray  # shape (n, 3) uint8
    stroke: str | None = None
    line_width: float = 1.0


@dataclass
class Texts:
    """Many labels in one font and colour."""

    items: list[tuple[float, float, str]]
    font: str = "12px sans-serif"
    colour: str = "#000000"
    align: str = "center"
    baseline: str = "middle"


@dataclass
class Scene:
    """An ordered list of batched drawing operations on a canvas of a fixed size."""

    width: int
    height: int
    background: str = "#FFFFFF"
    ops: list = field(default_factory=list)
    numbers: ChartNumbers | None = None
    """A chart's numbers as a table (its text equivalent), set by the chart's scene function; None for boards."""

    def add(self, op) -> Scene:
        """Append one operation (skipping empty ones) and return the scene."""
        if _size(op):
            self.ops.append(op)
        return self

    def texts(self) -> list[str]:
        """Every label in the scene, in drawing order."""
        return [t for op in self.ops if isinstance(op, Texts) for _, _, t in op.items]

    def text_boxes(self) -> list[tuple[str, tuple[float, float, float, float]]]:
        """Each label with its approximate box (left, top, right, bottom) in canvas pixels."""
        return [(t, text_box(op, x, y, t)) for op in self.ops if isinstance(op, Texts) for x, y, t in op.items]

    def to_svg(self) -> str:
        """The same picture as an SVG document (for handouts and the README pictures)."""
        from .svg import scene_to_svg

        return scene_to_svg(self)


def font_pixels(font: str) -> float:
    """The pixel size in a CSS font string such as 'bold 12px sans-serif'."""
    for part in font.split():
        if part.endswith("px"):
            return float(part[:-2])
    return 12.0


def text_box(op: Texts, x: float, y: float, text: str) -> tuple[float, float, float, float]:
    """An approximate box around one label (average glyph 0.6 em wide; bold 0.65 em)."""
    size = font_pixels(op.font)
    width = len(text) * size * (0.65 if "bold" in op.font else 0.6)
    left = {"center": x - width / 2, "right": x - width, "end": x - width}.get(op.align, x)
    top = {"middle": y - size / 2, "top": y, "hanging": y, "bottom": y - size}.get(op.baseline, y - size * 0.8)
    return (left, top, left + width, top + size)


def _size(op) -> int:
    """How many shapes an operation draws."""
    if isinstance(op, Polygons | Segments):
        return len(op.points)
    if isinstance(op, Circles):
        return len(op.centres)
    return len(op.items)


def colours(names: list[str]) -> np.ndarray:
    """An (n, 3) uint8 array from '#rrggbb' strings."""
    if not names:
        return np.zeros((0, 3), dtype=np.uint8)
    return np.array([hex_to_rgb(c) for c in names], dtype=np.uint8)


def solid(colour: str, n: int) -> np.ndarray:
    """An (n, 3) uint8 array of one '#rrggbb' colour."""
    return np.tile(np.array(hex_to_rgb(colour), dtype=np.uint8), (n, 1))


def as_points(polygons: list[list[tuple[float, float]]]) -> np.ndarray:
    """An (n, corners, 2) float array from lists of (x, y) corners."""
    if not polygons:
        return np.zeros((0, 3, 2), dtype=np.float64)
    return np.asarray(polygons, dtype=np.float64).reshape(len(polygons), -1, 2)
