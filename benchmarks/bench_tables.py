"""Shared tables, authority and store: a soak's throughput, races, and the bytes a table and a move take.

    python benchmarks/bench_tables.py [--seconds 120] [--race-rounds 1000] [--store sqlite] [--store postgresql]

On each backend (a fresh SQLite file; a throw-away PostgreSQL 15 started as tests/pgserver.py does):

* Soak: 30 simulated players in pairs at 15 tables (Aspens, Bosk, Mighty Trees), each long-polling its
  table through one in-process Authority (as the class server holds one) and playing a random legal move
  on its turn, a new table once a game ends, for ``--seconds``. Then every table's log is replayed and
  compared with what each client last saw: divergences, lost and doubled moves must all be 0.
  Throughput: acknowledged person moves per second, and logged actions (chance and bots included) per second.
* Races: two processes, each with its own Authority, sent a move on the same version at once,
  ``--race-rounds`` times: exactly one must be applied every time.
* Bytes: SQLite per table (tg_tables, tg_seats, tg_watchers and their indexes, from ``dbstat``) and per
  logged move (tg_moves and its index), and the file's growth; PostgreSQL the same from
  ``pg_total_relation_size`` (indexes and TOAST included). Growth over the soak divided by its tables
  and its logged actions, as grown (PostgreSQL keeps old row versions of the rows each move updates until
  autovacuum) and after a VACUUM (FULL).

The code is tests/tables/soak.py's, shared with the short soak in tests/tables/test_soak.py. Exits 1 if
anything diverged, was lost or doubled, or a race applied other than exactly one move.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent / "tests"
sys.path.insert(0, str(TESTS / "tables"))
sys.path.insert(0, str(TESTS))
from soak import check_race, check_soak, race_processes, soak  # noqa: E402
from tables_helpers import TEACHER, Proc, roomy_limits  # noqa: E402

from pgserver import PG_BIN, PostgresServer  # noqa: E402
from treegames.service.store import Store, open_store  # noqa: E402
from treegames.tables.authority import Authority  # noqa: E402

PER_TABLE = ("tg_tables", "tg_seats", "tg_watchers")
PER_MOVE = ("tg_moves",)


def relation_bytes(store: Store) -> dict[str, int]:
    """Bytes each tg_ table takes with its indexes."""
    if store.kind == "sqlite":
        conn = sqlite3.connect(store.path)
        try:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            owner = dict(conn.execute("SELECT name, tbl_name FROM sqlite_master").fetchall())
            sizes: dict[str, int] = {}
            for name, size in conn.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name").fetchall():
                table = owner.get(name, name)
                sizes[table] = sizes.get(table, 0) + size
            return {t: sizes.get(t, 0) for t in PER_TABLE + PER_MOVE}
        finally:
            conn.close()
    with store.transaction() as tx:
        return {t: int(tx.execute("SELECT pg_total_relation_size(?)", (t,)).fetchone()[0]) for t in PER_TABLE + PER_MOVE}


def compact(store: Store) -> None:
    """Reclaim the space of old row versions (every move updates its table's row and a seat's last-seen time)."""
    if store.kind == "sqlite":
        conn = sqlite3.connect(store.path, isolation_level=None)
        try:
            conn.execute("VACUUM")
        finally:
            conn.close()
        return
    import psycopg

    with psycopg.connect(store.url, autocommit=True) as conn:
        for table in PER_TABLE + PER_MOVE:
            conn.execute(f"VACUUM FULL {table}")


def per_table_and_move(before: dict, after: dict, tables: int, actions: int) -> tuple[float, float]:
    """Bytes per stored table and per logged action between two ``relation_bytes``."""
    return (sum(after[t] - before[t] for t in PER_TABLE) / max(1, tables),
            sum(after[t] - before[t] for t in PER_MOVE) / max(1, actions))


def file_bytes(store: Store) -> int | None:
    """The SQLite file's size after a checkpoint (None on PostgreSQL)."""
    if store.kind != "sqlite":
        return None
    relation_bytes(store)  # checkpoints the WAL into the file
    return store.path.stat().st_size


