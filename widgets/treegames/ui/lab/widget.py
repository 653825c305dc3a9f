"""The tournament widget: choose a game, its options and a bot per seat, run N seeded games, read the results.

The games run in the background (:class:`treegames.lab.TournamentRun`, worker
processes for large N) while a progress bar moves and the table and charts
fill in with partial results; Cancel stops the run and its workers.  Every
picture is a Scene (:mod:`.charts`) sent through :class:`~treegames.ui.canvas.SceneCanvas`;
every number comes from :mod:`treegames.lab`.
"""

from __future__ import annotations

import html
import logging
import threading
import time

import ipywidgets as widgets

from ... import lab
from ...lab import RunState, SpecError, TournamentRun, TournamentSpec
from .. import palette, safety, saving, styles
from ..canvas import SceneCanvas
from ..jobs import restart_progress
from . import charts, table

__all__ = ["TournamentLab", "REDRAW_EVERY"]

log = logging.getLogger(__name__)

REDRAW_EVERY = 0.4
"""Seconds between redraws of the partial results while a tournament runs."""

GAME_COUNTS = (10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000)
"""The numbers of games offered."""

MAX_DROPDOWN = 24
"""A whole-number option with more values than this gets a number box instead of a dropdown."""

GAMES_PAGE = 10
"""Rows per page of the games table."""

FORM_WIDTH = "250px"
STYLE = {"description_width": "90px"}


def _form_layout() -> widgets.Layout:
    """A fresh layout for one form row (a Layout shared between widgets would hide them all together)."""
    return widgets.Layout(width=FORM_WIDTH)


def _dropdown(label: str, options, value, tooltip: str = "") -> widgets.Dropdown:
    """A labelled dropdown of the form's width."""
    return widgets.Dropdown(options=options, value=value, description=label, tooltip=tooltip or label,
                            layout=_form_layout(), style=STYLE)


def _option_widget(option, value) -> widgets.Widget:
    """A dropdown for a closed list of values, a whole-number box for a range; tagged with the option's name."""
    label = option.name.replace("_", " ")
    if isinstance(option.values, range) and len(option.values) > MAX_DROPDOWN:
        box = widgets.BoundedIntText(value=value, min=option.values.start, max=option.values.stop - 1,
                                     description=label, tooltip=option.meaning)
    else:
        box = _dropdown(label, [(str(v), v) for v in option.values], value, option.meaning)
    box.layout = widgets.Layout(width="330px")  # option names are long: a wider label column
    box.style = {"description_width": "170px"}
    box.option_name = option.name
    return box


