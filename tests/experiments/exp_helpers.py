"""Shared helpers for the class-experiment tests: the teacher code, the shared store, servers, a hand-moved clock."""

from __future__ import annotations

import contextlib

TEACHER = "teacher-code-for-tests"


def open_shared_store(url: str):
    """The shared tables' store at ``url`` (sqlite:///... or postgresql://...) with the experiments registered."""
    from treegames.experiments import schema
    from treegames.tables.store import open_store

    schema.register()
    return open_store(url)


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
