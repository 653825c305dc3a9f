"""The lab's views without a browser: the scenes say what the numbers say, the widget runs, cancels and saves."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from urllib.parse import unquote

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import harness
from treegames.lab import Results, RunState, TournamentSpec, binomial_pmf, binomial_test, play_games, slots
from treegames.lab.tournament import _game_module
from treegames.ui import palette
from treegames.ui.lab import charts
from treegames.ui.lab.lesson import (
    BinomialExplorer,
    IntervalLadder,
    binomial_scene,
    ladder_scene,
    ties_table_html,
)
from treegames.ui.lab.table import findings_html, p_is, p_text
from treegames.ui.lab.widget import TournamentLab
from treegames.ui.scene import Polygons, Segments


def bars(scene, colour: str) -> Polygons:
    """The scene's bar operation filled with ``colour``."""
    rgb = np.array(palette.hex_to_rgb(colour), dtype=np.uint8)
    return next(op for op in scene.ops if isinstance(op, Polygons) and len(op.points) and (op.fill[0] == rgb).all())


@pytest.fixture(scope="module")
def results() -> Results:
    spec = TournamentSpec("aspens", ("greedy", "random"), games=12, seed=3)
    return Results(spec, play_games(spec, 0, 12))


def test_share_bars_are_as_long_as_the_shares(results):
    scene = charts.shares_scene(results.rows(), players=2)
    wins = bars(scene, charts.OUTCOME_COLOURS["win"])
    full = charts.RIGHT - charts.LEFT
    for (label, kind), corners in zip(wins.tags, wins.points, strict=False):
        tally = next(t for _g, t in results.rows() if t.label == label)
        assert kind == "win"
        assert corners[1][0] - corners[0][0] == pytest.approx(max(tally.win.value * full, 1))
    assert ("greedy", "win") in wins.tags and ("first mover", "win") in wins.tags
    whiskers = next(op for op in scene.ops if isinstance(op, Segments) and op.stroke == charts.WHISKER_INK)
    assert len(whiskers.points) == 3 * 3 * len(results.rows()), "a whisker with two caps on every bar"
    assert "fair share 50%" in scene.texts()
    assert scene.height == charts.shares_height(len(results.rows()))


def test_whiskers_span_the_wilson_interval(results):
    scene = charts.shares_scene(results.rows(), players=2)
    whiskers = next(op for op in scene.ops if isinstance(op, Segments) and op.stroke == charts.WHISKER_INK)
    greedy = results.by_bot["greedy"].win
    line = whiskers.points[0]
    assert line[0][0] == pytest.approx(charts._x(greedy.low)) and line[1][0] == pytest.approx(charts._x(greedy.high))


def test_an_empty_chart_says_so():
    empty = Results(TournamentSpec("bosk", ("random",) * 3, 5), [])
    assert "No games played yet." in charts.shares_scene(empty.rows(), 3).texts()
    assert "fair share 33%" in charts.shares_scene(empty.rows(), 3).texts()
    assert "No games played yet." in charts.margins_scene([], "the first mover").texts()


@given(st.lists(st.integers(-150, 150), min_size=1, max_size=300))
def test_margin_bins_cover_every_margin_once(margins):
    bins = charts.margin_bins(margins)
    assert sum(c for _, _, c in bins) == len(margins)
    assert (0, 0, margins.count(0)) in bins
    for (_lo1, hi1, _), (lo2, _hi2, _) in zip(bins, bins[1:], strict=False):
        assert hi1 + 1 == lo2, "bins are contiguous"
    assert bins[0][0] <= min(margins) and bins[-1][1] >= max(margins)


def test_margin_histogram_colours_ahead_and_behind(results):
    margins = results.margins("greedy")
    scene = charts.margins_scene(margins, "bot greedy")
    ahead = bars(scene, palette.BLUISH_GREEN)
    assert all(lo > 0 for _, lo, _ in ahead.tags)
    assert f"ahead (green, right) {sum(m > 0 for m in margins)}" in " ".join(scene.texts())


def test_binomial_scene_marks_exactly_the_p_value():
    n, k = 20, 14
    scene = binomial_scene(n, k)
    red = bars(scene, palette.VERMILLION)
    total = sum(binomial_pmf(i, n) for _, i in red.tags)
    assert float(total) == pytest.approx(binomial_test(k, n))
    assert {i for _, i in red.tags} == set(range(0, 7)) | set(range(14, 21))


