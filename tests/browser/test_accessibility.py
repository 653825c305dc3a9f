"""axe-core on every dashboard under notebooks/ in Chromium: at 1280 px and 420 px, drawn and after one interaction.

The pages are found by globbing notebooks/, so a new page is audited (and fails if it has serious problems)
without anyone adding it here.  Target: no violation of impact "serious" or "critical".  "Moderate" and
"minor" ones are reported as warnings in the test output (deploy/README.md lists each, fixed or explained).
The same visit checks 200% zoom at 1280 px (a 640 px wide layout viewport): nothing scrolls sideways.
"""

from __future__ import annotations

import contextlib
import re
import time
import warnings

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import TimeoutError as PlaywrightTimeout

import harness

WAIT_MS = harness.WAIT_MS

PAGES = sorted(str(p.relative_to(harness.NOTEBOOKS)) for p in harness.NOTEBOOKS.rglob("*.ipynb")
               if ".ipynb_checkpoints" not in p.parts)
"""Every dashboard, found on disk (a page added later is audited too)."""

BLOCKING = ("serious", "critical")
AXE = Axe()
WIDE = {"width": 1280, "height": 1000}
PHONE = {"width": 420, "height": 900}
ZOOMED = {"width": 640, "height": 500}
"""1280 x 1000 at 200% browser zoom: the page lays out in a 640 x 500 CSS-pixel viewport."""

WITHOUT_KIT_STYLE = {"index.ipynb", "class/tables.ipynb", "bosk/majority-scoring.ipynb",
                     "mighty_trees/card-odds.ipynb"}
"""Pages whose widgets carry no kit style sheet: the wait for it is skipped there (any other page waits for it;
a page missing here that has none only waits longer)."""

LOOK_JS = """
() => {
  if (!window.__treegamesMutations) {
    window.__treegamesMutations = {count: 0};
    new MutationObserver(() => { window.__treegamesMutations.count++; }).observe(document.documentElement,
      {subtree: true, childList: true, attributes: true, characterData: true});
  }
  const doc = document.documentElement;
  const canvases = Array.from(document.querySelectorAll('canvas')).filter(c => c.width > 50 && c.height > 50)
    .map(c => { const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let h = 0;
                for (let i = 0; i < d.length; i += 64) h = (h * 31 + d[i] + d[i + 1] + d[i + 2]) | 0; return h; });
  return [window.__treegamesMutations.count, doc.scrollWidth, doc.scrollHeight, ...canvases];
}
"""
"""What the page looks like, roughly: DOM changes so far, its size and a hash of every large canvas."""

LAID_OUT_JS = """
(size) => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() =>
  done(window.innerWidth === size.width && window.innerHeight === size.height))))
"""
"""Whether the window has the given size once two frames have been drawn at it (resize handlers have run)."""

KERNEL_IDLE = re.compile(r'"execution_state":\s*"idle"')
COMM_MSG = re.compile(r'"msg_type":\s*"comm_msg"')


def test_the_audit_finds_every_dashboard_by_globbing():
    assert "index.ipynb" in PAGES and "aspens/play.ipynb" in PAGES
    assert len(PAGES) >= 13, PAGES


def settle(page, quiet_ms: int = 400, timeout: float = 20.0) -> None:
    """Wait until the page stops changing (no DOM change, same size, same canvases) for ``quiet_ms``.

    Like harness.wait_until_stable, a courtesy before reading the page: a page that never settles (an
    animation that loops) is audited as it is after ``timeout`` seconds.
    """
    seen = {"look": page.evaluate(LOOK_JS), "since": time.monotonic()}

    def quiet() -> bool:
        look = page.evaluate(LOOK_JS)
        if look != seen["look"]:
            seen.update(look=look, since=time.monotonic())
            return False
        return (time.monotonic() - seen["since"]) * 1000 >= quiet_ms

    with contextlib.suppress(AssertionError):
        harness.wait_until(quiet, timeout, step=0.1, pause=harness.on_page(page), what="a quiet page")


def resize(page, size: dict) -> None:
    """Set the viewport and wait until the page is laid out at that size and has settled."""
    page.set_viewport_size(size)
    harness.wait_until(lambda: page.evaluate(LAID_OUT_JS, size), pause=harness.on_page(page),
                       what=f"the page laid out at {size}")
    settle(page)


def kernel_answers(page) -> list[int]:
    """A list that grows by one each time the page's kernel goes idle after a widget message (a click handled).

    Call it before the page opens its kernel's websocket.
    """
    answers: list[int] = []

    def heard(payload) -> None:
        text = payload if isinstance(payload, str) else payload.decode("utf-8", "replace")
        if KERNEL_IDLE.search(text) and COMM_MSG.search(text):
            answers.append(1)

    page.on("websocket", lambda ws: ws.on("framereceived", heard))
    return answers


