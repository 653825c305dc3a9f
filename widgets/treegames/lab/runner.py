"""Running a tournament in the background: progress, partial results, cancel, and worker processes.

:class:`TournamentRun` plays the games of a :class:`~.tournament.TournamentSpec`
on a background thread, so a notebook or dashboard stays responsive.  Small
tournaments are played on that thread; large ones (``PROCESS_THRESHOLD`` games
or more, when more than one worker is allowed) are split into chunks of games
and played by worker processes, one per core up to ``MAX_WORKERS``.  A seat-rotated
tournament's chunks hold whole blocks (the games that share one set of seeds), so
every report, and a run stopped early, leaves no block half played.

* Every game depends only on the spec and its number (see :mod:`.tournament`),
  so the records, sorted by game, are the same whatever the worker count.
* ``progress(done, total)`` is called after each chunk, one call at a time with
  ``done`` never going down, and once more when the run ends; ``records()`` and
  ``results()`` give what has been played so far, at any moment.
* ``cancel()`` stops the run: worker processes are terminated (then killed if
  they linger) and reaped before the run reports ``CANCELLED``, so no process
  is left behind.  The records played so far are kept.
* Worker processes are counted machine-wide (:mod:`.slots`): at most one per
  core, however many visitors run tournaments; a run that finds no free slot
  plays in its own kernel instead.
* Workers are fresh interpreters (``python -m treegames.lab.worker``, see
  :mod:`.worker`): safe to start from a Jupyter kernel's threads, never
  re-importing a script's main module, and they lower their own priority
  (``nice``) so a tournament never slows the other users of a shared server much.
"""

from __future__ import annotations

import logging
import os
import queue
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path

from . import slots
from .pipes import receive, send
from .results import Results
from .tournament import GameRecord, TournamentSpec, play_games

__all__ = ["RunState", "TournamentRun", "MAX_WORKERS", "PROCESS_THRESHOLD", "default_workers", "run_tournament",
           "start_worker", "stop_workers"]

log = logging.getLogger(__name__)

MAX_WORKERS = 2
"""At most this many worker processes per tournament (the class server's fair share)."""

PROCESS_THRESHOLD = 200
"""Tournaments of at least this many games use worker processes (when more than one worker is allowed)."""

class RunState(StrEnum):
    """Where a run is."""

    READY = "ready"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"
    FAILED = "failed"


def default_workers() -> int:
    """One worker per core, at most MAX_WORKERS."""
    return max(1, min(MAX_WORKERS, os.cpu_count() or 1))


