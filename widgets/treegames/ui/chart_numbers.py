"""Every chart's text equivalent: the numbers it draws, as a captioned HTML table a screen reader walks.

A chart's scene function fills ``Scene.numbers`` with a :class:`ChartNumbers` built from the very values it
draws (the bars' chances, the counts, the intervals).  :class:`~treegames.ui.canvas.SceneCanvas` shows it
under the canvas (``view.numbers``, a section opened by a *Show the numbers: ...* button) and rewrites it on
every redraw, so every chart of every page gets its table from one function, :func:`numbers_html`, and the
table can never disagree with the picture.  The section's open state is kept in the kernel, so a table a
reader opened stays open while the chart changes under it (a lab run, a slider).
"""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from .text import escape, fraction_text, percent_text

Value = int | float | Fraction | str | None
"""One cell: a number (shown by its column's :class:`Kind`), a word, or None for 'nothing drawn here'."""

CHART_CSS = """
.treegames-chart-numbers{font-size:13px;margin:2px 0 8px;max-width:100%;overflow-x:auto}
.treegames-chart-numbers-box .widget-toggle-button{white-space:normal!important;height:auto!important;
  min-height:28px;text-align:left!important;line-height:1.3!important;padding:3px 8px!important;
  width:auto!important;max-width:100%!important;align-self:flex-start!important}
.treegames-chart-table{border-collapse:collapse;margin:4px 0}
.treegames-chart-table caption{text-align:left;font-weight:bold;padding:2px 0}
.treegames-chart-table th,.treegames-chart-table td{border:1px solid #BBBBBB;padding:2px 6px;text-align:right}
.treegames-chart-table th[scope=row]{text-align:left}
.treegames-chart-table thead th{background:#F4F7FB}
.treegames-chart-note{margin:2px 0}
"""
"""The tables' look; part of the kit's style sheet, and sent with each table for pages without that sheet."""

NO_VALUE = "—"
"""What a cell with no value shows (e.g. a share before any game was played)."""


class Kind(enum.Enum):
    """How a column's numbers are written."""

    COUNT = "count"  # a whole number: 12
    CHANCE = "chance"  # an exact fraction with its percent: 5/36 (13.9%)
    SHARE = "share"  # a proportion 0..1 as a percent: 41.7%
    NUMBER = "number"  # a measured number: 0.125
    TEXT = "text"  # words as they are


class ChartNumbersError(ValueError):
    """A chart's table does not fit together (a row with the wrong number of cells)."""


@dataclass(frozen=True)
class Column:
    """One column of a chart's table: its heading and how its numbers are written."""

    heading: str
    kind: Kind = Kind.NUMBER


@dataclass(frozen=True)
class ChartNumbers:
    """The numbers one chart draws: a caption, the rows' heading, the columns, and one row per bar/point/line."""

    caption: str
    row_heading: str
    columns: tuple[Column, ...]
    rows: tuple[tuple[str, tuple[Value, ...]], ...]
    note: str = ""

    def __post_init__(self):
        for name, cells in self.rows:
            if len(cells) != len(self.columns):
                raise ChartNumbersError(f"row {name!r} has {len(cells)} cells for {len(self.columns)} columns")

    def column(self, heading: str) -> dict[str, Value]:
        """Row heading -> value of the column called ``heading`` (tests compare these with the chart's data)."""
        index = [c.heading for c in self.columns].index(heading)
        return {name: cells[index] for name, cells in self.rows}


def chart_numbers(caption: str, row_heading: str, columns: Sequence[Column],
                  rows: Sequence[tuple[object, Sequence[Value]]], note: str = "") -> ChartNumbers:
    """A :class:`ChartNumbers` from lists (row headings are written as text)."""
    return ChartNumbers(caption, row_heading, tuple(columns),
                        tuple((str(name), tuple(cells)) for name, cells in rows), note)


def cell_text(value: Value, kind: Kind) -> str:
    """One cell as text, written the way its column's kind says."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return NO_VALUE
    if kind is Kind.TEXT or isinstance(value, str):
        return str(value)
    if kind is Kind.COUNT:
        return f"{int(value):,}"
    if kind is Kind.CHANCE:
        if isinstance(value, Fraction) or float(value).is_integer():
            return f"{fraction_text(Fraction(value))} ({percent_text(Fraction(value))})"
        return f"{float(value):.4f} ({100 * float(value):.1f}%)"
    if kind is Kind.SHARE:
        return percent_text(Fraction(value)) if isinstance(value, Fraction) else f"{100 * float(value):.1f}%"
    if isinstance(value, int | Fraction) and Fraction(value).denominator == 1:
        return str(int(value))
    return f"{float(value):.4g}"


def table_html(numbers: ChartNumbers) -> str:
    """The chart's numbers as a table with a caption and column and row headers."""
    head = f"<th scope='col'>{escape(numbers.row_heading)}</th>" + "".join(
        f"<th scope='col'>{escape(c.heading)}</th>" for c in numbers.columns)
    body = "".join(
        f"<tr><th scope='row'>{escape(name)}</th>"
        + "".join(f"<td>{escape(cell_text(v, c.kind))}</td>" for v, c in zip(cells, numbers.columns, strict=True))
        + "</tr>" for name, cells in numbers.rows)
    return (f"<table class='treegames-chart-table'><caption>{escape(numbers.caption)}</caption>"
            f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")


def numbers_title(numbers: ChartNumbers) -> str:
    """The words of the button that shows the chart's numbers, after "Show" or "Hide"."""
    return f"the numbers: {numbers.caption}"


def numbers_html(numbers: ChartNumbers | None) -> str:
    """The chart's table with its note, for the section under the chart ('' for a chart with none)."""
    if numbers is None:
        return ""
    note = f"<p class='treegames-chart-note'>{escape(numbers.note)}</p>" if numbers.note else ""
    return f"<style>{CHART_CSS}</style><div class='treegames-chart-numbers'>{table_html(numbers)}{note}</div>"
