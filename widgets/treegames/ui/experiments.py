"""Class experiments on the page: the teacher page, the projector view and the student "Join" box.

Every number comes from the authority's snapshot (:mod:`treegames.experiments`); the pictures are
pure functions snapshot -> :class:`~.scene.Scene` (:func:`projector_scene`, :func:`student_scene`),
drawn by the kit's canvas in one batched message.  The projector redraws by itself whenever the
class's version changes, and at least once a second (its clock line).  Colours are Okabe-Ito, and
every series also has its own pattern: the class's bars are hatched, the exact bars are outlined
with a dot on top, the distance line has round markers, the guide line is dashed.
"""

from __future__ import annotations

import base64
import contextlib
import html
import math
import os
import secrets
import threading
import time
from collections.abc import Callable
from urllib.parse import parse_qs, urlsplit

import ipywidgets as widgets

from .. import core
from ..experiments import TOURNAMENT, Field, domain_for, kinds, student_rng
from ..experiments import client as exp_client
from ..experiments.errors import ExperimentError
from . import palette
from .canvas import SceneCanvas
from .chart_numbers import ChartNumbers, Column, chart_numbers
from .chart_numbers import Kind as NumberKind
from .safety import guarded, running_loop
from .scene import Circles, Polygons, Scene, Segments, Texts, as_points, solid
from .text import wrap_words

__all__ = ["projector_scene", "student_scene", "qr_svg", "join_url", "student_page_for", "ProjectorView",
           "TeacherPage", "JoinBox", "Feed", "PROJECTOR_SIZE"]

PROJECTOR_SIZE = (1880, 1000)
CLASS = palette.BLUE  # the class's pooled bars: blue, hatched
EXACT = palette.VERMILLION  # the exact chances: vermillion outline with a dot on top
YOU = palette.BLUISH_GREEN  # a student's own bars: green, cross-hatched
GUIDE = palette.INK
GRID = "#D8D8D8"


# ---------------------------------------------------------------- pictures


def _wrap(text: str, size: float, width: float) -> list[str]:
    """Lines of at most ``width`` pixels at ``size`` px (average glyph 0.55 em)."""
    return wrap_words(text, width, size, glyph=0.55, least=10)


def _hatch(x0: float, y0: float, x1: float, y1: float, step: float, cross: bool = False) -> list:
    """Diagonal hatch segments clipped to the box (x0, y0)-(x1, y1), y0 < y1."""
    out = []
    w, h = x1 - x0, y1 - y0
    if w <= 0 or h <= 0:
        return out
    t = -h
    while t < w:
        # a line x = x0 + t + (y1 - y) going up-right, clipped
        a = (max(x0, x0 + t), y1 - max(0.0, -t))
        b_off = min(w, t + h)
        b = (x0 + b_off, y1 - (b_off - t))
        if b[0] > a[0]:
            out.append([a, b])
            if cross:
                out.append([(x0 + x1 - a[0], a[1]), (x0 + x1 - b[0], b[1])])
        t += step
    return out


