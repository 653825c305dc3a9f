"""The playable Aspens board on the kit's GameDashboard: the hex scene, hex hit-testing, the dice and the Odds tab.

Everything else (timeline, seats, step buttons, bots answering, explanations,
event log, New game form, Save / Open, keyboard) is the kit's.  The widget only
shows what the engine says: legal targets, ``explain()``, ``last_event`` and
``IllegalAction`` messages all come from ``treegames.aspens``.
"""

from __future__ import annotations

import ipywidgets as widgets

from ... import aspens, core
from ...aspens import PLAYER_NAMES, cell_name, parse_cell
from .. import palette, safety
from ..canvas import SceneCanvas
from ..dashboard import GameDashboard
from ..forms import PERSON
from ..text import escape, plural
from .scene import (
    CASCADE_RING,
    PLAYER_COLOURS,
    PLAYER_TINTS,
    WIND_BESIDE,
    WIND_ROLLED,
    HexGeometry,
    dice_scene,
    game_scene,
)

CONTROLLERS = {"Person": PERSON, "Bot (greedy)": "greedy", "Bot (random)": "random"}
"""Who plays a side: a person clicking, or one of the engine's bots (labels as in the New game form)."""


class AspensPlay(GameDashboard):
    """A whole game of Aspens to play, watch or step through."""

    game_module = aspens
    seat_names = PLAYER_NAMES
    place_word = "hex"
    chance_words = "Dice to roll"
    chance_first = "the dice come first. Press Step to roll."

    def __init__(self, setup: int = 2, seed: int = 1, aspen: str = PERSON, pine: str = "greedy",
                 size: float = 19.0, odds_panel: bool = True, answer: bool = True, **options):
        self.geo = HexGeometry(size=size)
        self.dice_view = SceneCanvas(250, 92, lambda: dice_scene(self.state), draw_now=False)
        self.odds = self._make_odds_panel() if odds_panel else None
        super().__init__(seed=seed, seats=(aspen, pine), options={"setup": setup, **options}, answer=answer)
        if self.odds is not None:
            odds_tab = self.tabs.children.index(self.odds)
            safety.observe(self.tabs, lambda index: self.odds.set_visible(index == odds_tab),
                           names="selected_index", report=self.report_failure)
        self.add_class("treegames-aspens-play")

    # ------------------------------------------------------------ the kit's hooks

    def board_size(self) -> tuple[int, int]:
        """The hex board's canvas size."""
        return self.geo.width, self.geo.height

    def board_scene(self, state):
        """Owners, stacks, legal targets (for a person to move), the Wind, the last move and cascades."""
        return game_scene(state, self.geo, show_targets=self.is_person(state.current_player))

    def place_at(self, x: float, y: float) -> str | None:
        """The name of the hex under a canvas pixel ('H8'), or None off the board."""
        cell = self.geo.hex_at(x, y)
        return cell_name(cell) if cell in self.state.board else None

    def place_centre(self, place: str) -> tuple[float, float]:
        """Canvas centre of a named hex."""
        return self.geo.center(parse_cell(place))

    def places(self) -> list[str]:
        """Every hex of the board, row by row from the top."""
        return [cell_name(c) for c in sorted(self.state.board.cells, key=lambda c: (c.r, c.q))]

    def cursor_shape(self, place: str) -> list[tuple[float, float]]:
        """The keyboard cursor: the hex outline, slightly inset."""
        return self.geo.corners(parse_cell(place), 0.9)

    def refusal(self, state, place: str) -> str:
        """The engine's reason why the move this phase asks for cannot go on ``place``."""
        cell = parse_cell(place)
        if state.phase == aspens.Phase.SEED:
            wanted = aspens.Seed(cell)
        elif state.owner(cell) == state.current_player or state.phase == aspens.Phase.GROW_START:
            wanted = aspens.GrowUp(cell)
        else:
            wanted = aspens.GrowOut(cell)
        try:
            state.apply(wanted)
        except core.IllegalAction as err:
            return escape(err)
        return super().refusal(state, place)

    def end_turn_action(self, state):
        """End turn, when the rules allow it now."""
        return aspens.END_TURN if state.current_player >= 0 and state.can_end_turn() else None

    def side_widgets(self) -> list:
        """The Sun and Wind dice."""
        return [widgets.HBox([self.dice_view.canvas])]

    def extra_tabs(self) -> list:
        """The Odds tab."""
        return [("Odds", self.odds)] if self.odds is not None else []

    def extra_parts(self) -> list:
        """The dice and the odds follow the state on screen."""
        parts = [self._redraw_dice]
        if self.odds is not None:
            parts.append(self.odds.show)
        return parts

    def _redraw_dice(self, state) -> None:
        """Redraw the dice only when they changed (a new page still gets them through its client-ready call)."""
        faces = (state.sun, state.wind)
        if faces != getattr(self, "_dice_faces", None):
            self._dice_faces = faces
            self.dice_view.redraw()

    def title_html(self, state) -> str:
        """Headline: setup and who moves."""
        return (f"<h2 style='margin:4px 0;font-size:1.17em'>Aspens · setup {self.game.options['setup']} · "
                f"{escape(self.who_moves(state))}</h2>")

    def scores_html(self, state) -> str:
        """Spaces owned, trees in hand and in the bag, for both players."""
        names = {v: k for k, v in CONTROLLERS.items()}
        rows = []
        for p, name in enumerate(PLAYER_NAMES):
            mark = "●" if p == 0 else "▲"
            now = " ◀" if state.current_player == p else ""
            rows.append(f"<tr><td><span style='color:{PLAYER_COLOURS[p]};font-size:16px'>{mark}</span> "
                        f"<b>{name}</b>{now}</td><td>{names.get(self.seats[p], self.seats[p])}</td>"
                        f"<td>{state.scores()[p]}</td><td>{state.hand(p)}</td><td>{state.supply(p)}</td></tr>")
        return ("<table style='border-collapse:collapse;font-size:13px' cellpadding='3'>"
                "<tr style='color:#555'><th align=left>Player</th><th align=left>Played by</th><th>Spaces</th>"
                "<th>In hand</th><th>In bag</th></tr>" + "".join(rows) + "</table>")

    def position_words(self, state) -> str:
        """Step, what changed, who owns how much, who moves (for a screen reader)."""
        t = self.timeline
        owns = "; ".join(f"{name} owns {plural(state.scores()[p], 'space')} and holds "
                         f"{plural(state.hand(p), 'tree')}" for p, name in enumerate(PLAYER_NAMES))
        happened = state.last_event or "The game is about to start."
        return f"At step {t.cursor} (of {len(t.states) - 1}): {happened} {owns}. {self.next_words(state)}."

    def legend_html(self) -> str:
        """What the colours, shapes, patterns and marks on the board mean."""
        swatch = "display:inline-block;width:14px;height:11px;vertical-align:-1px;border:1px solid #333"
        hatch = (f"background:repeating-linear-gradient(-45deg,{PLAYER_TINTS[1]} 0 3px,{palette.BLUE} 3px 4px)")
        return (
            "<div style='font-size:12px;line-height:1.6'>"
            f"<span style='color:{PLAYER_COLOURS[0]}'>●</span> <b>Aspen</b>: round tokens on "
            f"<span style='{swatch};background:{PLAYER_TINTS[0]}'></span> amber spaces &nbsp; "
            f"<span style='color:{PLAYER_COLOURS[1]}'>▲</span> <b>Pine</b>: triangles on "
            f"<span style='{swatch};{hatch}'></span> grey hatched spaces; the number is the trees on the space."
            f"<br><span style='{swatch};background:{palette.WATER}'></span> ≈ water (never playable) &nbsp; "
            f"<span style='{swatch};background:{palette.HIGHLIGHT}'></span> empty space you may plant on "
            "(grow out or seed) &nbsp; <span style='border:3px solid #C9B800'>&nbsp;&nbsp;&nbsp;</span> your space "
            f"you may grow up<br><span style='color:{palette.VERMILLION}'>⬡</span> last tree placed &nbsp; "
            f"<span style='color:{CASCADE_RING};font-weight:bold'>⬡</span> filled by a cascade &nbsp; "
            f"<span style='color:{WIND_ROLLED}'>➜</span> the rolled Wind direction and "
            f"<span style='color:{WIND_BESIDE}'>➜</span> the two beside it (all three valid for growing out)"
            "</div>"
        )

    # ------------------------------------------------------------ Aspens extras

    def _make_odds_panel(self):
        """The odds panel (exact production chart and gain distributions)."""
        from .odds_panel import OddsPanel

        return OddsPanel()

    def click_hex(self, cell) -> None:
        """Click the centre of a hex (for scripts and tests)."""
        self.click(*self.geo.center(cell))

    # the old widget's names for the New game form's controls
    @property
    def setup_choice(self):
        """The setup dropdown of the New game form."""
        return self.form.option_boxes["setup"]

    @property
    def seed_choice(self):
        """The seed box of the New game form."""
        return self.form.seed_box

    @property
    def aspen_choice(self):
        """Who plays Aspen in the New game form."""
        return self.form.seat_boxes[0]

    @property
    def pine_choice(self):
        """Who plays Pine in the New game form."""
        return self.form.seat_boxes[1]
