"""Keyboard play: which legal target the cursor moves to for an arrow key, and the dashboard's key map."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

ARROWS: dict[str, tuple[float, float]] = {
    "ArrowRight": (1.0, 0.0),
    "ArrowLeft": (-1.0, 0.0),
    "ArrowUp": (0.0, -1.0),
    "ArrowDown": (0.0, 1.0),
}
"""Screen direction (y down) of each arrow key."""

SHORTCUTS: dict[str, str] = {
    "s": "step",
    "b": "back",
    "f": "forward",
    "u": "undo",
    "e": "end_turn",
    "a": "auto",
    "p": "auto",
    "n": "new_game_tab",
    "h": "hint",
    "r": "review",
}
"""Letter keys on the focused board -> dashboard commands (shown in the buttons' tooltips)."""

PLAY_KEYS = ("Enter", " ")
"""Keys that play at the cursor."""

LEAVE_KEYS = ("Escape",)
"""Keys that move keyboard focus from the board to the Step button."""


def toward(start: tuple[float, float], places: Mapping[str, tuple[float, float]], key: str) -> str | None:
    """The place nearest ``start`` in the arrow key's direction (straight ahead preferred), or None."""
    dx, dy = ARROWS[key]
    best, best_score = None, math.inf
    for place, (x, y) in places.items():
        vx, vy = x - start[0], y - start[1]
        ahead = vx * dx + vy * dy
        if ahead <= 1e-6:
            continue
        aside = abs(vx * dy - vy * dx)
        score = ahead + 2.0 * aside
        if score < best_score:
            best, best_score = place, score
    return best


def cycle(order: Sequence[str], current: str | None, backwards: bool = False) -> str | None:
    """The next (or previous) place in reading order after ``current``, wrapping round; None if there are none."""
    if not order:
        return None
    if current not in order:
        return order[-1] if backwards else order[0]
    index = order.index(current) + (-1 if backwards else 1)
    return order[index % len(order)]
