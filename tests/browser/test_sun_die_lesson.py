"""The Sun die lesson in a real Voila page, driven in Chromium: charts drawn, dice rolled, answers opened."""

from __future__ import annotations

import numpy as np
import pytest

import harness
from treegames.aspens.odds import gain_distribution
from treegames.ui import palette
from treegames.ui.aspens.lesson import SIMULATED_COLOUR, distribution_scene, shared_axes
from treegames.ui.scene import Polygons

WAIT_MS = harness.WAIT_MS

PATH = "aspens/sun-die-probability.ipynb"
CANVASES = 6  # forest explorer, 5-1-1 vs 3-3-1, shared vs separate dice, simulator

SIMULATOR_INDEX_JS = """
() => {
  const all = Array.from(document.querySelectorAll('canvas')).filter(c => c.width > 50 && c.height > 50);
  const mine = document.querySelector('.treegames-gain-simulator canvas');
  return all.indexOf(mine);
}
"""

COUNT_COLOUR_JS = """
([index, rgb, tolerance]) => {
  const all = Array.from(document.querySelectorAll('canvas')).filter(c => c.width > 50 && c.height > 50);
  const c = all[index];
  const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let n = 0;
  for (let i = 0; i < data.length; i += 4) {
    if (Math.abs(data[i] - rgb[0]) <= tolerance && Math.abs(data[i+1] - rgb[1]) <= tolerance
        && Math.abs(data[i+2] - rgb[2]) <= tolerance) n++;
  }
  return n;
}
"""


def near(rgba, colour, tolerance=24) -> bool:
    """True if a pixel is within ``tolerance`` of an RGB colour."""
    return all(abs(a - b) <= tolerance for a, b in zip(rgba[:3], palette.hex_to_rgb(colour), strict=False))


def colour_count(page, index: int, colour: str, tolerance: int = 30) -> int:
    """How many pixels of the index-th large canvas are close to a colour."""
    return page.evaluate(COUNT_COLOUR_JS, [index, list(palette.hex_to_rgb(colour)), tolerance])


def bar_middle(stacks, value, **kwargs) -> tuple[float, float]:
    """Canvas pixel in the middle of the exact bar for ``value`` in the scene the lesson draws."""
    scene = distribution_scene(gain_distribution(stacks), **kwargs)
    bars = next(op for op in scene.ops if isinstance(op, Polygons) and op.tags and op.tags[0][0] == "exact")
    corners = bars.points[bars.tags.index(("exact", value))]
    return tuple(np.mean(corners, axis=0))


def save_whole_page(page, name: str) -> None:
    """Screenshot the whole lesson: Voila scrolls inside the page, so grow the viewport to fit it first."""
    tall = page.evaluate("() => Math.max(...Array.from(document.querySelectorAll('*')).map(e => e.scrollHeight))")
    page.set_viewport_size({"width": harness.VIEWPORT["width"], "height": min(int(tall) + 40, 16_000)})
    harness.wait_until_stable(page, CANVASES - 1)
    harness.screenshot(page, name)
    page.set_viewport_size(harness.VIEWPORT)


@pytest.fixture(scope="module")
def lesson(browser, voila):
    """One loaded lesson page shared by this module's tests (in order)."""
    with harness.loaded_dashboard(browser, voila, PATH) as (page, _first, errors):
        yield page, errors


def test_lesson_opens_with_every_chart_drawn(lesson):
    page, errors = lesson
    assert "The Sun die: a lesson in probability" in page.inner_text("body")
    for index in range(CANVASES):
        stats = harness.wait_for_drawing(page, index, min_inked=3000)
        assert stats["count"] == CANVASES + page.locator(".treegames-exp-join canvas").count()  # + the join box's
        assert stats["cssWidth"] == stats["width"], f"canvas {index} keeps its explicit pixel size"
    # The 5-1-1 panel (second canvas): its tall exact bar for "1 tree" is drawn in blue.
    axes = shared_axes(gain_distribution([5, 1, 1]), gain_distribution([3, 3, 1]))  # as the lesson draws it
    x, y = bar_middle([5, 1, 1], 1, title="Pine: all 4 on one space (5, 1, 1)", **axes)
    assert near(harness.pixel(page, x, y, index=1), palette.BLUE)
    # The production chart is there with the rulebook's printed 66% beside the exact 66.7%.
    body = page.inner_text("body")
    assert "66%" in body and "66.7%" in body and "2/3" in body
    assert errors == []
    harness.screenshot(page, "lesson-opened")
    save_whole_page(page, "lesson-full")


