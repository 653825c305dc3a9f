"""The Bosk rules walkthrough on the play dashboard: a seeded 3-player game stepped from setup to the result.

The walkthrough *is* the play dashboard (the kit's GameDashboard through
:class:`~treegames.ui.bosk.play.BoskPlay`) holding the whole seeded game in its
timeline, with the cursor at the start: Forward / Back / the event log move
through it, chapter buttons jump to each season, and a caption gives the step's
rulebook part and our note (``steps.walkthrough_steps``).  The engine's words
("Just happened" / "Now") and the summer and winter tables come with the
dashboard.  Legal targets are drawn at every step, whoever moves.
"""

from __future__ import annotations

import random

import ipywidgets as widgets

from ... import bosk, core
from ...bosk import Kind, TurnEnd
from .. import safety
from ..canvas import SceneCanvas
from ..styles import icon_button
from ..text import escape
from .play import BoskPlay
from .scene import Marks, ParkGeometry, legend_scene, park_scene
from .steps import CHAPTERS, WALKTHROUGH_LINEUP, WALKTHROUGH_SEED, chapter_starts, walkthrough_steps


class BoskWalkthrough(BoskPlay):
    """Forward and Back through a seeded 3-player game, every step drawn, explained and placed in the rulebook."""

    def __init__(self, seed: int = WALKTHROUGH_SEED, lineup: tuple = WALKTHROUGH_LINEUP):
        self.script = walkthrough_steps(seed, lineup)
        self.starts = chapter_starts(self.script)
        self.caption = widgets.HTML(layout=widgets.Layout(width="100%"))
        self.caption.add_class("bosk-walkthrough-caption")
        self.chapter_buttons = [widgets.Button(description=name, layout=widgets.Layout(width="auto"),
                                               tooltip=f"Jump to the first step of {name}") for name in CHAPTERS]
        self.end_button = icon_button("Result", "last", tooltip="Jump to the final result")
        super().__init__(players=3, seed=seed, seats=tuple(lineup), answer=False)
        for name, b in zip(CHAPTERS, self.chapter_buttons, strict=True):
            safety.on_click(b, lambda name=name: self.go(self.starts.get(name, 0)), report=self.report_failure)
        safety.on_click(self.end_button, lambda: self.go(len(self.script) - 1), report=self.report_failure)
        self.undo_button.layout.display = "none"
        self.timeline.replace([step.state for step in self.script])
        self.go(0)
        self.add_class("treegames-bosk-walkthrough")

    def side_widgets(self) -> list:
        """Chapter buttons, the caption, then the supplies (no choice buttons: nobody clicks moves here)."""
        bar = widgets.HBox([*self.chapter_buttons, self.end_button])
        bar.add_class("treegames-buttons")
        return [bar, self.caption, self.supplies_view.canvas]

    def legend_html(self) -> str:
        """A one-line key for the walkthrough (the drawn legend under the park says the rest)."""
        return ("<div style='font-size:12px'>Trails are named along the top (letters) and left (numbers), squares "
                "along the bottom and right. Yellow marks show what the player to move may do.</div>")

    def extra_parts(self) -> list:
        """The caption follows the step on screen, with the dashboard's supplies and tables."""
        return [self._show_caption, *super().extra_parts()]

    def board_scene(self, state):
        """The park with the legal targets of whoever moves (the walkthrough shows them for bots too)."""
        self._forget_marks(state)
        marks = Marks(trail=self.marks.trail, region=self.marks.region, show_targets=True)
        return park_scene(state, self.geo, marks)

    def go(self, index: int) -> None:
        """Show step ``index`` of the script."""
        self.stop_auto()
        self.timeline.jump(index)

    @property
    def index(self) -> int:
        """The step on screen."""
        return self.timeline.cursor

    def on_script(self) -> bool:
        """True while the state on screen is the script's own (not a game continued from it)."""
        i = self.timeline.cursor
        return i < len(self.script) and self.timeline.states[i] is self.script[i].state

    def _show_caption(self, _state) -> None:
        """The chapter, the move in notation and our note for the step on screen."""
        if not self.on_script():
            self.caption.value = ("<div style='padding:6px 10px;border-left:4px solid #999'>This is no longer the "
                                  "walkthrough's game. Press a chapter button to go back to it.</div>")
            return
        step = self.script[self.timeline.cursor]
        move = f"<code>{escape(step.notation)}</code> — " if step.notation else ""
        interp = (f"<br><span style='background:#FCE9D9;padding:0 4px;border-radius:3px'>our interpretation: "
                  f"{escape(step.interpretation)}</span>" if step.interpretation else "")
        note = escape(step.note) if step.note else "<span style='color:#555'>Press Forward for the next step.</span>"
        self.caption.value = (f"<div style='font-size:14px;padding:6px 10px;border-left:4px solid #0072B2'>"
                              f"<b>{escape(step.chapter)}</b> · step {step.index} of {len(self.script) - 1}<br>"
                              f"{move}{note}{interp}</div>")
        for name, b in zip(CHAPTERS, self.chapter_buttons, strict=True):
            b.button_style = "info" if name == step.chapter else ""


