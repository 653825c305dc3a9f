"""The Review panel of every Play page: after a game, the coach's estimates before and after each move.

Pressing Review (or the R key on the board) once the game is over runs
:class:`treegames.search.Review` on a background thread, with a progress bar
("position 7 of 41") and Cancel, while the page stays usable.  Each move reviewed
is listed as it arrives, in the engine's notation: move number, player, move, the
estimated win chance before → after and the change.  When the review ends (or is
cancelled) the turning points, the moves that lost the most estimated win chance,
are marked at the start of their line with ⚠ and the words "turning point" (not by colour), and
also offered as buttons, so Tab and Enter reach them from the Review button.
Picking a move in the list (a listbox: arrow keys work) or a turning-point button
shows the board at the position before that move (the page's time travel), and
outlines on it the move played (a wide outer ring) and the coach's choice (the
Hint outline), with the full sentence under the list.

Review needs a finished game of the page's own (not a shared table).  Before the
end its buttons are not shown (the page stays calm), and R only says why.  Undo, a new game or an
opened file (any change to the game itself, not Back / Forward / a jump) cancels a
running review and clears its rows: they belong to the game they were made for.
"""

from __future__ import annotations

import random
from enum import StrEnum
from typing import Any

import ipywidgets as widgets

from ..search import LINE_CAPTION, REVIEW_NOTE, TURNING_MARK, Review, ReviewedMove, ReviewProgress
from . import palette, safety
from .jobs import JobPanel
from .scene import Polygons, Scene, as_points
from .text import escape

__all__ = ["ReviewPanel", "ReviewStatus", "TURNING_MARK", "LIST_ROWS"]

RING_GAP = 9.0
"""How far (canvas pixels) the ring round the move played lies outside the place's outline."""

LIST_ROWS = 8
"""Rows the list of reviewed moves shows at once (it scrolls for the rest)."""

TOOLTIP = "Replay the game with the coach's estimates before and after each move (R)"
"""The Review button's tooltip when a review can start."""

NOT_OVER = "Review is for a finished game: play to the end first."
AT_TABLE = "Review is for a game of your own, not a shared table."

CSS = """
.treegames-review-list select{font-size:14px;line-height:1.5;font-variant-numeric:tabular-nums}
@media (max-width:500px){.treegames-review-list select{font-size:13px}}
.treegames-review-turning .jupyter-button{white-space:normal!important;height:auto!important;text-align:left;
  max-width:100%!important;line-height:1.4;padding:4px 8px}
"""


def review_seed(states: list) -> str:
    """What seeds a review's random numbers: the game's options and its actions (the same game, the same review)."""
    last = states[-1]
    return f"review/{last.game.name}/{len(last.history)}/{'|'.join(map(str, last.history))}"


class ReviewStatus(StrEnum):
    """Where the panel is."""

    IDLE = "idle"
    REVIEWING = "reviewing"
    DONE = "done"


