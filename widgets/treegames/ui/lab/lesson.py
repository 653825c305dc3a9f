"""Pieces of the lab's lessons: the shrinking interval ladder, the binomial test explorer, the tables,
the peeking demonstration and the rule-change comparison.

Pictures are pure Scenes (:func:`ladder_scene`, :func:`binomial_scene`); the
widgets run tournaments through :mod:`treegames.lab` and only show its numbers.
"""

from __future__ import annotations

import html
import math
import threading
import time
from dataclasses import dataclass
from fractions import Fraction

import ipywidgets as widgets

from ... import lab
from ...lab import Results, RunState, Tally, TournamentRun, TournamentSpec, stats
from .. import palette, safety, styles
from ..canvas import SceneCanvas
from ..chart_numbers import ChartNumbers, Column, Kind, chart_numbers
from ..jobs import restart_progress
from ..panels import Answer
from ..scene import Circles, Polygons, Scene, Segments, Texts, as_points, solid
from .table import CELL, HEAD, first_mover_text, p_is, p_text

__all__ = [
    "Answer",
    "LadderRow",
    "ladder_scene",
    "IntervalLadder",
    "binomial_scene",
    "BinomialExplorer",
    "tests_table_html",
    "ties_table_html",
    "first_mover_html",
    "few_games_sentence",
    "half_win_reason",
    "peeking_html",
    "RuleComparison",
    "rule_scene",
    "note",
]

WIDTH = 400
LADDER_ROW = 44


def note(text_html: str) -> widgets.HTML:
    """A paragraph of computed text in the lesson's body size."""
    return widgets.HTML(f"<div style='font-size:14px;line-height:1.6'>{text_html}</div>")


# ------------------------------------------------------------------ the interval ladder


@dataclass(frozen=True)
class LadderRow:
    """One rung: the first mover's wins among the decisive games of a tournament of ``games`` games."""

    games: int
    wins: int
    decisive: int

    @property
    def share(self) -> stats.Share:
        """Wins among decisive games with the Wilson interval."""
        return stats.share(self.wins, self.decisive)


def row_of(results: Results) -> LadderRow:
    """The first mover's rung of a tournament."""
    first = results.first_mover
    return LadderRow(results.games, first.wins, first.wins + first.losses)


def ladder_scene(rows: list[LadderRow], fair: float = 0.5, lo: float = 0.0, hi: float = 1.0) -> Scene:
    """Each tournament's first-mover share with its 95% interval, stacked so the narrowing shows."""
    height = 40 + LADDER_ROW * max(1, len(rows)) + 28
    scene = Scene(WIDTH, height, palette.BACKGROUND)
    left, right = 20.0, WIDTH - 20.0

    def x_of(v: float) -> float:
        return left + (v - lo) / (hi - lo) * (right - left)

    scene.add(Texts([(WIDTH / 2, 14, "First mover's share of decisive games, 95% interval")],
                    font="bold 13px sans-serif", colour=palette.INK))
    bottom = height - 26
    ticks = [lo + (hi - lo) * t / 4 for t in range(5)]
    scene.add(Segments(as_points([[(x_of(t), 30), (x_of(t), bottom)] for t in ticks]), "#DDDDDD", 1.0))
    scene.add(Texts([(x_of(t), bottom + 12, f"{100 * t:.0f}%") for t in ticks], font="11px sans-serif",
                    colour=palette.MUTED_INK))
    dashes = [[(x_of(fair), y), (x_of(fair), min(bottom, y + 4))] for y in range(30, int(bottom), 8)]
    scene.add(Segments(as_points(dashes), palette.MUTED_INK, 1.0))
    whiskers, dots, labels, tags = [], [], [], []
    for i, row in enumerate(rows):
        y = 52 + i * LADDER_ROW
        s = row.share
        labels.append((left, y - 12, f"{row.games} games: {s.text()} of {row.decisive} decisive"))
        if not row.decisive:
            continue
        a, b = x_of(s.low), x_of(s.high)
        whiskers += [[(a, y), (b, y)], [(a, y - 6), (a, y + 6)], [(b, y - 6), (b, y + 6)]]
        dots.append((x_of(s.value), y))
        tags.append(("interval", row.games))
    scene.add(Segments(as_points(whiskers), palette.BLUE, 2.5))
    if dots:
        import numpy as np

        scene.add(Circles(np.asarray(dots, dtype=float), np.full(len(dots), 5.0), solid(palette.ORANGE, len(dots)),
                          stroke=palette.INK))
    scene.add(Texts(labels, font="12px sans-serif", colour=palette.INK, align="left"))
    scene.numbers = intervals_numbers("First mover's share of decisive games, 95% interval", "tournament",
                                      [(f"{row.games} games", row.share) for row in rows], fair)
    return scene


