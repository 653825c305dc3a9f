"""A class experiment under load: N students rolling the Sun die at R rolls a second each, with a projector watching.

Run: python benchmarks/bench_experiments.py [--quick] [--students 30] [--rate 10] [--seconds 120]
       [--store sqlite | postgresql://...]
The experiment server (the same routes the class server mounts, ``tests/experiments/exp_server.py``)
runs in its own process on 127.0.0.1 over a fresh store; each student is a thread with its own HTTP
client that joins, then sends one roll per batch every 1/R seconds; a projector long-polls the class
(``wait`` with a 1 s timeout and at most 4 snapshots a second, as the teacher page does), and each student's Join box long-polls too (at
most one snapshot a second, as the box does; ``--no-student-feeds`` leaves them out).  Reported: the pooled count against the sum
the students were told was accepted (must be equal), projector updates and the longest gap between
two of them (target <= 1 s throughout), the time from sending a roll to the projector's first
snapshot that holds it (p50, p95; aim p95 <= 1 s), and the rolls per second achieved.
Bounded: at most 60 students, 600 s, loopback only.  ``--store postgresql`` starts a throw-away
PostgreSQL 15 server (Debian's binaries) and stops it by PID.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "experiments"))
from exp_helpers import TEACHER, ExperimentServer  # noqa: E402

from treegames.experiments import domain_for  # noqa: E402

MAX_STUDENTS = 60
MAX_SECONDS = 600.0
PROJECTOR_MIN_INTERVAL = 0.25  # ui.experiments.Feed's default: at most 4 snapshots a second


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))]


def run(store: str, students: int, rate: float, seconds: float, feeds: bool = True) -> dict:
    """One load run; its figures."""
    server = ExperimentServer(store)
    try:
        return _load(server, students, rate, seconds, feeds)
    finally:
        server.stop()


def _load(server: ExperimentServer, students: int, rate: float, seconds: float, feeds: bool) -> dict:
    """The students and the projector against a running server."""
    teacher = server.client()
    code = teacher.open_experiment(teacher_code=TEACHER, kind="sun-die", settings={"stacks": [4, 3, 2]})["code"]
    domain = domain_for("sun-die", {"stacks": [4, 3, 2]})
    accepted = [0] * students
    sent: list[tuple[int, float]] = []  # (seq, time sent)
    errors: list[str] = []
    lock = threading.Lock()
    start = time.monotonic() + 1.0
    stop = start + seconds

    def student(i: int) -> None:
        client = server.client()
        me = client.join(code=code)
        rng = random.Random(i)
        b = 0
        time.sleep(max(0.0, start - time.monotonic()) + i / students / rate)
        next_at = time.monotonic()
        while time.monotonic() < stop:
            t0 = time.monotonic()
            try:
                ack = client.contribute(token=me["token"], batch_id=f"b{b}", counts=dict(domain.simulate(rng, 1)))
                accepted[i] += ack["accepted"]
                with lock:
                    sent.append((ack["seq"], t0))
            except Exception as err:  # noqa: BLE001 - counted in the report
                errors.append(repr(err))
            b += 1
            next_at += 1.0 / rate
            time.sleep(max(0.0, next_at - time.monotonic()))

    updates: list[tuple[float, int]] = []

    def projector() -> None:
        client = server.client()
        version = -1
        while time.monotonic() < stop + 2.0:
            snap = client.wait(code=code, version=version, timeout=1.0)
            seen = snap["version"] != version
            version = snap["version"]
            updates.append((time.monotonic(), version))
            if seen:
                time.sleep(PROJECTOR_MIN_INTERVAL)  # as the teacher page's feed does

    def student_feed() -> None:
        """What each student's Join box does: a long-poll, at most one snapshot a second."""
        client = server.client()
        version = -1
        while time.monotonic() < stop:
            version = client.wait(code=code, version=version, timeout=1.0)["version"]
            time.sleep(1.0)

    threads = [threading.Thread(target=student, args=(i,), daemon=True) for i in range(students)]
    if feeds:
        threads += [threading.Thread(target=student_feed, daemon=True) for _ in range(students)]
    watcher = threading.Thread(target=projector, daemon=True)
    watcher.start()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    watcher.join()
    pooled = teacher.snapshot(code=code)["n"]
    during = [t for t, _v in updates if start <= t <= stop]
    gaps = [b - a for a, b in zip(during, during[1:], strict=False)]
    latencies = []
    for seq, t0 in sent:
        seen = next((t for t, v in updates if v >= seq), None)
        if seen is not None:
            latencies.append(seen - t0)
    return {"students": students, "rate": rate, "seconds": seconds, "pooled": pooled, "acknowledged": sum(accepted),
            "errors": len(errors), "first_error": errors[0] if errors else "", "rolls_per_s": sum(accepted) / seconds,
            "updates": len(during), "longest_gap": max(gaps) if gaps else float("nan"),
            "p50": statistics.median(latencies) if latencies else float("nan"),
            "p95": percentile(latencies, 95) if latencies else float("nan"), "seen": len(latencies)}


def report(name: str, r: dict) -> None:
    """Print one run's figures."""
    same = "equal" if r["pooled"] == r["acknowledged"] else "DIFFERENT"
    print(f"{name}: {r['students']} students x {r['rate']:g} rolls/s x {r['seconds']:g} s")
    print(f"  pooled {r['pooled']} vs acknowledged {r['acknowledged']}: {same}; errors {r['errors']} "
          f"{r['first_error'][:120]}")
    print(f"  rolls per second achieved: {r['rolls_per_s']:.1f} (asked {r['students'] * r['rate']:.0f})")
    print(f"  projector: {r['updates']} updates, longest gap {r['longest_gap']:.2f} s (target <= 1 s)")
    print(f"  roll -> projector: p50 {r['p50'] * 1000:.0f} ms, p95 {r['p95'] * 1000:.0f} ms over {r['seen']} rolls "
          f"(aim p95 <= 1000 ms)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10 s instead of 120 s")
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument("--rate", type=float, default=10.0)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--no-student-feeds", action="store_true", help="students send only (no Join-box long-polls)")
    parser.add_argument("--store", action="append", default=None,
                        help="'sqlite' (a fresh file), 'postgresql' (a throw-away PostgreSQL 15 server) or a "
                             "postgresql:// URL; may be given twice")
    args = parser.parse_args(argv)
    students = min(args.students, MAX_STUDENTS)
    seconds = min(10.0 if args.quick else args.seconds, MAX_SECONDS)
    for store in args.store or ["sqlite"]:
        if store == "sqlite":
            with tempfile.TemporaryDirectory() as folder:
                report("SQLite", run(str(Path(folder) / "treegames.sqlite3"), students, args.rate, seconds,
                                    not args.no_student_feeds))
        elif store == "postgresql":
            from exp_helpers import PostgresServer

            pg = PostgresServer()
            try:
                report("PostgreSQL", run(pg.url, students, args.rate, seconds, not args.no_student_feeds))
            finally:
                pg.stop()
        else:
            report("PostgreSQL", run(store, students, args.rate, seconds, not args.no_student_feeds))


if __name__ == "__main__":
    main()
