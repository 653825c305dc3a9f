"""Reduced motion: a browser that prefers reduced motion gets 'Less motion' ticked, and auto-play then steps slowly.

Playwright's ``reduced_motion`` context option sets the CSS media feature ``prefers-reduced-motion`` the way a
system setting does.  The page script of ``ui/motion.py`` ticks the kit's *Less motion* checkbox, the kernel hears
it, and auto-play waits at least ``REDUCED_STEP_SECONDS`` a step.  The same two-bot game at the same speed box is
watched with and without the preference.  Neither check depends on how fast the machine is: with the preference,
no more steps than reduced motion allows are played while it is watched (a slow machine plays fewer); without it,
the steps that reduced motion would spread over many seconds are all played sooner (however long it takes the
machine, the page is not held to the reduced pace).
"""

from __future__ import annotations

import contextlib
import re
import time

import pytest

import harness
from treegames.ui.motion import REDUCED_STEP_SECONDS

WAIT_MS = harness.WAIT_MS

PATH = "aspens/play.ipynb"
WATCH_MS = 3000
"""How long auto-play is watched with reduced motion, from its first step."""

MOST_REDUCED = int(WATCH_MS / 1000 / REDUCED_STEP_SECONDS) + 2
"""The most steps reduced motion plays while watched: one at once, one per wait, one while pausing."""


def press(page, name: str) -> None:
    """Press a widget button by its label."""
    page.get_by_role("button", name=re.compile(rf"^\W*{re.escape(name)}\s*$")).click()


def less_motion(page, reduced: bool) -> bool:
    """Whether 'Less motion' is ticked once the page script has had its say (for a reduced-motion browser it
    is waited for), after the box has stayed as the preference set it for a moment."""
    harness.open_settings(page)
    box = page.get_by_role("checkbox", name="Less motion")
    if reduced:
        page.wait_for_function("() => document.querySelector('.treegames-motion input').checked", timeout=WAIT_MS)
    with contextlib.suppress(AssertionError):  # the test asserts what the box shows
        harness.holds_for(lambda: box.is_checked() == reduced, 0.5, step=0.1, pause=harness.on_page(page),
                          what="Less motion as the preference set it")
    return box.is_checked()


def steps_played(page, reduced: bool) -> tuple[int, float | None]:
    """Start auto-play between two bots and count the moments in the event log; then pause.

    With ``reduced``: the steps played while auto-play is watched for WATCH_MS from its first step. Without:
    the steps and the seconds it took to play more than twice MOST_REDUCED steps from the first one.
    """
    page.get_by_role("tab", name="New game").click()
    page.locator(".widget-dropdown", has_text="Aspen").locator("select").first.select_option(label="Bot (greedy)")  # New game tab
    press(page, "Start new game")
    page.get_by_role("tab", name="Event log").click()
    log = page.get_by_label("Event log").locator("option")
    before = log.count()
    press(page, "Auto-play")
    harness.wait_until(lambda: log.count() > before, pause=harness.on_page(page), what="auto-play's first step")
    first = time.monotonic()
    took = None
    if reduced:
        with contextlib.suppress(AssertionError):  # the test asserts how many were played
            harness.holds_for(lambda: log.count() - before <= MOST_REDUCED, WATCH_MS / 1000, step=0.1,
                              pause=harness.on_page(page), what="no more steps than reduced motion allows")
    else:
        harness.wait_until(lambda: log.count() - before > 2 * MOST_REDUCED, step=0.1, pause=harness.on_page(page),
                           what=f"more than {2 * MOST_REDUCED} steps of auto-play")
        took = time.monotonic() - first
    played = log.count() - before
    press(page, "Pause")
    page.get_by_role("button", name=re.compile(r"^\W*Auto-play\s*$")).wait_for(timeout=WAIT_MS)
    return played, took


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
            ticked = less_motion(page, reduced=preference == "reduce")
            steps, took = steps_played(page, reduced=preference == "reduce")
            harness.screenshot(page, f"a11y-motion-{preference}")
        finally:
            context.close()
        assert errors == []
        seen[preference] = (ticked, steps, took)
    assert seen["no-preference"][0] is False and seen["reduce"][0] is True, seen
    assert seen["reduce"][1] <= MOST_REDUCED, f"reduced motion: {seen['reduce'][1]} steps in {WATCH_MS} ms"
    steps, took = seen["no-preference"][1:]
    assert steps > 2 * MOST_REDUCED, f"10 steps/s: only {steps} steps"
    slowest = (2 * MOST_REDUCED) * REDUCED_STEP_SECONDS  # what reduced motion needs for as many steps after the first
    assert took < slowest, f"without the preference {steps} steps took {took:.1f} s: held to the reduced pace"
