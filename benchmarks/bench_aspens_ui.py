"""Aspens play dashboard figures: Python frame cost mid-game, page load, click/Step to redrawn board, auto-play rate.

Run: python benchmarks/bench_aspens_ui.py [--quick]
Targets (issue 4): click to redrawn board <= 100 ms median; Python-side frame <= 1 ms; (issue 34) Step and a
click on the board redrawn in <= 50 ms median and <= 100 ms p95, on the class server;
page load to first drawn board <= 3.5 s median; auto-play >= 10 steps/s without stale redraws.
"""

from __future__ import annotations

import re
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import harness  # noqa: E402

QUICK = "--quick" in sys.argv
PACE_MS = 200
"""A visitor's pace: each press comes this long after the last (back to back, a press queued behind the previous
step's widget updates and measured them too)."""
PATH = "aspens/play.ipynb"

COUNT_FRAMES_JS = """
async (ms) => {
  const c = Array.from(document.querySelectorAll('canvas')).filter(c => c.width > 500)[0];
  const ctx = c.getContext('2d');
  const probe = () => { const d = ctx.getImageData(0, 0, c.width, c.height).data; let h = 0;
    for (let i = 0; i < d.length; i += 64) h = (h * 31 + d[i] + d[i + 1]) | 0; return h; };
  let last = probe(), changes = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < ms) {
    await new Promise(r => requestAnimationFrame(r));
    const now = probe();
    if (now !== last) { changes++; last = now; }
  }
  return changes;
}
"""


def python_frame_ms() -> float:
    """Median ms to compute and send the board of a mid-game position (targets shown)."""
    from treegames.ui.aspens.play import AspensPlay

    widget = AspensPlay(seed=2, aspen="greedy", pine="human")
    widget.run_auto()  # to Pine's first move: a position with targets to highlight
    for _ in range(3):
        widget.bots = (widget.bots[0], widget.bots[0])
        widget.run_auto(120)
    widget.bots = (widget.bots[0], None)
    return harness.frame_cost(widget.board_view, 200 if QUICK else 1000)[0]


def step_number(page) -> int:
    """The 'Step N of M' counter on the page."""
    return page.evaluate(harness.STEP_JS)


def open_settings_if_folded(page) -> None:
    """Open the Play page's folded Settings (since issue 32); pages before it show the settings at once."""
    if page.get_by_role("button", name=re.compile(r"^\W*Settings\s*$")).count():
        harness.open_settings(page)


def browser_figures() -> dict:
    """Loads, Step-click and canvas-click redraw times, and auto-play rate in Chromium."""
    from playwright.sync_api import sync_playwright

    from treegames import aspens
    from treegames.ui.aspens.scene import HexGeometry

    geo = HexGeometry()
    server = harness.start_voila()
    out = {"loads": [], "steps": [], "clicks": [], "drawn": []}
    try:
        with sync_playwright() as p:
            browser = harness.launch_chromium(p)
            out["loads"] = harness.load_times(browser, server, PATH, 3 if QUICK else 6)
            page = browser.new_page(viewport={"width": 1280, "height": 1150})
            harness.open_dashboard(page, server, PATH)
            # time Step -> redraw as before: the person presses Step for each bot move (no answering by itself)
            open_settings_if_folded(page)
            page.get_by_role("checkbox", name="Bots answer by themselves").uncheck()
            harness.redraw_ms(page, "Step")  # first player: Aspen (seed 1)
            state = aspens.new_game().new_initial_state().apply(aspens.ChooseFirst(aspens.ASPEN))
            for _ in range(3):  # Aspen (human) seeds by clicking, Pine (bot) answers on Step
                target = sorted(state.legal_targets()["seed"])[0]
                page.wait_for_timeout(PACE_MS)
                out["clicks"].append(harness.redraw_ms(page, None, *geo.center(target)))
                state = state.apply(aspens.Seed(target))
                page.wait_for_timeout(PACE_MS)
                out["steps"].append(harness.redraw_ms(page, "Step"))
                harness.wait_until_stable(page, quiet_ms=300)
                bot_seed = page.locator(".widget-select select option").last.inner_text().split()[-1].rstrip(".")
                state = state.apply(state.parse_action(f"seed {bot_seed}"))
            page.get_by_role("tab", name="New game").click()
            page.locator(".widget-dropdown", has_text="Aspen").locator("select").first.select_option(label="Bot (greedy)")
            page.get_by_role("button", name=re.compile(r"Start new game")).click()
            page.get_by_role("tab", name="Event log").click()
            for _ in range(8 if QUICK else 20):
                page.wait_for_timeout(PACE_MS)
                out["steps"].append(harness.redraw_ms(page, "Step"))
                page.wait_for_timeout(PACE_MS)
                out["drawn"].append(harness.time_to_draw(page, "Step"))
            readout = page.locator(".widget-inline-hbox", has_text="steps/s").locator("input")
            readout.click()
            page.keyboard.press("Control+A")
            page.keyboard.type("20")
            page.keyboard.press("Enter")
            before = step_number(page)
            page.get_by_role("button", name=re.compile(r"Auto-play")).click()
            seconds = 4 if QUICK else 8
            frames = page.evaluate(COUNT_FRAMES_JS, seconds * 1000)
            after = step_number(page)
            page.get_by_role("button", name=re.compile(r"Pause")).click()
            out["auto"] = ((after - before) / seconds, frames / seconds, 20)
            browser.close()
    finally:
        server.stop()
    return out


def p95(values: list[float]) -> float:
    """The 95th percentile (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(0.95 * len(ordered)) - 1))]


def main() -> None:
    print(f"aspens board frame mid-game, python side: {python_frame_ms():.3f} ms median")
    f = browser_figures()
    print(f"play page load to drawn board: {statistics.median(f['loads']):.2f} s median (n={len(f['loads'])})")
    clicks = [c for c in f["clicks"] if c >= 0]
    steps = [s for s in f["steps"] if s >= 0]
    if clicks:
        print(f"click on a hex to redrawn board: {statistics.median(clicks):.1f} ms median, "
              f"{p95(clicks):.1f} ms p95 (n={len(clicks)}; issue 34: p50 <= 50, p95 <= 100)")
    print(f"Step button to redrawn board: {statistics.median(steps):.1f} ms median, {p95(steps):.1f} ms p95 "
          f"(n={len(steps)}; issue 34: p50 <= 50, p95 <= 100)")
    drawn = [d for d in f["drawn"] if d >= 0]
    if drawn:
        print(f"Step button to the frame after the board's drawing (no pixel reads): {statistics.median(drawn):.1f} ms "
              f"median, {p95(drawn):.1f} ms p95 (n={len(drawn)})")
    rate, frames, asked = f["auto"]
    print(f"auto-play at {asked} steps/s asked: {rate:.1f} steps/s done, {frames:.1f} board changes/s seen")


if __name__ == "__main__":
    main()
