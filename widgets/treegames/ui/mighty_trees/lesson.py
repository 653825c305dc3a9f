"""Card-draw odds views: charts, a draw simulator beside the exact answer, tables, answers behind a button.

Every number comes from :mod:`treegames.mighty_trees.odds` (exact Fractions
computed from the cards actually left); the simulator draws with the engine's
own chance sampling (:func:`~treegames.mighty_trees.odds.engine_regroup_draws`)
or, for a player's point of view, from that player's unknown cards.
"""

from __future__ import annotations

import html
import random
from collections import Counter
from collections.abc import Callable, Mapping
from fractions import Fraction

import ipywidgets as widgets
import numpy as np

from ... import core
from ... import mighty_trees as mt
from ...mighty_trees import odds
from .. import palette
from ..canvas import SceneCanvas
from ..chart_numbers import ChartNumbers, Column, Kind, chart_numbers
from ..panels import Answer
from ..scene import Circles, Polygons, Scene, Segments, Texts, as_points, colours
from ..styles import stylesheet
from ..text import fraction_text, percent_text

__all__ = [
    "fraction_text",
    "percent_text",
    "exact_text",
    "hits_chart_scene",
    "curve_scene",
    "composition_html",
    "odds_table_html",
    "OddsPanel",
    "DrawSimulator",
    "band_text",
    "ratio_text",
    "Answer",
    "first_regroup",
    "short_pile_regroup",
]

EXACT = palette.BLUE
REPLACED = palette.ORANGE
SIMULATED = palette.VERMILLION
GRID = "#DDDDDD"


# ---------------------------------------------------------------- numbers as words


def exact_text(value: Fraction) -> str:
    """'3/7 ≈ 42.9%'."""
    return f"{fraction_text(value)} ≈ {percent_text(value)}"


def ratio_text(top: int, bottom: int) -> str:
    """'435/1891', or '10/20 = 1/2' when the ratio has a lower form."""
    value = Fraction(top, bottom)
    written = f"{top}/{bottom}"
    return written if written == fraction_text(value) else f"{written} = {fraction_text(value)}"


MAX_BAND_TRIALS = 5000
"""The most simulated Regroups the band is worked out for exactly (more would slow the page)."""


def band_text(chance: Fraction, trials: int) -> str:
    """'95% of runs of 200 Regroups land between 142 and 165 (71.0%-82.5%)', exact binomial quantiles."""
    band = odds.simulation_band(chance, trials)
    return (f"{percent_text(band.level, 0)} of all runs of {trials} simulated Regroups land between "
            f"<b>{band.low}</b> and <b>{band.high}</b> with at least one "
            f"({percent_text(Fraction(band.low, trials))}–{percent_text(Fraction(band.high, trials))}; "
            f"exactly {percent_text(band.coverage, 2)} of them)")


# ---------------------------------------------------------------- charts


def _frame(scene: Scene, left: float, right: float, top: float, bottom: float, y_label: str) -> None:
    """Probability grid lines at every tenth, labelled, with the axes."""
    ticks = [Fraction(k, 10) for k in range(0, 11, 2)]
    scene.add(Segments(as_points([[(left, bottom - float(t) * (bottom - top)), (right, bottom - float(t) *
                                                                                (bottom - top))]
                                  for t in ticks[1:]]), stroke=GRID))
    scene.add(Texts([(left - 6, bottom - float(t) * (bottom - top), f"{int(t * 100)}%") for t in ticks],
                    font="11px sans-serif", colour=palette.MUTED_INK, align="right"))
    scene.add(Segments(as_points([[(left, bottom), (right, bottom)], [(left, bottom), (left, top - 4)]]),
                       stroke=palette.INK, line_width=1.5))
    scene.add(Texts([(6, top - 12, y_label)], font="11px sans-serif", colour=palette.MUTED_INK, align="left"))