def intervals_numbers(caption: str, row_heading: str, rows: list[tuple[str, stats.Share]],
                      fair: float) -> ChartNumbers:
    """Interval charts (the ladder, the rule comparison) as a table: wins, games, share and its 95% interval."""
    columns = [Column("first mover won", Kind.COUNT), Column("decided games", Kind.COUNT),
               Column("share", Kind.SHARE), Column("95% low", Kind.SHARE), Column("95% high", Kind.SHARE)]
    table = [(label, [s.k, s.n, *((s.value, s.low, s.high) if s.n else (None, None, None))]) for label, s in rows]
    return chart_numbers(caption, row_heading, columns, table, f"The dashed line is the fair share, {100 * fair:.0f}%.")


class IntervalLadder(widgets.VBox):
    """Tournaments of growing size between two identical bots; each adds a rung to the interval ladder."""

    def __init__(self, game: str, bots: tuple[str, ...] = ("random", "random"), seed: int = 2024,
                 now: tuple[int, ...] = (10, 100), later: tuple[int, ...] = (1000,), options: dict | None = None,
                 workers: int | None = None):
        self.base = dict(game=game, bots=tuple(bots), seed=seed, options=dict(options or {}))
        self.workers = workers
        self.rows: list[LadderRow] = []
        self.results: dict[int, Results] = {}
        self.run: TournamentRun | None = None
        self.fair = 1 / len(bots)
        self.canvas = SceneCanvas(WIDTH, 40 + LADDER_ROW * (len(now) + len(later)) + 28, self._scene)
        self.canvas.canvas.add_class("treegames-lab-ladder")
        self.buttons = [styles.icon_button(f"Play {n} games", "play", f"Play {n} more games in the background",
                                           layout=widgets.Layout(width="170px")) for n in later]
        for button, n in zip(self.buttons, later, strict=False):
            safety.on_click(button, lambda n=n: self.play(n), report=self.report_failure)
        self.progress = widgets.IntProgress(value=0, min=0, max=1, layout=widgets.Layout(width="200px"))
        self.progress.add_class("treegames-lab-progress")
        self.status = widgets.HTML()
        self.table = widgets.HTML()
        super().__init__([styles.stylesheet(), self.canvas.canvas, self.canvas.numbers,
                          widgets.HBox([*self.buttons, self.progress],
                                                             layout=widgets.Layout(flex_flow="row wrap")),
                          self.status, self.table])
        for n in now:
            self.play(n, wait=True)

    def report_failure(self, text: str) -> None:
        """The kit's friendly sentence when a callback fails."""
        self.status.value = f"<span style='color:{palette.VERMILLION}'>{html.escape(text)}</span>"

    def spec(self, games: int) -> TournamentSpec:
        """The tournament of ``games`` games (each size has its own seed, so they are separate samples).

        Fixed seats: with the same bot in every seat, every game then has seeds of its own, so the games
        are independent draws (rotated pairs would share the first-player draw and the dice).
        """
        b = self.base
        return TournamentSpec(b["game"], b["bots"], games, b["seed"] + games, False, b["options"])

    def play(self, games: int, wait: bool = False) -> TournamentRun:
        """Play a tournament of ``games`` games in the background and add its rung when it ends."""
        if self.run is not None and self.run.is_running:
            return self.run
        for button in self.buttons:
            button.disabled = True
        restart_progress(self.progress, games)
        started = time.monotonic()

        def progress(done: int, total: int) -> None:
            self.progress.value = done
            run = self.run
            if run is not None and run.state is not RunState.RUNNING:
                self._finished(games, run, time.monotonic() - started)

        self.run = TournamentRun(self.spec(games), workers=self.workers, progress=progress)
        self.run.start()
        if wait:
            self.run.wait()
        return self.run

    def _finished(self, games: int, run: TournamentRun, seconds: float) -> None:
        """Add the rung (if complete) and free the buttons."""
        if run.state is RunState.FINISHED:
            results = run.results()
            self.results[games] = results
            self.rows = [r for r in self.rows if r.games != games] + [row_of(results)]
            self.rows.sort(key=lambda r: r.games)
            self.canvas.redraw()
            self.table.value = tests_table_html(
                [(f"{r.games} games: {r.wins} wins of {r.decisive} decisive", r.wins, r.decisive) for r in self.rows],
                Fraction(1, len(self.base["bots"])))
            self.status.value = f"<span>{games} games played in {seconds:.1f} s.</span>"
        else:
            self.status.value = f"<span>The {games} games were {run.state.value}.</span>"
        for button in self.buttons:
            button.disabled = False

    def _scene(self) -> Scene:
        """The ladder of the rungs so far."""
        return ladder_scene(self.rows, self.fair)


