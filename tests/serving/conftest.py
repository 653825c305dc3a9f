"""One class server (``make serve``'s settings, kernels started on arrival) for the serving tests."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))
import harness  # noqa: E402


@pytest.fixture(scope="module")
def class_server():
    """The class server on a free loopback port, stopped with its kernels after the module."""
    server = harness.start_class_server(preheat=False, extra=["--GuardedKernelConnection.orphan_seconds=0"])
    yield server
    server.stop()
    assert server.alive_pids() == [], "the server or one of its kernels survived stop()"
