"""The majority-scoring lesson: a what-if table, exercises with hidden answers, and the tie-case experiment.

The places and points always come from ``bosk.scoring.majority`` -- the very
function the engine scores summer and winter with.
"""

from __future__ import annotations

import html
import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import ipywidgets as widgets

from ... import bosk, core
from ...bosk.scoring import (
    CASE_ORDER,
    SUMMER_POINTS,
    WINTER_POINTS,
    MajorityPoints,
    TieCase,
    case_counts,
    classify,
    every_case,
    exact_case_odds,
    majority,
)
from ...lab.stats import share
from .. import safety, styles
from ..jobs import restart_progress
from ..text import percent_text
from .scene import PLAYER_COLOURS, PLAYER_SYMBOLS

SEASONS = {"Summer (a trail)": SUMMER_POINTS, "Winter (a region)": WINTER_POINTS}
"""The two majority tables, by the name the lesson shows."""

UNITS = {SUMMER_POINTS: "total tree value on the trail", WINTER_POINTS: "squares controlled in the region"}


def result_html(values: Sequence[int], table: MajorityPoints, names: Sequence[str]) -> str:
    """Places and points for one trail or region, as an HTML table plus the rule's sentence."""
    result = majority(values, table)
    rows = []
    for p, name in enumerate(names):
        rows.append(f"<tr><td><span style='color:{PLAYER_COLOURS[p]}'>{PLAYER_SYMBOLS[p]}</span> {html.escape(name)}"
                    f"</td><td align=right>{result.values[p]}</td><td>{result.place_label(p) or 'not there'}</td>"
                    f"<td align=right><b>{result.points[p]}</b></td></tr>")
    return (f"<table style='border-collapse:collapse;font-size:14px' cellpadding=4>"
            f"<tr style='border-bottom:1px solid #999'><th align=left>Player</th><th>Total</th><th>Place</th>"
            f"<th>Points</th></tr>{''.join(rows)}</table>"
            f"<p style='font-size:14px'><b>Case: {result.case.value}.</b> {html.escape(result.explain(names))}</p>")


def points_table_html() -> str:
    """The two seasons' points side by side, case by case (read from the engine's tables)."""
    s, w = SUMMER_POINTS, WINTER_POINTS
    rows = [
        ("one player first, one player second", f"{s.first} and {s.second}", f"{w.first} and {w.second}"),
        ("one first, two or more tied for second", f"{s.first}, and {s.tied_second} each",
         f"{w.first}, and {w.tied_second} each"),
        ("one player alone, nobody second", f"{s.alone}", f"{w.alone}"),
        ("two or more tied for first (no second place)", f"{s.tied_first} each", f"{w.tied_first} each"),
    ]
    body = "".join(f"<tr><td>{a}</td><td align=center>{b}</td><td align=center>{c}</td></tr>" for a, b, c in rows)
    return ("<table style='border-collapse:collapse;font-size:14px' cellpadding=4 border=1>"
            "<tr><th>case</th><th>summer (a trail)<br><small>Summer Scoring 1-4</small></th>"
            f"<th>winter (a region)<br><small>IV. Winter 2-5</small></th></tr>{body}</table>")


def cases_table_html(players: int) -> str:
    """One example of every case for a player count, scored by summer and by winter."""
    names = bosk.PLAYER_NAMES[:players]
    head = "".join(f"<th>{html.escape(n)}</th>" for n in names)
    rows = []
    for case, values in every_case(players):
        s, w = majority(values, SUMMER_POINTS), majority(values, WINTER_POINTS)
        rows.append(f"<tr><td><b>{case.value}</b><br><small>{s.clause} · {w.clause}</small></td>"
                    + "".join(f"<td align=center>{v}<br><small>{s.points[p]} / {w.points[p]}</small></td>"
                              for p, v in enumerate(values)) + "</tr>")
    return (f"<table style='border-collapse:collapse;font-size:13px' cellpadding=4 border=1>"
            f"<tr><th>Case</th>{head}</tr>{''.join(rows)}</table>"
            "<small>Each cell: the player's total, then summer points / winter points.</small>")


