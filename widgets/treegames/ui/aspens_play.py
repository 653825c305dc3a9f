"""The playable Aspens board: click to plant, step buttons, time travel, explanations, dice, hands and scores.

The widget only shows what the engine says: legal targets, ``explain()``,
``last_event`` and ``IllegalAction`` messages all come from ``treegames.aspens``.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import math
import random

import ipywidgets as widgets

from .. import aspens, core
from ..aspens import PLAYER_NAMES, GreedyBot, Hex, cell_name
from . import palette
from .aspens_scene import (
    PLAYER_COLOURS,
    HexGeometry,
    arrow_polygon,
    direction_angle,
    game_scene,
)
from .canvas import SceneCanvas
from .scene import Polygons, Scene, Texts, as_points, colours
from .timeline import Timeline

CONTROLLERS = {"Human": "human", "Bot (greedy)": "greedy", "Bot (random)": "random"}
"""Who plays a side: a person clicking, or one of the engine's bots."""

LOG_WINDOW = 100
"""How many event-log entries are listed around the current step (Back/Forward reach the rest)."""


def make_bot(kind: str, seed: int):
    """The bot for a side, seeded so a game replays exactly (None for a human)."""
    if kind == "greedy":
        return GreedyBot(random.Random(seed))
    if kind == "random":
        return core.RandomBot(random.Random(seed))
    return None


def dice_scene(state, width: int = 250, height: int = 92) -> Scene:
    """The Sun and Wind dice as they lie now, with the three valid Wind directions."""
    scene = Scene(width, height, background=palette.BACKGROUND)
    face = 64
    rolled_sun, rolled_wind = state.sun is not None, state.wind is not None
    boxes = [[(10, 14), (10 + face, 14), (10 + face, 14 + face), (10, 14 + face)],
             [(90, 14), (90 + face, 14), (90 + face, 14 + face), (90, 14 + face)]]
    fills = ["#FFF6B0" if rolled_sun else "#EEEEEE", "#D7ECF8" if rolled_wind else "#EEEEEE"]
    scene.add(Polygons(as_points(boxes), colours(fills), stroke=palette.INK, line_width=2.0))
    scene.add(Texts([(42, 8, "Sun"), (122, 8, "Wind")], font="11px sans-serif", colour=palette.MUTED_INK))
    scene.add(Texts([(42, 47, str(state.sun) if rolled_sun else "?")], font="bold 34px sans-serif",
                    colour=palette.INK))
    if rolled_wind:
        angle = direction_angle(state.wind)
        cx, cy = 122, 46
        start = (cx - 20 * math.cos(angle), cy - 20 * math.sin(angle))
        scene.add(Polygons(as_points([arrow_polygon(*start, angle, 40, 10)]), colours([palette.VERMILLION]),
                           stroke=palette.INK, line_width=1.0))
        scene.add(Texts([(122, 71, state.wind.name)], font="bold 11px sans-serif", colour=palette.INK))
        valid = " · ".join(d.name for d in state.valid_winds())
        scene.add(Texts([(170, 36, "Grow out:"), (170, 56, valid)], font="13px sans-serif", colour=palette.INK,
                        align="left"))
    else:
        scene.add(Texts([(122, 47, "?")], font="bold 34px sans-serif", colour=palette.INK))
        scene.add(Texts([(170, 46, "not rolled")], font="13px sans-serif", colour=palette.MUTED_INK, align="left"))
    return scene


