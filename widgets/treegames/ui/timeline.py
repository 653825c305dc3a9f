"""Undo and time travel as a list of immutable states (house rule 2), shared by every game view.

The timeline is also the dashboards' one "state changed" signal: every change of
the state on screen (a new state, Back, Forward, a jump, Undo, a loaded game)
calls the functions registered with :meth:`Timeline.on_change`, once.
"""

from __future__ import annotations

from ..core import CHANCE


class Timeline:
    """Every state of one game so far, and which one is on screen."""

    def __init__(self, first):
        self.states = [first]
        self.cursor = 0
        self._listeners: list = []

    @classmethod
    def from_states(cls, states: list) -> Timeline:
        """A timeline holding ``states`` (oldest first) with the newest on screen."""
        timeline = cls(states[0])
        timeline.states = list(states)
        timeline.cursor = len(timeline.states) - 1
        return timeline

    def on_change(self, fn) -> None:
        """Call ``fn()`` after every change of the state on screen (the dashboards' one refresh signal)."""
        self._listeners.append(fn)

    def _changed(self) -> None:
        """Tell every listener that the state on screen changed."""
        for fn in self._listeners:
            fn()

    def replace(self, states: list) -> None:
        """Hold a new list of states (a new or loaded game), newest on screen."""
        self.states = list(states)
        self.cursor = len(self.states) - 1
        self._changed()

    @property
    def current(self):
        """The state on screen."""
        return self.states[self.cursor]

    @property
    def latest(self):
        """The newest state of the game."""
        return self.states[-1]

    def is_at_latest(self) -> bool:
        """True if the newest state is on screen."""
        return self.cursor == len(self.states) - 1

    def push(self, state) -> bool:
        """Show a new state after the one on screen; returns True if later states were discarded for it."""
        discarded = not self.is_at_latest()
        del self.states[self.cursor + 1:]
        self.states.append(state)
        self.cursor += 1
        self._changed()
        return discarded

    def can_back(self) -> bool:
        """True if an earlier state exists."""
        return self.cursor > 0

    def can_forward(self) -> bool:
        """True if a later state exists."""
        return self.cursor < len(self.states) - 1

    def back(self) -> None:
        """Show the previous state."""
        if self.can_back():
            self.cursor -= 1
            self._changed()

    def forward(self) -> None:
        """Show the next state."""
        if self.can_forward():
            self.cursor += 1
            self._changed()

    def jump(self, index: int) -> None:
        """Show state number ``index`` (0 = the start); out-of-range is clamped."""
        index = max(0, min(index, len(self.states) - 1))
        if index != self.cursor:
            self.cursor = index
            self._changed()

    def can_undo(self) -> bool:
        """True if the state on screen came from a player's action (a die roll or draw cannot be undone)."""
        return self.cursor > 0 and self.states[self.cursor - 1].current_player != CHANCE

    def undo(self) -> bool:
        """Take back the player action that led to the state on screen, dropping later states."""
        if not self.can_undo():
            return False
        self.cursor -= 1
        del self.states[self.cursor + 1:]
        self._changed()
        return True
