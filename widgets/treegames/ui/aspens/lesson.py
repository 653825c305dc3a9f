"""Odds views for the Sun and Wind dice: exact bar charts, the production chart, and a roll simulator.

Every number comes from :mod:`treegames.aspens.odds` (exact odds, moments, the
"a die for each space" counterfactual, the Wind chances, Sun rolls); this module
only draws and words them.  Pictures are pure :class:`~treegames.ui.scene.Scene` functions, sent
to canvases through :class:`~treegames.ui.canvas.SceneCanvas`.
"""

from __future__ import annotations

import html
import math
import random
import time
from collections import Counter
from collections.abc import Iterable, Mapping
from fractions import Fraction

import ipywidgets as widgets
import numpy as np

from ...aspens import GreedyBot, Phase, new_game
from ...aspens.data import Direction
from ...aspens.odds import (
    SUN_FACES,
    WIND_FACES,
    distribution_mean,
    distribution_variance,
    expected_gain,
    gain_distribution,
    gain_on_sun,
    independent_gain_distribution,
    production_correlation,
    production_probability,
    reach_census,
    reach_table,
    roll_sun,
    rulebook_chart,
    variance_gain,
    wind_valid_probability,
)
from ...core import play
from .. import palette, safety
from ..canvas import SceneCanvas
from ..chart_numbers import ChartNumbers, Column, Kind, chart_numbers
from ..panels import Answer
from ..scene import Polygons, Scene, Segments, Texts, as_points, colours
from ..styles import stylesheet
from ..text import fraction_text, percent_text, plural

__all__ = [
    "SIMULATED_COLOUR",
    "distribution_scene",
    "production_table_html",
    "fraction_text",
    "percent_text",
    "parse_stacks",
    "wind_table_html",
    "reach_table_html",
    "reach_census_html",
    "seeded_turn_starts",
    "moments_table_html",
    "rounding_note_html",
    "variance_sum_html",
    "correlation_text",
    "summary_html",
    "shared_axes",
    "note",
    "exact_and_decimal",
    "stacks_text",
    "DistributionPanel",
    "GainSimulator",
    "HeightExplorer",
    "ForestExplorer",
    "WindExplorer",
    "Answer",
]

SIMULATED_COLOUR = palette.VERMILLION
"""Simulated frequencies are drawn in this colour, beside the exact bars."""

GRID = "#DDDDDD"
HIGHLIGHT_ROW = "#FAF3B0"  # a pale tint of palette.YELLOW, so highlighted text stays readable
PROGRESS_AFTER = 0.5
"""Seconds a batch of rolls may take before a progress note appears."""

MAX_SPACES = 12
"""The most stack heights a text box accepts (more would crowd the chart's value labels)."""

DEFAULT_WIDTH = 440
DEFAULT_HEIGHT = 290
SIXTH = Fraction(1, 6)


# ---------------------------------------------------------------- numbers and words


def decimal_text(value: Fraction, places: int = 3) -> str:
    """An exact fraction as a decimal rounded to ``places`` places."""
    return f"{float(value):.{places}f}"


def exact_and_decimal(value: Fraction) -> str:
    """'7/6 ≈ 1.167', or just '1' when the value is a whole number."""
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    return f"{fraction_text(value)} ≈ {decimal_text(value)}"


def parse_stacks(text: str) -> list[int]:
    """Stack heights from text such as '4, 3, 2' (commas or spaces); ValueError says what is wrong."""
    parts = [p for p in text.replace(",", " ").replace(";", " ").split() if p]
    heights = []
    for part in parts:
        if part.startswith("-") and part[1:].isdigit():
            raise ValueError(f"{part}: a space cannot hold fewer than 0 trees")
        if not part.isdigit():
            raise ValueError(f"'{part}' is not a whole number of trees")
        heights.append(int(part))
    if not heights:
        raise ValueError("type at least one stack height, e.g. 4, 3, 2")
    if len(heights) > MAX_SPACES:
        raise ValueError(f"that is more spaces than this page draws (at most {MAX_SPACES})")
    return heights


# ---------------------------------------------------------------- the bar chart scene


def _y_top(dist: Mapping[int, Fraction], freqs: Mapping[int, Fraction]) -> Fraction:
    """The top of the probability axis: the tallest bar rounded up to a whole number of sixths."""
    tallest = max([Fraction(0), *dist.values(), *freqs.values()])
    return min(Fraction(1), max(SIXTH, Fraction(math.ceil(tallest * 6), 6)))


