"""Races and soaks over real stores, shared by tests/tables and benchmarks/bench_tables.py.

* ``race_processes(authority, procs, rounds)``: each round, every process (mover_proc.py, its own
  Authority) is sent a move for the seat to move on the same version at once; a round is good when
  exactly one is applied and every other is refused as stale (or as too late, when the applied one won).
* ``soak(authority, players, tables, seconds)``: ``players`` threads sit in pairs at ``tables`` tables of
  every game, each long-polling its table and playing a random legal move when it is its turn, a new
  table once a game ends; every client remembers what it last saw. With ``until``, the soak goes on past
  ``seconds`` until ``until(clients)`` holds (within harness.DEADLINE), so what a test needs happened. ``check_soak`` then replays every
  table's log and compares it with each client's last view (divergences) and with each client's
  acknowledged moves (lost or doubled).
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tables_helpers import TEACHER, check_acks, full_table, logged, misplaced_acks, mover

import harness
from treegames.mighty_trees.observer import OBSERVER
from treegames.tables.authority import Authority, replay_table
from treegames.tables.errors import NotYourTurn, StaleVersion

SOAK_GAMES = ("aspens", "bosk", "mighty_trees")


@dataclass
class RaceResult:
    """What ``race_processes`` saw: rounds, the bad ones, and each table's acknowledged moves."""

    rounds: int = 0
    bad: list = field(default_factory=list)
    acks: dict = field(default_factory=dict)
    """table id -> [(version moved on, seat, action)] of the applied moves."""


def race_processes(authority: Authority, procs: list, rounds: int, seed: int = 0,
                   game: str = "aspens") -> RaceResult:
    """``rounds`` rounds of every process moving on the same version at once (a new table when a game ends)."""
    rng = random.Random(seed)
    result = RaceResult()
    tickets = None
    while result.rounds < rounds:
        if tickets is None:
            tickets = full_table(authority, game, seed=rng.randrange(10**6))
            result.acks[tickets[0].table_id] = []
        ticket, view = mover(authority, tickets)
        if view.status != "playing":
            tickets = None
            continue
        actions = [rng.choice(view.legal) for _ in procs]
        for proc, action in zip(procs, actions, strict=True):
            proc.send({"op": "move", "token": ticket.token, "version": view.version, "action": action})
        answers = [proc.read() for proc in procs]
        result.rounds += 1
        applied = [i for i, a in enumerate(answers) if "ok" in a]
        refused = [a for a in answers if a.get("error") == StaleVersion.__name__ or _over(a)]
        if len(applied) != 1 or len(refused) != len(procs) - 1:
            result.bad.append(answers)
        for i in applied:
            result.acks[ticket.table_id].append((view.version, ticket.seat, actions[i]))
    return result


def _over(answer: dict) -> bool:
    """Whether ``answer`` refuses a move because the game is over (the winning move of the race came first)."""
    return answer.get("error") == NotYourTurn.__name__ and "over" in answer.get("message", "")


def check_race(authority: Authority, result: RaceResult) -> None:
    """Every applied move is in its table's log once, nothing else is, and every log replays."""
    assert not result.bad, result.bad[:5]
    for table_id, acks in result.acks.items():
        assert check_acks(authority, table_id, acks) == len(acks)
        view = next(v for v in authority.overview(TEACHER) if v.table_id == table_id)
        assert replay_table(view.game, view.options, authority.log_of(table_id)) == authority.state_of(table_id)


@dataclass
class Client:
    """One simulated player: its seat's ticket, its acknowledged moves and the last view it saw, per table."""

    name: str
    acks: dict = field(default_factory=dict)
    """table id -> [(version moved on, seat, action)]."""
    last: dict = field(default_factory=dict)
    """table id -> the last TableView this client saw."""
    errors: list = field(default_factory=list)


def _seat_pair(authority: Authority, game: str, rng: random.Random, visitors: tuple[str, str]) -> list:
    """A new two-person table of ``game``: the creator's and the joiner's tickets."""
    first = authority.create_table(game, None, ["person", "person"], visitor=visitors[0], seed=rng.randrange(10**9))
    return [first, authority.join(first.code, visitor=visitors[1])]


