"""A class arriving at once: N visitors open the same dashboard together on the class server (loopback).

Run: python benchmarks/bench_classroom.py [--quick] [--sizes 1,10,20,30] [--page aspens/play.ipynb] [--no-preheat]
       [--browsers 5] [--prepared] [--no-line]
Unprepared (issue 34: ``--sizes 30 --browsers 2``): pages beyond the pool take turns on the server's waiting page
(``--no-line``: they all start at once, as before); each row is followed by the processor-sharing floor
(N / cores x one kernel's imports, measured here: ipykernel and the notebook's import lines in a fresh
Python) and the median delivery against it (target <= 2x), and how long after the median delivery the
Chromium pages painted (target <= 10 s).
``--prepared``: the teacher prepared the page for the class (``--class PAGE=N``): the server gets N kernels
ready for it, and the visitors come once its log says all N are ready (issue 34's "prepared page" target:
median first paint <= 3 s, p95 <= 6 s, for 28 protocol visitors and 2 Chromium pages).
For each N a fresh class server (``make serve``'s settings, ``python -m treegames.serving``) starts and
fills its preheated pools; then N visitors open the dashboard at the same moment: ``--browsers`` of them
in Chromium (their first paint and Step->redraw are measured in the page), the others as websocket
visitors that do what a browser on another computer makes the server do (fetch the page, connect to the
kernel, fetch every widget) -- Chromium rendering 30 pages on this 2-core machine would otherwise measure
the browsers, not the server. "Ready" is page delivered with its drawn board's widgets. Reported: pages
drawn (never blank), whether a waiting visitor saw progress, median and max time to the first drawn
canvas, Step->redraw median and p95 once every page is loaded (each page in turn, the others open), total
kernel memory, and the ratios to N = 1. Bounded: at most 40 visitors, 127.0.0.1 only, 240 s per page.
Targets (issue 14): at N = 30 every page drawn, median first paint <= 20 s, Step->redraw median <= 150 ms.
Capacity figure: kernel MB per visitor and visitors per core at the target, from the largest N that met it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "serving"))
import kernel_ws  # noqa: E402

import harness  # noqa: E402

MAX_VISITORS = 40
PAGE_TIMEOUT = 240.0
INKED = 5000
PROGRESS_JS = "() => { const e = document.getElementById('loading_text'); return e ? e.textContent : null; }"
STEP_JS = harness.REDRAW_TIME_JS
PACE_MS = 200
"""A visitor's pace between two Steps (back to back, a Step waits behind the last one's widget updates)."""
STEP_LIMIT_MS = 10_000
"""A Step that redraws nothing in this long (a person is to move, say) counts as no redraw, not as a wait for ever."""


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))]


def wait_for_pools(server: harness.Server, timeout: float = 240.0) -> None:
    """Wait until every notebook's preheated pool is filled (the server's log says so)."""
    notebooks = [p for p in harness.NOTEBOOKS.rglob("*.ipynb") if ".ipynb_checkpoints" not in str(p)]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        filled = len(re.findall(r"Kernel pool of .* is filled", server.log_path.read_text(errors="replace")))
        if filled >= len(notebooks):
            return
        time.sleep(1)
    print(f"  (pools not all filled after {timeout:.0f} s)")


def wait_for_prepared(server: harness.Server, path: str, n: int, timeout: float = 600.0) -> float:
    """Wait until the server's log says all ``n`` kernels for ``path`` have run the page; the seconds waited."""
    from treegames.service.preparation import page_title

    start = time.monotonic()
    line = f"{n} of {n} kernels ready for {page_title(path)}"
    while time.monotonic() - start < timeout and line not in server.log_path.read_text(errors="replace"):
        time.sleep(0.5)
    return time.monotonic() - start


async def open_tab(browser) -> tuple:
    """A Chromium tab opened before the class arrives (a visitor's browser is running before they type the address)."""
    context = await browser.new_context(viewport=harness.VIEWPORT)
    return context, await context.new_page()