def _relative(simulated: Mapping[int, int] | None) -> tuple[dict[int, Fraction], int]:
    """Relative frequencies (exact) of simulated counts, and how many rolls they come from."""
    if not simulated:
        return {}, 0
    total = sum(simulated.values())
    if total <= 0:
        return {}, 0
    return {k: Fraction(n, total) for k, n in simulated.items() if n}, total


def _label_box(x: float, y: float, text: str, char_w: float = 7.0) -> list[tuple[float, float]]:
    """A white backing rectangle for a centred label, so lines behind it never cross its text."""
    half = len(text) * char_w / 2 + 2
    return [(x - half, y - 8), (x + half, y - 8), (x + half, y + 8), (x - half, y + 8)]


MIN_SLOT_FOR_TWO_LABELS = 56.0
"""Narrowest slot (pixels per value) that fits both an exact and a simulated label side by side."""

LEGEND_ROW = 17.0
"""Pixels between legend rows."""


def _legend_rows(entries: list[tuple[str, str, str]], start: float, end: float) -> list[list[tuple]]:
    """Pack legend entries (kind, colour, label) into rows of (kind, x, colour, label) that fit between start and end."""
    rows: list[list[tuple]] = [[]]
    x = start
    for kind, colour, label in entries:
        needed = 17 + 6.5 * len(label)
        if rows[-1] and x + needed > end:
            rows.append([])
            x = start
        rows[-1].append((kind, x, colour, label))
        x += needed + 14
    return rows


def _swatch(x: float, y: float) -> list[tuple[float, float]]:
    """The 12-pixel colour square of a legend entry."""
    return [(x, y - 6), (x + 12, y - 6), (x + 12, y + 6), (x, y + 6)]


