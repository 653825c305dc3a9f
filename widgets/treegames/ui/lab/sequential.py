"""The SPRT lesson's pieces: a live sequential match between two bots, its LLR chart, and the tables.

The chart is a pure Scene (:func:`llr_scene`) of a :class:`~treegames.lab.SprtStatus`;
the widget runs a :class:`~treegames.lab.SequentialMatch` and only shows its numbers.
"""

from __future__ import annotations

import html
import threading

import ipywidgets as widgets
import numpy as np

from ... import lab
from ...lab import Decision, SequentialMatch, Sprt, SprtStatus, TournamentSpec
from ...lab.sequential import Simulation, Tracker
from ...lab.tournament import MAX_COACH_GAMES
from .. import palette, safety, styles
from ..canvas import SceneCanvas
from ..chart_numbers import Column, Kind, chart_numbers
from ..jobs import restart_progress
from ..scene import Circles, Scene, Segments, Texts, as_points, solid
from .table import CELL, HEAD
from .widget import FORM_WIDTH, STYLE, _dropdown

__all__ = ["llr_scene", "SprtMatchView", "pairs_table_html", "simulation_html", "CAP_GAMES"]

WIDTH = 400
HEIGHT = 260
CAP_GAMES = 1000
"""A lesson match stops at this many games if the test has not decided (a coach match at the lab's coach cap)."""

PAIR_NAMES = ("lost both", "lost one, drew one", "won one, lost one (or drew both)", "won one, drew one", "won both")
"""The five outcomes of a pair, from the candidate's side (the pentanomial count's LL to WW)."""


def llr_scene(status: SprtStatus, width: int = WIDTH, height: int = HEIGHT) -> Scene:
    """The LLR after each block, walking between the two bounds of the test."""
    scene = Scene(width, height, palette.BACKGROUND)
    lower, upper = status.test.bounds
    left, right, top, bottom = 44.0, width - 12.0, 30.0, height - 34.0
    low, high = lower - 0.8, upper + 0.8
    span = max(20, status.games)

    def x_of(games: float) -> float:
        return left + games / span * (right - left)

    def y_of(llr: float) -> float:
        return bottom - (min(high, max(low, llr)) - low) / (high - low) * (bottom - top)

    scene.add(Texts([(width / 2, 14, "The test's evidence (LLR) after each pair of games")],
                    font="bold 13px sans-serif", colour=palette.INK))
    ticks = [round(span * t / 4) for t in range(5)]
    scene.add(Segments(as_points([[(x_of(t), top), (x_of(t), bottom)] for t in ticks]), "#DDDDDD", 1.0))
    scene.add(Texts([(x_of(t), bottom + 12, str(t)) for t in ticks], font="11px sans-serif", colour=palette.MUTED_INK))
    scene.add(Texts([((left + right) / 2, bottom + 26, "games played")], font="11px sans-serif",
                    colour=palette.MUTED_INK))
    scene.add(Segments(as_points([[(left, y_of(0)), (right, y_of(0))]]), "#BBBBBB", 1.0))
    scene.add(Texts([(left - 6, y_of(v), f"{v:+.1f}" if v else "0") for v in (lower, 0.0, upper)],
                    font="11px sans-serif", colour=palette.MUTED_INK, align="right"))
    for bound, colour, words in ((upper, palette.BLUISH_GREEN, "accept H1: better"),
                                 (lower, palette.VERMILLION, "accept H0: not better")):
        y = y_of(bound)
        dashes = [[(x, y), (min(right, x + 8), y)] for x in np.arange(left, right, 14.0)]
        scene.add(Segments(as_points(dashes), colour, 2.0))
        scene.add(Texts([(left + 4, y - 8 if bound > 0 else y + 10, words)], font="bold 12px sans-serif",
                        colour=palette.INK, align="left"))  # at the start: the line's end dot is on the right
    points = [(x_of(0), y_of(0))] + [(x_of((i + 1) * status.block_size), y_of(v)) for i, v in enumerate(status.path)]
    if len(points) > 1:
        scene.add(Segments(as_points([[a, b] for a, b in zip(points, points[1:], strict=False)]), palette.BLUE, 2.5))
        scene.add(Circles(np.asarray([points[-1]], dtype=float), np.full(1, 5.0), solid(palette.ORANGE, 1),
                          stroke=palette.INK))
    scene.numbers = llr_numbers(status)
    return scene


