"""A rulebook walkthrough: a scripted Aspens game stepped with Back/Forward, every step drawn and explained.

The script is notation plus a caption per step; the engine checks every step and
supplies the rule text (``explain()``) and what happened (``last_event``).
"""

from __future__ import annotations

import html
import random

import ipywidgets as widgets

from ... import aspens, core
from ...aspens import GreedyBot
from .. import safety
from ..canvas import SceneCanvas
from ..saving import download_link
from ..styles import icon_button, stylesheet
from ..text import message_box, plural
from .scene import HexGeometry, dice_scene, game_scene


def states_from_script(game, steps: list[tuple[str, str]]) -> list:
    """Every state of a scripted game: the start, then one per step (the engine refuses a wrong step)."""
    states = [game.new_initial_state()]
    for index, (notation, _caption) in enumerate(steps):
        try:
            states.append(states[-1].apply(states[-1].parse_action(notation)))
        except core.IllegalAction as err:
            raise ValueError(f"walkthrough step {index + 1} {notation!r}: {err}") from None
    return states


def cascade_example(seed: int = 3, min_size: int = 3, setup: int = 2):
    """The first cascade of at least ``min_size`` spaces in a seeded game of two GreedyBots: (before, after)."""
    game = aspens.new_game(setup=setup)
    rng = random.Random(seed)
    bots = [GreedyBot(random.Random(seed * 7 + 1)), GreedyBot(random.Random(seed * 7 + 2))]
    state = game.new_initial_state()
    while not state.is_terminal():
        before, state = state, core.step(state, bots, rng)
        if len(state.last_cascade) >= min_size:
            return before, state
    raise ValueError(f"no cascade of {min_size}+ spaces in the game with seed {seed}")


class Walkthrough(widgets.VBox):
    """Back/Forward through a scripted game, with the board, dice, a caption and the engine's rule text."""

    def __init__(self, steps: list[tuple[str, str]], intro: str = "", setup: int = 2, size: float = 19.0):
        self.game = aspens.new_game(setup=setup)
        self.steps = steps
        self.intro = intro
        self.states = states_from_script(self.game, steps)
        self.index = 0
        self.geo = HexGeometry(size=size)
        self.board_view = SceneCanvas(self.geo.width, self.geo.height,
                                      lambda: game_scene(self.state, self.geo, show_targets=True), draw_now=False)
        self.dice_view = SceneCanvas(250, 92, lambda: dice_scene(self.state), draw_now=False)
        self.board_view.canvas.add_class("treegames-board-canvas")
        self.first_button = icon_button("Start", "first", tooltip="Back to the empty board (Home)")
        self.back_button = icon_button("Back", "back", tooltip="The step before (B or Left arrow on the board)")
        self.forward_button = icon_button("Forward", "forward", tooltip="The next step (F or Right arrow on the board)")
        self.last_button = icon_button("End", "last", tooltip="The last step of the script (End)")
        report = self.report_failure
        safety.on_click(self.first_button, lambda: self.go(0), report=report)
        safety.on_click(self.back_button, lambda: self.go(self.index - 1), report=report)
        safety.on_click(self.forward_button, lambda: self.go(self.index + 1), report=report)
        safety.on_click(self.last_button, lambda: self.go(len(self.states) - 1), report=report)
        self.board_view.on_key(self.key)
        self.counter = widgets.HTML()
        self.caption = widgets.HTML(layout=widgets.Layout(width="100%"))
        self.rule = widgets.HTML(layout=widgets.Layout(width="100%"))
        self.scores = widgets.HTML()
        self.picture_link = widgets.HTML()
        right = widgets.VBox([self.dice_view.canvas, self.scores, self.caption, self.rule, self.picture_link])
        right.add_class("treegames-side")
        controls = widgets.HBox([self.first_button, self.back_button, self.forward_button, self.last_button,
                                 self.counter])
        controls.add_class("treegames-buttons")
        row = widgets.HBox([self.board_view.canvas, right])
        row.add_class("treegames-row")
        super().__init__([controls, row, stylesheet()])
        self.add_class("treegames-dashboard")
        self.go(0)

    def key(self, key: str, shift: bool = False) -> None:
        """Keys on the focused board: Left/Right or B/F step, Home/End jump."""
        moves = {"ArrowRight": self.index + 1, "f": self.index + 1, "ArrowLeft": self.index - 1,
                 "b": self.index - 1, "Home": 0, "End": len(self.states) - 1}
        if key in moves:
            self.go(moves[key])

    def report_failure(self, text: str) -> None:
        """Show a friendly failure sentence (safety.guarded calls this)."""
        self.caption.value = message_box(text, error=True)

    @property
    def state(self):
        """The state on screen."""
        return self.states[self.index]

    def go(self, index: int) -> None:
        """Show step ``index`` (clamped to the script)."""
        self.index = max(0, min(index, len(self.states) - 1))
        s = self.state
        self.board_view.redraw()
        self.dice_view.redraw()
        self.first_button.disabled = self.back_button.disabled = self.index == 0
        self.forward_button.disabled = self.last_button.disabled = self.index == len(self.states) - 1
        self.counter.value = f"&nbsp; Step <b>{self.index}</b> of {len(self.states) - 1}"
        if self.index == 0:
            notation, caption = "", self.intro
        else:
            notation, caption = self.steps[self.index - 1]
        head = f"<code>{html.escape(notation)}</code> — " if notation else ""
        self.caption.value = (f"<div style='font-size:14px;padding:6px 10px;border-left:4px solid #0072B2'>"
                              f"{head}{caption}</div>")
        happened = html.escape(s.last_event) if s.last_event else "Nothing yet."
        self.rule.value = (f"<div style='background:#F4F7FB;padding:6px 10px;border-radius:4px;font-size:13px'>"
                           f"<b>What the engine did:</b> {happened}<br><b>The rule now:</b> "
                           f"{html.escape(s.explain())}</div>")
        self.scores.value = " &nbsp; ".join(
            f"<b>{name}</b>: {plural(s.scores()[p], 'space')}, {s.hand(p)} in hand" for p, name in enumerate(aspens.PLAYER_NAMES))
        self.picture_link.value = download_link(self.board_view.last_scene.to_svg(),
                                                f"aspens-walkthrough-step-{self.index}.svg", "Save picture",
                                                mime="image/svg+xml", icon="picture")


class CascadeExample(widgets.VBox):
    """A cascade drawn twice: just before the closing tree, and just after the free fill."""

    def __init__(self, seed: int = 3, min_size: int = 3, size: float = 13.0):
        self.before, self.after = cascade_example(seed, min_size)
        self.geo = HexGeometry(size=size, margin=40.0)
        self.before_view = SceneCanvas(self.geo.width, self.geo.height,
                                       lambda: game_scene(self.before, self.geo, show_targets=False))
        self.after_view = SceneCanvas(self.geo.width, self.geo.height,
                                      lambda: game_scene(self.after, self.geo, show_targets=False))
        mover = aspens.PLAYER_NAMES[self.before.current_player]
        label = widgets.Layout(max_width=f"{self.geo.width}px")
        before_text = widgets.HTML(f"<b>Before:</b> {mover} is about to play <code>{self.after.last_action}</code>.",
                                   layout=label)
        after_text = widgets.HTML(f"<b>After:</b> {html.escape(self.after.last_event)} "
                                  "(the filled spaces are ringed in purple)", layout=label)
        row = widgets.HBox([widgets.VBox([self.before_view.canvas, before_text]),
                            widgets.VBox([self.after_view.canvas, after_text])])
        row.add_class("treegames-row")
        super().__init__([row, stylesheet()])
