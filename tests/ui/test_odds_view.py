"""The odds views without a browser: bar chart scenes, the production chart table, the roll simulator, helpers."""

from __future__ import annotations

import random
import re
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from treegames.aspens.data import Direction
from treegames.aspens.odds import (
    SUN_FACES,
    distribution_mean,
    distribution_variance,
    expected_gain,
    gain_distribution,
    gain_on_sun,
    independent_gain_distribution,
    production_probability,
    variance_gain,
    wind_valid_probability,
)
from treegames.ui import palette
from treegames.ui.aspens import lesson
from treegames.ui.aspens.lesson import (
    Answer,
    DistributionPanel,
    ForestExplorer,
    GainSimulator,
    HeightExplorer,
    WindExplorer,
    distribution_scene,
    fraction_text,
    parse_stacks,
    percent_text,
    production_table_html,
    shared_axes,
)
from treegames.ui.canvas import capture_messages
from treegames.ui.scene import Polygons, Segments

stacks_strategy = st.lists(st.integers(min_value=0, max_value=9), min_size=0, max_size=8)


def bars(scene, kind: str) -> dict[int, np.ndarray]:
    """The corners of each bar of one kind ('exact' or 'simulated') by value."""
    out = {}
    for op in scene.ops:
        if isinstance(op, Polygons):
            for tag, corners in zip(op.tags, op.points, strict=False):
                if isinstance(tag, tuple) and tag[0] == kind:
                    out[tag[1]] = corners
    return out


def bar_height(corners: np.ndarray) -> float:
    """Pixel height of a bar."""
    return float(corners[:, 1].max() - corners[:, 1].min())


def bar_op(scene, kind: str) -> Polygons:
    """The polygon layer holding the bars of one kind."""
    return next(op for op in scene.ops if isinstance(op, Polygons) and op.tags and op.tags[0][0] == kind)


def rows_of(table: str) -> dict[str, str]:
    """Each table row's HTML by its data-key."""
    return dict(re.findall(r'<tr data-key="([^"]+)"([^>]*>.*?)</tr>', table))


# ---------------------------------------------------------------- distribution_scene


@pytest.mark.parametrize("stacks", [[4, 3, 2], [5, 1, 1], [3, 3, 1], [7, 6, 2], [2]])
def test_exact_bar_heights_are_proportional_to_the_exact_chances(stacks):
    dist = gain_distribution(stacks)
    scene = distribution_scene(dist)
    drawn = bars(scene, "exact")
    assert set(drawn) == set(dist)
    ratios = {bar_height(drawn[v]) / float(p) for v, p in dist.items()}
    assert max(ratios) - min(ratios) < 1e-6
    assert len({float(c[:, 1].max()) for c in drawn.values()}) == 1, "all bars stand on the same axis"


def test_bars_are_labelled_with_exact_fractions_and_every_value_has_a_tick():
    scene = distribution_scene(gain_distribution([3, 3, 1]), title="Aspen 3, 3, 1")
    labels = scene.texts()
    assert "Aspen 3, 3, 1" in labels
    assert {"2/3", "1/3"} <= set(labels), "bar labels"
    assert {"0", "1", "2"} <= set(labels), "every gain from 0 to the largest, even impossible ones"
    assert {"1/6", "1/2"} <= set(labels), "probability ticks in sixths"
    assert "exact chance" in labels and not any(t.startswith("simulated") for t in labels)


def test_simulated_frequencies_are_drawn_beside_the_exact_bars_on_the_same_scale():
    dist = gain_distribution([3, 3, 1])  # 0: 2/3, 2: 1/3
    scene = distribution_scene(dist, simulated={0: 3, 2: 1})
    exact, sim = bars(scene, "exact"), bars(scene, "simulated")
    assert set(sim) == {0, 2}
    px_per_unit = bar_height(exact[0]) / (2 / 3)
    assert bar_height(sim[0]) == pytest.approx(0.75 * px_per_unit)
    assert bar_height(sim[2]) == pytest.approx(0.25 * px_per_unit)
    assert sim[0][:, 0].min() >= exact[0][:, 0].max() - 1e-9, "side by side, not hidden behind"
    assert tuple(bar_op(scene, "simulated").fill[0]) == palette.hex_to_rgb(lesson.SIMULATED_COLOUR)
    assert "simulated, 4 rolls" in scene.texts() and "75%" in scene.texts()