def llr_numbers(status: SprtStatus, rows: int = 12):
    """The chart as a table: the LLR after evenly spaced blocks, and after the last."""
    picks = sorted({round(status.blocks * k / rows) for k in range(1, rows + 1)} - {0})
    table = [(f"{b * status.block_size} games", [b, b * status.block_size, status.path[b - 1]]) for b in picks]
    lower, upper = status.test.bounds
    return chart_numbers("The test's evidence (LLR) after each pair of games", "after",
                         [Column("blocks", Kind.COUNT), Column("games", Kind.COUNT), Column("LLR", Kind.NUMBER)],
                         table, f"The test accepts H1 at {upper:+.2f} and H0 at {lower:+.2f}; "
                                f"{status.decision.value} after {status.games} games.")


def pairs_table_html(status: SprtStatus, histogram: dict, candidate: str) -> str:
    """The pentanomial count of a two-player match: how many pairs ended each way, from the candidate's side."""
    head = ["pair outcome", "score of the pair", "pairs"]
    rows = "".join(
        "<tr>" + "".join(f"<td style='{CELL}'>{html.escape(c)}</td>" for c in
                         (name, f"{i / 2:g} of 2", str(histogram.get(i / 4, 0)))) + "</tr>"
        for i, name in enumerate(PAIR_NAMES))
    return (f"<div tabindex='0' role='region' aria-label='Pairs by outcome' style='overflow-x:auto'>"
            f"<table style='border-collapse:collapse;font-size:13px'><caption style='text-align:left'>"
            f"{html.escape(candidate)}'s pairs by outcome ({status.blocks} pairs)</caption><tr>"
            + "".join(f"<th style='{HEAD}'>{h}</th>" for h in head) + "</tr>" + rows + "</table></div>")