def histogram_ops(scene: Scene, box: tuple, counts: list[int], exact: list[float], labels: list[str],
                  colour: str = CLASS, font: int = 24, top_share: float | None = None, cross: bool = False,
                  tag: str = "class") -> None:
    """Observed shares as hatched bars beside the exact chances as outlined bars, in ``box`` (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = box
    n = sum(counts)
    shares = [c / n if n else 0.0 for c in counts]
    top = top_share or max([*shares, *exact, 0.05]) * 1.15
    slot = (x1 - x0) / max(1, len(exact))
    bar = slot * 0.38
    scale = (y1 - y0) / top
    scene.add(Segments(as_points([[(x0, y1), (x1, y1)], [(x0, y0), (x0, y1)]]).reshape(-1, 2, 2),
                       palette.INK, 2.0 if font >= 20 else 1.0))
    if font >= 20:
        ticks = [t / 10 for t in range(1, 11) if t / 10 <= top]
        scene.add(Segments(as_points([[(x0, y1 - t * scale), (x1, y1 - t * scale)] for t in ticks]).reshape(-1, 2, 2),
                           GRID, 1.0))
        scene.add(Texts([(x0 - 10, y1 - t * scale, f"{t:.0%}") for t in ticks], font=f"{font - 6}px sans-serif",
                        colour=palette.MUTED_INK, align="right"))
    observed, outlines, hatch, dots = [], [], [], []
    for i, (share, p) in enumerate(zip(shares, exact, strict=True)):
        left = x0 + i * slot + slot * 0.1
        if share > 0:
            observed.append([(left, y1), (left + bar, y1), (left + bar, y1 - share * scale), (left, y1 - share * scale)])
            hatch += _hatch(left, y1 - share * scale, left + bar, y1, max(6.0, font * 0.45), cross)
        ex = left + bar + slot * 0.04
        outlines.append([(ex, y1), (ex + bar, y1), (ex + bar, y1 - p * scale), (ex, y1 - p * scale)])
        dots.append((ex + bar / 2, y1 - p * scale))
    if observed:
        scene.add(Polygons(as_points(observed), solid(colour, len(observed)), stroke=palette.INK,
                           line_width=1.5 if font >= 20 else 1.0, tags=tuple((tag, i) for i in range(len(observed)))))
    if hatch:
        scene.add(Segments(as_points(hatch).reshape(-1, 2, 2), "#FFFFFF", 2.0 if font >= 20 else 1.2))
    scene.add(Polygons(as_points(outlines), None, stroke=EXACT, line_width=4.0 if font >= 20 else 2.0,
                       tags=tuple(("exact", i) for i in range(len(outlines)))))
    r = 7.0 if font >= 20 else 3.0
    scene.add(Circles(as_points([[d] for d in dots]).reshape(-1, 2), _radii(r, len(dots)),
                      solid(EXACT, len(dots))))
    if font >= 14:
        scene.add(Texts([(x0 + (i + 0.5) * slot, y1 + font * 0.9, label) for i, label in enumerate(labels)],
                        font=f"{font}px sans-serif", colour=palette.INK))


def _radii(r: float, n: int):
    """An (n,) array of one radius."""
    import numpy as np

    return np.full(n, r)


def _log_x(n: float, n_max: float, x0: float, x1: float) -> float:
    """Screen x of n on a log axis from 1 to n_max."""
    return x0 + (x1 - x0) * math.log10(max(n, 1)) / math.log10(max(n_max, 10))


def _log_y(tv: float, y0: float, y1: float, low: float = 0.001) -> float:
    """Screen y of a distance on a log axis from ``low`` (bottom) to 1 (top)."""
    tv = min(1.0, max(tv, low))
    return y1 - (y1 - y0) * (math.log10(tv) - math.log10(low)) / -math.log10(low)


def trace_ops(scene: Scene, box: tuple, trace: list, font: int = 24) -> None:
    """Total variation against n on log axes, with the 1/sqrt(n) guide through the first point."""
    x0, y0, x1, y1 = box
    n_max = max(10.0, (trace[-1][0] if trace else 10) * 1.3)
    decades = range(0, int(math.log10(n_max)) + 1)
    grid = [[(_log_x(10**d, n_max, x0, x1), y0), (_log_x(10**d, n_max, x0, x1), y1)] for d in decades]
    grid += [[(x0, _log_y(10**-d, y0, y1)), (x1, _log_y(10**-d, y0, y1))] for d in range(0, 4)]
    scene.add(Segments(as_points(grid).reshape(-1, 2, 2), GRID, 1.0))
    scene.add(Segments(as_points([[(x0, y1), (x1, y1)], [(x0, y0), (x0, y1)]]).reshape(-1, 2, 2), palette.INK, 2.0))
    scene.add(Texts([(_log_x(10**d, n_max, x0, x1), y1 + font * 0.9, f"{10**d:,}") for d in decades],
                    font=f"{font - 4}px sans-serif", colour=palette.MUTED_INK))
    scene.add(Texts([(x0 - 10, _log_y(10**-d, y0, y1), f"{10**-d:g}") for d in range(0, 4)],
                    font=f"{font - 4}px sans-serif", colour=palette.MUTED_INK, align="right"))
    scene.add(Texts([((x0 + x1) / 2, y1 + font * 2.0, "n, results pooled (log scale)")],
                    font=f"{font - 2}px sans-serif", colour=palette.INK))
    if not trace:
        return
    n0, tv0 = trace[0]
    dashes = []
    steps = 60
    for i in range(0, steps, 2):  # dashed: every other piece of the guide
        a = 10 ** (math.log10(n0) + (math.log10(n_max) - math.log10(n0)) * i / steps)
        b = 10 ** (math.log10(n0) + (math.log10(n_max) - math.log10(n0)) * (i + 1) / steps)
        ya, yb = tv0 * math.sqrt(n0 / a), tv0 * math.sqrt(n0 / b)
        dashes.append([(_log_x(a, n_max, x0, x1), _log_y(ya, y0, y1)), (_log_x(b, n_max, x0, x1), _log_y(yb, y0, y1))])
    scene.add(Segments(as_points(dashes).reshape(-1, 2, 2), GUIDE, 2.5))
    pts = [(_log_x(n, n_max, x0, x1), _log_y(tv, y0, y1)) for n, tv in trace]
    if len(pts) > 1:
        scene.add(Segments(as_points([[a, b] for a, b in zip(pts, pts[1:], strict=False)]).reshape(-1, 2, 2),
                           CLASS, 4.0))
    marks = pts[:: max(1, len(pts) // 25)] + [pts[-1]]
    scene.add(Circles(as_points([[p] for p in marks]).reshape(-1, 2), _radii(6.0, len(marks)),
                      solid(CLASS, len(marks)), stroke="#FFFFFF", line_width=1.5))
    # the label sits in the plot's bottom right corner (distances below 0.01 need thousands of results), off both lines
    scene.add(Texts([(x1 - 8, y1 - font * 0.6, "1/√n guide (dashed)")], font=f"{font - 2}px sans-serif",
                    colour=GUIDE, align="right"))


def _legend(scene: Scene, x: float, y: float, font: int, items: list[tuple[str, str, str]]) -> None:
    """Legend swatches (hatched fill, outline with dot, line with markers) and their words."""
    texts = []
    for label, colour, kind in items:
        if kind == "hatched":
            scene.add(Polygons(as_points([[(x, y - 12), (x + 36, y - 12), (x + 36, y + 12), (x, y + 12)]]),
                               solid(colour, 1), stroke=palette.INK))
            scene.add(Segments(as_points(_hatch(x, y - 12, x + 36, y + 12, 9)).reshape(-1, 2, 2), "#FFFFFF", 2.0))
        elif kind == "outline":
            scene.add(Polygons(as_points([[(x, y - 12), (x + 36, y - 12), (x + 36, y + 12), (x, y + 12)]]), None,
                               stroke=colour, line_width=4.0))
            scene.add(Circles(as_points([[(x + 18, y - 12)]]).reshape(-1, 2), _radii(7.0, 1), solid(colour, 1)))
        else:
            scene.add(Segments(as_points([[(x, y), (x + 36, y)]]).reshape(-1, 2, 2), colour, 4.0))
        texts.append((x + 46, y, label))
        x += 46 + len(label) * font * 0.55 + 40
    scene.add(Texts(texts, font=f"{font}px sans-serif", colour=palette.INK, align="left"))


def projector_scene(snap: dict | None, width: int = PROJECTOR_SIZE[0], height: int = PROJECTOR_SIZE[1],
                    clock: str = "") -> Scene:
    """The projector: pooled against exact, n and students, distance against n, every student's small sample."""
    scene = Scene(width, height, palette.BACKGROUND)
    if not snap:
        scene.add(Texts([(width / 2, height / 2, "No class experiment open yet")], font="bold 48px sans-serif",
                        colour=palette.INK))
        return scene
    scene.add(Texts([(40, 36, snap["kind_label"])], font="bold 34px sans-serif", colour=palette.INK, align="left"))
    status = f"Class code {snap['code']} · round {snap['round_no']} · {snap['status']}"
    scene.add(Texts([(width - 40, 36, status)], font="bold 30px sans-serif", colour=palette.INK, align="right"))
    scene.add(Texts([(40, 80, _wrap(snap["title"], 26, width - 80)[0])], font="26px sans-serif", colour=palette.INK,
                    align="left"))
    if clock:
        scene.add(Texts([(width - 40, height - 20, clock)], font="18px sans-serif", colour=palette.MUTED_INK,
                        align="right"))
    scene.numbers = projector_numbers(snap)
    if snap["kind"] == TOURNAMENT:
        _tournament_ops(scene, snap, width, height)
        return scene
    n, students = snap["n"], snap["students"]
    what = kinds()[snap["kind"]].unit
    big = f"n = {n:,} {what} from {students} student{'s' if students != 1 else ''}"
    if snap.get("tv") is not None:
        big += f"   ·   distance to exact (total variation) = {snap['tv']:.3f}"
    scene.add(Texts([(40, 130, big)], font="bold 40px sans-serif", colour=palette.INK, align="left"))
    left = (110, 200, 960, 560)
    histogram_ops(scene, left, snap["counts"], snap["exact"], snap["labels"], font=26)
    _legend(scene, 110, 636, 24, [("the class so far", CLASS, "hatched"), ("exact chance", EXACT, "outline")])
    right = (1130, 200, width - 60, 560)
    scene.add(Texts([(1130, 180, "Distance to exact against n (log axes)")], font="bold 26px sans-serif",
                    colour=palette.INK, align="left"))
    trace_ops(scene, right, snap["trace"], font=24)
    lines = _wrap(snap["chi_square"]["sentence"], 24, width - 80)
    head_line = snap.get("headline")
    if head_line and head_line["of"]:
        lines.insert(0, f"{head_line['question'].capitalize()}: {head_line['observed']} of {head_line['of']} "
                        f"({head_line['observed'] / head_line['of']:.1%}); exact {head_line['exact_text']} "
                        f"= {head_line['exact']:.1%}")
    phys = snap.get("physical", {})
    if phys.get("n"):
        lines.append(f"Physical dice, kept apart: {phys['n']} rolls from {phys['students']} student(s): "
                     + ", ".join(f"{lab} {c}" for lab, c in zip(snap["labels"], phys["counts"], strict=True)))
    scene.add(Texts([(40, 686 + 30 * i, line) for i, line in enumerate(lines[:4])], font="24px sans-serif",
                    colour=palette.INK, align="left"))
    _multiples_ops(scene, snap, 40, 686 + 30 * min(4, len(lines)), width - 40, height - 30)
    return scene


