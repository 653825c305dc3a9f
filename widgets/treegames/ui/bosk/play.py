"""Play Bosk on the kit's GameDashboard: the park, the supplies, the choice buttons and the majority tables.

Everything shared (timeline, seats, Step / Back / Forward / Undo, Auto-play, bots
answering by themselves, explanations, event log, New game form from the option
schema, Save / Open, keyboard) is the kit's.  This module adds Bosk's picture
(``scene``), its places (crossings, squares, the park's sides), the two-part
choices (spring: crossing and tree value in either order; autumn: tree and leaf
tile in either order) and the tables.  Every rule decision and every sentence
comes from the engine: legal targets from ``legal_actions()``, refusals from
``IllegalAction``, the rest from ``last_event``, ``explain()`` and
``bosk.scoring``.
"""

from __future__ import annotations

import html

import ipywidgets as widgets

from ... import bosk, core
from ...bosk import LEAF_TILES, SQUIRREL, Kind, Phase
from .. import safety
from ..canvas import SceneCanvas
from ..dashboard import GameDashboard
from ..forms import PERSON
from ..text import escape
from .scene import (
    PLAYER_COLOURS,
    PLAYER_SYMBOLS,
    SUPPLY_ROW,
    Marks,
    ParkGeometry,
    legend_scene,
    park_scene,
    supplies_scene,
)
from .steps import end_of_round_note, final_note, is_summer_tie, summer_start_note
from .tables import MajorityTable, TableRow, summer_rows, totals, winter_rows
from .targets import choose_action, spring_action, square_action, targets, wind_action

BOARD_PIXELS = 504
"""The park canvas is this wide (and high) for every player count: squares grow when the park is smaller."""


def tile_label(tile: int) -> str:
    """A leaf tile for a button: '6' or 'squirrel'."""
    return "squirrel" if tile == SQUIRREL else str(tile)


def resize(canvas, width: int, height: int) -> None:
    """Give a kit canvas a new pixel size (and the matching layout)."""
    canvas.width, canvas.height = width, height
    canvas.layout.width, canvas.layout.height = f"{width}px", f"{height}px"


