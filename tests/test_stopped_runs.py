"""A test run stopped from outside (SIGTERM: a timeout, a cancelled CI run) still stops the servers it started.

tests/conftest.py turns SIGTERM into the KeyboardInterrupt that Ctrl-C raises, so every fixture's teardown runs.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil
import pytest

import harness

pytestmark = [pytest.mark.slow, pytest.mark.postgres]

TESTS = Path(__file__).resolve().parent


def servers_under(folder: Path) -> list[psutil.Process]:
    """Live PostgreSQL servers whose data lies in ``folder`` (the TMPDIR of the run that started them)."""
    found = []
    for proc in psutil.process_iter(["cmdline"]):
        line = proc.info["cmdline"] or ()
        if line and line[0].endswith("/postgres") and any(str(folder) in part for part in line):
            found.append(proc)
    return found


@pytest.fixture
def shared_tmp():
    """A temporary folder the postgres user may enter (pytest's own is private to root)."""
    folder = Path(tempfile.mkdtemp(prefix="treegames-stopped-run-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def test_a_run_stopped_by_sigterm_stops_the_postgresql_server_it_started(shared_tmp):
    pytest.importorskip("psycopg")
    tmp_path = shared_tmp
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    run = subprocess.Popen([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-n", "0",
                            str(TESTS / "stopped_run" / "hold_a_server.py")], cwd=TESTS.parent, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + harness.DEADLINE
        while not servers_under(tmp_path):  # the run's server is up
            if run.poll() is not None or time.monotonic() > deadline:
                run.kill()
                said = run.communicate()[0].decode(errors="replace")
                raise AssertionError(f"the run never started its PostgreSQL server: {said[-2000:]}")
            time.sleep(0.2)
        run.send_signal(signal.SIGTERM)
        output = run.communicate(timeout=harness.DEADLINE)[0].decode(errors="replace")
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()
    assert "KeyboardInterrupt" in output or "stopped by signal" in output, output[-2000:]
    left = servers_under(tmp_path)
    assert left == [], f"left running after SIGTERM: {[p.info['cmdline'][:3] for p in left]}"
