"""Majority scoring tables as widgets: one row per trail (summer) or region (winter), rows selectable.

Every number and sentence comes from the engine: the rows from ``bosk.summer_table``
/ ``bosk.winter_table`` and the places, points and tie explanations from
``bosk.scoring.majority`` -- the same function the engine scores with.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import ipywidgets as widgets

from ... import bosk
from ...bosk.scoring import SUMMER_POINTS, WINTER_POINTS, Majority, MajorityPoints, majority
from .. import safety
from .scene import PLAYER_COLOURS, PLAYER_SYMBOLS


@dataclass(frozen=True)
class TableRow:
    """One trail or region: its name, its index among the rows, and the explained majority."""

    name: str
    index: int
    result: Majority


def explained_rows(rows, table: MajorityPoints) -> list[TableRow]:
    """Engine score rows (name, totals, points) with their explained majorities; the points must agree."""
    out = []
    for i, row in enumerate(rows):
        result = majority(row.totals, table)
        if result.points != tuple(row.points):
            raise AssertionError(f"{row.name}: the table and the engine disagree ({result.points} != {row.points})")
        out.append(TableRow(row.name, i, result))
    return out


def summer_rows(state) -> list[TableRow]:
    """Every trail as summer would score it in ``state`` (II. Summer)."""
    return explained_rows(bosk.summer_table(state), SUMMER_POINTS)


def winter_rows(state) -> list[TableRow]:
    """Every region as winter would score it in ``state`` (IV. Winter)."""
    return explained_rows(bosk.winter_table(state), WINTER_POINTS)


def totals(rows: Sequence[TableRow], players: int) -> tuple[int, ...]:
    """Each player's points summed over the rows."""
    return tuple(sum(r.result.points[p] for r in rows) for p in range(players))


def player_head(names: Sequence[str]) -> list[str]:
    """Column headings: each player's shape (in their colour) and name."""
    return [f"<span style='color:{PLAYER_COLOURS[p]}'>{PLAYER_SYMBOLS[p]}</span>&nbsp;<b>{html.escape(n)}</b>"
            for p, n in enumerate(names)]


def cell_html(result: Majority, player: int) -> str:
    """One player's cell: their total there, their place and their points."""
    value = result.values[player]
    if value <= 0:
        return "<span style='color:#999'>–</span>"
    place = result.place_label(player)
    points = result.points[player]
    return (f"<div style='line-height:1.25;white-space:nowrap'><b>{value}</b> "
            f"<span style='background:#EEE;padding:0 3px;border-radius:3px'>+{points}</span><br>"
            f"<span style='color:#555;font-size:11px'>{place}</span></div>")


def table_html(rows: Sequence[TableRow], names: Sequence[str], label: str, selected: int | None = None,
               caption: str = "") -> str:
    """The whole table as HTML (for walkthroughs and reports); the selected row shaded."""
    head = "".join(f"<th style='padding:2px 6px'>{h}</th>" for h in player_head(names))
    body = []
    for row in rows:
        shade = " style='background:#FFF3A0'" if row.index == selected else ""
        cells = "".join(f"<td style='padding:2px 6px'>{cell_html(row.result, p)}</td>" for p in range(len(names)))
        body.append(f"<tr{shade}><td style='padding:2px 6px'><b>{html.escape(row.name)}</b></td>{cells}"
                    f"<td style='padding:2px 6px;color:#555'>{row.result.case.value}</td></tr>")
    sums = "".join(f"<td style='padding:2px 6px'><b>{t}</b></td>" for t in totals(rows, len(names)))
    cap = f"<caption style='caption-side:top;text-align:left'>{caption}</caption>" if caption else ""
    return (f"<table class='bosk-majority' style='border-collapse:collapse;font-size:13px'>{cap}"
            f"<tr style='border-bottom:1px solid #999'><th align=left>{label}</th>{head}<th>case</th></tr>"
            + "".join(body)
            + f"<tr style='border-top:1px solid #999'><td><b>points</b></td>{sums}<td></td></tr></table>")


