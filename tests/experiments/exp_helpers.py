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


# ---------------------------------------------------------------- PostgreSQL (interim, until the tables' fixture lands)

PG_BIN = Path("/usr/lib/postgresql/15/bin")


class PostgresServer:
    """A throw-away PostgreSQL 15 in a temporary folder, in its own process group, stopped by PID."""

    def __init__(self):
        import pwd
        import shutil
        import tempfile

        # a folder of its own under /tmp: the server's user must be able to reach it (pytest's are root-only)
        self.folder = Path(tempfile.mkdtemp(prefix="treegames-pg-"))
        self.data = self.folder / "pgdata"
        self.port = free_port()
        self.folder.mkdir(parents=True, exist_ok=True)
        self.prefix: list[str] = []
        if os.geteuid() == 0:  # initdb refuses root: run the server as the postgres (or nobody) user
            user = "postgres" if _has_user("postgres") else "nobody"
            pw = pwd.getpwnam(user)
            shutil.chown(self.folder, pw.pw_uid, pw.pw_gid)
            self.prefix = ["setpriv", f"--reuid={pw.pw_uid}", f"--regid={pw.pw_gid}", "--clear-groups"]
        subprocess.run([*self.prefix, str(PG_BIN / "initdb"), "-D", str(self.data), "-U", "test", "-A", "trust",
                        "--no-sync"], check=True, capture_output=True)
        self.proc = subprocess.Popen([*self.prefix, str(PG_BIN / "postgres"), "-D", str(self.data), "-p",
                                      str(self.port), "-k", str(self.folder), "-c", "listen_addresses=127.0.0.1",
                                      "-c", "fsync=off"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     start_new_session=True)
        self.url = f"postgresql://test@127.0.0.1:{self.port}/postgres"
        wait_until(self._ready, timeout=30)

    def _ready(self) -> bool:
        import psycopg

        try:
            with psycopg.connect(self.url, connect_timeout=2):
                return True
        except psycopg.OperationalError:
            return False

    def stop(self) -> None:
        """Stop the server's process group by PID."""
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGINT)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(5)
        import shutil

        shutil.rmtree(self.folder, ignore_errors=True)


def _has_user(name: str) -> bool:
    import pwd

    try:
        pwd.getpwnam(name)
        return True
    except KeyError:
        return False


class InterimPostgresStore:
    """Stand-in for the tables' PostgreSQL store: psycopg 3, '?' placeholders turned into '%s'."""

    def __init__(self, url: str):
        import psycopg

        self.lock = threading.Lock()
        self.conn = psycopg.connect(url, autocommit=False)
        with self.transaction() as cur:
            cur.execute("CREATE TABLE IF NOT EXISTS schema_version (component TEXT PRIMARY KEY, version INTEGER)")
            cur.execute("SELECT version FROM schema_version WHERE component = 'experiments'")
            row = cur.fetchone()
            for step in STEPS[row[0] if row else 0:]:
                cur.execute(step)
            cur.execute("DELETE FROM schema_version WHERE component = 'experiments'")
            cur.execute("INSERT INTO schema_version VALUES ('experiments', ?)", (len(STEPS),))

    @contextlib.contextmanager
    def transaction(self):
        with self.lock:
            try:
                with self.conn.transaction():
                    yield _PgCursor(self.conn.cursor())
            finally:
                pass

    def close(self):
        self.conn.close()


class _PgCursor:
    """The contract's cursor over psycopg: '?' placeholders."""

    def __init__(self, cur):
        self.cur = cur

    def execute(self, sql, params=()):
        self.cur.execute(sql.replace("?", "%s"), params)
        return self

    def fetchone(self):
        return self.cur.fetchone()

    def fetchall(self):
        return self.cur.fetchall()
