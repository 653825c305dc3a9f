"""The Hint panel of every Play page: the coach thinks for the person to move and shows its estimates.

Pressing Hint (or the H key on the board) runs :class:`treegames.search.ParallelSearch`
(:data:`HINT_TREES` root-parallel trees, the second in a worker process when that pays) for
the player to move on a background thread, with a progress bar and Cancel.  While it
thinks, the estimates so far are shown twice a second, the first after a fraction of a
second ("so far ... (still thinking)", the leader marked "leading so far").  When it
stops, the top moves are listed with the coach's estimate of the chance to win
after each (the share of its playouts won), the 95% Wilson interval of that share
and the number of playouts, in the engine's notation ("seed K6: wins 64% (58–70%) of
412 playouts").  The coach's choice is outlined on the board (the kit's cursor
shape, in the highlight colour).  "Think longer" continues the same search, so the
intervals narrow as the playouts add up.

A hint is offered only when a person is to move in a game that is not over.  A wrong
click (during a bot's turn, at the end, twice in a row) only says why nothing happens.
When the position on screen changes, a running search is cancelled and its
estimates are cleared: they belong to the position they were made for.

At a shared table Hint is for practice: it works only where the table's creator
ticked "Allow Hint at this table (practice)", which the authority keeps with the
table and sends in every view (``TableView.hint_allowed``); the page reads nothing
else, so no page can switch it on for itself.  There the hint is for this page's
own seat, at the newest moment, on its turn; when another seat moves, the new
position cancels the search as above.  In Mighty Trees the coach searches from the
seat's own view only (:meth:`~treegames.ui.mighty_trees.seat.SeatState.coach_state`):
the unseen cards are dealt at random for every playout, as in a game of one's own.
At a table without hints the button stays in its place, marked off, and says why
(:data:`HINT_OFF`).
"""

from __future__ import annotations

import random
import time
from enum import StrEnum
from typing import Any

import ipywidgets as widgets

from .. import core
from ..search import Budget, MoveStats, ParallelSearch, Progress, coach_choice, rollout_for
from . import palette, safety
from .jobs import JobPanel
from .scene import Polygons, Scene, as_points
from .text import escape, percent_text, plural

__all__ = ["HintPanel", "HintState", "HINT_BUDGET", "MORE_BUDGET", "HINT_TREES", "TOP_MOVES", "HINT_OFF", "LIVE_SECONDS"]

HINT_BUDGET = Budget(iterations=400, seconds=10.0)
"""What one press of Hint spends: 400 playouts, or 10 seconds if that comes first."""

MORE_BUDGET = Budget(iterations=800, seconds=20.0)
"""What one press of Think longer adds to the same search."""

HINT_TREES = 2
"""Root-parallel trees of a hint: on a 2-core machine the second grows in a worker process when the rest
would take over a second (see treegames.search.parallel), so a long hint takes about half the time."""

TOP_MOVES = 5
"""How many moves the panel lists."""

LIVE_SECONDS = 0.5
"""While the coach thinks, the estimates so far are shown this often (the first after its first chunk of
playouts, a fraction of a second), so a person never waits for the whole budget to see an answer."""

HINT_OFF = "Hint is off at this table; the table's creator can allow it when creating the table."
"""What a press of Hint (or H) says at a shared table created without hints."""

TOOLTIP = "What would the coach play here? (H)"
"""The Hint button's tooltip when a hint can be given (otherwise the tooltip says why not)."""

NOTE = ("Estimates from random playouts, not certainties: each interval is where the true share "
        "probably lies (95%). Think longer narrows them.")


def searchable(state: Any) -> Any:
    """The engine state the coach searches from: ``state``, or a shared table seat's ``coach_state()``."""
    make = getattr(state, "coach_state", None)
    return make() if callable(make) else state


