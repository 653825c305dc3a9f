"""The SPRT lesson's pieces without a browser: the chart draws what the test says, the view runs and cancels."""

from __future__ import annotations

import harness
from treegames.lab import Decision, Sprt
from treegames.lab.sequential import Tracker, simulate
from treegames.ui import palette
from treegames.ui.lab.sequential import SprtMatchView, llr_scene, pairs_table_html, simulation_html
from treegames.ui.scene import Segments


def line(scene) -> Segments | None:
    """The LLR line: the scene's blue segments, if any."""
    return next((op for op in scene.ops if isinstance(op, Segments) and op.stroke == palette.BLUE), None)


def test_before_any_pair_the_chart_has_its_bounds_and_no_line():
    scene = llr_scene(Tracker(Sprt(), 2, 2, 500).status())
    assert line(scene) is None
    strokes = {op.stroke for op in scene.ops if isinstance(op, Segments)}
    assert {palette.BLUISH_GREEN, palette.VERMILLION} <= strokes
    assert scene.numbers.rows == ()


def test_the_line_has_one_segment_per_pair_and_its_table_ends_at_the_last_llr():
    tracker = Tracker(Sprt(), 2, 2, 500)
    for outcome in (1, 0.5, 1, 0.75, 1, 1, 0.5, 1):
        tracker.add(outcome)
    status = tracker.status()
    scene = llr_scene(status)
    assert len(line(scene).points) == status.blocks
    last_label, last_cells = scene.numbers.rows[-1]
    assert last_label == f"{status.games} games" and last_cells[-1] == status.path[-1]
    upper = line(scene).points[:, :, 1].min()
    assert upper >= 30, "the line stays inside the chart"


def test_the_pairs_table_and_the_simulation_table_show_the_lab_counts():
    tracker = Tracker(Sprt(), 2, 2, 500)
    for outcome in (1, 1, 0.5, 0):
        tracker.add(outcome)
    text = pairs_table_html(tracker.status(), tracker.histogram, "greedy")
    assert "greedy's pairs by outcome (4 pairs)" in text
    assert text.count("<td") == 15
    null, good = simulate(Sprt(), 0.5, experiments=20, seed=1), simulate(Sprt(), 0.55, experiments=20, seed=2)
    table = simulation_html(null, good)
    assert f"{null.h1} of 20" in table and f"one look after {null.fixed_size} games" in table


def test_the_view_opens_with_a_decided_match_and_cancels_a_long_one():
    view = SprtMatchView(game="bosk", candidate="greedy", other="random", seed=3, run_now=True, workers=1)
    status = view.status_now()
    assert status.decision is Decision.H1
    assert "H1 accepted: greedy is better than random" in view.status.value
    assert not view.start_button.disabled and view.cancel_button.disabled
    view.candidate.value = "random"
    view.start(workers=1)
    view.cancel()
    harness.wait_until(lambda: not view.start_button.disabled, what="Play usable after Cancel")
    assert view.match is not None and not view.match.is_running


def test_a_new_game_in_the_menu_offers_its_own_bots_and_keeps_the_chosen_ones():
    view = SprtMatchView(game="aspens", candidate="greedy", other="random")
    view.game.value = "mighty_trees"
    assert view.candidate.value == "greedy" and view.other.value == "random"
    assert "greedy" in view.candidate.options
