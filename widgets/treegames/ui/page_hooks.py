"""What a game's Play page supplies (its picture, places and words), with the kit's defaults.

A mixin of :class:`~treegames.ui.dashboard.GameDashboard`: a game's page overrides these (KIT_API.md).
"""

from __future__ import annotations

from collections.abc import Callable

import ipywidgets as widgets

from .. import core
from .scene import Scene
from .session import GAME_OVER
from .text import escape


class GameHooks:
    """What a game's Play page supplies (the picture, its places, its words); the kit's defaults."""

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
