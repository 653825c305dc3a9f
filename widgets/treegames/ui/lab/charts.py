"""Pictures of tournament results as pure Scenes: win/tie/loss bars with Wilson whiskers, a score-margin histogram.

The histogram shows either score margins (green ahead, red behind, blue level)
or plain scores (all blue).  Each function maps :class:`~treegames.lab.Results` (or numbers taken from it)
to a :class:`~treegames.ui.scene.Scene`; the widget sends it to a canvas.  The
bars carry tags ``(row label, "win" | "tie" | "loss")`` and the histogram bars
``("margin", low, high)``, for tests.  Colours are Okabe-Ito, and every bar is
also named in words (win / tie / loss, the value in percent), so no reader needs
to tell colours apart.
"""

from __future__ import annotations

import math
from collections import Counter

from ...lab import Results, Tally, stats
from .. import palette
from ..chart_numbers import ChartNumbers, Column, Kind, chart_numbers
from ..scene import Polygons, Scene, Segments, Texts, as_points, solid

__all__ = [
    "WIDTH",
    "OUTCOME_COLOURS",
    "shares_height",
    "shares_scene",
    "margin_bins",
    "margins_scene",
    "MARGINS_HEIGHT",
    "shares_numbers",
    "margins_numbers",
]

WIDTH = 400
"""Both charts are this many pixels wide (they fit a 420 px phone)."""

OUTCOME_COLOURS = {"win": palette.BLUISH_GREEN, "tie": palette.SKY_BLUE, "loss": palette.VERMILLION}
"""Colour of each outcome's bar."""

BAR = 11
"""Height of one bar in pixels."""
GAP = 3
LABEL_ROW = 18
ROW_GAP = 10
TOP = 46
BOTTOM = 30
LEFT = 44
RIGHT = WIDTH - 66
MARGINS_HEIGHT = 230
WHISKER_INK = palette.INK
GRID = "#DDDDDD"


def _row_height() -> int:
    """Pixels per result row: its label and three bars."""
    return LABEL_ROW + 3 * (BAR + GAP) + ROW_GAP


def shares_height(rows: int) -> int:
    """Canvas height for a shares chart of ``rows`` rows."""
    return TOP + rows * _row_height() + BOTTOM


def _x(share: float) -> float:
    """Canvas x of a share 0..1 on the bars' axis."""
    return LEFT + share * (RIGHT - LEFT)


def _dashed(x: float, y0: float, y1: float, dash: float = 4.0) -> list[list[tuple[float, float]]]:
    """Short vertical segments making a dashed line from y0 to y1."""
    out, y = [], y0
    while y < y1:
        out.append([(x, y), (x, min(y1, y + dash))])
        y += 2 * dash
    return out


