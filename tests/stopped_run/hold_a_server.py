"""Not collected by the suite (no test_ prefix): tests/test_stopped_runs.py runs it in its own pytest and stops
that run with SIGTERM while this test holds its PostgreSQL server."""

from __future__ import annotations

import time

import harness
from pgserver import postgres_server  # noqa: F401 - the session's real server, as the store tests use it


def test_hold_the_server_until_the_run_is_stopped(postgres_server):  # noqa: F811
    deadline = time.monotonic() + harness.DEADLINE
    while time.monotonic() < deadline:  # the run is stopped from outside long before this
        time.sleep(0.1)
