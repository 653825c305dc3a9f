"""axe-core on every dashboard under notebooks/ in Chromium: at 1280 px and 420 px, drawn and after one interaction.

The pages are found by globbing notebooks/, so a new page is audited (and fails if it has serious problems)
without anyone adding it here.  Target: no violation of impact "serious" or "critical".  "Moderate" and
"minor" ones are reported as warnings in the test output (deploy/README.md lists each, fixed or explained).
The same visit checks 200% zoom at 1280 px (a 640 px wide layout viewport): nothing scrolls sideways.
"""

from __future__ import annotations

import contextlib
import re
import warnings

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import TimeoutError as PlaywrightTimeout

import harness

PAGES = sorted(str(p.relative_to(harness.NOTEBOOKS)) for p in harness.NOTEBOOKS.rglob("*.ipynb")
               if ".ipynb_checkpoints" not in p.parts)
"""Every dashboard, found on disk (a page added later is audited too)."""

BLOCKING = ("serious", "critical")
AXE = Axe()
WIDE = {"width": 1280, "height": 1000}
PHONE = {"width": 420, "height": 900}
ZOOMED = {"width": 640, "height": 500}
"""1280 x 1000 at 200% browser zoom: the page lays out in a 640 x 500 CSS-pixel viewport."""


def test_the_audit_finds_every_dashboard_by_globbing():
    assert "index.ipynb" in PAGES and "aspens/play.ipynb" in PAGES
    assert len(PAGES) >= 13, PAGES


def wait_loaded(page) -> None:
    """Wait until Voila has rendered the widgets (and any canvas has settled)."""
    page.wait_for_function("() => !document.querySelector('#loading') || "
                           "getComputedStyle(document.querySelector('#loading')).display === 'none'", timeout=120_000)
    page.locator(".jupyter-widgets, .jp-OutputArea-output").first.wait_for(timeout=120_000)
    with contextlib.suppress(PlaywrightTimeout):  # the kit's style sheet, on every page that uses the kit
        page.locator(".treegames-style").first.wait_for(state="attached", timeout=15_000)
    if page.locator("canvas").count():
        harness.wait_for_drawing(page, min_inked=500, timeout=90)
        harness.wait_until_stable(page, quiet_ms=400)
    page.wait_for_timeout(300)


def audit(page, moment: str, path: str) -> list[str]:
    """Run axe; return blocking violations as text and warn about the rest."""
    found = AXE.run(page).response["violations"]
    blocking = []
    for v in found:
        nodes = "; ".join(n["target"][0] if isinstance(n["target"][0], str) else str(n["target"][0])
                          for n in v["nodes"][:3])
        line = f"{path} [{moment}] {v['impact']}: {v['id']} ({len(v['nodes'])} nodes: {nodes}) - {v['help']}"
        if v["impact"] in BLOCKING:
            blocking.append(line)
        else:
            warnings.warn(line, stacklevel=1)
    return blocking


def interact(page) -> str:
    """One interaction: Step on a Play page, else open the second tab, else press the first enabled button."""
    step = page.get_by_role("button", name=re.compile(r"^\W*Step\s*$"))
    if step.count():
        step.first.click()
        page.wait_for_timeout(600)
        return "after Step"
    tabs = page.locator(".lm-TabBar-tab")
    if tabs.count() > 1:
        tabs.nth(1).click()
        page.wait_for_timeout(600)
        return "after opening a tab"
    buttons = page.locator("button:not([disabled])")
    if buttons.count():
        buttons.first.click()
        page.wait_for_timeout(800)
        return "after pressing a button"
    return "no control to use"


def sideways_scroll(page) -> int:
    """How many CSS pixels the page is wider than its viewport."""
    return page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.parametrize("path", PAGES)
def test_every_page_passes_axe_at_1280_and_420_px_before_and_after_an_interaction(browser, voila, path):
    context = browser.new_context(viewport=WIDE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    try:
        page.goto(f"{voila.base}/voila/render/{path}", timeout=120_000)
        wait_loaded(page)
        problems = audit(page, "1280 px, drawn", path)
        moment = interact(page)
        problems += audit(page, f"1280 px, {moment}", path)
        page.set_viewport_size(PHONE)
        page.wait_for_timeout(500)
        problems += audit(page, f"420 px, {moment}", path)
        phone_overflow = sideways_scroll(page)
        page.set_viewport_size(ZOOMED)
        page.wait_for_timeout(500)
        zoom_overflow = sideways_scroll(page)
        harness.screenshot(page, f"a11y-{path.replace('/', '-').removesuffix('.ipynb')}-zoom200")
    finally:
        context.close()
    assert problems == [], "\n".join(problems)
    assert phone_overflow <= 1, f"{path} scrolls sideways by {phone_overflow}px on a 420 px phone"
    assert zoom_overflow <= 1, f"{path} scrolls sideways by {zoom_overflow}px at 200% zoom on a 1280 px screen"
    assert errors == []
