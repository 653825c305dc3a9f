"""Shared helpers for the class-experiment tests: the teacher code, the shared store, servers, a hand-moved clock."""

from __future__ import annotations

TEACHER = "teacher-code-for-tests"


def open_shared_store(url: str):
    """The shared tables' store at ``url`` (sqlite:///... or postgresql://...) with the experiments registered."""
    from treegames.experiments import schema
    from treegames.service.store import open_store

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
import subprocess  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # tests/: the shared PostgreSQL helper
from pgserver import PG_BIN, PostgresServer, end_group, free_port, wait_until  # noqa: E402, F401

KEY = "test-server-key-0123456789"


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
        end_group(self.proc, kill)
        if self.proc.stdout:
            self.proc.stdout.close()