class TournamentLab(widgets.VBox):
    """A tournament form, a progress bar with Cancel, and the results (table, charts, CSV, saved games)."""

    def __init__(self, game: str | None = None, bots: tuple[str, ...] | None = None, games: int = 100,
                 seed: int = 1, rotate: bool = True, options: dict | None = None, workers: int | None = None,
                 run_now: bool = False, games_offered: tuple[int, ...] = GAME_COUNTS):
        self.workers = workers
        self.run: TournamentRun | None = None
        game = game or next(iter(lab.game_types()))  # the first game a menu lists
        self.results = lab.Results(TournamentSpec(game, bots or ("random", "random")), [])
        self._redraw_lock = threading.RLock()
        self._last_redraw = 0.0
        self._page = 0
        types = lab.game_types()

        self.game = _dropdown("Game", [(t.title, n) for n, t in types.items()], game)
        self.players = _dropdown("Players", [2], 2)
        self.seats_box = widgets.VBox(layout=widgets.Layout(width="260px"))
        self.options_box = widgets.VBox(layout=widgets.Layout(width="340px"))
        counts = sorted(set(games_offered) | {games})
        self.games = _dropdown("Games", counts, games, "How many games to play")
        self.seed = widgets.BoundedIntText(value=seed, min=0, max=10**9, description="Seed", layout=_form_layout(),
                                           style=STYLE, tooltip="The same seed plays exactly the same games")
        self.seating = widgets.ToggleButtons(options=[("Rotate seats", True), ("Fixed seats", False)],
                                             value=rotate, tooltips=["Each bot takes each seat in turn, same dice",
                                                                     "Every game with the seats as chosen"],
                                             style={"button_width": "118px"})
        self.run_button = styles.icon_button("Run", "play", "Play the games", button_style="primary",
                                             layout=widgets.Layout(width="110px"))
        self.cancel_button = styles.icon_button("Cancel", "pause", "Stop the games, keep what was played",
                                                disabled=True, layout=widgets.Layout(width="110px"))
        self.progress = widgets.IntProgress(value=0, min=0, max=1, description="",
                                            layout=widgets.Layout(width="260px"))
        self.progress.add_class("treegames-lab-progress")
        self.status = widgets.HTML("<span>Choose the bots and press Run.</span>")
        self.status.add_class("treegames-lab-status")
        self.findings = widgets.HTML()
        self.table = widgets.HTML()
        self.table.add_class("treegames-lab-results")
        self.shares = SceneCanvas(charts.WIDTH, charts.shares_height(5), self._shares_scene)
        self.shares.canvas.add_class("treegames-lab-shares")
        self.margin_view = _dropdown("Histogram of", [("the first mover", "first")], "first",
                                     "Whose score margins or scores the histogram shows")
        self.histogram_kind = widgets.ToggleButtons(options=[("Margins", False), ("Scores", True)], value=False,
                                                    tooltips=["Score minus the best other score", "Scores"],
                                                    style={"button_width": "80px"})
        self.margins = SceneCanvas(charts.WIDTH, charts.MARGINS_HEIGHT, self._margins_scene)
        self.margins.canvas.add_class("treegames-lab-margins")
        self.exports = widgets.HTML()
        self.games_table = widgets.HTML()
        self.prev_page = widgets.Button(description="◀ earlier", layout=widgets.Layout(width="100px"))
        self.next_page = widgets.Button(description="later ▶", layout=widgets.Layout(width="100px"))
        self.game_number = widgets.BoundedIntText(value=1, min=1, max=games, description="Game #",
                                                  layout=widgets.Layout(width="170px"), style={"description_width": "60px"})
        self.save_button = styles.icon_button("Saved game", "save",
                                              "Replay this game from its seeds and offer it as a file",
                                              layout=widgets.Layout(width="130px"))
        self.saved = widgets.HTML()

        report = self.report_failure
        safety.observe(self.game, lambda _v: self._build_game_form(), report=report)
        safety.observe(self.players, lambda _v: self._build_seats(), report=report)
        safety.on_click(self.run_button, self.start, report=report)
        safety.on_click(self.cancel_button, self._on_cancel, report=report)
        safety.observe(self.margin_view, lambda _v: self._redraw_charts(), report=report)
        safety.observe(self.histogram_kind, lambda _v: self._redraw_charts(), report=report)
        safety.on_click(self.prev_page, lambda: self._turn_page(-1), report=report)
        safety.on_click(self.next_page, lambda: self._turn_page(+1), report=report)
        safety.on_click(self.save_button, self._on_save, report=report)

        self._build_game_form(bots, options)
        form = widgets.HBox([widgets.VBox([self.game, self.players, self.games, self.seed, self.seating]),
                             widgets.VBox([self.seats_box, self.options_box])],
                            layout=widgets.Layout(flex_flow="row wrap"))
        controls = widgets.HBox([self.run_button, self.cancel_button, self.progress],
                                layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
        charts_box = widgets.HBox([widgets.VBox([self.shares.canvas, self.shares.numbers]),
                                   widgets.VBox([self.margin_view, self.histogram_kind, self.margins.canvas,
                                                 self.margins.numbers])],
                                  layout=widgets.Layout(flex_flow="row wrap"))
        games_box = widgets.VBox([
            widgets.HTML("<b>The games</b> (open any one as a saved game)"),
            self.games_table,
            widgets.HBox([self.prev_page, self.next_page]),
            widgets.HBox([self.game_number, self.save_button], layout=widgets.Layout(flex_flow="row wrap")),
            self.saved,
        ])
        super().__init__([styles.stylesheet(), form, controls, self.status, self.findings, self.table, charts_box, self.exports,
                          games_box], layout=widgets.Layout(max_width="860px"))
        self.add_class("treegames-lab")
        self._show_results()
        if run_now:
            self.start(wait=True)

    # ------------------------------------------------------------ the form

    def _build_game_form(self, bots: tuple[str, ...] | None = None, options: dict | None = None) -> None:
        """Players, seats and option dropdowns for the chosen game."""
        gtype = lab.game_types()[self.game.value]
        counts = list(gtype.players)
        wanted = len(bots) if bots else counts[0]
        self.players.options = counts
        self.players.value = wanted if wanted in counts else counts[0]
        self.players.layout.display = None if len(counts) > 1 else "none"
        self._build_seats(bots)
        rows = []
        for option in gtype.options:
            if option.name == "players":
                continue
            rows.append(_option_widget(option, (options or {}).get(option.name, option.default)))
        self.options_box.children = rows

    def _build_seats(self, bots: tuple[str, ...] | None = None) -> None:
        """One bot dropdown per seat, named as the game names its seats."""
        game, players = self.game.value, self.players.value
        names = lab.bot_names(game)
        default = ["greedy" if "greedy" in names else names[0]] + ["random"] * (players - 1)
        chosen = list(bots) if bots and len(bots) == players else default
        self.seats_box.children = [
            _dropdown(label, names, bot if bot in names else names[0], f"The bot in seat {label}")
            for label, bot in zip(lab.seat_names(game, players), chosen, strict=False)
        ]

    def spec(self) -> TournamentSpec:
        """The tournament the form describes (SpecError if it is not playable)."""
        options = {w.option_name: w.value for w in self.options_box.children}
        bots = tuple(w.value for w in self.seats_box.children)
        return TournamentSpec(self.game.value, bots, int(self.games.value), int(self.seed.value),
                              bool(self.seating.value), options)

    # ------------------------------------------------------------ running

    def report_failure(self, text: str) -> None:
        """Show the kit's friendly sentence when a callback fails (the details are in the server log)."""
        self.status.value = f"<span style='color:{palette.VERMILLION}'>{html.escape(text)}</span>"

    def _on_cancel(self, _button=None) -> None:
        """Cancel pressed: stop the games and their workers, keep what was played."""
        if self.run is not None and self.run.is_running:
            self.status.value = "<span>Stopping…</span>"
            self.run.cancel()

    def start(self, wait: bool = False) -> TournamentRun | None:
        """Start the tournament in the form (wait for it if asked); None if the form is not playable."""
        if self.run is not None and self.run.is_running:
            return self.run
        try:
            spec = self.spec()
        except SpecError as err:
            self.status.value = f"<span style='color:{palette.VERMILLION}'>{html.escape(str(err))}</span>"
            return None
        self.results = lab.Results(spec, [])
        self._page = 0
        self.saved.value = ""
        self.game_number.max = spec.games
        self.run = TournamentRun(spec, workers=self.workers, progress=self._on_progress)
        restart_progress(self.progress, spec.games)
        self.progress.bar_style = ""
        self.run_button.disabled, self.cancel_button.disabled = True, False
        self._set_margin_views(spec)
        self._resize_shares()
        self._last_redraw = time.monotonic()
        self.status.value = self._status_text()
        self.run.start()
        if wait:
            self.run.wait()
        return self.run

    def _on_progress(self, done: int, total: int) -> None:
        """From the run's thread: move the bar; now and then, and at the end, show the partial results."""
        run = self.run
        if run is None:
            return
        finished = run.state is not RunState.RUNNING
        if finished or time.monotonic() - self._last_redraw >= REDRAW_EVERY:
            self._last_redraw = time.monotonic()
            self.results = run.results()
            self._show_results()
        self.progress.value = done  # after the results, so "finished" never shows beside an older table
        self.status.value = self._status_text()
        if finished:
            self.run_button.disabled, self.cancel_button.disabled = False, True
            self.progress.bar_style = {RunState.FINISHED: "success", RunState.CANCELLED: "warning"}.get(
                run.state, "danger")

    def _status_text(self) -> str:
        """'312 of 1000 games · 2 worker processes · 1.2 s' (or '1 worker process') and how the run ended."""
        run = self.run
        if run is None:
            return ""
        if run.uses_processes:
            how = f"{run.workers} worker process" + ("" if run.workers == 1 else "es")
        else:
            how = "in this kernel"
        text = f"{run.done} of {run.total} games · {how} · {run.elapsed:.1f} s"
        ending = {RunState.FINISHED: "finished", RunState.CANCELLED: "cancelled: the results below are partial",
                  RunState.FAILED: "stopped by an error"}.get(run.state)
        if ending:
            text += f" · {ending}"
        return f"<span>{html.escape(text)}</span>"

    # ------------------------------------------------------------ showing results

    def _set_margin_views(self, spec: TournamentSpec) -> None:
        """The histogram's points of view: the first mover, each bot (if they differ), each seat."""
        views = [("the first mover", "first")]
        if len(set(spec.bots)) > 1:
            views += [(f"bot {b}", b) for b in dict.fromkeys(spec.bots)]
        views += [(f"seat {name}", f"seat {i}") for i, name in enumerate(lab.seat_names(spec.game, spec.players))]
        self.margin_view.options = views
        self.margin_view.value = "first"

    def _resize_shares(self) -> None:
        """Fit the shares canvas to the number of result rows."""
        height = charts.shares_height(len(self.results.rows()))
        canvas = self.shares.canvas
        if canvas.height != height:
            canvas.height = height
            canvas.layout.height = f"{height}px"

    def _shares_scene(self):
        """The shares chart of the current results."""
        return charts.shares_scene(self.results.rows(), self.results.spec.players)

    def _margins_scene(self):
        """The margin histogram of the current results from the chosen point of view."""
        view = self.margin_view.value or "first"
        label = dict((v, k) for k, v in self.margin_view.options).get(view, "the first mover")
        if self.histogram_kind.value:
            return charts.margins_scene(self.results.scores(view), label, scores=True)
        return charts.margins_scene(self.results.margins(view), label)

    def _redraw_charts(self) -> None:
        """Both charts, again."""
        with self._redraw_lock:
            self.shares.redraw()
            self.margins.redraw()

    def _show_results(self) -> None:
        """Findings, table, charts, exports and the games page for the current results."""
        with self._redraw_lock:
            results = self.results
            self.findings.value = table.findings_html(results)
            self.table.value = table.results_table_html(results) if results.games else ""
            self._redraw_charts()
            done = self.run is None or not self.run.is_running
            self.exports.value = table.csv_links_html(results) if done else ""
            self._show_games_page()

    def _show_games_page(self) -> None:
        """The current page of the games table."""
        results = self.results
        last = max(0, (results.games - 1) // GAMES_PAGE)
        self._page = min(max(0, self._page), last)
        self.games_table.value = table.games_table_html(results, self._page * GAMES_PAGE, GAMES_PAGE)
        self.prev_page.disabled = self._page == 0
        self.next_page.disabled = self._page >= last

    def _turn_page(self, step: int) -> None:
        """Earlier or later games."""
        self._page += step
        self._show_games_page()

    def _on_save(self) -> None:
        """Replay the chosen game from its seeds and offer its saved game (the engine's JSON) as a file."""
        spec = self.results.spec
        number = int(self.game_number.value)
        if not 1 <= number <= spec.games:
            self.saved.value = f"<span>Choose a game from 1 to {spec.games}.</span>"
            return
        text = lab.saved_game(spec, number - 1)
        name = f"{spec.game}-seed{spec.seed}-game{number}.json"
        title = html.escape(lab.game_types()[spec.game].title)
        self.saved.value = (
            "<div style='font-size:13px;line-height:1.8'>"
            + saving.download_link(text, name, f"Download {name}", "application/json", icon="save")
            + f"<br>Then open the <a href='../{spec.game}/play.ipynb' target='_blank'>{title} Play page</a> and "
            "load the file in its <b>Save / Open</b> tab to step through the game move by move.</div>"
        )