def distribution_scene(
    dist: dict[int, Fraction],
    simulated: dict[int, int] | None = None,
    width: int = DEFAULT_WIDTH,
    height: int = DEFAULT_HEIGHT,
    colour: str = palette.BLUE,
    title: str = "",
    *,
    max_value: int | None = None,
    max_probability: Fraction | None = None,
) -> Scene:
    """Exact probability bars per value, simulated relative frequencies beside them, axes and a legend.

    Bars carry tags ``("exact", value)`` and ``("simulated", value)``; bar height in
    pixels is proportional to the probability (or relative frequency).  ``max_value``
    and ``max_probability`` widen the axes so two charts side by side share a scale.
    """
    freqs, total = _relative(simulated)
    values = [*dist, *freqs, *([max_value] if max_value is not None else [])] or [0]
    lo, hi = min(0, *values), max(values)
    slots = list(range(lo, hi + 1))
    top = _y_top(dist, freqs)
    if max_probability is not None:
        top = max(top, _y_top({0: Fraction(max_probability)}, {}))

    mean = distribution_mean(dist)
    entries = [("exact", colour, "exact chance")]
    if freqs:
        entries.append(("simulated", SIMULATED_COLOUR, f"simulated, {plural(total, 'roll')}"))
    entries.append(("mean", palette.INK, f"mean {exact_and_decimal(mean)}"))
    legend = _legend_rows(entries, 48.0, width - 8.0)

    left, right = 48.0, width - 12.0
    plot_top = 58.0 if title else 36.0
    plot_bottom = height - 62.0 - LEGEND_ROW * (len(legend) - 1)
    slot_w = (right - left) / len(slots)
    scale = (plot_bottom - plot_top) / float(top)  # pixels per unit of probability

    def x_of(value: float) -> float:
        """Canvas x of the centre of a value's slot (fractional values lie between slots)."""
        return left + (value - lo + 0.5) * slot_w

    def y_of(p: Fraction) -> float:
        """Canvas y of a probability on the vertical axis."""
        return plot_bottom - float(p) * scale

    scene = Scene(width, height, palette.BACKGROUND)
    if title:
        scene.add(Texts([(width / 2, 16, title)], font="bold 14px sans-serif", colour=palette.INK))

    # Grid lines and probability ticks at every sixth, labelled as fractions.
    ticks = [Fraction(k, 6) for k in range(0, int(top * 6) + 1)]
    scene.add(Segments(as_points([[(left, y_of(t)), (right, y_of(t))] for t in ticks[1:]]), stroke=GRID))
    scene.add(Texts([(left - 8, y_of(t), fraction_text(t)) for t in ticks],
                    font="12px sans-serif", colour=palette.MUTED_INK, align="right"))
    scene.add(Texts([(6, plot_top - 20, "chance")], font="12px sans-serif", colour=palette.MUTED_INK,
                    align="left"))

    # Bars: exact ones in the given colour and, once there are rolls, simulated ones beside them.
    bar_w = slot_w * (0.36 if freqs else 0.56)
    shift = bar_w * 0.55 if freqs else 0.0

    def exact_x(value: int) -> float:
        """Centre of a value's exact bar (left of the slot centre when simulated bars share the slot)."""
        return x_of(value) - shift

    def sim_x(value: int) -> float:
        """Centre of a value's simulated bar (right of the slot centre)."""
        return x_of(value) + shift

    def bar(cx: float, p: Fraction) -> list[tuple[float, float]]:
        """Corners of a bar centred at cx rising to probability p."""
        y = y_of(p)
        return [(cx - bar_w / 2, plot_bottom), (cx + bar_w / 2, plot_bottom), (cx + bar_w / 2, y),
                (cx - bar_w / 2, y)]

    exact = sorted(dist.items())
    exact_labels = [(exact_x(v), y_of(p) - 9, fraction_text(p)) for v, p in exact]
    scene.add(Polygons(as_points([bar(exact_x(v), p) for v, p in exact]), colours([colour] * len(exact)),
                       stroke=palette.INK, line_width=1.0, tags=tuple(("exact", v) for v, _ in exact)))
    sim_labels = []
    if freqs:
        sims = sorted(freqs.items())
        if slot_w >= MIN_SLOT_FOR_TWO_LABELS:  # narrower slots: the bars speak, labels would collide
            sim_labels = [(sim_x(v), y_of(f) - 9, percent_text(f, 0)) for v, f in sims]
        scene.add(Polygons(as_points([bar(sim_x(v), f) for v, f in sims]),
                           colours([SIMULATED_COLOUR] * len(sims)), stroke=palette.INK, line_width=1.0,
                           tags=tuple(("simulated", v) for v, _ in sims)))
    # The mean: a dashed dark line over the bars (label backings keep it off the numbers).
    mx = x_of(float(mean))
    dashes = [[(mx, y), (mx, max(plot_top - 4, y - 5))] for y in np.arange(plot_bottom + 4, plot_top - 4, -9.0)]
    scene.add(Segments(as_points(dashes), stroke=palette.INK, line_width=1.5))
    backings = [_label_box(x, y, t) for x, y, t in exact_labels + sim_labels]
    scene.add(Polygons(as_points(backings), colours([palette.BACKGROUND] * len(backings))))
    scene.add(Texts(exact_labels, font="bold 12px sans-serif", colour=palette.INK))
    scene.add(Texts(sim_labels, font="bold 11px sans-serif", colour=SIMULATED_COLOUR))

    # Axes, value labels and the axis caption.
    scene.add(Segments(as_points([[(left, plot_bottom), (right, plot_bottom)],
                                  [(left, plot_bottom), (left, plot_top - 6)]]),
                       stroke=palette.INK, line_width=1.5))
    value_labels = [(x_of(v), plot_bottom + 13, str(v)) for v in slots]
    scene.add(Polygons(as_points([_label_box(x, y, t, 8.0) for x, y, t in value_labels]),
                       colours([palette.BACKGROUND] * len(value_labels))))
    scene.add(Texts(value_labels, font="13px sans-serif", colour=palette.INK))
    scene.add(Texts([((left + right) / 2, plot_bottom + 31, "trees gained on one Sun roll")],
                    font="12px sans-serif", colour=palette.MUTED_INK))

    scene.numbers = distribution_numbers(dist, simulated, title)

    # Legend along the bottom (rows packed by _legend_rows, laid out before the plot).
    for row_index, row in enumerate(legend):
        y = height - 12.0 - LEGEND_ROW * (len(legend) - 1 - row_index)
        swatches = [_swatch(x, y) for kind, x, _, _ in row if kind != "mean"]
        scene.add(Polygons(as_points(swatches), colours([c for kind, _, c, _ in row if kind != "mean"]),
                           stroke=palette.INK, tags=tuple(("legend", label) for kind, _, _, label in row
                                                          if kind != "mean")))
        for kind, x, _, _ in row:
            if kind == "mean":
                scene.add(Segments(as_points([[(x + 6, y - 7), (x + 6, y - 2)], [(x + 6, y + 2), (x + 6, y + 7)]]),
                                   stroke=palette.INK, line_width=1.5))
        scene.add(Texts([(x + 17, y, label) for _, x, _, label in row], font="12px sans-serif",
                        colour=palette.INK, align="left"))
    return scene


