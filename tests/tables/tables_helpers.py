"""Helpers for the shared-table tests: tables with every seat taken, whose move it is, snapshots, processes."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

from pgserver import end_group
from treegames.tables.authority import Authority, replay_table
from treegames.tables.limits import Limits

HERE = Path(__file__).resolve().parent
TEACHER = "TEACH-2345"
GAMES = ("aspens", "bosk", "mighty_trees")


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, now: float = 1_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


def roomy_limits() -> Limits:
    """The default limits, with room for the many tables one test process creates."""
    return replace(Limits(), creations_per_visitor=100_000, creations_per_server=100_000, open_tables=100_000)


def full_table(authority: Authority, game: str, seats=("person", "person"), seed=7, **options):
    """A table of ``game`` whose person seats are all taken: the tickets by seat (bot seats have none)."""
    first = authority.create_table(game, options or None, list(seats), visitor="v0", seed=seed)
    tickets = {first.seat: first}
    for i, kind in enumerate(seats):
        if kind == "person" and i not in tickets:
            t = authority.join(first.code, visitor=f"v{i}", seat=i)
            tickets[t.seat] = t
    return tickets


def mover(authority: Authority, tickets: dict):
    """The ticket of the seat whose move it is, and that seat's view (any seat's once nobody is to move)."""
    any_ticket = next(iter(tickets.values()))
    view = authority.view(any_ticket.token)
    ticket = tickets.get(view.current_player)
    return (ticket, authority.view(ticket.token)) if ticket else (any_ticket, view)


def play_moves(authority: Authority, tickets: dict, count: int, rng: random.Random) -> int:
    """Up to ``count`` random legal person moves (fewer if the game ends); how many were played."""
    played = 0
    for _ in range(count):
        ticket, view = mover(authority, tickets)
        if view.status != "playing":
            break
        authority.move(ticket.token, view.version, rng.choice(view.legal))
        played += 1
    return played


def snapshot(authority: Authority, table_id: str) -> tuple:
    """What must not change after a refusal: the log, the version, the status and the state."""
    state = authority.state_of(table_id)
    row = authority.overview(TEACHER)
    mine = next(v for v in row if v.table_id == table_id)
    return authority.log_of(table_id), mine.version, mine.status, state


def check_replays(authority: Authority, table_id: str) -> None:
    """The table's log, replayed through the engine, is exactly the authority's state."""
    view = next(v for v in authority.overview(TEACHER) if v.table_id == table_id)
    assert replay_table(view.game, view.options, authority.log_of(table_id)) == authority.state_of(table_id)


class Proc:
    """A helper script (mover_proc.py) in its own process group, talking JSON lines; stopped by PID."""

    def __init__(self, *args: str):
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        self.proc = subprocess.Popen([sys.executable, str(HERE / "mover_proc.py"), *args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, env=env, start_new_session=True)
        ready = self.read()
        assert ready == {"ready": True}, ready

    def send(self, message: dict) -> None:
        """One request line."""
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()

    def read(self) -> dict:
        """One answer line."""
        line = self.proc.stdout.readline()
        assert line, "the helper process ended"
        return json.loads(line)

    def stop(self, kill: bool = False) -> None:
        """End the process group (SIGKILL when ``kill``) and wait for it."""
        end_group(self.proc, kill)
        for pipe in (self.proc.stdin, self.proc.stdout):
            if pipe:
                try:
                    pipe.close()
                except BrokenPipeError:
                    pass


def logged(authority: Authority, table_id: str) -> list[tuple[int, int | None, str]]:
    """The table's log as stored: (version, seat or None for chance, action), oldest first."""
    with authority.store.transaction() as tx:
        rows = tx.execute("SELECT version, seat, action FROM tg_moves WHERE table_id = ? ORDER BY version",
                          (table_id,)).fetchall()
    return [(int(v), None if s is None else int(s), a) for v, s, a in rows]


def misplaced_acks(authority: Authority, table_id: str, acks: list[tuple[int, int, str]], game: str | None = None,
                   options: dict | None = None) -> tuple[list, int]:
    """The acknowledged (version moved on, seat, action) that are not the log's person move at the next version,
    and how many person moves the log holds.

    The log keeps the engine's full notation, so an action is compared by what it does to the state before it.
    """
    if game is None:
        view = next(v for v in authority.overview(TEACHER) if v.table_id == table_id)
        game, options = view.game, view.options
    state = replay_table(game, options or {}, [])
    before, entries = {}, {}
    for version, seat, action in logged(authority, table_id):
        before[version], entries[version] = state, (seat, action)
        state = state.apply(state.parse_action(action))
    misplaced = []
    for on, seat, action in acks:
        entry, s = entries.get(on + 1), before.get(on + 1)
        if entry is None or entry[0] != seat or s.apply(s.parse_action(action)) != s.apply(s.parse_action(entry[1])):
            misplaced.append((on, seat, action, entry))
    return misplaced, sum(seat is not None for seat, _ in entries.values())


def check_acks(authority: Authority, table_id: str, acks: list[tuple[int, int, str]]) -> int:
    """Each acknowledged move is the log's person move at the version after the one it was made on;
    how many person moves the log holds (the caller compares it with the acks)."""
    misplaced, persons = misplaced_acks(authority, table_id, acks)
    assert not misplaced, misplaced[:5]
    return persons
