"""Send a Scene to an ipycanvas Canvas in one batched message, and make canvases that Voila never leaves blank."""

from __future__ import annotations

from collections.abc import Callable

from ipycanvas import Canvas, hold_canvas
from ipycanvas.canvas import COMMANDS
from ipywidgets import Layout

from .scene import Circles, Polygons, Scene, Segments, Texts


def make_canvas(width: int, height: int) -> Canvas:
    """A canvas with an explicit pixel Layout, so a surrounding box never stretches it."""
    return Canvas(
        width=width,
        height=height,
        layout=Layout(width=f"{width}px", height=f"{height}px", min_width=f"{width}px", flex="0 0 auto"),
    )


def draw_scene(canvas: Canvas, scene: Scene) -> None:
    """Draw ``scene`` on ``canvas`` in one pass inside hold_canvas (one comm message).

    ipycanvas remembers which canvas its last command targeted and only says so
    again when the target changes.  A page that connects later (Voila renders the
    widgets after the notebook ran) never heard the first 'switch canvas', so
    every frame starts by forgetting the target: the frame is then complete on
    its own, whoever receives it.
    """
    canvas._canvas_manager._current_canvas = None
    with hold_canvas():
        canvas.clear()
        canvas.fill_style = scene.background
        canvas.fill_rect(0, 0, scene.width, scene.height)
        for op in scene.ops:
            _DRAW[type(op)](canvas, op)


def _draw_polygons(canvas: Canvas, op: Polygons) -> None:
    """Batched fill and/or outline of same-sized polygons."""
    if op.fill is not None:
        canvas.fill_styled_polygons(op.points, op.fill, alpha=op.alpha)
    if op.stroke is not None:
        canvas.stroke_style = op.stroke
        canvas.line_width = op.line_width
        canvas.stroke_polygons(op.points)


def _draw_segments(canvas: Canvas, op: Segments) -> None:
    """Batched straight lines."""
    canvas.stroke_style = op.stroke
    canvas.line_width = op.line_width
    canvas.stroke_line_segments(op.points)


def _draw_circles(canvas: Canvas, op: Circles) -> None:
    """Batched filled circles, optionally outlined."""
    canvas.fill_styled_circles(op.centres[:, 0], op.centres[:, 1], op.radii, op.fill)
    if op.stroke is not None:
        canvas.stroke_style = op.stroke
        canvas.line_width = op.line_width
        canvas.stroke_circles(op.centres[:, 0], op.centres[:, 1], op.radii)


def _draw_texts(canvas: Canvas, op: Texts) -> None:
    """Labels in one font and colour, queued straight into the held message (ipycanvas has no batched text)."""
    canvas.font = op.font
    canvas.fill_style = op.colour
    canvas.text_align = op.align
    canvas.text_baseline = op.baseline
    send = canvas._canvas_manager.send_draw_command
    fill_text = COMMANDS["fillText"]
    for x, y, text in op.items:
        send(canvas, fill_text, [text, float(x), float(y)])


_DRAW: dict[type, Callable] = {
    Polygons: _draw_polygons,
    Segments: _draw_segments,
    Circles: _draw_circles,
    Texts: _draw_texts,
}


class SceneCanvas:
    """A canvas bound to a scene-making function: redrawn on demand and for every connecting page."""

    def __init__(self, width: int, height: int, make_scene: Callable[[], Scene], draw_now: bool = True):
        self.canvas = make_canvas(width, height)
        self.make_scene = make_scene
        self.frames = 0
        self.canvas.on_client_ready(self.redraw)
        if draw_now:
            self.redraw()  # for a front end already listening (JupyterLab); safe for later pages too

    def redraw(self) -> Scene:
        """Compute the scene now and send it; return it (tests look at it)."""
        scene = self.make_scene()
        draw_scene(self.canvas, scene)
        self.frames += 1
        return scene

