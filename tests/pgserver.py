"""A throw-away PostgreSQL server for the store tests (shared by tests/tables and tests/experiments).

``PostgresServer()`` runs Debian's PostgreSQL 15 (``initdb`` + ``postgres``) in a temporary folder, in a
process group of its own, and ``stop()`` ends it by PID; ``kill()`` crashes it (SIGKILL to its group) and
``start()`` runs it again on the same data folder and port. As root it runs as the ``postgres`` user (initdb
refuses root). ``postgres_server`` is a session fixture for conftests to import; ``new_database`` gives
each test a database of its own on that server.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
from pathlib import Path

import pytest

from harness import wait_until  # noqa: F401 - the one wait, re-exported for the store tests

PG_BIN = Path("/usr/lib/postgresql/15/bin")


def free_port() -> int:
    """A free TCP port on loopback."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def end_group(proc: subprocess.Popen, kill: bool = False) -> None:
    """End a helper process's own process group (SIGKILL when ``kill``, SIGKILL anyway after 10 s) and wait."""
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGKILL if kill else signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)


def _has_user(name: str) -> bool:
    """Whether the system has a user called ``name``."""
    try:
        pwd.getpwnam(name)
        return True
    except KeyError:
        return False


class PostgresServer:
    """A throw-away PostgreSQL 15 in a temporary folder, in its own process group, stopped by PID."""

    def __init__(self):
        # a folder of its own under /tmp: the server's user must be able to reach it (pytest's are root-only)
        self.folder = Path(tempfile.mkdtemp(prefix="treegames-pg-"))
        self.data = self.folder / "pgdata"
        self.port = free_port()
        self.prefix: list[str] = []
        if os.geteuid() == 0:  # initdb refuses root: run the server as the postgres (or nobody) user
            user = "postgres" if _has_user("postgres") else "nobody"
            pw = pwd.getpwnam(user)
            shutil.chown(self.folder, pw.pw_uid, pw.pw_gid)
            self.prefix = ["setpriv", f"--reuid={pw.pw_uid}", f"--regid={pw.pw_gid}", "--clear-groups"]
        subprocess.run([*self.prefix, str(PG_BIN / "initdb"), "-D", str(self.data), "-U", "test", "-A", "trust",
                        "--no-sync"], check=True, capture_output=True)
        self.url = f"postgresql://test@127.0.0.1:{self.port}/postgres"
        self.start()

    def start(self) -> None:
        """Run the server on this data folder and port, in a process group of its own; wait until it answers."""
        self.proc = subprocess.Popen([*self.prefix, str(PG_BIN / "postgres"), "-D", str(self.data), "-p",
                                      str(self.port), "-k", str(self.folder), "-c", "listen_addresses=127.0.0.1",
                                      "-c", "fsync=off"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     start_new_session=True)
        try:
            wait_until(self._ready, timeout=30)
        except BaseException:  # a server that never answered, or a run stopped meanwhile: no fixture will stop it
            self.stop()
            raise

    def kill(self) -> None:
        """SIGKILL the server's whole process group (a crash: no shutdown, the data folder stays for ``start``)."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)
        wait_until(lambda: not self._group_alive(), timeout=10)

    def _group_alive(self) -> bool:
        """Whether any process of the server's group is still running (backends end after the postmaster)."""
        try:
            os.killpg(self.proc.pid, 0)
        except ProcessLookupError:
            return False
        return True

    def _ready(self) -> bool:
        """Whether the server accepts connections."""
        import psycopg

        try:
            with psycopg.connect(self.url, connect_timeout=2):
                return True
        except psycopg.OperationalError:
            return False

    def new_database(self, name: str) -> str:
        """Create the database ``name`` (letters, digits, _) and return its URL."""
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as admin:
            admin.execute(f"CREATE DATABASE {name}")
        return self.url.rsplit("/", 1)[0] + f"/{name}"

    def stop(self) -> None:
        """Stop the server's process group by PID, and remove its folder.

        An immediate shutdown (SIGQUIT): the data is thrown away, so the shutdown checkpoint, which writes
        every database the tests created and took tens of seconds, is skipped.
        """
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGQUIT)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(5)
        shutil.rmtree(self.folder, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_server():
    """One real PostgreSQL server for the session (skipped when PostgreSQL 15 or psycopg is missing)."""
    pytest.importorskip("psycopg")
    if not (PG_BIN / "initdb").exists():
        pytest.skip(f"PostgreSQL 15 is not installed at {PG_BIN} (apt-get install postgresql, or make postgres)")
    server = PostgresServer()
    yield server
    server.stop()


def database_name(nodeid: str) -> str:
    """A database name of its own for the test ``nodeid``."""
    return f"t{abs(hash(nodeid)) % 10**12}"