class ChoicePanel(widgets.VBox):
    """The buttons a person needs besides the park: tree values, leaf tiles, the wind board's side, scoring."""

    def __init__(self, owner: BoskPlay):
        self.owner = owner
        report = owner.report_failure
        self.prompt = widgets.HTML()
        self.value_buttons = [widgets.Button(description=f"tree {v}", layout=widgets.Layout(width="auto"),
                                             tooltip=f"Grow a value-{v} tree") for v in (1, 2, 3, 4)]
        for v, b in zip((1, 2, 3, 4), self.value_buttons, strict=True):
            safety.on_click(b, lambda v=v: owner.choose_value(v), report=report)
        self.tile_buttons = [widgets.Button(description=f"tile {tile_label(t)}", layout=widgets.Layout(width="auto"),
                                            tooltip="Play this leaf tile" if t != SQUIRREL else "Call the squirrel")
                             for t in LEAF_TILES]
        for t, b in zip(LEAF_TILES, self.tile_buttons, strict=True):
            safety.on_click(b, lambda t=t: owner.choose_tile(t), report=report)
        self.side_buttons = [widgets.Button(description=f"{d.value} side", layout=widgets.Layout(width="auto"))
                             for d in bosk.DIRECTIONS]
        for side, b in enumerate(self.side_buttons):
            safety.on_click(b, lambda side=side: owner.play_side(side), report=report)
        self.score_button = widgets.Button(description="Score", button_style="info",
                                           layout=widgets.Layout(width="auto"))
        safety.on_click(self.score_button, owner.play_scoring, report=report)
        self.buttons = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.buttons.add_class("treegames-buttons")
        super().__init__([self.prompt, self.buttons])
        self.add_class("bosk-choices")

    def show(self, state) -> None:
        """The prompt and the buttons for the state on screen (none while a bot or chance moves)."""
        o = self.owner
        o._fresh()
        if not o.is_human_turn():
            self.prompt.value = ""
            self.buttons.children = ()
            return
        t = targets(state)
        phase = state.phase
        who = escape(o.player_name(state.current_player))
        if phase is Phase.SPRING:
            for v, b in zip((1, 2, 3, 4), self.value_buttons, strict=True):
                b.layout.display = "" if v in t.tree_values else "none"
                b.button_style = "warning" if v == o.chosen_value else ""
            where = (f"crossing <b>{escape(bosk.intersection_name(*o.pending))}</b> chosen: now pick the value"
                     if o.pending else "click a yellow crossing, then pick a value, or pick a value first")
            self.prompt.value = f"<b>{who}</b>, grow a tree: {where}."
            self.buttons.children = tuple(self.value_buttons)
        elif phase is Phase.FALLING_LEAVES:
            need = state.required_tree_value
            which = f"a value-{need} tree (wind board spot {state.wind_spot})" if need else "any of your trees (spot *)"
            for tile, b in zip(LEAF_TILES, self.tile_buttons, strict=True):
                b.layout.display = "" if tile in t.tiles else "none"
                b.button_style = "warning" if tile == o.chosen_tile else ""
            where = (f"tree at <b>{escape(bosk.intersection_name(*o.pending))}</b> chosen: now pick a leaf tile"
                     if o.pending else "click a ringed tree and pick a leaf tile, in either order")
            self.prompt.value = f"<b>{who}</b>, the wind asks for {which}: {where}."
            self.buttons.children = tuple(self.tile_buttons)
        elif phase is Phase.WIND:
            for side, b in enumerate(self.side_buttons):
                b.tooltip = (f"Wind board on the {bosk.DIRECTIONS[side].value} side: the wind first blows "
                             f"{state.game.wind_spots(side)[0].direction.value}")
            self.prompt.value = f"<b>{who}</b>, place the wind board: click a yellow side of the park or a button."
            self.buttons.children = tuple(self.side_buttons[s] for s in t.sides)
        elif phase in (Phase.SUMMER, Phase.WINTER):
            season = "summer: every trail" if phase is Phase.SUMMER else "winter: every region"
            self.score_button.description = f"Score {season.split(':')[0]}"
            self.prompt.value = f"<b>{who}</b> holds the Hiker and scores {season}."
            self.buttons.children = (self.score_button,)
        elif phase is Phase.LEAF_PLACEMENT:
            self.prompt.value = (f"<b>{who}</b>: {state.active_leaves} active leaves. Click a yellow square for the "
                                 f"next leaf (a black tag -n: covering there sends n leaves back).")
            self.buttons.children = ()
        elif phase is Phase.SQUIRREL:
            self.prompt.value = f"<b>{who}</b>: click a blue square for the squirrel."
            self.buttons.children = ()
        else:
            self.prompt.value = ""
            self.buttons.children = ()


