"""Canvases: a Scene sent in one batched message, never blank in Voila, clicks and keys delivered safely.

This is the ONE module that touches ipycanvas internals (``_canvas_manager``,
``send_draw_command``, ``COMMANDS``, ``_handle_frontend_event``).  Why:

* ipycanvas has no batched text command, so labels are queued straight into
  the held message (``send_draw_command`` with ``COMMANDS["fillText"]``);
* ipycanvas remembers which canvas its last command targeted; a page that
  connects later (Voila renders widgets after the notebook ran) never heard that
  'switch canvas', so every frame forgets the target first and is complete alone;
* a client may send any event content: :class:`KitCanvas` guards the event
  parser itself, so junk never raises in the kernel;
* tests and benchmarks count comm messages through :func:`capture_messages`,
  play a client's event through :func:`client_event` and list a canvas's event
  callbacks through :func:`event_callbacks`, instead of reaching into ipycanvas.

Every other module (tests included) uses the public names here.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

import numpy as np
from ipycanvas import Canvas, hold_canvas
from ipycanvas.canvas import COMMANDS
from ipywidgets import HTML, Layout
from traitlets import Unicode

from .chart_numbers import numbers_html, numbers_title
from .panels import Collapsible
from .safety import finite_point, guarded, log
from .scene import Circles, Polygons, Scene, Segments, Texts

MAX_KEY_LENGTH = 20
"""Longest key name accepted from a client ('ArrowRight' and friends are shorter)."""


class KitCanvas(Canvas):
    """An ipycanvas Canvas whose front-end event parser is guarded (a malformed event is ignored and logged).

    It also carries an (empty) ``description``: ipywidgets' view reads one before it writes a ``tooltip`` as
    the element's title, and ipycanvas' model has none, so without it a tooltip breaks the view.  With it, the
    tooltip becomes the canvas' accessible name.
    """

    description = Unicode("", help="Empty: lets ipywidgets write the tooltip as the canvas' title.").tag(sync=True)

    def _handle_frontend_event(self, _, content, buffers):
        """ipycanvas' parser, but a malformed event from a client is logged and dropped."""
        try:
            super()._handle_frontend_event(_, content, buffers)
        except Exception:  # noqa: BLE001 - any junk a client sends
            log.warning("ignored a malformed canvas event: %.200r", content, exc_info=True)


def make_canvas(width: int, height: int) -> KitCanvas:
    """A canvas with an explicit pixel size; CSS (ui.styles) may scale it down to fit a phone."""
    canvas = KitCanvas(width=width, height=height,
                       layout=Layout(width=f"{width}px", height=f"{height}px", flex="0 0 auto"))
    canvas.add_class("treegames-canvas")
    return canvas


def draw_scene(canvas: Canvas, scene: Scene) -> None:
    """Draw ``scene`` on ``canvas`` in one pass inside hold_canvas (one comm message), naming its canvas again.

    Drawing styles are sent only when they change within the frame (each frame still sets every style it
    uses at least once, so it is complete on its own for a page that connects later).  ipycanvas' styled
    (per-shape colour) commands save and restore the context, so they leave the styles as they were.
    """
    canvas._canvas_manager._current_canvas = None
    pen: dict[str, object] = {}
    with hold_canvas():
        canvas.clear()
        _style(canvas, pen, "fill_style", scene.background)
        canvas.fill_rect(0, 0, scene.width, scene.height)
        for op in scene.ops:
            _DRAW[type(op)](canvas, op, pen)


def _style(canvas: Canvas, pen: dict, name: str, value) -> None:
    """Queue one canvas style (fill_style, font, ...) unless this frame already set it to ``value``.

    The 'set' command is queued directly, as ipycanvas' own ``__setattr__`` would queue it, but without
    the trait machinery (validation and change notification cost a third of a busy frame); the Python-side
    trait is not updated, and nothing reads it: every frame sets each style it uses.
    """
    if pen.get(name, _UNSET) != value:
        if name == "line_width":
            value = float(value)
        canvas._canvas_manager.send_command(canvas, [COMMANDS["set"], [Canvas.ATTRS[name], value]])
        pen[name] = value


