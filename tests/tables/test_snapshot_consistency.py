"""A read sees the table at one version: its row and its log agree even while another process is moving.

PostgreSQL reads in READ COMMITTED, so each statement of a read may see a newer commit than the one
before it; the state the authority builds must still be the state at the version it read.
"""

from __future__ import annotations

import threading

from tables_helpers import check_replays, full_table, mover

import harness
from treegames.tables.authority import replay_table


def test_a_view_is_the_state_at_its_version_while_another_authority_moves(authority, other_authority):
    tickets = full_table(authority, "bosk")
    first, view = mover(authority, tickets)
    other_authority.move(first.token, view.version, view.legal[0])  # this authority's memory is behind now
    ticket, view = mover(other_authority, tickets)
    fresh_row = authority._row
    moved: list = []

    def row_then_someone_moves(tx, table_id, lock=False):
        """Read the row, then let the other authority commit a move before the log is read."""
        row = fresh_row(tx, table_id, lock)
        if not moved:
            mover_thread = threading.Thread(
                target=lambda: moved.append(other_authority.move(ticket.token, view.version, view.legal[0])))
            moved.append(mover_thread)
            mover_thread.start()
            if authority.store.kind == "postgresql":  # it commits now: this read's next statement sees it
                mover_thread.join(harness.DEADLINE)
            # SQLite: this read holds the one write lock, so the move waits for us whatever happens here
        return row

    authority._row = row_then_someone_moves
    try:
        seen = authority.view(ticket.token)
    finally:
        authority._row = fresh_row
    moved[0].join(harness.DEADLINE)
    assert seen.version == view.version
    assert seen.legal == view.legal and seen.current_player == view.current_player
    assert seen.log == view.log
    after = authority.view(ticket.token)
    assert after.version == moved[1].version > view.version
    entries = [e for e in after.log if e["version"] <= view.version]
    assert [e["text"] for e in seen.log] == [e["text"] for e in entries]
    check_replays(authority, ticket.table_id)
    state = replay_table("bosk", after.options, authority.log_of(ticket.table_id))
    assert authority.state_of(ticket.table_id) == state
