"""Reduced motion: a browser that prefers reduced motion gets 'Less motion' ticked, and auto-play then steps slowly.

Playwright's ``reduced_motion`` context option sets the CSS media feature ``prefers-reduced-motion`` the way a
system setting does.  The page script of ``ui/motion.py`` ticks the kit's *Less motion* checkbox, the kernel hears
it, and auto-play waits at least ``REDUCED_STEP_SECONDS`` a step.  The same two-bot game at the same speed box is
watched for the same few seconds with and without the preference: only the step count differs.
"""

from __future__ import annotations

import re

import pytest

import harness
from treegames.ui.motion import REDUCED_STEP_SECONDS

PATH = "aspens/play.ipynb"
WATCH_MS = 3000
"""How long auto-play runs in each browser."""


def press(page, name: str) -> None:
    """Press a widget button by its label."""
    page.get_by_role("button", name=re.compile(rf"^\W*{re.escape(name)}\s*$")).click()


def steps_played_in(page, ms: int) -> int:
    """Start auto-play between two bots, pause after ``ms``, and count the moments in the event log."""
    page.get_by_role("tab", name="New game").click()
    page.locator(".widget-dropdown", has_text="Aspen").locator("select").first.select_option(label="Bot (greedy)")  # New game tab
    press(page, "Start new game")
    page.get_by_role("tab", name="Event log").click()
    log = page.get_by_label("Event log")
    before = log.locator("option").count()
    press(page, "Auto-play")
    page.wait_for_timeout(ms)
    press(page, "Pause")
    page.get_by_role("button", name=re.compile(r"^\W*Auto-play\s*$")).wait_for(timeout=20_000)
    return log.locator("option").count() - before


@pytest.mark.browser
@pytest.mark.slow
def test_reduced_motion_ticks_less_motion_and_slows_auto_play(browser, voila):
    seen = {}
    for preference in ("no-preference", "reduce"):
        context = browser.new_context(viewport={"width": 1280, "height": 1000}, reduced_motion=preference)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda err, errors=errors: errors.append(str(err)))
        try:
            harness.open_dashboard(page, voila, PATH)
            box = page.get_by_role("checkbox", name="Less motion")
            if preference == "reduce":
                page.wait_for_function("() => document.querySelector('.treegames-motion input').checked",
                                       timeout=20_000)
            page.wait_for_timeout(500)
            ticked = box.is_checked()
            steps = steps_played_in(page, WATCH_MS)
            harness.screenshot(page, f"a11y-motion-{preference}")
        finally:
            context.close()
        assert errors == []
        seen[preference] = (ticked, steps)
    assert seen["no-preference"][0] is False and seen["reduce"][0] is True, seen
    most_reduced = int(WATCH_MS / 1000 / REDUCED_STEP_SECONDS) + 2  # one at once, one per wait, one while pausing
    assert seen["reduce"][1] <= most_reduced, f"reduced motion: {seen['reduce'][1]} steps in {WATCH_MS} ms"
    assert seen["no-preference"][1] > 2 * most_reduced, f"10 steps/s: only {seen['no-preference'][1]} steps"