def distribution_numbers(dist: Mapping[int, Fraction], simulated: Mapping[int, int] | None = None,
                         title: str = "") -> ChartNumbers:
    """The bars of :func:`distribution_scene` as a table: each number of trees, its exact chance, the rolls."""
    freqs, total = _relative(simulated)
    columns = [Column("exact chance", Kind.CHANCE)]
    if freqs:
        columns += [Column("rolls", Kind.COUNT), Column("share of rolls", Kind.SHARE)]
    rows = []
    for value in sorted(set(dist) | set(freqs)):
        cells = [Fraction(dist.get(value, 0))]
        if freqs:
            cells += [(simulated or {}).get(value, 0), freqs.get(value, Fraction(0))]
        rows.append((value, cells))
    note = f"Mean number of trees gained per roll: {exact_and_decimal(distribution_mean(dist))}." + (
        f" {plural(total, 'roll')} simulated." if freqs else "")
    return chart_numbers(title or "Trees gained on one Sun roll", "trees gained", columns, rows, note)


# ---------------------------------------------------------------- tables


def _table(head: list[str], rows: list[tuple[list[str], bool, str]], caption: str = "") -> str:
    """A small HTML table; each row is (cells, highlighted, data-key)."""
    cell = "padding:3px 10px;border-bottom:1px solid #DDD;text-align:center"
    out = ['<table class="treegames-table" style="border-collapse:collapse;font-size:14px;margin:4px 0">']
    if caption:
        out.append(f'<caption style="caption-side:top;text-align:left;padding:2px 0 6px">{caption}</caption>')
    out.append("<tr>" + "".join(f'<th style="{cell};border-bottom:2px solid #555">{h}</th>' for h in head)
               + "</tr>")
    for cells, lit, key in rows:
        style = f' style="background:{HIGHLIGHT_ROW};font-weight:bold"' if lit else ""
        klass = ' class="highlight"' if lit else ""
        out.append(f'<tr data-key="{html.escape(key)}"{klass}{style}>'
                   + "".join(f'<td style="{cell}">{c}</td>' for c in cells) + "</tr>")
    out.append("</table>")
    return "".join(out)


def production_table_html(highlight: Iterable[int] = ()) -> str:
    """The rulebook's production chart beside the exact odds, with rows for the given stack heights highlighted.

    Rows: 0-1 trees (never), the rulebook's 2-7 trees, and 8 or more (always).
    """
    wanted = set(highlight)
    top = max(SUN_FACES)
    head = ["Trees on the space", "Rulebook says", "Exact chance", "Exact %", "Nearest whole %",
            "Sun values that produce"]
    rows: list[tuple[list[str], bool, str]] = []
    never = production_probability(0)
    rows.append((["0 or 1", "—", fraction_text(never), percent_text(never), percent_text(never, 0), "none"],
                 bool(wanted & {0, 1}), "0-1"))
    for row in rulebook_chart():
        rows.append(([str(row.trees), f"{row.printed_percent}%", fraction_text(row.exact),
                      percent_text(row.exact), percent_text(row.exact, 0),
                      ", ".join(str(s) for s in row.producing_suns)], row.trees in wanted, str(row.trees)))
    always = production_probability(top + 1)
    rows.append(([f"{top + 1} or more", "—", fraction_text(always), percent_text(always), percent_text(always, 0),
                  "all"], any(h > top for h in wanted), f"{top + 1}+"))
    return _table(head, rows)


