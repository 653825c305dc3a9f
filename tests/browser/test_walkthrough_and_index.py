"""The landing page links every dashboard; the walkthrough's Forward then Back returns the identical picture."""

from __future__ import annotations

import re

import harness
from treegames.ui.aspens.scene import HexGeometry

WAIT_MS = harness.WAIT_MS

GEO = HexGeometry()


def test_landing_page_links_every_dashboard(page, voila):
    page.goto(f"{voila.base}/voila/render/index.ipynb", timeout=WAIT_MS)
    page.get_by_text("three tree games").first.wait_for(timeout=WAIT_MS)
    page.locator(".treegames-pages").wait_for(timeout=WAIT_MS)  # the list is read from the notebooks themselves
    links = page.locator("a[href$='.ipynb']").evaluate_all("els => els.map(e => e.getAttribute('href'))")
    expected = sorted(str(p.relative_to(harness.NOTEBOOKS)) for p in harness.NOTEBOOKS.rglob("*.ipynb")
                      if p.name != "index.ipynb" and ".ipynb_checkpoints" not in p.parts)
    assert sorted(set(links)) == expected
    harness.screenshot(page, "index")
    page.get_by_role("link", name="Play Aspens").click()
    harness.wait_for_drawing(page)
    assert page.url.endswith("/voila/render/aspens/play.ipynb")


def press(page, name: str) -> None:
    """Click a widget button by its label."""
    page.get_by_role("button", name=re.compile(rf"^\W*{re.escape(name)}\s*$")).first.click()


def test_walkthrough_forward_then_back_returns_the_identical_picture(page, voila):
    first = harness.open_dashboard(page, voila, "aspens/rules-walkthrough.ipynb")
    assert first["width"] == GEO.width and first["inked"] > 100_000
    harness.screenshot(page, "walkthrough-start")
    for _ in range(17):
        press(page, "Forward")
    page.get_by_text("Step 17 of").wait_for(timeout=WAIT_MS)
    at_17 = harness.wait_until_stable(page)
    assert at_17["hash"] != first["hash"]
    assert "Sun 3: Aspen has 2 spaces" in page.inner_text("body")
    harness.screenshot(page, "walkthrough-step-17")
    press(page, "Forward")
    page.get_by_text("Step 18 of").wait_for(timeout=WAIT_MS)
    at_18 = harness.wait_until_stable(page)
    assert at_18["hash"] != at_17["hash"], "a tree was planted"
    press(page, "Back")
    page.get_by_text("Step 17 of").wait_for(timeout=WAIT_MS)
    assert harness.wait_until_stable(page)["hash"] == at_17["hash"]
    cascade = harness.canvas_stats(page, 1 + 1)  # after the board and the dice: the cascade 'before' board
    assert cascade and cascade["inked"] > 50_000
    page.locator("canvas").last.scroll_into_view_if_needed()
    harness.screenshot(page, "walkthrough-cascade")
