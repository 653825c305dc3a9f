"""The board explorer dashboard: pick a setup, see the water layout, click a hex to learn about it."""

from __future__ import annotations

import ipywidgets as widgets

from ..aspens.data import SETUPS, Hex, make_board
from .aspens_scene import HexGeometry, board_scene, describe_hex
from .canvas import SceneCanvas


class BoardExplorer(widgets.VBox):
    """Setup selector, the drawn board, the playable count, and what a clicked hex is."""

    def __init__(self, setup: int = 2, size: float = 19.0):
        self.geo = HexGeometry(size=size)
        self.board = make_board(setup)
        self.selected: Hex | None = None
        self.view = SceneCanvas(self.geo.width, self.geo.height, self.scene)
        self.view.canvas.on_mouse_down(self.click)
        self.setup_picker = widgets.ToggleButtons(
            options=[(f"Setup {s}", s) for s in SETUPS], value=setup, description="Water layout:",
            style={"button_width": "78px"},
        )
        self.setup_picker.observe(self._on_setup, names="value")
        self.summary = widgets.HTML()
        self.info = widgets.HTML("Click a hex to see its name, tile and neighbours.")
        self._update_summary()
        super().__init__([self.setup_picker, self.summary, self.view.canvas, self.info])
        self.add_class("treegames-board-explorer")

    def scene(self):
        """The picture for the current setup and selection."""
        return board_scene(self.board, self.geo, self.selected)

    def choose_setup(self, setup: int) -> None:
        """Show another setup's water layout (keeps the selected hex)."""
        self.board = make_board(setup)
        self._update_summary()
        self.view.redraw()

    def click(self, x: float, y: float) -> None:
        """Select the hex under a canvas click and describe it."""
        cell = self.geo.hex_at(x, y)
        self.info.value = describe_hex(self.board, cell)
        self.selected = cell if cell in self.board else None
        self.view.redraw()

    def _on_setup(self, change) -> None:
        """The setup selector moved."""
        self.choose_setup(change["new"])

    def _update_summary(self) -> None:
        """Counts under the selector."""
        b = self.board
        self.summary.value = (
            f"<b>{len(b.cells)}</b> hexes on 7 tiles, <b>{len(b.water)}</b> water tiles, "
            f"<b>{len(b.playable)}</b> playable spaces"
        )