def _legend(scene: Scene, entries: list[tuple[str, str, bool]], y: float, x: float = 48.0) -> None:
    """Swatches (filled, or outlined for 'with replacement') with labels along one row."""
    boxes, fills, outlines, labels = [], [], [], []
    for label, colour, filled in entries:
        box = [(x, y - 6), (x + 12, y - 6), (x + 12, y + 6), (x, y + 6)]
        (boxes if filled else outlines).append(box)
        if filled:
            fills.append(colour)
        labels.append((x + 17, y, label))
        x += 30 + 6.2 * len(label)
    scene.add(Polygons(as_points(boxes), colours(fills), stroke=palette.INK))
    scene.add(Polygons(as_points(outlines), None, stroke=REPLACED, line_width=2.5))
    scene.add(Texts(labels, font="11px sans-serif", colour=palette.INK, align="left"))


def hits_chart_scene(exact: Mapping[int, Fraction], simulated: Mapping[int, int] | None = None,
                     replaced: Mapping[int, Fraction] | None = None, title: str = "",
                     what: str = "wanted cards drawn", width: int = 400, height: int = 260) -> Scene:
    """Bars per number of wanted cards drawn: exact (filled), with replacement (outlined), simulated (red).

    Bars are tagged ("exact", hits), ("replaced", hits), ("simulated", hits); heights are proportional.
    """
    scene = Scene(width, height, palette.BACKGROUND)
    if title:
        scene.add(Texts([(width / 2, 12, title)], font="bold 13px sans-serif", colour=palette.INK))
    total = sum((simulated or {}).values())
    freqs = {k: Fraction(n, total) for k, n in (simulated or {}).items()} if total else {}
    values = sorted(set(exact) | set(freqs) | set(replaced or {})) or [0]
    slots = list(range(0, max(values) + 1))
    left, right, top, bottom = 44.0, width - 10.0, 50.0, height - 58.0
    slot = (right - left) / len(slots)
    kinds = [("exact", exact, EXACT)] + ([("replaced", replaced, REPLACED)] if replaced else []) + (
        [("simulated", freqs, SIMULATED)] if freqs else [])
    bar = slot * 0.8 / len(kinds)
    _frame(scene, left, right, top, bottom, "chance")
    labels = []
    for i, (kind, dist, colour) in enumerate(kinds):
        rects, tags = [], []
        for v in slots:
            p = Fraction(dist.get(v, 0))
            x0 = left + v * slot + slot * 0.1 + i * bar
            y = bottom - float(p) * (bottom - top)
            rects.append([(x0, bottom), (x0 + bar, bottom), (x0 + bar, y), (x0, y)])
            tags.append((kind, v))
            if kind == "exact" and p:
                labels.append((x0 + bar / 2, y - 8, percent_text(p, 0)))
        if kind == "replaced":
            scene.add(Polygons(as_points(rects), None, stroke=REPLACED, line_width=2.5, tags=tuple(tags)))
        else:
            scene.add(Polygons(as_points(rects), colours([colour] * len(rects)), stroke=palette.INK,
                               tags=tuple(tags)))
    scene.add(Texts(labels, font="bold 10px sans-serif", colour=EXACT))
    scene.add(Texts([(left + (v + 0.5) * slot, bottom + 12, str(v)) for v in slots], font="12px sans-serif",
                    colour=palette.INK))
    scene.add(Texts([((left + right) / 2, bottom + 28, what)], font="11px sans-serif", colour=palette.MUTED_INK))
    entries = [("exact (without replacement)", EXACT, True)]
    if replaced:
        entries.append(("with replacement", REPLACED, False))
    if freqs:
        entries.append((f"simulated ({total})", SIMULATED, True))
    _legend(scene, entries, height - 12.0, x=10.0)
    scene.numbers = hits_numbers(exact, simulated, replaced, title, what)
    return scene


def hits_numbers(exact: Mapping[int, Fraction], simulated: Mapping[int, int] | None = None,
                 replaced: Mapping[int, Fraction] | None = None, title: str = "",
                 what: str = "wanted cards drawn") -> ChartNumbers:
    """The bars of :func:`hits_chart_scene` as a table: per number drawn, the exact chances and the draws."""
    total = sum((simulated or {}).values())
    columns = [Column("exact chance (without replacement)", Kind.CHANCE)]
    if replaced:
        columns.append(Column("with replacement", Kind.CHANCE))
    if total:
        columns += [Column("simulated Regroups", Kind.COUNT), Column("share simulated", Kind.SHARE)]
    values = sorted(set(exact) | set(replaced or {}) | {k for k, n in (simulated or {}).items() if n}) or [0]
    rows = []
    for v in range(0, max(values) + 1):
        cells: list = [Fraction(exact.get(v, 0))]
        if replaced:
            cells.append(Fraction(replaced.get(v, 0)))
        if total:
            cells += [simulated.get(v, 0), Fraction(simulated.get(v, 0), total)]
        rows.append((v, cells))
    return chart_numbers(title or f"Chance of each number of {what}", what, columns, rows)


