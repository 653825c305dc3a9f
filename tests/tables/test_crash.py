"""A process killed with SIGKILL in the middle of a batch of moves leaves the store consistent and replayable.

Every move the process saw acknowledged is in the log exactly once; the table plays on from where it stopped.
"""

from __future__ import annotations

import json
import random

import pytest
from tables_helpers import Proc, check_replays, full_table, mover

from pgserver import wait_until


@pytest.mark.parametrize("game", ["bosk", "mighty_trees"])
def test_a_kill_9_mid_batch_loses_no_acknowledged_move_and_replays(authority, other_authority, store_url,
                                                                    tmp_path, game):
    tickets = full_table(authority, game, seed=13)
    table_id = tickets[0].table_id
    acks = tmp_path / "acks.jsonl"
    acks.touch()
    proc = Proc(store_url)
    try:
        proc.send({"op": "batch", "tokens": {str(s): t.token for s, t in tickets.items()}, "count": 100_000,
                   "seed": 1, "acks": str(acks)})
        wait_until(lambda: len(acks.read_text().splitlines()) >= 15, what="15 acknowledged moves")
    finally:
        proc.stop(kill=True)
    assert proc.proc.returncode == -9
    acknowledged = [json.loads(line) for line in acks.read_text().splitlines() if line.endswith("}")]
    assert len(acknowledged) >= 15
    view = other_authority.view(tickets[0].token)
    person = [e for e in view.log if e["seat"] is not None]
    log = other_authority.log_of(table_id)
    assert len(person) in (len(acknowledged), len(acknowledged) + 1)  # the last may have committed unacknowledged
    at = {e["version"]: (e["seat"], log[i]) for i, e in enumerate(view.log)}
    for ack in acknowledged:  # the move made on version v is the log entry of version v + 1
        seat, action = at[ack["on"] + 1]
        assert seat is not None and action == ack["action"]
    assert acknowledged[-1]["version"] <= view.version
    check_replays(other_authority, table_id)
    ticket, now = mover(other_authority, tickets)
    if now.status == "playing":
        after = other_authority.move(ticket.token, now.version, random.Random(0).choice(now.legal))
        assert after.version > now.version
    check_replays(other_authority, table_id)
