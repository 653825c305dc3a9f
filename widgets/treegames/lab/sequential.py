"""Sequential matches: a seat-rotated tournament that stops as soon as its SPRT decides (no UI imports).

A :class:`SequentialMatch` plays the blocks of a rotated
:class:`~.tournament.TournamentSpec` (its ``games`` is the cap) in the
background, like :class:`~.runner.TournamentRun`, and feeds each finished block
to a :class:`Tracker` of the :class:`~.sprt.Sprt`.  When the LLR leaves its
band the run is stopped; blocks played past that point are not counted.

Which blocks count (our design)
-------------------------------
Worker processes finish games out of order.  The tracker only ever reads the
longest run of complete blocks from block 0 on, in order, and stops at the first
block where the LLR reaches a bound.  So the decision, the blocks it took and
the LLR line are the same whatever the number of workers, and the same as a
replay of the match from its seed.

The candidate is the line-up's first entry (``spec.bots[0]``); its score in a
game and a block's outcome are as :mod:`.sprt` defines them.
"""

from __future__ import annotations

import math
import random
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from statistics import NormalDist

from .runner import RunState, TournamentRun
from .sprt import Decision, Estimate, Sprt, SprtError, estimate, llr_expectation
from .tournament import GameRecord, TournamentSpec

__all__ = ["game_score", "block_outcomes", "block_support", "Tracker", "SprtStatus", "SequentialMatch",
           "run_sequential", "Simulation", "simulate", "fixed_games"]


def game_score(record: GameRecord, entry: int = 0) -> Fraction:
    """The line-up entry's score in one game: 1 alone, 1/k shared by k, the fair share if nobody won, else 0."""
    seat = record.lineup.index(entry)
    if not record.winners:
        return Fraction(1, len(record.lineup))
    return Fraction(1, len(record.winners)) if seat in record.winners else Fraction(0)


