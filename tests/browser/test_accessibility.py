"""Every dashboard under notebooks/ in Chromium, in one visit each: axe-core, a phone, 200% zoom, the keyboard.

The pages are found by globbing notebooks/, so a new page is audited (and fails if it has serious problems)
without anyone adding it here.  One visit per page (a page load is the dearest thing a browser test does):

- the page opens on a 420 px phone: axe finds no violation of impact "serious" or "critical" ("moderate" and
  "minor" ones are warnings in the test output; deploy/README.md lists each, fixed or explained), nothing scrolls
  sideways, every shown canvas lies inside the screen, every shown button's label is whole (no ellipsis), lies
  inside the screen and carries its icon, and a Play page's board begins on the first screen;
- a lesson's every "Show answer" button is reached by Tab and opened by Enter or Space, each showing its own answer;
- after one interaction (Step on a Play page, else a tab, else the first button) axe runs again, at 420 px and at
  1280 px;
- at 200% zoom on a 1280 px screen (a 640 x 500 CSS-pixel layout viewport: the layout a zoomed browser makes;
  the device pixels only sharpen it) neither the document nor any page-sized box scrolls sideways (native list
  boxes may scroll their own long lines), and every chart canvas ("Chart: ...") is followed by its "Numbers in
  this chart" table (caption, column and row headers), which Enter opens.
"""

from __future__ import annotations

import contextlib
import re
import time
import warnings

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

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

CHART_PAGES = {"aspens/sun-die-probability.ipynb", "mighty_trees/card-odds.ipynb", "lab/tournaments.ipynb",
               "lab/first-player-advantage.ipynb", "lab/is-the-new-bot-better.ipynb"}
"""Lesson pages that draw charts when they open (the class page draws its chart once an experiment runs)."""

LESSONS = sorted(str(p.relative_to(harness.NOTEBOOKS)) for p in harness.NOTEBOOKS.rglob("*.ipynb")
                 if re.search(r"show answer|Answer\(|Exercises\(", p.read_text(), re.IGNORECASE))
"""Lesson pages with questions behind 'Show answer' buttons (found on disk: the kit's Answer and Exercises)."""

WITHOUT_KIT_STYLE = {"index.ipynb"}
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
    """One interaction: Step on a Play page, else open the second tab, else press the first enabled button that
    does some work (not a button that shows a chart's numbers: open_chart_numbers() presses that one).

    ``answers`` is the page's kernel_answers(): a press is done once the kernel has handled it, then the
    page is given time to settle.
    """
    step = page.get_by_role("button", name=re.compile(r"^\W*Step\s*$"))
    tabs = page.locator(".lm-TabBar-tab")
    buttons = page.locator("button:not([disabled]):not(.treegames-chart-numbers-box *)")
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
    pressed = press.element_handle()
    press.click()
    harness.wait_until(lambda: len(answers) > before, pause=harness.on_page(page), what=f"the kernel's answer ({moment})")
    wait_for_work(page, pressed)
    settle(page)
    return moment


def wait_for_work(page, pressed) -> None:
    """Wait until the work a press started is over: a lab run disables its buttons until it ends.

    Its progress reports may come further apart than settle()'s quiet spell on a loaded machine (the first-player
    lesson's 1000 games were still being played while its chart's numbers were opened: they were rewritten under
    the test). The button is given a moment to show it is disabled, then the run its whole deadline to end.
    """
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function("(b) => !b.isConnected || b.disabled", arg=pressed, timeout=1000)
    page.wait_for_function("(b) => !b.isConnected || !b.disabled", arg=pressed, timeout=WAIT_MS)


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


OVERFLOW_JS = """
() => {
  const out = [];
  const doc = document.scrollingElement || document.documentElement;
  out.push(['document', doc.scrollWidth - doc.clientWidth]);
  document.querySelectorAll('body, body *').forEach(e => {
    const s = getComputedStyle(e);
    if (!/(auto|scroll)/.test(s.overflowX) || e.clientWidth < 300) return;  // only page-sized scrollers
    if (e.tagName === 'SELECT' || e.tagName === 'TEXTAREA') return;  // a list box scrolls its own long lines
    if (e.closest('.treegames-chart-numbers, .treegames-board-words')) return;  // tables that may scroll alone
    const over = e.scrollWidth - e.clientWidth;
    if (over > 1) out.push([e.tagName + (e.id ? '#' + e.id : '') + '.' + String(e.className).slice(0, 60), over]);
  });
  return out;
}
"""
"""[what, CSS pixels wider than it shows] for the document and every page-sized element that scrolls sideways."""

