"""Root-parallel search: several independent trees of one position, their root counts added up.

A :class:`ParallelSearch` of ``trees`` trees is ``trees`` ordinary :class:`~.mcts.Search`
objects for the same position, each with its own seed drawn from the injected
``random.Random``.  A budget of N iterations gives each tree its share (N // trees,
the first ones one more), and the moves' statistics are the sums of the trees'
root counts (playouts, outright wins, rewards), with the Wilson interval of the
sum.  It offers what :class:`Search` offers (``think``, ``statistics``, ``best``,
``iterations``), so the Hint panel and the coach bots use either.

**Where the trees grow.**  One tree always grows in the calling thread; the
others grow in worker processes (the lab's ``python -m treegames.lab.worker``,
counted machine-wide by :mod:`treegames.lab.slots`, at most one per core however
many visitors think at once), but only when it pays:

* a worker costs a fresh interpreter (about 0.3 s of start-up), so workers start
  only when the first chunk, grown here, shows the rest of the budget would take
  more than :data:`PARALLEL_AFTER` seconds in this thread;
* with no free slot (a tournament is using them, or other visitors are
  thinking) every tree grows here, one chunk of each in turn.

With an iteration budget the result is the same wherever the trees grow: each
tree's iterations depend only on its own seed, and chunks only pause it.  So a
coach with a playout budget plays the same moves in a lab tournament (all trees
in the worker's own process) as on a Play page (trees in parallel).

**Chunks, progress and cancel.**  Trees grow :data:`CHUNK_SECONDS` at a time; after
each chunk the progress callback hears the total and the ``cancel`` callable
(or ``threading.Event``) is checked, so a cancel stops every tree within about
one chunk.  Each worker gets its tree once (pickled), grows it chunk by chunk,
and sends it back when the call ends; workers are then stopped and reaped
before ``think`` returns, so a finished, failed or cancelled search leaves no
process behind.  A worker that fails or dies loses only the iterations of its
own tree since the call began: that tree, as it was, grows on here.
"""

from __future__ import annotations

import logging
import pickle
import random
import subprocess
import threading
import time
from collections.abc import Callable
from typing import Any

from ..lab import slots
from ..lab.pipes import receive, send
from ..lab.runner import start_worker, stop_workers
from ..lab.stats import wilson_interval
from .mcts import (
    EXPLORATION,
    Budget,
    MoveStats,
    Prior,
    Progress,
    Rollout,
    Search,
    SearchError,
    _cancel_check,
    progress_report,
)

__all__ = ["ParallelSearch", "TreeJob", "CHUNK_SECONDS", "PARALLEL_AFTER", "MAX_TREES"]

log = logging.getLogger(__name__)

CHUNK_SECONDS = 0.2
"""Longest stretch a tree grows between progress reports and cancel checks."""

PARALLEL_AFTER = 1.0
"""Worker processes start only if the rest of the budget would take longer than this in one thread (seconds)."""

MAX_TREES = 8
"""At most this many trees per search."""


class TreeJob:
    """What a worker process is sent: one tree to grow chunk by chunk (served by ``treegames.lab.worker``)."""

    def __init__(self, search: Search):
        self.search = search

    def serve(self, source: Any, sink: Any) -> None:
        """Grow the tree by each chunk received ``(iterations, seconds)``, answering the iterations done; on None send it back."""
        while (task := receive(source)) is not None:
            iterations, seconds = task
            done = self.search.think(Budget(iterations=iterations, seconds=seconds))
            send(sink, ("ok", done))
        send(sink, ("tree", self.search))


def _survives_pickling(state: Any) -> bool:
    """True if ``state`` comes back equal from a pickle (a worker would search the same position)."""
    try:
        return pickle.loads(pickle.dumps(state)) == state
    except Exception:  # a view-only state (a shared table's seat) may not replay: search it here
        return False


def _shares(total: int, trees: int) -> list[int]:
    """``total`` iterations split over ``trees`` trees, the first ones one more."""
    base, extra = divmod(total, trees)
    return [base + (1 if i < extra else 0) for i in range(trees)]