def block_outcomes(spec: TournamentSpec, records: Sequence[GameRecord], entry: int = 0) -> list[Fraction]:
    """The mean score of each complete block from block 0 on, stopping at the first block not yet complete."""
    by_index = {r.index: r for r in records}
    size = spec.block_size
    outcomes = []
    for block in range(spec.games // size):
        games = [by_index.get(block * size + i) for i in range(size)]
        if any(g is None for g in games):
            break
        outcomes.append(sum((game_score(g, entry) for g in games), Fraction(0)) / size)
    return outcomes


def block_support(players: int) -> tuple[Fraction, ...]:
    """The block outcomes counted from the start: a pair's five (0 to 1 in quarters), else the two extremes."""
    if players == 2:
        return tuple(Fraction(i, 4) for i in range(5))
    return (Fraction(0), Fraction(1))


@dataclass(frozen=True)
class SprtStatus:
    """Where a sequential test stands: its LLR line, its decision, and the estimate so far."""

    test: Sprt
    blocks: int
    block_size: int
    path: tuple[float, ...]  # the LLR after each block
    decision: Decision
    estimate: Estimate
    cap: int  # the most blocks the match may play

    @property
    def llr(self) -> float:
        """The latest LLR (0 before any block)."""
        return self.path[-1] if self.path else 0.0

    @property
    def games(self) -> int:
        """Games counted so far."""
        return self.blocks * self.block_size

    @property
    def capped(self) -> bool:
        """True when the cap was reached with no decision."""
        return self.decision is Decision.CONTINUE and self.blocks >= self.cap

    def sentence(self, candidate: str = "the candidate", other: str = "the other") -> str:
        """The state of the test in words."""
        lower, upper = self.test.bounds
        unit = "pairs" if self.block_size == 2 else f"blocks of {self.block_size}"
        counted = f"{self.games} games ({self.blocks} {unit})"
        if self.decision is Decision.H1:
            verdict = f"H1 accepted: {candidate} is better than {other}"
        elif self.decision is Decision.H0:
            verdict = f"H0 accepted: {candidate} is not shown better than {other}"
        elif self.capped:
            verdict = "no decision: the cap was reached with the LLR between its bounds"
        else:
            verdict = "keep playing"
        share = "" if self.blocks == 0 else f"; score per game {self.estimate.text()}"
        return f"After {counted}: LLR {self.llr:+.2f} (bounds {lower:+.2f}, {upper:+.2f}), {verdict}{share}."


@lru_cache(maxsize=65_536)
def _llr_of(histogram: tuple[tuple[float, int], ...], s0: float, s1: float, support: tuple[float, ...]) -> float:
    """llr_expectation, remembered (simulated matches pass through the same early counts again and again)."""
    return llr_expectation(dict(histogram), s0, s1, support=support)


class Tracker:
    """Block outcomes fed in order; the LLR after each, until the test decides (pure, no threads)."""

    def __init__(self, test: Sprt, players: int, block_size: int, cap: int):
        if type(cap) is not int or cap < 1:
            raise SprtError(f"cap must be a whole number of blocks, at least 1, not {cap!r}")
        self.test = test
        self.block_size = block_size
        self.cap = cap
        self.support = tuple(float(v) for v in block_support(players))
        self.histogram: dict[float, int] = {}  # float keys: a Fraction's hash is recomputed at every look-up
        self.path: list[float] = []
        self.decision = Decision.CONTINUE

    @property
    def blocks(self) -> int:
        """Blocks counted."""
        return len(self.path)

    @property
    def is_over(self) -> bool:
        """True once the test decided or the cap was reached."""
        return self.decision is not Decision.CONTINUE or self.blocks >= self.cap

    def add(self, outcome: Fraction | float) -> None:
        """Count one more block (ignored once the test is over)."""
        if self.is_over:
            return
        value = float(outcome)
        self.histogram[value] = self.histogram.get(value, 0) + 1
        llr = _llr_of(tuple(sorted(self.histogram.items())), self.test.s0, self.test.s1, self.support)
        self.path.append(llr)
        self.decision = self.test.decide(llr)

    def status(self) -> SprtStatus:
        """A snapshot of the test."""
        return SprtStatus(self.test, self.blocks, self.block_size, tuple(self.path), self.decision,
                          estimate(self.histogram, self.block_size), self.cap)


class SequentialMatch:
    """A rotated tournament played in the background until its SPRT decides or its cap is reached."""

    def __init__(self, spec: TournamentSpec, test: Sprt | None = None, workers: int | None = None,
                 progress: Callable[[SprtStatus], None] | None = None, chunk_blocks: int | None = None):
        if not spec.rotate:
            raise SprtError("field 'rotate': a sequential match plays seat-rotated blocks (rotate=True)")
        if spec.games % spec.block_size:
            raise SprtError(f"field 'games': the cap must be whole blocks of {spec.block_size} games, "
                            f"not {spec.games}")
        if len(set(spec.bots)) > 1 and spec.bots.count(spec.bots[0]) > 1:
            raise SprtError("field 'bots': the candidate (the first bot) must hold one seat")
        self.spec = spec
        self.test = test or Sprt.fair_share(spec.players)
        self.progress = progress
        self._tracker = Tracker(self.test, spec.players, spec.block_size, spec.games // spec.block_size)
        self._lock = threading.Lock()
        chunk = None if chunk_blocks is None else chunk_blocks * spec.block_size  # whole blocks per report
        self.run = TournamentRun(spec, workers=workers, progress=self._count, chunk=chunk)

    def start(self) -> SequentialMatch:
        """Start playing in the background."""
        self.run.start()
        return self

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the match to end; True if it did."""
        return self.run.wait(timeout)

    def cancel(self) -> None:
        """Stop the match now (the blocks counted so far stay)."""
        self.run.cancel()

    @property
    def is_running(self) -> bool:
        """True while games are being played."""
        return self.run.is_running

    @property
    def failed(self) -> str | None:
        """Why the run failed, or None."""
        return self.run.error if self.run.state is RunState.FAILED else None

    def status(self) -> SprtStatus:
        """The test as it stands."""
        with self._lock:
            return self._tracker.status()

    def histogram(self) -> dict[float, int]:
        """How many counted blocks had each outcome (a copy)."""
        with self._lock:
            return dict(self._tracker.histogram)

    def _count(self, _done: int, _total: int) -> None:
        """After each chunk: feed the newly complete blocks to the tracker; stop the run once it decides."""
        with self._lock:
            outcomes = block_outcomes(self.spec, self.run.records())
            for outcome in outcomes[self._tracker.blocks:]:
                self._tracker.add(outcome)
            over = self._tracker.is_over
            status = self._tracker.status()
        if over:
            self.run.stop()
        if self.progress is not None:
            self.progress(status)


def run_sequential(spec: TournamentSpec, test: Sprt | None = None, workers: int | None = None) -> SprtStatus:
    """Play a sequential match to its end now and return the test (a blocking convenience)."""
    match = SequentialMatch(spec, test, workers=workers).start()
    match.wait()
    if match.failed:
        raise RuntimeError(f"the match failed: {match.failed}")
    return match.status()


# --------------------------------------------------------------------------
# Simulated matches, for the lesson


@dataclass(frozen=True)
class Simulation:
    """Many simulated two-player matches with a known true score: what the SPRT and fixed tests concluded."""

    test: Sprt
    share: float  # the true chance that the candidate wins a game (no draws)
    experiments: int
    h1: int  # SPRTs that accepted H1 ("better")
    h0: int  # SPRTs that accepted H0
    games: tuple[int, ...]  # games each SPRT took (the cap where it did not decide)
    fixed_size: int  # the games of the fixed-size test compared
    fixed_h1: int  # fixed-size tests that said "better" after fixed_size games
    peeking_h1: int  # tests that looked after every pair and stopped at the first "better"

    @property
    def mean_games(self) -> float:
        """The SPRT's average length in games."""
        return sum(self.games) / len(self.games)


def _says_better(wins: int, games: int, s0: float, alpha: float) -> bool:
    """The one-sided z-test at level alpha: is a win share of wins/games above s0?"""
    z = NormalDist().inv_cdf(1 - alpha)
    return wins >= games * s0 + z * math.sqrt(games * s0 * (1 - s0))


def fixed_games(test: Sprt) -> int:
    """Games a one-look test needs for the same alpha and beta (normal approximation, rounded up to pairs)."""
    z = NormalDist().inv_cdf(1 - test.alpha) + NormalDist().inv_cdf(1 - test.beta)
    sd = max(math.sqrt(test.s0 * (1 - test.s0)), math.sqrt(test.s1 * (1 - test.s1)))
    games = math.ceil((z * sd / (test.s1 - test.s0)) ** 2)
    return games + games % 2


def simulate(test: Sprt, share: float, experiments: int = 200, cap_pairs: int = 2000, seed: int = 0,
             first_look: int = 10) -> Simulation:
    """Simulate matches of independent games won with chance ``share`` (seeded): the SPRT, a fixed test, peeking.

    Each experiment plays pairs of games until the SPRT decides (or ``cap_pairs``).
    The same games are also judged by a fixed-size test that looks once, after
    :func:`fixed_games` games, and by a "peeker" who runs that test after every
    pair from ``first_look`` games up to the same planned size and stops at the first "better".
    """
    if not 0 < share < 1:
        raise SprtError(f"share must lie strictly between 0 and 1, not {share!r}")
    for name, value in (("experiments", experiments), ("cap_pairs", cap_pairs)):
        if type(value) is not int or value < 1:
            raise SprtError(f"{name} must be a whole number of at least 1, not {value!r}")
    rng = random.Random(seed)
    fixed = fixed_games(test)
    h1 = h0 = fixed_h1 = peeking_h1 = 0
    lengths = []
    for _ in range(experiments):
        tracker = Tracker(test, 2, 2, cap_pairs)
        wins = games = 0
        peeked = fixed_seen = False
        while not (tracker.is_over and games >= fixed):  # the tracker stops counting at its decision or cap
            pair = (rng.random() < share) + (rng.random() < share)
            wins += pair
            games += 2
            tracker.add(pair / 2)
            if not peeked and first_look <= games <= fixed and _says_better(wins, games, test.s0, test.alpha):
                peeked = True
            if games == fixed:
                fixed_seen = _says_better(wins, games, test.s0, test.alpha)
        status = tracker.status()
        h1 += status.decision is Decision.H1
        h0 += status.decision is Decision.H0
        lengths.append(status.games)
        fixed_h1 += fixed_seen
        peeking_h1 += peeked
    return Simulation(test, share, experiments, h1, h0, tuple(lengths), fixed, fixed_h1, peeking_h1)

