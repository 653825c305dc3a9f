"""The page's words: headline, scores, explanation, the position for screen readers, the event log.

A mixin of :class:`~treegames.ui.dashboard.GameDashboard`; the words themselves come from the engine.
"""

from __future__ import annotations

from .. import core
from . import access
from .text import escape, panel

LOG_WINDOW = 100
"""How many event-log entries are listed around the current step (Back/Forward reach the rest)."""


class PageWords:
    """The page's words: the headline, scores, explanation, the position for screen readers, the event log."""

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
        labels = self.seat_kind_labels()
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
        """The board's tables, then the move box's list of legal moves, for the state on screen.

        In that order: a page that reads "legal moves now" already has the board's tables of the same moment
        (a keyboard test once read the moves off the tables of the moment before).
        """
        note = ("The game is over." if state.is_terminal() else
                self.session.waiting_text() if not self.is_human_turn() else
                "Show your cards (lift the cover) to list your moves.")
        self.board_words.value = access.tables_html(self.board_tables(state)) + (
            f"<p>{escape(self.position_words(state))}</p>")
        self.move_box.show(self.move_choices(state), note)

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
