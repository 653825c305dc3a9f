"""A visitor who must wait their turn (issue 34), in Chromium on a 420 px phone: the waiting page, then the board.

The class server runs with one slot for pages that start their own kernel. A first visitor (over HTTP)
holds it with a page whose notebook runs until the test opens a gate; meanwhile a phone opens the Aspens
Play page and gets the waiting page: it must say where it stands, pass axe, fit the phone, and open the
real page by itself once the slot is free, its board drawn and answering a click on Step.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe

import harness

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "serving"))
import kernel_ws  # noqa: E402

WAIT_MS = harness.WAIT_MS
PHONE = {"width": 420, "height": 900}
PLAY = "aspens/play.ipynb"


@pytest.mark.slow
def test_a_phone_that_must_wait_sees_its_place_then_its_board_opens_by_itself(browser, tmp_path):
    (tmp_path / "hold.ipynb").write_text(json.dumps(kernel_ws.HOLD))
    shutil.copytree(harness.NOTEBOOKS / "aspens", tmp_path / "aspens")
    gate = tmp_path / "gate"
    server = harness.start_class_server(tmp_path, preheat=False, extra=["--ClassroomVoila.arrivals_at_once=1"],
                                        env={**os.environ, "TREEGAMES_TEST_GATE": str(gate)})
    try:
        held: dict[int, kernel_ws.Page] = {}
        holder = kernel_ws.fetch_in_thread(server.base, held, 0)
        harness.wait_until(lambda: server.live_kernels(), what="the first page's kernel started (its slot taken)")
        context = browser.new_context(viewport=PHONE)
        page = context.new_page()
        page.goto(f"{server.base}/voila/render/{PLAY}", timeout=WAIT_MS)
        status = page.get_by_role("status")
        status.wait_for(timeout=WAIT_MS)
        assert status.inner_text().startswith("Your page is next."), status.inner_text()
        assert page.get_by_role("heading", name="Opening Aspens: play").count() == 1
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"], "fits the phone"
        violations = [v for v in Axe().run(page).response["violations"] if v["impact"] in ("serious", "critical")]
        assert violations == [], violations
        harness.screenshot(page, "arrivals-waiting-420")
        assert len(server.live_kernels()) == 1, "the waiting phone has no kernel yet"

        gate.write_text("open")
        page.wait_for_url(re.compile(r"treegames_ticket="), timeout=WAIT_MS)  # it came in on its own turn
        harness.wait_for_drawing(page)
        before = harness.wait_until_stable(page)["hash"]
        harness.press(page, "Step")
        harness.wait_for_drawing(page, differs_from=before)
        harness.screenshot(page, "arrivals-opened-420")
        holder.join(harness.DEADLINE)
        assert 0 in held, "the first visitor's page opened too"
        context.close()
    finally:
        server.stop()
    assert server.alive_pids() == []