def rounding_note_html() -> str:
    """For each row of the chart: does cutting the decimals off give the same whole percent as rounding, and why."""
    agree_none, agree_low, differ = [], [], []
    for row in rulebook_chart():
        percent = row.exact * 100
        if percent.denominator == 1:
            agree_none.append(row)
        elif percent - math.floor(percent) < Fraction(1, 2):
            agree_low.append(row)
        else:
            differ.append(row)

    def trees(rows: list) -> str:
        names = [str(r.trees) for r in rows]
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]

    parts = []
    if agree_none:
        parts.append(f"For {trees(agree_none)} trees the exact percentage is a whole number "
                     f"({', '.join(percent_text(r.exact, 0) for r in agree_none)}): there are no decimals to "
                     "cut off, so truncating and rounding agree.")
    if agree_low:
        parts.append(f"For {trees(agree_low)} trees they agree because the decimals are below one half "
                     f"({', '.join(percent_text(r.exact) for r in agree_low)}).")
    if differ:
        parts.append(f"For {trees(differ)} trees the decimals are one half or more "
                     f"({', '.join(percent_text(r.exact) for r in differ)}), so rounding goes up and the chart's "
                     "truncated figure is one point lower.")
    return " ".join(parts)


def variance_sum_html(forests: Iterable[Iterable[int]]) -> str:
    """For each forest: its variance beside the sum of its spaces' variances, and whether they are equal."""
    lines = []
    for stacks in forests:
        stacks = list(stacks)
        total = variance_gain(stacks)
        parts = sum((variance_gain([h]) for h in stacks), Fraction(0))
        verdict = ("the same: at most one of these spaces can vary, so no two spaces move together"
                   if total == parts else "more than the sum: the spaces move together (section 4)")
        lines.append(f"<li>{stacks_text(stacks)}: variance <b>{exact_and_decimal(total)}</b>; sum of the "
                     f"spaces' variances {exact_and_decimal(parts)}; {verdict}.</li>")
    return f"<ul style='margin:2px 0'>{''.join(lines)}</ul>"


def correlation_text(a: int, b: int) -> str:
    """The correlation of two stacks to two decimals, or why it is undefined."""
    value = production_correlation(a, b)
    if value is None:
        fixed = [h for h in (a, b) if production_probability(h) in (0, 1)]
        h = fixed[0]
        how = "never produces" if production_probability(h) == 0 else "always produces"
        return f"undefined (a space of {h} {'tree' if h == 1 else 'trees'} {how}, so it does not vary)"
    return f"{value:.2f}"


def moments_table_html(heights: Iterable[int] = range(0, 9), highlight: Iterable[int] = ()) -> str:
    """For single spaces of each height: chance to produce, expected trees and variance (exact and decimal)."""
    wanted = set(highlight)
    head = ["Trees on the space", "Chance to produce", "Expected trees per roll", "Variance"]
    rows = [([str(h), fraction_text(production_probability(h)), exact_and_decimal(expected_gain([h])),
              exact_and_decimal(variance_gain([h]))], h in wanted, str(h)) for h in heights]
    return _table(head, rows)


def summary_html(stacks: list[int], dist: Mapping[int, Fraction] | None = None) -> str:
    """Mean, variance, spread and the chance of gaining nothing for these stacks (exact and decimal)."""
    dist = gain_distribution(stacks) if dist is None else dist
    mean, var = distribution_mean(dist), distribution_variance(dist)
    nothing = dist.get(0, Fraction(0))
    return (f"<div style='font-size:14px;line-height:1.6'>"
            f"Expected trees per roll: <b>{exact_and_decimal(mean)}</b><br>"
            f"Variance: <b>{exact_and_decimal(var)}</b> "
            f"(standard deviation ≈ {math.sqrt(float(var)):.3f})<br>"
            f"Chance of gaining nothing: <b>{fraction_text(nothing)}</b> ({percent_text(nothing)})</div>")


def shared_axes(*dists: Mapping[int, Fraction]) -> dict:
    """Keyword arguments for :func:`distribution_scene` that give several charts the same axes."""
    return {"max_value": max(max(d) for d in dists),
            "max_probability": max(max(d.values()) for d in dists)}


def note(text_html: str) -> widgets.HTML:
    """A paragraph of computed text in the lesson's body font size."""
    return widgets.HTML(f"<div style='font-size:14px;line-height:1.6'>{text_html}</div>")


def stacks_text(stacks: Iterable[int]) -> str:
    """'4, 3, 2' for a list of heights."""
    return ", ".join(str(h) for h in stacks)


# ---------------------------------------------------------------- the Wind die


def wind_table_html(direction: Direction | None = None) -> str:
    """Each Wind roll with the three directions it makes valid; rows where ``direction`` is valid highlighted."""
    rows = []
    for face in WIND_FACES:
        valid = face.wind_directions()
        rows.append(([str(face), ", ".join(str(d) for d in valid)], direction in valid, str(face)))
    return _table(["Wind die shows", "Valid directions"], rows)


