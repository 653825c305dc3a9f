"""The class server in Chromium: closed tabs free their kernels, no traceback reaches a page, a class arriving at once.

Every server here is the class server (``make serve``'s ``python -m treegames.serving``) on loopback.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import harness
from treegames.serving.settings import DEFAULT_POOL_SIZE, game_pool_sizes

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "serving"))
import kernel_ws as kw  # noqa: E402

WAIT_MS = harness.WAIT_MS

BOARD = "aspens/board-and-setups.ipynb"
PLAY = "aspens/play.ipynb"
NO_ORPHAN_WATCH = ["--GuardedKernelConnection.orphan_seconds=0"]


def wait_gone(pids, timeout: float = harness.DEADLINE) -> list[int]:
    """Wait until every process in ``pids`` has ended; return the survivors (the caller asserts there are none)."""
    with contextlib.suppress(AssertionError):
        harness.wait_until(lambda: not harness.running_pids(pids), timeout, step=0.3, what=f"processes {sorted(pids)} gone")
    return harness.running_pids(pids)


@pytest.fixture(scope="module")
def beacon_server():
    """A class server whose only way to stop a closed page's kernel is the page's close beacon."""
    server = harness.start_class_server(preheat=False, extra=NO_ORPHAN_WATCH)
    yield server
    server.stop()
    assert server.alive_pids() == []


def test_closing_a_tab_opened_by_a_direct_render_link_stops_its_kernel(browser, beacon_server):
    context = browser.new_context(viewport=harness.VIEWPORT)
    page = context.new_page()
    harness.open_dashboard(page, beacon_server, BOARD)  # straight to /voila/render/..., never /voila/tree
    assert any(c["name"] == "_xsrf" for c in context.cookies()), "the page carries the cookie its beacon needs"
    kernels = beacon_server.live_kernels()
    assert len(kernels) == 1
    page.close(run_before_unload=True)  # the tab closes: Voila's beforeunload beacon fires
    survivors = wait_gone(kernels)
    context.close()
    assert survivors == [], "the closed tab's kernel is stopped by its beacon, not 15 minutes later"
    log = beacon_server.log_path.read_text(errors="replace")
    assert "403 POST /voila/api/shutdown" not in log


def test_a_page_gone_without_its_beacon_has_its_kernel_stopped_soon(browser):
    server = harness.start_class_server(preheat=False, extra=["--GuardedKernelConnection.orphan_seconds=3"])
    try:
        context = browser.new_context(viewport=harness.VIEWPORT)
        page = context.new_page()
        harness.open_dashboard(page, server, BOARD)
        kernels = server.live_kernels()
        assert len(kernels) == 1
        page.close(run_before_unload=False)  # a phone that drops the tab: no beacon
        context.close()
        assert wait_gone(kernels) == [], "the kernel of a page that went away is stopped"
    finally:
        server.stop()
    assert server.alive_pids() == []


def kernel_id_of(page) -> str:
    """The kernel id in the page's Voila config."""
    return page.evaluate("() => JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId")


async def nan_clicks(base: str, kernel_id: str) -> None:
    """From a second socket on the page's kernel, click its board with NaN, infinite and missing coordinates."""
    socket = await kw.connect(kw.Page(base, kernel_id, "", ""))
    board = kw.canvases(await socket.widget_states())[0]
    for x in ("NaN", "Infinity", "-Infinity", "null"):
        await socket.click_canvas(board, x, 300, raw=True)
    await socket.kernel_info()
    socket.close()


def test_a_nan_click_shows_no_traceback_in_the_page_and_the_board_still_answers(browser, beacon_server):
    context = browser.new_context(viewport=harness.VIEWPORT)
    page = context.new_page()
    heard: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda frame: heard.append(
        frame if isinstance(frame, str) else frame.decode("utf-8", "replace"))))
    harness.open_dashboard(page, beacon_server, BOARD)
    kernel_id = kernel_id_of(page)
    with ThreadPoolExecutor(1) as other_thread:  # Playwright's own event loop runs in this thread
        other_thread.submit(asyncio.run, nan_clicks(beacon_server.base, kernel_id)).result(
            timeout=harness.DEADLINE * harness.DEADLINE_SCALE)

    def nothing_leaked() -> bool:
        text = page.inner_text("body")
        return not any(leak in text for leak in ("Traceback", "most recent call", ".py", "Error")) \
            and "Traceback" not in " ".join(heard)

    # the kernel has answered the clicks (kernel_info came after them): a traceback would show within moments
    with contextlib.suppress(AssertionError):  # the assertions below name what leaked
        harness.holds_for(nothing_leaked, 1.5, step=0.1, pause=harness.on_page(page), what="no traceback on the page")
    text = page.inner_text("body")
    harness.screenshot(page, "serving-after-nan-click")
    for leak in ("Traceback", "most recent call", ".py", "Error"):
        assert leak not in text, f"{leak!r} shown on the page"
    frames = " ".join(heard)
    assert "Traceback" not in frames, "no traceback even reaches the page's websocket"
    assert harness.time_to_redraw(page, None, 300, 300) >= 0, "the board still redraws on a real click"
    context.close()