@pytest.mark.parametrize("simulated", [None, {}, {0: 0, 1: 0}])
def test_no_simulated_bars_before_any_roll(simulated):
    scene = distribution_scene(gain_distribution([4]), simulated=simulated)
    assert bars(scene, "simulated") == {}


def test_the_chart_colour_is_used_for_the_exact_bars():
    scene = distribution_scene(gain_distribution([4, 2]), colour=palette.ORANGE)
    assert {tuple(c) for c in bar_op(scene, "exact").fill} == {palette.hex_to_rgb(palette.ORANGE)}


def test_the_mean_is_marked_where_it_lies_between_the_values():
    dist = gain_distribution([5, 1, 1])  # mean 2/3
    scene = distribution_scene(dist)
    exact = bars(scene, "exact")
    centre = {v: float(c[:, 0].mean()) for v, c in exact.items()}
    dashes = [op for op in scene.ops if isinstance(op, Segments) and op.stroke == palette.INK and len(op.points) > 3]
    x = float(dashes[0].points[0, 0, 0])
    assert x == pytest.approx(centre[0] + (centre[1] - centre[0]) * 2 / 3)
    assert "mean 2/3 ≈ 0.667" in scene.texts()


def test_shared_axes_put_two_charts_on_the_same_scale():
    a, b = gain_distribution([5, 1, 1]), gain_distribution([3, 3, 1])
    axes = shared_axes(a, b)
    assert axes == {"max_value": 2, "max_probability": Fraction(2, 3)}
    left, right = distribution_scene(a, **axes), distribution_scene(b, **axes)
    assert "2" in left.texts(), "the 5-1-1 chart shows a slot for 2 trees too"
    assert bar_height(bars(left, "exact")[1]) == pytest.approx(bar_height(bars(right, "exact")[0]))


@settings(max_examples=60, deadline=None)
@given(stacks=stacks_strategy, width=st.integers(260, 700), height=st.integers(200, 420),
       rolls=st.dictionaries(st.integers(0, 8), st.integers(0, 50), max_size=5))
def test_every_shape_fits_inside_the_canvas(stacks, width, height, rolls):
    scene = distribution_scene(gain_distribution(stacks), simulated=rolls, width=width, height=height)
    assert (scene.width, scene.height) == (width, height)
    for op in scene.ops:
        if isinstance(op, Polygons | Segments):
            assert op.points[..., 0].min() >= 0 and op.points[..., 0].max() <= width
            assert op.points[..., 1].min() >= 0 and op.points[..., 1].max() <= height


# ---------------------------------------------------------------- production_table_html


def test_production_table_shows_printed_percent_beside_exact_fraction():
    rows = rows_of(production_table_html())
    assert list(rows) == ["0-1", "2", "3", "4", "5", "6", "7", "8+"]
    assert all(f">{cell}<" in rows["2"] for cell in ("16%", "1/6", "16.7%", "17%"))
    assert all(f">{cell}<" in rows["5"] for cell in ("66%", "2/3", "66.7%", "67%", "2, 3, 4, 5"))
    assert ">none<" in rows["0-1"] and ">0.0%<" in rows["0-1"]
    assert ">1<" in rows["8+"] and ">100.0%<" in rows["8+"]


def test_production_table_highlights_the_rows_for_the_given_heights():
    assert 'class="highlight"' not in production_table_html()
    rows = rows_of(production_table_html(highlight=[4, 1, 9, 4]))
    lit = {key for key, row in rows.items() if 'class="highlight"' in row}
    assert lit == {"4", "0-1", "8+"}


def test_percent_and_fraction_text_round_exactly():
    assert percent_text(Fraction(1, 6)) == "16.7%" and percent_text(Fraction(2, 3), 0) == "67%"
    assert percent_text(Fraction(1, 8), 0) == "13%", "halves round up"
    assert percent_text(Fraction(5, 6)) == "83.3%" and percent_text(Fraction(1)) == "100.0%"
    assert fraction_text(Fraction(4, 6)) == "2/3" and fraction_text(Fraction(6, 6)) == "1"


