"""Fixtures for the class-experiment tests (helpers in exp_helpers.py, put on sys.path here)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from exp_helpers import TEACHER, Clock, PostgresServer, open_shared_store  # noqa: E402

from treegames.experiments import ExperimentAuthority, Source  # noqa: E402


@pytest.fixture(scope="session")
def postgres():
    """One real PostgreSQL server for the session (skipped when PostgreSQL 15 or psycopg is missing)."""
    pytest.importorskip("psycopg")
    from exp_helpers import PG_BIN

    if not (PG_BIN / "initdb").exists():
        pytest.skip(f"PostgreSQL 15 is not installed at {PG_BIN} (apt-get install postgresql)")
    server = PostgresServer()
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request, tmp_path):
    """The shared tables' store, fresh, on each backend: SQLite in a temporary folder, or a new PostgreSQL database."""
    if request.param == "sqlite":
        s = open_shared_store(f"sqlite:///{tmp_path / 'treegames.sqlite3'}")
    else:
        import psycopg

        server = request.getfixturevalue("postgres")
        name = f"t{abs(hash(request.node.nodeid)) % 10**12}"
        with psycopg.connect(server.url, autocommit=True) as admin:
            admin.execute(f"CREATE DATABASE {name}")
        url = server.url.rsplit("/", 1)[0] + f"/{name}"
        s = open_shared_store(url)
    yield s
    s.close()


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def authority(store, clock):
    """An experiment authority over the store, as a class-server kernel would reach it."""
    return ExperimentAuthority(store, TEACHER, clock=clock, source=Source.CLASS_KERNEL)
