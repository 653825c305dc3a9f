"""Storage: a new store makes its schema, an existing one keeps its tables, an older one is brought forward,
and a newer one is refused untouched. SQLite runs in WAL mode with a busy timeout.
"""

from __future__ import annotations

import contextlib
import sqlite3

import pytest
from tables_helpers import TEACHER, full_table, mover, roomy_limits

from treegames.service.store import BUSY_MS, open_store, registered
from treegames.tables.authority import MIGRATIONS, Authority
from treegames.tables.errors import SchemaTooNew


@contextlib.contextmanager
def raw(url: str):
    """A plain driver connection to the database at ``url`` (no treegames code), committing at the end."""
    if url.startswith("sqlite:///"):
        conn = sqlite3.connect(url[len("sqlite://"):])
    else:
        import psycopg

        conn = psycopg.connect(url)
    try:
        yield conn
        conn.commit()
    finally:
        conn.close()


def tables_in(url: str) -> set[str]:
    """The names of the database's tables."""
    sql = ("SELECT name FROM sqlite_master WHERE type = 'table'" if url.startswith("sqlite") else
           "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
    with raw(url) as conn:
        return {r[0] for r in conn.execute(sql).fetchall()}


def test_a_new_store_makes_the_schema_and_records_its_version(store, store_url):
    assert store.schema_versions()["tables"] == len(MIGRATIONS)
    assert {"schema_version", "tg_tables", "tg_seats", "tg_watchers", "tg_moves"} <= tables_in(store_url)


def test_reopening_a_store_keeps_its_tables_and_seats(authority, store, store_url, clock):
    tickets = full_table(authority, "bosk")
    ticket, view = mover(authority, tickets)
    authority.move(ticket.token, view.version, view.legal[0])
    log, shown = authority.log_of(ticket.table_id), authority.view(ticket.token)
    store.close()
    again = open_store(store_url)
    try:
        later = Authority(again, limits=roomy_limits(), clock=clock, teacher_code=TEACHER)
        assert later.log_of(ticket.table_id) == log
        assert later.resume(ticket.token).seat == ticket.seat
        assert later.view(ticket.token) == shown
        nxt, now = mover(later, tickets)
        later.move(nxt.token, now.version, now.legal[0])
    finally:
        again.close()


def test_an_older_schema_is_brought_forward_keeping_its_rows(store_url):
    with raw(store_url) as conn:
        conn.execute("CREATE TABLE schema_version (component TEXT PRIMARY KEY, version INTEGER NOT NULL)")
        conn.execute(MIGRATIONS[0])  # only the first step: tg_tables
        conn.execute("INSERT INTO schema_version (component, version) VALUES ('tables', 1)")
        conn.execute("INSERT INTO tg_tables VALUES ('old1', 'ABCDEF', 'aspens', '{}', 'from before', 0, '5', 0, "
                     "'closed', 'someone', 'hash', 1.0, 1.0)")
    assert tables_in(store_url) == {"schema_version", "tg_tables"}
    store = open_store(store_url)
    try:
        assert store.schema_versions()["tables"] == len(MIGRATIONS)
        assert {"tg_seats", "tg_watchers", "tg_moves"} <= tables_in(store_url)
        with store.transaction() as tx:
            assert tx.execute("SELECT label FROM tg_tables WHERE id = 'old1'").fetchone() == ("from before",)
        summary = Authority(store, teacher_code=TEACHER).overview(TEACHER)
        assert [v.label for v in summary] == ["from before"]
    finally:
        store.close()


def test_a_newer_schema_is_refused_with_a_clear_message_and_left_unchanged(store_url):
    with raw(store_url) as conn:
        conn.execute("CREATE TABLE schema_version (component TEXT PRIMARY KEY, version INTEGER NOT NULL)")
        conn.execute("INSERT INTO schema_version (component, version) VALUES ('tables', 999)")
    with pytest.raises(SchemaTooNew, match=r"newer treegames.*not changed") as refused:
        open_store(store_url)
    assert "999" in str(refused.value) and str(len(MIGRATIONS)) in str(refused.value)
    assert isinstance(refused.value, ValueError)
    assert tables_in(store_url) == {"schema_version"}
    with raw(store_url) as conn:
        assert conn.execute("SELECT component, version FROM schema_version").fetchall() == [("tables", 999)]


def test_every_registered_component_is_at_the_version_this_code_knows(store):
    assert store.schema_versions() == registered()


def test_the_sqlite_file_is_in_wal_mode_with_a_busy_timeout(tmp_path):
    store = open_store(f"sqlite:///{tmp_path / 'classroom' / 'treegames.sqlite3'}")
    try:
        assert store.path.exists() and store.data_dir == tmp_path / "classroom"
        with raw(store.url) as conn:
            assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store._connection().execute("PRAGMA busy_timeout").fetchone()[0] == BUSY_MS
    finally:
        store.close()


def test_the_default_store_is_a_sqlite_file_in_the_data_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("TREEGAMES_DATA_DIR", str(tmp_path / "data"))
    store = open_store()
    try:
        assert store.kind == "sqlite" and store.path == (tmp_path / "data" / "treegames.sqlite3").resolve()
        assert store.path.exists()
    finally:
        store.close()