def _shape_words(directions: tuple[Direction, ...]) -> str:
    """'E and NE (side by side)' for an example set of directions into a space."""
    names = ", ".join(str(d) for d in directions)
    if len(directions) != 2:
        return names
    order = list(Direction)
    gap = (order.index(directions[1]) - order.index(directions[0])) % 6
    words = {1: "side by side", 2: "one direction between them", 3: "opposite"}[min(gap, 6 - gap)]
    return f"{names} ({words})"


def reach_table_html() -> str:
    """Every pattern of touching spaces (up to turning and mirroring): Wind faces that reach the space, and its chance."""
    head = ["Your spaces touching it", "Directions into it (one example)", "Wind faces that reach it", "Chance"]
    rows = [([str(row.touching), _shape_words(row.example), f"{row.chance * 6} of 6",
              f"{fraction_text(row.chance)} ({percent_text(row.chance, 0)})"], False,
             f"{row.touching}:{','.join(str(d) for d in row.example)}") for row in reach_table()]
    return _table(head, rows)


def seeded_turn_starts(seed: int = 1) -> list:
    """The state at the start of every turn of one seeded game between two greedy bots."""
    bots = [GreedyBot(random.Random(seed)), GreedyBot(random.Random(seed + 1))]
    states = play(new_game(), bots, random.Random(seed), keep=True)
    return [s for s in states if s.phase is Phase.ROLL_SUN]


def reach_census_html(seed: int = 1) -> str:
    """How many of the mover's empty neighbours, over one seeded game's turn starts, had each reach chance."""
    starts = seeded_turn_starts(seed)
    counts = reach_census(starts, lambda s: s.turn_player)
    total = sum(counts.values())
    above = sum(n for chance, n in counts.items() if chance > Fraction(1, 2))
    items = "".join(f"<li>chance {fraction_text(chance)} ({chance * 6} Wind faces): {n}</li>"
                    for chance, n in counts.items())
    return (f"In one seeded game between two greedy bots (seed {seed}), at the start of each of its "
            f"{len(starts)} turns, the player to move had {plural(total, 'empty neighbour')} in all. "
            f"<b>{above}</b> of them ({percent_text(Fraction(above, total) if total else Fraction(0))}) "
            f"touched two or more of that player's spaces and could be reached with a chance above 1/2:"
            f"<ul>{items}</ul>")


# ---------------------------------------------------------------- widgets


class DistributionPanel(widgets.VBox):
    """A titled bar chart of one exact distribution with its mean, variance and chance of nothing below."""

    def __init__(self, stacks: list[int], title: str = "", colour: str = palette.BLUE,
                 independent: bool = False, width: int = DEFAULT_WIDTH, height: int = DEFAULT_HEIGHT,
                 max_value: int | None = None, max_probability: Fraction | None = None):
        self.colour, self.title, self.independent = colour, title, independent
        self.max_value, self.max_probability = max_value, max_probability
        self.stacks = list(stacks)
        self.dist = self._distribution(self.stacks)
        self.width, self.height = width, height
        self.view = SceneCanvas(width, height, self.scene)
        self.canvas = self.view.canvas
        self.summary = widgets.HTML(summary_html(self.stacks, self.dist))
        super().__init__([self.canvas, self.view.numbers, self.summary, stylesheet()],
                         layout=widgets.Layout(margin="0 24px 12px 0"))
        self.add_class("treegames-distribution-panel")

    def _distribution(self, stacks: list[int]) -> dict[int, Fraction]:
        """The real (one shared die) or counterfactual (independent dice) distribution for these stacks."""
        if self.independent:
            return independent_gain_distribution(stacks)
        return gain_distribution(stacks)

    def scene(self) -> Scene:
        """The bar chart for the current stacks."""
        return distribution_scene(self.dist, width=self.width, height=self.height, colour=self.colour,
                                  title=self.title, max_value=self.max_value,
                                  max_probability=self.max_probability)

    def set_stacks(self, stacks: list[int], title: str | None = None) -> None:
        """Show the distribution for other stacks (and optionally a new title)."""
        dist = self._distribution(stacks)  # raises before anything changes if a height is impossible
        self.stacks, self.dist = list(stacks), dist
        if title is not None:
            self.title = title
        self.summary.value = summary_html(self.stacks, self.dist)
        self.view.redraw()