async def visitor(tab: tuple, url: str, start: float) -> dict:
    """One visitor: open the page, note progress text (Voila's, or the waiting page's), wait for the first drawn canvas."""
    context, page = tab
    result = {"page": page, "context": context, "drawn": None, "progress": set()}
    try:
        await page.goto(url, wait_until="commit", timeout=PAGE_TIMEOUT * 1000)
        while time.monotonic() - start < PAGE_TIMEOUT:
            try:
                stats = await page.evaluate(harness.CANVAS_STATS_JS, 0)
                text = await page.evaluate(PROGRESS_JS)
            except Exception as error:  # the waiting page opening the real one: look again
                if not harness.is_between_documents(error):
                    raise
                stats, text = None, None
            if stats and stats["inked"] >= INKED:
                result["drawn"] = time.monotonic() - start
                break
            if text:
                result["progress"].add(text.strip())
            await asyncio.sleep(0.25)
    except Exception as error:  # a page that errors counts as not drawn; the reason is shown
        result["error"] = f"{type(error).__name__}: {str(error)[:120]}"
    return result


async def socket_visitor(base: str, path: str, start: float, threads: ThreadPoolExecutor) -> dict:
    """A visitor whose browser runs elsewhere: the server does the same work (page, kernel, widgets).

    Its page is fetched in a thread of its own (asyncio's default pool would let only a few fetch at once),
    following the waiting page as its script would."""
    result = {"drawn": None, "progress": {"Running"}, "socket": None}
    try:
        page = await asyncio.get_running_loop().run_in_executor(
            threads, kernel_ws.fetch_page, base, f"/voila/render/{path}", PAGE_TIMEOUT)
        result["waited"] = bool(page.waited)
        result["socket"] = socket = await kernel_ws.connect(page, timeout=PAGE_TIMEOUT)
        states = await socket.widget_states(timeout=PAGE_TIMEOUT)
        if kernel_ws.canvases(states) and "Running" in page.html:
            result["drawn"] = time.monotonic() - start
    except Exception as error:
        result["error"] = f"{type(error).__name__}: {str(error)[:120]}"
    return result


async def step_times(visits: list[dict], steps: int) -> list[float]:
    """Step->redraw ms on each drawn page in turn (the others stay open)."""
    times = []
    for visit in visits:
        if visit["drawn"] is None or "page" not in visit:
            continue
        for _ in range(steps):
            try:
                await visit["page"].wait_for_timeout(PACE_MS)
                ms = await visit["page"].evaluate(STEP_JS, ["Step", 0, 0, STEP_LIMIT_MS])
            except Exception:  # a page without a Step button: no Step figure
                break
            if ms >= 0:
                times.append(ms)
    return times


