"""Save, Open and Save picture on a Play page: saved games replayed through the rules.

A mixin of :class:`~treegames.ui.dashboard.GameDashboard` (it uses the page's own widgets and timeline).
"""

from __future__ import annotations

from .. import core
from .saving import download_link, states_from_saved, uploaded_text
from .text import escape, plural


class SavedGames:
    """Save, Open and Save picture."""

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