CHARTS_JS = """
() => Array.from(document.querySelectorAll('canvas[title^="Chart:"]')).map(c => {
  const next = c.nextElementSibling;
  const table = next && next.classList.contains('treegames-chart-numbers-box') ? next.querySelector('table') : null;
  return {name: c.title,
          caption: table && table.caption ? table.caption.textContent : null,
          cols: table ? table.querySelectorAll('thead th[scope=col]').length : 0,
          rows: table ? table.querySelectorAll('tbody th[scope=row]').length : 0,
          cells: table ? table.querySelectorAll('tbody td').length : 0};
})
"""
"""Each chart canvas with the table that follows it."""

CANVASES_OUTSIDE_JS = """
() => Array.from(document.querySelectorAll('canvas')).filter(c => c.offsetParent !== null && c.width > 0)
  .map(c => { const r = c.getBoundingClientRect(); return [c.title || String(c.className).slice(0, 40), r.left, r.right]; })
  .filter(([_name, left, right]) => left < -0.5 || right > window.innerWidth + 0.5)
"""
"""[name, left, right] of every shown canvas that reaches past the window's left or right edge."""

LABELS_JS = """
() => Array.from(document.querySelectorAll('button, .jupyter-button')).filter(b => b.offsetParent !== null)
  .map(b => { const r = b.getBoundingClientRect(), icon = b.classList.contains('tg-icon');
              return {text: (b.textContent || '').trim(), cut: b.scrollWidth > b.clientWidth + 1,
                      outside: r.left < -0.5 || r.right > window.innerWidth + 0.5,
                      iconless: icon && getComputedStyle(b, '::before').width !== '13px'}; })
  .filter(b => b.cut || b.outside || b.iconless)
"""
"""Every shown button whose label is cut (an ellipsis), that reaches past the window, or whose icon is missing
(a kit button on a page without the kit's style sheet)."""

FOCUSED_LABEL_JS = "() => (document.activeElement.textContent || '').trim()"
REVEALED_JS = """
() => { const next = document.activeElement.nextElementSibling;
  return next && next.offsetParent !== null ? next.innerText.trim() : ''; }
"""
"""The text right after the focused button, if it is shown (where a screen reader goes next)."""


def test_the_chart_pages_and_the_lessons_are_among_the_audited_pages():
    assert CHART_PAGES <= set(PAGES)
    assert {"aspens/sun-die-probability.ipynb", "bosk/majority-scoring.ipynb", "mighty_trees/card-odds.ipynb",
            "lab/first-player-advantage.ipynb", "lab/is-the-new-bot-better.ipynb"} <= set(LESSONS) <= set(PAGES), LESSONS


def page_name(path: str) -> str:
    """A page's path as a file name: aspens/play.ipynb -> aspens-play."""
    return path.replace("/", "-").removesuffix(".ipynb")


def sideways(page) -> list:
    """Everything that scrolls sideways by more than a pixel: [what, CSS pixels]."""
    return [(what, px) for what, px in page.evaluate(OVERFLOW_JS) if px > 1]


def first_screen_picture(page, path: str) -> None:
    """Save what a phone shows first of a Play page (its first screen), then restore the phone's viewport."""
    page.set_viewport_size({"width": PHONE["width"], "height": FIRST_SCREEN})
    page.screenshot(path=str(harness.ARTIFACTS / "screenshots" / f"first-screen-{path.split('/')[0]}-420.png"))
    resize(page, PHONE)


def answers_by_keyboard(page, path: str) -> tuple[int, list[str]]:
    """Tab through the page, opening each "Show answer" reached by Enter or Space in turn: (buttons, answers shown)."""
    page.get_by_role("button", name="Show answer").first.wait_for(timeout=WAIT_MS)
    total = page.get_by_role("button", name="Show answer").count()
    page.locator("body").focus()
    revealed: list[str] = []
    for _ in range(600):
        page.keyboard.press("Tab")
        if page.evaluate(FOCUSED_LABEL_JS) != "Show answer":
            continue
        assert page.evaluate(REVEALED_JS) == "", f"{path}: an answer shows before its button is pressed"
        page.keyboard.press("Space" if len(revealed) % 2 else "Enter")
        page.wait_for_function("() => (document.activeElement.textContent || '').trim() === 'Hide answer'",
                               timeout=WAIT_MS)
        page.wait_for_function(REVEALED_JS, timeout=WAIT_MS)
        revealed.append(page.evaluate(REVEALED_JS))
        if len(revealed) == total:
            break
    assert page.get_by_role("button", name="Hide answer").count() == total
    harness.screenshot(page, f"a11y-answers-{page_name(path)}")
    return total, revealed