# ---------------------------------------------------------------- independent (counterfactual) dice


def test_independent_dice_for_4_3_2_keep_the_mean_and_lower_the_variance():
    separate = independent_gain_distribution([4, 3, 2])
    assert separate == {0: Fraction(5, 18), 1: Fraction(17, 36), 2: Fraction(2, 9), 3: Fraction(1, 36)}
    assert distribution_mean(separate) == expected_gain([4, 3, 2]) == 1
    assert distribution_variance(separate) == Fraction(11, 18) < variance_gain([4, 3, 2]) == Fraction(4, 3)


@pytest.mark.parametrize("height", range(0, 9))
def test_a_single_space_is_the_same_with_one_die_or_many(height):
    assert independent_gain_distribution([height]) == gain_distribution([height])


@settings(max_examples=80, deadline=None)
@given(stacks=stacks_strategy)
def test_shared_die_same_mean_never_less_variance_than_separate_dice(stacks):
    separate = independent_gain_distribution(stacks)
    assert sum(separate.values()) == 1
    assert distribution_mean(separate) == expected_gain(stacks)
    assert distribution_variance(separate) == sum(
        (production_probability(h) * (1 - production_probability(h)) for h in stacks), Fraction(0))
    assert variance_gain(stacks) >= distribution_variance(separate)


def test_distribution_moments_agree_with_the_engine():
    for stacks in ([4, 3, 2], [7, 5, 4, 3, 3, 2, 2], [1, 1]):
        dist = gain_distribution(stacks)
        assert distribution_mean(dist) == expected_gain(stacks)
        assert distribution_variance(dist) == variance_gain(stacks)


# ---------------------------------------------------------------- GainSimulator


def test_roll_100_times_button_rolls_100_and_redraws_once():
    sim = GainSimulator([4, 3, 2], random.Random(1))
    frames = sim.view.frames
    with capture_messages(sim.canvas) as sent:
        sim.roll_hundred.click()
    assert sum(sim.rolls.values()) == 100 == sim.total
    assert sim.view.frames == frames + 1 and len(sent) == 1, "100 rolls, one picture"
    assert set(sim.rolls) <= set(gain_distribution([4, 3, 2]))
    assert "Rolls so far: <b>100</b>" in sim.counter.value
    assert sim.progress.value == ""


def test_roll_once_button_adds_one_roll_and_the_simulated_bars_appear():
    sim = GainSimulator([4, 3, 2], random.Random(2))
    assert bars(sim.scene(), "simulated") == {}
    sim.roll_once.click()
    assert sim.total == 1 and sim.last_sun in SUN_FACES
    scene = sim.scene()
    assert set(bars(scene, "simulated")) == set(sim.rolls)
    assert "simulated, 1 roll" in scene.texts()
    assert f"Sun <b>{sim.last_sun}</b>" in sim.counter.value


def test_reset_button_forgets_the_rolls():
    sim = GainSimulator([4, 3, 2], random.Random(3))
    sim.roll(100)
    frames = sim.view.frames
    sim.reset_button.click()
    assert sim.rolls == Counter() and sim.total == 0 and sim.view.frames == frames + 1
    assert bars(sim.scene(), "simulated") == {}
    assert "Rolls so far: <b>0</b>" in sim.counter.value


def test_set_stacks_starts_over_for_a_new_position():
    sim = GainSimulator([4, 3, 2], random.Random(4))
    sim.roll(100)
    sim.set_stacks([5, 1, 1])
    assert sim.stacks == [5, 1, 1] and sim.total == 0 and sim.dist == gain_distribution([5, 1, 1])
    assert set(bars(sim.scene(), "exact")) == {0, 1}
    assert "5, 1, 1" in sim.heading.value and "2/3" in sim.exact.value
    sim.roll(100)
    assert set(sim.rolls) <= {0, 1}


