"""Playing the board by keyboard: the cursor, Enter, and the page's shortcut keys.

A mixin of :class:`~treegames.ui.dashboard.GameDashboard` (it uses the page's own widgets and session).
"""

from __future__ import annotations

from . import keyboard
from .session import GAME_OVER
from .text import escape


class KeyboardPlay:
    """Playing the board by keyboard: the cursor, Enter, and the page's shortcut keys."""

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
