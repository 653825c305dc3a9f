"""The board explorer widget without a browser: scene contents, clicks through the real handler, one message per frame."""

from __future__ import annotations

import numpy as np
import pytest

from treegames.aspens import make_board
from treegames.aspens.data import Hex
from treegames.ui import palette
from treegames.ui.aspens.board import BoardExplorer
from treegames.ui.aspens.scene import HexGeometry, board_scene
from treegames.ui.canvas import capture_batches, capture_messages, is_switch_command
from treegames.ui.scene import Polygons


def hex_layer(scene):
    """The polygon layer that draws one hex per board cell."""
    return next(op for op in scene.ops if isinstance(op, Polygons) and len(op.tags) == 151)


def test_scene_draws_every_hex_with_water_coloured():
    board, geo = make_board(5), HexGeometry()
    layer = hex_layer(board_scene(board, geo))
    water_rgb = palette.hex_to_rgb(palette.WATER)
    for cell, rgb in zip(layer.tags, layer.fill, strict=True):
        assert (tuple(rgb) == water_rgb) == (cell in board.water)


def test_scene_fits_the_canvas():
    geo = HexGeometry()
    layer = hex_layer(board_scene(make_board(2), geo))
    assert layer.points[..., 0].min() > 0 and layer.points[..., 0].max() < geo.width
    assert layer.points[..., 1].min() > 0 and layer.points[..., 1].max() < geo.height


def test_compass_and_row_labels_are_drawn():
    labels = board_scene(make_board(2), HexGeometry()).texts()
    assert {"E", "NE", "NW", "W", "SW", "SE"} <= set(labels)
    assert set("ABCDEFGHIJKLMNO") <= set(labels) and {"1", "15"} <= set(labels)


@pytest.mark.parametrize("cell", [Hex(0, 0), Hex(3, -5), Hex(-6, 2), Hex(2, 5)])
def test_hit_testing_finds_the_hex_under_its_centre_and_near_its_corners(cell):
    geo = HexGeometry()
    assert geo.hex_at(*geo.center(cell)) == cell
    for x, y in geo.corners(cell, shrink=0.8):
        assert geo.hex_at(x, y) == cell


def test_clicking_a_hex_selects_and_describes_it():
    explorer = BoardExplorer()
    explorer.click(*explorer.geo.center(Hex(0, 0)))
    assert explorer.selected == Hex(0, 0)
    assert "H8" in explorer.info.value and "centre" in explorer.info.value
    outlines = [op for op in explorer.scene().ops if isinstance(op, Polygons) and op.tags == (Hex(0, 0),)]
    assert outlines, "the selected hex is outlined"


def test_clicking_off_the_board_explains_and_selects_nothing():
    explorer = BoardExplorer()
    explorer.click(2, 2)
    assert explorer.selected is None and "off the board" in explorer.info.value


def test_setup_selector_changes_board_and_counts():
    explorer = BoardExplorer()
    explorer.setup_picker.value = 6
    assert explorer.board == make_board(6)
    assert "147" in explorer.summary.value and "4</b> water" in explorer.summary.value


def test_canvas_has_an_explicit_size():
    canvas = BoardExplorer().view.canvas
    assert canvas.layout.width == f"{canvas.width}px" and canvas.layout.height == f"{canvas.height}px"


def test_each_frame_is_one_comm_message():
    explorer = BoardExplorer()
    with capture_messages(explorer.view.canvas) as sent:
        explorer.view.redraw()
        explorer.click(*explorer.geo.center(Hex(1, 1)))
    assert len(sent) == 2


def test_every_frame_names_its_canvas_again():
    """The Voila trap: a page connecting later must still learn which canvas a frame targets."""
    explorer = BoardExplorer()
    with capture_batches(explorer.view.canvas) as sent:
        explorer.view.redraw()
        explorer.view.redraw()
    assert len(sent) == 2
    for batch in sent:
        assert is_switch_command(batch[0])


def test_a_frame_sends_its_coordinates_as_32_bit_floats():
    """Half the bytes of 64-bit floats on the wire, and each point within a thousandth of a pixel of the scene's."""
    explorer = BoardExplorer()
    with capture_batches(explorer.view.canvas, buffers=True) as frames:
        scene = explorer.view.redraw()
    [(_commands, buffers)] = frames
    formats = {memoryview(b).format for b in buffers}
    assert "f" in formats and "d" not in formats, formats
    hexes = hex_layer(scene).points  # the scene keeps 64-bit floats (its SVG too)
    sent = [np.frombuffer(b, dtype=np.float32) for b in buffers
            if memoryview(b).format == "f" and memoryview(b).nbytes == hexes.size * 4]
    assert sent and np.abs(sent[0] - hexes.ravel()).max() < 1e-3
    assert sum(memoryview(b).nbytes for b in buffers) < 25_000


def test_points_are_float_arrays():
    layer = hex_layer(board_scene(make_board(2), HexGeometry()))
    assert layer.points.shape == (151, 6, 2) and layer.points.dtype == np.float64