def test_rolls_follow_the_injected_rng_and_the_engine_faces_only():
    a, b = GainSimulator([4, 3, 2], random.Random(9)), GainSimulator([4, 3, 2], random.Random(9))
    a.roll(100)
    for _ in range(10):
        b.roll(10)
    assert a.rolls == b.rolls
    twin = random.Random(9)
    expected = Counter(gain_on_sun([4, 3, 2], twin.choice(SUN_FACES)) for _ in range(100))
    assert a.rolls == expected


def test_rolling_never_touches_the_global_random_module():
    random.seed(12345)
    before = random.getstate()
    GainSimulator([6, 4, 2], random.Random(5)).roll(100)
    assert random.getstate() == before


def test_the_frequencies_converge_to_the_exact_chances():
    sim = GainSimulator([4, 3, 2], random.Random(11))
    sim.roll(6000)
    for value, p in sim.dist.items():
        assert abs(sim.rolls[value] / sim.total - float(p)) < 0.03  # ~5 standard errors at n=6000


def test_a_slow_batch_shows_a_progress_note_then_clears_it(monkeypatch):
    sim = GainSimulator([4, 3, 2], random.Random(6))
    clock = iter(range(0, 10_000))
    monkeypatch.setattr(lesson.time, "monotonic", lambda: float(next(clock)))  # every call "takes" 1 s
    notes = []
    sim.progress.observe(lambda change: notes.append(change["new"]), names="value")
    sim.roll(100)
    assert any("rolling" in n for n in notes) and sim.progress.value == ""
    assert sim.total == 100


def test_simulator_canvas_has_an_explicit_pixel_size():
    sim = GainSimulator([4], random.Random(0), title="One space")
    assert sim.canvas.layout.width == f"{sim.canvas.width}px"
    assert sim.canvas.layout.height == f"{sim.canvas.height}px"
    assert "One space" in sim.scene().texts()


def test_bad_stacks_raise_and_leave_the_simulator_as_it_was():
    sim = GainSimulator([4, 3], random.Random(0))
    sim.roll(10)
    before = (list(sim.stacks), Counter(sim.rolls))
    with pytest.raises(ValueError):
        sim.set_stacks([3, -1])
    assert (sim.stacks, sim.rolls) == before


# ---------------------------------------------------------------- the other widgets and helpers


def test_parse_stacks_reads_commas_and_spaces_and_rejects_nonsense():
    assert parse_stacks("4, 3, 2") == [4, 3, 2] and parse_stacks(" 5 1  1 ") == [5, 1, 1]
    for bad in ("", "4, x", "-1", "2.5", ", ,"):
        with pytest.raises(ValueError):
            parse_stacks(bad)


def test_forest_explorer_updates_and_explains_bad_text():
    explorer = ForestExplorer("4, 3, 2")
    assert explorer.panel.dist == gain_distribution([4, 3, 2])
    explorer.box.value = "5, 1, 1"
    assert explorer.panel.dist == gain_distribution([5, 1, 1]) and explorer.message.value == ""
    assert 'data-key="5" class="highlight"' in explorer.table.value
    explorer.box.value = "5, lots"
    assert "not a whole number" in explorer.message.value
    assert explorer.panel.dist == gain_distribution([5, 1, 1]), "bad text keeps the last good chart"


def test_height_explorer_shows_the_engine_numbers():
    explorer = HeightExplorer(value=4)
    assert "1/2" in explorer.result.value and "1/4" in explorer.result.value
    explorer.slider.value = 6
    assert "5/6" in explorer.result.value and "5/36" in explorer.result.value


def test_distribution_panel_can_show_the_independent_counterfactual():
    panel = DistributionPanel([4, 3, 2], independent=True)
    assert panel.dist == independent_gain_distribution([4, 3, 2])
    assert "11/18" in panel.summary.value


@pytest.mark.parametrize("direction", list(Direction))
def test_one_direction_is_valid_on_half_the_wind_rolls(direction):
    assert wind_valid_probability([direction]) == Fraction(1, 2)


def test_wind_chances_for_several_neighbours():
    assert wind_valid_probability([]) == 0
    assert wind_valid_probability([Direction.E, Direction.W]) == 1
    assert wind_valid_probability([Direction.E, Direction.NE]) == Fraction(2, 3)
    assert wind_valid_probability([Direction.E, Direction.NW]) == Fraction(5, 6)
    assert wind_valid_probability(list(Direction)) == 1


