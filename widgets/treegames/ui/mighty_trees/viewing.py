"""Whose eyes a Mighty Trees table is drawn for, and what it shows them: hands, highlights, the words.

A mixin of :class:`~treegames.ui.mighty_trees.play.MightyTreesPlay`: a hand is drawn face up only for
its own person with the cover lifted (or in the Teacher view); a shared table's page has only its seat's view.
"""

from __future__ import annotations

from ... import core
from ... import mighty_trees as mt
from .clicks import ClickPlanner, viewer_for
from .seat import SeatState


class TableViewing:
    """Whose eyes the table is drawn for, and what it shows them."""

    def people(self) -> tuple[int, ...]:
        """The seats played by people at this screen (at a shared table: this page's own seat, if any)."""
        s = self.state
        if isinstance(s, SeatState):
            return () if s.seat is None else (s.seat,)
        return tuple(p for p in range(len(self.seats)) if self.is_person(p))

    def seat_label(self, player: int) -> str:
        """'P1 (you)', 'P2 (bot)', 'P3 (person)' for the table (a shared table: the labels players typed)."""
        table = self.shared_table()
        if isinstance(self.state, SeatState) and table is not None:
            return table.seat_name(player)
        people = self.people()
        if not self.is_person(player):
            return f"P{player + 1} (bot)"
        return f"P{player + 1} (you)" if len(people) == 1 else f"P{player + 1} (person)"

    def viewer(self, state) -> int:
        """The player whose view the table shows now (a shared table: the seat's own, or PUBLIC)."""
        if isinstance(state, SeatState):
            return state.view.player
        return viewer_for(state, self.people(), self.cover.seen_by)

    def teacher_on(self) -> bool:
        """Whether the Teacher view shows every hand (never at a shared table: the page has only one)."""
        return self.teacher_box.value and not isinstance(self.state, SeatState)

    def can_see_hand(self, state, viewer: int) -> bool:
        """Whether the viewer's Command may be drawn face up now (a person with the cover lifted, or Teacher view)."""
        if isinstance(state, SeatState):
            return viewer >= 0 and viewer == state.seat
        if self.teacher_on():
            return True
        if viewer not in self.cover.people:
            return False
        return not self.cover.update(viewer)

    def reader(self, state) -> int | None:
        """Whose eyes the engine's words are for: None (every card) in the Teacher view, else the viewer,
        or ``mt.PUBLIC`` (public cards only) while the viewer's hand is covered or belongs to a bot."""
        if self.teacher_on():
            return None
        viewer = self.viewer(state)
        return viewer if self.can_see_hand(state, viewer) else mt.PUBLIC


    def highlights(self, state) -> frozenset:
        """Outlined places: sources, or the chosen card's targets (only for a person to move who can see)."""
        if not self.is_human_turn() or not self.can_see_hand(state, self.viewer(state)):
            return frozenset()
        if self.viewer(state) != state.mover:
            return frozenset()
        planner = ClickPlanner(state, self.selected)
        lit = planner.highlights()
        if self.pending is not None and self.pending.verb is mt.Verb.PLANT and self.pending.player >= 0:
            lit = lit | {("understory", self.pending.player, self.pending.slot)}
        return lit

    def _selected_slot(self) -> frozenset:
        """A chosen tree of the mover's (not a hand card) is outlined too."""
        if self.selected is not None and self.selected[0] in ("understory", "canopy"):
            return frozenset({self.selected})
        return frozenset()

    def sol_note(self, state, viewer: int) -> str:
        """The engine's reason why the turn cannot end yet (the 1-Sol minimum), for the mover's eyes."""
        if state.phase is not mt.Phase.BATTLE or viewer != state.mover:
            return ""
        reason = state.why_not(mt.Action(mt.Verb.END))
        return reason or ""

    def fresh_cards(self, state, viewer: int) -> frozenset:
        """Cards that arrived in the viewer's Command with the last step (a draw shown as it happens)."""
        t = self.timeline
        if t.cursor == 0 or state.habitat_card is None:
            return frozenset()
        before = t.states[t.cursor - 1]
        if isinstance(state, SeatState):  # the cards that came since this page's last moment at the table
            if not isinstance(before, SeatState) or viewer != state.seat:
                return frozenset()
            old = {c.id for c in before.view.hand}
            return frozenset(c.id for c in state.view.hand if c.id not in old)
        if before.current_player != core.CHANCE:
            return frozenset()
        old = {c.id for c in before.hand(viewer)}
        return frozenset(c.id for c in state.view_for(viewer).hand if c.id not in old)

    def _fit_canvas(self, height: int) -> None:
        """Resize the canvas when the table grows or shrinks (players, Teacher view)."""
        canvas = self.board_view.canvas
        if canvas.height != height:
            canvas.height = height
            canvas.layout.height = f"{height}px"

    def _forget_stale_choice(self, state) -> None:
        """A choice belongs to the state it was made on."""
        if state is not self._seen_state:
            self._seen_state = state
            self.selected = None
            self.pending = None
            self._hide_preview()

    def _hide_preview(self) -> None:
        """Hide the attack preview."""
        self.preview_box.layout.display = "none"
        self.preview.value = ""

    def _update_panels(self, state) -> None:
        """The Actions list, the Odds tab and the cover button, for the eyes at the screen."""
        viewer = self.viewer(state)
        sees = self.can_see_hand(state, viewer)
        self.teacher_box.layout.display = "none" if isinstance(state, SeatState) else None
        self.show_hand_button.layout.display = None if (viewer in self.cover.people and not sees) else "none"
        mover_here = self.is_human_turn() and self.viewer(state) == state.mover and sees
        if mover_here:
            legal = state.legal_actions()
            self.action_list.options = [(state.describe(a), a) for a in legal]
            self.actions_note.value = (f"<b>{len(legal)} legal actions</b> for {self.player_name(state.mover)} "
                                       "(the engine's words; the cost is in each line):")
        else:
            self.action_list.options = []
            self.actions_note.value = "<i>The list shows the legal actions of the person whose turn it is.</i>"
        self.action_button.disabled = not mover_here
        drawing = state.mover if state.mover >= 0 else None
        show_odds = drawing is not None and (self.teacher_on() or (
            drawing in self.people() and viewer == drawing and sees))
        self.odds_panel.show(state, drawing if show_odds else None)