def projector_numbers(snap: dict) -> ChartNumbers:
    """The projector's chart as a table: each outcome's class count, share and exact chance (or each bot's wins)."""
    if snap["kind"] == TOURNAMENT:
        columns = [Column("games", NumberKind.COUNT), Column("win share", NumberKind.SHARE),
                   Column("95% low", NumberKind.SHARE), Column("95% high", NumberKind.SHARE)]
        rows = [(bot["bot"], [bot["games"], *((bot["share"], bot["low"], bot["high"]) if bot["games"]
                                              else (None, None, None))]) for bot in snap["bots"]]
        return chart_numbers(f"{snap['kind_label']}: each bot's share of wins", "bot", columns, rows,
                             f"{snap['games_done']} of {snap['games_total']} games played.")
    n = snap["n"]
    rows = [(label, [count, count / n if n else None, exact])
            for label, count, exact in zip(snap["labels"], snap["counts"], snap["exact"], strict=True)]
    note = f"n = {n} from {snap['students']} student(s)."
    if snap.get("tv") is not None:
        note += f" Distance to exact (total variation): {snap['tv']:.3f}."
    return chart_numbers(f"{snap['kind_label']}: the class so far against the exact chances", "outcome",
                         [Column("class count", NumberKind.COUNT), Column("class share", NumberKind.SHARE),
                          Column("exact chance", NumberKind.CHANCE)], rows, note)


def student_numbers(snap: dict, my_counts: list[int]) -> ChartNumbers:
    """The student's chart as a table: per outcome, your count and share, the class's, and the exact chance."""
    mine, n = sum(my_counts), snap["n"]
    rows = [(label, [c, c / mine if mine else None, cc, cc / n if n else None, exact])
            for label, c, cc, exact in zip([str(k) for k in snap["outcomes"]], my_counts, snap["counts"],
                                           snap["exact"], strict=True)]
    return chart_numbers("Your results beside the class's and the exact chances", "outcome",
                         [Column("your count", NumberKind.COUNT), Column("your share", NumberKind.SHARE),
                          Column("class count", NumberKind.COUNT), Column("class share", NumberKind.SHARE),
                          Column("exact chance", NumberKind.CHANCE)], rows)