def run(url: str, name: str, seconds: float, race_rounds: int) -> bool:
    """Soak, races and bytes on the store at ``url``; print them; whether everything held."""
    store = open_store(url)
    authority = Authority(store, limits=roomy_limits(), teacher_code=TEACHER)
    before, file_before = relation_bytes(store), file_bytes(store)
    result = soak(authority, players=30, tables=15, seconds=seconds, seed=1)
    report = check_soak(authority, result)
    after, file_after = relation_bytes(store), file_bytes(store)
    ok = not report["errors"] and report["divergences"] == report["lost"] == report["doubled"] == 0
    print(f"{name}: soak of 30 players at 15 tables for {result.seconds:.0f} s: {report['tables']} tables, "
          f"{report['person_moves']} person moves ({report['person_moves'] / result.seconds:.0f}/s), "
          f"{report['logged_actions']} logged actions ({report['logged_actions'] / result.seconds:.0f}/s)")
    print(f"{name}:   divergences {report['divergences']}, lost {report['lost']}, doubled {report['doubled']}, "
          f"errors {len(report['errors'])}{' ' + repr(report['errors'][:3]) if report['errors'] else ''}")
    per_table, per_move = per_table_and_move(before, after, report["tables"], report["logged_actions"])
    print(f"{name}:   bytes per stored table {per_table:.0f} (tables, seats, watchers with their indexes), "
          f"per logged move {per_move:.0f} (tg_moves with its index), as grown")
    if file_before is not None:
        growth = file_after - file_before
        print(f"{name}:   file grew {growth / 1e6:.2f} MB: {growth / max(1, report['logged_actions']):.0f} bytes "
              f"per logged move, all tables included")
    compact(store)
    per_table, per_move = per_table_and_move(before, relation_bytes(store), report["tables"],
                                             report["logged_actions"])
    print(f"{name}:   after {'VACUUM' if store.kind == 'sqlite' else 'VACUUM FULL'}: bytes per stored table "
          f"{per_table:.0f}, per logged move {per_move:.0f}")
    procs = [Proc(url), Proc(url)]
    try:
        start = time.perf_counter()
        race = race_processes(authority, procs, race_rounds, seed=2)
        took = time.perf_counter() - start
    finally:
        for p in procs:
            p.stop()
    try:
        check_race(authority, race)
        raced = True
    except AssertionError as err:
        print(f"{name}:   race check failed: {err}")
        raced = False
    print(f"{name}: races of two processes on one version: {race.rounds} rounds in {took:.1f} s, "
          f"{race.rounds - len(race.bad)} with exactly one applied, {len(race.bad)} bad")
    store.close()
    return ok and raced and not race.bad


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=120.0, help="how long the soak runs on each backend")
    parser.add_argument("--race-rounds", type=int, default=1000, help="rounds of two processes racing")
    parser.add_argument("--store", action="append", choices=["sqlite", "postgresql"],
                        help="a backend to run on (may be given twice; default both)")
    args = parser.parse_args()
    stores = args.store or ["sqlite", "postgresql"]
    good = True
    for kind in stores:
        if kind == "sqlite":
            with tempfile.TemporaryDirectory(prefix="treegames-bench-") as folder:
                good &= run(f"sqlite:///{folder}/treegames.sqlite3", "sqlite", args.seconds, args.race_rounds)
        elif not (PG_BIN / "initdb").exists():
            print(f"postgresql: skipped, PostgreSQL 15 is not installed at {PG_BIN} (make postgres)")
        else:
            server = PostgresServer()
            try:
                good &= run(server.new_database("bench_tables"), "postgresql", args.seconds, args.race_rounds)
            finally:
                server.stop()
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