class WhatIf(widgets.VBox):
    """Pick the season and the player count, slide each player's total, and watch places and points."""

    def __init__(self, players: int = 3, season: str = "Summer (a trail)", values: Sequence[int] | None = None):
        self.season = widgets.ToggleButtons(options=list(SEASONS), value=season, description="Scoring:",
                                            style={"button_width": "140px"})
        self.players = widgets.ToggleButtons(options=[2, 3, 4], value=players, description="Players:",
                                             style={"button_width": "48px"})
        self.sliders = [widgets.IntSlider(value=0, min=0, max=20, description=name,
                                          layout=widgets.Layout(width="330px"), continuous_update=True)
                        for name in bosk.PLAYER_NAMES]
        self.examples = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.result = widgets.HTML()
        self.unit = widgets.HTML()
        for w in (self.season, self.players, *self.sliders):
            safety.observe(w, self._changed, report=self._report)
        safety.observe(self.players, self._players_changed, report=self._report)
        super().__init__([self.season, self.players, self.unit, *self.sliders, widgets.HTML("<b>Try every case:</b>"),
                          self.examples, self.result])
        self.add_class("bosk-what-if")
        self._players_changed(None)
        self.set_values(values if values is not None else (7, 4, 4, 2)[:players])

    @property
    def table(self) -> MajorityPoints:
        """The points table of the chosen season."""
        return SEASONS[self.season.value]

    def values(self) -> tuple[int, ...]:
        """The totals on the sliders of the players in play."""
        return tuple(s.value for s in self.sliders[: self.players.value])

    def set_values(self, values: Sequence[int]) -> None:
        """Put totals on the sliders (one per player in play) and show the result."""
        self._quiet = True
        try:
            for slider, v in zip(self.sliders, values, strict=False):
                slider.value = max(slider.min, min(slider.max, int(v)))
        finally:
            self._quiet = False
        self._changed(None)

    def _players_changed(self, _change) -> None:
        """Show as many sliders as players, and the example buttons for that count."""
        n = self.players.value
        for i, slider in enumerate(self.sliders):
            slider.layout.display = "" if i < n else "none"
        buttons = []
        for case, values in every_case(n):
            b = widgets.Button(description=case.value, layout=widgets.Layout(width="auto"),
                               tooltip=f"Set the totals to {values}")
            safety.on_click(b, lambda v=values: self.set_values(v), report=self._report)
            buttons.append(b)
        self.examples.children = buttons

    def _report(self, text: str) -> None:
        """Show a friendly failure sentence where the result goes."""
        self.result.value = f"<p style='color:#D55E00'>{html.escape(text)}</p>"

    def _changed(self, _change) -> None:
        """Recompute places and points with the engine's function."""
        if getattr(self, "_quiet", False):
            return
        self.unit.value = f"<i>Each slider: that player's {UNITS[self.table]} (0 = not there).</i>"
        names = bosk.PLAYER_NAMES[: self.players.value]
        self.result.value = result_html(self.values(), self.table, names)


@dataclass(frozen=True)
class Exercise:
    """A question, its answer (computed), and the rulebook clause it practises."""

    question: str
    answer: str


def pts(values: Sequence[int], table: MajorityPoints) -> tuple[int, ...]:
    """Shorthand for the engine's points of one trail or region."""
    return majority(values, table).points


