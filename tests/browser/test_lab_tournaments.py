"""The strategy lab in a real Voila page, driven in Chromium: a tournament runs with its progress bar moving,
ends with the table and charts drawn, and Cancel stops the kernel's worker processes."""

from __future__ import annotations

import re

import psutil
import pytest

import harness
from treegames.ui import palette

WAIT_MS = harness.WAIT_MS

PATH = "lab/tournaments.ipynb"
LESSON = "lab/first-player-advantage.ipynb"

PROGRESS_JS = """
() => {
  const bar = document.querySelector('.treegames-lab .treegames-lab-progress .progress-bar');
  return bar ? parseFloat(bar.style.width || '0') : -1;
}
"""

STATUS_JS = "() => (document.querySelector('.treegames-lab .treegames-lab-status') || {}).innerText || ''"

WORKERS = r"(1 worker process|2 worker processes|in this kernel)"
"""How the status names the workers a run really used: the lab's machine-wide worker slots (one per core) may
be held by other programs, and then a run gets fewer than the two it asks for, or none (it plays in its kernel)."""

LAID_OUT_JS = """
(size) => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() =>
  done(window.innerWidth === size.width && window.innerHeight === size.height))))
"""
"""Whether the window has the given size once two frames have been drawn at it (resize handlers have run)."""

COUNT_COLOUR_JS = """
([selector, rgb, tolerance]) => {
  const c = document.querySelector(selector);
  if (!c) return -1;
  const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let n = 0;
  for (let i = 0; i < data.length; i += 4) {
    if (Math.abs(data[i] - rgb[0]) <= tolerance && Math.abs(data[i+1] - rgb[1]) <= tolerance
        && Math.abs(data[i+2] - rgb[2]) <= tolerance) n++;
  }
  return n;
}
"""


def colour_count(page, selector: str, colour: str, tolerance: int = 20) -> int:
    """Pixels of the canvas matched by ``selector`` close to ``colour``."""
    return page.evaluate(COUNT_COLOUR_JS, [selector, list(palette.hex_to_rgb(colour)), tolerance])


def choose(page, label: str, value: str) -> None:
    """Pick ``value`` in the lab's dropdown labelled ``label``."""
    select = page.locator(f".treegames-lab .widget-dropdown:has(label:text-is('{label}')) select").first
    select.select_option(label=value)


def workers_of(server) -> list[psutil.Process]:
    """Tournament worker processes under the server's kernels."""
    found = []
    for child in server.children():
        try:
            if "treegames.lab.worker" in " ".join(child.cmdline()):
                found.append(child)
        except psutil.Error:
            pass
    return found


def worker_count(words: str) -> int:
    """The number of worker processes a status names ('2 worker processes'; 'in this kernel' is none)."""
    return 0 if words == "in this kernel" else int(words.split()[0])


def whole_page_screenshot(page, name: str) -> None:
    """Screenshot the whole page: Voila scrolls inside the page, so grow the viewport to fit first."""
    size = page.viewport_size
    tall = page.evaluate("() => Math.max(...Array.from(document.querySelectorAll('*')).map(e => e.scrollHeight))")
    grown = {"width": size["width"], "height": min(int(tall) + 40, 16_000)}
    page.set_viewport_size(grown)
    harness.wait_until(lambda: page.evaluate(LAID_OUT_JS, grown), pause=harness.on_page(page),
                       what=f"the page laid out at {grown}")
    harness.screenshot(page, name)
    page.set_viewport_size(size)


def wait_status(page, pattern: str, timeout: float = harness.DEADLINE) -> str:
    """Wait until the lab's status line matches the regular expression ``pattern`` (plain words match themselves); the status."""
    seen = [""]

    def says() -> str | None:
        seen.append(page.evaluate(STATUS_JS))
        return seen[-1] if re.search(pattern, seen[-1]) else None

    try:
        return harness.wait_until(says, timeout, step=0.1, pause=harness.on_page(page),
                                  what=f"a status matching {pattern!r}")
    except AssertionError as late:
        raise AssertionError(f"{late}; the status said: {seen[-1]!r}") from None


@pytest.fixture(scope="module")
def lab_page(browser, voila):
    """The tournaments dashboard, loaded once for this module's tests (in order)."""
    with harness.loaded_dashboard(browser, voila, PATH) as (page, _first, errors):
        page.wait_for_selector(".treegames-lab .treegames-lab-results table", timeout=WAIT_MS)
        yield page, errors


def test_the_page_opens_with_a_first_small_tournament_drawn(lab_page):
    page, errors = lab_page
    body = page.inner_text("body")
    assert "The strategy lab: bot tournaments" in body
    assert "20 of 20 games" in page.evaluate(STATUS_JS)
    assert colour_count(page, "canvas.treegames-lab-shares", palette.BLUISH_GREEN) > 300, "win bars drawn"
    findings = page.inner_text(".treegames-lab")
    assert "every pair was split" in findings and "p = 1.0000" not in findings, "no confounded first-mover test"
    assert "false alarms" in body and "look once, after the planned 500 games" in body, "the peeking demonstration"
    assert errors == []


