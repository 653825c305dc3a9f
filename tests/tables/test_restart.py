"""A restarted server: a new Authority in a new process over the same store resumes every table as it was.

The tables are of every game, waiting, playing (bots and chance included) and finished; the new process
sees each at the same version, with the same log, state and legal moves, and play goes on from there.
"""

from __future__ import annotations

import random

from tables_helpers import TEACHER, Proc, check_replays, full_table, mover, play_moves, roomy_limits

from treegames.service.store import open_store
from treegames.tables.authority import Authority

SAME = ("table_id", "version", "seat", "seats", "status", "current_player", "scores", "winners", "log", "saved",
        "player_view", "legal", "places", "explain")
"""What a seat sees that must be the same after a restart (not the clock-dependent ages)."""


def shown(view: dict) -> dict:
    """The parts of a view (as JSON) that do not depend on the clock."""
    seats = [{k: v for k, v in s.items() if k not in ("connected", "seen_ago")} for s in view["seats"]]
    return {**{k: view[k] for k in SAME}, "seats": seats}


def tables_of_every_kind(authority: Authority) -> list[dict]:
    """Tables in every state: tickets by seat (a waiting table has only its creator's)."""
    rng = random.Random(4)
    tables = [full_table(authority, "aspens", seed=1), full_table(authority, "bosk", ("person", "greedy", "person"),
                                                                  seed=2),
              full_table(authority, "mighty_trees", seed=3), full_table(authority, "bosk", seed=5)]
    for tickets, count in zip(tables, (12, 9, 15, 10_000), strict=True):
        play_moves(authority, tickets, count, rng)
    waiting = authority.create_table("aspens", None, ["person", "person"], visitor="w", label="later")
    return [*tables, {0: waiting}]


def test_a_new_process_resumes_every_table_at_the_same_version_and_state(store, store_url, clock):
    authority = Authority(store, limits=roomy_limits(), clock=clock, teacher_code=TEACHER)
    tables = tables_of_every_kind(authority)
    tokens = [t.token for tickets in tables for t in tickets.values()]
    before = [authority.view(token).to_json() for token in tokens]
    assert {"waiting", "playing", "finished"} <= {v["status"] for v in before}
    store.close()  # the old server is gone

    proc = Proc(store_url)
    reader = Authority(open_store(store_url), limits=roomy_limits(), clock=clock, teacher_code=TEACHER)
    try:
        proc.send({"op": "views", "tokens": tokens})
        after = proc.read()["views"]
        assert [shown(v) for v in after] == [shown(v) for v in before]
        for tickets in tables[:3]:  # play goes on in the new process, from the version each table was at
            ticket, view = mover(reader, tickets)
            proc.send({"op": "move", "token": ticket.token, "version": view.version, "action": view.legal[0]})
            assert proc.read()["ok"] > view.version
        for tickets in tables:
            check_replays(reader, next(iter(tickets.values())).table_id)
        assert len(reader.overview(TEACHER)) == len(tables)
    finally:
        proc.stop()
        reader.store.close()
