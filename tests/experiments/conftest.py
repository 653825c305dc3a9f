"""Fixtures for the class-experiment tests (helpers in exp_helpers.py, put on sys.path here)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from exp_helpers import TEACHER, Clock, open_shared_store  # noqa: E402

from pgserver import database_name, postgres_server  # noqa: E402, F401
from treegames.experiments import ExperimentAuthority, Source  # noqa: E402


@pytest.fixture(scope="session")
def postgres(request):
    """The session's real PostgreSQL server (tests/pgserver.py)."""
    return request.getfixturevalue("postgres_server")


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request, tmp_path):
    """The shared tables' store, fresh, on each backend: SQLite in a temporary folder, or a new PostgreSQL database."""
    if request.param == "sqlite":
        s = open_shared_store(f"sqlite:///{tmp_path / 'treegames.sqlite3'}")
    else:
        server = request.getfixturevalue("postgres")
        s = open_shared_store(server.new_database(database_name(request.node.nodeid)))
    yield s
    s.close()


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def authority(store, clock):
    """An experiment authority over the store, as a class-server kernel would reach it."""
    return ExperimentAuthority(store, TEACHER, clock=clock, source=Source.CLASS_KERNEL)
