"""Fixtures shared by the shared-table view tests."""

from __future__ import annotations

import pytest

from treegames.service.store import open_store
from treegames.tables.authority import Authority


@pytest.fixture
def authority(tmp_path):
    """An authority on a fresh SQLite file."""
    store = open_store(f"sqlite:///{tmp_path}/tables.sqlite3")
    yield Authority(store, teacher_code="TEACH-ONE")
    store.close()