def hint_key(state: Any) -> int:
    """What seeds a hint's random numbers: the table's version for a seat's moment, else the actions so far."""
    version = getattr(state, "version", None)
    return version if isinstance(version, int) else len(state.history)


class HintState(StrEnum):
    """Where the panel is."""

    IDLE = "idle"
    THINKING = "thinking"
    SHOWN = "shown"


class HintPanel(JobPanel):
    """Hint, Think longer and Cancel, a progress bar and the coach's top moves, for one dashboard."""

    BUSY = HintState.THINKING
    IDLE = HintState.IDLE

    def __init__(self, owner: Any):
        super().__init__(owner, "Coach", "Cancel", "Stop the coach thinking")
        self.search: ParallelSearch | None = None
        self.searched: Any = None  # the state the search is about
        self.choice_place: str | None = None
        self.choice: Any = None  # the coach's move after the last finished search (coach_choice)
        self._next_live = 0.0  # when the estimates so far may be shown again (time.monotonic)
        self._off = False  # True while the page is at a shared table without hints
        self.hint_button = widgets.Button(description="Hint", tooltip=TOOLTIP,
                                          layout=widgets.Layout(width="auto"))
        self.more_button = widgets.Button(description="Think longer", disabled=True,
                                          tooltip="Go on with the same search: more playouts, narrower intervals",
                                          layout=widgets.Layout(width="auto"))
        self.words = widgets.HTML(layout=widgets.Layout(width="100%"))
        self.words.add_class("treegames-hint-moves")
        safety.on_click(self.hint_button, self.hint, report=self.report)
        safety.on_click(self.more_button, self.think_longer, report=self.report)
        row = widgets.HBox([self.hint_button, self.more_button, self.cancel_button, self.progress],
                           layout=widgets.Layout(flex_flow="row wrap", max_width="100%"))
        row.add_class("treegames-buttons")
        self.children = [row, self.note, self.words]
        self.add_class("treegames-hint")

    # ------------------------------------------------------------ when a hint makes sense

    def table(self) -> Any:
        """The shared table the page sits at (its session), or None for a game of its own."""
        return self.owner.shared_table()

    def hints_off(self) -> bool:
        """Whether the page is at a shared table whose authority says Hint is not allowed there."""
        table = self.table()
        return table is not None and table.view.hint_allowed is not True

    def why_not(self, state: Any) -> str | None:
        """Why the coach cannot give a hint for ``state`` now, or None if it can."""
        table = self.table()
        if table is not None:
            reason = self._why_not_at_table(table)
            if reason is not None:
                return reason
        if state.is_terminal():
            return "The game is over: there is no move to hint at."
        if state.current_player == core.CHANCE:
            return "Chance acts next (press Step): a hint is for a player's move."
        if not self.owner.is_human_turn():
            if table is not None:
                return f"Waiting for {table.seat_name(state.current_player)} to move: a hint is for your own move."
            return f"It is {self.owner.player_name(state.current_player)}'s turn, played by a bot: no hint needed."
        return None

    def _why_not_at_table(self, table: Any) -> str | None:
        """Why a shared table gives no hint now (hints off, watching, an earlier moment), or None."""
        if self.hints_off():
            return HINT_OFF
        if table.view.seat is None:
            return "You are watching this table: a hint is for a player's own move."
        if not self.owner.timeline.is_at_latest():
            return "You are looking at an earlier moment: press Forward to the newest one for a hint."
        return None

    # ------------------------------------------------------------ the buttons

    def hint(self) -> bool:
        """Start the coach on the position on screen (or show its estimates again); False if it cannot."""
        state = self.owner.state
        with self._lock:
            if self.status is HintState.THINKING:
                self._note("The coach is already thinking: wait, or press Cancel.")
                return False
            reason = self.why_not(state)
            if reason is not None:
                self._note("")  # said again even when it already shows, so a screen reader hears it
                self._note(reason)
                return False
            if self.search is not None and self.searched is state:
                self._show()
                return True
            self.search = ParallelSearch(searchable(state), random.Random(f"hint/{hint_key(state)}"),
                                         rollout=rollout_for(state.game.name), trees=HINT_TREES)
            self.searched = state
            self.choice_place = None
            return self._start(HINT_BUDGET)

    def think_longer(self) -> bool:
        """Go on with the same search for more playouts; a new hint if the position changed."""
        with self._lock:
            if self.status is HintState.THINKING:
                self._note("The coach is already thinking: wait, or press Cancel.")
                return False
            if self.search is None or self.searched is not self.owner.state:
                return self.hint()
            reason = self.why_not(self.owner.state)
            if reason is not None:  # the same position, but the table has changed (closed, say)
                self._note(reason)
                return False
            return self._start(MORE_BUDGET)

    def press_key(self) -> None:
        """The H key: Hint, or Think longer when the estimates for this position are shown."""
        if self.status is HintState.SHOWN and self.searched is self.owner.state:
            self.think_longer()
        else:
            self.hint()

    # ------------------------------------------------------------ thinking in the background

    def _start(self, budget: Budget) -> bool:
        """Think for ``budget`` on a background thread, then show the result unless the position changed."""
        self.hint_button.disabled = self.more_button.disabled = True
        search = self.search

        def done(cancelled: bool) -> None:
            if search is not self.search:  # the position changed while it thought: nothing to show
                return
            self.status = HintState.SHOWN
            self._reset_buttons()
            self._end_bar(not cancelled)
            self.progress.value = 1.0
            self.choice = coach_choice(search.state, search)
            self.choice_place = self.place_of(search.state, self.choice)
            self._note("")
            self._show(cancelled=cancelled)
            self._redraw()

        self._next_live = 0.0

        def progress(report: Progress) -> None:
            self._on_progress(report)
            self._live(search, report)

        return self._launch("treegames-hint", "The coach is thinking…",
                            lambda cancel: search.think(budget, cancel=cancel, progress=progress), done,
                            "The coach could not think about this position (an error was logged).")

    def _on_progress(self, report: Progress) -> None:
        """From the search thread: move the bar."""
        self.progress.value = report.fraction

    def _live(self, search: ParallelSearch, report: Progress) -> None:
        """From the search thread, at most every LIVE_SECONDS: the estimates so far (read in the thread that grows them)."""
        now = time.monotonic()
        if report.finished or now < self._next_live:
            return
        self._next_live = now + LIVE_SECONDS
        rows = self.top_moves(search)
        with self._lock:
            if search is self.search and self.is_busy() and rows:
                self._show(rows=rows, iterations=search.iterations, thinking=True)

    def _reset_buttons(self) -> None:
        """Buttons for a panel that is not thinking."""
        super()._reset_buttons()
        state = self.owner.state
        self.hint_button.disabled = False
        self.more_button.disabled = not (self.search is not None and self.searched is state)

    # ------------------------------------------------------------ following the dashboard

    def follow(self, state: Any) -> None:
        """A dashboard part: a new position on screen cancels a search about another and clears its moves.

        At a shared table a search also stops when the table no longer wants it (closed by the teacher,
        say), with the reason.
        """
        with self._lock:
            stale = self.searched is not None and self.searched is not state
            reason = (self.why_not(state) if self.status is HintState.THINKING and self.table() is not None
                      else None)
            if stale or reason is not None:
                self._cancel.set()
                self.search, self.searched, self.choice_place = None, None, None
                self.status = HintState.IDLE
                self.words.value = ""
                self._note(reason or "")
                self.progress.layout.visibility = "hidden"
            self._mark_off()
            if self.status is not HintState.THINKING:
                self._reset_buttons()
                self.hint_button.tooltip = self.why_not(state) or TOOLTIP

    def _mark_off(self) -> None:
        """At a table without hints the button looks off and the reason stays under it (both go on leaving)."""
        off = self.hints_off()
        if off == self._off:
            return
        self._off = off
        if off:
            self.hint_button.add_class("treegames-hint-off")
        else:
            self.hint_button.remove_class("treegames-hint-off")
        self._note(HINT_OFF if off else "")

    def decorate(self, scene: Scene, state: Any) -> None:
        """Outline the coach's choice on the board, if it is about this state and names a place."""
        place = self.choice_place
        if place is None or state is not self.searched:
            return
        try:
            shape = as_points([self.owner.cursor_shape(place)])
        except (NotImplementedError, KeyError, ValueError):  # a board without shapes for its places
            return
        scene.add(Polygons(shape, None, stroke=palette.BLACK, line_width=7.0, tags=(("hint", place),)))
        scene.add(Polygons(shape, None, stroke=palette.HIGHLIGHT, line_width=4.0, tags=(("hint", place),)))

    def place_of(self, state: Any, action: Any) -> str | None:
        """The first place (in the board's reading order) whose actions include ``action``, or None."""
        try:
            places = self.owner.places()
        except NotImplementedError:
            return None
        for place in places:
            try:
                if action in state.actions_at(place):
                    return place
            except ValueError:
                continue
        return None

    # ------------------------------------------------------------ words

    def top_moves(self, search: ParallelSearch | None = None) -> list[MoveStats]:
        """The best moves so far of ``search`` (default: the panel's), most playouts first, at most TOP_MOVES, tried ones only."""
        search = self.search if search is None else search
        if search is None:
            return []
        return [row for row in search.statistics() if row.visits][:TOP_MOVES]

    def _show(self, cancelled: bool = False, rows: list[MoveStats] | None = None, iterations: int | None = None,
              thinking: bool = False) -> None:
        """List the top moves with their estimates (``thinking``: the ones so far, while the search goes on)."""
        search = self.search
        if search is None:
            return
        who = escape(self.owner.player_name(search.player))
        iterations = search.iterations if iterations is None else iterations
        so_far = " so far" if thinking else ""
        head = (f"<b>The coach's estimates{so_far} for {who}</b> after {plural(iterations, 'playout')}"
                + (" (cancelled)" if cancelled else "") + (" (still thinking)" if thinking else "") + ":")
        items = []
        shown = self.top_moves() if rows is None else rows
        choice = None if thinking or not shown else self.choice
        for index, row in enumerate(shown):
            if thinking:
                mark = " <b>(leading so far)</b>" if index == 0 else ""
            else:
                mark = " <b>(the coach's choice)</b>" if row.action == choice else ""
            items.append(f"<li title='{escape(row.description)}'>{escape(row.text())}{mark}"
                         f"<br><span style='font-size:12px;color:{palette.MUTED_INK}'>"
                         f"{escape(row.description)}</span></li>")
        body = f"<ol style='margin:4px 0 4px 20px;padding:0'>{''.join(items)}</ol>" if items else ""
        why = "" if choice is None or choice == shown[0].action else self._handing_words(search, shown[0], choice)
        note = f"<div style='font-size:12px;color:{palette.MUTED_INK}'>{escape(NOTE)}</div>"
        self.words.value = f"<div>{head}{body}{why}{note}</div>"

    def _handing_words(self, search: ParallelSearch, top: MoveStats, choice: Any) -> str:
        """Why the coach does not play its most played move: it could hand a rival the win (core.least_handing)."""
        state = search.state
        said = f"<p><b>The coach's choice</b>: {escape(state.describe(choice))}. "
        if choice == core.winning_action(state):
            return said + "It wins the game at once, whatever the playouts say.</p>"
        chance = core.handed_win_chance(state.apply(top.action), state.current_player)
        return said + (f"The most played move would end the turn with a {percent_text(chance, 0)} chance that a "
                       "rival wins at once or with one move, so the coach plays a move that hands less.</p>")
