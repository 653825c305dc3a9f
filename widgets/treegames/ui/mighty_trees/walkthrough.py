"""The Mighty Trees rules walkthrough: the tour game (:mod:`.tour`) on the play dashboard, a note per step.

It is the play dashboard (kit base, same table) with the tour's states loaded
into the timeline, every Command shown (Teacher view: nobody plays, everybody
learns), and a panel naming the rule-sheet section each step follows, with our
interpretation where the rule sheet is silent.  Forward/Back (and the keyboard's
F/B) step through; "Jump to" goes to the first step of each section.
"""

from __future__ import annotations

import ipywidgets as widgets

from .. import safety
from ..text import escape, panel
from .play import MightyTreesPlay
from .tour import Tour, make_tour

__all__ = ["MightyTreesWalkthrough", "note_html"]


def note_html(tour: Tour, index: int) -> str:
    """The note for step ``index``: section, what happened and why, our interpretation if any."""
    note = tour.notes[index]
    out = (f"<div class='treegames-mt-note'><b>Step {index} of {len(tour.states) - 1} · Rule sheet: "
           f"{escape(note.section)}</b><br>{escape(note.text)}")
    if note.interpretation:
        out += f"<br><i><b>Our interpretation:</b> {escape(note.interpretation)}</i>"
    return panel(out + "</div>")


class MightyTreesWalkthrough(MightyTreesPlay):
    """A seeded 3-player game from the habitat draw to the capture, every step explained."""

    def __init__(self, seed: int = 1):
        self.tour = make_tour(seed)
        self.note = widgets.HTML()
        self.chapter = widgets.Dropdown(options=[("Jump to a rule…", -1)] + [(name, i) for name, i in
                                                                            self.tour.chapters()],
                                        value=-1, layout=widgets.Layout(width="auto", max_width="100%"))
        game = self.tour.states[0].game
        super().__init__(seed=self.tour.seed, seats=("greedy",) * game.num_players, teacher=True, answer=False,
                         players=game.num_players, max_turns=game.max_turns)
        self.stop_auto()
        self.timeline.replace(list(self.tour.states))
        self.timeline.jump(0)
        safety.observe(self.chapter, self._jump, report=self.report_failure)
        self.add_class("treegames-mighty-trees-walkthrough")

    def side_widgets(self) -> list:
        """The step's note and the chapter list above the play dashboard's own side widgets."""
        return [self.note, self.chapter, *super().side_widgets()]

    def extra_parts(self) -> list:
        """The note follows the step on screen."""
        return [*super().extra_parts(), self._show_note]

    def title_html(self, state) -> str:
        """Headline."""
        return "<h2 style='margin:4px 0;font-size:1.17em'>Mighty Trees · rules walkthrough (a seeded 3-player game)</h2>"

    def _show_note(self, _state) -> None:
        """Show the note of the step on screen (steps beyond the tour, if any, get the engine's words only)."""
        index = self.timeline.cursor
        t = self.timeline
        if index < len(self.tour.states) and t.states[index] is self.tour.states[index]:
            self.note.value = note_html(self.tour, index)
        else:
            self.note.value = panel(escape(self.state.last_event))

    def _jump(self, index) -> None:
        """Jump to the first step of a section."""
        if index is None or index < 0:
            return
        self.stop_auto()
        self.timeline.jump(index)
        self.chapter.value = -1