def open_chart_numbers(page, name: str) -> int | None:
    """Open the first shown chart's numbers by Enter on its button: the table's row headers (None: no chart shown)."""
    shown = page.locator(".treegames-chart-numbers-box .widget-toggle-button:visible")  # not those in closed tabs
    if not shown.count():
        return None
    button = shown.first
    assert button.inner_text().startswith("Show the numbers: "), button.inner_text()
    button.focus()
    page.keyboard.press("Enter")
    section = page.locator(".treegames-chart-numbers-box", has=page.locator(".widget-toggle-button.mod-active")).first
    table = section.locator("table")
    table.wait_for(state="visible", timeout=WAIT_MS)
    expect(section.locator(".widget-toggle-button")).to_have_text(re.compile("^Hide the numbers: "), timeout=WAIT_MS)
    section.screenshot(path=str(harness.ARTIFACTS / "screenshots" / f"a11y-zoom200-{name}-chart-numbers.png"))
    return table.get_by_role("rowheader").count()


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.parametrize("path", PAGES)
def test_every_page_passes_axe_on_a_phone_and_a_laptop_fits_200_percent_zoom_and_answers_by_keyboard(
        browser, voila, path):
    name, is_play = page_name(path), path.endswith("/play.ipynb")
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    answers = kernel_answers(page)
    total, revealed = 0, []
    try:
        page.goto(f"{voila.base}/voila/render/{path}", timeout=WAIT_MS)
        wait_loaded(page)
        problems = audit(page, "420 px, drawn", path)
        phone_overflow = sideways_scroll(page)
        outside = page.evaluate(CANVASES_OUTSIDE_JS)
        buttons = page.evaluate(LABELS_JS)
        harness.screenshot(page, f"a11y-{name}-420")
        board = board_top(page) if is_play else 0
        if is_play:
            first_screen_picture(page, path)
        if path in LESSONS:
            total, revealed = answers_by_keyboard(page, path)
        moment = interact(page, answers)
        problems += audit(page, f"420 px, {moment}", path)
        phone_overflow = max(phone_overflow, sideways_scroll(page))
        resize(page, WIDE)
        problems += audit(page, f"1280 px, {moment}", path)
        resize(page, ZOOMED)
        zoomed = sideways(page)
        charts = page.evaluate(CHARTS_JS)
        harness.screenshot(page, f"a11y-{name}-zoom200")
        opened = open_chart_numbers(page, name)
        zoomed += sideways(page)
    finally:
        context.close()
    assert problems == [], "\n".join(problems)
    assert phone_overflow <= 1, f"{path} scrolls sideways by {phone_overflow}px on a 420 px phone"
    assert outside == [], f"{path}: canvases past the edge of a 420 px phone: {outside}"
    assert buttons == [], f"{path}: buttons cut, past the edge or without their icon on a 420 px phone: {buttons}"
    assert board is not None and board + 200 <= FIRST_SCREEN, f"{path}: at 420 px the board begins at {board} px"
    assert total == len(revealed), f"{path}: opened {len(revealed)} of {total} answers by keyboard"
    assert all(len(text) > 20 for text in revealed), revealed
    assert len(set(revealed)) == len(revealed), "each button shows its own answer"
    assert zoomed == [], f"{path} scrolls sideways at 200% zoom on a 1280 px screen: {zoomed}"
    if path in CHART_PAGES:
        assert charts, f"{path}: no chart named as a chart"
        assert opened is not None and opened >= 1, "Enter on a chart's button opens its table"
    for chart in charts:
        assert chart["caption"] and chart["name"].startswith(f"Chart: {chart['caption']}"), chart
        assert chart["cols"] >= 2 and chart["rows"] >= 1, chart
        assert chart["cells"] == chart["rows"] * (chart["cols"] - 1), chart
    assert errors == []
