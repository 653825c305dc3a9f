"""Playing without seeing the board: the move box, the board in words, one announcement per change, a skip link.

Every Play page gets these from :class:`~treegames.ui.dashboard.GameDashboard`:

* :class:`MoveBox` -- type a move in the engine's notation, or pick it from the searchable list of the legal
  moves now (each described in the engine's words); Enter (or Play move) plays it through the same path as a
  click, so it lands in the event log the same way;
* :func:`tables_html` -- the engine's ``describe_board(...)`` tables (``words.py`` of each game) as HTML tables
  with a caption and row and column headers, which screen readers navigate cell by cell;
* :class:`Announcer` -- the polite live region: one sentence per new moment (the engine's ``last_event`` and
  any score change), never the same moment twice;
* :func:`skip_link_html` / :func:`anchor_html` -- a "Skip to the board" link and its target before the canvas.

Nothing here knows a game's rules: the words are the engine's; this module only lays them out.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable, Sequence

import ipywidgets as widgets

from . import safety
from .text import escape, plural

Table = tuple[str, Sequence[str], Sequence[tuple[str, Sequence[str]]]]
"""(caption, column headings, [(row heading, one text per column)]): what ``describe_board`` returns."""

SEPARATOR = " — "
"""Between a move's notation and its words in the move list ('seed H8 — Aspen seeds ...')."""


def tables_html(tables: Sequence[Table], heading: str = "The board in words") -> str:
    """The engine's board tables as HTML: a heading, then one captioned table per part with row/column headers."""
    parts = [f"<h4 class='treegames-board-words-heading'>{escape(heading)}</h4>"]
    for caption, columns, rows in tables:
        head = "".join(f"<th scope='col'>{escape(c)}</th>" for c in columns)
        body = "".join(
            f"<tr><th scope='row'>{escape(name)}</th>" + "".join(f"<td>{escape(cell)}</td>" for cell in cells) + "</tr>"
            for name, cells in rows)
        parts.append(f"<table class='treegames-board-table'><caption>{escape(caption)}</caption>"
                     f"<thead><tr><td></td>{head}</tr></thead><tbody>{body}</tbody></table>")
    return "".join(parts)


def choice_label(notation: str, words: str) -> str:
    """One entry of the move list: the notation, then the engine's words."""
    return f"{notation}{SEPARATOR}{words}"


def notation_of(text: str) -> str:
    """What to hand the engine from the box: a picked list entry's notation, or the typed text as it is."""
    return text.split(SEPARATOR, 1)[0].strip()


ENTER_WAIT = 0.5
"""Seconds to wait after Enter for the box's text, when it does not come (it had already arrived)."""
ENTER_HOLD = 10.0
"""Seconds an Enter on a still-empty box waits for its text (a busy server may deliver it late)."""


