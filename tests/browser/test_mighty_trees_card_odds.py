"""The Mighty Trees card-odds lesson in a real Voila page, driven in Chromium."""

from __future__ import annotations

import contextlib

import pytest

import harness
from treegames.ui import palette

WAIT_MS = harness.WAIT_MS

PATH = "mighty_trees/card-odds.ipynb"

pytestmark = pytest.mark.browser

COUNT_COLOUR_IN_JS = """
([selector, rgb, tolerance]) => {
  const c = document.querySelector(selector);
  const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let n = 0;
  for (let i = 0; i < data.length; i += 4) {
    if (Math.abs(data[i] - rgb[0]) <= tolerance && Math.abs(data[i+1] - rgb[1]) <= tolerance
        && Math.abs(data[i+2] - rgb[2]) <= tolerance) n++;
  }
  return n;
}
"""

SIMULATOR = ".treegames-mt-simulator canvas"

LAID_OUT_JS = """
(size) => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() =>
  done(window.innerWidth === size.width && window.innerHeight === size.height))))
"""
"""Whether the window has the given size once two frames have been drawn at it (resize handlers have run)."""


def save_whole_page(page, name: str, width: int) -> None:
    """Screenshot the whole lesson: Voila scrolls inside the page, so grow the viewport to fit it first."""
    tall = page.evaluate("() => Math.max(...Array.from(document.querySelectorAll('*')).map(e => e.scrollHeight))")
    size = {"width": width, "height": min(int(tall) + 40, 16_000)}
    page.set_viewport_size(size)
    harness.wait_until(lambda: page.evaluate(LAID_OUT_JS, size), pause=harness.on_page(page),
                       what=f"the page laid out at {size}")
    harness.screenshot(page, name)


def red_pixels(page) -> int:
    """Pixels of the simulated-bar colour on the simulator's canvas."""
    return page.evaluate(COUNT_COLOUR_IN_JS, [SIMULATOR, list(palette.hex_to_rgb(palette.VERMILLION)), 20])


def test_lesson_draws_every_chart_and_the_simulator_moves(voila, browser):
    with harness.loaded_dashboard(browser, voila, PATH) as (page, first, errors):
        assert first["inked"] > 20000  # the card table
        count = first["count"]
        assert count >= 4  # table, simulator, disaster curve, reshuffle curve
        lesson = page.evaluate("""() => Array.from(document.querySelectorAll('canvas')).filter(c => c.width > 50)
            .map((c, i) => c.closest('.treegames-exp-join') ? -1 : i).filter(i => i >= 0)""")
        assert len(lesson) >= 4  # the class-experiment box's own small chart (on a class server) is not the lesson's
        for index in lesson:
            harness.wait_for_drawing(page, index=index, min_inked=3000)
        page.wait_for_selector(SIMULATOR, timeout=WAIT_MS)
        before = red_pixels(page)
        assert before > 0  # 200 Regroups were simulated when the page ran
        page.get_by_role("button", name="Reset").click()
        page.wait_for_function(
            f"() => {{ const c = document.querySelector('{SIMULATOR}'); return c !== null; }}", timeout=WAIT_MS)
        with contextlib.suppress(AssertionError):  # the assertion below says what was seen
            harness.wait_until(lambda: red_pixels(page) == 0, step=0.1, pause=harness.on_page(page),
                               what="the simulated bars cleared")
        assert red_pixels(page) == 0
        page.get_by_role("button", name="Draw 1000×").click()
        with contextlib.suppress(AssertionError):
            harness.wait_until(lambda: red_pixels(page) > before / 2, step=0.1, pause=harness.on_page(page),
                               what="the simulated bars drawn again")
        assert red_pixels(page) > before / 2
        assert "Simulated Regroups: 1000" in page.inner_text(".treegames-mt-simulator")
        answers = page.locator(".treegames-answer")
        assert answers.count() == 4
        assert not answers.first.locator(".widget-html").is_visible()
        answers.first.get_by_role("button").click()
        answers.first.locator(".widget-html").wait_for(state="visible", timeout=WAIT_MS)
        assert answers.first.locator(".widget-html").is_visible()
        assert "D/N" in answers.first.inner_text()
        save_whole_page(page, "mighty-trees-card-odds", harness.VIEWPORT["width"])
        assert "Traceback" not in page.content()
        assert not errors