class ParallelSearch:
    """Root-parallel UCT (see the module docstring): ``trees`` searches of ``state``, their root counts summed."""

    def __init__(self, state: Any, rng: random.Random, rollout: Rollout | str = Rollout.RANDOM,
                 trees: int = 2, processes: bool = True, exploration: float = EXPLORATION,
                 prior: Prior | str = Prior.NONE):
        if not isinstance(rng, random.Random):
            raise SearchError(f"rng must be a random.Random, not {type(rng).__name__}")
        if type(trees) is not int or not 1 <= trees <= MAX_TREES:
            raise SearchError(f"trees must be a whole number from 1 to {MAX_TREES}, not {trees!r}")
        seeds = [rng.getrandbits(64) for _ in range(trees)]
        self.trees = [Search(state, random.Random(seed), rollout=rollout, exploration=exploration, prior=prior)
                      for seed in seeds]
        self.state = state
        self.player = self.trees[0].player
        self.rollout = self.trees[0].rollout
        self.processes = processes
        self.used_processes = 0
        """Worker processes the last ``think`` used (0: every tree grew in this thread)."""

    @property
    def iterations(self) -> int:
        """Iterations in all the trees together."""
        return sum(tree.iterations for tree in self.trees)

    @property
    def keeps_states(self) -> bool:
        """The trees' nodes keep their states (nothing hidden), so :meth:`move_to` can keep their playouts."""
        return self.trees[0].keeps_states

    def move_to(self, action: Any, state: Any) -> int:
        """Search ``state`` next, each tree from its node for it (:meth:`.mcts.Search.move_to`); the playouts kept."""
        kept = sum(tree.move_to(action, state) for tree in self.trees)
        self.state, self.player = state, state.current_player
        return kept

    # ------------------------------------------------------------ thinking

    def think(self, budget: Budget, cancel: Callable[[], bool] | threading.Event | None = None,
              progress: Callable[[Progress], None] | None = None) -> int:
        """Grow the trees until the budget is spent or ``cancel`` says stop; the iterations run by this call."""
        if not isinstance(budget, Budget):
            raise SearchError(f"budget must be a Budget, not {type(budget).__name__}")
        stop = _cancel_check(cancel)
        start = time.perf_counter()
        deadline = None if budget.seconds is None else start + budget.seconds
        left = _shares(budget.iterations, len(self.trees)) if budget.iterations is not None else [None] * len(self.trees)
        run = _Run(self, left, deadline, stop)
        self.used_processes = 0
        if not stop():
            run.grow(0, probe=True)
            if progress is not None and not run.over():
                progress(self._progress(budget, run.done, start))
            if self.processes and len(self.trees) > 1 and not run.over() and run.worth_processes():
                self.used_processes = run.start_workers()
            run.grow_here(lambda: progress(self._progress(budget, run.done, start)) if progress else None)
            run.finish()
        if progress is not None:
            progress(self._progress(budget, run.done, start, finished=True))
        return run.done

    def _progress(self, budget: Budget, done: int, start: float, finished: bool = False) -> Progress:
        """The progress report after ``done`` iterations of this call."""
        return progress_report(budget, done, self.iterations, start, finished)

    # ------------------------------------------------------------ results

    def statistics(self) -> list[MoveStats]:
        """Every legal root move's summed statistics, most playouts first (then the prior's favourite, higher reward,
        the engine's order)."""
        per_tree = [{s.action: s for s in tree.statistics()} for tree in self.trees]
        favourite = self.trees[0].root_favourite()
        out = []
        for index, action in enumerate(self.trees[0]._legal):
            visits = sum(t[action].visits for t in per_tree)
            wins = sum(t[action].wins for t in per_tree)
            total = sum(t[action].reward * t[action].visits for t in per_tree)
            reward = total / visits if visits else 0.0
            low, high = wilson_interval(wins, visits)
            first = per_tree[0][action]
            out.append((-visits, action != favourite, -reward, index,
                        MoveStats(action, first.notation, first.description, visits, wins, reward, low, high)))
        out.sort(key=lambda row: row[:4])
        return [row[4] for row in out]

    def best(self) -> Any:
        """The move with the most playouts over all the trees (the first legal move before any)."""
        return self.statistics()[0].action