def shares_scene(rows: list[tuple[str, Tally]], players: int, title: str = "") -> Scene:
    """Win, tie and loss shares of each row, with 95% Wilson whiskers and the fair-share line (1/players)."""
    height = shares_height(max(1, len(rows)))
    scene = Scene(WIDTH, height, palette.BACKGROUND)
    scene.add(Texts([(WIDTH / 2, 14, title or "Share of games won, tied and lost (95% intervals)")],
                    font="bold 13px sans-serif", colour=palette.INK))
    bottom = height - BOTTOM + 4
    # Grid at 0, 25, 50, 75, 100 % with labels underneath; the fair share dashed.
    grid = [[(_x(t / 4), TOP - 6), (_x(t / 4), bottom)] for t in range(5)]
    scene.add(Segments(as_points(grid), GRID, 1.0))
    scene.add(Texts([(_x(t / 4), bottom + 12, f"{25 * t}%") for t in range(5)], font="11px sans-serif",
                    colour=palette.MUTED_INK))
    fair = 1 / players
    scene.add(Segments(as_points(_dashed(_x(fair), TOP - 6, bottom)), palette.MUTED_INK, 1.0))
    scene.add(Texts([(_x(fair), TOP - 14, f"fair share {100 * fair:.0f}%")], font="10px sans-serif",
                    colour=palette.MUTED_INK))
    if not rows or not rows[0][1].games:
        scene.add(Texts([(WIDTH / 2, TOP + 40, "No games played yet.")], font="13px sans-serif",
                        colour=palette.MUTED_INK))
    bars: dict[str, list] = {k: [] for k in OUTCOME_COLOURS}
    tags: dict[str, list] = {k: [] for k in OUTCOME_COLOURS}
    whiskers, labels, names, values, notes = [], [], [], [], []
    for i, (group, tally) in enumerate(rows):
        y = TOP + i * _row_height()
        labels.append((LEFT - 40, y + LABEL_ROW / 2 + 1, f"{_row_name(group, tally)} · {tally.games} games"))
        if tally.every_seat:  # its share is fixed by the ties: nothing to draw
            notes.append((WIDTH / 2, y + LABEL_ROW + 1.5 * (BAR + GAP), "in every seat: no share to compare"))
            continue
        for j, (kind, s) in enumerate((("win", tally.win), ("tie", tally.tie), ("loss", tally.loss))):
            top = y + LABEL_ROW + j * (BAR + GAP)
            mid = top + BAR / 2
            names.append((LEFT - 4, mid, kind))
            if not tally.games:
                continue
            x1 = max(_x(s.value), _x(0) + 1)
            bars[kind].append([(_x(0), top), (x1, top), (x1, top + BAR), (_x(0), top + BAR)])
            tags[kind].append((tally.label, kind))
            lo, hi = _x(s.low), _x(s.high)
            whiskers += [[(lo, mid), (hi, mid)], [(lo, mid - 4), (lo, mid + 4)], [(hi, mid - 4), (hi, mid + 4)]]
            values.append((RIGHT + 6, mid, f"{100 * s.value:.1f}%"))
    for kind, colour in OUTCOME_COLOURS.items():
        scene.add(Polygons(as_points(bars[kind]), solid(colour, len(bars[kind])), tags=tuple(tags[kind])))
    scene.add(Segments(as_points(whiskers), WHISKER_INK, 1.5))
    scene.add(Texts(labels, font="bold 12px sans-serif", colour=palette.INK, align="left"))
    scene.add(Texts(names, font="11px sans-serif", colour=palette.INK, align="right"))
    scene.add(Texts(values, font="11px sans-serif", colour=palette.INK, align="left"))
    if notes:
        scene.add(Texts(notes, font="11px sans-serif", colour=palette.MUTED_INK))
    scene.numbers = shares_numbers(rows, players, title)
    return scene


def _row_name(group: str, tally: Tally) -> str:
    """A result row's name as the chart labels it ('first mover', 'bot greedy')."""
    return f"{tally.label}" if group == "first mover" else f"{group} {tally.label}"


def shares_numbers(rows: list[tuple[str, Tally]], players: int, title: str = "") -> ChartNumbers:
    """The bars of :func:`shares_scene` as a table: per row and outcome, the share and its 95% interval."""
    columns = [Column("games", Kind.COUNT), Column("share", Kind.SHARE), Column("95% low", Kind.SHARE),
               Column("95% high", Kind.SHARE)]
    table = []
    for group, tally in rows:
        for kind, s in (("win", tally.win), ("tie", tally.tie), ("loss", tally.loss)):
            shown = tally.games and not tally.every_seat
            table.append((f"{_row_name(group, tally)}: {kind}",
                          [tally.games, *((s.value, s.low, s.high) if shown else (None, None, None))]))
    return chart_numbers(title or "Share of games won, tied and lost (95% intervals)", "result row and outcome", columns,
                         table, f"The fair share is {100 / players:.0f}% (one in {players}).")


def margin_bins(margins: list[int], most: int = 21) -> list[tuple[int, int, int]]:
    """(low, high, count) bins of whole-number margins, at most ``most`` bins, one bin holding 0 alone."""
    if not margins:
        return []
    lo, hi = min(margins), max(margins)
    width = max(1, math.ceil((hi - lo + 1) / most))
    counts = Counter(margins)
    bins = []
    # Bins are [k*width + 1, (k+1)*width] for positive margins, mirrored for negative ones, and {0}.
    for k in range(math.ceil(-lo / width) if lo < 0 else 0, 0, -1):
        b_lo, b_hi = -k * width, -(k - 1) * width - 1
        bins.append((b_lo, b_hi, sum(counts[m] for m in range(b_lo, b_hi + 1))))
    bins.append((0, 0, counts[0]))
    for k in range(1, math.ceil(hi / width) + 1 if hi > 0 else 1):
        b_lo, b_hi = (k - 1) * width + 1, k * width
        bins.append((b_lo, b_hi, sum(counts[m] for m in range(b_lo, b_hi + 1))))
    return bins