def _play_pair(authority: Authority, clients: tuple[Client, Client], game: str, stop: threading.Event,
               seed: int) -> None:
    """Two clients at one table after another until ``stop``: each waits for its turn and moves."""
    rng = random.Random(seed)
    try:
        while not stop.is_set():
            tickets = _seat_pair(authority, game, rng, (clients[0].name, clients[1].name))
            threads = [threading.Thread(target=_play_seat, args=(authority, c, t, stop, rng.randrange(10**9)))
                       for c, t in zip(clients, tickets, strict=True)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
    except Exception as err:  # noqa: BLE001 - reported by check_soak
        clients[0].errors.append(err)


def _play_seat(authority: Authority, client: Client, ticket: Any, stop: threading.Event, seed: int) -> None:
    """One seat until the game ends or ``stop``: long-poll, and on its turn a random legal move."""
    rng = random.Random(seed)
    acks = client.acks.setdefault(ticket.table_id, [])
    try:
        view = authority.view(ticket.token)
        while not stop.is_set():
            client.last[ticket.table_id] = view
            if view.status != "playing" and view.status != "waiting":
                return
            if view.is_my_move:
                action = rng.choice(view.legal)
                after = authority.move(ticket.token, view.version, action)
                acks.append((view.version, ticket.seat, action))
                view = after
            else:
                view = authority.wait(ticket.token, view.version, timeout=1.0)
        client.last[ticket.table_id] = view
    except Exception as err:  # noqa: BLE001 - reported by check_soak
        client.errors.append(err)


@dataclass
class SoakResult:
    """What a soak did: its clients, how long it ran, and the moves they made."""

    clients: list
    seconds: float

    @property
    def person_moves(self) -> int:
        """Acknowledged person moves, all clients together."""
        return sum(len(a) for c in self.clients for a in c.acks.values())


def soak(authority: Authority, players: int = 30, tables: int = 15, seconds: float = 120.0,
         seed: int = 0, until: Callable[[list[Client]], object] | None = None) -> SoakResult:
    """``players`` simulated players in pairs at ``tables`` tables of every game for ``seconds`` seconds.

    With ``until``, the soak goes on after ``seconds`` until ``until(clients)`` is true (AssertionError
    after harness.DEADLINE): a test's need (every player moved) never rests on how fast this machine is.
    """
    assert players == 2 * tables, "every table has two person seats"
    clients = [Client(f"player{i}") for i in range(players)]
    stop = threading.Event()
    pairs = [threading.Thread(target=_play_pair, daemon=True,
                              args=(authority, (clients[2 * t], clients[2 * t + 1]), SOAK_GAMES[t % len(SOAK_GAMES)],
                                    stop, seed * 1000 + t)) for t in range(tables)]
    start = time.perf_counter()
    for t in pairs:
        t.start()
    try:
        time.sleep(seconds)  # modelled time: the soak's length (the players play meanwhile), not a wait
        if until is not None:
            harness.wait_until(lambda: until(clients), what="what the soak was run for")
    finally:
        stop.set()
        for t in pairs:
            t.join(harness.DEADLINE)
    return SoakResult(clients, time.perf_counter() - start)


def _seen_state(view: Any, state: Any) -> Any:
    """What ``view`` shows of ``state`` at its version: the saved state, or the seat's hidden-card view."""
    return state.to_json() if view.saved is not None else OBSERVER.view_to_json(OBSERVER.view(state, view.seat))


def check_soak(authority: Authority, result: SoakResult) -> dict:
    """Divergences (a client's last view that its table's log does not replay to), lost and doubled moves."""
    divergences = lost = doubled = 0
    errors = [e for c in result.clients for e in c.errors]
    tables: dict[str, list] = {}
    for client in result.clients:
        for table_id, view in client.last.items():
            tables.setdefault(table_id, []).append((client, view))
    for table_id, seen in tables.items():
        entries = logged(authority, table_id)
        game, options = seen[0][1].game, seen[0][1].options
        for _client, view in seen:
            prefix = [a for v, _s, a in entries if v <= view.version]
            state = replay_table(game, options, prefix)
            shown = view.saved if view.saved is not None else view.player_view
            divergences += _seen_state(view, state) != shown
        acks = [a for client, _v in seen for a in client.acks.get(table_id, [])]
        misplaced, persons = misplaced_acks(authority, table_id, acks, game, options)
        lost += len(misplaced)
        doubled += max(0, persons - (len(acks) - len(misplaced)))
    logged_actions = sum(len(logged(authority, t)) for t in tables)
    return {"tables": len(tables), "divergences": divergences, "lost": lost, "doubled": doubled,
            "errors": errors, "person_moves": result.person_moves, "logged_actions": logged_actions}