def test_a_tournament_runs_with_its_progress_bar_moving_and_ends_with_the_table(lab_page, voila):
    page, errors = lab_page
    choose(page, "Aspen", "random")
    choose(page, "Pine", "random")
    choose(page, "Games", "2000")
    before = colour_count(page, "canvas.treegames-lab-shares", palette.SKY_BLUE)
    numbers = page.locator(".treegames-lab .treegames-chart-numbers-box").first  # the shares chart's table
    numbers.get_by_role("button", name=re.compile("^Show the numbers: ")).click()
    numbers.locator("table").wait_for(state="visible", timeout=WAIT_MS)
    page.get_by_role("button", name="Run").click()
    wait_status(page, "of 2000 games")
    seen = []
    most_workers = [0]

    def finished() -> bool:
        seen.append(page.evaluate(PROGRESS_JS))  # the bar, sampled on the way to the end
        most_workers[0] = max(most_workers[0], len(workers_of(voila)))
        return "finished" in page.evaluate(STATUS_JS)

    harness.wait_until(finished, step=0.06, pause=harness.on_page(page), what="the tournament finished")
    status = wait_status(page, "finished")
    named = re.search(rf"2000 of 2000 games · {WORKERS} · [\d.]+ s · finished", status)
    assert named, status
    assert most_workers[0] <= worker_count(named.group(1)), f"{status}, yet {most_workers[0]} worker processes seen"
    middle = [v for v in seen if 0 < v < 100]
    assert len(set(middle)) >= 2, f"the bar moved through several values on the way: {sorted(set(seen))}"
    assert seen == sorted(seen), "the bar only moves forward"
    page.wait_for_function(f"() => ({PROGRESS_JS})() >= 99.9", timeout=WAIT_MS)
    table = page.inner_text(".treegames-lab .treegames-lab-results")
    assert "first mover" in table and "2000" in table
    harness.wait_until_stable(page, 0)
    assert colour_count(page, "canvas.treegames-lab-shares", palette.SKY_BLUE) != before, "chart redrawn (ties bars)"
    assert colour_count(page, "canvas.treegames-lab-margins", palette.BLUISH_GREEN) > 200, "margin histogram drawn"
    assert numbers.locator("table").is_visible(), "the table opened before the run stayed open through it"
    assert "2,000" in numbers.locator("table").inner_text(), "and it shows the finished run's games"
    assert numbers.get_by_role("button").inner_text().startswith("Hide the numbers: ")
    assert page.locator(".treegames-lab a.treegames-download").count() == 2, "CSV links offered"
    assert workers_of(voila) == [], "the workers exited when the tournament ended"
    whole_page_screenshot(page, "lab-tournament-finished")
    assert errors == []


def test_cancel_stops_the_workers_and_keeps_partial_results(lab_page, voila):
    page, errors = lab_page
    choose(page, "Aspen", "greedy")
    choose(page, "Games", "10000")
    page.get_by_role("button", name="Run").click()
    wait_status(page, "of 10000 games")
    # once games are counted the run has taken its worker slots: the status names the workers it really has
    status = wait_status(page, r"(?<!\d)[1-9]\d* of 10000 games")
    named = re.search(rf"of 10000 games · {WORKERS} ·", status)
    assert named, f"the run names the worker processes it uses: {status!r}"
    workers = worker_count(named.group(1))
    harness.wait_until(lambda: len(workers_of(voila)) == workers, pause=harness.on_page(page),
                       what=f"{workers} worker process(es) started")
    assert len(workers_of(voila)) == workers, "the worker processes the status names are playing"
    page.wait_for_function("() => { const b = document.querySelector('.treegames-lab .treegames-lab-progress "
                           ".progress-bar'); return b && parseFloat(b.style.width) > 0; }", timeout=WAIT_MS)
    page.get_by_role("button", name="Cancel").click()
    status = wait_status(page, "cancelled")
    done = int(status.split(" of ")[0])
    assert 0 < done < 10_000
    assert workers_of(voila) == [], "no worker process is left after Cancel"
    assert f"{done}" in page.inner_text(".treegames-lab .treegames-lab-results")
    whole_page_screenshot(page, "lab-tournament-cancelled")
    assert errors == []


def test_saved_game_of_a_row_is_offered_as_a_file(lab_page):
    page, _errors = lab_page
    page.get_by_role("button", name="Saved game").click()
    link = page.locator(".treegames-lab a.treegames-download[href^='data:application/json']")
    link.wait_for(timeout=WAIT_MS)
    assert link.get_attribute("download").endswith("game1.json")


