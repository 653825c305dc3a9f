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

import random
from collections.abc import Callable

import ipywidgets as widgets

from .. import core
from . import access, palette, safety
from .autoplay import AutoPlay
from .canvas import SceneCanvas
from .forms import PERSON, NewGameForm
from .hint import HintPanel
from .keyboard_play import KeyboardPlay
from .motion import MotionPreference
from .page_hooks import GameHooks
from .page_words import PageWords
from .panels import Collapsible
from .review import ReviewPanel
from .saved_games import SavedGames
from .scene import Polygons, Scene, as_points
from .session import GAME_OVER, LocalSession
from .styles import icon_button, icon_toggle, stylesheet
from .text import escape, message_box
from .timeline import Timeline

KEYS_HELP = ("Keys on the board (click it or Tab to it): arrows or Tab move the cursor between the places you "
             "may play, Enter plays there, Esc leaves the board; S Step, B Back, F Forward, U Undo, E End turn, "
             "A Auto-play or Pause, H Hint (again: Think longer), R Review (after the game).")
"""How to play the board by keyboard, shown under the board (ipycanvas' view breaks on a canvas tooltip)."""


def make_bot(game_type, kind: str, seed: int):
    """The bot for a seat, seeded so a game replays exactly (None for a person)."""
    if kind == PERSON:
        return None
    return game_type.bots[kind](random.Random(seed))


class GameDashboard(GameHooks, AutoPlay, KeyboardPlay, PageWords, SavedGames, widgets.VBox):
    """A whole game to play, watch or step through; subclasses supply the board picture and its places.

    Its jobs live in mixins of their own: a game's hooks (:mod:`.page_hooks`), auto-play (:mod:`.autoplay`),
    keyboard play (:mod:`.keyboard_play`), the page's words (:mod:`.page_words`), Save and Open
    (:mod:`.saved_games`); who moves the game is its session (:mod:`.session`).
    """

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
        self.board_view.on_connect(self.resend_page)  # after the board's own redraw for the connecting page
        self._build(seed, seats, options or {}, answer, speed)
        self.parts = [self._redraw_board, self._show_words, self._update_buttons, self._update_log,
                      self._update_save, self._update_access, self.hint_panel.follow, self.review_panel.follow, *self.extra_parts()]
        self.new_game(seed=seed, seats=seats, **(options or {}))
        self.tables_tab.children = [self.tables_panel()]  # shared tables
        super().__init__([self.skip_link, self.title, self.main_row, self.words, stylesheet()])
        self._link_skip()
        self.add_class("treegames-dashboard")
        self.add_class(f"treegames-{self.game_type.name}-play")

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
        self.coach = widgets.VBox([self.hint_panel, self.review_panel], layout=widgets.Layout(max_width="100%"))
        self.coach.add_class("treegames-coach")  # the coach in one place: Hint, Think longer and (after the game) Review
        self.right = widgets.VBox([*self.side_widgets(), self.scores, buttons, self.settings, self.coach, self.message,
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

    def seat_kind_labels(self) -> dict[str, str]:
        """Each seat kind's label as the New game form shows it ('person' -> 'Person', 'greedy' -> 'Bot (greedy)')."""
        return dict((v, k) for k, v in self.form.seat_boxes[0].options) if self.form.seat_boxes else {}

    def seats_text(self) -> str:
        """Who plays each seat, in words."""
        labels = self.seat_kind_labels()
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

    # ------------------------------------------------------------ showing

    def resend_page(self) -> int:
        """A page connected: send it every widget's whole state, including changes made before it listened."""
        return safety.resend_state(self)

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

    # ------------------------------------------------------------ kept for callers of the old widgets

    @property
    def controllers(self) -> tuple[str, ...]:
        """Who plays each seat (old name of ``seats``)."""
        return self.seats
