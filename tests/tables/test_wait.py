"""The long poll: ``wait(token, version)`` returns as soon as the table changes, or at its timeout.

Across store objects (as across processes): PostgreSQL wakes the waiter with LISTEN/NOTIFY on the
listener's own connection; SQLite's waiter looks again at least every POLL_SECONDS.
"""

from __future__ import annotations

import threading
import time

import pytest
from tables_helpers import full_table, mover

import harness
from treegames.tables.errors import BadRequest, BadToken


def test_wait_returns_the_unchanged_view_at_its_timeout(authority):
    tickets = full_table(authority, "aspens")
    ticket, view = mover(authority, tickets)
    started = time.monotonic()
    waited = authority.wait(ticket.token, view.version, timeout=0.4)
    assert time.monotonic() - started >= 0.35
    assert waited.version == view.version and waited.legal == view.legal


def test_wait_returns_at_once_when_the_table_is_already_past_the_version(authority):
    tickets = full_table(authority, "aspens")
    ticket, view = mover(authority, tickets)
    assert authority.wait(ticket.token, view.version - 1, timeout=30).version == view.version


def test_wait_wakes_on_another_authoritys_move(authority, other_authority, monkeypatch):
    tickets = full_table(authority, "bosk")
    ticket, view = mover(authority, tickets)
    watcher = next(t for seat, t in tickets.items() if seat != ticket.seat)
    waiting = threading.Event()
    real_wait_for = authority.store.wait_for

    def wait_for(*args, **kwargs):
        waiting.set()  # the waiter has looked at the table and now waits for a change notice
        return real_wait_for(*args, **kwargs)

    monkeypatch.setattr(authority.store, "wait_for", wait_for)
    woke: list = []
    waiter = threading.Thread(target=lambda: woke.append(authority.wait(watcher.token, view.version, timeout=25)))
    waiter.start()
    harness.wait_until(waiting.is_set, what="the long poll waiting")
    moved = other_authority.move(ticket.token, view.version, view.legal[0])
    waiter.join(harness.DEADLINE)
    assert woke and woke[0].version == moved.version  # a timeout would have returned the old version


def test_a_committed_notice_reaches_the_stores_waiters(store, other_store):
    # PostgreSQL: from another connection, through the listener; SQLite: within the store object itself
    sender = other_store if store.kind == "postgresql" else store
    before = store.notices("table:x")
    with sender.transaction() as tx:
        tx.notify("table:x", "1")
        assert store.notices("table:x") == before  # nothing is announced before the commit
    assert store.wait_for("table:x", before, harness.DEADLINE) > before


def test_wait_refuses_bad_input(authority):
    tickets = full_table(authority, "aspens")
    ticket, view = mover(authority, tickets)
    with pytest.raises(BadRequest):
        authority.wait(ticket.token, "3", timeout=1)
    with pytest.raises(BadRequest):
        authority.wait(ticket.token, view.version, timeout="forever")
    with pytest.raises(BadToken):
        authority.wait("not-a-token-at-all", view.version, timeout=1)
