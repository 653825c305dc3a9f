"""Mighty Trees dashboard figures: Python frame cost, page load, click to redrawn table.

Run: python benchmarks/bench_mighty_trees_ui.py [--quick]
Targets (issue 13): frame <= 1 ms median (Python side: scene, commands, serialising);
click -> redrawn table <= 100 ms median in Chromium.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
import harness  # noqa: E402

QUICK = "--quick" in sys.argv
PATH = "mighty_trees/play.ipynb"

CLICK_TO_REDRAW_JS = """
async ([x, y]) => {
  const c = document.querySelector('canvas.treegames-board-canvas');
  const ctx = c.getContext('2d');
  const probe = () => { const d = ctx.getImageData(0, 0, c.width, c.height).data; let h = 0;
    for (let i = 0; i < d.length; i += 32) h = (h * 31 + d[i] + d[i + 1] + d[i + 2]) | 0; return h; };
  const before = probe();
  const rect = c.getBoundingClientRect();
  const scale = rect.width / c.width;
  const t0 = performance.now();
  c.dispatchEvent(new MouseEvent('mousedown', {clientX: rect.left + x * scale, clientY: rect.top + y * scale,
                                               bubbles: true}));
  while (probe() === before) {
    await new Promise(r => requestAnimationFrame(r));
    if (performance.now() - t0 > 5000) return -1;
  }
  return performance.now() - t0;
}
"""


def mid_game(players: int = 3):
    """A play widget at a person's turn some turns in (trees, litter and weather on the table)."""
    from treegames import mighty_trees as mt
    from treegames.ui.mighty_trees.play import MightyTreesPlay

    widget = MightyTreesPlay(seed=4, seats=("human",) + ("greedy",) * (players - 1), players=players,
                             teacher=False)
    widget.bots = (widget.bots[1],) + widget.bots[1:]
    widget.run_auto(150)
    widget.bots = (None,) + widget.bots[1:]
    widget.run_auto()
    if widget.state.is_terminal():  # show the person's last turn instead (targets lit)
        states = widget.timeline.states
        widget.timeline.jump(max(i for i, s in enumerate(states) if s.phase is mt.Phase.BATTLE and s.mover == 0))
    return widget


def python_figures() -> dict:
    """Median ms for a full table frame (and for the pure scene alone), mid-game with targets lit."""
    from treegames.ui.mighty_trees.table_scene import table_scene

    out = {}
    for players in (2, 6):
        widget = mid_game(players)
        state = widget.state
        frames = 200 if QUICK else 1000
        out[f"frame_{players}"] = harness.frame_cost(widget.board_view, frames)
        view = state.view_for(0)
        times = []
        for _ in range(frames):
            t0 = time.perf_counter()
            table_scene(view)
            times.append((time.perf_counter() - t0) * 1000)
        out[f"scene_{players}"] = statistics.median(times)
    return out


def browser_figures() -> dict:
    """Page load to drawn table, and click on a card to redrawn table, in Chromium."""
    from playwright.sync_api import sync_playwright

    from treegames.ui.mighty_trees.play import MightyTreesPlay

    mirror = MightyTreesPlay(seed=1, seats=("human", "greedy"))
    mirror.run_auto()
    scene = mirror.board_view.last_scene
    from treegames.ui.scene import Polygons

    tag = ("hand", mirror.state.hand(mirror.state.mover)[0].id)
    box = next(pts for op in scene.ops if isinstance(op, Polygons) and op.tags
               for pts, t in zip(op.points, op.tags, strict=True) if t == tag)
    x, y = float(box[:, 0].mean()), float(box[:, 1].mean())
    server = harness.start_voila()
    out = {"loads": [], "clicks": []}
    try:
        with sync_playwright() as p:
            browser = harness.launch_chromium(p)
            out["loads"] = harness.load_times(browser, server, PATH, 3 if QUICK else 6)
            page = browser.new_page(viewport={"width": 1280, "height": 1400})
            harness.open_dashboard(page, server, PATH)
            page.wait_for_function("() => document.body.innerText.includes(\"P1's move\")", timeout=60_000)
            harness.wait_until_stable(page, quiet_ms=1000)
            for _ in range(10 if QUICK else 30):  # choose / un-choose the same card: a redraw each time
                out["clicks"].append(page.evaluate(CLICK_TO_REDRAW_JS, [x, y]))
                page.wait_for_timeout(80)
            browser.close()
    finally:
        server.stop()
    return out


def main() -> None:
    py = python_figures()
    for players in (2, 6):
        ms, messages = py[f"frame_{players}"]
        print(f"mighty trees table frame, {players} players, python side: {ms:.3f} ms median "
              f"({messages:.0f} message/frame); scene alone {py[f'scene_{players}']:.3f} ms")
    f = browser_figures()
    print(f"play page load to drawn table: {statistics.median(f['loads']):.2f} s median (n={len(f['loads'])})")
    clicks = [c for c in f["clicks"] if c >= 0]
    print(f"click on a card to redrawn table: {statistics.median(clicks):.1f} ms median (n={len(clicks)}, "
          f"{len(f['clicks']) - len(clicks)} without a redraw)")


if __name__ == "__main__":
    main()