class AspensPlay(widgets.VBox):
    """A whole game of Aspens to play, watch or step through."""

    def __init__(self, setup: int = 2, seed: int = 1, aspen: str = "human", pine: str = "greedy",
                 size: float = 19.0, odds_panel: bool = True):
        self.geo = HexGeometry(size=size)
        self._auto_task = None
        self.board_view = SceneCanvas(self.geo.width, self.geo.height, self.board_scene, draw_now=False)
        self.board_view.canvas.on_mouse_down(self.click)
        self.dice_view = SceneCanvas(250, 92, lambda: dice_scene(self.state), draw_now=False)
        self._build_controls(setup, seed, aspen, pine)
        self.odds = None
        if odds_panel:
            self.odds = self._make_odds_panel()
        self.new_game(setup, seed, aspen, pine)
        super().__init__([self.title, widgets.HBox([self.left, self.right])])
        self.add_class("treegames-aspens-play")

    # -- building ----------------------------------------------------------

    def _build_controls(self, setup: int, seed: int, aspen: str, pine: str) -> None:
        """Buttons, panels and the new-game form."""
        b = widgets.Button
        small = widgets.Layout(width="92px")
        self.step_button = b(description="Step", icon="step-forward", tooltip="One step: roll, bot move, or your turn",
                             layout=small)
        self.back_button = b(description="Back", icon="backward", layout=small)
        self.forward_button = b(description="Forward", icon="forward", layout=small)
        self.undo_button = b(description="Undo", icon="undo", tooltip="Take back the last tree (not a die roll)",
                             layout=small)
        self.end_turn_button = b(description="End turn", icon="check",
                                 tooltip=f"Pass the dice; allowed while holding at most {aspens.HOLD_LIMIT} trees", layout=small)
        self.auto_button = widgets.ToggleButton(description="Auto-play", icon="play", layout=widgets.Layout(width="110px"),
                                                tooltip="Keep stepping until a person must move or the game ends")
        self.speed = widgets.IntSlider(value=10, min=1, max=30, description="steps/s",
                                       layout=widgets.Layout(width="260px"))
        self.step_button.on_click(lambda _: self.step())
        self.back_button.on_click(lambda _: self.back())
        self.forward_button.on_click(lambda _: self.forward())
        self.undo_button.on_click(lambda _: self.undo())
        self.end_turn_button.on_click(lambda _: self.end_turn())
        self.auto_button.observe(self._on_auto, names="value")

        self.title = widgets.HTML()
        self.scores = widgets.HTML()
        self.explanation = widgets.HTML(layout=widgets.Layout(width="100%"))
        self.message = widgets.HTML(layout=widgets.Layout(width="100%", min_height="24px"))
        self.legend = widgets.HTML(self._legend_html(), layout=widgets.Layout(width=f"{self.geo.width}px"))
        self.event_log = widgets.Select(options=[], rows=10, layout=widgets.Layout(width="100%"))
        self.event_log.observe(self._on_log, names="value")
        self.position = widgets.HTML()

        self.setup_choice = widgets.Dropdown(options=list(aspens.SETUPS), value=setup, description="Setup",
                                             layout=widgets.Layout(width="160px"))
        self.seed_choice = widgets.IntText(value=seed, description="Seed", layout=widgets.Layout(width="160px"))
        names = {v: k for k, v in CONTROLLERS.items()}
        self.aspen_choice = widgets.Dropdown(options=list(CONTROLLERS.items()), value=aspen, description="Aspen",
                                             layout=widgets.Layout(width="220px"), label=names[aspen])
        self.pine_choice = widgets.Dropdown(options=list(CONTROLLERS.items()), value=pine, description="Pine",
                                            layout=widgets.Layout(width="220px"), label=names[pine])
        start = b(description="Start new game", icon="refresh", button_style="success")
        start.on_click(lambda _: self.new_game(self.setup_choice.value, self.seed_choice.value,
                                               self.aspen_choice.value, self.pine_choice.value))
        self.new_game_form = widgets.VBox([widgets.HBox([self.setup_choice, self.seed_choice]),
                                           widgets.HBox([self.aspen_choice, self.pine_choice]), start])

        buttons = widgets.HBox([self.step_button, self.back_button, self.forward_button, self.undo_button,
                                self.end_turn_button])
        auto = widgets.HBox([self.auto_button, self.speed])
        self.left = widgets.VBox([self.board_view.canvas, self.legend],
                                 layout=widgets.Layout(width=f"{self.geo.width + 10}px"))
        self.tabs = widgets.Tab(children=[widgets.VBox([self.position, self.event_log]), self.new_game_form])
        self.tabs.set_title(0, "Event log")
        self.tabs.set_title(1, "New game")
        self.right = widgets.VBox([
            widgets.HBox([self.dice_view.canvas]), self.scores, buttons, auto, self.message, self.explanation,
            self.tabs,
        ], layout=widgets.Layout(width="520px", padding="0 0 0 12px"))

    def _make_odds_panel(self):
        """The odds panel (exact production chart and gain distributions), if the odds views are installed."""
        try:
            from .aspens_odds_panel import OddsPanel
        except ImportError:  # the panel ships with the probability lesson
            return None
        panel = OddsPanel()
        self.tabs.children = [*self.tabs.children, panel]
        self.tabs.set_title(len(self.tabs.children) - 1, "Odds")
        self.tabs.observe(lambda change: panel.set_visible(change["new"] == len(self.tabs.children) - 1),
                          names="selected_index")
        return panel

    def _legend_html(self) -> str:
        """What the colours, shapes and marks on the board mean."""
        return (
            "<div style='font-size:12px;line-height:1.5'>"
            f"<span style='color:{PLAYER_COLOURS[0]}'>●</span> <b>Aspen</b> (round token) &nbsp; "
            f"<span style='color:{PLAYER_COLOURS[1]}'>▲</span> <b>Pine</b> (triangle); the number is the trees on the space."
            f"<br><span style='background:{palette.HIGHLIGHT};border:1px solid #333'>&nbsp;&nbsp;&nbsp;</span> "
            "empty space you may plant on (grow out or seed) &nbsp; "
            "<span style='border:3px solid #C9B800'>&nbsp;&nbsp;&nbsp;</span> your space you may grow up"
            f"<br><span style='color:{palette.VERMILLION}'>⬡</span> last tree placed &nbsp; "
            f"<span style='color:{palette.REDDISH_PURPLE}'>⬡</span> filled by a cascade &nbsp; "
            f"<span style='color:{palette.VERMILLION}'>➜</span> the three valid Wind directions</div>"
        )

    # -- the game ----------------------------------------------------------

    @property
    def state(self):
        """The state on screen."""
        return self.timeline.current

    def new_game(self, setup: int = 2, seed: int = 1, aspen: str = "human", pine: str = "greedy") -> None:
        """Start over with a setup, a seed for the dice and bots, and who plays each side."""
        self.stop_auto()
        self.game = aspens.new_game(setup=setup)
        self.seed = seed
        self.rng = random.Random(seed)
        self.controllers = (aspen, pine)
        self.bots = (make_bot(aspen, seed * 7 + 1), make_bot(pine, seed * 7 + 2))
        self.timeline = Timeline(self.game.new_initial_state())
        self.message.value = ""
        self.refresh()

    def is_human_turn(self) -> bool:
        """True if a person must act now on the newest state."""
        s = self.state
        return s.current_player >= 0 and self.bots[s.current_player] is None

    def step(self) -> bool:
        """One step forward: replay a later state, roll at a chance node, or let a bot move; False if a person must act."""
        if self.timeline.can_forward():
            self.timeline.forward()
            self.refresh()
            return True
        s = self.state
        if s.is_terminal():
            self._say("The game is over. Start a new game from the New game tab.")
            return False
        if s.current_player == core.CHANCE:
            self._advance(core.sample_chance(s, self.rng))
            return True
        bot = self.bots[s.current_player]
        if bot is None:
            self._say(f"{PLAYER_NAMES[s.current_player]}'s move: click a highlighted hex"
                      + (" or End turn." if s.can_end_turn() else "."))
            return False
        self._advance(bot.choose(s))
        return True

    def back(self) -> None:
        """Show the previous moment."""
        self.timeline.back()
        self.refresh()

    def forward(self) -> None:
        """Show the next moment."""
        self.timeline.forward()
        self.refresh()

    def undo(self) -> None:
        """Take back the last tree placed or turn ended (never a die roll)."""
        if self.timeline.undo():
            self._say("Took back the last action.")
        else:
            self._say("Nothing to undo here: a die roll cannot be taken back.")
        self.refresh()

    def end_turn(self) -> None:
        """The person whose turn it is ends it."""
        if not self.is_human_turn():
            self._say("Only a person can end their own turn here.")
            return
        self.try_action(aspens.END_TURN)

    def click(self, x: float, y: float) -> None:
        """A click on the board: plant there if legal, otherwise say why not (nothing changes)."""
        cell = self.geo.hex_at(x, y)
        s = self.state
        if cell not in s.board:
            self._say("That is off the board.")
            return
        if s.is_terminal():
            self._say("The game is over. Start a new game from the New game tab.")
            return
        if s.current_player == core.CHANCE:
            self._say(f"{cell_name(cell)}: the dice come first. Press Step to roll.")
            return
        if not self.is_human_turn():
            self._say(f"It is {PLAYER_NAMES[s.current_player]}'s turn (a bot). Press Step or Auto-play.")
            return
        self.try_action(self.action_for(cell))

    def action_for(self, cell: Hex):
        """The placement a click on ``cell`` asks for in the current phase."""
        s = self.state
        if s.phase == aspens.Phase.SEED:
            return aspens.Seed(cell)
        if s.owner(cell) == s.current_player or s.phase == aspens.Phase.GROW_START:
            return aspens.GrowUp(cell)
        return aspens.GrowOut(cell)

    def try_action(self, action) -> bool:
        """Apply a person's action; on IllegalAction show the engine's reason and change nothing."""
        try:
            nxt = self.state.apply(action)
        except core.IllegalAction as err:
            self._say(f"Not allowed: {html.escape(str(err))}", error=True)
            return False
        self._advance_to(nxt)
        return True

    def _advance(self, action) -> None:
        """Apply an action known to be legal (a roll or a bot's choice) and show the result."""
        self._advance_to(self.state.apply(action))

    def _advance_to(self, nxt) -> None:
        """Show a new newest state (discarding any states after the one on screen)."""
        discarded = self.timeline.push(nxt)
        self.message.value = ""
        if discarded:
            self._say("Play continued from an earlier moment: the later moves were dropped.")
        self.refresh()

    # -- auto-play ---------------------------------------------------------

    def run_auto(self, max_steps: int = 10_000) -> int:
        """Step until a person must act or the game ends (synchronously); the number of steps taken."""
        taken = 0
        while taken < max_steps and not self.state.is_terminal() and self.step():
            taken += 1
        return taken

    def _on_auto(self, change) -> None:
        """The Auto-play toggle moved."""
        if change["new"]:
            self.auto_button.icon = "pause"
            self._auto_task = asyncio.ensure_future(self._auto_loop())
        else:
            self.auto_button.icon = "play"

    async def _auto_loop(self) -> None:
        """Step at the chosen speed until stopped, a person must act, or the game ends."""
        try:
            while self.auto_button.value and not self.state.is_terminal():
                if not self.step():
                    break
                await asyncio.sleep(1.0 / self.speed.value)
        finally:
            self.auto_button.value = False

    def stop_auto(self) -> None:
        """Stop auto-play if it runs."""
        if hasattr(self, "auto_button"):
            self.auto_button.value = False
        if self._auto_task is not None:
            with contextlib.suppress(Exception):
                self._auto_task.cancel()
            self._auto_task = None

    # -- showing -----------------------------------------------------------

    def board_scene(self):
        """The board picture for the state on screen."""
        return game_scene(self.state, self.geo, show_targets=self.is_human_turn())

    def _say(self, text: str, error: bool = False) -> None:
        """Show a message under the buttons (errors framed in vermillion)."""
        colour = palette.VERMILLION if error else palette.BLUE
        self.message.value = (f"<div style='border-left:4px solid {colour};padding:2px 8px'>{text}</div>"
                              if text else "")

    def refresh(self) -> None:
        """Redraw everything from the state on screen."""
        s = self.state
        self.board_view.redraw()
        self.dice_view.redraw()
        self.title.value = self._title_html()
        self.scores.value = self._scores_html()
        self.explanation.value = self._explanation_html()
        self._update_buttons()
        self._update_log()
        if self.odds is not None:
            self.odds.show(s)

    def _title_html(self) -> str:
        """Headline: setup, step, who moves and in which phase."""
        s = self.state
        if s.is_terminal():
            names = " and ".join(PLAYER_NAMES[p] for p in s.winners())
            who = f"Game over: {names} {'share the victory' if len(s.winners()) > 1 else 'wins'}"
        elif s.current_player == core.CHANCE:
            who = "Dice to roll"
        else:
            who = f"{PLAYER_NAMES[s.current_player]} to move"
        return (f"<h3 style='margin:4px 0'>Aspens · setup {self.game.options['setup']} · {who} "
                f"<small style='color:#666'>({s.phase})</small></h3>")

    def _scores_html(self) -> str:
        """Spaces owned, trees in hand and in the bag, for both players."""
        s = self.state
        rows = []
        for p, name in enumerate(PLAYER_NAMES):
            mark = "●" if p == 0 else "▲"
            role = {v: k for k, v in CONTROLLERS.items()}[self.controllers[p]]
            now = " ◀" if s.current_player == p else ""
            rows.append(f"<tr><td><span style='color:{PLAYER_COLOURS[p]};font-size:16px'>{mark}</span> "
                        f"<b>{name}</b>{now}</td><td>{role}</td><td>{s.scores()[p]}</td><td>{s.hand(p)}</td>"
                        f"<td>{s.supply(p)}</td></tr>")
        return ("<table style='border-collapse:collapse;font-size:13px' cellpadding='3'>"
                "<tr style='color:#555'><th align=left>Player</th><th align=left>Played by</th><th>Spaces</th>"
                "<th>In hand</th><th>In bag</th></tr>" + "".join(rows) + "</table>")

    def _explanation_html(self) -> str:
        """The rule in force now and what just happened (engine's words)."""
        s = self.state
        happened = html.escape(s.last_event) if s.last_event else "Nothing yet: the game is about to start."
        return (f"<div style='background:#F4F7FB;padding:6px 10px;border-radius:4px;font-size:13px'>"
                f"<b>Just happened:</b> {happened}<br><b>Now:</b> {html.escape(s.explain())}</div>")

    def _update_buttons(self) -> None:
        """Enable exactly the buttons that can do something now."""
        s, t = self.state, self.timeline
        self.back_button.disabled = not t.can_back()
        self.forward_button.disabled = not t.can_forward()
        self.undo_button.disabled = not t.can_undo()
        self.end_turn_button.disabled = not (self.is_human_turn() and s.can_end_turn())
        self.step_button.disabled = s.is_terminal() and not t.can_forward()

    def _update_log(self) -> None:
        """The event log around the step on screen; picking an entry jumps there."""
        t = self.timeline
        first = max(1, t.cursor - LOG_WINDOW + 20)
        last = min(len(t.states) - 1, first + LOG_WINDOW - 1)
        entries = [(f"{i}. {t.states[i].last_action}", i) for i in range(first, last + 1)]
        self._log_busy = True
        try:
            self.event_log.options = entries
            self.event_log.value = t.cursor if t.cursor >= first else None
        finally:
            self._log_busy = False
        shown = f" (the list shows steps {first}-{last})" if first > 1 or last < len(t.states) - 1 else ""
        self.position.value = f"Step <b>{t.cursor}</b> of {len(t.states) - 1}{shown}"

    def _on_log(self, change) -> None:
        """A log entry was picked: jump to that moment."""
        if getattr(self, "_log_busy", False) or change["new"] is None or change["new"] == self.timeline.cursor:
            return
        self.timeline.jump(change["new"])
        self.refresh()
