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


# ---------------------------------------------------------------- real server processes

import os  # noqa: E402
import signal  # noqa: E402
import socket  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

HERE = Path(__file__).resolve().parent
KEY = "test-server-key-0123456789"


def free_port() -> int:
    """A free TCP port on loopback."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ExperimentServer:
    """exp_server.py in its own process group, stopped by PID."""

    def __init__(self, where: str, port: int | None = None, key: str = KEY, teacher: str = TEACHER):
        self.where, self.key, self.teacher = str(where), key, teacher
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}/treegames/api"
        env = dict(os.environ)
        self.proc = subprocess.Popen([sys.executable, str(HERE / "exp_server.py"), str(self.port), self.where, key,
                                      teacher], stdout=subprocess.PIPE, env=env, start_new_session=True, text=True)
        line = self.proc.stdout.readline()
        if "ready" not in line:
            self.stop()
            raise RuntimeError(f"experiment server did not start: {line!r}")

    def client(self):
        """An HTTP client with the server key."""
        from treegames.experiments.client import connect

        return connect(self.url, self.key)

    def stop(self, kill: bool = False) -> None:
        """Stop the server's process group (SIGKILL when ``kill``)."""
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL if kill else signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)
        if self.proc.stdout:
            self.proc.stdout.close()


def wait_until(predicate, timeout: float = 20.0, step: float = 0.05):
    """Poll ``predicate`` until it returns a true value (returned) or ``timeout`` passes (AssertionError)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(step)
    raise AssertionError("condition not reached in time")