async def one_class(n: int, path: str, preheat: bool, steps: int, browsers: int, prepared: bool = False,
                    line: bool = True, fork: bool = True) -> dict:
    """Start a fresh class server, send n visitors at once (``browsers`` of them in Chromium), measure, stop.

    ``prepared``: the teacher named the page and the head count (``--class PAGE=N``), so the server gets n
    kernels ready for it before the class arrives.
    """
    from playwright.async_api import async_playwright

    extra = ([f"--pool={path}={n}"] if prepared else []) + ([] if line else ["--ClassroomVoila.arrivals_at_once=0"])
    extra += [] if fork else ["--ClassroomVoila.fork_kernels=False"]
    server = harness.start_class_server(preheat=preheat, extra=extra)
    try:
        if preheat:
            wait_for_pools(server)
            if prepared:
                print(f"  ({n} kernels prepared for {path}: all ready {wait_for_prepared(server, path, n):.0f} s after the "
                      "pools were filled)", flush=True)
        else:
            time.sleep(2)
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=str(harness.CHROMIUM), headless=True,
                                              args=harness.CHROMIUM_ARGS)
            in_chromium = min(n, browsers)
            tabs = [await open_tab(browser) for _ in range(in_chromium)]
            threads = ThreadPoolExecutor(max_workers=max(1, n - in_chromium))
            start = time.monotonic()
            visits = await asyncio.gather(
                *[visitor(tab, f"{server.base}/voila/render/{path}", start) for tab in tabs],
                *[socket_visitor(server.base, path, start, threads) for _ in range(n - in_chromium)])
            threads.shutdown()
            rss = server.kernel_rss()
            steps_ms = await step_times(visits, steps)
            errors = [v["error"] for v in visits if "error" in v]
            for v in visits:
                if v.get("socket"):
                    v["socket"].close()
            await browser.close()
        drawn = [v["drawn"] for v in visits if v["drawn"] is not None]
        painted = [v["drawn"] for v in visits if v["drawn"] is not None and "page" in v]
        progress = sum(1 for v in visits if "page" in v and any(re.search(r"Executing|Running|ahead of yours|is next", t)
                                                                 for t in v["progress"]))
        return {"n": n, "drawn": drawn, "painted": painted, "browsers": in_chromium, "progress": progress,
                "steps": steps_ms, "rss": rss, "errors": errors, "waited": sum(1 for v in visits if v.get("waited"))}
    finally:
        server.stop()


def import_seconds(path: str, runs: int = 3) -> float:
    """CPU seconds one kernel spends on its imports for ``path`` (ipykernel and the notebook's import lines), median of runs."""
    cells = json.loads((harness.NOTEBOOKS / path).read_text())["cells"]
    lines = [line for c in cells if c["cell_type"] == "code" for line in "".join(c["source"]).splitlines()
             if line.startswith(("import ", "from "))]
    code = "\n".join(["import ipykernel.kernelapp", *lines])
    spent = []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([sys.executable, "-c", code], check=True, cwd=harness.NOTEBOOKS / os.path.dirname(path))
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        spent.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(spent)


def floor_line(figures: dict, imports: float) -> str:
    """The processor-sharing floor (N / cores x one kernel's imports) and how the class did against it."""
    cores = os.cpu_count() or 1
    floor = figures["n"] / cores * imports
    drawn, painted = figures["drawn"], figures["painted"]
    text = f"    floor: {figures['n']} / {cores} cores x {imports:.2f} s imports = {floor:.1f} s"
    if drawn:
        med = statistics.median(drawn)
        text += f"; median delivery {med:.1f} s = {med / floor:.2f}x the floor"
        if painted:
            text += f"; Chromium first paint median {statistics.median(painted) - med:+.1f} s after the median delivery"
    return text + f"; {figures.get('waited', 0)} protocol visitors waited their turn on the waiting page"


def row(figures: dict, base: dict | None) -> str:
    """One table row, with ratios to the N = 1 row."""
    drawn, steps, painted = figures["drawn"], figures["steps"], figures["painted"]
    med = statistics.median(drawn) if drawn else float("nan")
    worst = max(drawn) if drawn else float("nan")
    p_med = statistics.median(painted) if painted else float("nan")
    p_max = max(painted) if painted else float("nan")
    step_med = statistics.median(steps) if steps else float("nan")
    step_p95 = percentile(steps, 95) if steps else float("nan")
    total = sum(figures["rss"]) / 2 ** 20
    p95 = percentile(drawn, 95) if drawn else float("nan")
    text = (f"| {figures['n']:>2} | {len(drawn):>2}/{figures['n']:<2} | {figures['progress']}/{figures['browsers']} | "
            f"{med:6.1f} | {p95:6.1f} | {worst:6.1f} | {p_med:6.1f} | {p_max:6.1f} | {step_med:6.0f} | {step_p95:6.0f} | "
            f"{total:7.0f} ({len(figures['rss'])} kernels) |")
    if base and base["drawn"] and drawn:
        b_med = statistics.median(base["drawn"])
        b_step = statistics.median(base["steps"]) if base["steps"] else float("nan")
        text += f" x{med / b_med:4.1f} paint, x{step_med / b_step:4.1f} step, x{total / (sum(base['rss']) / 2**20):4.1f} memory |"
    else:
        text += " - |"
    return text