class ReviewPanel(JobPanel):
    """Review and Cancel, a progress bar, the reviewed moves and the turning points, for one dashboard."""

    BUSY = ReviewStatus.REVIEWING
    IDLE = ReviewStatus.IDLE

    def __init__(self, owner: Any):
        super().__init__(owner, "Review", "Cancel review", "Stop the review; the moves reviewed so far stay listed")
        self.review: Review | None = None
        self.states: list | None = None  # the game reviewed (its timeline's states when it started)
        self.selected: ReviewedMove | None = None
        self.review_button = widgets.Button(description="Review", tooltip=NOT_OVER, disabled=True,
                                            layout=widgets.Layout(width="auto"))
        self.progress_words = widgets.HTML(layout=widgets.Layout(max_width="100%"))
        self.progress_words.add_class("treegames-review-progress")
        self.summary = widgets.HTML(layout=widgets.Layout(width="100%"))
        self.turning = widgets.VBox(layout=widgets.Layout(max_width="100%"))
        self.turning.add_class("treegames-review-turning")
        self.moves = widgets.Select(options=[], rows=LIST_ROWS, description="Reviewed moves",
                                    layout=widgets.Layout(width="100%", display="none"))
        self.moves.add_class("treegames-review-list")
        self.moves.add_class("treegames-label-sr-only")
        self.caption = widgets.HTML(layout=widgets.Layout(width="100%", display="none"))
        self.caption.value = (f"<div style='font-size:12px;line-height:1.4;color:{palette.MUTED_INK}'>"
                              f"{escape(LINE_CAPTION)}</div>")
        self.detail = widgets.HTML(layout=widgets.Layout(width="100%"))
        self.detail.add_class("treegames-review-detail")
        safety.on_click(self.review_button, self.start, report=self.report)
        safety.observe(self.moves, self._on_pick, report=self.report)
        self._busy = False  # True while the list's options are being replaced (no jump)
        row = widgets.HBox([self.review_button, self.cancel_button, self.progress, self.progress_words],
                           layout=widgets.Layout(flex_flow="row wrap", max_width="100%", align_items="center",
                                                 display="none"))
        row.add_class("treegames-buttons")
        self.row = row  # shown once a review can be made (or one is listed): the page stays calm until then
        style = widgets.HTML(f"<style>{CSS}</style>", layout=widgets.Layout(height="0px"))
        self.children = [row, self.note, self.summary, self.turning, self.caption, self.moves, self.detail, style]
        self.add_class("treegames-review")

    # ------------------------------------------------------------ when a review makes sense

    def why_not(self) -> str | None:
        """Why no review can start now, or None if it can."""
        if self.owner.shared_table() is not None:
            return AT_TABLE
        if not self.owner.timeline.latest.is_terminal():
            return NOT_OVER
        return None

    def _same_game(self) -> bool:
        """Whether the page still holds the game reviewed (Back, Forward and jumps keep it; Undo or a new game do not)."""
        states = self.states
        t = self.owner.timeline
        return states is not None and len(t.states) == len(states) and t.states[-1] is states[-1]

    # ------------------------------------------------------------ the buttons

    def start(self) -> bool:
        """Review the finished game (or show its review again); False with the reason if it cannot."""
        with self._lock:
            if self.status is ReviewStatus.REVIEWING:
                self._note("The coach is already reviewing this game: wait, or press Cancel review.")
                return False
            reason = self.why_not()
            if reason is not None:
                self._note("")  # said again even when it already shows, so a screen reader hears it
                self._note(reason)
                return False
            if self.review is not None and self._same_game() and self.review.finished:
                self._note("The review of this game is listed below.")
                return True
            if self.review is None or not self._same_game():
                self.states = list(self.owner.timeline.states)
                self.review = Review(self.states, random.Random(review_seed(self.states)))
                self.selected = None
                self._show_rows()
            return self._start()

    def press_key(self) -> None:
        """The R key: start (or go on with) the review, or say why not."""
        self.start()

    # ------------------------------------------------------------ reviewing in the background

    def _start(self) -> bool:
        """Review on a background thread, listing each row as it comes, unless the game changes meanwhile."""
        self.review_button.disabled = True
        review = self.review

        def work(cancel) -> None:
            review.run(cancel=cancel, progress=lambda report: self._on_progress(review, report),
                       on_row=lambda _row: self._on_row(review))

        def done(_cancelled: bool) -> None:
            if review is not self.review:  # the game changed while it ran: nothing to show
                return
            self.status = ReviewStatus.DONE
            self._reset_buttons()
            self._end_bar(review.finished)
            self._note("" if review.finished else "Review cancelled: press Review to go on from where it stopped.")
            self._show_rows()
            self._show_turning()

        return self._launch("treegames-review",
                            f"The coach is reviewing {review.total} positions; the moves are listed as they come.",
                            work, done, "The coach could not review this game (an error was logged).")

    def _on_progress(self, review: Review, report: ReviewProgress) -> None:
        """From the review thread: move the bar and say which position."""
        if review is not self.review:
            return
        self.progress.value = report.fraction
        self.progress_words.value = f"<span role='status'>{escape(report.text())}</span>"

    def _on_row(self, review: Review) -> None:
        """From the review thread: list the new row."""
        with self._lock:
            if review is self.review:
                self._show_rows()

    def _reset_buttons(self) -> None:
        """Buttons for a panel that is not reviewing."""
        super()._reset_buttons()
        reason = self.why_not()
        self.review_button.disabled = reason is not None
        self.review_button.tooltip = reason or TOOLTIP
        self.row.layout.display = None if reason is None or self.review is not None else "none"

    # ------------------------------------------------------------ following the dashboard

    def follow(self, state: Any) -> None:
        """A dashboard part: a changed game cancels the review and clears it; a jump within it keeps it."""
        with self._lock:
            if self.review is not None and not self._same_game():
                self._cancel.set()
                self.review, self.states, self.selected = None, None, None
                self.status = ReviewStatus.IDLE
                self._note("")
                self.progress.layout.visibility = "hidden"
                self.progress_words.value = ""
                self._show_rows()
                self._show_turning()
            if self.selected is not None and self.states is not None and state is not self.states[self.selected.step]:
                self.selected = None
                self.detail.value = ""
                self._select_quietly(None)
            if self.status is not ReviewStatus.REVIEWING:
                self._reset_buttons()

    def jump(self, row: ReviewedMove) -> bool:
        """Show the board at the position before ``row``'s move, with the move played and the coach's choice marked."""
        with self._lock:
            if self.review is None or not self._same_game():
                self._note("That review belongs to another game: press Review again.")
                return False
            self.owner.stop_auto()
            self.owner.timeline.jump(row.step)  # refreshes the page (and calls follow)
            self.selected = row
            self._select_quietly(row.step)
            self.detail.value = self._detail_html(row)
        self._redraw()
        return True

    def jump_to_step(self, step: int) -> bool:
        """Jump to the reviewed move made at ``step`` (False if that step was not reviewed)."""
        row = self.row_at(step)
        return row is not None and self.jump(row)

    def row_at(self, step: int) -> ReviewedMove | None:
        """The reviewed move made at ``step``, or None."""
        rows = self.review.rows if self.review is not None else []
        return next((row for row in rows if row.step == step), None)

    def _on_pick(self, step: Any) -> None:
        """A move was picked in the list: jump there."""
        if self._busy or step is None:
            return
        if self.selected is not None and self.selected.step == step:
            return
        self.jump_to_step(step)

    def _select_quietly(self, step: int | None) -> None:
        """Select a list entry without jumping again."""
        self._busy = True
        try:
            self.moves.value = step if step in {value for _, value in self.moves.options} else None
        finally:
            self._busy = False

    # ------------------------------------------------------------ the board

    def decorate(self, scene: Scene, state: Any) -> None:
        """On the position of the row picked: a wide ring round the move played, the Hint outline round the coach's choice."""
        row = self.selected
        if row is None or self.states is None or state is not self.states[row.step]:
            return
        hint = getattr(self.owner, "hint_panel", None)
        if hint is None:
            return
        played = hint.place_of(state, row.played.action)
        best = hint.place_of(state, row.best.action)
        if played is not None:
            ring = self._shape(played, RING_GAP)
            if ring is not None:
                scene.add(Polygons(ring, None, stroke="#FFFFFF", line_width=8.0, tags=(("review-played", played),)))
                scene.add(Polygons(ring, None, stroke=palette.BLACK, line_width=4.0,
                                   tags=(("review-played", played),)))
        if best is not None:
            shape = self._shape(best, 0.0)
            if shape is not None:
                scene.add(Polygons(shape, None, stroke=palette.BLACK, line_width=7.0, tags=(("review-best", best),)))
                scene.add(Polygons(shape, None, stroke=palette.HIGHLIGHT, line_width=4.0,
                                   tags=(("review-best", best),)))

    def _shape(self, place: str, grow: float) -> Any:
        """The outline of ``place`` (the kit's cursor shape), each corner ``grow`` pixels further out, or None."""
        try:
            corners = self.owner.cursor_shape(place)
        except (NotImplementedError, KeyError, ValueError):
            return None
        cx = sum(x for x, _ in corners) / len(corners)
        cy = sum(y for _, y in corners) / len(corners)
        out = []
        for x, y in corners:
            dx, dy = x - cx, y - cy
            length = max(1e-9, (dx * dx + dy * dy) ** 0.5)
            out.append((x + grow * dx / length, y + grow * dy / length))
        return as_points([out])

    # ------------------------------------------------------------ words

    def names(self) -> list[str]:
        """Every seat's name on this page."""
        count = self.states[0].num_players if self.states else 0
        return [self.owner.player_name(p) for p in range(count)]

    def turning_rows(self) -> list[ReviewedMove]:
        """The turning points, once the review has stopped (none while it runs: they may change)."""
        if self.review is None or self.status is ReviewStatus.REVIEWING:
            return []
        return self.review.turning_points()

    def _show_rows(self) -> None:
        """The list of reviewed moves (turning points marked once the review has stopped)."""
        review = self.review
        rows = list(review.rows) if review is not None else []
        turning = {row.step for row in self.turning_rows()}
        names = self.names()
        options = [(row.line(names, row.step in turning), row.step) for row in rows]
        self._busy = True
        try:
            self.moves.options = options
            self.moves.value = self.selected.step if self.selected is not None and options else None
        finally:
            self._busy = False
        self.moves.layout.display = self.caption.layout.display = "" if options else "none"

    def _show_turning(self) -> None:
        """The summary sentence, the turning-point buttons and the note on estimates."""
        review = self.review
        if review is None:
            self.summary.value = ""
            self.turning.children = []
            return
        names = self.names()
        self.summary.value = (f"<div style='line-height:1.4'><b>{escape(review.summary(names))}</b>"
                              f"<div style='font-size:12px;color:{palette.MUTED_INK}'>{escape(REVIEW_NOTE)}</div></div>")
        buttons = []
        for row in review.turning_points():
            button = widgets.Button(description=f"{TURNING_MARK} Turning point: {row.text(names)}",
                                    tooltip="Show the board before this move", layout=widgets.Layout(width="100%"))
            safety.on_click(button, lambda r=row: self.jump(r), report=getattr(self.owner, "report_failure", None))
            buttons.append(button)
        self.turning.children = buttons

    def _detail_html(self, row: ReviewedMove) -> str:
        """The picked move in full, and what the marks on the board mean."""
        turning = row.step in {r.step for r in self.turning_rows()}
        text = row.text(self.names(), turning=turning)
        marks = ("On the board: the wide black-and-white ring is the move played"
                 + ("" if row.coach_agrees else "; the yellow outline is the coach's choice") + ".")
        return (f"<div role='status' style='font-size:14px;line-height:1.4'>{escape(text)}"
                f"<div style='font-size:12px;color:{palette.MUTED_INK}'>{escape(row.played.description.rstrip('.'))}. "
                f"{escape(marks)}</div></div>")