_UNSET = object()


def _f32(values) -> np.ndarray:
    """Coordinates as 32-bit floats for the wire: half the bytes of a frame, and a board's pixels are off by
    less than a thousandth (the scene itself, and so its SVG, keeps 64-bit floats)."""
    return np.asarray(values, dtype=np.float32)


def _draw_polygons(canvas: Canvas, op: Polygons, pen: dict) -> None:
    """Batched fill and/or outline of same-sized polygons."""
    if op.fill is not None:
        canvas.fill_styled_polygons(_f32(op.points), op.fill, alpha=op.alpha)
    if op.stroke is not None:
        _style(canvas, pen, "stroke_style", op.stroke)
        _style(canvas, pen, "line_width", op.line_width)
        canvas.stroke_polygons(_f32(op.points))


def _draw_segments(canvas: Canvas, op: Segments, pen: dict) -> None:
    """Batched straight lines."""
    _style(canvas, pen, "stroke_style", op.stroke)
    _style(canvas, pen, "line_width", op.line_width)
    canvas.stroke_line_segments(_f32(op.points))


def _draw_circles(canvas: Canvas, op: Circles, pen: dict) -> None:
    """Batched filled circles, optionally outlined."""
    canvas.fill_styled_circles(_f32(op.centres[:, 0]), _f32(op.centres[:, 1]), _f32(op.radii), op.fill)
    if op.stroke is not None:
        _style(canvas, pen, "stroke_style", op.stroke)
        _style(canvas, pen, "line_width", op.line_width)
        canvas.stroke_circles(_f32(op.centres[:, 0]), _f32(op.centres[:, 1]), _f32(op.radii))


def _draw_texts(canvas: Canvas, op: Texts, pen: dict) -> None:
    """Labels in one font and colour, queued straight into the held message (ipycanvas has no batched text)."""
    _style(canvas, pen, "font", op.font)
    _style(canvas, pen, "fill_style", op.colour)
    _style(canvas, pen, "text_align", op.align)
    _style(canvas, pen, "text_baseline", op.baseline)
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


@contextlib.contextmanager
def capture_messages(canvas: Canvas) -> Iterator[list]:
    """Inside the block, comm messages the canvas layer would send are collected in the yielded list instead."""
    manager = canvas._canvas_manager
    sent: list = []
    original = manager.send
    manager.send = lambda *a, **k: sent.append(a)
    try:
        yield sent
    finally:
        manager.send = original


@contextlib.contextmanager
def capture_batches(canvas: Canvas, buffers: bool = False) -> Iterator[list]:
    """Inside the block, each batched frame's command list is collected in the yielded list (not sent);
    with ``buffers``, each frame is collected as (command list, its binary buffers)."""
    manager = canvas._canvas_manager
    batches: list = []
    original = manager._send_custom
    manager._send_custom = lambda command, sent=(): batches.append((command, list(sent)) if buffers else command)
    try:
        yield batches
    finally:
        manager._send_custom = original


def is_switch_command(command) -> bool:
    """True if a batched command names its target canvas (what a late-connecting page needs first)."""
    return command[0] == COMMANDS["switchCanvas"]


EVENT_DISPATCHERS = ("_mouse_down_callbacks", "_mouse_up_callbacks", "_mouse_move_callbacks", "_key_down_callbacks",
                     "_touch_start_callbacks", "_client_ready_callbacks")
"""The ipycanvas callback lists a visitor's events reach."""


def event_callbacks(widget) -> list[tuple[str, Callable]]:
    """(kind, callback) for every canvas event callback registered on ``widget`` (none for other widgets)."""
    found = []
    for name in EVENT_DISPATCHERS:
        for cb in getattr(getattr(widget, name, None), "callbacks", []):
            found.append((name.strip("_"), cb))
    return found


def client_event(canvas: Canvas, content: dict) -> None:
    """Deliver one event message exactly as a page's canvas would send it (tests use this for junk and NaN)."""
    canvas._handle_frontend_event(None, content, [])