def wait_loaded(page) -> None:
    """Wait until Voila has rendered the widgets (and any canvas has settled)."""
    page.wait_for_function("() => !document.querySelector('#loading') || "
                           "getComputedStyle(document.querySelector('#loading')).display === 'none'", timeout=WAIT_MS)
    # any shown output: a page's first output may be its zero-height style sheet, hidden once laid out
    # (waiting on that one passed only when the wait began before the layout: class/experiment.ipynb)
    page.locator(".jupyter-widgets:visible, .jp-OutputArea-output:visible").first.wait_for(timeout=WAIT_MS)
    path = page.url.split("/voila/render/", 1)[-1].split("?", 1)[0]
    if path not in WITHOUT_KIT_STYLE:
        with contextlib.suppress(PlaywrightTimeout):  # the kit's style sheet, on every page that uses the kit
            page.locator(".treegames-style").first.wait_for(state="attached", timeout=WAIT_MS)
    if page.locator("canvas").count():
        harness.wait_for_drawing(page, min_inked=500)
        harness.wait_until_stable(page, quiet_ms=400)
    settle(page)


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


def interact(page, answers: list[int]) -> str:
    """One interaction: Step on a Play page, else open the second tab, else press the first enabled button.

    ``answers`` is the page's kernel_answers(): a press is done once the kernel has handled it, then the
    page is given time to settle.
    """
    step = page.get_by_role("button", name=re.compile(r"^\W*Step\s*$"))
    tabs = page.locator(".lm-TabBar-tab")
    buttons = page.locator("button:not([disabled])")
    if step.count():
        press, moment = step.first, "after Step"
    elif tabs.count() > 1:
        tabs.nth(1).click()
        page.wait_for_function("(tab) => tab.classList.contains('lm-mod-current')", arg=tabs.nth(1).element_handle(),
                               timeout=WAIT_MS)
        settle(page)
        return "after opening a tab"
    elif buttons.count():
        press, moment = buttons.first, "after pressing a button"
    else:
        return "no control to use"
    before = len(answers)
    press.click()
    harness.wait_until(lambda: len(answers) > before, pause=harness.on_page(page), what=f"the kernel's answer ({moment})")
    settle(page)
    return moment


BOARD_TOP_JS = """
() => { const board = Array.from(document.querySelectorAll('canvas')).filter(c => c.width > 50)[0];
  if (!board) return null; let top = board.getBoundingClientRect().top + window.scrollY;
  for (let el = board.parentElement; el; el = el.parentElement) top += el.scrollTop;
  return top; }
"""
"""The board's top in CSS pixels from the top of the page, as if every scroller were at its start."""

FIRST_SCREEN = 780
"""A phone's first screen, in CSS pixels: a Play page's board must begin within it, with room to be seen."""


def board_top(page) -> float | None:
    """Where a Play page's board begins, from the top of the page (None: no board)."""
    return page.evaluate(BOARD_TOP_JS)


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
    answers = kernel_answers(page)
    try:
        page.goto(f"{voila.base}/voila/render/{path}", timeout=WAIT_MS)
        wait_loaded(page)
        problems = audit(page, "1280 px, drawn", path)
        moment = interact(page, answers)
        problems += audit(page, f"1280 px, {moment}", path)
        resize(page, PHONE)
        problems += audit(page, f"420 px, {moment}", path)
        phone_overflow = sideways_scroll(page)
        harness.screenshot(page, f"a11y-{path.replace('/', '-').removesuffix('.ipynb')}-420")
        board = board_top(page) if path.endswith("/play.ipynb") else 0
        if path.endswith("/play.ipynb"):
            page.set_viewport_size({"width": PHONE["width"], "height": FIRST_SCREEN})
            page.screenshot(path=str(harness.ARTIFACTS / "screenshots" / f"first-screen-{path.split('/')[0]}-420.png"))
            resize(page, PHONE)
        resize(page, ZOOMED)
        zoom_overflow = sideways_scroll(page)
        harness.screenshot(page, f"a11y-{path.replace('/', '-').removesuffix('.ipynb')}-zoom200")
    finally:
        context.close()
    assert problems == [], "\n".join(problems)
    assert phone_overflow <= 1, f"{path} scrolls sideways by {phone_overflow}px on a 420 px phone"
    assert board is not None and board + 200 <= FIRST_SCREEN, f"{path}: at 420 px the board begins at {board} px"
    assert zoom_overflow <= 1, f"{path} scrolls sideways by {zoom_overflow}px at 200% zoom on a 1280 px screen"
    assert errors == []