# ------------------------------------------------------------------ the binomial test explorer


def binomial_scene(n: int, k: int, p: Fraction = Fraction(1, 2)) -> Scene:
    """The exact chances of 0..n wins if there were no advantage; the bars as unlikely as k or less in red."""
    height = 250
    scene = Scene(WIDTH, height, palette.BACKGROUND)
    left, right, top, bottom = 36.0, WIDTH - 10.0, 40.0, height - 44.0
    probs = [stats.binomial_pmf(i, n, p) for i in range(n + 1)]
    observed = probs[k]
    peak = float(max(probs))
    slot = (right - left) / (n + 1)
    tail, body, tags_t, tags_b = [], [], [], []
    for i, q in enumerate(probs):
        y = bottom - float(q) / peak * (bottom - top)
        box = [(left + i * slot + 0.5, y), (left + (i + 1) * slot - 0.5, y), (left + (i + 1) * slot - 0.5, bottom),
               (left + i * slot + 0.5, bottom)]
        (tail if q <= observed else body).append(box)
        (tags_t if q <= observed else tags_b).append(("count", i))
    scene.add(Texts([(WIDTH / 2, 14, f"If there were no advantage: chances of 0–{n} wins in {n}")],
                    font="bold 13px sans-serif", colour=palette.INK))
    scene.add(Polygons(as_points(body), solid(palette.SKY_BLUE, len(body)), tags=tuple(tags_b)))
    scene.add(Polygons(as_points(tail), solid(palette.VERMILLION, len(tail)), tags=tuple(tags_t)))
    xk = left + (k + 0.5) * slot
    scene.add(Segments(as_points([[(left, bottom), (right, bottom)], [(xk, top - 8), (xk, bottom + 4)]]),
                       palette.INK, 1.5))
    every = max(1, math.ceil((n + 1) / 8))
    scene.add(Texts([(left + (i + 0.5) * slot, bottom + 12, str(i)) for i in range(0, n + 1, every)],
                    font="10px sans-serif", colour=palette.MUTED_INK))
    scene.add(Texts([(xk, top - 16, f"observed {k}")], font="11px sans-serif", colour=palette.INK))
    scene.add(Texts([(WIDTH / 2, height - 14,
                      f"red: as unlikely as {k} or less, total {p_text(stats.binomial_test(k, n, p))} = exact p")],
                    font="11px sans-serif", colour=palette.INK))
    scene.numbers = chart_numbers(
        f"If there were no advantage: chances of 0–{n} wins in {n}", "wins",
        [Column("exact chance", Kind.CHANCE), Column(f"as unlikely as {k} or less", Kind.TEXT)],
        [(i, [q, "yes" if q <= observed else "no"]) for i, q in enumerate(probs)],
        f"Observed {k} wins; the exact p is the total of the 'yes' rows, {p_text(stats.binomial_test(k, n, p))}.")
    return scene


class BinomialExplorer(widgets.VBox):
    """Sliders for games and wins; the exact distribution, the exact p-value and the normal approximation."""

    def __init__(self, games: int = 20, wins: int = 14, most: int = 200):
        self.n = widgets.IntSlider(value=games, min=1, max=most, description="Games",
                                   layout=widgets.Layout(width="380px"))
        self.k = widgets.IntSlider(value=min(wins, games), min=0, max=games, description="Wins",
                                   layout=widgets.Layout(width="380px"))
        self.canvas = SceneCanvas(WIDTH, 250, self._scene)
        self.canvas.canvas.add_class("treegames-lab-binomial")
        self.table = widgets.HTML()
        safety.observe(self.n, self._on_n)
        safety.observe(self.k, lambda _v: self._update())
        super().__init__([self.n, self.k, self.canvas.canvas, self.canvas.numbers, self.table])
        self._update()

    def _on_n(self, _value) -> None:
        """Keep the wins slider within the games."""
        self.k.max = self.n.value
        self._update()

    def _scene(self) -> Scene:
        """The distribution for the sliders."""
        return binomial_scene(self.n.value, min(self.k.value, self.n.value))

    def _update(self) -> None:
        """Redraw and recompute the three p-values."""
        self.canvas.redraw()
        self.table.value = tests_table_html([(f"{self.k.value} of {self.n.value}", self.k.value, self.n.value)])