class MajorityTable(widgets.VBox):
    """A scoring table whose rows are buttons: pressing one selects it, explains it and tells the board."""

    def __init__(self, label: str, names: Sequence[str], on_select: Callable[[TableRow | None], None] | None = None):
        self.label = label
        self.names = tuple(names)
        self.on_select = on_select
        self.rows: list[TableRow] = []
        self.selected: int | None = None
        self.caption = widgets.HTML()
        self.grid = widgets.GridBox(layout=widgets.Layout(grid_gap="1px 4px", overflow="auto", width="100%"))
        self.explanation = widgets.HTML(layout=widgets.Layout(min_height="40px"))
        self._buttons: list[widgets.Button] = []
        self._cells: list[list[widgets.HTML]] = []
        super().__init__([self.caption, self.grid, self.explanation])
        self.add_class("bosk-majority-table")

    def show(self, rows: Sequence[TableRow], caption: str = "") -> None:
        """Show these rows (the selection is kept if that row still exists)."""
        rows = list(rows)
        n = len(self.names)
        if len(rows) != len(self._buttons):
            self._build(len(rows))
        self.rows = rows
        self.caption.value = caption
        for i, row in enumerate(rows):
            self._buttons[i].description = row.name
            for p in range(n):
                self._cells[i][p].value = cell_html(row.result, p)
            self._cells[i][n].value = f"<span style='color:#555'>{row.result.case.value}</span>"
        sums = totals(rows, n)
        for p in range(n):
            self._cells[len(rows)][p].value = f"<b>{sums[p]}</b>"
        if self.selected is not None and self.selected >= len(rows):
            self.selected = None
        self._mark()

    def _build(self, count: int) -> None:
        """Make the grid's widgets for ``count`` rows (done once per table size)."""
        n = len(self.names)
        self.grid.layout.grid_template_columns = f"78px repeat({n}, minmax(62px, auto)) auto"
        head = [widgets.HTML(f"<b>{html.escape(self.label)}</b>")]
        head += [widgets.HTML(h) for h in player_head(self.names)]
        head.append(widgets.HTML("<b>case</b>"))
        self._buttons, self._cells = [], []
        items = list(head)
        for i in range(count):
            button = widgets.Button(layout=widgets.Layout(width="76px", height="24px", padding="0"),
                                    tooltip="Show this one on the board and explain its points")
            safety.on_click(button, lambda i=i: self.select(None if self.selected == i else i))
            cells = [widgets.HTML() for _ in range(n + 1)]
            self._buttons.append(button)
            self._cells.append(cells)
            items += [button, *cells]
        sum_cells = [widgets.HTML() for _ in range(n)]
        self._cells.append(sum_cells)
        items += [widgets.HTML("<b>points</b>"), *sum_cells, widgets.HTML("")]
        self.grid.children = items

    def select(self, index: int | None) -> None:
        """Select a row by index (None clears), explain it and tell the listener."""
        self.selected = index if index is not None and 0 <= index < len(self.rows) else None
        self._mark()
        if self.on_select is not None:
            self.on_select(self.rows[self.selected] if self.selected is not None else None)

    def _mark(self) -> None:
        """Shade the selected row's button and show its explanation."""
        for i, button in enumerate(self._buttons):
            button.button_style = "warning" if i == self.selected else ""
        if self.selected is None:
            self.explanation.value = ("<span style='color:#555;font-size:12px'>Press a row's name to see it on the "
                                      "board and why it scores what it does.</span>")
        else:
            row = self.rows[self.selected]
            self.explanation.value = (f"<div style='font-size:13px;border-left:4px solid #E69F00;padding:2px 8px'>"
                                      f"<b>{html.escape(row.name)}</b>: "
                                      f"{html.escape(row.result.explain(self.names))}</div>")
