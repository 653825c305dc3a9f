"""Shared tables, pages: from a click on one dashboard to the opponent's dashboard showing the new state.

Run as ``python benchmarks/bench_tables_ui.py`` (about a minute) or with ``--quick``. Two Aspens
dashboards per table sit at one table, reached two ways: an in-process Authority on a temporary SQLite
file, and over HTTP through the real class server's mount (``python -m treegames.serving``, the kernels'
path: the server is started here, its key read from its preheated kernel's environment). The mover
plays its first highlighted place (``play_at``, the click path) and the clock runs until the other
dashboard's long-poll thread has pushed the new state into its timeline (its refresh, board included,
has run). Measured with 1 table, then with 15 tables and 30 seats live (every dashboard long-polling).
Last, the whole path in Chromium: two pages of the real class server at one table, a click on the
mover's board, and the clock (Date.now() in both pages) runs until the opponent's page draws on its
board canvas (its drawing calls are watched in the page) -- kernel, authority, long poll, websocket and
canvas included.
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import harness  # noqa: E402
from treegames.service.store import open_store  # noqa: E402
from treegames.tables import client as tables_client  # noqa: E402
from treegames.tables.authority import Authority  # noqa: E402
from treegames.tables.limits import Limits  # noqa: E402
from treegames.ui.aspens.play import AspensPlay  # noqa: E402
from treegames.ui.tables import TablePanel  # noqa: E402
from treegames.ui.tables import panel as panel_module  # noqa: E402

KERNELS = itertools.count(1)

SMALL_PAGE = {"cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
                         "source": ["print('a kernel for the benchmark')"]}],
              "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
              "nbformat": 4, "nbformat_minor": 5}


def seat_pair(authority: Authority) -> tuple:
    """Two dashboards at one new two-person table (creator first), as two kernels (two visitors) would be."""
    panel_module.VISITOR = f"bench-kernel-{next(KERNELS)}"  # each kernel names its own visitor
    a, b = AspensPlay(), AspensPlay()
    pa, pb = TablePanel(a, client=authority, read_url=False), TablePanel(b, client=authority, read_url=False)
    assert pa.create()
    pb.code_box.value = pa.table.view.code
    assert pb.join_from_box()
    wait(lambda: pa.table.view.status == "playing")
    return (a, pa), (b, pb)


def wait(check, seconds: float = 30.0) -> None:
    """Spin until ``check()`` holds."""
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise RuntimeError("a dashboard did not follow its table")
        time.sleep(0.0005)


def one_move(pair: tuple) -> float:
    """Seconds from the mover's click to the other dashboard showing the same newest state."""
    (a, _pa), (b, _pb) = pair
    wait(lambda: a.is_human_turn() or b.is_human_turn())
    mover, other = (a, b) if a.is_human_turn() else (b, a)
    targets = mover.keyboard_targets()
    start = time.perf_counter()
    if targets:
        assert mover.play_at(targets[0]), mover.message.value
    else:  # nowhere left to play this turn: End turn, as the button does
        mover.end_turn()
    target = mover.timeline.latest.to_json()
    wait(lambda: other.timeline.latest.to_json() == target)
    return time.perf_counter() - start


def measure(client, tables: int, moves: int) -> list[float]:
    """Move-to-redraw times over ``moves`` moves on table 0 while ``tables`` tables are live at ``client``."""
    pairs = [seat_pair(client) for _ in range(tables)]
    times = []
    for i in range(moves):
        times.append(one_move(pairs[0]))
        if tables > 1:  # the other tables play too, one move each in turn
            one_move(pairs[1 + i % (tables - 1)])
    for (_, pa), (_, pb) in pairs:
        pa.table.stop()
        pb.table.stop()
    return times


def in_process(tables: int, moves: int) -> list[float]:
    """``measure`` on an in-process Authority over a temporary SQLite file."""
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(f"sqlite:///{folder}/bench.sqlite3")
        authority = Authority(store, Limits(creations_per_visitor=100), teacher_code="BENCH-1")  # one process: one visitor
        try:
            return measure(authority, tables, moves)
        finally:
            store.close()