class GainSimulator(widgets.VBox):
    """Roll the Sun die for some stack heights and watch the simulated histogram approach the exact bars."""

    def __init__(self, stacks: list[int], rng: random.Random, title: str = "", colour: str = palette.BLUE,
                 width: int = 560, height: int = DEFAULT_HEIGHT + 10):
        self.rng = rng
        self.title = title
        self.colour = colour
        self.stacks: list[int] = list(stacks)
        self.dist = gain_distribution(self.stacks)
        self.rolls: Counter[int] = Counter()
        self.last_sun: int | None = None
        self.heading = widgets.HTML()
        self.roll_once = widgets.Button(description="Roll once", button_style="primary")
        self.roll_hundred = widgets.Button(description="Roll 100 times", button_style="primary")
        self.reset_button = widgets.Button(description="Reset")
        for button in (self.roll_once, self.roll_hundred, self.reset_button):
            button.layout = widgets.Layout(width="auto")
        safety.on_click(self.roll_once, lambda: self.roll(1), report=self.report_failure)
        safety.on_click(self.roll_hundred, lambda: self.roll(100), report=self.report_failure)
        safety.on_click(self.reset_button, self.reset, report=self.report_failure)
        self.counter = widgets.HTML()
        self.progress = widgets.HTML("")
        self.width, self.height = width, height
        self.view = SceneCanvas(width, height, self.scene)
        self.canvas = self.view.canvas
        self.exact = widgets.HTML()
        self._refresh_text()
        buttons = widgets.HBox([self.roll_once, self.roll_hundred, self.reset_button, self.progress])
        super().__init__([self.heading, self.exact, buttons, self.counter, self.canvas, self.view.numbers,
                          stylesheet()])
        self.add_class("treegames-gain-simulator")

    def report_failure(self, text: str) -> None:
        """Show a friendly failure sentence (safety.guarded calls this)."""
        self.progress.value = f"<span style='color:{palette.VERMILLION}'>{html.escape(text)}</span>"

    @property
    def total(self) -> int:
        """How many Sun rolls have been simulated since the last reset."""
        return sum(self.rolls.values())

    def scene(self) -> Scene:
        """Exact bars with the simulated frequencies so far."""
        return distribution_scene(self.dist, dict(self.rolls), width=self.width, height=self.height,
                                  colour=self.colour, title=self.title)

    def roll_sun(self) -> int:
        """One roll of the Sun die with the injected random generator (the engine's sampler)."""
        return roll_sun(self.rng)

    def roll(self, times: int = 1) -> None:
        """Roll the Sun ``times`` times, count the trees gained each time, then redraw once."""
        start = time.monotonic()
        for i in range(times):
            self.last_sun = self.roll_sun()
            self.rolls[gain_on_sun(self.stacks, self.last_sun)] += 1
            if i % 25 == 24 and time.monotonic() - start > PROGRESS_AFTER:
                self.progress.value = f"<i>rolling… {i + 1} of {times}</i>"
        self.progress.value = ""
        self._refresh_text()
        self.view.redraw()

    def reset(self) -> None:
        """Forget every roll and redraw the exact bars alone."""
        self.rolls = Counter()
        self.last_sun = None
        self._refresh_text()
        self.view.redraw()

    def set_stacks(self, stacks: list[int]) -> None:
        """Start over with other stack heights (a new position)."""
        dist = gain_distribution(stacks)  # raises before anything changes if a height is impossible
        self.stacks, self.dist = list(stacks), dist
        self.reset()

    def _refresh_text(self) -> None:
        """The heading, the exact mean and variance, and the roll counter."""
        self.heading.value = f"<b>Stacks:</b> {stacks_text(self.stacks)}"
        self.exact.value = summary_html(self.stacks, self.dist)
        n = self.total
        if n == 0:
            self.counter.value = "Rolls so far: <b>0</b>. Press a button to roll the Sun die."
            return
        mean = Fraction(sum(k * c for k, c in self.rolls.items()), n)
        gained = gain_on_sun(self.stacks, self.last_sun) if self.last_sun is not None else 0
        self.counter.value = (
            f"Rolls so far: <b>{n}</b>. Last roll: Sun <b>{self.last_sun}</b>, "
            f"{plural(gained, 'tree')} gained. "
            f"Average of your rolls: <b>{float(mean):.3f}</b> (exact mean {decimal_text(expected_gain(self.stacks))})"
        )