PROGRESS_JS = """
(() => {
  window.__treegamesProgress = [];
  const note = () => {
    const e = document.getElementById('loading_text');
    const text = e && e.textContent.trim();
    const seen = window.__treegamesProgress;
    if (text && seen[seen.length - 1] !== text) seen.push(text);
  };
  new MutationObserver(note).observe(document, {subtree: true, childList: true, characterData: true});
})();
"""
"""Installed before the page's own scripts: every text Voila's loading line shows is kept, however briefly shown."""


def watch_sockets(page, visit: dict) -> None:
    """Keep what a visitor's page said and did on its sockets, to explain a page that stays blank."""
    page.on("console", lambda m: visit["console"].append(f"{m.type}: {m.text[:200]}") if m.type in ("error", "warning")
            else None)

    def opened(ws) -> None:
        seen = {"url": ws.url.rsplit("/", 2)[-2][:8], "sent": 0, "received": 0, "closed": False}
        visit["sockets"].append(seen)
        ws.on("framesent", lambda _f: seen.__setitem__("sent", seen["sent"] + 1))
        ws.on("framereceived", lambda _f: seen.__setitem__("received", seen["received"] + 1))
        ws.on("close", lambda _w: seen.__setitem__("closed", True))

    page.on("websocket", opened)


def blank_report(visits: list[dict]) -> str:
    """For each visitor whose board never drew: its sockets (frames each way, closed?) and console errors."""
    return "; ".join(f"visitor {i}: sockets {v['sockets']}, console {v['console'][:5]}, loading {sorted(v['progress'])}"
                     for i, v in enumerate(visits) if v["drawn"] is None)


def arrive_together(browser, server, count: int) -> list[dict]:
    """``count`` visitors open the play page at the same moment; each one's first paint and every progress line seen."""
    visits = []
    for _ in range(count):
        context = browser.new_context(viewport=harness.VIEWPORT)
        context.add_init_script(PROGRESS_JS)
        page = context.new_page()
        visit = {"context": context, "page": page, "progress": set(), "drawn": None, "console": [],
                 "sockets": []}
        watch_sockets(page, visit)
        page.goto(f"{server.base}/voila/render/{PLAY}", wait_until="commit", timeout=WAIT_MS)
        visits.append(visit)
    start = time.monotonic()

    def all_drawn() -> bool:
        for v in visits:
            if v["drawn"] is not None:
                continue
            stats = harness.canvas_stats(v["page"])
            if stats and stats["inked"] >= 5000:
                v["drawn"] = time.monotonic() - start
        return all(v["drawn"] is not None for v in visits)

    with contextlib.suppress(AssertionError):  # the caller asserts which pages stayed blank
        harness.wait_until(all_drawn, 1.5 * harness.DEADLINE, step=0.2, pause=harness.on_page(visits[0]["page"]),
                           what="every visitor's board drawn")
    for v in visits:  # what each loading line said, caught as it changed (a sampler missed short-lived lines)
        v["progress"] = set(v["page"].evaluate("() => window.__treegamesProgress || []"))
    return visits


def is_running_words(progress: set[str]) -> bool:
    """Whether a visitor's loading line named the notebook running (Voila's 'Running…' / 'Executing cell…')."""
    return any("Running" in t or "Executing" in t for t in progress)


@pytest.mark.slow
@pytest.mark.machine  # a class arriving: one at a time (tests/conftest.py)
@pytest.mark.parametrize("preheat", [True, False], ids=["preheated", "started-on-arrival"])
def test_four_visitors_arriving_at_once_all_get_a_drawn_board(browser, preheat):
    server = harness.start_class_server(preheat=preheat)
    try:
        visits = arrive_together(browser, server, 4)
        for i, v in enumerate(visits):
            harness.screenshot(v["page"], f"serving-arrival-{'pool' if preheat else 'cold'}-{i}")
        assert all(v["drawn"] is not None for v in visits), \
            f"blank pages: {[v['drawn'] for v in visits]}; {blank_report(visits)}"
        # A visitor who waits for a kernel to run the notebook sees it running. Who waits is set by the pool,
        # not by the clock: every visitor beyond the pool's preheated kernels (all four without a pool).
        cold = 4 - (game_pool_sizes().get(PLAY, DEFAULT_POOL_SIZE) if preheat else 0)
        told = [v for v in visits if is_running_words(v["progress"])]
        assert len(told) >= cold, f"a visitor who waits sees what is happening: {[v['progress'] for v in visits]}"
        for v in visits:
            assert harness.time_to_redraw(v["page"], "Step") >= 0, "every board answers Step"
            v["context"].close()
    finally:
        server.stop()
    assert server.alive_pids() == []