def test_wind_explorer_reacts_to_the_picked_directions():
    explorer = WindExplorer([Direction.NE])
    assert "1/2" in explorer.result.value and 'class="highlight"' in explorer.table.value
    explorer.picker.value = (Direction.E, Direction.W)
    assert "<b>1</b>" in explorer.result.value


def test_answer_opens_and_closes_on_click():
    answer = Answer("The chance is <b>2/3</b>.")
    assert not answer.is_open and answer.button.description == "Show answer"
    answer.button.click()
    assert answer.is_open and answer.button.description == "Hide answer" and "2/3" in answer.body.value
    answer.button.click()
    assert not answer.is_open


def test_narrow_slots_drop_the_simulated_percent_labels_but_keep_the_bars():
    dist = gain_distribution([7, 5, 4, 3, 3, 2, 2])
    rolls = {k: 5 for k in dist}
    narrow = distribution_scene(dist, rolls, width=300)
    assert set(bars(narrow, "simulated")) == set(dist)
    assert not any(t.endswith("%") for t in narrow.texts())
    wide = distribution_scene(dist, rolls, width=600)
    assert any(t.endswith("%") for t in wide.texts())


def test_a_text_box_takes_at_most_a_dozen_spaces():
    assert len(parse_stacks(", ".join(["2"] * lesson.MAX_SPACES))) == lesson.MAX_SPACES
    with pytest.raises(ValueError, match="at most"):
        parse_stacks(", ".join(["2"] * (lesson.MAX_SPACES + 1)))


# ---------------------------------------------------------------- sentences that follow the numbers (issue 18)


def test_the_rounding_note_says_4_and_7_have_no_decimals_and_3_and_6_round_down():
    text = lesson.rounding_note_html()
    assert "For 4 and 7 trees the exact percentage is a whole number" in text
    assert "For 3 and 6 trees they agree because the decimals are below one half" in text
    assert "For 2 and 5 trees the decimals are one half or more" in text


def test_the_variance_of_5_1_1_is_the_sum_of_its_spaces_variances_and_3_3_1_is_not():
    assert variance_gain([5, 1, 1]) == sum(variance_gain([h]) for h in (5, 1, 1))
    assert variance_gain([3, 3, 1]) > sum(variance_gain([h]) for h in (3, 3, 1))
    text = lesson.variance_sum_html([[5, 1, 1], [3, 3, 1]])
    five, three = text.split("</li>")[:2]
    assert "the same" in five and "more than the sum" in three


@pytest.mark.parametrize("a,b", [(7, 3), (1, 4), (0, 0), (9, 9), (4, 7)])
def test_correlation_with_a_space_that_never_varies_is_undefined(a, b):
    from treegames.aspens.odds import production_correlation

    assert production_correlation(a, b) is None
    assert lesson.correlation_text(a, b).startswith("undefined")


@pytest.mark.parametrize("h", [2, 3, 4, 5, 6])
def test_two_stacks_of_the_same_height_2_to_6_have_correlation_one(h):
    from treegames.aspens.odds import production_correlation

    assert production_correlation(h, h) == pytest.approx(1.0)


def test_the_reach_table_shows_every_pattern_with_its_wind_faces():
    text = lesson.reach_table_html()
    assert text.count("<tr data-key=") == 12
    assert "E, NE (side by side)" in text and "4 of 6" in text and "E, W (opposite)" in text


def test_the_reach_census_counts_a_seeded_game_and_says_how_many_are_above_one_half():
    text = lesson.reach_census_html(seed=1)
    assert "<b>55</b> of them" in text and "293 empty neighbours" in text


def test_the_sun_die_lesson_drops_the_false_sentences():
    import json

    lesson = json.load(open("notebooks/aspens/sun-die-probability.ipynb"))
    text = "".join("".join(c["source"]) for c in lesson["cells"])
    assert "For 3, 4 and 6 trees both methods agree" not in text and "rounding_note_html()" in text
    assert "The variance is *not* the sum" not in text and "variance_sum_html(" in text
    assert "are perfectly correlated" not in text and "correlation_text(a, b)" in text
