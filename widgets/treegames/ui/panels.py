"""Small shared panels: a section that opens and closes on a button (ipywidgets' Accordion draws its arrows with
Font Awesome from a CDN, so the kit never uses it)."""

from __future__ import annotations

import ipywidgets as widgets

from . import safety
from .styles import icon_toggle, set_icon


class Collapsible(widgets.VBox):
    """A titled section that opens and closes when its title button is pressed (closed at first)."""

    def __init__(self, title: str, body: widgets.Widget, open_: bool = False):
        self.toggle = icon_toggle(title, "forward", tooltip=f"Show or hide: {title}", value=open_,
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

    def _show(self, opened: bool) -> None:
        """Show or hide the body and turn the arrow."""
        self.body.layout.display = None if opened else "none"
        set_icon(self.toggle, "down" if opened else "forward")