class BoskPlay(GameDashboard):
    """A whole game of Bosk (2-4 seats, each a person or a bot) to play, watch or step through."""

    game_module = bosk
    seat_names = bosk.PLAYER_NAMES
    board_label = "park"
    place_word = "place"

    def __init__(self, players: int = 2, seed: int = 1, seats: tuple | None = None, answer: bool = True,
                 speed: int = 10, **options):
        self.marks = Marks()
        self.pending: tuple[int, int] | None = None
        self.chosen_value: int | None = None
        self.chosen_tile: int | None = None
        self._choice_state = None
        self._marks_state = None
        self.geo = ParkGeometry.fitted(bosk.park_for_players(players), BOARD_PIXELS)
        self.supplies_view = SceneCanvas(BOARD_PIXELS, 8 + SUPPLY_ROW * players, self._supplies_picture,
                                         draw_now=False)
        self.legend_view = SceneCanvas(BOARD_PIXELS, legend_scene(bosk.park_for_players(players), BOARD_PIXELS,
                                                                  players).height,
                                       self._legend_picture, draw_now=False)
        self.choices = ChoicePanel(self)
        names = bosk.PLAYER_NAMES[:4]
        self.summer_table = MajorityTable("Trail", names, on_select=self._select_trail)
        self.winter_table = MajorityTable("Region", names, on_select=self._select_region)
        self.now_summer = MajorityTable("Trail", names, on_select=self._select_trail)
        self.now_winter = MajorityTable("Region", names, on_select=self._select_region)
        self.summer_note = widgets.HTML()
        self.winter_note = widgets.HTML()
        self.now_note = widgets.HTML()
        seats = tuple(seats or (PERSON,))
        seats = seats + ("greedy",) * (4 - len(seats))  # one seat box per possible player in the form
        super().__init__(seed=seed, seats=seats, options={"players": players, **options}, answer=answer, speed=speed)
        self.left.children = (*self.left.children, self.legend_view.canvas)
        self.kit_widgets = [self.summer_table, self.winter_table, self.now_summer, self.now_winter]
        safety.observe(self.tabs, self._on_tab_for_tables, names="selected_index", report=self.report_failure)
        self.add_class("treegames-bosk-play")

    # ------------------------------------------------------------ the kit's hooks

    def board_size(self) -> tuple[int, int]:
        """The park canvas (the same for every player count)."""
        return self.geo.width, self.geo.height

    def board_scene(self, state):
        """The park with its pieces, the wind board and (for a person to move) the legal targets."""
        self._fresh()
        self._forget_marks(state)
        marks = Marks(trail=self.marks.trail, region=self.marks.region, pending=self.pending,
                      show_targets=self.is_person(state.current_player))
        return park_scene(state, self.geo, marks)

    def place_at(self, x: float, y: float) -> str | None:
        """The place a click names in this phase: a crossing (spring, choosing a tree), a square, or a side."""
        phase = self.state.phase
        if phase in (Phase.SPRING, Phase.FALLING_LEAVES):
            place = self.geo.intersection_at(x, y)
        elif phase in (Phase.LEAF_PLACEMENT, Phase.SQUIRREL):
            place = self.geo.square_at(x, y)
        elif phase is Phase.WIND:
            place = self.geo.side_at(x, y) or self.geo.place_at(x, y)
        else:
            place = self.geo.place_at(x, y)
        return place.name if place is not None else None

    def place_centre(self, place: str) -> tuple[float, float]:
        """Canvas pixel of a named crossing ('c4'), square ('C4') or side ('north')."""
        kind, row, col = self._parse_place(place)
        if kind == "side":
            return self.geo.wind_spot_centre(col, 4.5)
        if kind == "intersection":
            return self.geo.intersection_xy(row, col)
        return self.geo.square_centre(row, col)

    def places(self) -> list[str]:
        """Every crossing, square and side, in reading order."""
        n = self.state.park.size
        crossings = [bosk.intersection_name(r, c) for r in range(n + 1) for c in range(n + 1)]
        squares = [bosk.square_name(r, c) for r in range(n) for c in range(n)]
        return crossings + squares + [d.value for d in bosk.DIRECTIONS]

    def cursor_shape(self, place: str) -> list[tuple[float, float]]:
        """The keyboard cursor: a square around the crossing, the square itself, or the side's band."""
        kind, row, col = self._parse_place(place)
        if kind == "side":
            return self.geo.side_band(col)
        if kind == "square":
            return self.geo.square_corners(row, col, 0.96)
        x, y = self.geo.intersection_xy(row, col)
        r = self.geo.cell * 0.4
        return [(x - r, y - r), (x + r, y - r), (x + r, y + r), (x - r, y + r)]

    def action_for(self, state, place: str):
        """The action a click on ``place`` asks for now (the two-part choices need their second half first)."""
        kind, row, col = self._parse_place(place)
        phase = state.phase
        if phase is Phase.SPRING and kind == "intersection":
            value = self.chosen_value if self.chosen_value is not None else self._only(targets(state).tree_values)
            return spring_action(state, row, col, value) if value is not None else None
        if phase is Phase.FALLING_LEAVES and kind == "intersection":
            tile = self.chosen_tile if self.chosen_tile is not None else self._only(targets(state).tiles)
            return choose_action(state, row, col, tile) if tile is not None else None
        if phase in (Phase.LEAF_PLACEMENT, Phase.SQUIRREL) and kind == "square":
            return square_action(state, row, col)
        if phase is Phase.WIND and kind == "side":
            found = state.actions_at(place)
            return found[0] if found else None
        return None

    def play_at(self, place: str) -> bool:
        """A person clicks a place: the engine's move there, half of a two-part choice, or the engine's refusal."""
        self._fresh()
        s = self.state
        if not self.is_human_turn() or s.is_terminal():
            return super().play_at(place)
        kind, row, col = self._parse_place(place)
        action = self.action_for(s, place)
        if action is None and kind == "intersection" and s.phase in (Phase.SPRING, Phase.FALLING_LEAVES):
            probe = (spring_action(s, row, col, targets(s).tree_values[0]) if s.phase is Phase.SPRING
                     else choose_action(s, row, col, targets(s).tiles[0]))
            try:
                s.apply(probe)
            except core.IllegalAction as err:  # the place itself is wrong: the engine says why
                self.say(f"Not allowed: {escape(err)}", error=True)
                return False
            self.pending = (row, col)
            self.board_view.redraw()
            self.choices.show(s)
            return False
        if action is None:
            self.say(f"Not allowed: {self.refusal(s, place)}", error=True)
            return False
        return self.play(action)

    def key(self, key: str, shift: bool = False) -> None:
        """The kit's keys, plus digits for a tree value (spring) or a leaf tile (autumn) and Q for the squirrel tile."""
        s = self.state
        if self.is_human_turn() and s.phase is Phase.SPRING and key in "1234" and len(key) == 1:
            self.choose_value(int(key))
        elif self.is_human_turn() and s.phase is Phase.FALLING_LEAVES and key in "2345678" and len(key) == 1:
            self.choose_tile(int(key))
        elif self.is_human_turn() and s.phase is Phase.FALLING_LEAVES and key.lower() == "q":
            self.choose_tile(SQUIRREL)
        else:
            super().key(key, shift)

    def _announce_cursor(self) -> None:
        """Where the keyboard cursor is and what Enter (and the digit keys) will do there."""
        s = self.state
        if self.cursor is not None and self.action_for(s, self.cursor) is None and s.phase in (
                Phase.SPRING, Phase.FALLING_LEAVES):
            what = "a tree value (keys 1-4)" if s.phase is Phase.SPRING else "a leaf tile (keys 2-8, Q for the squirrel)"
            self.say(f"Cursor on <b>{escape(self.cursor)}</b>: Enter chooses it, then pick {what}.")
            return
        super()._announce_cursor()

    def refusal(self, state, place: str) -> str:
        """Why a click on this kind of place does nothing now, in the words of the step in force."""
        return f"{escape(place)} is not what this step asks for. {escape(state.explain())}"

    def side_widgets(self) -> list:
        """The players' supplies (with the Hiker) and the choice buttons."""
        return [self.supplies_view.canvas, self.choices]

    def extra_tabs(self) -> list[tuple[str, widgets.Widget]]:
        """The summer and winter tables, and the live standings."""
        return [
            ("Summer", widgets.VBox([self.summer_note, self.summer_table])),
            ("Winter", widgets.VBox([self.winter_note, self.winter_table])),
            ("Standings", widgets.VBox([self.now_note, widgets.HTML("<h4 style='margin:4px 0'>If summer were "
                                                                        "scored now</h4>"), self.now_summer,
                                            widgets.HTML("<h4 style='margin:4px 0'>If winter were scored now</h4>"),
                                            self.now_winter])),
        ]

    def extra_parts(self) -> list:
        """Choices reset, supplies, choice buttons and the tables follow the state on screen."""
        return [lambda _s: self.supplies_view.redraw(), self.choices.show, self._show_tables]

    def legend_html(self) -> str:
        """A one-line key (the drawn legend under the park says the rest)."""
        return ("<div style='font-size:12px'>Trails are named along the top (letters) and left (numbers), squares "
                "along the bottom and right. Click a yellow mark to play.</div>")

    def title_html(self, state) -> str:
        """Headline: players, who moves, the phase."""
        return (f"<h2 style='margin:4px 0;font-size:1.17em'>Bosk · {state.num_players} players · {escape(self.who_moves(state))} "
                f"<small style='color:#666'>({escape(state.phase.value)})</small></h2>")

    def who_moves(self, state) -> str:
        """Like the kit's, with 'start player to draw' for Bosk's only chance node."""
        if state.current_player == core.CHANCE:
            return "Start player to draw"
        return super().who_moves(state)

    def explanation_html(self, state) -> str:
        """The engine's words, plus why, when a tie decided the new start player or the winner."""
        why = tie_note(state)
        base = super().explanation_html(state)
        if not why:
            return base
        return base.replace("</div>", f"<br><b>Why:</b> {escape(why)}</div>", 1)

    def scores_html(self, state) -> str:
        """Each seat: shape, name, who plays it, summer, winter and total points."""
        labels = self.seat_kind_labels()
        rows = []
        for p, kind in enumerate(self.seats):
            now = " ◀" if state.current_player == p else ""
            rows.append(f"<tr><td><span style='color:{PLAYER_COLOURS[p]}'>{PLAYER_SYMBOLS[p]}</span> "
                        f"<b>{escape(self.player_name(p))}</b>{now}</td><td>{escape(labels.get(kind, kind))}</td>"
                        f"<td align=center>{state.summer_scores[p]}</td><td align=center>{state.winter_scores[p]}</td>"
                        f"<td align=center><b>{state.scores()[p]}</b></td></tr>")
        return ("<table style='border-collapse:collapse;font-size:13px' cellpadding='3'><tr style='color:#555'>"
                "<th align=left>Player</th><th align=left>Played by</th><th>Summer</th><th>Winter</th><th>Total</th>"
                "</tr>" + "".join(rows) + "</table>")

    # ------------------------------------------------------------ new games

    def new_game(self, seed: int = 1, seats: tuple | None = None, **options) -> None:
        """Start over; the park canvas keeps its size, the supplies and legend follow the player count."""
        players = options.get("players", 2)
        park = bosk.park_for_players(players)
        self.geo = ParkGeometry.fitted(park, BOARD_PIXELS)
        self.marks = Marks()
        self._choice_state = None
        resize(self.supplies_view.canvas, BOARD_PIXELS, 8 + SUPPLY_ROW * players)
        resize(self.legend_view.canvas, BOARD_PIXELS, legend_scene(park, BOARD_PIXELS, players).height)
        for table in (self.summer_table, self.winter_table, self.now_summer, self.now_winter):
            table.names = tuple(bosk.PLAYER_NAMES[:players])
            table._buttons = []
            table.selected = None
        super().new_game(seed=seed, seats=seats, **options)
        self.legend_view.redraw()

    # ------------------------------------------------------------ the two-part choices

    def choose_value(self, value: int) -> None:
        """A tree value button: grow it on the chosen crossing, or remember it for the next click."""
        self._fresh()
        s = self.state
        if not self.is_human_turn() or s.phase is not Phase.SPRING:
            self.say("Tree values are chosen in spring, on your own turn.")
            return
        if self.pending is not None:
            self.play(spring_action(s, *self.pending, value))
            return
        self.chosen_value = None if self.chosen_value == value else value
        self.choices.show(s)
        if self.chosen_value is not None:
            self.say(f"Value {value} chosen: click a yellow crossing to grow it there.")

    def choose_tile(self, tile: int) -> None:
        """A leaf tile button: play it with the chosen tree, or remember it for the next click."""
        self._fresh()
        s = self.state
        if not self.is_human_turn() or s.phase is not Phase.FALLING_LEAVES:
            self.say("Leaf tiles are chosen in autumn, on your own turn, before the leaves fall.")
            return
        if self.pending is not None:
            self.play(choose_action(s, *self.pending, tile))
            return
        self.chosen_tile = None if self.chosen_tile == tile else tile
        self.choices.show(s)
        if self.chosen_tile is not None:
            self.say(f"Leaf tile {tile_label(tile)} chosen: click one of your ringed trees.")

    def play_side(self, side: int) -> None:
        """A wind board side button."""
        if self.is_human_turn() and self.state.phase is Phase.WIND:
            self.play(wind_action(side))

    def play_scoring(self) -> None:
        """The Score summer / Score winter button."""
        s = self.state
        if self.is_human_turn() and s.phase in (Phase.SUMMER, Phase.WINTER):
            self.play(s.legal_actions()[0])

    def _forget_marks(self, state) -> None:
        """A highlighted trail or region (and its selected table row) belongs to the moment it was picked on."""
        if self._marks_state is not state:
            self.marks, self._marks_state = Marks(), state
            for table in (self.summer_table, self.winter_table, self.now_summer, self.now_winter):
                if table.selected is not None:
                    table.selected = None
                    table._mark()

    def _fresh(self) -> None:
        """Half-made choices belong to one moment: a new moment on screen forgets them."""
        if self._choice_state is not self.state:
            self.pending = self.chosen_value = self.chosen_tile = None
            self._choice_state = self.state

    @staticmethod
    def _only(options) -> int | None:
        """The single option if there is exactly one, else None."""
        return options[0] if len(options) == 1 else None

    def _parse_place(self, place: str) -> tuple[str, int, int]:
        """('intersection' | 'square' | 'side', row, col) of a place name; ValueError if it is none."""
        if place in {d.value for d in bosk.DIRECTIONS}:
            return "side", -1, bosk.Direction(place).index
        if len(place) >= 2 and place[0].isalpha() and place[1:].isdigit():
            row, col = int(place[1:]) - 1, ord(place[0].lower()) - ord("a")
            return ("intersection" if place[0].islower() else "square"), row, col
        raise ValueError(f"{place!r} is not a place of the park")

    # ------------------------------------------------------------ pictures and tables

    def _supplies_picture(self):
        """Each player's supplies, for the state on screen."""
        return supplies_scene(self.state, BOARD_PIXELS)

    def _legend_picture(self):
        """The drawn legend for this game's park."""
        return legend_scene(self.state.park, BOARD_PIXELS, self.state.num_players)

    def _select_trail(self, row: TableRow | None) -> None:
        """A summer table row was pressed: highlight that trail on the park."""
        self.marks, self._marks_state = Marks(trail=row.name if row else None), self.state
        self.board_view.redraw()

    def _select_region(self, row: TableRow | None) -> None:
        """A winter table row was pressed: outline that region on the park."""
        self.marks, self._marks_state = Marks(region=row.index if row else None), self.state
        self.board_view.redraw()

    def _on_tab_for_tables(self, _index) -> None:
        """Opening a table tab fills it (tables are only kept current while visible)."""
        self._show_tables(self.state)

    def _table_tab(self) -> str | None:
        """The title of the tab on screen."""
        index = self.tabs.selected_index
        return self.tabs.get_title(index) if index is not None else None

    def _show_tables(self, state) -> None:
        """Fill the visible table tab; right after summer or winter is scored, open its tab."""
        last = state.history[-1] if state.history else None
        if last is not None and last.kind in (Kind.SUMMER, Kind.WINTER):
            title = "Summer" if last.kind is Kind.SUMMER else "Winter"
            wanted = [self.tabs.get_title(i) for i in range(len(self.tabs.children))].index(title)
            if self.tabs.selected_index != wanted:
                self.tabs.selected_index = wanted  # the tab observer fills it
                return
        tab = self._table_tab()
        if tab == "Summer":
            scored = scoring_moment(state, Kind.SUMMER)
            if scored is None:
                self.summer_note.value = ("<i>Summer has not been scored yet: the trail table appears when every "
                                          "tree is grown. See the Standings tab meanwhile.</i>")
                self.summer_table.layout.display = "none"
            else:
                before, after = scored
                self.summer_table.layout.display = ""
                self.summer_note.value = html_note(f"Summer points: {', '.join(_points(after, after.summer_scores))}. "
                                                   + summer_start_note(before, after))
                self.summer_table.show(summer_rows(before))
        elif tab == "Winter":
            scored = scoring_moment(state, Kind.WINTER)
            if scored is None:
                self.winter_note.value = ("<i>Winter is scored after the eighth autumn round. See the Standings tab for the "
                                          "regions as they stand.</i>")
                self.winter_table.layout.display = "none"
            else:
                before, after = scored
                self.winter_table.layout.display = ""
                self.winter_note.value = html_note(f"Winter points: {', '.join(_points(after, after.winter_scores))}. "
                                                   + final_note(after))
                self.winter_table.show(winter_rows(before))
        elif tab == "Standings":
            rows_s, rows_w = summer_rows(state), winter_rows(state)
            n = state.num_players
            self.now_note.value = html_note(
                "How the majorities stand at this very moment: one tree or one leaf can change a row. Summer now: "
                + ", ".join(_points(state, totals(rows_s, n))) + "; winter now: "
                + ", ".join(_points(state, totals(rows_w, n))) + ".")
            self.now_summer.show(rows_s)
            self.now_winter.show(rows_w)


def tie_note(state) -> str:
    """Our sentence on a tie the last action settled (new start player after summer or a round, the winner), or ''."""
    prev = state.previous
    if prev is None or not state.history:
        return ""
    kind = state.history[-1].kind
    if kind is Kind.SUMMER and is_summer_tie(state):
        return summer_start_note(prev, state)
    if kind is Kind.WINTER and state.last_decision.is_tie:
        return final_note(state)
    if prev.round and state.round != prev.round:
        text, interp = end_of_round_note(state)
        return text if interp else ""
    return ""


def _points(state, points) -> list[str]:
    """'Maple 7' for each player."""
    return [f"{state.game.player_name(p)} {v}" for p, v in enumerate(points)]


def html_note(text: str) -> str:
    """A short note above a table."""
    return f"<div style='font-size:13px;margin:2px 0 6px'>{html.escape(text)}</div>"


def scoring_moment(state, kind: Kind):
    """(state just before, state just after) the summer or winter scoring in this state's past, or None."""
    s = state
    while s is not None and s.history:
        if s.history[-1].kind is kind:
            return s.previous, s
        s = s.previous
    return None