def exercises() -> list[Exercise]:
    """The lesson's exercises; every number in an answer is computed by the scoring function."""
    s_second, s_tied = pts((5, 3), SUMMER_POINTS)[1], pts((4, 4), SUMMER_POINTS)[0]
    w_second, w_tied = pts((5, 3), WINTER_POINTS)[1], pts((4, 4), WINTER_POINTS)[0]
    s_alone, s_clear = pts((4, 0, 0), SUMMER_POINTS)[0], pts((5, 3, 0), SUMMER_POINTS)
    w_alone, w_clear = pts((4, 0, 0), WINTER_POINTS)[0], pts((5, 3, 0), WINTER_POINTS)
    three_way = pts((3, 3, 3), WINTER_POINTS)
    tie2 = pts((6, 2, 2), SUMMER_POINTS), pts((6, 2, 2), WINTER_POINTS)
    join = pts((6, 6, 2), SUMMER_POINTS), pts((6, 2, 2), SUMMER_POINTS)
    return [
        Exercise(
            "Is it ever better to be alone in second place than tied for first?",
            f"Never. In summer both earn the same: alone in second {s_second}, tied for first {s_tied}. In winter "
            f"tying for first is better: {w_tied} against {w_second}. (Summer Scoring 1 and 4; Winter 2 and 5.)"),
        Exercise(
            "Maple is alone on a trail with a value-1 tree. Oak adds a value-1 tree there. What happens to "
            "Maple's summer points on that trail?",
            f"Alone Maple had {s_alone} (Summer Scoring 3). With Oak tied at 1 both tie for first and earn "
            f"{pts((1, 1), SUMMER_POINTS)[0]} each: Maple loses {s_alone - pts((1, 1), SUMMER_POINTS)[0]}. A cheap tree "
            f"can spoil a lone leader's trail."),
        Exercise(
            "Being alone in a region is worth how much more than leading it with someone in second?",
            f"Alone: {w_alone}; leading with a second: {w_clear[0]} (and the second gets {w_clear[1]}). So being alone "
            f"is worth {w_alone - w_clear[0]} more to you, and denies the rival {w_clear[1]}. In summer: "
            f"{s_alone} against {s_clear[0]}."),
        Exercise(
            "Three players each control 3 squares of the Lake. Who scores what in winter?",
            f"All three tie for first: {three_way[0]} each, {sum(three_way)} points in all, and nobody is second "
            f"(IV. Winter 5)."),
        Exercise(
            "Oak and Birch tie for second on a trail behind Maple. What does each earn, in summer and in winter?",
            f"Summer: Maple {tie2[0][0]}, Oak and Birch {tie2[0][1]} each (Summer Scoring 2). Winter: Maple "
            f"{tie2[1][0]}, Oak and Birch {tie2[1][1]} each (IV. Winter 3)."),
        Exercise(
            "On a trail Maple has 6, Oak 2 and Birch 2. Should Oak add 4 more value to tie Maple?",
            f"Now Oak earns {join[1][1]} (a tie for second). Tying Maple at 6 makes Oak and Maple tie for first with "
            f"{join[0][1]} each, and Birch {join[0][2]}: Oak gains {join[0][1] - join[1][1]} and Maple loses "
            f"{join[1][0] - join[0][0]}."),
    ]


class Exercises(widgets.VBox):
    """Each exercise with a button that shows (and hides) its answer."""

    def __init__(self, items: Sequence[Exercise] | None = None):
        self.items = list(items or exercises())
        self.buttons: list[widgets.ToggleButton] = []
        self.answers: list[widgets.HTML] = []
        children = []
        for i, ex in enumerate(self.items, start=1):
            button = widgets.ToggleButton(description="Show answer", layout=widgets.Layout(width="150px"))
            answer = widgets.HTML(layout=widgets.Layout(display="none"))
            answer.value = f"<div style='background:#EEF6EE;padding:4px 8px;font-size:14px'>{html.escape(ex.answer)}</div>"
            safety.observe(button, lambda on, a=answer, b=button: self._toggle(on, a, b))
            self.buttons.append(button)
            self.answers.append(answer)
            children += [widgets.HTML(f"<p style='font-size:14px;margin:8px 0 2px'><b>{i}.</b> "
                                      f"{html.escape(ex.question)}</p>"), button, answer]
        super().__init__(children)
        self.add_class("bosk-exercises")

    @staticmethod
    def _toggle(on: bool, answer: widgets.HTML, button: widgets.ToggleButton) -> None:
        """Show or hide one answer."""
        answer.layout.display = "" if on else "none"
        button.description = "Hide answer" if on else "Show answer"


