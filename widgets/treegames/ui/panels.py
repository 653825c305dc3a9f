"""Small shared panels: a section that opens and closes on a button (ipywidgets' Accordion draws its arrows with
Font Awesome from a CDN, so the kit never uses it)."""

from __future__ import annotations

import ipywidgets as widgets

from . import palette, safety
from .styles import icon_toggle, set_icon


class Collapsible(widgets.VBox):
    """A titled section that opens and closes when its title button is pressed (closed at first).

    The open state lives in the kernel (the button's value), so the body may be rewritten while it shows.
    ``says_state`` starts the button's words with "Show" or "Hide" (a toggle button tells a screen reader
    no pressed state of its own).
    """

    def __init__(self, title: str, body: widgets.Widget, open_: bool = False, says_state: bool = False):
        self.title, self.says_state = title, says_state
        self.toggle = icon_toggle(self._words(open_), "forward", tooltip=self._tooltip(), value=open_,
                                  layout=widgets.Layout(width="auto", max_width="100%"))
        self.body = body
        safety.observe(self.toggle, self._show)
        super().__init__([self.toggle, body])
        self.add_class("treegames-collapsible")
        self._show(open_)

    @property
    def is_open(self) -> bool:
        """True while the body shows."""
        return bool(self.toggle.value)

    def set_title(self, title: str) -> None:
        """Name the section anew (its open state stays)."""
        self.title = title
        self.toggle.description = self._words(self.is_open)
        self.toggle.tooltip = self._tooltip()

    def _tooltip(self) -> str:
        """The button's tooltip: "Show or hide" and the title (a title that says its state reads on without a colon)."""
        return f"Show or hide {self.title}" if self.says_state else f"Show or hide: {self.title}"

    def _words(self, opened: bool) -> str:
        """The button's words: the title, after "Show" or "Hide" when it says its state."""
        if not self.says_state:
            return self.title
        return f"{'Hide' if opened else 'Show'} {self.title}"

    def _show(self, opened: bool) -> None:
        """Show or hide the body, turn the arrow and say the state."""
        self.body.layout.display = None if opened else "none"
        set_icon(self.toggle, "down" if opened else "forward")
        words = self._words(opened)
        if self.toggle.description != words:
            self.toggle.description = words


class Answer(widgets.VBox):
    """An exercise answer hidden behind a 'Show answer' button that toggles it."""

    def __init__(self, answer_html: str, label: str = "Show answer"):
        self.label = label
        self.button = widgets.Button(description=label, layout=widgets.Layout(width="140px"))
        self.body = widgets.HTML(
            f"<div style='font-size:14px;line-height:1.6;border-left:4px solid {palette.BLUISH_GREEN};"
            f"padding:2px 10px;margin:2px 0 6px'>{answer_html}</div>", layout=widgets.Layout(display="none"))
        safety.on_click(self.button, self.toggle)
        super().__init__([self.button, self.body])
        self.add_class("treegames-answer")

    @property
    def is_open(self) -> bool:
        """True while the answer is showing."""
        return self.body.layout.display != "none"

    def toggle(self) -> None:
        """Show the answer if hidden, hide it if shown."""
        opening = not self.is_open
        self.body.layout.display = None if opening else "none"
        self.button.description = "Hide answer" if opening else self.label
