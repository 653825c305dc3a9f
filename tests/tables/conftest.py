"""Fixtures for the shared-table authority and store tests: every store test runs on SQLite and on PostgreSQL.

The PostgreSQL server is real (tests/pgserver.py: Debian's PostgreSQL 15 in a temporary folder, stopped
by PID); each test gets a database of its own on it. Helpers are in tables_helpers.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from tables_helpers import TEACHER, Clock, roomy_limits  # noqa: E402

from pgserver import database_name, postgres_server  # noqa: E402, F401
from treegames.service.store import open_store  # noqa: E402
from treegames.tables.authority import Authority  # noqa: E402


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request, tmp_path):
    """The URL of a fresh, empty store: a SQLite file in a temporary folder, or a new PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'treegames.sqlite3'}"
    server = request.getfixturevalue("postgres_server")
    return server.new_database(database_name(request.node.nodeid))


@pytest.fixture
def store(store_url, tmp_path, monkeypatch):
    """The shared tables' store at ``store_url`` (its data folder, for the teacher code, is the test's own)."""
    monkeypatch.setenv("TREEGAMES_DATA_DIR", str(tmp_path))
    s = open_store(store_url)
    yield s
    s.close()


@pytest.fixture
def clock():
    """A clock the test moves by hand."""
    return Clock()


@pytest.fixture
def authority(store, clock):
    """The authority over the store, with the test's teacher code and room for many tables."""
    return Authority(store, limits=roomy_limits(), clock=clock, teacher_code=TEACHER)


@pytest.fixture
def other_store(store_url):
    """A second store object on the same database (its own connections and listener), as another process has."""
    s = open_store(store_url)
    yield s
    s.close()


@pytest.fixture
def other_authority(other_store, clock):
    """A second authority on the same database, through its own store object."""
    return Authority(other_store, limits=roomy_limits(), clock=clock, teacher_code=TEACHER)
