"""Every chart's table of numbers: the same numbers the chart draws, as a real HTML table, rewritten on each redraw."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from html.parser import HTMLParser

import pytest

from treegames.aspens.odds import gain_distribution, independent_gain_distribution
from treegames.lab import TournamentSpec, run_tournament, stats
from treegames.mighty_trees import odds
from treegames.ui import palette
from treegames.ui.aspens.lesson import DistributionPanel, GainSimulator, distribution_scene
from treegames.ui.canvas import SceneCanvas
from treegames.ui.chart_numbers import (
    NO_VALUE,
    ChartNumbersError,
    Column,
    Kind,
    cell_text,
    chart_numbers,
    numbers_html,
)
from treegames.ui.lab import charts
from treegames.ui.lab.lesson import BinomialExplorer, LadderRow, binomial_scene, ladder_scene, rule_scene
from treegames.ui.mighty_trees.lesson import DrawSimulator, curve_scene, first_regroup, hits_chart_scene


class TableReader(HTMLParser):
    """Reads the tables out of HTML as a screen reader meets them: caption, header cells with scope, cells."""

    def __init__(self):
        super().__init__()
        self.captions: list[str] = []
        self.rows: list[list[tuple[str, str | None, str]]] = []  # (tag, scope, text) per cell
        self._cell: list | None = None
        self._in_caption = False

    def handle_starttag(self, tag, attrs):
        if tag == "caption":
            self._in_caption = True
            self.captions.append("")
        elif tag == "tr":
            self.rows.append([])
        elif tag in ("th", "td"):
            self._cell = [tag, dict(attrs).get("scope"), ""]

    def handle_endtag(self, tag):
        if tag == "caption":
            self._in_caption = False
        elif tag in ("th", "td") and self._cell is not None:
            self.rows[-1].append(tuple(self._cell))
            self._cell = None

    def handle_data(self, data):
        if self._in_caption:
            self.captions[-1] += data
        elif self._cell is not None:
            self._cell[2] += data


def read(html_text: str) -> TableReader:
    reader = TableReader()
    reader.feed(html_text)
    return reader


def tagged_bars(scene, kind: str) -> dict:
    """Tag value -> bar height in pixels, for bars tagged (kind, value)."""
    out = {}
    for op in scene.ops:
        for tag, corners in zip(getattr(op, "tags", ()), getattr(op, "points", ()), strict=False):
            if isinstance(tag, tuple) and tag[0] == kind:
                out[tag[1]] = float(corners[:, 1].max() - corners[:, 1].min())
    return out


def assert_proportional(heights: dict, values: dict) -> None:
    """Bar heights are the table's values times one scale."""
    scale = next(h / float(values[k]) for k, h in heights.items() if values[k])
    for k, h in heights.items():
        assert h == pytest.approx(scale * float(values[k]), abs=1e-6), k


# ------------------------------------------------------------------ the table itself


def test_the_table_is_a_captioned_html_table_with_column_and_row_headers():
    numbers = chart_numbers("Trees gained", "trees", [Column("chance", Kind.CHANCE), Column("rolls", Kind.COUNT)],
                            [(0, [Fraction(1, 2), 3]), (1, [Fraction(1, 2), 1200])])
    page = read(numbers_html(numbers))
    assert page.captions == ["Trees gained"]
    head, *body = page.rows
    assert head == [("th", "col", "trees"), ("th", "col", "chance"), ("th", "col", "rolls")]
    assert body == [[("th", "row", "0"), ("td", None, "1/2 (50.0%)"), ("td", None, "3")],
                    [("th", "row", "1"), ("td", None, "1/2 (50.0%)"), ("td", None, "1,200")]]


def test_a_row_with_the_wrong_number_of_cells_is_refused():
    with pytest.raises(ChartNumbersError, match="row '0' has 1 cells for 2 columns"):
        chart_numbers("x", "y", [Column("a"), Column("b")], [(0, [1])])