def test_ladder_scene_draws_one_interval_per_rung():
    from treegames.ui.lab.lesson import LadderRow

    scene = ladder_scene([LadderRow(10, 7, 10), LadderRow(100, 55, 99)])
    whiskers = next(op for op in scene.ops if isinstance(op, Segments) and op.stroke == palette.BLUE)
    assert len(whiskers.points) == 6
    assert any("100 games: 55.6%" in t for t in scene.texts())


def test_ties_table_counts_three_ways():
    from treegames.lab import Tally

    text = ties_table_html(Tally("first mover", wins=520, ties=46, losses=434))
    assert "520 of 1000" in text and "520 of 954" in text and "520 + 46/2 of 1000" in text
    assert "54.3%" in text  # (520 + 23) / 1000 = 54.3%
    assert "three possible results" in text and "not independent coin tosses" not in text


def test_the_widget_runs_a_first_tournament_and_draws_it():
    lab = TournamentLab(games=10, seed=2, run_now=True)
    assert lab.run.state is RunState.FINISHED and lab.results.games == 10
    assert "10 of 10 games" in lab.status.value and "finished" in lab.status.value
    assert "first mover" in lab.table.value and "Paired comparison" in lab.findings.value
    assert lab.shares.frames >= 2 and lab.margins.frames >= 2
    assert lab.exports.value.count("treegames-download") == 2
    assert not lab.run_button.disabled and lab.cancel_button.disabled


@pytest.mark.parametrize(("free", "wording"), [(0, "200 of 200 games · in this kernel ·"),
                                              (1, "200 of 200 games · 1 worker process ·"),
                                              (2, "200 of 200 games · 2 worker processes ·")])
def test_the_status_names_the_worker_processes_in_words_of_the_right_number(free, wording, tmp_path, monkeypatch):
    """However many worker slots are free, the status says what the run used: 'process' for one, 'processes' for more."""
    monkeypatch.setattr(slots, "SLOT_DIR", tmp_path / "slots")  # slots of this test's own, not the machine's
    monkeypatch.setattr(slots, "slot_count", lambda: 2)  # a two-core machine, whatever this one has
    held = slots.acquire(2 - free)  # as if other visitors' tournaments held the rest
    try:
        lab = TournamentLab(game="bosk", bots=("random", "random"), games=200, seed=1, workers=2)
        run = lab.start()
        assert run.wait(harness.DEADLINE) and run.state is RunState.FINISHED
        assert run.uses_processes == (free > 0) and run.workers == max(1, free) and len(run.process_ids()) == free
        harness.wait_until(lambda: "finished" in lab.status.value, what="the status of the finished run")
        assert wording in lab.status.value, lab.status.value
        assert "1 worker processes" not in lab.status.value
    finally:
        slots.release(held)


def test_the_form_follows_the_game():
    lab = TournamentLab(games=10)
    lab.game.value = "bosk"
    assert lab.players.options == (2, 3, 4)
    lab.players.value = 4
    assert [w.description for w in lab.seats_box.children] == ["Maple", "Oak", "Birch", "Ginkgo"]
    spec = lab.spec()
    assert spec.game == "bosk" and spec.players == 4 and spec.games == 10
    lab.game.value = "mighty_trees"
    assert [w.description for w in lab.seats_box.children] == ["P1", "P2"]


def test_cancel_in_the_widget_keeps_partial_results():
    lab = TournamentLab(game="aspens", bots=("random", "random"), games=5000, workers=2)
    run = lab.start()
    harness.wait_until(lambda: run.done, what="the first games played")
    lab._on_cancel()
    assert run.state is RunState.CANCELLED
    assert "cancelled" in lab.status.value and 0 < lab.results.games < 5000
    assert not lab.run_button.disabled
    assert lab.progress.bar_style == "warning"


def test_saved_game_link_holds_the_engine_save():
    lab = TournamentLab(game="bosk", bots=("greedy", "random"), games=10, seed=4, run_now=True)
    lab.game_number.value = 4
    lab._on_save()
    href = re.search(r"href='data:application/json;charset=utf-8,([^']+)'", lab.saved.value).group(1)
    text = unquote(href)
    saved = json.loads(text)
    state = _game_module("bosk").new_game(**saved["options"]).state_from_json(text)
    assert state.is_terminal() and tuple(state.scores()) == lab.results.records[3].scores
    assert "Save / Open" in lab.saved.value and "../bosk/play.ipynb" in lab.saved.value


def test_games_table_pages():
    lab = TournamentLab(game="bosk", bots=("random", "random"), games=20, seed=1, run_now=True)
    assert ">1<" in lab.games_table.value and ">11<" not in lab.games_table.value
    assert lab.prev_page.disabled and not lab.next_page.disabled
    lab._turn_page(+1)
    assert ">11<" in lab.games_table.value and lab.next_page.disabled