# ----------------------------------------------------------------------------------------- experiment


@dataclass
class CaseTally:
    """How often each case happened on summer trails and winter regions over some games, and every player's total."""

    players: int
    bots: str
    games: int = 0
    summer: Counter = field(default_factory=Counter)
    winter: Counter = field(default_factory=Counter)
    summer_totals: Counter = field(default_factory=Counter)  # one entry per player per trail (0 = not there)
    winter_totals: Counter = field(default_factory=Counter)  # one entry per player per region


def make_bots(kind: str, players: int, seed: int) -> list:
    """The bots of one experiment game, seeded."""
    if kind == "greedy":
        return [bosk.GreedyBot(random.Random(seed * 10 + p)) for p in range(players)]
    if kind == "mixed":  # one greedy bot, in a seat that rotates with the seed, among random bots
        bots = [core.RandomBot(random.Random(seed * 10 + p)) for p in range(players)]
        bots[seed % players] = bosk.GreedyBot(random.Random(seed))
        return bots
    return [core.RandomBot(random.Random(seed * 10 + p)) for p in range(players)]


def _count_rows(cases: Counter, totals: Counter, rows: Iterable[Sequence[int]]) -> None:
    """Add the case of each row, and each player's total on it, to the counters."""
    rows = [tuple(r) for r in rows]
    cases.update(case_counts(rows))
    totals.update(v for row in rows for v in row)