def mount_client(server) -> object:
    """An HTTP client for the class server's mount, with the key its preheated kernel was given."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        for env in server.kernel_environs():
            if env.get("TREEGAMES_TABLES_KEY"):
                return tables_client.connect(env["TREEGAMES_TABLES_URL"], env["TREEGAMES_TABLES_KEY"])
        time.sleep(0.5)
    raise RuntimeError("the class server started no kernel with the tables' key")


def over_the_mount(runs: list[tuple[int, int]]) -> list[list[float]]:
    """``measure`` for each (tables, moves) through a real class server's mount (started and stopped here)."""
    with tempfile.TemporaryDirectory() as folder:
        root, data = Path(folder, "pages"), Path(folder, "data")
        root.mkdir()
        (root / "small.ipynb").write_text(json.dumps(SMALL_PAGE))
        env = {**harness.os.environ, "TREEGAMES_DATA_DIR": str(data)}
        server = harness.start_class_server(root, env=env)
        try:
            client = mount_client(server)
            return [measure(client, tables, moves) for tables, moves in runs]
        finally:
            server.stop()


DRAW_WATCH_JS = """() => { window.__lastDraw = 0; const proto = CanvasRenderingContext2D.prototype;
  for (const name of ['fill', 'fillRect', 'drawImage', 'putImageData', 'stroke']) {
    const real = proto[name];
    proto[name] = function (...args) { window.__lastDraw = Date.now(); return real.apply(this, args); };
  } }"""
"""Record in the page the time of its latest canvas drawing call."""


def browser_redraw(moves: int) -> list[float]:
    """Click to the opponent's canvas drawing, in Chromium, over the real class server (started here)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "browser"))
    import test_shared_tables as pages  # the browser test's page helpers (open, create, join)
    from playwright.sync_api import sync_playwright

    times: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        env = {k: v for k, v in harness.os.environ.items() if not k.startswith("TREEGAMES_TABLES_")}
        server = harness.start_class_server(preheat=False, env={**env, "TREEGAMES_DATA_DIR": folder})
        store = open_store(f"sqlite:///{folder}/treegames.sqlite3")
        try:
            with sync_playwright() as playwright:
                browser = harness.launch_chromium(playwright)
                contexts, (a, b), code = pages.start_table(browser, server)
                authority = Authority(store)
                kit = AspensPlay()
                for page in (a, b):
                    page.evaluate(DRAW_WATCH_JS)
                for _ in range(moves):
                    table_id, state = pages.table_state(authority, code)
                    if state.is_terminal():
                        break
                    mover, other = (a, b) if state.current_player == 0 else (b, a)
                    places = [p for p in kit.places() if state.actions_at(p)]
                    harness.wait_until_stable(mover)
                    harness.wait_until_stable(other)
                    mover.evaluate(pages.SHOW_BOARD)
                    start = mover.evaluate("() => Date.now()")
                    if places:
                        harness.click_canvas(mover, *kit.place_centre(places[0]))
                    else:
                        pages.press(mover, "End turn")
                    other.wait_for_function("(t) => window.__lastDraw > t", arg=start, timeout=60_000)
                    times.append((other.evaluate("() => window.__lastDraw") - start) / 1000)
                    logged = len(state.history)
                    wait(lambda t=table_id, n=logged: len(authority.log_of(t)) > n)
                for context in contexts:
                    context.close()
                browser.close()
        finally:
            store.close()
            server.stop()
    return times


def report(name: str, times: list[float]) -> None:
    """Print p50 and p95 in milliseconds."""
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    print(f"{name}: {len(times)} moves, move to opponent redraw p50 {statistics.median(times) * 1000:.1f} ms, "
          f"p95 {p95 * 1000:.1f} ms")


def main() -> None:
    """Run the measurements."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer moves (a few seconds)")
    args = parser.parse_args()
    moves = 10 if args.quick else 40
    report("in process, 1 table", in_process(1, moves))
    report("in process, 15 tables, 30 seats live", in_process(15, moves))
    one, many = over_the_mount([(1, moves), (15, moves)])
    report("class server mount (HTTP), 1 table", one)
    report("class server mount (HTTP), 15 tables, 30 seats live", many)
    report("Chromium pages, 1 table: click to the opponent's canvas drawing", browser_redraw(moves))


if __name__ == "__main__":
    main()
