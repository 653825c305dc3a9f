"""Bots answering by themselves, Auto-play at a speed, and the coach thinking off the event loop.

A mixin of :class:`~treegames.ui.dashboard.GameDashboard` (it uses the page's own widgets and session).
"""

from __future__ import annotations

import asyncio
import contextlib

from . import safety
from .styles import set_icon
from .text import escape


class AutoPlay:
    """Bots answering by themselves, Auto-play at a speed, and the coach thinking off the event loop."""

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