def curve_numbers(series: list[tuple[str, str, list[Fraction]]], title: str = "",
                  mark: int | None = None) -> ChartNumbers:
    """The points of :func:`curve_scene` as a table: per number of cards drawn, each line's chance."""
    n = max(len(values) for _, _, values in series)
    rows = [(k, [values[k - 1] if k <= len(values) else None for _, _, values in series]) for k in range(1, n + 1)]
    note = f"The pile is reshuffled after {mark} cards." if mark is not None and 0 < mark < n else ""
    return chart_numbers(title or "Chance of at least one", "cards drawn (k)",
                         [Column(label, Kind.CHANCE) for label, _, _ in series], rows, note)


def curve_scene(series: list[tuple[str, str, list[Fraction]]], title: str = "", mark: int | None = None,
                width: int = 400, height: int = 250) -> Scene:
    """P(at least one) against the number of draws k = 1, 2, ...: one line per series; ``mark`` draws a divider.

    Points are tagged (series label, k).
    """
    scene = Scene(width, height, palette.BACKGROUND)
    if title:
        scene.add(Texts([(width / 2, 12, title)], font="bold 13px sans-serif", colour=palette.INK))
    n = max(len(values) for _, _, values in series)
    left, right, top, bottom = 44.0, width - 12.0, 50.0, height - 56.0

    def x_of(k: int) -> float:
        return left + (k - 0.5) * (right - left) / n

    def y_of(p: Fraction) -> float:
        return bottom - float(p) * (bottom - top)

    _frame(scene, left, right, top, bottom, "chance of at least one")
    if mark is not None and 0 < mark < n:
        xm = (x_of(mark) + x_of(mark + 1)) / 2
        scene.add(Segments(as_points([[(xm, y), (xm, y + 5)] for y in range(int(top), int(bottom), 9)]),
                           stroke=palette.REDDISH_PURPLE, line_width=2.0))
        scene.add(Texts([(xm + 4, top + 4, "reshuffle")], font="10px sans-serif", colour=palette.REDDISH_PURPLE,
                        align="left"))
    shapes = ["circle", "square"]
    for index, (label, colour, values) in enumerate(series):
        pts = [(x_of(k + 1), y_of(p)) for k, p in enumerate(values)]
        scene.add(Segments(as_points([[a, b] for a, b in zip(pts, pts[1:], strict=False)]), stroke=colour,
                           line_width=2.0))
        if shapes[index % 2] == "circle":
            scene.add(Circles(np.array(pts, dtype=np.float64), np.full(len(pts), 4.0),
                              colours([colour] * len(pts)), stroke=palette.INK))
        else:
            scene.add(Polygons(as_points([[(x - 4, y - 4), (x + 4, y - 4), (x + 4, y + 4), (x - 4, y + 4)]
                                          for x, y in pts]), colours([colour] * len(pts)), stroke=palette.INK,
                               tags=tuple((label, k + 1) for k in range(len(pts)))))
    scene.add(Texts([(x_of(k), bottom + 12, str(k)) for k in range(1, n + 1)], font="11px sans-serif",
                    colour=palette.INK))
    scene.add(Texts([((left + right) / 2, bottom + 27, "cards drawn (k)")], font="11px sans-serif",
                    colour=palette.MUTED_INK))
    x = 10.0
    items = []
    for label, colour, _ in series:
        items.append((x, label, colour))
        x += 30 + 6.2 * len(label)
    for x, label, colour in items:
        scene.add(Segments(as_points([[(x, height - 12.0), (x + 14, height - 12.0)]]), stroke=colour, line_width=3))
        scene.add(Texts([(x + 18, height - 12.0, label)], font="11px sans-serif", colour=palette.INK, align="left"))
    scene.numbers = curve_numbers(series, title, mark)
    return scene