def capacity(results: list[dict]) -> str:
    """Kernel memory per visitor and visitors per core from the largest N meeting the targets."""
    met = [r for r in results if len(r["drawn"]) == r["n"] and r["drawn"] and statistics.median(r["drawn"]) <= 20
           and r["steps"] and statistics.median(r["steps"]) <= 150]
    if not met:
        return "capacity: no N met every target on this machine"
    best = max(met, key=lambda r: r["n"])
    per_visitor = statistics.median(best["rss"]) / 2 ** 20
    cores = os.cpu_count() or 1
    return (f"capacity: {best['n']} visitors arriving at once met every target on {cores} cores "
            f"({best['n'] / cores:.0f} visitors per core); kernel memory {per_visitor:.0f} MB per visitor")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--sizes", default=None)
    parser.add_argument("--page", default="aspens/play.ipynb")
    parser.add_argument("--also", default="bosk/play.ipynb,mighty_trees/play.ipynb",
                        help="heavier pages also measured, at the smallest and largest N (if they exist)")
    parser.add_argument("--no-preheat", action="store_true")
    parser.add_argument("--prepared", action="store_true",
                        help="the teacher prepared the page for the class: N kernels ready for it (--class PAGE=N)")
    parser.add_argument("--no-line", action="store_true",
                        help="every page that needs a kernel starts it at once (no waiting page): the old behaviour")
    parser.add_argument("--no-fork", action="store_true",
                        help="every kernel a new Python (no fork server): the behaviour before the fork server")
    parser.add_argument("--browsers", type=int, default=5,
                        help="visitors in Chromium on this machine; the rest are websocket visitors")
    options = parser.parse_args()
    sizes = [int(s) for s in (options.sizes or ("1,4" if options.quick else "1,10,20,30")).split(",")]
    sizes = [min(s, MAX_VISITORS) for s in sizes]
    steps = 2 if options.quick else 3
    preheat = not options.no_preheat
    print(f"classroom: {options.page}, {'preheated pools' if preheat else 'kernels started on arrival'}, "
          f"{'each kernel a new Python' if options.no_fork else 'kernels forked from the fork server'}, "
          f"sizes {sizes}, {os.cpu_count()} cores (load from other processes on this machine adds noise)")
    print("|  N | pages drawn | Chromium pages that showed progress | ready median s | p95 s | ready max s "
          "| Chromium first paint median s | max s | Step->redraw median ms | p95 ms | kernel memory MB | vs N=1 |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    results = []
    imports = import_seconds(options.page)
    for n in sizes:
        figures = asyncio.run(one_class(n, options.page, preheat, steps, options.browsers, options.prepared,
                                        not options.no_line, not options.no_fork))
        results.append(figures)
        print(row(figures, results[0] if n != sizes[0] else None), flush=True)
        print(floor_line(figures, imports), flush=True)
        for error in figures["errors"][:3]:
            print(f"    page error: {error}")
    print(capacity(results))
    for other in [p for p in options.also.split(",") if p and (harness.NOTEBOOKS / p).exists()]:
        ends = sorted({sizes[0], sizes[-1]})
        print(f"\n{other}: sizes {ends}")
        rows = []
        for n in ends:
            figures = asyncio.run(one_class(n, other, preheat, steps, options.browsers, fork=not options.no_fork))
            rows.append(figures)
            print(row(figures, rows[0] if n != ends[0] else None), flush=True)
            for error in figures["errors"][:3]:
                print(f"    page error: {error}")


if __name__ == "__main__":
    main()