def test_the_lesson_opens_with_its_ladder_and_answers(browser, voila):
    with harness.loaded_dashboard(browser, voila, LESSON) as (page, _first, errors):
        assert "Is moving first an advantage?" in page.inner_text("body")
        page.wait_for_selector("canvas.treegames-lab-ladder", timeout=WAIT_MS)
        assert colour_count(page, "canvas.treegames-lab-ladder", palette.ORANGE) > 20, "two rungs drawn"
        page.get_by_role("button", name="Play 1000 games").click()
        page.wait_for_function("() => document.body.innerText.includes('1000 games played')", timeout=WAIT_MS)
        assert "1000 games:" in page.inner_text("body"), "the third rung's row in the tests table"
        rules = "canvas.treegames-lab-rules"
        assert colour_count(page, rules, palette.ORANGE) > 20, "both rules' shares drawn"
        assert "two-proportion test" in page.inner_text("body")
        table = page.locator(".treegames-lab-rule-table")
        assert table.inner_text().count("\t300\t") == 2, "300 games per rule at first"
        # Play more shows its progress; Cancel stops it and the games played so far are counted
        comparison = page.locator(".treegames-lab-rule-comparison")
        comparison.get_by_role("button", name="Play 2000 more games").click()
        page.wait_for_function("() => { const w = parseFloat(document.querySelector("
                               "'.treegames-lab-rule-comparison .progress-bar').style.width);"
                               " return w > 0 && w < 100; }", timeout=WAIT_MS)  # full at first, from the 300
        comparison.get_by_role("button", name="Cancel").click()
        comparison.get_by_text("Stopped").wait_for(timeout=WAIT_MS)
        counted = [int(row.split("\t")[1]) for row in table.inner_text().strip().split("\n")[1:]]
        assert counted[0] > 300 and counted[1] >= 300, counted
        again = comparison.get_by_role("button", name="Play 2000 more games")
        harness.wait_until(again.is_enabled, pause=harness.on_page(page), what="Play 2000 more games usable again")
        assert colour_count(page, rules, palette.ORANGE) > 20
        page.get_by_role("button", name="Show answer").first.click()
        page.wait_for_function("() => document.querySelector('.treegames-answer').innerText.includes('has chance')",
                               timeout=WAIT_MS)
        assert "Hide answer" in page.inner_text(".treegames-answer >> nth=0")
        whole_page_screenshot(page, "lab-first-player-lesson")
        assert errors == []


SPRT_LESSON = "lab/is-the-new-bot-better.ipynb"
SPRT_STATUS_JS = "() => (document.querySelector('.treegames-lab-sprt .treegames-lab-status') || {}).innerText || ''"


def test_the_sprt_lesson_draws_its_walk_to_a_bound_and_a_new_match_by_keyboard_decides_again(browser, voila):
    with harness.loaded_dashboard(browser, voila, SPRT_LESSON) as (page, _first, errors):
        assert "Is the new bot better? Peeking done right" in page.inner_text("body")
        chart = "canvas.treegames-lab-sprt-chart"
        page.wait_for_selector(chart, timeout=WAIT_MS)
        harness.wait_until(lambda: colour_count(page, chart, palette.BLUE) > 150, pause=harness.on_page(page),
                           what="the LLR line drawn")
        assert colour_count(page, chart, palette.BLUISH_GREEN) > 100, "the upper bound, dashed"
        assert colour_count(page, chart, palette.VERMILLION) > 100, "the lower bound, dashed"
        first = page.evaluate(SPRT_STATUS_JS)
        assert "H1 accepted: greedy is better than random" in first, first
        assert "won both" in page.inner_text(".treegames-lab-sprt"), "the pairs by outcome"
        body = page.inner_text("body")
        assert "Three ways of testing" in page.inner_html("body") and "peeking" in body
        before = page.evaluate(f"() => document.querySelector('{chart}').toDataURL()")
        # equal bots: the old bot becomes GreedyBot too, and a new match is started from the keyboard
        page.locator(".treegames-lab-sprt .widget-dropdown:has(label:text-is('Old bot')) select").select_option(
            label="greedy")
        page.get_by_role("button", name="Play until the test decides").focus()
        page.keyboard.press("Enter")
        harness.wait_until(lambda: "H0 accepted" in page.evaluate(SPRT_STATUS_JS), pause=harness.on_page(page),
                           what="the second match decided")
        words = page.evaluate(SPRT_STATUS_JS)
        assert "greedy is not shown better than greedy" in words, words
        harness.wait_until(lambda: page.evaluate(f"() => document.querySelector('{chart}').toDataURL()") != before,
                           pause=harness.on_page(page), what="the chart redrawn for the new match")
        again = page.get_by_role("button", name="Play until the test decides")
        harness.wait_until(again.is_enabled, pause=harness.on_page(page), what="Play usable again")
        whole_page_screenshot(page, "lab-sprt-lesson")
        page.set_viewport_size({"width": 420, "height": 900})
        whole_page_screenshot(page, "lab-sprt-lesson-phone")
        assert errors == []