def test_rolling_100_times_draws_the_simulated_bars(lesson):
    page, errors = lesson
    index = page.evaluate(SIMULATOR_INDEX_JS)
    assert index >= 0, "the simulator's canvas is on the page"
    before = harness.wait_for_drawing(page, index, min_inked=3000)
    assert colour_count(page, index, SIMULATED_COLOUR) < 50, "no simulated bars before any roll"
    page.get_by_role("button", name="Roll 100 times").click()
    page.locator(".widget-html-content", has_text="Rolls so far: 100.").wait_for(timeout=WAIT_MS)
    after = harness.wait_for_drawing(page, index, differs_from=before["hash"])
    assert after["hash"] != before["hash"]
    assert colour_count(page, index, SIMULATED_COLOUR) > 500, "simulated bars appear in their own colour"
    page.get_by_role("button", name="Roll 100 times").click()
    page.locator(".widget-html-content", has_text="Rolls so far: 200.").wait_for(timeout=WAIT_MS)
    page.locator(".treegames-gain-simulator").scroll_into_view_if_needed()
    harness.wait_until_stable(page, index)
    page.locator(".treegames-gain-simulator").screenshot(path=str(harness.ARTIFACTS / "screenshots"
                                                                  / "lesson-simulator-200-rolls.png"))
    page.get_by_role("button", name="Reset").click()
    page.locator(".widget-html-content", has_text="Rolls so far: 0.").wait_for(timeout=WAIT_MS)
    harness.wait_until_stable(page, index)
    assert colour_count(page, index, SIMULATED_COLOUR) < 50, "reset clears the simulated bars"
    assert errors == []


def test_an_exercise_answer_opens_on_click(lesson):
    page, errors = lesson
    answer = page.locator(".treegames-answer").first
    assert not answer.get_by_text("66.7%").is_visible()
    answer.get_by_role("button", name="Show answer").click()
    answer.get_by_text("truncation").wait_for(state="visible", timeout=WAIT_MS)
    assert "2/3" in answer.inner_text() and "66.7%" in answer.inner_text()
    answer.scroll_into_view_if_needed()
    harness.screenshot(page, "lesson-answer-open")
    answer.get_by_role("button", name="Hide answer").click()
    answer.get_by_text("truncation").wait_for(state="hidden", timeout=WAIT_MS)
    assert errors == []


LATE_MODEL = """async () => {
  const manager = window.jupyterapp.widgetManager, id = 'treegames-late-model-' + Date.now();
  const model = {once() {}};
  const started = Date.now();
  setTimeout(() => {  // the browser is busy past the 2 s wait; the model registers at the end of that work
    while (Date.now() - started < 2300) { /* a restore's work, holding the page's only thread */ }
    manager.register_model(id, Promise.resolve(model));
  }, 1800);
  try {
    return (await manager.get_model(id)) === model ? 'found' : 'another model';
  } catch (error) {
    return 'refused: ' + error.message;
  } finally {
    delete manager._models[id];
  }
}"""
"""A view asking for a model not registered yet, in a page whose thread is busy when ipywidgets' 2-second wait ends:
the model registers during that work, so the wait's last timer fires after the deadline with the model there."""


def test_a_view_gets_a_model_that_registers_while_the_page_is_too_busy_to_look(lesson):
    page, errors = lesson
    assert page.evaluate(LATE_MODEL) == "found"
    assert page.evaluate("() => window.jupyterapp.widgetManager.get_model('no-such-model')"
                         ".then(() => 'found', (e) => 'refused: ' + e.message)") == "refused: widget model not found"
    assert errors == []