def test_cells_are_written_by_their_column_kind():
    assert cell_text(Fraction(1, 6), Kind.CHANCE) == "1/6 (16.7%)"
    assert cell_text(0.25, Kind.SHARE) == "25.0%"
    assert cell_text(None, Kind.SHARE) == NO_VALUE
    assert cell_text(1234, Kind.COUNT) == "1,234"
    assert cell_text("yes", Kind.TEXT) == "yes"
    assert numbers_html(None) == ""


# ------------------------------------------------------------------ each chart's numbers are its data


def test_the_sun_die_chart_table_holds_each_exact_bar_and_the_simulated_counts():
    dist = gain_distribution([4, 3, 2])
    rolls = {0: 40, 1: 13, 2: 30, 3: 17}
    scene = distribution_scene(dist, rolls)
    table = scene.numbers
    assert {int(k): v for k, v in table.column("exact chance").items()} == {v: dist.get(v, 0) for v in
                                                                          sorted(set(dist) | set(rolls))}
    assert {int(k): v for k, v in table.column("rolls").items()} == rolls
    assert {int(k): v for k, v in table.column("share of rolls").items()} == {k: Fraction(n, 100)
                                                                             for k, n in rolls.items()}
    assert_proportional(tagged_bars(scene, "exact"), {v: dist[v] for v in dist})


def test_the_separate_dice_panel_tables_its_own_counterfactual_distribution():
    panel = DistributionPanel([4, 3, 2], independent=True, colour=palette.ORANGE)
    shown = {int(k): v for k, v in panel.view.last_scene.numbers.column("exact chance").items()}
    assert shown == independent_gain_distribution([4, 3, 2])
    assert panel.children[1] is panel.view.numbers  # right after the canvas


def test_the_simulators_table_follows_every_roll_and_reset():
    sim = GainSimulator([4, 3, 2], random.Random(7))
    assert "<th scope='col'>rolls</th>" not in sim.view.numbers.body.value
    sim.roll(100)
    counts = {int(k): v for k, v in sim.view.last_scene.numbers.column("rolls").items()}
    assert counts == {k: sim.rolls.get(k, 0) for k in counts} and sum(counts.values()) == 100
    body = read(sim.view.numbers.body.value).rows[1:]
    assert [int(row[2][2].replace(",", "")) for row in body] == [sim.rolls.get(int(row[0][2]), 0) for row in body]
    sim.reset()
    assert "<th scope='col'>rolls</th>" not in sim.view.numbers.body.value


def test_the_card_draw_chart_table_holds_exact_with_replacement_and_simulated():
    state = first_regroup(seed=1, players=3, draws=2)
    t, w = state.conditions()
    fits = odds.fits_habitat(t, w)
    sim = DrawSimulator(state, fits, "fitting trees drawn", rng=random.Random(3))
    sim.run(50)
    table = sim.view.last_scene.numbers
    assert {int(k): v for k, v in table.column("exact chance (without replacement)").items()} == {
        k: sim.exact.get(k, 0) for k in range(len(table.rows))}
    assert {int(k): v for k, v in table.column("with replacement").items()} == {
        k: sim.replaced.get(k, 0) for k in range(len(table.rows))}
    assert sum(table.column("simulated Regroups").values()) == 50
    assert_proportional(tagged_bars(sim.view.last_scene, "exact"), {k: sim.exact.get(k, 0) for k in
                                                                    range(len(table.rows))})
    assert sim.view.numbers.body.value and sim.view.numbers in sim.children


def test_the_curve_table_holds_every_point_of_every_line():
    low = [Fraction(1, 4), Fraction(1, 2), Fraction(3, 4)]
    high = [Fraction(1, 3), Fraction(5, 9)]
    scene = curve_scene([("without", palette.BLUE, low), ("with", palette.ORANGE, high)], title="t", mark=2)
    table = scene.numbers
    assert list(table.column("without").values()) == low
    assert list(table.column("with").values()) == [*high, None]
    assert "reshuffled after 2 cards" in table.note
    shown = hits_chart_scene({0: Fraction(1, 3), 1: Fraction(2, 3)}).numbers
    assert list(shown.column("exact chance (without replacement)").values()) == [Fraction(1, 3), Fraction(2, 3)]