# ------------------------------------------------------------------ tables


def tests_table_html(rows: list[tuple[str, int, int]], fair: Fraction = Fraction(1, 2)) -> str:
    """Per (label, wins, games): the share with its interval, the exact p and the two normal approximations."""
    head = ["result", "share (95% interval)", "exact p", "normal p", "normal p, corrected"]
    name = html.escape("Tests of " + ", ".join(label for label, _, _ in rows), quote=True)  # unique per table
    parts = [f"<div tabindex='0' role='region' aria-label='{name}' style='overflow-x:auto'>"
             "<table style='border-collapse:collapse;font-size:13px'><tr>"
             + "".join(f"<th style='{HEAD}'>{h}</th>" for h in head) + "</tr>"]
    for label, k, n in rows:
        cells = [html.escape(label), stats.share(k, n).text(), p_text(stats.binomial_test(k, n, fair)),
                 p_text(stats.normal_test(k, n, float(fair))[1]),
                 p_text(stats.normal_test(k, n, float(fair), continuity=True)[1])]
        parts.append("<tr>" + "".join(f"<td style='{CELL}'>{c}</td>" for c in cells) + "</tr>")
    return "".join(parts) + "</table></div>"


def ties_table_html(tally: Tally) -> str:
    """Three ways to count the first mover's ties, side by side, with the test each one leads to."""
    n, w, t, lo = tally.games, tally.wins, tally.ties, tally.losses
    half = stats.share(2 * w + t, 2 * n)  # a tie as half a win: 2w + t half-points out of 2n
    rows = [
        ("ties count as not winning", f"{w} of {n}", stats.share(w, n).text(), p_text(stats.binomial_test(w, n))),
        ("ties left out", f"{w} of {w + lo}", stats.share(w, w + lo).text(), p_text(stats.binomial_test(w, w + lo))),
        ("a tie is half a win", f"{w} + {t}/2 of {n}", f"{100 * half.value:.1f}%", "–"),
    ]
    head = ["counting", "wins", "share (95% interval)", "exact p against 50%"]
    parts = ["<div tabindex='0' role='region' aria-label='Ties counted three ways' style='overflow-x:auto'><table style='border-collapse:collapse;font-size:13px'><tr>"
             + "".join(f"<th style='{HEAD}'>{h}</th>" for h in head) + "</tr>"]
    for row in rows:
        parts.append("<tr>" + "".join(f"<td style='{CELL}'>{html.escape(c)}</td>" for c in row) + "</tr>")
    parts.append(f"</table><div style='font-size:12px;color:{palette.MUTED_INK}'>No p-value for a tie as half a "
                 f"win: {half_win_reason()}.</div>")
    return "".join(parts) + "</div>"


def first_mover_html(results: Results) -> str:
    """The first mover against the others, with the test the tournament's design allows."""
    players = results.spec.players
    first = results.first_mover
    name = lab.game_types()[results.spec.game].title
    test = results.first_mover_test()
    ties = (f" {results.tied_games()} games had no single winner, so they are left out of the test."
            if results.tied_games() and test.design is lab.Design.SAME_BOT else "")
    bots = " and ".join(dict.fromkeys(results.spec.bots))
    return (
        f"<div style='font-size:14px;line-height:1.6'><b>{html.escape(name)}, {players} players, "
        f"{results.games} games, {html.escape(bots)} bots</b>: the first mover won {first.win.text()} of all "
        f"games.{ties} {first_mover_text(test, results)}</div>"
    )