# ----------------------------------------------------------------------------------------- figures


def small_geometry(park, cell: float = 17.0) -> ParkGeometry:
    """A compact park picture (no room for the wind board) for side-by-side figures."""
    return ParkGeometry(size=park.size, border=park.inset, cell=cell, label=13.0, band=4.0)


class ParkSides(widgets.HBox):
    """The parks for 2, 3 and 4 players side by side (our interpretation of the board's two sides)."""

    def __init__(self, cell: float = 17.0):
        self.views = []
        boxes = []
        for players in (2, 3, 4):
            state = bosk.new_game(players).new_initial_state()
            geo = small_geometry(state.park, cell)
            view = SceneCanvas(geo.width, geo.height,
                               lambda s=state, g=geo: park_scene(s, g, Marks(show_targets=False)))
            self.views.append(view)
            label = widgets.HTML(f"<b>{players} players</b>: {state.park.size} x {state.park.size} squares"
                                 + (", inside the 4-player side's border" if state.park.inset else ""))
            boxes.append(widgets.VBox([view.canvas, label]))
        legend = legend_scene(bosk.new_game(4).park, 420, 4)
        self.legend_view = SceneCanvas(legend.width, legend.height, lambda: legend)
        super().__init__([*boxes], layout=widgets.Layout(flex_flow="row wrap"))
        self.add_class("treegames-buttons")


def blocked_path_example(players: int = 3, seeds=range(40)):
    """(before, after) of the first leaf path that ends blocked in a seeded game of greedy and random bots."""
    for seed in seeds:
        game = bosk.new_game(players)
        rng = random.Random(seed)
        bots = [bosk.GreedyBot(random.Random(seed * 10 + p)) if p % 2 == 0 else core.RandomBot(random.Random(seed))
                for p in range(players)]
        state = game.new_initial_state()
        while not state.is_terminal():
            before, state = state, core.step(state, bots, rng)
            if state.end_reason == TurnEnd.BLOCKED and state.history[-1].kind is Kind.LEAF:
                return before, state
    raise ValueError("no blocked leaf path in the seeded games")


class BlockedPathExample(widgets.HBox):
    """A blocked leaf path drawn twice: the last choice, and the moment the path ended."""

    def __init__(self, cell: float = 30.0):
        self.before, self.after = blocked_path_example()
        geo = ParkGeometry(size=self.before.park.size, border=self.before.park.inset, cell=cell, band=30.0)
        self.before_view = SceneCanvas(geo.width, geo.height, lambda: park_scene(self.before, geo))
        self.after_view = SceneCanvas(geo.width, geo.height,
                                      lambda: park_scene(self.after, geo, Marks(show_targets=False)))
        width = widgets.Layout(width=f"{geo.width}px", max_width="100%")
        from .targets import last_event_of

        super().__init__([
            widgets.VBox([self.before_view.canvas, widgets.HTML(
                f"<b>Before:</b> {escape(self.before.explain())}", layout=width)]),
            widgets.VBox([self.after_view.canvas, widgets.HTML(
                f"<b>After:</b> {escape(last_event_of(self.after))}", layout=width)]),
        ], layout=widgets.Layout(flex_flow="row wrap"))