class HeightExplorer(widgets.VBox):
    """A slider for the height of one space, showing its chance, expected trees and variance."""

    def __init__(self, value: int = 4, max_height: int = 9):
        self.slider = widgets.IntSlider(value=value, min=0, max=max_height, description="Trees on it:",
                                        style={"description_width": "initial"})
        safety.observe(self.slider, lambda _v: self._update())
        self.result = widgets.HTML()
        self._update()
        super().__init__([self.slider, self.result])
        self.add_class("treegames-height-explorer")

    def _update(self) -> None:
        """Recompute the numbers for the slider's height."""
        h = self.slider.value
        p = production_probability(h)
        self.result.value = (
            f"<div style='font-size:14px;line-height:1.6'>A space with <b>{h}</b> {'tree' if h == 1 else 'trees'} "
            f"produces on one Sun roll with chance <b>{fraction_text(p)}</b> ({percent_text(p)}).<br>"
            f"Expected trees per roll: <b>{exact_and_decimal(expected_gain([h]))}</b>; "
            f"variance: <b>{exact_and_decimal(variance_gain([h]))}</b></div>"
        )


class ForestExplorer(widgets.VBox):
    """A text box of stack heights ('4, 3, 2') with the exact distribution of trees gained, drawn and summed up."""

    def __init__(self, stacks: str = "4, 3, 2", colour: str = palette.BLUE):
        self.box = widgets.Text(value=stacks, description="Stack heights:", continuous_update=False,
                                style={"description_width": "initial"})
        safety.observe(self.box, lambda _v: self._update(), report=self.report_failure)
        self.message = widgets.HTML()
        self.table = widgets.HTML()
        self.panel = DistributionPanel([0], colour=colour)
        self._update()
        super().__init__([self.box, self.message,
                          widgets.HBox([self.panel, self.table], layout=widgets.Layout(flex_flow="row wrap"))])
        self.add_class("treegames-forest-explorer")

    def report_failure(self, text: str) -> None:
        """Show a friendly failure sentence (safety.guarded calls this)."""
        self.message.value = f"<span style='color:{palette.VERMILLION}'>{html.escape(text)}</span>"

    def _update(self) -> None:
        """Read the box; show the forest's odds or say what is wrong with the text."""
        try:
            stacks = parse_stacks(self.box.value)
        except ValueError as err:
            self.message.value = f"<span style='color:{palette.VERMILLION}'>{html.escape(str(err))}</span>"
            return
        self.message.value = ""
        self.panel.set_stacks(stacks, title=f"Stacks {stacks_text(stacks)}")
        self.table.value = production_table_html(highlight=stacks)


class WindExplorer(widgets.VBox):
    """Pick the directions of your empty neighbours; see the chance at least one is valid after the Wind roll."""

    def __init__(self, chosen: Iterable[Direction] = (Direction.NE,)):
        self.picker = widgets.SelectMultiple(options=[(str(d), d) for d in WIND_FACES], value=tuple(chosen),
                                             rows=6, description="Empty neighbours to the:",
                                             style={"description_width": "initial"})
        safety.observe(self.picker, lambda _v: self._update())
        self.result = widgets.HTML()
        self.table = widgets.HTML()
        self._update()
        super().__init__([widgets.HBox([self.picker, self.result]), self.table])
        self.add_class("treegames-wind-explorer")

    def _update(self) -> None:
        """Recompute the chance for the chosen directions."""
        chosen = list(self.picker.value)
        p = wind_valid_probability(chosen)
        hint = (f"<br><span style='color:{palette.MUTED_INK}'>(Hold Ctrl or Shift to pick several.)</span>")
        style = "font-size:14px;padding-left:16px;line-height:1.6"
        if not chosen:
            self.result.value = f"<div style='{style}'>Pick at least one direction to see its chance.{hint}</div>"
        elif len(chosen) == 1:
            self.result.value = (f"<div style='{style}'>Chance that <b>{chosen[0]}</b> is a valid Wind direction "
                                 f"this turn: <b>{fraction_text(p)}</b> ({percent_text(p)}){hint}</div>")
        else:
            names = ", ".join(str(d) for d in chosen)
            self.result.value = (f"<div style='{style}'>Chance that at least one of <b>{names}</b> is a valid "
                                 f"Wind direction this turn: <b>{fraction_text(p)}</b> ({percent_text(p)}){hint}</div>")
        self.table.value = wind_table_html(chosen[0] if len(chosen) == 1 else None)


