"""Pig's Play page on treegames' GameDashboard: one bar per player, the die, and two places, Roll and Hold.

Everything else (timeline, seats, bots answering, Hint, Review, shared tables, save and open, keyboard) is
the kit's; the words all come from :mod:`pig_game.engine`.
"""

from __future__ import annotations

import numpy as np

import pig_game as pig
from treegames.core import CHANCE
from treegames.ui import palette
from treegames.ui.dashboard import GameDashboard
from treegames.ui.scene import Circles, Polygons, Scene, Texts, as_points, colours
from treegames.ui.text import escape

WIDTH, HEIGHT = 400, 230
"""The canvas size in pixels."""

BUTTONS = {"roll": (40, 170, 190, 215), "hold": (210, 170, 360, 215)}
"""Each place's box (left, top, right, bottom): the two things a person may click."""

SEAT_COLOURS = (palette.ORANGE, palette.SKY_BLUE, palette.BLUISH_GREEN, palette.REDDISH_PURPLE)
"""One Okabe-Ito colour per seat (each row also carries its seat's number, so colour is never alone)."""

PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)], 4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
        5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)], 6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}
"""Where each face's pips sit, in steps of the pip spacing from the die's centre."""


def button_centre(place: str) -> tuple[float, float]:
    """The centre of the Roll or Hold button, in canvas pixels."""
    left, top, right, bottom = BUTTONS[place]
    return (left + right) / 2, (top + bottom) / 2


def box(left: float, top: float, right: float, bottom: float) -> list[tuple[float, float]]:
    """A rectangle's four corners."""
    return [(left, top), (right, top), (right, bottom), (left, bottom)]


def race_scene(state, targets: tuple[str, ...] = ()) -> Scene:
    """The race: each player's banked points as a bar to the goal, this turn's points, the die, Roll and Hold."""
    scene = Scene(WIDTH, HEIGHT, background=palette.BACKGROUND)
    n, goal = state.num_players, state.game.goal
    row, left, span = 140 / max(n, 1), 60, 210
    tracks = [box(left, 8 + p * row, left + span, 8 + p * row + row * 0.6) for p in range(n)]
    scene.add(Polygons(as_points(tracks), colours(["#F2F2F2"] * n), stroke=palette.INK))
    bars = [box(left, 8 + p * row, left + span * min(state.banked[p], goal) / goal, 8 + p * row + row * 0.6)
            for p in range(n) if state.banked[p]]
    scene.add(Polygons(as_points(bars), colours([SEAT_COLOURS[p] for p in range(n) if state.banked[p]]),
                       stroke=palette.INK))
    labels = [(30, 8 + p * row + row * 0.3, f"P{p + 1}") for p in range(n)]
    scene.add(Texts(labels, font="bold 14px sans-serif", colour=palette.INK))
    totals = [(left + span + 8, 8 + p * row + row * 0.3, f"{state.banked[p]}"
               + (f" +{state.turn}" if p == state.mover and state.turn else "")) for p in range(n)]
    scene.add(Texts(totals, font="13px sans-serif", colour=palette.INK, align="left"))
    scene.add(Texts([(left + span, 156, f"goal {goal}")], font="11px sans-serif", colour=palette.MUTED_INK,
                    align="right"))
    _draw_die(scene, state.rolled, state.current_player == CHANCE)
    lit = [BUTTONS[t] for t in targets]
    scene.add(Polygons(as_points([box(*b) for b in BUTTONS.values()]), colours(["#FFFFFF"] * 2),
                       stroke=palette.INK, line_width=1.5))
    scene.add(Polygons(as_points([box(*b) for b in lit]), colours([palette.HIGHLIGHT] * len(lit)),
                       stroke=palette.INK, line_width=3, tags=tuple(targets)))
    scene.add(Texts([((b[0] + b[2]) / 2, (b[1] + b[3]) / 2, place.capitalize()) for place, b in BUTTONS.items()],
                    font="bold 16px sans-serif", colour=palette.INK))
    return scene


def _draw_die(scene: Scene, face: int, rolling: bool) -> None:
    """The last face rolled (blank before the first roll of a turn; dashed while the die is in the air)."""
    cx, cy, half = 360, 60, 26
    scene.add(Polygons(as_points([box(cx - half, cy - half, cx + half, cy + half)]), colours(["#FFFFFF"]),
                       stroke=palette.MUTED_INK if rolling else palette.INK, line_width=2))
    pips = PIPS.get(face, [])
    if pips:
        centres = np.array([(cx + dx * 13, cy + dy * 13) for dx, dy in pips], dtype=float)
        ink = palette.VERMILLION if face == 1 else palette.INK
        scene.add(Circles(centres, np.full(len(pips), 4.5), colours([ink] * len(pips))))


class PigPlay(GameDashboard):
    """A whole game of Pig to play, watch or step through."""

    game_module = pig
    seat_names = pig.PLAYER_NAMES
    place_word = "button"
    chance_words = "Die to roll"
    chance_first = "the die is rolling first. Press Step to see it land."

    def __init__(self, seed: int = 1, seats: tuple | None = None, answer: bool = True, **options):
        super().__init__(seed=seed, seats=seats, options=options, answer=answer)

    def board_size(self) -> tuple[int, int]:
        """The race's canvas size."""
        return WIDTH, HEIGHT

    def board_scene(self, state) -> Scene:
        """The race, with Roll and Hold lit where a person may press them."""
        person = state.current_player >= 0 and self.is_person(state.current_player)
        targets = tuple(p for p in BUTTONS if person and state.actions_at(p))
        return race_scene(state, targets)

    def place_at(self, x: float, y: float) -> str | None:
        """Roll or Hold under a canvas pixel, or None."""
        return next((p for p, (left, top, right, bottom) in BUTTONS.items()
                     if left <= x <= right and top <= y <= bottom), None)

    def place_centre(self, place: str) -> tuple[float, float]:
        """A button's centre."""
        return button_centre(place)

    def places(self) -> list[str]:
        """Roll, then Hold."""
        return list(BUTTONS)

    def cursor_shape(self, place: str) -> list[tuple[float, float]]:
        """The keyboard cursor: the button's outline, just outside it."""
        left, top, right, bottom = BUTTONS[place]
        return box(left - 4, top - 4, right + 4, bottom + 4)

    def refusal(self, state, place: str) -> str:
        """The engine's reason why that button does nothing now."""
        return escape(state.why_not(pig.HOLD if place == "hold" else pig.ROLL))

    def title_html(self, state) -> str:
        """Headline: the goal and who moves."""
        return (f"<h2 style='margin:4px 0;font-size:1.17em'>Pig · race to {state.game.goal} · "
                f"{escape(self.who_moves(state))}</h2>")

    def legend_html(self) -> str:
        """What the picture shows."""
        return ("<div style='font-size:12px'>Each row is a player (P1, P2, …): the bar is what they banked, "
                "'+n' what the mover risks this turn. The die shows the last roll (a red pip: a 1). "
                "Yellow buttons are the ones you may press.</div>")
