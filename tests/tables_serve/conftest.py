"""Fixtures for the tables' HTTP tests (helpers in serve_helpers.py, put on sys.path here)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from serve_helpers import LiveServer  # noqa: E402

from treegames.service.store import open_store  # noqa: E402


@pytest.fixture
def live(tmp_path):
    store = open_store(f"sqlite:///{tmp_path / 'treegames.sqlite3'}")
    server = LiveServer(store)
    yield server
    server.stop()
    store.close()