def _chunks(total: int, workers: int, size: int | None = None, block: int = 1) -> list[tuple[int, int]]:
    """(start, stop) game ranges: small enough for smooth progress, big enough to be cheap, in whole blocks of
    ``block`` games (or of ``size`` games)."""
    if not size:
        size = -(-max(1, min(50, total // (workers * 10) or 1)) // block) * block  # rounded up to whole blocks
    return [(start, min(total, start + size)) for start in range(0, total, size)]


class TournamentRun:
    """One tournament played in the background (see the module docstring)."""

    def __init__(self, spec: TournamentSpec, workers: int | None = None,
                 progress: Callable[[int, int], None] | None = None, chunk: int | None = None):
        self.spec = spec
        if chunk is not None and (type(chunk) is not int or chunk < 1):
            raise ValueError(f"chunk must be a whole number of games, at least 1, not {chunk!r}")
        self.chunk = chunk
        wanted = default_workers() if workers is None else workers
        if type(wanted) is not int or wanted < 1:
            raise ValueError(f"workers must be a whole number of at least 1, not {workers!r}")
        self.uses_processes = wanted > 1 and spec.games >= PROCESS_THRESHOLD
        self.workers = min(wanted, MAX_WORKERS) if self.uses_processes else 1
        self.progress = progress
        self.state = RunState.READY
        self.error: str | None = None
        self.started_at: float | None = None
        self.elapsed = 0.0
        self._records: list[GameRecord] = []
        self._lock = threading.Lock()
        self._report_lock = threading.Lock()
        self._cancel = threading.Event()
        self._thread: threading.Thread | None = None
        self._processes: list = []
        self._slots: list = []

    # -- what a view reads -------------------------------------------------

    @property
    def total(self) -> int:
        """Games asked for."""
        return self.spec.games

    @property
    def done(self) -> int:
        """Games played so far."""
        with self._lock:
            return len(self._records)

    @property
    def is_running(self) -> bool:
        """True while games are being played."""
        return self.state is RunState.RUNNING

    def records(self) -> list[GameRecord]:
        """The records played so far, by game number."""
        with self._lock:
            return sorted(self._records, key=lambda r: r.index)

    def results(self) -> Results:
        """The results of the games played so far."""
        return Results(self.spec, self.records())

    def process_ids(self) -> list[int]:
        """The worker processes' ids (for tests: after a run none of them may be alive)."""
        return [p.pid for p in self._processes]

    # -- control -------------------------------------------------------------

    def start(self) -> TournamentRun:
        """Start playing on a background thread; returns at once."""
        if self.state is not RunState.READY:
            raise RuntimeError(f"this run is already {self.state.value}; make a new TournamentRun")
        if self.uses_processes:  # machine-wide: at most one worker process per core, whoever runs them
            self._slots = slots.acquire(self.workers)
            self.workers = max(1, len(self._slots))
            self.uses_processes = bool(self._slots)
        self.state = RunState.RUNNING
        self.started_at = time.perf_counter()
        self._thread = threading.Thread(target=self._run, name="treegames-tournament", daemon=True)
        self._thread.start()
        return self

    def run(self) -> Results:
        """Play the whole tournament now (blocking) and return its results."""
        self.start()
        self.wait()
        if self.state is RunState.FAILED:
            raise RuntimeError(f"the tournament failed: {self.error}")
        return self.results()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the run to end; True if it has."""
        if self._thread is not None:
            self._thread.join(timeout)
        return self.state not in (RunState.READY, RunState.RUNNING)

    def stop(self) -> None:
        """Ask the run to stop after the chunks under way, without waiting (safe from the progress callback)."""
        self._cancel.set()

    def cancel(self, timeout: float = 10.0) -> None:
        """Stop the run, its worker processes included, and wait until they are gone."""
        self._cancel.set()
        self.wait(timeout)

    # -- the background thread -------------------------------------------

    def _add(self, records: list[GameRecord]) -> None:
        """Keep a chunk's records and report progress."""
        with self._lock:
            self._records.extend(records)
        with self._report_lock:  # one report at a time, so the counts a view sees never go backwards
            self.elapsed = time.perf_counter() - (self.started_at or 0.0)
            if self.progress is not None:
                try:
                    self.progress(self.done, self.total)
                except Exception:  # a view's callback must never stop the tournament
                    log.exception("tournament progress callback failed")

    def _finish(self, state: RunState, error: str | None = None) -> None:
        """Record how the run ended and tell the progress callback once more."""
        self.error = error
        self.elapsed = time.perf_counter() - (self.started_at or 0.0)
        with self._report_lock:
            self.state = state
            if self.progress is not None:
                try:
                    self.progress(self.done, self.total)
                except Exception:
                    log.exception("tournament progress callback failed")

    def _run(self) -> None:
        """Play every chunk, in this thread or in worker processes."""
        try:
            if self.uses_processes:
                self._run_processes()
            else:
                self._run_here()
        except BaseException:
            log.exception("tournament failed")
            self._finish(RunState.FAILED, traceback.format_exc(limit=4))
            return
        finally:
            slots.release(self._slots)
            self._slots = []
        if self.error is not None:
            self._finish(RunState.FAILED, self.error)
        else:
            self._finish(RunState.CANCELLED if self._cancel.is_set() else RunState.FINISHED)

    def _run_here(self) -> None:
        """Play the chunks one after another on this thread, checking for cancel between chunks."""
        for start, stop in _chunks(self.total, 1, self.chunk, self.spec.block_size):
            if self._cancel.is_set():
                return
            self._add(play_games(self.spec, start, stop))

    def _run_processes(self) -> None:
        """Hand chunks to worker processes (one feeding thread each) and collect what they send back."""
        chunks: queue.SimpleQueue = queue.SimpleQueue()
        for chunk in _chunks(self.total, self.workers, self.chunk, self.spec.block_size):
            chunks.put(chunk)
        self._processes = []
        feeders: list[threading.Thread] = []
        try:
            for i in range(self.workers):  # one at a time, so a failed start still stops the ones already running
                self._processes.append(start_worker())
                feeders.append(threading.Thread(target=self._feed, args=(self._processes[-1], chunks), daemon=True,
                                                name=f"treegames-tournament-feed-{i}"))
            for feeder in feeders:
                feeder.start()
            while any(f.is_alive() for f in feeders):
                if self._cancel.is_set() or self.error is not None:
                    break
                for feeder in feeders:
                    feeder.join(timeout=0.05)
        finally:
            stop_workers(self._processes, graceful=self.done >= self.total)  # all played: let them exit by themselves
            for feeder in feeders:
                feeder.join(timeout=5)
        if self.error is None and not self._cancel.is_set() and self.done < self.total:
            self.error = "the worker processes stopped before the tournament was over"

    def _feed(self, process: subprocess.Popen, chunks: queue.SimpleQueue) -> None:
        """One worker's thread: send it chunks one at a time and keep what comes back."""
        try:
            send(process.stdin, self.spec)
            while not self._cancel.is_set() and self.error is None:
                try:
                    chunk = chunks.get_nowait()
                except queue.Empty:
                    break
                send(process.stdin, chunk)
                kind, _start, payload = receive(process.stdout)
                if kind == "error":
                    self.error = payload
                    return
                self._add(payload)
            send(process.stdin, None)
        except (EOFError, OSError, ValueError):  # the worker was stopped (cancel) or died
            if not self._cancel.is_set() and self.error is None:
                self.error = "a worker process stopped unexpectedly"


def start_worker() -> subprocess.Popen:
    """A new worker process running ``python -m treegames.lab.worker`` with this package importable."""
    package_root = str(Path(__file__).resolve().parents[2])
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH", "")) if p)
    return subprocess.Popen(
        [sys.executable, "-m", "treegames.lab.worker"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, close_fds=True,
    )


def stop_workers(processes: list[subprocess.Popen], graceful: bool) -> None:
    """Let finished workers exit (or terminate them at once), kill stragglers, and reap every one."""
    for process in processes:
        if graceful:
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
        if process.poll() is None:
            process.terminate()
    for process in processes:
        try:
            process.wait(timeout=3)
        except subprocess.TimeoutExpired:  # pragma: no cover - terminate is normally enough
            process.kill()
            process.wait(timeout=3)
        for pipe in (process.stdin, process.stdout):
            try:
                pipe.close()
            except OSError:
                pass


def run_tournament(spec: TournamentSpec, workers: int | None = None) -> Results:
    """Play a whole tournament now and return its results (a blocking convenience)."""
    return TournamentRun(spec, workers=workers).run()