def test_interval_ladder_and_binomial_explorer():
    ladder = IntervalLadder("bosk", now=(10, 40), later=(80,))
    assert [r.games for r in ladder.rows] == [10, 40]
    assert "40 games" in ladder.table.value
    ladder.play(80, wait=True)
    harness.wait_until(lambda: 80 in ladder.results, what="the 80 games' rung added")
    assert [r.games for r in ladder.rows] == [10, 40, 80]
    explorer = BinomialExplorer(games=10, wins=9)
    assert "0.0215" in explorer.table.value
    explorer.n.value = 5
    assert explorer.k.max == 5


def test_fair_share_for_more_players():
    spec = TournamentSpec("bosk", ("random",) * 4, games=8, rotate=False)
    res = Results(spec, play_games(spec, 0, 8))
    wins, single = res.first_mover_decisive()
    assert single == 8 and wins == sum(r.winners == (r.first,) for r in res.records)
    text = findings_html(res)
    assert "a fair share</i> (25%)" in text
    assert p_is(binomial_test(wins, 8, Fraction(1, 4))) in text
    assert p_is(0.00001) == "p < 0.0001" and p_is(0.02148) == "p = 0.0215" and p_text(0.5) == "0.5000"


def test_whole_number_options_get_a_number_box_not_a_huge_dropdown():
    import ipywidgets as widgets

    lab = TournamentLab(game="aspens", games=10)
    boxes = {w.option_name: w for w in lab.options_box.children}
    assert isinstance(boxes["trees_per_player"], widgets.BoundedIntText)
    assert boxes["trees_per_player"].max == 10_000 and boxes["trees_per_player"].value == 120
    assert isinstance(boxes["setup"], widgets.Dropdown) and len(boxes["setup"].options) == 6
    boxes["setup"].value = 3
    assert lab.spec().options["setup"] == 3


def test_the_histogram_shows_scores_too(results):
    lab = TournamentLab(game="aspens", bots=("greedy", "random"), games=12, seed=3, run_now=True)
    lab.margin_view.value = "greedy"
    lab.histogram_kind.value = True
    scene = lab.margins.redraw()
    scores = results.scores("greedy")
    assert scores == [r.scores[r.seats.index("greedy")] for r in results.records]
    assert "Score of bot greedy" in scene.texts()
    assert any(t.startswith("12 games · mean") for t in scene.texts())
    drawn = sum(len(op.points) for op in scene.ops if isinstance(op, Polygons))
    assert drawn == len(charts.margin_bins(scores))


def test_every_callback_is_guarded():
    from treegames.ui import safety

    assert safety.unguarded_callbacks(TournamentLab(games=10)) == []
    assert safety.unguarded_callbacks(IntervalLadder("bosk", now=(10,), later=(20,))) == []
    assert safety.unguarded_callbacks(BinomialExplorer()) == []
    from treegames.ui.lab.lesson import RuleComparison

    assert safety.unguarded_callbacks(RuleComparison("mighty_trees", ("greedy", "greedy"), "capture_at_round_end",
                                                     games=4, more=4, workers=1)) == []


def test_a_failing_callback_shows_the_friendly_sentence(monkeypatch):
    from treegames.ui import safety

    lab = TournamentLab(games=10)
    monkeypatch.setattr(lab, "_turn_page", lambda step: 1 / 0)
    lab.next_page.disabled = False
    lab.next_page.click()
    assert safety.FRIENDLY in lab.status.value


@pytest.mark.parametrize(("game", "bots"), [("aspens", ("greedy", "random")), ("bosk", ("random", "greedy", "random")),
                                            ("mighty_trees", ("greedy", "random"))])
def test_a_lab_game_opens_on_its_play_page(game, bots):
    from treegames.lab import play_game, saved_game
    from treegames.ui.aspens.play import AspensPlay
    from treegames.ui.bosk.play import BoskPlay
    from treegames.ui.mighty_trees.play import MightyTreesPlay

    dashboard = {"aspens": AspensPlay, "bosk": BoskPlay, "mighty_trees": MightyTreesPlay}[game]
    spec = TournamentSpec(game, bots, games=6, seed=5)
    page = dashboard(players=len(bots)) if game != "aspens" else dashboard()
    page.open_saved(saved_game(spec, 5))
    record = play_game(spec, 5)
    assert page.state.is_terminal()
    assert tuple(page.state.scores()) == record.scores and tuple(page.state.winners()) == record.winners
    assert len(page.timeline.states) == record.actions + 1, "every step of the game can be stepped through"