def test_the_lab_charts_tables_hold_the_shares_intervals_and_margin_counts():
    results = run_tournament(TournamentSpec("aspens", ("greedy", "random"), games=12, seed=3), workers=1)
    rows = results.rows()
    table = charts.shares_scene(rows, results.spec.players).numbers
    for group, tally in rows:
        name = tally.label if group == "first mover" else f"{group} {tally.label}"
        for kind, s in (("win", tally.win), ("tie", tally.tie), ("loss", tally.loss)):
            _games, value, low, high = dict(table.rows)[f"{name}: {kind}"]
            if not tally.every_seat:
                assert (value, low, high) == (s.value, s.low, s.high)
    margins = results.margins("first")
    counted = charts.margins_scene(margins, "the first mover").numbers.column("games")
    assert list(counted.values()) == [c for _, _, c in charts.margin_bins(margins)]
    assert sum(counted.values()) == len(margins)


def test_the_binomial_table_holds_every_bar_and_its_tail_sums_to_the_exact_p():
    scene = binomial_scene(20, 14)
    table = scene.numbers
    chances = {int(k): v for k, v in table.column("exact chance").items()}
    assert chances == {i: stats.binomial_pmf(i, 20) for i in range(21)} and sum(chances.values()) == 1
    tail = sum(chances[int(k)] for k, yes in table.column("as unlikely as 14 or less").items() if yes == "yes")
    assert float(tail) == pytest.approx(stats.binomial_test(14, 20))
    explorer = BinomialExplorer(games=10, wins=7)
    explorer.n.value = 12
    assert read(explorer.canvas.numbers.body.value).rows[-1][0][2] == "12"  # the table followed the slider


def test_the_interval_charts_tables_hold_each_share_and_interval():
    rung = LadderRow(100, 47, 90)
    row = dict(ladder_scene([rung]).numbers.rows)["100 games"]
    assert row == (47, 90, rung.share.value, rung.share.low, rung.share.high)
    s = stats.share(30, 55)
    assert dict(rule_scene([("printed rule", s)]).numbers.rows)["printed rule"] == (30, 55, s.value, s.low, s.high)


def test_a_canvas_without_numbers_hides_its_section_and_a_chart_names_its_canvas_and_button():
    board = SceneCanvas(40, 40, lambda: distribution_scene({0: Fraction(1)}))
    assert "<caption>Trees gained on one Sun roll</caption>" in board.numbers.body.value
    assert board.numbers.layout.display is None and not board.numbers.is_open
    assert board.numbers.toggle.description == "Show the numbers: Trees gained on one Sun roll"
    assert board.numbers.toggle.tooltip == "Show or hide the numbers: Trees gained on one Sun roll"
    assert board.canvas.tooltip.startswith("Chart: Trees gained on one Sun roll")
    from treegames.ui.scene import Scene

    plain = SceneCanvas(40, 40, lambda: Scene(40, 40))
    assert plain.numbers.body.value == "" and plain.canvas.tooltip in ("", None)
    assert plain.numbers.layout.display == "none"


def test_an_opened_table_stays_open_while_the_chart_changes_and_shows_the_new_numbers():
    sim = GainSimulator([4, 3, 2], random.Random(7))
    section = sim.view.numbers
    assert section.body.layout.display == "none"
    section.toggle.value = True  # the reader presses "Show the numbers"
    assert section.body.layout.display is None and section.toggle.description.startswith("Hide the numbers: ")
    sim.roll(100)
    assert section.is_open and section.body.layout.display is None
    assert section.toggle.description.startswith("Hide the numbers: ")
    shown = {int(row[0][2]): int(row[2][2].replace(",", "")) for row in read(section.body.value).rows[1:]}
    assert shown == {k: sim.rolls.get(k, 0) for k in shown} and sum(shown.values()) == 100
    section.toggle.value = False
    assert section.body.layout.display == "none" and section.toggle.description.startswith("Show the numbers: ")


def test_counter_input_is_accepted_like_a_dict():
    scene = distribution_scene(gain_distribution([2]), Counter({0: 2, 1: 1}))
    assert scene.numbers.column("rolls") == {"0": 2, "1": 1}