class MoveBox(widgets.VBox):
    """A labelled text box with the legal moves now as its searchable list; Enter or 'Play move' plays it.

    ``on_move(text)`` receives the notation (a picked entry's or the typed text) and returns True if the move
    was played, which clears the box; on False the text stays so the player can correct it.
    """

    def __init__(self, on_move: Callable[[str], bool], report: Callable[[str], object] | None = None):
        self.on_move = on_move
        self.box = widgets.Combobox(options=[], value="", placeholder="type a move, or ↓ for the list",
                                    description="Your move", ensure_option=False, continuous_update=False,
                                    layout=widgets.Layout(width="100%", max_width="560px"))
        self.box.add_class("treegames-move-box")
        self.play_button = widgets.Button(description="Play move", tooltip="Play the move in the box (Enter)",
                                          layout=widgets.Layout(width="auto"))
        self.count = widgets.HTML()
        self._armed = False
        self._armed_at = 0.0
        with warnings.catch_warnings():  # ipywidgets' only 'Enter pressed' signal is marked deprecated
            warnings.simplefilter("ignore", DeprecationWarning)
            self.box.on_submit(safety.guarded(lambda _box: self._entered(), report=report))
        safety.observe(self.box, self._value_came, report=report)
        self.report = report
        safety.on_click(self.play_button, self.submit, report=report)
        row = widgets.HBox([self.box, self.play_button])
        row.add_class("treegames-wrap")
        super().__init__([row, self.count])
        self.add_class("treegames-move-panel")

    def show(self, choices: Sequence[tuple[str, str]], note: str = "") -> None:
        """List the legal moves now as (notation, words); ``note`` says why there are none."""
        options = tuple(choice_label(n, w) for n, w in choices)
        if options != self.box.options:
            self.box.options = options
        if choices:
            text = f"{plural(len(choices), 'legal move')} now: type to search the list, Enter plays."
        else:
            text = note or "No move to type now."
        self.count.value = f"<div style='font-size:12px;color:#444'>{escape(text)}</div>"
        self.play_button.disabled = not choices

    def _entered(self) -> None:
        """Enter was pressed.  The page sends 'Enter' before the box's text, so wait for the text to arrive
        (``_value_came``), or play what the box holds if no new text comes (it was already here)."""
        self._armed = True
        self._armed_at = time.monotonic()
        loop = safety.running_loop()
        if loop is None:
            self._fire()
        else:
            loop.call_later(ENTER_WAIT, safety.guarded(self._fire, report=self.report))

    def _value_came(self, _value) -> None:
        """The box's text arrived from the page: if Enter was pressed (lately), play it now."""
        if self._armed and time.monotonic() - self._armed_at <= ENTER_HOLD:
            self._fire()

    def _fire(self) -> None:
        """Play the box's text once for one press of Enter (an empty box waits for its text to arrive)."""
        if self._armed and notation_of(self.box.value or ""):
            self._armed = False
            self.submit()

    def submit(self) -> bool:
        """Play what the box holds (Enter or the button); clear the box if it was played."""
        text = notation_of(self.box.value or "")
        played = bool(self.on_move(text))  # an empty box is told what it could type
        if played:
            self.box.value = ""
        return played


class Announcer:
    """The polite live region: each new moment is announced once ('Step 4: ...'), repeats are dropped."""

    def __init__(self):
        self.widget = widgets.HTML()
        self.widget.add_class("treegames-sr-only")
        self.widget.add_class("treegames-announcer")
        self._last: object = None
        self.said: list[str] = []

    def announce(self, key: object, text: str) -> bool:
        """Say ``text`` for the moment ``key`` unless that moment was already announced; True if said."""
        if key == self._last or not text:
            return False
        self._last = key
        self.said.append(text)
        del self.said[:-50]
        self.widget.value = (f"<div role='status' aria-live='polite' aria-atomic='true' class='treegames-position-words'>"
                             f"{escape(text)}</div>")
        return True


def score_change(names: Sequence[str], before: Sequence[int] | None, after: Sequence[int]) -> str:
    """'Scores: Aspen 5 (+1), Pine 3.' when any score moved since ``before``, else ''."""
    if before is None or tuple(before) == tuple(after) or len(before) != len(after):
        return ""
    shown = []
    for name, old, new in zip(names, before, after, strict=True):
        shown.append(f"{name} {new}" + (f" ({new - old:+d})" if new != old else ""))
    return "Scores: " + ", ".join(shown) + "."


def anchor_id(widget: widgets.Widget) -> str:
    """A page-unique id for a dashboard's board anchor (from its widget's model id)."""
    return f"treegames-board-{widget.model_id[:12]}"


def skip_link_html(target: str) -> str:
    """The 'Skip to the board' link (visible when focused) that jumps to the board's anchor."""
    return f"<a class='treegames-skip' href='#{target}'>Skip to the board</a>"


def anchor_html(target: str, label: str) -> str:
    """The skip link's target just before the canvas: a focusable heading naming the board."""
    return f"<h3 id='{target}' tabindex='-1' class='treegames-board-anchor'>{escape(label)}</h3>"
