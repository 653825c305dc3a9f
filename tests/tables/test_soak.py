"""A short soak: 30 simulated players at 15 tables of every game, long-polling and moving for a few seconds.

Every client's last view is what its table's log replays to at that version (0 divergences), and every
acknowledged move is in the log once (0 lost, 0 doubled). benchmarks/bench_tables.py runs the same soak
for two minutes on both backends and reports its throughput.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from soak import check_soak, soak

pytestmark = pytest.mark.slow  # seconds of search or processes per test: not in make test-quick

SECONDS = 3.0


@pytest.mark.machine  # a soak: one at a time (tests/conftest.py)
def test_a_short_soak_of_30_players_at_15_tables_diverges_loses_and_doubles_nothing(authority):
    result = soak(authority, players=30, tables=15, seconds=SECONDS, seed=1,
                  until=lambda clients: all(any(list(client.acks.values())) for client in clients))
    report = check_soak(authority, result)
    assert report["errors"] == []
    assert (report["divergences"], report["lost"], report["doubled"]) == (0, 0, 0), report
    assert report["tables"] >= 15
    assert all(client.acks for client in result.clients)  # every player got to move


def test_the_soak_check_sees_a_divergence_a_lost_move_and_a_doubled_move(authority):
    result = soak(authority, players=2, tables=1, seconds=0.5, seed=2,
                  until=lambda clients: any(len(a) >= 2 for client in clients for a in list(client.acks.values())))
    assert check_soak(authority, result)["divergences"] == 0
    mover, other = sorted(result.clients, key=lambda c: -sum(len(a) for a in c.acks.values()))
    table_id, acks = next((t, a) for t, a in mover.acks.items() if len(a) >= 2)
    on, seat, action = acks.pop(0)  # a move the log has but nobody acknowledged: doubled
    acks.append((10**6, seat, action))  # an acknowledged move the log lacks: lost
    view = other.last[table_id]
    other.last[table_id] = replace(view, version=view.version - 1)  # a client showing a state the log does not give
    report = check_soak(authority, result)
    assert (report["divergences"], report["lost"], report["doubled"]) == (1, 1, 1), report
