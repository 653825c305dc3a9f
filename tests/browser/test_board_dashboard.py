"""The Aspens board dashboard in a real Voila page, driven in Chromium: drawn, clicked, changed."""

from __future__ import annotations

import pytest

import harness
from treegames.aspens import SETUPS, make_board
from treegames.aspens.data import Hex
from treegames.ui.aspens.scene import HexGeometry
from treegames.ui.palette import WATER, hex_to_rgb

WAIT_MS = harness.WAIT_MS

PATH = "aspens/board-and-setups.ipynb"
GEO = HexGeometry()


def water_probe(cell) -> tuple[float, float]:
    """A point inside a hex but clear of its centred label."""
    x, y = GEO.center(cell)
    return (x, y + GEO.size * 0.6)


def near(rgba, colour, tolerance=12) -> bool:
    """True if a pixel is within ``tolerance`` of an RGB colour."""
    return all(abs(a - b) <= tolerance for a, b in zip(rgba[:3], hex_to_rgb(colour), strict=False))


@pytest.fixture(scope="module")
def board_page(browser, voila):
    """One loaded board dashboard shared by the tests of this module (in order)."""
    with harness.loaded_dashboard(browser, voila, PATH) as loaded:
        yield loaded


def test_board_is_drawn_when_the_page_opens(board_page):
    page, stats, errors = board_page
    assert stats["width"] == GEO.width and stats["height"] == GEO.height
    assert stats["cssWidth"] == GEO.width, "the canvas must keep its explicit Layout size"
    assert stats["inked"] > 0.3 * GEO.width * GEO.height
    for water in make_board(2).water:
        assert near(harness.pixel(page, *water_probe(water)), WATER, tolerance=40), f"water at {water}"
    assert errors == []
    harness.screenshot(page, "board-setup-2")


@pytest.mark.parametrize("setup", [s for s in SETUPS if s != 2] + [2])
def test_choosing_a_setup_redraws_its_water(board_page, setup):
    page, _, _ = board_page
    before = harness.canvas_stats(page)["hash"]
    page.get_by_role("button", name=f"Setup {setup}", exact=True).click()
    board = make_board(setup)
    page.locator(".widget-html-content", has_text=f"{len(board.playable)} playable spaces").wait_for(timeout=WAIT_MS)
    after = harness.wait_until_stable(page)
    assert after["hash"] != before, "a new water layout must change the picture"
    for cell in board.cells:
        colour = harness.pixel(page, *water_probe(cell))
        assert near(colour, WATER, tolerance=40) == (cell in board.water), f"setup {setup}, hex {cell}"
    harness.screenshot(page, f"board-setup-{setup}")


def test_clicking_a_hex_names_it_and_marks_it(board_page):
    page, _, errors = board_page
    before = harness.canvas_stats(page)["hash"]
    target = Hex(0, 0)
    harness.click_canvas(page, *GEO.center(target))
    page.locator(".widget-html-content", has_text="playable space on the centre tile").wait_for(timeout=WAIT_MS)
    assert "H8" in page.inner_text("body")
    harness.wait_for_drawing(page, differs_from=before)
    corners = GEO.corners(target, 0.92)
    right_edge = (corners[1][0] - 0.5, (corners[1][1] + corners[2][1]) / 2)  # the mark's vertical right side
    assert near(harness.pixel(page, *right_edge), "#D55E00", tolerance=60)
    harness.screenshot(page, "board-clicked-H8")
    assert errors == []


def test_clicking_off_the_board_explains_and_clears_the_mark(board_page):
    page, first, errors = board_page
    harness.click_canvas(page, 5, 5)
    page.locator(".widget-html-content", has_text="off the board").wait_for(timeout=WAIT_MS)
    assert harness.wait_until_stable(page)["hash"] == first["hash"], "back to the unmarked setup-2 board"
    assert errors == []