class SceneCanvas:
    """A canvas bound to a scene-making function: redrawn on demand and for every connecting page.

    ``on_click(fn)`` calls ``fn(x, y)`` (guarded) with finite canvas pixels only:
    NaN, infinite or non-numeric coordinates from a client are ignored.
    ``on_key(fn)`` calls ``fn(key, shift)`` (guarded) for keys pressed while the canvas has focus.
    ``numbers`` is the chart's text equivalent (the table of ``Scene.numbers`` in a section its button opens),
    rewritten on every redraw without closing it: put it right after the canvas.
    """

    def __init__(self, width: int, height: int, make_scene: Callable[[], Scene], draw_now: bool = True,
                 report: Callable[[str], object] | None = None):
        self.canvas = make_canvas(width, height)
        self.make_scene = make_scene
        self.report = report
        self.frames = 0
        self.last_scene: Scene | None = None
        self._numbers: Collapsible | None = None
        self.canvas.on_client_ready(guarded(self.redraw, report=report))
        if draw_now:
            self.redraw()  # for a front end already listening (JupyterLab); safe for later pages too

    def on_connect(self, fn: Callable[[], object]) -> None:
        """Call ``fn()`` (guarded) each time a page's view of this canvas is ready (a page has connected)."""
        self.canvas.on_client_ready(guarded(lambda: fn(), report=self.report))

    def redraw(self) -> Scene:
        """Compute the scene now and send it; return it (tests look at it)."""
        scene = self.make_scene()
        draw_scene(self.canvas, scene)
        self.frames += 1
        self.last_scene = scene
        if self._numbers is not None:
            self._show_numbers(scene)
        return scene

    @property
    def numbers(self) -> Collapsible:
        """The chart's numbers as a table in a section its button opens (made on first use; boards that never
        ask pay nothing).  Its ``body`` is the table's HTML widget."""
        if self._numbers is None:
            table = HTML(layout=Layout(max_width="100%"))
            self._numbers = Collapsible("the numbers", table, says_state=True)
            self._numbers.add_class("treegames-chart-numbers-box")
            self._numbers.layout.display = "none"
            if self.last_scene is not None:
                self._show_numbers(self.last_scene)
        return self._numbers

    def _show_numbers(self, scene: Scene) -> None:
        """Write the scene's numbers table (only when it changed; an open table stays open), name its button and
        the canvas after the chart, and hide the section for a scene with no numbers."""
        box, text = self._numbers, numbers_html(scene.numbers)
        if box.body.value != text:
            box.body.value = text
        shown = None if scene.numbers is not None else "none"
        if box.layout.display != shown:
            box.layout.display = shown
        if scene.numbers is not None:
            title = numbers_title(scene.numbers)
            if box.title != title:
                box.set_title(title)
            name = f"Chart: {scene.numbers.caption}. Its numbers are in a table under it, behind the Show the numbers button."
            if self.canvas.tooltip != name:
                self.canvas.tooltip = name

    def on_click(self, fn: Callable[[float, float], object]) -> None:
        """Call ``fn(x, y)`` on a mouse press at finite canvas pixel coordinates (guarded)."""

        def clicked(x, y):
            point = finite_point(x, y)
            if point is None:
                log.info("ignored a canvas click at non-finite coordinates %.40r, %.40r", x, y)
                return None
            return fn(*point)

        self.canvas.on_mouse_down(guarded(clicked, report=self.report))

    def on_key(self, fn: Callable[[str, bool], object]) -> None:
        """Call ``fn(key, shift)`` for a key pressed while the canvas has focus (guarded; junk ignored)."""

        def pressed(key, shift_key=False, ctrl_key=False, meta_key=False):
            if not isinstance(key, str) or not key or len(key) > MAX_KEY_LENGTH or ctrl_key or meta_key:
                return None
            return fn(key, bool(shift_key))

        self.canvas.on_key_down(guarded(pressed, report=self.report))
        self.canvas.add_class("treegames-keys")  # the page keeps only canvases that take keys in the Tab order

    def focus(self) -> None:
        """Ask the page to give the canvas keyboard focus."""
        self.canvas.focus()
