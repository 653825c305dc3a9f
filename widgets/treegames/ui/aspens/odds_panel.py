"""The play widget's Odds tab: the production chart for the position on screen, both players' exact gains, and a simulator."""

from __future__ import annotations

import random

import ipywidgets as widgets

from ...aspens import PLAYER_NAMES
from ..panels import Collapsible
from .lesson import DistributionPanel, GainSimulator, production_table_html
from .scene import PLAYER_COLOURS


class OddsPanel(widgets.VBox):
    """Exact odds of the next Sun roll for the position shown; redrawn only when the stacks change."""

    def __init__(self, seed: int = 0):
        self.table = widgets.HTML()
        self.intro = widgets.HTML(
            "<div style='font-size:13px'>The next Sun roll, exactly: each space with at least the Sun value "
            "gives its owner one tree (2. Gain Trees). The player whose turn it is also gets +1 bonus, "
            "not counted below.</div>")
        self.panels = [DistributionPanel([], title=f"{name}: trees gained next roll", colour=PLAYER_COLOURS[p],
                                         width=440, height=230)
                       for p, name in enumerate(PLAYER_NAMES)]
        self.simulator = GainSimulator([], random.Random(seed), title="Simulated rolls vs exact", width=440,
                                       height=230)  # default blue exact bars, never too close to vermillion
        self.stacks: tuple | None = None
        self.pending = None
        self.visible = False
        self.sections = [Collapsible("Production chart (rulebook vs exact)", self.table),
                         Collapsible("Roll it yourself: simulation vs exact", self.simulator)]
        super().__init__([self.intro, *self.panels, *self.sections])

    def show(self, state) -> None:
        """Follow the state on screen (cheaply: nothing is redrawn while the tab is hidden or the stacks are unchanged)."""
        self.pending = state
        if self.visible:
            self._update(state)

    def set_visible(self, visible: bool) -> None:
        """The Odds tab was opened or closed."""
        self.visible = visible
        if visible and self.pending is not None:
            self._update(self.pending)

    def _update(self, state) -> None:
        """Recompute the charts if any stack height changed."""
        stacks = tuple(tuple(sorted(state.stacks(p), reverse=True)) for p in range(2))
        if stacks == self.stacks:
            return
        self.stacks = stacks
        heights = set(stacks[0]) | set(stacks[1])
        self.table.value = production_table_html(highlight=heights)
        for p, panel in enumerate(self.panels):
            panel.set_stacks(list(stacks[p]))
        mover = state.current_player if state.current_player in (0, 1) else 0
        self.simulator.title = f"{PLAYER_NAMES[mover]}: simulated rolls vs exact"
        self.simulator.set_stacks(list(stacks[mover]))
