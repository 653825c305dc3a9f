"""Shared helpers for the class-experiment tests: the teacher code, an interim store, a hand-moved clock."""

from __future__ import annotations

import contextlib
import sqlite3
import threading

from treegames.experiments.schema import STEPS

TEACHER = "teacher-code-for-tests"


class _Cursor:
    """The contract's cursor: execute with '?' placeholders, fetchone, fetchall."""

    def __init__(self, cur):
        self.cur = cur

    def execute(self, sql, params=()):
        self.cur.execute(sql, params)
        return self

    def fetchone(self):
        return self.cur.fetchone()

    def fetchall(self):
        return self.cur.fetchall()


class InterimStore:
    """Stand-in for treegames.tables.store until it lands: SQLite, one BEGIN IMMEDIATE transaction at a time."""

    def __init__(self, path):
        self.path = path
        self.lock = threading.Lock()
        self.conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.conn.execute("PRAGMA journal_mode=WAL")
        with self.transaction() as cur:
            cur.execute("CREATE TABLE IF NOT EXISTS schema_version (component TEXT PRIMARY KEY, version INTEGER)")
            cur.execute("SELECT version FROM schema_version WHERE component = 'experiments'")
            row = cur.fetchone()
            done = row[0] if row else 0
            for step in STEPS[done:]:
                cur.execute(step)
            cur.execute("INSERT OR REPLACE INTO schema_version VALUES ('experiments', ?)", (len(STEPS),))

    @contextlib.contextmanager
    def transaction(self):
        with self.lock:
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield _Cursor(self.conn.cursor())
            except BaseException:
                self.conn.execute("ROLLBACK")
                raise
            self.conn.execute("COMMIT")

    def close(self):
        self.conn.close()



class Clock:
    """A clock the test moves by hand."""

    def __init__(self, now: float = 1_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now