def tally_game(tally: CaseTally, seed: int) -> None:
    """Play one seeded game and count the case of every trail at summer and every region at winter."""
    game = bosk.new_game(tally.players)
    rng = random.Random(seed)
    bots = make_bots(tally.bots, tally.players, seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.phase is bosk.Phase.SUMMER:
            _count_rows(tally.summer, tally.summer_totals, (row.totals for row in bosk.summer_table(state)))
        if state.phase is bosk.Phase.WINTER:
            _count_rows(tally.winter, tally.winter_totals, (row.totals for row in bosk.winter_table(state)))
        state = core.step(state, bots, rng)
    tally.games += 1


def run_experiment(players: int, games: int, bots: str = "random", seed: int = 0,
                   progress: Callable[[int], None] | None = None) -> CaseTally:
    """Tally the tie cases over ``games`` seeded games (seeds seed .. seed+games-1)."""
    tally = CaseTally(players, bots)
    for k in range(games):
        tally_game(tally, seed + k)
        if progress is not None:
            progress(k + 1)
    return tally


def measured_distribution(totals: Counter) -> dict[int, Fraction]:
    """The measured chance of each total (value -> share of all player-trail or player-region entries)."""
    n = sum(totals.values())
    return {v: Fraction(c, n) for v, c in sorted(totals.items()) if c} if n else {0: Fraction(1)}


def independent_case_odds(players: int, dist: Mapping[int, Fraction]) -> dict[TieCase, Fraction]:
    """Exact chance of each case when every player's total is drawn independently from ``dist`` (a model)."""
    odds: dict[TieCase, Fraction] = {case: Fraction(0) for case in CASE_ORDER}
    values = list(dist)
    for combo in itertools.product(values, repeat=players):
        chance = Fraction(1)
        for v in combo:
            chance *= dist[v]
        odds[classify(combo)[0]] += chance
    return odds


def uniform_model(players: int) -> dict[TieCase, Fraction]:
    """The first model: every total equally likely from 0 to 4, independently."""
    return exact_case_odds(players, range(0, 5))


def share_html(counts: Counter, models: Mapping[str, Mapping[TieCase, Fraction]] | None = None) -> str:
    """Per case: count, share with its 95% Wilson interval, and (if given) each model's exact chance."""
    total = sum(counts.values())
    models = dict(models or {})
    rows = []
    for case in CASE_ORDER:
        k = counts.get(case, 0)
        cells = "".join(f"<td align=right>{percent_text(m[case])}</td>" for m in models.values())
        rows.append(f"<tr><td>{case.value}</td><td align=right>{k}</td><td align=right>{share(k, total).text()}</td>"
                    f"{cells}</tr>")
    head = "".join(f"<th>{html.escape(name)}</th>" for name in models)
    return (f"<table style='border-collapse:collapse;font-size:13px' cellpadding=3>"
            f"<tr style='border-bottom:1px solid #999'><th align=left>case</th><th>count</th>"
            f"<th>share (95% Wilson interval)</th>{head}</tr>{''.join(rows)}</table>")


def misses(counts: Counter, model: Mapping[TieCase, Fraction]) -> list[TieCase]:
    """The cases whose model chance lies outside the game share's 95% Wilson interval."""
    total = sum(counts.values())
    out = []
    for case in CASE_ORDER:
        low, high = share(counts.get(case, 0), total).low, share(counts.get(case, 0), total).high
        if not low <= float(model[case]) <= high:
            out.append(case)
    return out


def mean_gap(counts: Counter, model: Mapping[TieCase, Fraction]) -> Fraction:
    """The average distance, over the cases, between the game's share and the model's chance."""
    total = sum(counts.values())
    if not total:
        return Fraction(0)
    return sum((abs(Fraction(counts.get(c, 0), total) - model[c]) for c in CASE_ORDER), Fraction(0)) / len(CASE_ORDER)


def spread_text(totals: Counter) -> str:
    """'0 to 14, most often 0' for the measured totals."""
    seen = sorted(v for v, c in totals.items() if c)
    if not seen:
        return "none yet"
    common = max(seen, key=lambda v: totals[v])
    return f"{seen[0]} to {seen[-1]}, most often {common}"


MODEL_NAMES = ("model: measured totals", "model: uniform 0–4")


def models_for(players: int, totals: Counter) -> dict[str, dict[TieCase, Fraction]]:
    """The two models for one season: totals drawn from the measured distribution, and uniform 0-4."""
    return {MODEL_NAMES[0]: independent_case_odds(players, measured_distribution(totals)),
            MODEL_NAMES[1]: uniform_model(players)}


def model_html(tally: CaseTally) -> str:
    """What the two models assume, how often each misses the game's intervals, and what they leave out."""
    lines = []
    closer = True
    for season, counts, totals in (("summer trails", tally.summer, tally.summer_totals),
                                   ("winter regions", tally.winter, tally.winter_totals)):
        models = models_for(tally.players, totals)
        measured, uniform = (models[name] for name in MODEL_NAMES)
        gap_m, gap_u = mean_gap(counts, measured), mean_gap(counts, uniform)
        closer = closer and gap_m < gap_u
        lines.append(f"<li><b>{season}</b>: a player's total ran {spread_text(totals)}. On average over the "
                     f"{len(CASE_ORDER)} cases the uniform model is <b>{float(gap_u * 100):.1f}</b> points off the "
                     f"game's share and the measured model <b>{float(gap_m * 100):.1f}</b>; their chances lie "
                     f"outside the game's 95% interval in {len(misses(counts, uniform))} and "
                     f"{len(misses(counts, measured))} cases.</li>")
    top = max((v for v, c in tally.summer_totals.items() if c), default=0)
    range_words = ("So most of the uniform model's error is the distribution it assumes: real trail totals run up "
                   f"to {top}, not 4, and real totals are far from equally likely (totals spread over more values "
                   "tie less often). " if closer else
                   "Here the measured model is not closer in every season, so the assumed distribution of totals "
                   "is not the whole story. ")
    tactics = (" The gap that is left comes from those and from chance (the intervals show how much), not "
               "from tactics: random bots do not chase or dodge anyone." if tally.bots == "random" else
               " With a greedy bot at the table its choices are part of what is left, too.")
    return (
        "<h3 style='font-size:1em'>Two exact models to compare with</h3><p style='font-size:13px'>A model says how often each case would "
        "happen if every player's total on a trail (or squares in a region) were drawn <i>independently</i> "
        "from a fixed distribution; its chances are counted exactly over all outcomes. The <b>uniform</b> model "
        "draws each total from 0, 1, 2, 3, 4, all equally likely. The <b>measured</b> model draws from the real "
        "distribution of totals in these games (every player on every trail or region counted once).</p>"
        f"<ul style='font-size:13px'>{''.join(lines)}</ul>"
        f"<p style='font-size:13px'>{range_words}What the measured model still leaves out: the totals on one "
        "trail are not independent (players share its few spaces, so one player's big total leaves less room "
        "for the others), and trails differ from each other (crowded and empty trails, early and late summers "
        "are mixed into one distribution)."
        f"{tactics}</p>")


MAX_GAMES = 500
"""The most random-bot games one Run plays (well under a second)."""
MAX_GREEDY_GAMES = 100
"""The most games with a greedy bot one Run plays (a few seconds), so one visitor never hogs a shared server."""


class Experiment(widgets.VBox):
    """Run many games and count how often each tie case really happens; compare with two exact models."""

    def __init__(self, players: int = 3, games: int = 100, bots: str = "random"):
        self.players = widgets.ToggleButtons(options=[2, 3, 4], value=players, description="Players:",
                                             style={"button_width": "48px"})
        self.bots = widgets.ToggleButtons(options=[("random bots", "random"), ("1 greedy + random", "mixed")],
                                          value=bots, description="Played by:", style={"button_width": "130px"})
        self.games = widgets.BoundedIntText(value=games, min=10, max=MAX_GAMES, step=10, description="Games:",
                                            layout=widgets.Layout(width="200px"))
        self.run_button = styles.icon_button("Run", "play", button_style="primary")
        safety.on_click(self.run_button, self.run, report=self._report)
        self.progress = widgets.IntProgress(value=0, min=0, max=games, description="Played:",
                                            layout=widgets.Layout(width="330px"))
        self.summer = widgets.HTML()
        self.winter = widgets.HTML()
        self.model = widgets.HTML()
        self.tally: CaseTally | None = None
        super().__init__([self.players, self.bots, widgets.HBox([self.games, self.run_button]), self.progress,
                          widgets.HTML("<h3 style='font-size:1em'>Summer: every trail when summer is scored</h3>"), self.summer,
                          widgets.HTML("<h3 style='font-size:1em'>Winter: every region when winter is scored</h3>"), self.winter,
                          self.model, styles.stylesheet()])
        self.add_class("bosk-experiment")

    def _report(self, text: str) -> None:
        """Show a friendly failure sentence under the tables."""
        self.model.value = f"<p style='color:#D55E00'>{html.escape(text)}</p>"

    def run(self) -> CaseTally:
        """Play the games (showing progress) and show the counts beside both models."""
        cap = MAX_GREEDY_GAMES if self.bots.value != "random" else MAX_GAMES
        n = max(1, min(int(self.games.value), cap))
        if n != self.games.value:
            self.games.value = n
        self.run_button.disabled = True
        restart_progress(self.progress, n)
        try:
            every = max(1, n // 20)
            self.tally = run_experiment(self.players.value, n, self.bots.value,
                                        progress=lambda k: setattr(self.progress, "value", k) if k % every == 0
                                        or k == n else None)
        finally:
            self.run_button.disabled = False
        players = self.players.value
        self.summer.value = share_html(self.tally.summer, models_for(players, self.tally.summer_totals))
        self.winter.value = share_html(self.tally.winter, models_for(players, self.tally.winter_totals))
        self.model.value = model_html(self.tally)
        return self.tally


def tie_case_names() -> list[str]:
    """The case names in rulebook order (for the lesson text)."""
    return [c.value for c in CASE_ORDER if c is not TieCase.NOBODY]
