"""One mover at a time: of two moves made on the same version exactly one is applied, the other is stale.

Threads share nothing but the database (each has its own Authority and store object), and processes
are real; a soak of many concurrent attempts leaves every log consistent with its versions and replayable.
Two processes race ``RACE_ROUNDS`` times: 1000 on SQLite (3 s here, 15 s on a busy machine), 200 on
PostgreSQL, whose round trips make 1000 take 10 to 25 s (benchmarks/bench_tables.py races 1000 on both).
"""

from __future__ import annotations

import random
import threading
import time

import pytest
from soak import check_race, race_processes
from tables_helpers import TEACHER, Proc, check_replays, full_table, mover, roomy_limits

import harness
from treegames.service.store import open_store
from treegames.tables.authority import Authority
from treegames.tables.errors import NotYourTurn, StaleVersion

pytestmark = pytest.mark.slow  # seconds of search or processes per test: not in make test-quick

ROUNDS = 25
RACE_ROUNDS = {"sqlite": 1000, "postgresql": 200}


def race(authorities, token: str, version: int, actions: list[str]) -> list:
    """Each authority moves ``actions[i]`` on ``version`` at once; each outcome: the new view or the error."""
    barrier = threading.Barrier(len(authorities))
    outcomes: list = [None] * len(authorities)

    def go(i: int) -> None:
        barrier.wait()
        try:
            outcomes[i] = authorities[i].move(token, version, actions[i])
        except (StaleVersion, NotYourTurn) as err:
            outcomes[i] = err

    threads = [threading.Thread(target=go, args=(i,)) for i in range(len(authorities))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(harness.DEADLINE)
    return outcomes


def log_versions(store, table_id: str) -> list[int]:
    """The versions of a table's log entries, in log order."""
    with store.transaction() as tx:
        return [int(r[0]) for r in tx.execute("SELECT version FROM tg_moves WHERE table_id = ? ORDER BY version",
                                              (table_id,)).fetchall()]


def test_two_threads_moving_on_one_version_apply_exactly_one(authority, other_authority):
    tickets = full_table(authority, "bosk")
    rng = random.Random(1)
    for _ in range(ROUNDS):
        ticket, view = mover(authority, tickets)
        if view.status != "playing":
            break
        before = len(authority.log_of(ticket.table_id))
        outcomes = race([authority, other_authority], ticket.token, view.version,
                        [rng.choice(view.legal), rng.choice(view.legal)])
        applied = [o for o in outcomes if not isinstance(o, Exception)]
        stale = [o for o in outcomes if isinstance(o, StaleVersion)]
        assert len(applied) == 1 and len(stale) == 1, outcomes
        assert stale[0].current == applied[0].version
        log = authority.log_of(ticket.table_id)
        person = [e for e in authority.view(ticket.token).log if e["version"] > view.version and e["seat"] is not None]
        assert len(person) == 1 and log[before] in view.legal
    check_replays(authority, ticket.table_id)


def test_two_processes_moving_on_one_version_apply_exactly_one(authority, store_url):
    tickets = full_table(authority, "aspens")
    procs = [Proc(store_url), Proc(store_url)]
    try:
        rng = random.Random(2)
        for _ in range(ROUNDS):
            ticket, view = mover(authority, tickets)
            at = time.time() + 0.15  # the agreed instant both processes move at (mover_proc.py sleeps until it)
            for p in procs:
                p.send({"op": "move", "token": ticket.token, "version": view.version,
                        "action": rng.choice(view.legal), "at": at})
            answers = [p.read() for p in procs]
            assert sorted("ok" if "ok" in a else a["error"] for a in answers) == ["StaleVersion", "ok"], answers
            assert len(authority.log_of(ticket.table_id)) == len([e for e in authority.view(ticket.token).log])
    finally:
        for p in procs:
            p.stop()
    check_replays(authority, ticket.table_id)


@pytest.mark.machine  # a soak: one at a time (tests/conftest.py)
def test_a_soak_of_concurrent_attempts_loses_and_doubles_nothing(authority, store, store_url, clock):
    tables = [full_table(authority, game, seed=i) for i, game in enumerate(["aspens", "bosk", "mighty_trees"])]
    applied = {next(iter(t.values())).table_id: 0 for t in tables}
    counted = threading.Lock()
    errors: list = []

    def player(worker: int) -> None:
        mine = Authority(open_store(store_url), limits=roomy_limits(), clock=clock, teacher_code=TEACHER)
        rng = random.Random(worker)
        try:
            for _ in range(40):
                tickets = rng.choice(tables)
                ticket = rng.choice(list(tickets.values()))  # not always the mover: refusals mix in
                view = mine.view(ticket.token)
                if view.status != "playing":
                    continue
                action = rng.choice(view.legal) if view.legal else "pass"
                try:
                    mine.move(ticket.token, view.version, action)
                except (StaleVersion, NotYourTurn):
                    continue
                with counted:
                    applied[ticket.table_id] += 1
        except Exception as err:  # noqa: BLE001 - reported below
            errors.append(err)
        finally:
            mine.store.close()

    threads = [threading.Thread(target=player, args=(w,)) for w in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)
    assert not errors, errors
    assert sum(applied.values()) > 20
    fresh = Authority(open_store(store_url), limits=roomy_limits(), clock=clock, teacher_code=TEACHER)
    try:
        for tickets in tables:
            table_id = next(iter(tickets.values())).table_id
            view = fresh.view(next(iter(tickets.values())).token)
            versions = log_versions(store, table_id)
            assert versions == sorted(set(versions)) and versions[-1] <= view.version
            assert [e["version"] for e in view.log] == versions
            assert len(fresh.log_of(table_id)) == len(versions)
            persons = [e for e in view.log if e["seat"] is not None]
            assert len(persons) == applied[table_id]
            check_replays(fresh, table_id)
            assert fresh.state_of(table_id) == authority.state_of(table_id)
    finally:
        fresh.store.close()


@pytest.mark.parametrize("workers", [4])
def test_many_threads_racing_on_one_version_apply_exactly_one(authority, store_url, clock, workers):
    stores = [open_store(store_url) for _ in range(workers)]
    authorities = [Authority(s, limits=roomy_limits(), clock=clock, teacher_code=TEACHER) for s in stores]
    try:
        tickets = full_table(authority, "mighty_trees", seed=11)
        rng = random.Random(5)
        for _ in range(10):
            ticket, view = mover(authority, tickets)
            if view.status != "playing":
                break
            outcomes = race(authorities, ticket.token, view.version, [rng.choice(view.legal) for _ in authorities])
            assert sum(not isinstance(o, Exception) for o in outcomes) == 1, outcomes
            assert sum(isinstance(o, StaleVersion) for o in outcomes) == workers - 1
        check_replays(authority, ticket.table_id)
    finally:
        for s in stores:
            s.close()


def test_two_processes_racing_on_one_version_apply_exactly_one_every_time(authority, store, store_url):
    procs = [Proc(store_url), Proc(store_url)]
    try:
        result = race_processes(authority, procs, RACE_ROUNDS[store.kind], seed=9)
    finally:
        for p in procs:
            p.stop()
    assert result.rounds == RACE_ROUNDS[store.kind]
    check_race(authority, result)
