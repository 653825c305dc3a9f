"""Foundation figures: Python cost of one board frame, Voila page load to drawn canvas, click to redraw, kernel memory.

Run: python benchmarks/bench_foundation.py [--quick]
Targets (issue 2): frame <= 1 ms median with one comm message; load <= 3.5 s median;
click to redrawn canvas <= 100 ms median; kernel RSS reported (aim <= 150 MB).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
import harness  # noqa: E402

QUICK = "--quick" in sys.argv


def frame_cost() -> tuple[float, int]:
    """Median ms to compute and send one board frame, and comm messages per frame."""
    from treegames.aspens.data import Hex
    from treegames.ui.aspens.board import BoardExplorer

    explorer = BoardExplorer()
    explorer.click(*explorer.geo.center(Hex(0, 0)))
    median, messages = harness.frame_cost(explorer.view, 200 if QUICK else 1000)
    return median, round(messages)


def browser_figures() -> dict:
    """Page load to drawn canvas (median of several loads), click to redraw, kernel RSS."""
    from playwright.sync_api import sync_playwright

    from treegames.aspens.data import Hex
    from treegames.ui.aspens.scene import HexGeometry

    geo = HexGeometry()
    server = harness.start_voila()
    loads, clicks, rss = [], [], []
    try:
        with sync_playwright() as p:
            browser = harness.launch_chromium(p)
            harness.open_dashboard(browser.new_page(viewport=harness.VIEWPORT), server,
                                   "aspens/board-and-setups.ipynb")  # warm-up
            for _ in range(3 if QUICK else 7):
                context = browser.new_context(viewport=harness.VIEWPORT)
                page = context.new_page()
                t0 = time.perf_counter()
                page.goto(f"{server.base}/voila/render/aspens/board-and-setups.ipynb")
                harness.wait_for_drawing(page, timeout=60)
                loads.append(time.perf_counter() - t0)
                rss.extend(server.kernel_rss())
                context.close()
            page = browser.new_page(viewport=harness.VIEWPORT)
            harness.open_dashboard(page, server, "aspens/board-and-setups.ipynb")
            cells = [Hex(q, r) for q, r in ((0, 0), (2, -3), (-3, 2), (4, 1), (-1, -4), (1, 4))]
            for i in range(10 if QUICK else 30):
                ms = harness.redraw_ms(page, None, *geo.center(cells[i % len(cells)]))
                if ms >= 0:
                    clicks.append(ms)
            browser.close()
    finally:
        server.stop()
    return {"loads": loads, "clicks": clicks, "rss": rss}


def main() -> None:
    frame_ms, messages = frame_cost()
    print(f"board frame, python side: {frame_ms:.3f} ms median ({messages} comm message per frame)")
    figures = browser_figures()
    loads, clicks = figures["loads"], figures["clicks"]
    print(f"voila page load to drawn canvas: {statistics.median(loads):.2f} s median "
          f"(min {min(loads):.2f}, max {max(loads):.2f}, n={len(loads)})")
    if clicks:
        print(f"click to redrawn canvas in chromium: {statistics.median(clicks):.1f} ms median "
              f"(max {max(clicks):.1f}, n={len(clicks)})")
    else:
        print("click to redrawn canvas in chromium: no redraw observed")
    if figures["rss"]:
        print(f"dashboard kernel RSS: {statistics.median(figures['rss']) / 2**20:.0f} MB median")


if __name__ == "__main__":
    main()
