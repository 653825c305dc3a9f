"""The board explorer dashboard: pick a setup, see the water layout, click a hex to learn about it."""

from __future__ import annotations

import ipywidgets as widgets

from ...aspens import SETUPS, Hex, make_board
from .. import safety
from ..canvas import SceneCanvas
from ..saving import download_link
from ..styles import stylesheet
from ..text import message_box
from .scene import HexGeometry, board_scene, describe_hex


class BoardExplorer(widgets.VBox):
    """Setup selector, the drawn board, the playable count, and what a clicked hex is."""

    def __init__(self, setup: int = 2, size: float = 19.0):
        self.geo = HexGeometry(size=size)
        self.board = make_board(setup)
        self.selected: Hex | None = None
        self.clicked: Hex | None = None
        self.info = widgets.HTML("Click a hex to see its name, tile and neighbours.")
        self.view = SceneCanvas(self.geo.width, self.geo.height, self.scene, report=self.report_failure)
        self.view.canvas.add_class("treegames-board-canvas")
        self.view.on_click(self.click)
        self.setup_picker = widgets.ToggleButtons(
            options=[(f"Setup {s}", s) for s in SETUPS], value=setup, description="Water layout:",
            style={"button_width": "78px", "description_width": "initial"},
        )
        self.setup_picker.add_class("treegames-wrap")
        safety.observe(self.setup_picker, self.choose_setup, report=self.report_failure)
        self.summary = widgets.HTML()
        self.picture_link = widgets.HTML()
        self._update_summary()
        super().__init__([self.setup_picker, self.summary, self.view.canvas, self.info, stylesheet(),
                          self.picture_link])
        self.add_class("treegames-board-explorer")
        self.add_class("treegames-dashboard")

    def scene(self):
        """The picture for the current setup and selection."""
        return board_scene(self.board, self.geo, self.selected)

    def choose_setup(self, setup: int) -> None:
        """Show another setup's water layout (keeping the selected hex, described anew for this setup)."""
        self.board = make_board(setup)
        self._update_summary()
        if self.clicked is not None:
            self.info.value = describe_hex(self.board, self.clicked)
        self.view.redraw()

    def click(self, x: float, y: float) -> None:
        """Select the hex under a canvas click and describe it."""
        cell = self.geo.hex_at(x, y)
        self.info.value = describe_hex(self.board, cell)
        self.selected = cell if cell in self.board else None
        self.clicked = self.selected
        self.view.redraw()

    def report_failure(self, text: str) -> None:
        """Show a friendly failure sentence (safety.guarded calls this)."""
        self.info.value = message_box(text, error=True)

    def _update_summary(self) -> None:
        """Counts under the selector, and the Save picture link for this setup."""
        b = self.board
        self.summary.value = (
            f"<b>{len(b.cells)}</b> hexes on 7 tiles, <b>{len(b.water)}</b> water tiles, "
            f"<b>{len(b.playable)}</b> playable spaces"
        )
        setup = self.setup_picker.value if hasattr(self, "setup_picker") else None
        name = f"aspens-board-setup-{setup}.svg" if setup else "aspens-board.svg"
        self.picture_link.value = download_link(board_scene(self.board, self.geo).to_svg(), name,
                                                "Save picture", mime="image/svg+xml", icon="picture")
