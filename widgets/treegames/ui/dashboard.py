"""The game dashboard every game's Play page is built on.

:class:`GameDashboard` owns everything that is the same in every game: the
:class:`~treegames.ui.timeline.Timeline`, who plays each seat (a person or one of
``GAME_TYPE.bots``), Step / Back / Forward / Undo / End turn / Auto-play with a
speed, bots that answer by themselves (with Pause), the explanation panel ("Just
happened" / "Now" / "Not allowed"), the event log, the New game form built from
``GAME_TYPE.options``, Save / Open, Save picture, keyboard play, a text
description of the position for screen readers, and the coach's Hint
(:mod:`~treegames.ui.hint`) and, after the game, Review (:mod:`~treegames.ui.review`).

There is one refresh path: the timeline's "state changed" signal calls
:meth:`GameDashboard.refresh`, which runs every registered part once.

A game subclass supplies only its picture and its places (see KIT_API.md)::

    class BoskPlay(GameDashboard):
        game_module = bosk                      # has GAME_TYPE and new_game(**options)
        seat_names = ("Red", "Blue", ...)
        def board_size(self): return (640, 480)
        def board_scene(self, state): ...       # -> Scene
        def place_at(self, x, y): ...           # canvas pixel -> place name or None
        def place_centre(self, place): ...      # place name -> (x, y), for the keyboard cursor
        def places(self): ...                   # every place name, in reading order

Optional hooks: ``action_for`` (default: the engine's ``state.actions_at(place)``),
``refusal``, ``end_turn_action``, ``side_widgets``, ``extra_tabs``, ``legend_html``,
``scores_html``, ``title_html``, ``position_words``, ``cursor_shape``.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Callable

import ipywidgets as widgets

from .. import core
from . import access, keyboard, palette, safety
from .canvas import SceneCanvas
from .forms import PERSON, NewGameForm
from .hint import HintPanel
from .motion import MotionPreference
from .panels import Collapsible
from .review import ReviewPanel
from .saving import download_link, states_from_saved, uploaded_text
from .scene import Polygons, Scene, as_points
from .session import GAME_OVER, LocalSession
from .styles import icon_button, icon_toggle, set_icon, stylesheet
from .text import escape, message_box, panel, plural
from .timeline import Timeline

LOG_WINDOW = 100
"""How many event-log entries are listed around the current step (Back/Forward reach the rest)."""


KEYS_HELP = ("Keys on the board (click it or Tab to it): arrows or Tab move the cursor between the places you "
             "may play, Enter plays there, Esc leaves the board; S Step, B Back, F Forward, U Undo, E End turn, "
             "A Auto-play or Pause, H Hint (again: Think longer), R Review (after the game).")
"""How to play the board by keyboard, shown under the board (ipycanvas' view breaks on a canvas tooltip)."""


def make_bot(game_type, kind: str, seed: int):
    """The bot for a seat, seeded so a game replays exactly (None for a person)."""
    if kind == PERSON:
        return None
    return game_type.bots[kind](random.Random(seed))


class GameDashboard(widgets.VBox):
    """A whole game to play, watch or step through; subclasses supply the board picture and its places."""

    game_module = None
    """The game package: has ``GAME_TYPE`` and ``new_game(**options)``."""
    seat_names: tuple[str, ...] = ()
    """One name per player ('Aspen', 'Pine'); default 'Player 1', 'Player 2', ..."""
    board_label = "board"
    """What the canvas is called in messages ('board', 'park')."""
    place_word = "space"
    """What a clickable place is called ('hex', 'space', 'card')."""
    chance_words = "Chance to draw"
    """The headline at a chance node ('Dice to roll' where chance is dice)."""
    chance_first = "chance decides first (a draw). Press Step to see it."
    """Said when a person clicks the board while chance is to act ('the dice come first. Press Step to roll.')."""

    def __init__(self, seed: int = 1, seats: tuple | None = None, options: dict | None = None,
                 answer: bool = True, speed: int = 10):
        self.game_type = core.games()[self.game_module.GAME_TYPE.name]  # the plug-in's: the coach's bots too
        self._task = None
        self._thinking = False
        self._log_cache: dict[int, tuple[object, str]] = {}
        self._targets_cache: tuple[object, list] | None = None
        self.cursor: str | None = None
        self.parts: list[Callable[[object], None]] = []
        self.session = LocalSession(self)  # who moves the game: this kernel, or a shared table (ui/session.py)
        width, height = self.board_size()
        self.board_view = SceneCanvas(width, height, self._board_picture, draw_now=False,
                                      report=self.report_failure)
        self.board_view.canvas.add_class("treegames-board-canvas")
        self.board_view.on_click(self.click)
        self.board_view.on_key(self.key)
        self._build(seed, seats, options or {}, answer, speed)
        self.parts = [self._redraw_board, self._show_words, self._update_buttons, self._update_log,
                      self._update_save, self._update_access, self.hint_panel.follow, self.review_panel.follow, *self.extra_parts()]
        self.new_game(seed=seed, seats=seats, **(options or {}))
        self.tables_tab.children = [self.tables_panel()]  # shared tables
        super().__init__([self.skip_link, self.title, self.main_row, self.words, stylesheet()])
        self._link_skip()
        self.add_class("treegames-dashboard")
        self.add_class(f"treegames-{self.game_type.name}-play")

    # ------------------------------------------------------------ what a game supplies

    def board_size(self) -> tuple[int, int]:
        """Canvas width and height in pixels."""
        raise NotImplementedError

    def board_scene(self, state) -> Scene:
        """The board picture of ``state`` (highlighting legal targets when ``self.is_human_turn()``)."""
        raise NotImplementedError

    def place_at(self, x: float, y: float) -> str | None:
        """The place under canvas pixel (x, y), or None off the board."""
        raise NotImplementedError

    def place_centre(self, place: str) -> tuple[float, float]:
        """Canvas pixel centre of a place (for the keyboard cursor)."""
        raise NotImplementedError

    def places(self) -> list[str]:
        """Every place name in reading order (the keyboard cursor visits the legal ones)."""
        raise NotImplementedError

    def action_for(self, state, place: str):
        """The action a click on ``place`` asks for: the engine's first legal action there, or None."""
        found = state.actions_at(place)
        return found[0] if found else None

    def refusal(self, state, place: str) -> str:
        """Why nothing can be played on ``place`` now (engine words where the engine has them)."""
        return f"nothing can be played on {escape(place)} now. {escape(state.explain())}"

    def end_turn_action(self, state):
        """The legal 'end my turn' action now, or None (games without one hide the button)."""
        return None

    def has_end_turn(self) -> bool:
        """Whether this game has an End turn button."""
        return True

    def side_widgets(self) -> list:
        """Widgets shown above the scores (dice, the draw pile)."""
        return []

    def extra_tabs(self) -> list[tuple[str, widgets.Widget]]:
        """(title, widget) tabs after Event log and New game (before Save / Open)."""
        return []

    def tables_panel(self) -> widgets.Widget:  # shared tables
        """The Play with others tab: create, join or watch a shared table (treegames.ui.tables)."""
        from .tables import TablePanel

        return TablePanel(self)

    def extra_parts(self) -> list[Callable[[object], None]]:
        """More refresh parts, each called with the state on screen after every change."""
        return []

    def legend_html(self) -> str:
        """What the colours, shapes and marks on the board mean."""
        return ""

    def words_viewer(self, state):
        """Whose eyes the board's words are for (a game with hidden cards overrides ``reader``); None: all public."""
        reader = getattr(self, "reader", None)
        return reader(state) if callable(reader) and self.game_type.has_hidden_information else None

    def board_tables(self, state) -> list:
        """The board in the engine's words: ``describe_board`` of the game's words module, as tables."""
        describe = getattr(getattr(self.game_module, "words", None), "describe_board", None)
        if describe is None:
            return []
        if self.game_type.has_hidden_information:
            return describe(state, viewer=self.words_viewer(state))
        return describe(state)

    def move_choices(self, state) -> list[tuple[str, str]]:
        """(notation, the engine's words) for every move a person may play now; [] when no person is to move."""
        if not self.is_human_turn() or state.is_terminal():
            return []
        if self.game_type.has_hidden_information:
            viewer = self.words_viewer(state)
            if viewer not in (None, state.current_player):
                return []  # the mover's cards are covered: listing the moves would show them
            return [(str(a), state.describe(a, viewer)) for a in state.legal_actions()]
        return [(str(a), state.describe(a)) for a in state.legal_actions()]

    def play_typed(self, text: str) -> bool:
        """A move typed or picked in the move box: the engine reads the notation and plays it, or says why not."""
        s = self.state
        if s.is_terminal():
            self.say(GAME_OVER)
            return False
        if not self.is_human_turn():
            self.say("No person is to move now: press Step (S) to go on.")
            return False
        try:
            action = s.parse_action(text)
        except core.IllegalAction:
            self.say(self.unreadable_words(s, text), error=True)
            return False
        return self.play(action)

    def unreadable_words(self, state, text: str) -> str:
        """Typed text that is no move: a few of the moves this person could play now, in the engine's notation."""
        moves = [notation for notation, _words in self.move_choices(state)]
        if not moves:
            return "Not a move: nothing can be typed now."
        shown = " or ".join(", ".join(f"'{escape(m)}'" for m in moves[:3]).rsplit(", ", 1))
        listed = f" (↓ in the box lists all {len(moves)})" if len(moves) > 3 else ""
        if not str(text).strip():
            return f"Type a move first, such as {shown}{listed}."
        return f"Not a move: {escape(core.quote(text))} is not written as a move. You can play {shown}{listed}."

    def player_name(self, player: int) -> str:
        """A seat's name for people."""
        if player < len(self.seat_names):
            return self.seat_names[player]
        return f"Player {player + 1}"

    def your_move_text(self, state) -> str:
        """What a person is told when it is their move and they press Step."""
        end = " or End turn" if self.end_turn_action(state) is not None else ""
        return f"{self.player_name(state.current_player)}'s move: click a highlighted {self.place_word}{end}."

    def cursor_shape(self, place: str) -> list[tuple[float, float]]:
        """The outline drawn for the keyboard cursor (a square around the place centre by default)."""
        x, y = self.place_centre(place)
        r = 14.0
        return [(x - r, y - r), (x + r, y - r), (x + r, y + r), (x - r, y + r)]

    # ------------------------------------------------------------ building

    def _build(self, seed: int, seats, options: dict, answer: bool, speed: int) -> None:
        """Buttons, panels, tabs and the new-game form."""
        width, _height = self.board_size()
        report = self.report_failure
        self.step_button = icon_button("Step", "step", tooltip="One step: roll, a bot's move, or replay (S)")
        self.back_button = icon_button("Back", "back", tooltip="Show the moment before (B)")
        self.forward_button = icon_button("Forward", "forward", tooltip="Show the next moment (F)")
        self.undo_button = icon_button("Undo", "undo", tooltip="Take back the last move, not a die roll or draw (U)")
        self.end_turn_button = icon_button("End turn", "end-turn", tooltip="End your turn (E)")
        self.auto_button = icon_toggle("Auto-play", "play", tooltip="Keep playing until a person must move (A)")
        # a labelled number box, not a slider: ipywidgets' slider handle has no accessible name (axe: serious)
        self.speed = widgets.BoundedIntText(value=speed, min=1, max=30, description="steps/s",
                                            tooltip="Auto-play speed: steps per second (1-30)",
                                            layout=widgets.Layout(width="150px", max_width="100%"))
        self.answer_box = widgets.Checkbox(value=answer, description="Bots answer by themselves", indent=False,
                                           layout=widgets.Layout(width="auto"))
        self.motion = MotionPreference()  # ticked by the page when the system asks for reduced motion
        for button, fn in ((self.step_button, self.step), (self.back_button, self.back),
                           (self.forward_button, self.forward), (self.undo_button, self.undo),
                           (self.end_turn_button, self.end_turn)):
            safety.on_click(button, fn, report=report)
        safety.observe(self.auto_button, self._on_auto, report=report)
        if not self.has_end_turn():
            self.end_turn_button.layout.display = "none"

        self.title = widgets.HTML()
        self.scores = widgets.HTML()
        self.explanation = widgets.HTML(layout=widgets.Layout(width="100%"))
        self.message = widgets.HTML(layout=widgets.Layout(width="100%", min_height="24px"))
        self.message.add_class("treegames-message")
        self.announcer = access.Announcer()
        self.words = self.announcer.widget
        self.legend = widgets.HTML(self.legend_html(), layout=widgets.Layout(max_width="100%"))
        self.event_log = widgets.Select(options=[], rows=10, description="Event log",
                                        layout=widgets.Layout(width="100%"))
        self.event_log.add_class("treegames-label-sr-only")  # the tab names it on screen; the label names it for AT
        safety.observe(self.event_log, self._on_log, report=report)
        self.position = widgets.HTML()

        self.form = NewGameForm(self.game_type, [self.player_name(p) for p in range(max(self.game_type.players))],
                                {**self.game_type.defaults(), **options},
                                tuple(seats or self._default_seats()), seed, self._start_from_form, report=report)
        self.new_game_form = self.form

        self.save_link = widgets.HTML()
        self.picture_link = widgets.HTML()
        self.upload = widgets.FileUpload(accept=".json,application/json", multiple=False,
                                         description="Open a saved game", icon="",
                                         tooltip="Open a game saved with Download (a .json file)", layout=widgets.Layout(width="auto"))
        for name in ("treegames-open", "tg-icon", "tg-icon-open"):
            self.upload.add_class(name)
        safety.observe(self.upload, self._on_upload, report=report)
        self.save_note = widgets.HTML(
            "<div style='font-size:13px'>Download keeps this game as a small file (the moves in notation); "
            "Open replays such a file through the rules. Save picture gives the board as a printable SVG.</div>")
        save_panel = widgets.VBox([self.save_note, widgets.HBox([self.save_link, self.picture_link]), self.upload])

        buttons = widgets.HBox([self.step_button, self.back_button, self.forward_button, self.undo_button,
                                self.end_turn_button, self.auto_button])  # one toolbar of play controls
        buttons.add_class("treegames-buttons")
        choices = widgets.HBox([self.speed, self.answer_box, self.motion])
        choices.add_class("treegames-buttons")
        self.settings = Collapsible("Settings", choices)  # speed, bots answering, less motion: folded away
        self.settings.add_class("treegames-settings")
        self.keys_help = widgets.HTML(f"<div style='font-size:12px;color:#555;line-height:1.5'>⌨ {escape(KEYS_HELP)}</div>",
                                      layout=widgets.Layout(max_width="100%"))
        self.move_box = access.MoveBox(self.play_typed, report=report)
        self.board_words = widgets.HTML(layout=widgets.Layout(max_width="100%"))
        self.board_words.add_class("treegames-board-words")
        self.board_words.add_class("treegames-sr-only")
        self.words_toggle = widgets.ToggleButton(description="Show the board in words", value=False,
                                                 tooltip="Show or hide the tables a screen reader reads",
                                                 layout=widgets.Layout(width="auto"))
        safety.observe(self.words_toggle, self._show_board_words, report=report)
        self.skip_link = widgets.HTML(layout=widgets.Layout(height="0px", overflow="visible"))
        self.board_anchor = widgets.HTML()
        self.board_view.canvas.tooltip = (f"{self.game_type.title} {self.board_label}, as a picture: the same "
                                          "position is in the tables of 'The board in words' below")
        self.left = widgets.VBox([self.board_anchor, self.board_view.canvas, self.move_box, self.legend, self.keys_help,
                                  self.words_toggle, self.board_words],
                                 layout=widgets.Layout(width=f"{width}px", max_width="100%"))
        self.left.add_class("treegames-column")
        self.tables_tab = widgets.VBox()  # shared tables
        pages = [("Event log", widgets.VBox([self.position, self.event_log])), ("New game", self.form),
                 *self.extra_tabs(), ("Play with others", self.tables_tab), ("Save / Open", save_panel)]
        self.tabs = widgets.Tab(children=[w for _, w in pages])
        for index, (name, _) in enumerate(pages):
            self.tabs.set_title(index, name)
        self.save_tab = len(pages) - 1
        safety.observe(self.tabs, self._on_tab, names="selected_index", report=report)
        self.hint_panel = HintPanel(self)  # the coach's Hint (ui/hint.py)
        self.review_panel = ReviewPanel(self)  # the coach's Review of a finished game (ui/review.py)
        self.right = widgets.VBox([*self.side_widgets(), self.scores, buttons, self.settings, self.hint_panel,
                                   self.review_panel, self.message,
                                   self.explanation,
                                   self.tabs])
        self.right.add_class("treegames-side")
        self.main_row = widgets.HBox([self.left, self.right])
        self.main_row.add_class("treegames-row")

    def _default_seats(self) -> tuple[str, ...]:
        """A person against the first bot, then bots."""
        first_bot = next(iter(self.game_type.bots))
        return (PERSON, *([first_bot] * (max(self.game_type.players) - 1)))

    # ------------------------------------------------------------ the game

    @property
    def state(self):
        """The state on screen."""
        return self.timeline.current

    def new_game(self, seed: int = 1, seats: tuple | None = None, **options) -> None:
        """Start over with options from the schema, a seed for the dice and bots, and who plays each seat."""
        self.stop_auto()
        game = self.game_module.new_game(**options)  # OptionError before anything changes
        self.game = game
        self.seed = seed
        self.rng = random.Random(seed)
        count = game.num_players
        seats = tuple(seats or self._default_seats())[:count]
        self.seats = seats
        self.bots = tuple(make_bot(self.game_type, kind, seed * 7 + 1 + p) for p, kind in enumerate(seats))
        self._log_cache = {}
        self.cursor = None
        self.say("")
        self.timeline = Timeline(game.new_initial_state())
        self.timeline.on_change(self.refresh)
        self.refresh()

    def _start_from_form(self) -> None:
        """Start new game pressed."""
        self.session.leave()
        self.new_game(seed=self.form.seed_box.value, seats=self.form.seats(), **self.form.values())
        self.say(f"New game: {self.seats_text()}.")

    def seats_text(self) -> str:
        """Who plays each seat, in words."""
        labels = dict((v, k) for k, v in self.form.seat_boxes[0].options) if self.form.seat_boxes else {}
        return "; ".join(f"{self.player_name(p)}: {labels.get(kind, kind)}" for p, kind in enumerate(self.seats))

    def use_session(self, session=None) -> None:
        """Let ``session`` move the game from now on (None: a game of this page's own, :class:`LocalSession`)."""
        self.session = session if session is not None else LocalSession(self)

    def shared_table(self):
        """The shared table this page sits at (its session), or None for a game of its own."""
        return self.session if self.session.shared else None

    def is_person(self, player: int) -> bool:
        """True if a person plays seat ``player`` on this page."""
        return self.session.is_person(player)

    def is_human_turn(self) -> bool:
        """True if a person must act now on the state on screen."""
        return self.is_person(self.state.current_player)

    def step(self) -> bool:
        """One step forward (a later state, a roll or a bot's move, as the session has it); False if a person must act."""
        return self.session.step()

    def is_thinking(self) -> bool:
        """True while a coach seat chooses its move on a worker thread."""
        return self._thinking

    def back(self) -> None:
        """Show the previous moment (pausing any auto-play)."""
        self.stop_auto()
        self.timeline.back()

    def forward(self) -> None:
        """Show the next moment."""
        self.stop_auto()
        self.timeline.forward()

    def undo(self) -> None:
        """Take back the last move (never a die roll or draw)."""
        self.stop_auto()
        self.session.undo()

    def end_turn(self) -> None:
        """The person whose turn it is ends it."""
        if not self.is_human_turn():
            self.say("Only a person can end their own turn here.")
            return
        action = self.end_turn_action(self.state)
        if action is None:
            self.say("Not allowed: you cannot end your turn yet. " + escape(self.state.explain()), error=True)
            return
        self.play(action)

    def click(self, x: float, y: float) -> None:
        """A click on the board: play there if legal, otherwise say why not (nothing changes)."""
        place = self.place_at(x, y)
        if place is None:
            self.say(f"That is off the {self.board_label}.")
            return
        self.play_at(place)

    def play_at(self, place: str) -> bool:
        """A person asks to play on ``place``: refused with a reason, or played."""
        s = self.state
        if s.is_terminal():
            self.say(GAME_OVER)
            return False
        if s.current_player == core.CHANCE:
            self.say(f"{escape(place)}: {escape(self.chance_first)}")
            return False
        if not self.is_human_turn():
            who = self.player_name(s.current_player)
            if self.auto_button.value:
                self.say(f"{who} (a bot) is playing its turn: wait, or press Pause.")
            else:
                self.say(f"It is {who}'s turn (a bot). Press Step or Auto-play.")
            return False
        action = self.action_for(s, place)
        if action is None:
            self.say(f"Not allowed: {self.refusal(s, place)}", error=True)
            return False
        return self.play(action)

    def play(self, action) -> bool:
        """A person's action, played as the session has it (refused with the engine's or authority's reason)."""
        return self.session.play(action)

    def try_action(self, action) -> bool:
        """Old name of :meth:`play`."""
        return self.play(action)

    def advance_to(self, nxt) -> None:
        """Show a new newest state (discarding any states after the one on screen)."""
        discarded = not self.timeline.is_at_latest()
        self.timeline.push(nxt)  # the state-changed signal refreshes everything
        if discarded:
            self.say("Play continued from an earlier moment: the later moves were dropped.")

    # ------------------------------------------------------------ bots answering, auto-play

    def answer(self) -> None:
        """After a person's move: if bots answer by themselves and no person is to move, play on at the speed."""
        s = self.state
        if self.answer_box.value and not s.is_terminal() and not self.is_human_turn():
            self.auto_button.value = True

    def run_auto(self, max_steps: int = 10_000) -> int:
        """Step until a person must act or the game ends (synchronously); the number of steps taken."""
        taken = 0
        while taken < max_steps and not self.state.is_terminal() and self.step():
            taken += 1
        return taken

    def _on_auto(self, on: bool) -> None:
        """The Auto-play / Pause toggle moved."""
        if on:
            self.auto_button.description = "Pause"
            set_icon(self.auto_button, "pause")
            loop = safety.running_loop()
            if loop is None:  # no event loop (a plain script): nothing can run in the background
                self.auto_button.value = False
                return
            if self._task is None or self._task.done():
                self._task = loop.create_task(self._auto_loop())
        else:
            self.auto_button.description = "Auto-play"
            set_icon(self.auto_button, "play")

    async def _auto_loop(self) -> None:
        """Step at the chosen speed until paused, a person must act, or the game ends."""
        try:
            while self.auto_button.value and not self.state.is_terminal():
                moved = await self._think_off_the_loop()
                if moved is False or (moved is None and not self.step()):
                    break
                if self.is_human_turn() and not self.timeline.can_forward():
                    self.say(self.your_move_text(self.state))  # stop at once: a person is to move
                    break
                await asyncio.sleep(self.motion.step_seconds(self.speed.value))
        except Exception:  # noqa: BLE001 - a background task has no caller to tell
            safety.log.exception("auto-play failed")
            self.report_failure(safety.FRIENDLY)
        finally:
            self.auto_button.value = False
            self._task = None

    async def _think_off_the_loop(self) -> bool | None:
        """A bot that thinks long (the coach) chooses on a worker thread, so the page answers meanwhile.

        None when the newest state's mover is not such a bot (step as usual); True once it has moved;
        False when the game on screen changed while it thought (its move is dropped).
        """
        s = self.state
        if (not self.session.bots_move_here or self.timeline.can_forward() or s.is_terminal()
                or s.current_player < 0):
            return None
        bot = self.bots[s.current_player]
        if bot is None or not getattr(bot, "thinks_long", False):
            return None
        self.say(f"{escape(self.player_name(s.current_player))} (the coach) is thinking…")
        self._thinking = True
        try:
            action = await asyncio.get_running_loop().run_in_executor(None, bot.choose, s)
        finally:
            self._thinking = False
        if self.state is not s or not self.auto_button.value:
            return False
        self.advance_to(s.apply(action))
        return True

    def stop_auto(self) -> None:
        """Stop auto-play (or a bot's answer) if it runs."""
        if hasattr(self, "auto_button"):
            self.auto_button.value = False
        if self._task is not None:
            with contextlib.suppress(Exception):
                self._task.cancel()
            self._task = None

    # ------------------------------------------------------------ keyboard

    def keyboard_targets(self) -> list[str]:
        """The places a person may play on now, in reading order (empty when no person is to move)."""
        s = self.state
        if self._targets_cache is not None and self._targets_cache[0] is s:
            return self._targets_cache[1]
        targets = [p for p in self.places() if s.actions_at(p)] if self.is_human_turn() else []
        self._targets_cache = (s, targets)
        return targets

    def key(self, key: str, shift: bool = False) -> None:
        """A key pressed on the focused board: arrows/Tab move the cursor, Enter plays, letters press buttons."""
        if key in keyboard.ARROWS or key == "Tab":
            self._move_cursor(key, shift)
        elif key in keyboard.PLAY_KEYS:
            if self.cursor is None:
                self._move_cursor("Tab", False)
            elif self.play_at(self.cursor):
                self.cursor = self.cursor if self.cursor in self.keyboard_targets() else None
                self._announce_cursor()
        elif key in keyboard.LEAVE_KEYS:
            self.cursor = None
            self.board_view.redraw()
            self.step_button.focus()
        elif key.lower() in keyboard.SHORTCUTS:
            self._shortcut(keyboard.SHORTCUTS[key.lower()])

    def _shortcut(self, command: str) -> None:
        """Run a button's command from the keyboard (only if the button is enabled)."""
        if command == "auto":
            self.auto_button.value = not self.auto_button.value
        elif command == "new_game_tab":
            self.tabs.selected_index = 1
        elif command == "hint":
            self.hint_panel.press_key()
        elif command == "review":
            self.review_panel.press_key()
        else:
            button = getattr(self, f"{command}_button")
            if not button.disabled:
                getattr(self, command)()

    def _move_cursor(self, key: str, shift: bool) -> None:
        """Move the cursor to another legal target and redraw."""
        targets = self.keyboard_targets()
        if not targets:
            self.cursor = None
            self.say("No place to play on now: " + (GAME_OVER if self.state.is_terminal() else
                                                      "press Step (S) to go on."))
            self.board_view.redraw()
            return
        if key == "Tab" or self.cursor not in targets:
            self.cursor = keyboard.cycle(targets, self.cursor if self.cursor in targets else None, backwards=shift)
        else:
            found = keyboard.toward(self.place_centre(self.cursor),
                                    {p: self.place_centre(p) for p in targets if p != self.cursor}, key)
            self.cursor = found or self.cursor
        self.board_view.redraw()
        self._announce_cursor()

    def _announce_cursor(self) -> None:
        """Say where the cursor is and what Enter would do there."""
        if self.cursor is None:
            return
        action = self.action_for(self.state, self.cursor)
        what = self.state.describe(action) if action is not None else "nothing can be played here"
        self.say(f"Cursor on <b>{escape(self.cursor)}</b>: {escape(what)} (Enter plays it).")

    # ------------------------------------------------------------ showing

    def report_failure(self, text: str) -> None:
        """Show a friendly failure sentence (safety.guarded calls this)."""
        self.say(escape(text), error=True)

    def say(self, text: str, error: bool = False) -> None:
        """Show a message under the buttons (errors framed in vermillion); '' clears it."""
        self.message.value = message_box(text, error)

    def _board_picture(self) -> Scene:
        """The game's board scene plus the keyboard cursor."""
        scene = self.board_scene(self.state)
        self.hint_panel.decorate(scene, self.state)
        self.review_panel.decorate(scene, self.state)
        if self.cursor is not None:
            shape = as_points([self.cursor_shape(self.cursor)])
            scene.add(Polygons(shape, None, stroke="#FFFFFF", line_width=6.0, tags=(("cursor", self.cursor),)))
            scene.add(Polygons(shape, None, stroke=palette.BLACK, line_width=3.0, tags=(("cursor", self.cursor),)))
        return scene

    def refresh(self) -> None:
        """The one refresh path: every part shows the state on screen (called by the timeline's change signal)."""
        s = self.state
        if self.cursor is not None and self.cursor not in self.keyboard_targets():
            self.cursor = None
        for part in self.parts:  # the board first: it is what a visitor waits for
            part(s)
        self.say("")
        self.announcer.announce((self.timeline.cursor, id(s)), self.position_words(s))  # last: all else is ready

    def _redraw_board(self, _state) -> None:
        """The board picture."""
        self.board_view.redraw()

    def _show_words(self, state) -> None:
        """Title, scores, explanation and the screen-reader description."""
        self.title.value = self.title_html(state)
        self.scores.value = self.scores_html(state)
        self.explanation.value = self.explanation_html(state)

    def result_words(self, state) -> str:
        """'Aspen wins' or 'Aspen and Pine share the victory'."""
        winners = state.winners()
        names = " and ".join(self.player_name(p) for p in winners)
        return f"{names} {'share the victory' if len(winners) > 1 else 'wins'}"

    def who_moves(self, state) -> str:
        """'Aspen to move', the chance words ('Dice to roll') or 'Game over: ... wins'."""
        if state.is_terminal():
            return f"Game over: {self.result_words(state)}"
        if state.current_player == core.CHANCE:
            return self.chance_words
        return f"{self.player_name(state.current_player)} to move"

    def title_html(self, state) -> str:
        """Headline: the game, its main option, who moves."""
        return f"<h2 style='margin:4px 0;font-size:1.17em'>{escape(self.game_type.title)} · {escape(self.who_moves(state))}</h2>"

    def scores_html(self, state) -> str:
        """Each seat: name, who plays it, score (games add their own columns by overriding)."""
        labels = dict((v, k) for k, v in self.form.seat_boxes[0].options) if self.form.seat_boxes else {}
        rows = []
        for p, kind in enumerate(self.seats):
            now = " ◀" if state.current_player == p else ""
            rows.append(f"<tr><td><b>{escape(self.player_name(p))}</b>{now}</td><td>{escape(labels.get(kind, kind))}"
                        f"</td><td>{state.scores()[p]}</td></tr>")
        return ("<table style='border-collapse:collapse;font-size:13px' cellpadding='3'><tr style='color:#555'>"
                "<th align=left>Player</th><th align=left>Played by</th><th>Score</th></tr>" + "".join(rows)
                + "</table>")

    def explanation_html(self, state) -> str:
        """What just happened and the rule in force now (the engine's words)."""
        happened = escape(state.last_event) if state.last_event else "Nothing yet: the game is about to start."
        return panel(f"<b>Just happened:</b> {happened}<br><b>Now:</b> {escape(state.explain())}")

    def position_words(self, state) -> str:
        """The position in words for a screen reader: the step, what changed, the scores, who moves."""
        t = self.timeline
        scores = ", ".join(f"{self.player_name(p)} {score}" for p, score in enumerate(state.scores()))
        happened = state.last_event or "The game is about to start."
        return f"At step {t.cursor} (of {len(t.states) - 1}): {happened} Scores: {scores}. {self.next_words(state)}."

    def next_words(self, state) -> str:
        """Who moves next, for the screen-reader text (worded apart from the headline)."""
        if state.is_terminal():
            return f"The game has ended and {self.result_words(state)}"
        return self.who_moves(state)

    def _update_access(self, state) -> None:
        """The move box's list of legal moves and the board's tables, for the state on screen."""
        note = ("The game is over." if state.is_terminal() else
                self.session.waiting_text() if not self.is_human_turn() else
                "Show your cards (lift the cover) to list your moves.")
        self.move_box.show(self.move_choices(state), note)
        self.board_words.value = access.tables_html(self.board_tables(state)) + (
            f"<p>{escape(self.position_words(state))}</p>")

    def _show_board_words(self, shown: bool) -> None:
        """Show the board's tables on screen too (they are always there for a screen reader)."""
        if shown:
            self.board_words.remove_class("treegames-sr-only")
        else:
            self.board_words.add_class("treegames-sr-only")
        self.words_toggle.description = "Hide the board in words" if shown else "Show the board in words"

    def _link_skip(self) -> None:
        """The 'Skip to the board' link and its target (ids from this dashboard's widget id)."""
        target = access.anchor_id(self)
        self.skip_link.value = access.skip_link_html(target)
        self.board_anchor.value = access.anchor_html(target, f"{self.game_type.title}: the {self.board_label}")

    def _update_buttons(self, state) -> None:
        """Enable exactly the buttons that can do something now."""
        t = self.timeline
        self.back_button.disabled = not t.can_back()
        self.forward_button.disabled = not t.can_forward()
        self.undo_button.disabled = not self.session.can_undo()
        self.end_turn_button.disabled = not (self.is_human_turn() and self.end_turn_action(state) is not None)
        self.step_button.disabled = state.is_terminal() and not t.can_forward()
        bots_here = None if self.session.bots_move_here else "none"  # at a shared table the authority moves them
        self.auto_button.layout.display = self.speed.layout.display = self.answer_box.layout.display = bots_here

    def log_label(self, index: int) -> str:
        """The event-log entry for state ``index``: the engine's words for the action that led to it."""
        t = self.timeline
        state = t.states[index]
        cached = self._log_cache.get(index)
        if cached is not None and cached[0] is state:
            return cached[1]
        label = f"{index}. {t.states[index - 1].describe(state.last_action)}"
        self._log_cache[index] = (state, label)
        return label

    def _update_log(self, _state) -> None:
        """The event log around the step on screen; picking an entry jumps there."""
        t = self.timeline
        first = max(1, t.cursor - LOG_WINDOW + 20)
        last = min(len(t.states) - 1, first + LOG_WINDOW - 1)
        entries = [(self.log_label(i), i) for i in range(first, last + 1)]
        self._log_busy = True
        try:
            self.event_log.options = entries
            self.event_log.value = t.cursor if t.cursor >= first else None
        finally:
            self._log_busy = False
        shown = f" (the list shows steps {first}-{last})" if first > 1 or last < len(t.states) - 1 else ""
        self.position.value = f"Step <b>{t.cursor}</b> of {len(t.states) - 1}{shown}"

    def _on_log(self, index) -> None:
        """A log entry was picked: jump to that moment."""
        if getattr(self, "_log_busy", False) or index is None or index == self.timeline.cursor:
            return
        self.stop_auto()
        self.timeline.jump(index)

    # ------------------------------------------------------------ save, open, picture

    def _on_tab(self, index) -> None:
        """A tab was opened (the save links are only made while their tab shows)."""
        if index == self.save_tab:
            self._update_save(self.state)

    def save_text(self) -> str:
        """The game on screen as the engine's saved-game JSON."""
        return self.state.to_json()

    def picture_svg(self) -> str:
        """The board on screen as SVG (without the keyboard cursor)."""
        return self.board_scene(self.state).to_svg()

    def _update_save(self, state) -> None:
        """Download and Save picture links for the state on screen (only while the Save / Open tab shows)."""
        if self.tabs.selected_index != self.save_tab:
            return
        name = self.game_type.name.replace("_", "-")
        step = self.timeline.cursor
        self.save_link.value = download_link(self.save_text(), f"{name}-game-step-{step}.json", "Download this game")
        self.picture_link.value = download_link(self.picture_svg(), f"{name}-board-step-{step}.svg", "Save picture",
                                                mime="image/svg+xml", icon="picture")

    def _on_upload(self, files) -> None:
        """A saved game was chosen: rebuild it through the engine, or say what is wrong and keep this game."""
        if not files:
            return
        try:
            text = uploaded_text(files)
            states = states_from_saved(self.game_module, text)
        except core.SavedGameError as err:
            self.say(f"Could not open that file: {escape(err)}. Your game is unchanged.", error=True)
            return
        finally:
            self.upload.value = ()
        self.open_states(states)

    def open_saved(self, text: str) -> None:
        """Open saved-game text (as the Open button does); SavedGameError leaves the game unchanged."""
        self.open_states(states_from_saved(self.game_module, text))

    def open_states(self, states: list) -> None:
        """Show a rebuilt game, newest moment on screen; the seats stay as chosen."""
        self.stop_auto()
        self.game = states[0].game if hasattr(states[0], "game") else self.game
        self._log_cache = {}
        self.cursor = None
        self.timeline.replace(states)
        self.say(f"Opened a saved game: {plural(len(states) - 1, 'step')}, replayed through the rules.")

    # ------------------------------------------------------------ kept for callers of the old widgets

    @property
    def controllers(self) -> tuple[str, ...]:
        """Who plays each seat (old name of ``seats``)."""
        return self.seats