# ---------------------------------------------------------------- tables


def _table(head: list[str], rows: list[list[str]], caption: str = "") -> str:
    """A small HTML table."""
    cell = "padding:3px 8px;border-bottom:1px solid #DDD;text-align:center"
    out = ['<table class="treegames-table" style="border-collapse:collapse;font-size:14px;margin:4px 0">']
    if caption:
        out.append(f'<caption style="caption-side:top;text-align:left;padding:2px 0 6px">{caption}</caption>')
    out.append("<tr>" + "".join(f'<th style="{cell};border-bottom:2px solid #555">{h}</th>' for h in head) + "</tr>")
    for row in rows:
        out.append("<tr>" + "".join(f'<td style="{cell}">{c}</td>' for c in row) + "</tr>")
    out.append("</table>")
    return "".join(out)


def composition_html(pool: odds.DrawPool, temperature: int, water: int, caption: str = "") -> str:
    """The unknown cards by kind, with trees split into those that fit the habitat now and the rest."""
    fits = odds.fits_habitat(temperature, water)
    kinds = odds.composition(pool.unknown)
    fitting = pool.count(fits)
    rows = [
        ["trees that fit now", str(fitting)],
        ["trees that do not fit now", str(kinds[mt.Kind.TREE] - fitting)],
        ["clouds", str(kinds[mt.Kind.CLOUD])],
        ["trends", str(kinds[mt.Kind.TREND])],
        ["disasters", str(kinds[mt.Kind.DISASTER])],
        ["<b>all unknown cards</b>", f"<b>{len(pool.unknown)}</b>"],
    ]
    return _table(["cards", "how many"], rows, caption)


def odds_table_html(lines: list[odds.OddsLine]) -> str:
    """The Odds tab: each question for a Regroup of 1, 2 and 3 cards, exact and (for comparison) with replacement."""
    if not lines:
        return "<i>No draws to think about right now.</i>"
    questions = list(dict.fromkeys(line.question for line in lines))
    sizes = sorted({line.draws for line in lines})
    head = ["question"] + [f"draw {k}" for k in sizes]
    rows = []
    for q in questions:
        row = [html.escape(q)]
        for k in sizes:
            line = next(li for li in lines if li.question == q and li.draws == k)
            row.append(f"<b>{percent_text(line.chance)}</b><br><small>{fraction_text(line.chance)}</small>")
        rows.append(row)
    first = lines[0]
    wanted = {q: next(li.wanted for li in lines if li.question == q) for q in questions}
    counts = "; ".join(f"{html.escape(q.split(' (')[0])}: {n}" for q, n in wanted.items())
    notes = sorted({li.note for li in lines if li.note})
    extra = "".join(f"<br><i>{html.escape(n)}</i>" for n in notes)
    return _table(head, rows) + (
        f"<div style='font-size:13px'>Counted among the <b>{first.unknown}</b> cards you cannot see "
        f"(the draw pile and the other Commands): {counts}.{extra}</div>"
    )


# ---------------------------------------------------------------- widgets


class OddsPanel(widgets.VBox):
    """The Odds tab of the play dashboard: the next Regroup's odds from one player's point of view."""

    def __init__(self):
        self.heading = widgets.HTML()
        self.body = widgets.HTML()
        super().__init__([self.heading, self.body])
        self.add_class("treegames-mt-odds")

    def show(self, state, viewer: int | None, hidden: bool = False) -> None:
        """Recompute for ``viewer`` (None or ``hidden``: nothing is shown, e.g. under the hand cover)."""
        if viewer is None or hidden or state.habitat_card is None or state.is_terminal():
            self.heading.value = "<b>Odds</b>: shown to the player at the screen during their turn."
            self.body.value = ""
            return
        need = odds.draws_at_regroup(state, viewer)
        self.heading.value = (
            f"<b>Odds for P{viewer + 1}'s next Regroup</b> (holding {core.plural(len(state.view_for(viewer).hand), 'card')} now, a Regroup would "
            f"draw {need}; each card played or discarded adds one draw)."
        )
        self.body.value = odds_table_html(odds.regroup_odds(state, viewer))


