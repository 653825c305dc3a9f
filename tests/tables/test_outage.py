"""The store going away: a PostgreSQL server killed for 10 s mid-game, and a database locked by another writer.

While PostgreSQL is down every move and view is refused at once with ``StoreUnavailable`` (a ValueError
saying the store is not answering), never a driver error or a hang; when it is back, the same authority
carries on by itself (new connections, its listener too) and the log holds every acknowledged move exactly
once. A lock held past the busy timeout is refused the same way, saying the store is busy.
"""

from __future__ import annotations

import contextlib
import random
import sqlite3
import threading
import time

import pytest
from tables_helpers import TEACHER, check_acks, check_replays, full_table, mover, roomy_limits

import harness
from pgserver import PG_BIN, PostgresServer, wait_until
from treegames.service import store as store_module
from treegames.service.store import open_store
from treegames.tables.authority import Authority
from treegames.tables.errors import StoreUnavailable

pytestmark = pytest.mark.slow  # seconds of search or processes per test: not in make test-quick

OUTAGE_SECONDS = 10.0
RETRY_SECONDS = 0.2


@pytest.fixture
def own_postgres():
    """A PostgreSQL server of this test's own (it is crashed and restarted), stopped by PID at the end."""
    pytest.importorskip("psycopg")
    if not (PG_BIN / "initdb").exists():
        pytest.skip(f"PostgreSQL 15 is not installed at {PG_BIN}")
    server = PostgresServer()
    yield server
    server.stop()


class Player:
    """A thread playing random legal moves for whichever seat is to move, retrying after refusals."""

    def __init__(self, authority: Authority, tickets: dict):
        self.authority, self.tickets = authority, tickets
        self.acks: list[tuple[int, int, str]] = []  # (version moved on, seat, action), acknowledged
        self.refusals: list[tuple[str, float, StoreUnavailable]] = []  # (what, when, error)
        self.unexpected: list[BaseException] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        """Play until stopped (or the game ends), noting each acknowledged move and each refusal."""
        rng = random.Random(3)
        while not self.stop.is_set():
            what = "view"
            try:
                ticket, view = mover(self.authority, self.tickets)
                if view.status != "playing":
                    return
                what = "move"
                action = rng.choice(view.legal)
                self.authority.move(ticket.token, view.version, action)
                self.acks.append((view.version, ticket.seat, action))
                time.sleep(0.01)  # modelled time: a player's pace, a move every 10 ms or so
            except StoreUnavailable as err:
                self.refusals.append((what, time.monotonic(), err))
                time.sleep(RETRY_SECONDS)  # modelled time: the player tries again after this pause
            except BaseException as err:  # noqa: BLE001 - any other error fails the test
                self.unexpected.append(err)
                return


def test_a_postgres_crash_refuses_moves_and_views_meanwhile_then_play_resumes_losing_nothing(own_postgres):
    url = own_postgres.new_database("outage")
    store = open_store(url)
    authority = Authority(store, limits=roomy_limits(), teacher_code=TEACHER)
    tickets = full_table(authority, "aspens", seed=21)
    player = Player(authority, tickets)
    player.thread.start()
    try:
        wait_until(lambda: len(player.acks) >= 10 or player.unexpected, what="ten moves before the crash")
        own_postgres.kill()
        down = time.monotonic()
        for call in (lambda: authority.move(tickets[0].token, 0, "anything"), lambda: authority.view(tickets[1].token),
                     lambda: authority.overview(TEACHER)):
            with pytest.raises(StoreUnavailable, match="not answering"):
                call()
        time.sleep(max(0.0, down + OUTAGE_SECONDS - time.monotonic()))  # modelled time: the outage lasts this long
        up = time.monotonic()
        own_postgres.start()
        after_restart = len(player.acks)
        wait_until(lambda: len(player.acks) >= after_restart + 10 or player.unexpected,
                   what="ten moves after the restart")
    finally:
        player.stop.set()
        player.thread.join(harness.DEADLINE)
    assert not player.thread.is_alive() and not player.unexpected, player.unexpected
    during = [(what, err) for what, when, err in player.refusals if down <= when <= up]
    # refused at once, again and again (a hung call would give one refusal at most)
    assert len(during) >= OUTAGE_SECONDS / RETRY_SECONDS / 4, len(during)
    assert {what for what, _ in during} >= {"view"}
    assert all("not answering" in str(err) and isinstance(err, ValueError) for _, err in during)
    assert all(isinstance(err.__cause__, Exception) for _, err in during)
    assert len(player.acks) >= after_restart + 10
    wait_until(store.listening.is_set, what="the listener reconnected by itself")

    fresh_store = open_store(url)
    try:
        fresh = Authority(fresh_store, limits=roomy_limits(), teacher_code=TEACHER)
        persons = check_acks(fresh, tickets[0].table_id, player.acks)  # each one once, where it was made
        # at most the move in flight when the server died committed without its answer arriving
        assert len(player.acks) <= persons <= len(player.acks) + 1
        check_replays(fresh, tickets[0].table_id)
        assert fresh.state_of(tickets[0].table_id) == authority.state_of(tickets[0].table_id)
        # change notices flow again: a move through another store wakes this one's listener
        channel = f"table:{tickets[0].table_id}"
        mark = store.notices(channel)
        ticket, view = mover(fresh, tickets)
        fresh.move(ticket.token, view.version, view.legal[0])
        wait_until(lambda: store.notices(channel) > mark, what="the move's notice at this store's listener")
    finally:
        fresh_store.close()
        store.close()


@contextlib.contextmanager
def write_lock(url: str, table_id: str):
    """Another connection (no treegames code) holding the table's write lock until the block ends."""
    if url.startswith("sqlite:///"):
        conn = sqlite3.connect(url[len("sqlite://"):], isolation_level=None)
        conn.execute("BEGIN IMMEDIATE")
    else:
        import psycopg

        conn = psycopg.connect(url)
        conn.execute("SELECT id FROM tg_tables WHERE id = %s FOR UPDATE", (table_id,))
    try:
        yield
    finally:
        conn.rollback()
        conn.close()


def test_a_lock_held_past_the_busy_timeout_is_refused_saying_the_store_is_busy(store_url, clock, monkeypatch,
                                                                                 tmp_path):
    monkeypatch.setattr(store_module, "BUSY_MS", 300)
    monkeypatch.setenv("TREEGAMES_DATA_DIR", str(tmp_path))
    store = open_store(store_url)
    try:
        authority = Authority(store, limits=roomy_limits(), clock=clock, teacher_code=TEACHER)
        tickets = full_table(authority, "bosk")
        ticket, view = mover(authority, tickets)
        log = authority.log_of(ticket.table_id)
        with write_lock(store_url, ticket.table_id):
            with pytest.raises(StoreUnavailable, match="busy") as refused:
                authority.move(ticket.token, view.version, view.legal[0])
            assert isinstance(refused.value, ValueError)
            if store.kind == "sqlite":  # every transaction takes SQLite's one write lock
                with pytest.raises(StoreUnavailable, match="busy"):
                    authority.view(ticket.token)
            else:  # PostgreSQL locks the one row: looking still works
                assert authority.view(ticket.token).version == view.version
        assert authority.log_of(ticket.table_id) == log
        after = authority.move(ticket.token, view.version, view.legal[0])
        assert after.version > view.version
        check_replays(authority, ticket.table_id)
    finally:
        store.close()