def _multiples_ops(scene: Scene, snap: dict, x0: float, y0: float, x1: float, y1: float) -> None:
    """Every student's own small-sample histogram, under their pseudonym."""
    members = [m for m in snap["members"] if m["n"]]
    if not members or y1 - y0 < 60:
        return
    cell_w = 150.0
    per_row = max(1, int((x1 - x0) // cell_w))
    rows = max(1, min(-(-len(members) // per_row), int((y1 - y0) // 64)))
    cell_h = min(150.0, (y1 - y0) / rows)
    room = per_row * rows
    shown = members[:room if len(members) <= room else room - 1]
    top = max(max(snap["exact"]), *(max(m["counts"]) / m["n"] for m in shown)) * 1.1
    names = []
    for i, m in enumerate(shown):
        cx, cy = x0 + (i % per_row) * cell_w, y0 + (i // per_row) * cell_h
        histogram_ops(scene, (cx + 8, cy + 26, cx + cell_w - 12, cy + cell_h - 6), m["counts"], snap["exact"],
                      [], font=10, top_share=top, tag=f"student:{m['pseudonym']}")
        names.append((cx + cell_w / 2 - 2, cy + 14, f"{m['pseudonym']} ({m['n']})"))
    scene.add(Texts(names, font="bold 15px sans-serif", colour=palette.INK))
    if len(members) > len(shown):
        i = len(shown)
        cx, cy = x0 + (i % per_row) * cell_w, y0 + (i // per_row) * cell_h
        scene.add(Texts([(cx + cell_w / 2, cy + cell_h / 2, f"+{len(members) - len(shown)} more")],
                        font="bold 22px sans-serif", colour=palette.MUTED_INK))


def _tournament_ops(scene: Scene, snap: dict, width: int, height: int) -> None:
    """Games pooled, each bot's win share with its 95% Wilson interval, and the games each student played."""
    done, total = snap["games_done"], snap["games_total"]
    scene.add(Texts([(40, 130, f"{done:,} of {total:,} games played by {snap['students']} students")],
                    font="bold 40px sans-serif", colour=palette.INK, align="left"))
    x0, x1 = 620.0, width - 120.0
    bar_y = 175.0
    scene.add(Polygons(as_points([[(x0, bar_y), (x1, bar_y), (x1, bar_y + 30), (x0, bar_y + 30)]]), None,
                       stroke=palette.INK, line_width=2.0))
    if done:
        xd = x0 + (x1 - x0) * done / total
        scene.add(Polygons(as_points([[(x0, bar_y), (xd, bar_y), (xd, bar_y + 30), (x0, bar_y + 30)]]),
                           solid(CLASS, 1), tags=(("progress", done),)))
        scene.add(Segments(as_points(_hatch(x0, bar_y, xd, bar_y + 30, 12)).reshape(-1, 2, 2), "#FFFFFF", 2.0))
    scene.add(Texts([(40, bar_y + 15, "games played")], font="24px sans-serif", colour=palette.INK, align="left"))
    top, row = 280.0, 110.0
    scene.add(Texts([(x0 + (x1 - x0) * t, top - 30, f"{t:.0%}") for t in (0, 0.25, 0.5, 0.75, 1)],
                    font="22px sans-serif", colour=palette.MUTED_INK))
    grid = [[(x0 + (x1 - x0) * t, top - 10), (x0 + (x1 - x0) * t, top + row * len(snap["bots"]))]
            for t in (0, 0.25, 0.75, 1)]
    scene.add(Segments(as_points(grid).reshape(-1, 2, 2), GRID, 1.0))
    half = [[(x0 + (x1 - x0) * 0.5, top - 10 + 12 * i), (x0 + (x1 - x0) * 0.5, top - 4 + 12 * i)]
            for i in range(int(row * len(snap["bots"]) / 12) + 1)]
    scene.add(Segments(as_points(half).reshape(-1, 2, 2), GUIDE, 2.0))
    labels, marks, whiskers = [], [], []
    for i, bot in enumerate(snap["bots"]):
        y = top + row * i + row / 2
        labels.append((40, y, f"{bot['bot']}: wins {bot['text']}"))
        if bot["games"]:
            xl, xh, xv = (x0 + (x1 - x0) * v for v in (bot["low"], bot["high"], bot["share"]))
            whiskers += [[(xl, y), (xh, y)], [(xl, y - 18), (xl, y + 18)], [(xh, y - 18), (xh, y + 18)]]
            marks.append((xv, y))
    scene.add(Texts(labels, font="bold 26px sans-serif", colour=palette.INK, align="left"))
    if whiskers:
        scene.add(Segments(as_points(whiskers).reshape(-1, 2, 2), CLASS, 5.0))
        scene.add(Circles(as_points([[m] for m in marks]).reshape(-1, 2), _radii(11.0, len(marks)),
                          solid(EXACT, len(marks)), stroke=palette.INK, line_width=2.0))
    note = ("Each bar is a 95% Wilson interval for the bot's share of wins; the dot is the share so far. "
            "The interval narrows about as 1/√n as the class plays more games. The dashed line is 50%.")
    y = top + row * len(snap["bots"]) + 30
    scene.add(Texts([(40, y + 32 * i, line) for i, line in enumerate(_wrap(note, 24, width - 80))],
                    font="24px sans-serif", colour=palette.INK, align="left"))
    members = snap["members"]
    if members:
        most = max(m["games"] for m in members)
        cells, texts = [], []
        y0 = y + 110
        for i, m in enumerate(members[:40]):
            cx, cy = 40 + (i % 10) * 182, y0 + (i // 10) * 60
            w = 160 * m["games"] / most
            cells.append([(cx, cy + 24), (cx + w, cy + 24), (cx + w, cy + 44), (cx, cy + 44)])
            texts.append((cx, cy + 10, f"{m['pseudonym']}: {m['games']}"))
        scene.add(Polygons(as_points(cells), solid(YOU, len(cells)), stroke=palette.INK))
        scene.add(Texts(texts, font="bold 16px sans-serif", colour=palette.INK, align="left"))


def student_scene(snap: dict | None, mine: dict | None, width: int = 400, height: int = 250) -> Scene:
    """A student's own tally beside the class's, both against the exact chances (fits a 420 px phone)."""
    scene = Scene(width, height, palette.BACKGROUND)
    if not snap or snap["kind"] == TOURNAMENT:
        games = len(mine["games"]) if mine else 0
        text = ([f"You played {games} games", f"the class {snap['games_done']} of {snap['games_total']}"]
                if snap else ["Join to see the class's tally"])
        scene.add(Texts([(width / 2, 90 + 34 * i, t) for i, t in enumerate(text)], font="bold 20px sans-serif",
                        colour=palette.INK))
        return scene
    half = width / 2
    my_counts = mine["counts"] if mine else [0] * len(snap["exact"])
    top = max([*snap["exact"], *(c / max(1, sum(my_counts)) for c in my_counts),
               *(c / max(1, snap["n"]) for c in snap["counts"])]) * 1.15
    histogram_ops(scene, (14, 40, half - 10, height - 40), my_counts, snap["exact"],
                  [str(k) for k in snap["outcomes"]], colour=YOU, font=14, top_share=top, cross=True, tag="you")
    histogram_ops(scene, (half + 10, 40, width - 8, height - 40), snap["counts"], snap["exact"],
                  [str(k) for k in snap["outcomes"]], font=14, top_share=top, tag="class")
    scene.add(Texts([(half / 2, 16, f"You: n = {sum(my_counts)}"), (half * 1.5, 16, f"Class: n = {snap['n']:,}")],
                    font="bold 15px sans-serif", colour=palette.INK))
    scene.add(Texts([(width / 2, height - 10, "hatched: results · outlined with a dot: exact chance")],
                    font="12px sans-serif", colour=palette.MUTED_INK))
    scene.numbers = student_numbers(snap, my_counts)
    return scene


# ---------------------------------------------------------------- links and QR codes


def qr_svg(url: str, scale: int = 8) -> str:
    """The QR code of ``url`` as an inline SVG element (segno; no network)."""
    import segno

    svg = segno.make(url, error="m").svg_inline(scale=scale, dark=palette.INK, light="#FFFFFF")
    return svg


def when_request_known(fn: Callable[[], object]) -> None:
    """Call ``fn`` once this page's request (query string, URL) is in the environment, on the kernel's own loop.

    A preheated Voila kernel (``make serve``) runs the notebook before any visitor asks for it; Voila hands
    it the request later (``voila.utils.wait_for_request``).  Waiting happens on a thread, so the page draws
    at once; ``fn`` itself is handed back to the loop the cell ran in (the kernel's), so it runs between the
    page's own widget messages (a Join click, a typed code), never beside them.  On a busy server the request
    arrived seconds after the page was up.  Elsewhere (no preheat, JupyterLab, tests) ``fn`` runs now.
    """
    if os.environ.get("VOILA_PREHEAT", "False") != "True":
        fn()
        return
    loop = running_loop()

    def wait_then_call():
        try:
            from voila.utils import wait_for_request

            wait_for_request()
        except Exception:  # noqa: BLE001 - without the request we still show the box; joining by code works
            return
        if loop is None:
            guarded(fn)()
            return
        with contextlib.suppress(RuntimeError):  # the kernel is shutting down: nobody is left to join
            loop.call_soon_threadsafe(guarded(fn))

    threading.Thread(target=wait_then_call, daemon=True, name="experiment-request").start()


def server_base() -> str:
    """The address students use: ``TREEGAMES_PUBLIC_URL`` if the server sets it, else the page's own, else local."""
    public = os.environ.get("TREEGAMES_PUBLIC_URL", "").rstrip("/")
    if public:
        return public
    full = os.environ.get("VOILA_REQUEST_URL", "")
    if full:
        parts = urlsplit(full)
        return f"{parts.scheme}://{parts.netloc}"
    return "http://127.0.0.1:8866"


def student_page_for(kind: str) -> str:
    """The notebook a student opens for this experiment."""
    return kinds()[kind].page


def join_url(code: str, kind: str, base: str | None = None) -> str:
    """The link (and QR code) that opens the right page and joins the class experiment."""
    return f"{base or server_base()}/voila/render/{student_page_for(kind)}?experiment={code}"


def query_value(name: str) -> str | None:
    """A value from this page's query string (Voila hands it to the kernel), or None."""
    values = parse_qs(os.environ.get("QUERY_STRING", "")).get(name)
    return values[0][:100] if values else None


def summary_html(snap: dict | None) -> str:
    """The same numbers as text, for screen readers (aria-live) and tests."""
    if not snap:
        return "<div class='treegames-exp-summary' aria-live='polite'>No class experiment yet.</div>"
    if snap["kind"] == TOURNAMENT:
        bots = "; ".join(f"{html.escape(b['bot'])} wins {html.escape(b['text'])}" for b in snap["bots"])
        body = (f"<span class='exp-games'>{snap['games_done']}</span> of {snap['games_total']} games, "
                f"<span class='exp-students'>{snap['students']}</span> students. {bots}")
    else:
        counts = ", ".join(f"{html.escape(lab)}: <span class='exp-count' data-outcome='{k}'>{c}</span>"
                           for k, lab, c in zip(snap["outcomes"], snap["labels"], snap["counts"], strict=True))
        body = (f"n = <span class='exp-n'>{snap['n']}</span> from <span class='exp-students'>{snap['students']}"
                f"</span> students ({counts}).")
    return (f"<div class='treegames-exp-summary' aria-live='polite' style='font-size:18px'>"
            f"Round {snap['round_no']} ({html.escape(snap['status'])}): {body} "
            f"<span class='exp-version' style='display:none'>{snap['version']}</span></div>")


# ---------------------------------------------------------------- live feed


STUDENT_FEED_INTERVAL = 1.0
"""A student's page shows the class at most once a second (a busy class changes often), and at once after its
own batch is acknowledged (:meth:`Feed.nudge`)."""


class Feed:
    """A background long-poll on one class: ``on_snapshot`` on changes (at most every ``min_interval`` s unless nudged), ``on_tick`` each period."""

    def __init__(self, client, code: str, on_snapshot: Callable[[dict], object],
                 on_tick: Callable[[], object] | None = None, period: float = 1.0, min_interval: float = 0.25):
        self.client, self.code = client, code
        self.on_snapshot, self.on_tick, self.period = on_snapshot, on_tick, period
        self.min_interval = min_interval  # at most one snapshot per this many seconds (a busy class changes often)
        self.version = -1
        self.stopped = threading.Event()
        self.nudged = threading.Event()  # cuts the rest after a snapshot short: a change this page caused
        self.error = ""
        self.thread = threading.Thread(target=self._run, daemon=True, name=f"experiment-feed-{code}")
        self.thread.start()

    def _run(self) -> None:
        """Until stopped: wait up to ``period`` for a change; show it; tick."""
        while not self.stopped.is_set():
            try:
                snap = self.client.wait(code=self.code, version=self.version, timeout=self.period)
                self.error = ""
                if snap["version"] != self.version:
                    self.version = snap["version"]
                    guarded(self.on_snapshot)(snap)
                    self.nudged.wait(self.min_interval)
                    self.nudged.clear()
            except ValueError as err:  # a refusal, or the store or server is down: try again next period
                self.error = str(err)
                self.stopped.wait(self.period)
            if self.on_tick is not None:
                guarded(self.on_tick)()

    def nudge(self) -> None:
        """Look for the next snapshot now, not after the rest (this page has just changed the class)."""
        self.nudged.set()

    def stop(self) -> None:
        """Stop polling and wait for the thread to end (within one period)."""
        self.stopped.set()
        self.nudged.set()
        if threading.current_thread() is not self.thread:
            self.thread.join(self.period + 5.0)


# ---------------------------------------------------------------- widgets


def _client_or_none():
    """The class server's client, or None (Binder, JupyterLab without a server)."""
    return exp_client.connect() if exp_client.available() else None


def _message(text: str, error: bool = False) -> str:
    """A one-line message (errors in vermillion with a warning sign, not colour alone)."""
    if not text:
        return ""
    colour = palette.ERROR_INK if error else palette.INK
    sign = "⚠ " if error else ""
    return f"<div role='status' style='font-size:16px;color:{colour}'>{sign}{html.escape(text)}</div>"


class ProjectorView(widgets.VBox):
    """The projector: a 1880 x 1000 scene and the same numbers as text, redrawn on every change and each second."""

    def __init__(self):
        self.snapshot: dict | None = None
        self.updates = 0
        self.view = SceneCanvas(*PROJECTOR_SIZE, self.scene)
        self.summary = widgets.HTML(summary_html(None))
        super().__init__([self.summary, self.view.canvas, self.view.numbers])
        self.add_class("treegames-exp-projector")

    def scene(self) -> Scene:
        """The current picture."""
        return projector_scene(self.snapshot, clock=time.strftime("updated %H:%M:%S"))

    def show(self, snap: dict) -> None:
        """Show a new snapshot."""
        self.snapshot = snap
        self.updates += 1
        self.summary.value = summary_html(snap)
        self.view.redraw()

    def tick(self) -> None:
        """Redraw the clock line (at least one frame a second)."""
        self.view.redraw()


def field_widget(field: Field) -> widgets.Widget:
    """The form box for one experiment setting: a number box, or a text box of numbers for a list."""
    if field.many:
        return widgets.Text(value=", ".join(map(str, field.default)), description=field.label,
                            layout=widgets.Layout(width="240px"))
    return widgets.BoundedIntText(value=field.default, min=field.low, max=field.high, description=field.label,
                                  layout=widgets.Layout(width="200px"), style={"description_width": "initial"})


def field_value(field: Field, box: widgets.Widget) -> int | list[int]:
    """A setting as the form holds it (the authority checks its range); ExperimentError for a list that is not numbers."""
    if not field.many:
        return box.value
    parts = [p.strip() for p in box.value.replace(";", ",").split(",") if p.strip()]
    try:
        return [int(p) for p in parts]
    except ValueError:
        example = ", ".join(map(str, field.default))
        raise ExperimentError(f"{field.name} are whole numbers separated by commas, such as {example}") from None


class TeacherPage(widgets.VBox):
    """The teacher page: unlock with the teacher code, choose and open an experiment, run its rounds, export."""

    def __init__(self, client=None):
        self.client = client if client is not None else _client_or_none()
        self.code: str | None = None
        self.feed: Feed | None = None
        self.teacher = widgets.Password(description="Teacher code:", layout=widgets.Layout(width="340px"),
                                        style={"description_width": "initial"})
        choices = kinds()
        self.kind = widgets.Dropdown(options=[(k.name, name) for name, k in choices.items()], value=next(iter(choices)),
                                     description="Experiment:", style={"description_width": "initial"})
        self.fields = {name: {f.name: field_widget(f) for f in k.fields} for name, k in choices.items()}
        """Each game experiment's settings: kind -> field name -> its box (the tournament's are below)."""
        self.seed = widgets.BoundedIntText(value=1, min=0, max=10**6, description="Seed:",
                                           layout=widgets.Layout(width="180px"))
        names = core.game_names()
        self.game = widgets.Dropdown(options=[(core.games()[n].title, n) for n in names], value=names[0],
                                     description="Game:", layout=widgets.Layout(width="220px"))
        self.bots = widgets.Text(value="greedy, random", description="Bots:", layout=widgets.Layout(width="260px"))
        self.games = widgets.BoundedIntText(value=200, min=1, max=10000, description="Games:",
                                            layout=widgets.Layout(width="180px"))
        self.block = widgets.BoundedIntText(value=10, min=1, max=200, description="Per block:",
                                            layout=widgets.Layout(width="200px"))
        self.settings_box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.open_button = widgets.Button(description="Open a round", button_style="primary")
        self.freeze_button = widgets.Button(description="Freeze")
        self.reopen_button = widgets.Button(description="Open again")
        self.reset_button = widgets.Button(description="Reset round")
        self.new_round_button = widgets.Button(description="New round")
        self.delete_button = widgets.Button(description="Delete round data", button_style="danger")
        self.export_button = widgets.Button(description="Export CSV")
        for button, fn in [(self.open_button, self.open_round), (self.freeze_button, self.freeze),
                           (self.reopen_button, self.reopen), (self.reset_button, self.reset),
                           (self.new_round_button, self.new_round), (self.delete_button, self.delete_round),
                           (self.export_button, self.export)]:
            button.on_click(guarded(lambda _b, fn=fn: self._act(fn)))
        self.kind.observe(guarded(lambda _c: self._show_settings()), names="value")
        self.message = widgets.HTML()
        self.join_panel = widgets.HTML()
        self.download = widgets.HTML()
        self.students = widgets.VBox()
        self.projector = ProjectorView()
        self._show_settings()
        controls = widgets.HBox([self.freeze_button, self.reopen_button, self.reset_button, self.new_round_button,
                                 self.delete_button, self.export_button], layout=widgets.Layout(flex_flow="row wrap"))
        if self.client is None:
            intro = widgets.HTML(_message("This page needs the class server (make serve): here no class "
                                          "experiment can be shared.", error=True))
        else:
            intro = widgets.HTML(_message("Type the teacher code that make serve printed, choose an experiment, "
                                          "then open a round."))
        super().__init__([intro, self.teacher, widgets.HBox([self.kind, self.open_button],
                                                            layout=widgets.Layout(flex_flow="row wrap")),
                          self.settings_box, self.message, self.join_panel, controls, self.download,
                          self.students, self.projector])
        self.add_class("treegames-exp-teacher")

    def _show_settings(self) -> None:
        """The settings of the chosen experiment only."""
        if self.kind.value == TOURNAMENT:
            self.settings_box.children = [self.game, self.bots, self.games, self.seed, self.block]
        else:
            self.settings_box.children = list(self.fields[self.kind.value].values())

    def settings(self) -> dict:
        """The chosen experiment's settings from the form (validated by the authority)."""
        if self.kind.value != TOURNAMENT:
            domain = kinds()[self.kind.value]
            return {f.name: field_value(f, self.fields[self.kind.value][f.name]) for f in domain.fields}
        bots = [b.strip() for b in self.bots.value.split(",") if b.strip()]
        return {"game": self.game.value, "bots": bots, "games": self.games.value, "seed": self.seed.value,
                "block": self.block.value}

    def _act(self, fn: Callable[[], str]) -> None:
        """Run one teacher action; show its result or its refusal in words."""
        if self.client is None:
            self.message.value = _message("No class server here.", error=True)
            return
        if fn != self.delete_round:
            self._armed = None
        try:
            self.message.value = _message(fn())
        except ValueError as err:  # every refusal (ExperimentError) and the store's StoreUnavailable
            self.message.value = _message(str(err), error=True)

    def open_round(self) -> str:
        """Open a new class experiment with the chosen settings and put it on the projector."""
        domain_for(self.kind.value, self.settings())  # a bad setting is refused here, in words
        opened = self.client.open_experiment(teacher_code=self.teacher.value, kind=self.kind.value,
                                             settings=self.settings())
        self.follow(opened["code"])
        return f"Round {opened['round_no']} is open. Class code {opened['code']}."

    def follow(self, code: str) -> None:
        """Show this class's code, link and QR code, and follow it live on the projector."""
        self.code = code
        snap = self.client.snapshot(code=code)
        url = join_url(code, snap["kind"])
        self.join_panel.value = (
            "<div style='display:flex;flex-wrap:wrap;gap:24px;align-items:center'>"
            f"<div>{qr_svg(url)}</div><div style='font-size:28px;line-height:1.5'>Class code "
            f"<b class='exp-code' style='font-size:56px;letter-spacing:6px'>{html.escape(code)}</b><br>"
            f"<span style='font-size:20px'>or open <a href='{html.escape(url)}'>{html.escape(url)}</a></span>"
            "</div></div>")
        if self.feed is not None:
            self.feed.stop()
        self.feed = Feed(self.client, code, self._show, self.projector.tick)

    def _show(self, snap: dict) -> None:
        """A new snapshot: the projector; the student list (with show/exclude toggles) every few seconds."""
        self.projector.show(snap)
        if time.monotonic() - getattr(self, "_listed_at", 0.0) < 3.0 and len(snap.get("members", ())) == \
                getattr(self, "_listed_count", -1):
            return
        self._listed_at, self._listed_count = time.monotonic(), len(snap.get("members", ()))
        try:
            full = self.client.teacher_view(teacher_code=self.teacher.value, code=self.code)
        except ValueError:
            return
        self._rows = getattr(self, "_rows", {})
        self._syncing = True
        try:
            for m in full["members"]:
                if m["pseudonym"] not in self._rows:
                    self._rows[m["pseudonym"]] = self._student_row(m["pseudonym"])
                label, toggle = self._rows[m["pseudonym"]].children
                n = m.get("n", m.get("games", 0))
                label.value = (f"<span style='font-size:16px'>{html.escape(m['pseudonym'])}: {n} "
                               f"({html.escape(', '.join(m.get('sources', [])))})</span>")
                toggle.value = m["shown"]
                toggle.description = "shown" if m["shown"] else "excluded"
        finally:
            self._syncing = False
        self.students.children = [self._rows[m["pseudonym"]] for m in full["members"]]

    def _student_row(self, pseudonym: str) -> widgets.HBox:
        """One student's line: their counts and client types, and a show/exclude toggle."""
        toggle = widgets.ToggleButton(value=True, description="shown", tooltip=f"Show or exclude {pseudonym}'s results")

        def changed(change):
            if not self._syncing:
                self._act(lambda: self._set_shown(pseudonym, change["new"]))

        toggle.observe(guarded(changed), names="value")
        return widgets.HBox([widgets.HTML(), toggle])

    def _set_shown(self, pseudonym: str, shown: bool) -> str:
        """Show or exclude one pseudonym."""
        self.client.set_shown(teacher_code=self.teacher.value, code=self.code, pseudonym=pseudonym, shown=shown)
        return f"{pseudonym}'s results are {'shown' if shown else 'excluded'}."

    def _need_code(self) -> str:
        """The class being run, or a refusal."""
        if not self.code:
            raise ExperimentError("open a round first")
        return self.code

    def freeze(self) -> str:
        """Freeze the round."""
        self.client.freeze(teacher_code=self.teacher.value, code=self._need_code())
        return "The round is frozen: it takes no more results."

    def reopen(self) -> str:
        """Open the frozen round again."""
        self.client.reopen(teacher_code=self.teacher.value, code=self._need_code())
        return "The round is open again."

    def reset(self) -> str:
        """Empty the round."""
        self.client.reset(teacher_code=self.teacher.value, code=self._need_code())
        return "The round's results were deleted; it is open again."

    def new_round(self) -> str:
        """Close this round, open the next with the form's settings."""
        out = self.client.new_round(teacher_code=self.teacher.value, code=self._need_code(), kind=self.kind.value,
                                    settings=self.settings())
        return f"Round {out['round_no']} is open (same class code, students keep their pseudonyms)."

    def delete_round(self) -> str:
        """Delete the current round's data (on a second click: the first one asks)."""
        snap = self.client.snapshot(code=self._need_code())
        if getattr(self, "_armed", None) != (self.code, snap["round_no"]):
            self._armed = (self.code, snap["round_no"])
            return f"Click Delete round data again to delete round {snap['round_no']}'s data for good."
        self._armed = None
        self.client.delete_round(teacher_code=self.teacher.value, code=self.code, round_no=snap["round_no"])
        return f"Round {snap['round_no']}'s data was deleted."

    def export(self) -> str:
        """A CSV download link of the round (pseudonyms only)."""
        text = self.client.export_csv(teacher_code=self.teacher.value, code=self._need_code())
        data = base64.b64encode(text.encode("utf-8")).decode("ascii")
        self.csv_text = text
        self.download.value = (f"<a download='class-{html.escape(self.code)}.csv' "
                               f"href='data:text/csv;base64,{data}' style='font-size:18px'>Download the CSV "
                               f"({text.count(chr(10)) - 2} rows, pseudonyms only)</a>")
        return "The CSV is ready: use the link below."


class JoinBox(widgets.VBox):
    """'Join the class experiment': by code or link; your tally beside the class's; rolls from your own generator."""

    def __init__(self, client=None, code: str | None = None, token: str | None = None):
        self.client = client if client is not None else _client_or_none()
        self.token = token
        self.link_code = code
        self.me: dict | None = None
        self.snap: dict | None = None
        self.rng = None
        self.feed: Feed | None = None
        self.code_field = widgets.Text(value=code or "", placeholder="class code",
                                       description="Class code:", layout=widgets.Layout(width="230px"),
                                       style={"description_width": "initial"})
        self.join_button = widgets.Button(description="Join", button_style="primary")
        self.join_button.on_click(guarded(lambda _b: self._act(self.join)))
        self.roll_buttons = [widgets.Button(description=f"Roll {n}" if n > 1 else "Roll once",
                                            layout=widgets.Layout(width="auto")) for n in (1, 10, 100)]
        for button, n in zip(self.roll_buttons, (1, 10, 100), strict=True):
            button.on_click(guarded(lambda _b, n=n: self._act(lambda: self.roll(n))))
        self.play_button = widgets.Button(description="Play my block of games", layout=widgets.Layout(width="auto"))
        self.play_button.on_click(guarded(lambda _b: self._act(self.play_block)))
        self.die = widgets.Dropdown(options=[], layout=widgets.Layout(width="190px"))
        self.faces = widgets.Text(placeholder="faces, e.g. 3 5 2", layout=widgets.Layout(width="170px"))
        self.enter_button = widgets.Button(description="Enter real dice", layout=widgets.Layout(width="auto"))
        self.enter_button.on_click(guarded(lambda _b: self._act(self.enter_physical)))
        self.physical_row = widgets.HBox([self.die, self.faces, self.enter_button],
                                         layout=widgets.Layout(flex_flow="row wrap"))
        self.actions = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.message = widgets.HTML()
        self.status = widgets.HTML()
        self.view = SceneCanvas(400, 250, lambda: student_scene(self.snap, self.me))
        children = [widgets.HTML("<h3 style='margin:4px 0'>Join the class experiment</h3>")]
        if self.client is None:
            children.append(widgets.HTML(_message("There is no class server here (on Binder each session is alone): "
                                                  "ask your teacher for the class link.")))
        else:
            children += [widgets.HBox([self.code_field, self.join_button], layout=widgets.Layout(flex_flow="row wrap")),
                         self.actions, self.message, self.status, self.view.canvas, self.view.numbers]
        super().__init__(children, layout=widgets.Layout(max_width="420px"))
        self.add_class("treegames-exp-join")
        if self.client is not None:
            when_request_known(self._from_link)

    def _from_link(self) -> None:
        """Join at once when the page was opened by a class link (``?experiment=CODE``, and ``&me=`` to come back).

        Only the link's code (or the one this box was made with) joins here: a code the student is typing
        is theirs to send with Join, and a student who has joined already stays as they are.
        """
        code = self.link_code or query_value("experiment")
        if self.me is not None or not code:
            return
        self.token = self.token or query_value("me")
        self.code_field.value = code
        self._act(self.join)

    def _act(self, fn: Callable[[], str]) -> None:
        """Run one action; its words or its refusal."""
        try:
            self.message.value = _message(fn())
        except ValueError as err:  # every refusal (ExperimentError) and the store's StoreUnavailable
            self.message.value = _message(str(err), error=True)

    def join(self) -> str:
        """Join (or rejoin with this page's token) and follow the class."""
        me = self.client.join(code=self.code_field.value, token=self.token)
        self.token = me["token"]
        self.rng = student_rng(me["pseudonym"])
        self.me = self.client.me(token=self.token)
        self._show_actions()
        if self.feed is not None:
            self.feed.stop()
        self.feed = Feed(self.client, me["code"], self._show, min_interval=STUDENT_FEED_INTERVAL)
        self._status()
        back = "Welcome back" if me["rejoined"] else "You joined"
        return f"{back}: you are {me['pseudonym']} in class {me['code']}."

    def _show_actions(self) -> None:
        """The buttons of the current round's experiment."""
        kind = self.me["kind"]
        dice = kinds()[kind].physical_dice
        if dice and [v for _label, v in self.die.options] != [v for v, _label in dice]:
            self.die.options = [(label, value) for value, label in dice]
            self.die.value = dice[0][0]
        self.actions.children = ([self.play_button] if kind == TOURNAMENT else
                                 [*self.roll_buttons] + ([self.physical_row] if dice else []))

    def _show(self, snap: dict) -> None:
        """A new class snapshot (and the student's own tally again when the round changed or was reset)."""
        if self.me is not None and (snap["round_no"] != self.me["round_no"] or snap["status"] != self.me["status"]
                                    or snap.get("n", 1) < self.me.get("n", 0)):
            self.me = self.client.me(token=self.token)
            self._show_actions()
        self.snap = snap
        self._status()
        self.view.redraw()

    def _status(self) -> None:
        """Your tally and the class's, in words (the picture shows the same)."""
        if self.me is None:
            return
        mine = (f"{len(self.me['games'])} games" if self.me["kind"] == TOURNAMENT
                else f"<span class='exp-mine'>{self.me['n']}</span> results")
        link = f"?experiment={self.me['code']}&me={self.token}"
        cls = ""
        if self.snap is not None and "n" in self.snap:
            cls = f" The class: <span class='exp-class-n'>{self.snap['n']}</span>."
        self.status.value = (f"<div style='font-size:15px;line-height:1.5'>You are <b>{html.escape(self.me['pseudonym'])}"
                             f"</b>, round {self.me['round_no']} ({html.escape(self.me['status'])}). You have sent "
                             f"{mine}.{cls} <a href='{html.escape(link)}'>Your link to come back as "
                             f"{html.escape(self.me['pseudonym'])}</a> (keep it to yourself).</div>")

    def _domain(self):
        """The current round's domain."""
        return domain_for(self.me["kind"], self.me["settings"])

    def roll(self, n: int) -> str:
        """Roll ``n`` times with your own generator, send one batch, count it when acknowledged."""
        if self.me is None:
            raise ExperimentError("join the class experiment first")
        counts = dict(self._domain().simulate(self.rng, n))
        ack = self.client.contribute(token=self.token, batch_id=secrets.token_hex(8), counts=counts,
                                     round_no=self.me["round_no"])
        self._count(counts, ack)
        return f"Sent {ack['accepted']} result(s)."

    def _count(self, counts: dict, ack: dict, physical: bool = False) -> None:
        """Add an acknowledged batch to your own tally."""
        domain = self._domain()
        key = "physical" if physical else "counts"
        for k, c in counts.items():
            self.me[key][domain.outcomes.index(int(k))] += c
        if not physical:
            self.me["n"] += ack["accepted"]
        self._sent()

    def _sent(self) -> None:
        """After an acknowledged batch: your tally again, and the class's at once (not after the feed's rest)."""
        self._status()
        self.view.redraw()
        if self.feed is not None:
            self.feed.nudge()

    def enter_physical(self) -> str:
        """Send faces of real dice rolled in class (checked against the die; kept apart from simulated rolls)."""
        if self.me is None:
            raise ExperimentError("join the class experiment first")
        try:
            faces = [int(f) for f in self.faces.value.replace(",", " ").split()]
        except ValueError:
            raise ExperimentError("type the faces as whole numbers separated by spaces, such as 3 5 2") from None
        counts = self._domain().from_physical(self.die.value, faces)
        ack = self.client.contribute_physical(token=self.token, batch_id=secrets.token_hex(8), die=self.die.value,
                                              faces=faces, round_no=self.me["round_no"])
        self._count(counts, ack, physical=True)
        self.faces.value = ""
        return f"Entered {ack['accepted']} real roll(s); they are kept apart from simulated rolls."

    def play_block(self) -> str:
        """Ask for a block of seeds, play its games with treegames.lab, send them."""
        if self.me is None:
            raise ExperimentError("join the class experiment first")
        block = self.client.claim_block(token=self.token)
        if block is None:
            return "Every block of seeds is taken or played: the tournament is complete."
        records = self._domain().play_block(block["block"])
        ack = self.client.contribute_games(token=self.token, batch_id=f"block-{block['block']}",
                                           block=block["block"], records=records, round_no=self.me["round_no"])
        self.me = self.client.me(token=self.token)
        self._sent()
        return f"Played games {block['start']} to {block['stop'] - 1}: {ack['accepted']} new games counted."