class DrawSimulator(widgets.VBox):
    """Simulated Regroups beside the exact distribution: the bars converge as the draws add up."""

    def __init__(self, state, wanted: Callable, what: str, rng: random.Random, draws: int | None = None,
                 player: int | None = None, title: str = ""):
        self.state, self.wanted, self.rng, self.player = state, wanted, rng, player
        self.pool = odds.pool_for(state, player)
        self.draws = odds.draws_at_regroup(state, state.mover) if draws is None else draws
        self.exact = odds.hits_distribution(self.pool, wanted, self.draws)
        self.replaced = odds.binomial_distribution(len(self.pool.unknown), self.pool.count(wanted), self.draws)
        self.counts: Counter = Counter()
        self.what, self.title = what, title
        self.view = SceneCanvas(400, 260, self.scene)
        self.canvas = self.view.canvas
        self.buttons = [widgets.Button(description=f"Draw {n}×", button_style="primary",
                                       layout=widgets.Layout(width="auto")) for n in (1, 100, 1000)]
        for button, n in zip(self.buttons, (1, 100, 1000), strict=True):
            button.on_click(lambda _b, n=n: self.run(n))
        self.reset_button = widgets.Button(description="Reset", layout=widgets.Layout(width="auto"))
        self.reset_button.on_click(lambda _b: self.reset())
        self.status = widgets.HTML()
        self._status()
        super().__init__([widgets.HBox([*self.buttons, self.reset_button], layout=widgets.Layout(
            flex_flow="row wrap")), self.status, self.canvas, self.view.numbers, stylesheet()])
        self.add_class("treegames-mt-simulator")

    def scene(self) -> Scene:
        """Exact bars, with-replacement outlines and the simulated frequencies so far."""
        return hits_chart_scene(self.exact, dict(self.counts), self.replaced, title=self.title, what=self.what)

    def uses_engine(self) -> bool:
        """True when each simulated Regroup is the engine's own (the table's view of a real Regroup)."""
        return (self.player is None and self.state.phase is mt.Phase.REGROUP
                and self.draws == odds.draws_at_regroup(self.state, self.state.mover))

    def sample_hits(self) -> int:
        """Wanted cards in one simulated Regroup: the engine's own draws, or draws from the player's unknown cards."""
        if self.uses_engine():
            return sum(1 for card in odds.engine_regroup_draws(self.state, self.rng) if self.wanted(card))
        return next(iter(odds.simulate_hits(self.pool, self.wanted, self.draws, self.rng, 1)))

    def run(self, times: int) -> None:
        """Simulate ``times`` Regroups and redraw once."""
        for _ in range(times):
            self.counts[self.sample_hits()] += 1
        self._status()
        self.view.redraw()

    def reset(self) -> None:
        """Forget the simulated draws."""
        self.counts = Counter()
        self._status()
        self.view.redraw()

    def _status(self) -> None:
        """How many Regroups so far, the simulated chance of at least one beside the exact one, and the 95% band."""
        n = sum(self.counts.values())
        exact = 1 - self.exact.get(0, Fraction(0))
        if not n:
            self.status.value = (f"Exact chance of at least one: <b>{exact_text(exact)}</b>. "
                                 "Press a button to simulate Regroups.")
            return
        got = n - self.counts.get(0, 0)
        text = (f"Simulated Regroups: <b>{n}</b>; at least one in <b>{got}</b> of them "
                f"(<b>{percent_text(Fraction(got, n))}</b>). Exact: <b>{exact_text(exact)}</b>.")
        if n <= MAX_BAND_TRIALS:
            inside = odds.simulation_band(exact, n).holds(got)
            text += (f"<br>{band_text(exact, n)}. This run is "
                     f"<b>{'inside' if inside else 'outside'}</b> that band"
                     + ("." if inside else ": it happens to about 1 run in 20."))
        self.status.value = text


# Lesson positions live with the odds in the engine (one copy for lessons and class experiments).
first_regroup = odds.first_regroup
short_pile_regroup = odds.short_pile_regroup