def margins_scene(margins: list[int], whose: str, scores: bool = False) -> Scene:
    """A histogram of score margins (score minus the best other score) from one point of view, or of the scores."""
    scene = Scene(WIDTH, MARGINS_HEIGHT, palette.BACKGROUND)
    scene.numbers = margins_numbers(margins, whose, scores)
    scene.add(Texts([(WIDTH / 2, 14, f"{'Score' if scores else 'Score margin'} of {whose}")],
                    font="bold 13px sans-serif", colour=palette.INK))
    left, right, top, bottom = 40.0, WIDTH - 12.0, 40.0, MARGINS_HEIGHT - 46.0
    bins = margin_bins(margins)
    if not bins:
        scene.add(Texts([(WIDTH / 2, (top + bottom) / 2, "No games played yet.")], font="13px sans-serif",
                        colour=palette.MUTED_INK))
        return scene
    peak = max(c for _, _, c in bins)
    step = max(1, _nice_step(peak))
    y_top = step * math.ceil(peak / step)
    slot = (right - left) / len(bins)

    def y_of(count: float) -> float:
        return bottom - count / y_top * (bottom - top)

    ticks = list(range(0, y_top + 1, step))
    scene.add(Segments(as_points([[(left, y_of(t)), (right, y_of(t))] for t in ticks]), GRID, 1.0))
    scene.add(Texts([(left - 5, y_of(t), str(t)) for t in ticks], font="10px sans-serif",
                    colour=palette.MUTED_INK, align="right"))
    polys: dict[str, list] = {"ahead": [], "level": [], "behind": []}
    tags: dict[str, list] = {"ahead": [], "level": [], "behind": []}
    for i, (b_lo, b_hi, count) in enumerate(bins):
        kind = "ahead" if b_lo > 0 else "behind" if b_hi < 0 else "level"
        x0, x1 = left + i * slot + 1, left + (i + 1) * slot - 1
        polys[kind].append([(x0, y_of(count)), (x1, y_of(count)), (x1, bottom), (x0, bottom)])
        tags[kind].append(("margin", b_lo, b_hi))
    fills = {"ahead": palette.BLUISH_GREEN, "level": palette.SKY_BLUE, "behind": palette.VERMILLION}
    if scores:
        fills = dict.fromkeys(fills, palette.BLUE)
    for kind, colour in fills.items():
        scene.add(Polygons(as_points(polys[kind]), solid(colour, len(polys[kind])), tags=tuple(tags[kind])))
    scene.add(Segments(as_points([[(left, bottom), (right, bottom)]]), palette.INK, 1.0))
    every = max(1, math.ceil(len(bins) / 7))
    zero = next(i for i, b in enumerate(bins) if b[0] == 0)
    shown = sorted({i for i in range(len(bins)) if (i - zero) % every == 0})
    scene.add(Texts([(left + (i + 0.5) * slot, bottom + 11, _bin_text(bins[i])) for i in shown],
                    font="10px sans-serif", colour=palette.INK))
    if scores:
        mean, sd = stats.mean_and_sd(margins)
        footer = f"{len(margins)} games · mean {mean:.1f} · standard deviation {sd:.1f}"
    else:
        ahead = sum(c for lo, _, c in bins if lo > 0)
        behind = sum(c for _, hi, c in bins if hi < 0)
        level = len(margins) - ahead - behind
        footer = f"ahead (green, right) {ahead} · level {level} · behind (red, left) {behind}"
    scene.add(Texts([(WIDTH / 2, MARGINS_HEIGHT - 14, footer)], font="11px sans-serif", colour=palette.INK))
    return scene


def margins_numbers(margins: list[int], whose: str, scores: bool = False) -> ChartNumbers:
    """The bars of :func:`margins_scene` as a table: each bin of margins (or scores) and its number of games."""
    what = "score" if scores else "score margin"
    rows = [(_bin_text(b), [b[2]]) for b in margin_bins(margins)]
    return chart_numbers(f"{what.capitalize()} of {whose}", what, [Column("games", Kind.COUNT)], rows,
                         f"{len(margins)} games." if margins else "No games played yet.")


def _bin_text(b: tuple[int, int, int]) -> str:
    """'0', '+3' or '+1..+4' for a bin."""
    lo, hi, _ = b

    def signed(v: int) -> str:
        return f"+{v}" if v > 0 else str(v)

    return signed(lo) if lo == hi else f"{signed(lo)}..{signed(hi)}"


def _nice_step(peak: int) -> int:
    """A round tick step giving about four ticks up to ``peak``."""
    raw = max(1.0, peak / 4)
    base = 10 ** math.floor(math.log10(raw))
    return int(next(m * base for m in (1, 2, 5, 10) if m * base >= raw))


def results_rows(results: Results) -> list[tuple[str, Tally]]:
    """The rows both the chart and the table show."""
    return results.rows()
