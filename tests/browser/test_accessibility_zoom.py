"""200% zoom on a 1280 px screen, and every chart's table, on every page (the same glob as the axe audit).

200% browser zoom on a 1280 x 1000 screen lays the page out in a 640 x 500 CSS-pixel viewport with two device
pixels per CSS pixel: that is the context used here.  Nothing may scroll sideways: neither the document
(``document.scrollingElement``) nor any page-sized box inside it (an ipywidgets box scrolls by itself when a child
is too wide).  Native list boxes (the event logs) may scroll their own long lines.  The same visit checks the charts' text equivalents: every chart canvas
(named "Chart: ..." by the kit) is followed by its "Numbers in this chart" element holding a real table (caption,
column and row headers), and the lesson pages with charts have them.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import harness

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_accessibility import PAGES, wait_loaded  # noqa: E402 - the audit's page list and loading wait

WAIT_MS = harness.WAIT_MS

ZOOM_200 = {"viewport": {"width": 640, "height": 500}, "device_scale_factor": 2}
"""A 1280 x 1000 screen at 200% zoom."""

CHART_PAGES = {"aspens/sun-die-probability.ipynb", "mighty_trees/card-odds.ipynb", "lab/tournaments.ipynb",
               "lab/first-player-advantage.ipynb"}
"""Lesson pages that draw charts when they open (the class page draws its chart once an experiment runs)."""

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
  const details = next && next.querySelector('details.treegames-chart-numbers');
  const table = details && details.querySelector('table');
  return {name: c.title,
          caption: table && table.caption ? table.caption.textContent : null,
          cols: table ? table.querySelectorAll('thead th[scope=col]').length : 0,
          rows: table ? table.querySelectorAll('tbody th[scope=row]').length : 0,
          cells: table ? table.querySelectorAll('tbody td').length : 0};
})
"""
"""Each chart canvas with the table that follows it."""


def test_the_chart_pages_are_among_the_audited_pages():
    assert CHART_PAGES <= set(PAGES)


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.parametrize("path", PAGES)
def test_every_page_works_at_200_percent_zoom_and_every_chart_has_its_table(browser, voila, path):
    context = browser.new_context(**ZOOM_200)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    try:
        page.goto(f"{voila.base}/voila/render/{path}", timeout=WAIT_MS)
        wait_loaded(page)  # drawn, and settled: no DOM or canvas change for a moment
        overflow = [(what, px) for what, px in page.evaluate(OVERFLOW_JS) if px > 1]
        charts = page.evaluate(CHARTS_JS)
        name = path.replace('/', '-').removesuffix('.ipynb')
        harness.screenshot(page, f"a11y-zoom200-{name}")
        opened = None
        shown = page.locator("details.treegames-chart-numbers summary:visible")  # not those in closed tabs
        if shown.count():  # the first shown chart's numbers open from the keyboard, and still fit at 200%
            summary = shown.first
            summary.focus()
            page.keyboard.press("Enter")
            table = page.locator("details.treegames-chart-numbers[open] table").first
            table.wait_for(timeout=WAIT_MS)
            opened = table.get_by_role("rowheader").count()
            overflow += [(what, px) for what, px in page.evaluate(OVERFLOW_JS) if px > 1]
            page.locator("details.treegames-chart-numbers[open]").first.screenshot(
                path=str(harness.ARTIFACTS / "screenshots" / f"a11y-zoom200-{name}-chart-numbers.png"))
    finally:
        context.close()
    assert overflow == [], f"{path} scrolls sideways at 200% zoom: {overflow}"
    if path in CHART_PAGES:
        assert charts, f"{path}: no chart named as a chart"
        assert opened is not None and opened >= 1, "Enter on a chart's summary opens its table"
    for chart in charts:
        assert chart["caption"] and chart["name"].startswith(f"Chart: {chart['caption']}"), chart
        assert chart["cols"] >= 2 and chart["rows"] >= 1, chart
        assert chart["cells"] == chart["rows"] * (chart["cols"] - 1), chart
    assert errors == []