class _Run:
    """One ``think`` call: which trees still have iterations to run, here or in workers."""

    def __init__(self, search: ParallelSearch, left: list[int | None], deadline: float | None,
                 stop: Callable[[], bool]):
        self.search = search
        self.left = left  # iterations still to run per tree (None: until the deadline)
        self.deadline = deadline
        self.stop = stop
        self.done = 0
        self.rate: float | None = None  # iterations per second seen in this thread
        self.remote: dict[int, subprocess.Popen] = {}  # tree index -> its worker, while it grows the tree
        self.processes: list[subprocess.Popen] = []  # every worker started, reaped by finish()
        self.threads: list[threading.Thread] = []
        self.held: list = []
        self.lock = threading.Lock()

    def over(self) -> bool:
        """True once the budget is spent or a cancel came."""
        if self.stop() or (self.deadline is not None and time.perf_counter() >= self.deadline):
            return True
        return all(n is not None and n <= 0 for n in self.left)

    def _chunk(self, index: int) -> tuple[int | None, float]:
        """The next chunk for tree ``index``: (iterations at most, seconds at most)."""
        seconds = CHUNK_SECONDS
        if self.deadline is not None:
            seconds = max(0.001, min(seconds, self.deadline - time.perf_counter()))
        return self.left[index], seconds

    def _count(self, index: int, done: int) -> None:
        """Record ``done`` more iterations of tree ``index``."""
        with self.lock:
            self.done += done
            if self.left[index] is not None:
                self.left[index] -= done

    def grow(self, index: int, probe: bool = False) -> None:
        """Grow tree ``index`` here by one chunk (measuring this thread's speed on the first)."""
        if self.left[index] is not None and self.left[index] <= 0:
            return
        iterations, seconds = self._chunk(index)
        began = time.perf_counter()
        done = self.search.trees[index].think(Budget(iterations=iterations, seconds=seconds), cancel=self.stop)
        if probe and done:
            self.rate = done / max(time.perf_counter() - began, 1e-6)
        self._count(index, done)

    def worth_processes(self) -> bool:
        """True if the rest would take more than PARALLEL_AFTER seconds in this thread."""
        if self.rate is None:
            return False
        if any(n is None for n in self.left):  # a time budget: what remains of it
            remaining = (self.deadline - time.perf_counter()) if self.deadline is not None else 0.0
        else:
            remaining = sum(self.left) / self.rate
        return remaining > PARALLEL_AFTER

    def start_workers(self) -> int:
        """Hand every tree but the first to a worker, as far as free slots allow; how many started."""
        wanted = [i for i in range(1, len(self.search.trees)) if self.left[i] is None or self.left[i] > 0]
        if not wanted or not _survives_pickling(self.search.state):
            return 0
        self.held = slots.acquire(len(wanted))
        for index in wanted[:len(self.held)]:
            process = None
            try:
                process = start_worker()
                send(process.stdin, TreeJob(self.search.trees[index]))
            except Exception:  # no interpreter, or a state that cannot be pickled: grow the tree here
                log.warning("a search worker did not start; its tree grows here", exc_info=True)
                if process is not None:
                    stop_workers([process], graceful=False)
                continue
            self.processes.append(process)
            self.remote[index] = process
            thread = threading.Thread(target=self._feed, args=(index, process), daemon=True,
                                      name=f"treegames-search-tree-{index}")
            self.threads.append(thread)
            thread.start()
        if len(self.remote) < len(self.held):  # give back slots no worker uses
            slots.release(self.held[len(self.remote):])
            self.held = self.held[:len(self.remote)]
        return len(self.remote)

    def _feed(self, index: int, process: subprocess.Popen) -> None:
        """A worker's thread: send chunks until its tree is done or the call is over, then take the tree back."""
        try:
            while not self.over() and (self.left[index] is None or self.left[index] > 0):
                send(process.stdin, self._chunk(index))
                kind, done = receive(process.stdout)
                if kind != "ok":
                    raise ValueError(f"unexpected answer {kind!r}")
                self._count(index, done)
            send(process.stdin, None)
            kind, tree = receive(process.stdout)
            if kind == "tree" and isinstance(tree, Search):
                self.search.trees[index] = tree
        except Exception:  # the worker died or answered nonsense: never let it stop the search
            log.warning("a search worker stopped; its tree grows on here from where it was", exc_info=True)
        finally:
            self.remote.pop(index, None)

    def grow_here(self, report: Callable[[], None]) -> None:
        """Grow the trees not in workers, a chunk each in turn, until the budget is spent; report after each."""
        while not self.over():
            local = [i for i in range(len(self.search.trees)) if i not in self.remote
                     and (self.left[i] is None or self.left[i] > 0)]
            if not local:
                if not any(t.is_alive() for t in self.threads):
                    return
                for thread in self.threads:
                    thread.join(timeout=CHUNK_SECONDS / 4)
                report()
                continue
            for index in local:
                if self.over():
                    break
                self.grow(index)
            report()

    def finish(self) -> None:
        """Take the workers' trees back, stop and reap every worker, and give back the slots."""
        processes = self.processes
        try:
            for thread in self.threads:
                thread.join(timeout=CHUNK_SECONDS * 10 + 5)
        finally:
            stop_workers(processes, graceful=True)
            slots.release(self.held)
            self.held = []