def simulation_html(null: Simulation, good: Simulation) -> str:
    """How often each way of testing said 'better': with equal bots, and with a truly better one."""
    def share(k: int, n: int) -> str:
        return f"{k} of {n} ({100 * k / n:.1f}%)"

    head = ["way of testing", f"said 'better' with equal bots ({100 * null.share:g}%)",
            f"said 'better' with a better bot ({100 * good.share:g}%)", "games it played (average)"]
    rows = [
        ("SPRT (looks after every pair, stops at a bound)", share(null.h1, null.experiments),
         share(good.h1, good.experiments), f"{null.mean_games:.0f} (equal), {good.mean_games:.0f} (better)"),
        (f"fixed size: one look after {null.fixed_size} games", share(null.fixed_h1, null.experiments),
         share(good.fixed_h1, good.experiments), str(null.fixed_size)),
        (f"peeking: the fixed test after every pair, up to {null.fixed_size} games",
         share(null.peeking_h1, null.experiments), share(good.peeking_h1, good.experiments), "stops at the first 'better'"),
    ]
    body = "".join("<tr>" + "".join(f"<td style='{CELL}'>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return ("<div tabindex='0' role='region' aria-label='Three ways of testing, simulated' style='overflow-x:auto'>"
            "<table style='border-collapse:collapse;font-size:13px'><caption style='text-align:left'>"
            f"{null.experiments} simulated matches each way ({html.escape(null.test.describe())})</caption><tr>"
            + "".join(f"<th style='{HEAD}'>{h}</th>" for h in head) + "</tr>" + body + "</table></div>")


class SprtMatchView(widgets.VBox):
    """Two bots play seat-swapped pairs until the SPRT decides; the LLR line is drawn as the pairs come in."""

    def __init__(self, game: str | None = None, candidate: str = "greedy", other: str = "random",
                 seed: int = 1, test: Sprt | None = None, workers: int | None = None, run_now: bool = False):
        self.test = test or Sprt()
        self.workers = workers
        self.match: SequentialMatch | None = None
        self._lock = threading.Lock()
        two_player = {name: t for name, t in lab.game_types().items() if 2 in t.players}
        game = game or next(iter(two_player))  # the first two-player game a menu lists
        self.game = _dropdown("Game", [(t.title, n) for n, t in two_player.items()], game)
        self.candidate = _dropdown("New bot", lab.bot_names(game), candidate)
        self.other = _dropdown("Old bot", lab.bot_names(game), other)
        self.seed = widgets.BoundedIntText(value=seed, min=0, max=10**9, description="Seed",
                                           layout=widgets.Layout(width=FORM_WIDTH), style=STYLE,
                                           tooltip="The same seed plays exactly the same games")
        self.game.observe(self._on_game, names="value")
        self.start_button = styles.icon_button("Play until the test decides", "play",
                                               "Play pairs of games until the SPRT accepts H1 or H0",
                                               button_style="primary", layout=widgets.Layout(width="230px"))
        self.cancel_button = styles.icon_button("Cancel", "pause", "Stop the match, keep the pairs played",
                                                disabled=True, layout=widgets.Layout(width="110px"))
        safety.on_click(self.start_button, self.start, report=self.report_failure)
        safety.on_click(self.cancel_button, self.cancel, report=self.report_failure)
        self.progress = widgets.IntProgress(value=0, min=0, max=1, layout=widgets.Layout(width="200px"),
                                            description="")
        self.progress.add_class("treegames-lab-progress")
        self.status = widgets.HTML("<span>Choose two bots and press Play.</span>")
        self.status.add_class("treegames-lab-status")
        self.pairs = widgets.HTML(layout=widgets.Layout(max_width="100%"))
        self._status = self._empty_status()
        self.canvas = SceneCanvas(WIDTH, HEIGHT, lambda: llr_scene(self._status))
        self.canvas.canvas.add_class("treegames-lab-sprt-chart")
        super().__init__([
            styles.stylesheet(),
            widgets.HBox([self.game, self.candidate, self.other, self.seed], layout=widgets.Layout(flex_flow="row wrap")),
            widgets.HBox([self.start_button, self.cancel_button, self.progress],
                         layout=widgets.Layout(flex_flow="row wrap")),
            self.status, self.canvas.canvas, self.canvas.numbers, self.pairs,
        ], layout=widgets.Layout(max_width="100%"))
        self.add_class("treegames-lab")
        self.add_class("treegames-lab-sprt")
        if run_now:
            self.start(wait=True, workers=1)  # while the page opens: in this kernel, no worker processes

    def report_failure(self, text: str) -> None:
        """The kit's friendly sentence when a callback fails."""
        self.status.value = f"<span style='color:{palette.VERMILLION}'>{html.escape(text)}</span>"

    def spec(self) -> TournamentSpec:
        """The match asked for: the two bots in seat-swapped pairs, capped (lower with a coach)."""
        bots = (self.candidate.value, self.other.value)
        cap = MAX_COACH_GAMES if any(b.startswith("coach") for b in bots) else CAP_GAMES
        return TournamentSpec(self.game.value, bots, cap, int(self.seed.value))

    def _empty_status(self) -> SprtStatus:
        """The test before any pair."""
        return Tracker(self.test, 2, 2, CAP_GAMES // 2).status()

    def _on_game(self, change) -> None:
        """A new game: its own bots in the menus."""
        names = lab.bot_names(change["new"])
        for box, fallback in ((self.candidate, "greedy"), (self.other, "random")):
            keep = box.value if box.value in names else fallback if fallback in names else names[0]
            box.options = names
            box.value = keep

    def status_now(self) -> SprtStatus:
        """The test as the chart shows it."""
        return self._status

    def start(self, wait: bool = False, workers: int | None = None) -> None:
        """Start a match (unless one is still deciding); ``workers`` overrides the view's for this match."""
        if self.match is not None and self.match.is_running:
            if self.match.status().decision is Decision.CONTINUE:
                return  # still deciding: Cancel first
            self.match.cancel()  # decided, only finishing the games under way
        spec = self.spec()
        self.start_button.disabled, self.cancel_button.disabled = True, False
        restart_progress(self.progress, spec.games // 2)
        self._status = self._empty_status()
        self.canvas.redraw()
        self.status.value = "<span>Playing pairs of games…</span>"
        self.match = SequentialMatch(spec, self.test, workers=workers or self.workers, progress=self._show,
                                     chunk_blocks=2)
        self.match.start()
        if wait:
            self.match.wait()

    def cancel(self) -> None:
        """Stop the match; the pairs played stay counted."""
        if self.match is not None and self.match.is_running:
            self.status.value = "<span>Stopping…</span>"
            self.match.cancel()

    def _show(self, status: SprtStatus) -> None:
        """After each chunk: the chart, the counts and the words (and the buttons once the match is over)."""
        match = self.match
        if match is None:
            return
        with self._lock:
            self._status = status
            self.progress.value = min(self.progress.max, status.blocks)
            self.canvas.redraw()
            candidate, other = match.spec.bots
            self.pairs.value = pairs_table_html(status, match.histogram(), candidate)
            over = not match.is_running or status.decision is not Decision.CONTINUE or status.capped
            if match.failed:
                self.report_failure("The games stopped on an error; the pairs played are counted.")
            else:
                self.status.value = f"<span>{html.escape(status.sentence(candidate, other))}</span>"
            if over:
                self.start_button.disabled, self.cancel_button.disabled = False, True

