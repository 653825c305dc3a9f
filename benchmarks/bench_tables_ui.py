"""Shared tables, pages: from a click on one dashboard to the opponent's dashboard showing the new state.

Run as ``python benchmarks/bench_tables_ui.py`` (about 20 s) or with ``--quick``. Two Aspens
dashboards per table sit at one table of the in-process Authority on a temporary SQLite file; the mover
plays its first highlighted place (``play_at``, the click path) and the clock runs until the other
dashboard's long-poll thread has pushed the new state into its timeline (its refresh, board included,
has run). Measured with 1 table, then with 15 tables and 30 seats live (every dashboard long-polling).
This is the kernel side only: the browser's websocket and canvas drawing come on top (see
tests/browser/test_shared_tables.py for the real pages).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time

from treegames.tables.authority import Authority
from treegames.tables.limits import Limits
from treegames.tables.store import open_store
from treegames.ui.aspens.play import AspensPlay
from treegames.ui.tables import TablePanel


def seat_pair(authority: Authority) -> tuple:
    """Two dashboards at one new two-person table (creator first)."""
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
    place = mover.keyboard_targets()[0]
    start = time.perf_counter()
    assert mover.play_at(place), mover.message.value
    target = mover.timeline.latest.to_json()
    wait(lambda: other.timeline.latest.to_json() == target)
    return time.perf_counter() - start


def measure(tables: int, moves: int) -> list[float]:
    """Move-to-redraw times over ``moves`` moves on table 0 while ``tables`` tables are live."""
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(f"sqlite:///{folder}/bench.sqlite3")
        authority = Authority(store, Limits(creations_per_visitor=100), teacher_code="BENCH-1")  # one process: one visitor
        pairs = [seat_pair(authority) for _ in range(tables)]
        times = []
        for i in range(moves):
            times.append(one_move(pairs[0]))
            if tables > 1:  # the other tables play too, one move each in turn
                one_move(pairs[1 + i % (tables - 1)])
        for (_, pa), (_, pb) in pairs:
            pa.table.stop()
            pb.table.stop()
        store.close()
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
    report("1 table", measure(1, moves))
    report("15 tables, 30 seats live", measure(15, moves))


if __name__ == "__main__":
    main()