def few_games_sentence(row: LadderRow, fair: float = 0.5) -> str:
    """What the smallest rung's interval says, in words that follow its numbers."""
    s = row.share
    split = stats.share(row.decisive // 2, row.decisive)
    width = 100 * (s.high - s.low)
    contains = s.low <= fair <= s.high
    verdict = (f"it contains <i>no advantage</i> (50%), and also a first mover who wins {100 * s.high:.0f}% of "
               "decided games" if contains else f"it leaves out {100 * fair:.0f}%, yet it is still wide")
    return (f"With {row.games} games the first mover won {row.wins} of {row.decisive} decided games, and the 95% "
            f"interval runs from {100 * s.low:.1f}% to {100 * s.high:.1f}%, {width:.0f} percentage points wide: "
            f"{verdict}. Even an even split, {row.decisive // 2} of {row.decisive}, gives {split.text()}. "
            f"{row.games} games say very little.")


def half_win_reason() -> str:
    """Why the binomial test does not apply when a tie counts as half a win."""
    return ("each game then has three possible results for the first mover (1, ½ or 0 points), not two, so the "
            "points are not a count of successes in independent yes-or-no trials and the binomial test does not "
            "apply to them")


# ------------------------------------------------------------------ peeking


def peeking_html(result: stats.Peeking) -> str:
    """The optional-stopping demonstration: false alarms when peeking after every game against one planned look."""
    stops = sorted(result.stops)
    half = stops[len(stops) // 2] if stops else 0
    rows = [
        (f"look once, after the planned {result.max_games} games", result.once.text(),
         f"{100 * result.exact_once:.1f}%"),
        (f"look after every game from game {result.first_look} on, stop when the interval leaves out 50%",
         result.peeking.text(), "–"),
    ]
    head = ["how the experiment is run", "false alarms (95% interval)", "exact"]
    parts = [f"<div style='font-size:14px;line-height:1.6'>{result.experiments} simulated experiments in which "
             f"<b>nothing is going on</b>: every game is a fair coin toss (a chance of exactly "
             f"{100 * result.chance:.0f}%), so every alarm is a false one."
             "<div tabindex='0' role='region' aria-label='Peeking experiments' style='overflow-x:auto'><table style='border-collapse:collapse;font-size:13px'><tr>"
             + "".join(f"<th style='{HEAD}'>{h}</th>" for h in head) + "</tr>"]
    for row in rows:
        parts.append("<tr>" + "".join(f"<td style='{CELL}'>{html.escape(c)}</td>" for c in row) + "</tr>")
    parts.append("</table></div>")
    if stops:
        parts.append(f"Half of the early stops came by game {half}. Each look is another chance for luck to push "
                     "the interval off 50% for a moment; stopping there keeps that moment. Decide the number of "
                     "games first, then look once.")
    return "".join(parts) + "</div>"


# ------------------------------------------------------------------ a rule change, measured


def rule_scene(rows: list[tuple[str, stats.Share]], fair: float = 0.5) -> Scene:
    """Each rule's first-mover share with its 95% interval, on one axis around the fair share."""
    height = 40 + LADDER_ROW * max(1, len(rows)) + 28
    scene = Scene(WIDTH, height, palette.BACKGROUND)
    left, right = 20.0, WIDTH - 20.0
    lo, hi = 0.25, 0.75

    def x_of(v: float) -> float:
        return left + (min(hi, max(lo, v)) - lo) / (hi - lo) * (right - left)

    scene.add(Texts([(WIDTH / 2, 14, "First mover's share of decided games, 95% interval")],
                    font="bold 13px sans-serif", colour=palette.INK))
    bottom = height - 26
    ticks = [lo + (hi - lo) * t / 4 for t in range(5)]
    scene.add(Segments(as_points([[(x_of(t), 30), (x_of(t), bottom)] for t in ticks]), "#DDDDDD", 1.0))
    scene.add(Texts([(x_of(t), bottom + 12, f"{100 * t:.1f}%".replace(".0%", "%")) for t in ticks],
                    font="11px sans-serif", colour=palette.MUTED_INK))
    dashes = [[(x_of(fair), y), (x_of(fair), min(bottom, y + 4))] for y in range(30, int(bottom), 8)]
    scene.add(Segments(as_points(dashes), palette.MUTED_INK, 1.0))
    whiskers, dots, labels = [], [], []
    for i, (label, s) in enumerate(rows):
        y = 52 + i * LADDER_ROW
        labels.append((left, y - 12, f"{label}: {s.text()} of {s.n}"))
        if not s.n:
            continue
        a, b = x_of(s.low), x_of(s.high)
        whiskers += [[(a, y), (b, y)], [(a, y - 6), (a, y + 6)], [(b, y - 6), (b, y + 6)]]
        dots.append((x_of(s.value), y))
    scene.add(Segments(as_points(whiskers), palette.BLUE, 2.5))
    if dots:
        import numpy as np

        scene.add(Circles(np.asarray(dots, dtype=float), np.full(len(dots), 5.0), solid(palette.ORANGE, len(dots)),
                          stroke=palette.INK))
    scene.add(Texts(labels, font="12px sans-serif", colour=palette.INK, align="left"))
    scene.numbers = intervals_numbers("First mover's share of decided games, 95% interval", "rule", rows, fair)
    return scene


class RuleComparison(widgets.VBox):
    """The first mover's share under two values of one game option, each from its own tournaments, compared.

    Same bot in every seat and fixed seats, so every game is independent and
    moving first is the only difference between the seats; each rule plays
    from its own seeds, so the two samples are independent too and the
    two-proportion test applies.  **Play more** adds tournaments of ``more``
    games per rule (new seeds each time) in the background, with progress;
    **Cancel** stops them and counts the games already played.
    """

    def __init__(self, game: str, bots: tuple[str, ...], option: str,
                 rules: tuple[tuple[object, str], ...] = ((False, "printed rule"), (True, "variant")),
                 games: int = 300, more: int = 2000, seed: int = 18, options: dict | None = None,
                 workers: int | None = None):
        self.game, self.bots, self.option, self.rules = game, tuple(bots), option, tuple(rules)
        self.base_options = dict(options or {})
        self.seed, self.workers, self.more = seed, workers, more
        self.rounds = 0
        self.counts = {value: [0, 0, 0] for value, _label in self.rules}  # wins, decided, games
        self.run: TournamentRun | None = None
        self.canvas = SceneCanvas(WIDTH, 40 + LADDER_ROW * len(self.rules) + 28, self._scene)
        self.canvas.canvas.add_class("treegames-lab-rules")
        self.button = styles.icon_button(f"Play {more} more games", "play",
                                         f"Play {more} more games under each rule in the background",
                                         layout=widgets.Layout(width="200px"))
        safety.on_click(self.button, lambda: self.play(more), report=self.report_failure)
        self.cancel_button = styles.icon_button("Cancel", "pause", "Stop the games, count what was played",
                                                layout=widgets.Layout(width="110px"), disabled=True)
        safety.on_click(self.cancel_button, self.cancel, report=self.report_failure)
        self.progress = widgets.IntProgress(value=0, min=0, max=1, layout=widgets.Layout(width="150px"))
        self.progress.add_class("treegames-lab-progress")
        self.status = widgets.HTML()
        self.table = widgets.HTML(layout=widgets.Layout(max_width="100%"))
        self.table.add_class("treegames-lab-rule-table")
        self.sentence = widgets.HTML(layout=widgets.Layout(max_width="100%"))
        super().__init__([styles.stylesheet(), self.canvas.canvas, self.canvas.numbers, self.table, self.sentence,
                          widgets.HBox([self.button, self.cancel_button, self.progress],
                                       layout=widgets.Layout(flex_flow="row wrap")),
                          self.status], layout=widgets.Layout(max_width="100%"))
        self.add_class("treegames-lab-rule-comparison")
        self.play(games, wait=True)

    def report_failure(self, text: str) -> None:
        """The kit's friendly sentence when a callback fails."""
        self.status.value = f"<span style='color:{palette.VERMILLION}'>{html.escape(text)}</span>"

    def spec(self, value, games: int, round_: int) -> TournamentSpec:
        """One rule's tournament of one round (its own seed: rules and rounds are separate samples)."""
        index = [v for v, _ in self.rules].index(value)
        options = {**self.base_options, self.option: value}
        seed = self.seed * 1000 + round_ * len(self.rules) + index
        return TournamentSpec(self.game, self.bots, games, seed, False, options)

    def play(self, games: int, wait: bool = False) -> None:
        """Play ``games`` more games under each rule, one rule after the other, in the background."""
        if self.run is not None and self.run.is_running:
            return
        self.button.disabled, self.cancel_button.disabled = True, False
        round_ = self.rounds
        self.rounds += 1
        queue = [v for v, _ in self.rules]
        restart_progress(self.progress, games * len(queue))
        started = time.monotonic()
        finished = threading.Event()

        def next_rule() -> None:
            value = queue.pop(0)
            offset = (len(self.rules) - len(queue) - 1) * games

            def progress(done: int, _total: int) -> None:
                self.progress.value = offset + done
                run = self.run
                if run is None or run.state is RunState.RUNNING:
                    return
                if run.state is RunState.FAILED:
                    self.report_failure("The games stopped on an error; the counts are as they were.")
                    self._ended(finished)
                    return
                self._count(value, run)
                if run.state is RunState.FINISHED and queue:
                    next_rule()
                    return
                self._show(time.monotonic() - started)
                self.button.disabled, self.cancel_button.disabled = False, True  # usable before the words say so
                if run.state is RunState.CANCELLED:
                    self.status.value = ("<span>Stopped: the games played before Cancel are counted (the two "
                                         "rules may now have different numbers of games).</span>")
                self._ended(finished)

            self.run = TournamentRun(self.spec(value, games, round_), workers=self.workers, progress=progress)
            self.run.start()

        next_rule()
        if wait:
            finished.wait()

    def cancel(self) -> None:
        """Stop the games being played; those already played are counted."""
        if self.run is not None and self.run.is_running:
            self.status.value = "<span>Stopping…</span>"
            self.run.cancel()

    def _count(self, value, run: TournamentRun) -> None:
        """Add one rule's played games (all, or those before Cancel) to its counts."""
        results = run.results()
        test = results.first_mover_test()
        wins, decided, played = self.counts[value]
        self.counts[value] = [wins + test.wins, decided + test.trials, played + results.games]

    def _ended(self, finished: threading.Event) -> None:
        """The buttons as they are between runs, and the run marked over."""
        self.button.disabled, self.cancel_button.disabled = False, True
        finished.set()

    def shares(self) -> list[tuple[str, stats.Share]]:
        """(rule label, the first mover's share of decided games) per rule."""
        return [(label, stats.share(self.counts[v][0], self.counts[v][1])) for v, label in self.rules]

    def comparison(self) -> stats.TwoShares:
        """The two-proportion test of the first two rules' shares."""
        (w1, n1, _), (w2, n2, _) = (self.counts[v] for v, _ in self.rules[:2])
        return stats.two_proportion_test(w1, n1, w2, n2)

    def _scene(self) -> Scene:
        """Both rules' intervals."""
        return rule_scene(self.shares())

    def _show(self, seconds: float) -> None:
        """Redraw, and write the table and the comparison from the counts."""
        self.canvas.redraw()
        head = ["rule", "games", "first mover won", "share (95% interval)", "exact p against 50%"]
        parts = ["<div tabindex='0' role='region' aria-label='Both rules' style='overflow-x:auto'><table style='border-collapse:collapse;font-size:13px'><tr>"
                 + "".join(f"<th style='{HEAD}'>{h}</th>" for h in head) + "</tr>"]
        for value, label in self.rules:
            wins, decided, played = self.counts[value]
            cells = [label, str(played), f"{wins} of {decided} decided", stats.share(wins, decided).text(),
                     p_text(stats.binomial_test(wins, decided))]
            parts.append("<tr>" + "".join(f"<td style='{CELL}'>{html.escape(c)}</td>" for c in cells) + "</tr>")
        parts.append("</table></div>")
        self.table.value = "".join(parts)
        self.sentence.value = note(comparison_sentence(self.rules, self.comparison())).value
        self.status.value = f"<span>Played in {seconds:.1f} s.</span>"


def comparison_sentence(rules: tuple[tuple[object, str], ...], result: stats.TwoShares) -> str:
    """The two-proportion test of two rules, in words that follow its numbers."""
    (_, one), (_, two) = rules[:2]
    diff = 100 * result.difference
    clear = result.p_value < 0.05
    return (f"The first mover's share is {abs(diff):.1f} percentage points {'higher' if diff >= 0 else 'lower'} "
            f"under the {html.escape(one)} than under the {html.escape(two)} "
            f"({100 * result.first.value:.1f}% against {100 * result.second.value:.1f}%). The two-proportion test "
            f"of <i>the same chance under both rules</i> gives z = {result.z:.2f}, {p_is(result.p_value)}: "
            + ("a difference this large would be surprising if the rule change did nothing."
               if clear else "these games cannot yet tell the two rules apart; more games narrow both intervals.")
            )
