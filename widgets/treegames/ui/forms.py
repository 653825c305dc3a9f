"""The New game form, built from a game's option schema (GAME_TYPE.options), plus the seed and who plays each seat."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import ipywidgets as widgets

from . import safety
from .styles import icon_button
from .text import option_label, value_label

PERSON = "human"
"""The seat value for a person clicking (bots use their GAME_TYPE.bots names)."""

MAX_LISTED = 40
"""Options with more allowed values than this get a number box instead of a list."""


def seat_choices(bots: dict) -> list[tuple[str, str]]:
    """(label, value) for each way to fill a seat: a person, or one of the game's bots."""
    return [("Person", PERSON)] + [(f"Bot ({name})", name) for name in bots]


def option_widget(option, value) -> widgets.Widget:
    """A dropdown of the allowed values, or a bounded number box for a long range."""
    style = {"description_width": "initial"}
    layout = widgets.Layout(width="auto", max_width="100%")
    label = option_label(option.name)
    values = option.values
    if isinstance(values, range) and len(values) > MAX_LISTED:
        box = widgets.BoundedIntText(value=value, min=values.start, max=values.stop - 1, description=label,
                                     tooltip=option.meaning, style=style, layout=layout)
    else:
        box = widgets.Dropdown(options=[(value_label(v), v) for v in values], value=value, description=label,
                               tooltip=option.meaning, style=style, layout=layout)
    box.add_class(f"treegames-option-{option.name}")
    return box


class NewGameForm(widgets.VBox):
    """One control per option of the schema, a seed, one seat choice per player, and Start new game."""

    def __init__(self, game_type, seat_names: Sequence[str], values: dict, seats: Sequence[str], seed: int,
                 on_start: Callable[[], object], report: Callable[[str], object] | None = None,
                 bots: Sequence[str] | None = None):
        """``bots`` narrows the seat choices to those bots (a shared table offers only quick ones)."""
        self.game_type = game_type
        self.option_boxes = {o.name: option_widget(o, values.get(o.name, o.default)) for o in game_type.options}
        style = {"description_width": "initial"}
        self.seed_box = widgets.IntText(value=seed, description="Seed", tooltip="Same seed, same dice and bots",
                                        style=style, layout=widgets.Layout(width="150px"))
        choices = seat_choices({b: game_type.bots[b] for b in (bots or game_type.bots)})
        self.seat_boxes = [widgets.Dropdown(options=choices, value=seat, description=name, style=style,
                                            layout=widgets.Layout(width="auto", max_width="100%"))
                           for name, seat in zip(seat_names, seats, strict=False)]
        self.start_button = icon_button("Start new game", "new", tooltip="Start over with these choices (N)",
                                        button_style="success", layout=widgets.Layout(width="auto"))
        safety.on_click(self.start_button, on_start, report=report)
        if "players" in self.option_boxes:
            safety.observe(self.option_boxes["players"], lambda _n: self._show_seats(), report=report)
        rows = [widgets.HBox([*self.option_boxes.values(), self.seed_box]), widgets.HBox(self.seat_boxes),
                self.start_button]
        for row in rows[:2]:
            row.add_class("treegames-wrap")
        super().__init__(rows)
        self._show_seats()

    def values(self) -> dict:
        """The chosen options, by name."""
        return {name: box.value for name, box in self.option_boxes.items()}

    def player_count(self) -> int:
        """How many seats the chosen options make."""
        box = self.option_boxes.get("players")
        return box.value if box is not None else len(self.seat_boxes)

    def seats(self) -> tuple[str, ...]:
        """Who plays each seat of the chosen game."""
        return tuple(box.value for box in self.seat_boxes[: self.player_count()])

    def _show_seats(self) -> None:
        """Show one seat choice per player of the chosen count."""
        for index, box in enumerate(self.seat_boxes):
            box.layout.display = None if index < self.player_count() else "none"
