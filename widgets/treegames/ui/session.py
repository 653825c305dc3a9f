"""Who moves a Play page's game: this kernel (:class:`LocalSession`) or a shared table's authority.

A :class:`~treegames.ui.dashboard.GameDashboard` asks its ``session`` and never asks which kind it has.
Both kinds answer the same questions:

* ``is_person(player)``: is that seat played by a person on this page?
* ``step()``, ``play(action)``, ``undo()``: go on, play a person's move, take one back;
* ``waiting_text()``: what the page waits for when no person here is to move;
* ``can_undo()``, ``bots_move_here``: whether Undo and Auto-play (the bots' speed) mean anything here;
* ``shared``: True at a shared table (the Hint asks whether its creator allowed it);
* ``leave()``: the page starts a game of its own.

The shared kind is :class:`treegames.ui.tables.shared.SharedTable`: there the authority rolls the dice
and moves the bots, and a move counts once it has it, so nothing is undone.
"""

from __future__ import annotations

from .. import core
from .text import escape

__all__ = ["LocalSession", "GAME_OVER"]

GAME_OVER = "The game is over. Start a new game from the New game tab."


class LocalSession:
    """The game lives in this kernel: persons click, and this kernel rolls the dice and moves the bots."""

    shared = False
    bots_move_here = True

    def __init__(self, dashboard):
        self.dashboard = dashboard

    def is_person(self, player: int) -> bool:
        """True if a person plays seat ``player`` (no bot sits there)."""
        bots = self.dashboard.bots
        return 0 <= player < len(bots) and bots[player] is None

    def step(self) -> bool:
        """Replay a later state, roll at a chance node, or let a bot move; False if a person must act."""
        d = self.dashboard
        if d.timeline.can_forward():
            d.timeline.forward()
            return True
        s = d.state
        if s.is_terminal():
            d.say(GAME_OVER)
            return False
        if s.current_player == core.CHANCE:
            d.advance_to(s.apply(core.sample_chance(s, d.rng)))
            return True
        bot = d.bots[s.current_player]
        if bot is None:
            d.say(d.your_move_text(s))
            return False
        if d.is_thinking():  # the coach is choosing on its worker thread: its own move comes by itself
            return False
        d.advance_to(s.apply(bot.choose(s)))
        return True

    def play(self, action) -> bool:
        """Apply a person's action; on IllegalAction show the engine's reason and change nothing."""
        d = self.dashboard
        try:
            nxt = d.state.apply(action)
        except core.IllegalAction as err:
            d.say(f"Not allowed: {escape(err)}", error=True)
            return False
        d.advance_to(nxt)
        d.answer()
        return True

    def undo(self) -> None:
        """Take back the last move (never a die roll or draw)."""
        d = self.dashboard
        if d.timeline.undo():
            d.say("Took back the last action.")
        else:
            d.say("Nothing to undo here: a die roll or a draw cannot be taken back.")

    def can_undo(self) -> bool:
        """True when the timeline holds a move to take back."""
        return self.dashboard.timeline.can_undo()

    def waiting_text(self) -> str:
        """What the page waits for when no person here is to move."""
        return "Press Step (S) to go on."

    def leave(self) -> None:
        """Nothing to leave: the game is this page's own."""
