"""Counting a tournament: win/tie/loss per bot, per seat and for the first mover, each with a Wilson interval.

:class:`Results` is computed from any list of :class:`~.tournament.GameRecord`
(a finished tournament or the partial records of one still running or
cancelled).  Everything here is plain data; the views only show it.

How ties count
--------------
A game *ties* for a seat when the win is shared or nobody wins (a Mighty Trees
game stopped at ``max_turns``).  Shares are always of all games (win, tie and
loss add up to 1); :meth:`Tally.decisive` gives the share of wins among the
games that were not ties, which is what the test of "no advantage" uses.

One outcome per bot per game
----------------------------
A bot that holds several seats of a game still has one outcome in it: a *win*
when every winner is one of its seats, a *tie* when it shares the win with
another bot (or nobody wins), a *loss* when none of its seats won; its score
is its best seat's.  A bot that holds *every* seat wins every decided game by
construction, so its row carries no interval (``Tally.every_seat``).

Which design can test the first mover
-------------------------------------
With *Rotate seats* both games of a pair share the chance seed, so the same
seat moves first in both while the bots swap: counting the first mover's wins
then mixes moving first with which bot was stronger (GreedyBot against
RandomBot gives the first mover exactly half by construction).
:meth:`Results.first_mover_test` therefore tests only where the design
separates the two (:class:`Design`):

* ``SAME_BOT`` -- the same bot in every seat and fixed seats: every game is an
  independent draw, and the exact binomial test of the first mover's wins
  among single-winner games against a fair share 1/players applies;
* ``PAIRS`` -- two players with rotated seats (same bots or not): each pair is
  its own stratum (the Mantel-Haenszel idea for matched pairs, i.e. McNemar's
  test): a pair in which the first mover did better in *both* games counts for
  moving first, one in which the second mover did better in both counts
  against, and pairs split one each (decided by the bots) say nothing about it;
  an exact sign test of the two counts;
* ``BY_BOT`` -- two different bots with fixed seats: stratified by who moved
  first: Fisher's exact test of whether the line-up's first bot won a larger
  share of decisive games when it moved first than when it moved second;
* ``NONE`` -- any other design (more than two players with rotated seats or
  with different bots): no first-mover p-value.

With the same bot in every fixed seat, :meth:`Results.seat_tests` tests every
seat and the first mover against a fair share, with Holm-adjusted p-values for
the family.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

from . import stats
from .tournament import GameRecord, Outcome, TournamentSpec, seat_names

__all__ = ["Tally", "Paired", "Design", "FirstMoverTest", "SeatTest", "Results", "bot_outcome", "records_csv",
           "summary_csv"]


@dataclass
class Tally:
    """Wins, ties and losses of one bot, seat or role."""

    label: str
    wins: int = 0
    ties: int = 0
    losses: int = 0
    scores: list[int] = field(default_factory=list)
    seats: int = 1  # seats this row holds in each game (a bot may hold several)
    every_seat: bool = False  # a bot in every seat: its share is fixed by the ties, no interval means anything

    @property
    def games(self) -> int:
        """Games counted."""
        return self.wins + self.ties + self.losses

    def add(self, outcome: Outcome, score: int) -> None:
        """Count one game."""
        if outcome is Outcome.WIN:
            self.wins += 1
        elif outcome is Outcome.TIE:
            self.ties += 1
        else:
            self.losses += 1
        self.scores.append(score)

    @property
    def win(self) -> stats.Share:
        """Share of games won, with its 95% Wilson interval."""
        return stats.share(self.wins, self.games)

    @property
    def tie(self) -> stats.Share:
        """Share of games tied."""
        return stats.share(self.ties, self.games)

    @property
    def loss(self) -> stats.Share:
        """Share of games lost."""
        return stats.share(self.losses, self.games)

    @property
    def decisive(self) -> stats.Share:
        """Share of wins among the games that were not ties."""
        return stats.share(self.wins, self.wins + self.losses)

    def mean_score(self) -> tuple[float, float]:
        """(mean, standard deviation) of the scores."""
        return stats.mean_and_sd(self.scores)

    def p_value(self) -> float:
        """Exact binomial p-value of wins against losses if both were equally likely (ties left out)."""
        return stats.binomial_test(self.wins, self.wins + self.losses)


@dataclass(frozen=True)
class Paired:
    """Two bots compared within pairs of games where they swapped seats with the same seeds."""

    first: str  # the line-up's first bot
    second: str
    pairs: int  # complete pairs
    first_better: int  # pairs in which the first bot did better (wins count 1, ties 1/2)
    second_better: int
    even: int

    @property
    def first_share(self) -> stats.Share:
        """Share of the uneven pairs that went the first bot's way."""
        return stats.share(self.first_better, self.first_better + self.second_better)

    def p_value(self) -> float:
        """Exact sign test of the uneven pairs (even pairs left out)."""
        return stats.sign_test(self.first_better, self.second_better)


_POINTS = {Outcome.WIN: 1.0, Outcome.TIE: 0.5, Outcome.LOSS: 0.0}


class Design(StrEnum):
    """How a tournament's first-mover question can be tested (see the module docstring)."""

    SAME_BOT = "same bot in every seat"
    PAIRS = "pairs with the seats swapped"
    BY_BOT = "by which bot moved first"
    NONE = "no test"


@dataclass(frozen=True)
class FirstMoverTest:
    """The first-mover finding of one tournament, from a design that separates moving first from bot strength.

    ``SAME_BOT``: ``wins`` of ``trials`` single-winner games against ``fair``.
    ``PAIRS``: ``wins`` pairs the first mover did better in both games, ``losses`` the
    second mover did, ``even`` split pairs, ``trials`` = wins + losses.
    ``BY_BOT``: ``table`` = ((A's wins, A's losses) when A moved first, (the same) when A moved second)
    for the line-up's first bot A, decisive games only.
    """

    design: Design
    wins: int = 0
    losses: int = 0
    even: int = 0
    trials: int = 0
    fair: Fraction = Fraction(1, 2)
    table: tuple[tuple[int, int], tuple[int, int]] = ((0, 0), (0, 0))
    bot: str = ""
    p_value: float | None = None  # None: no test (design NONE, or nothing to count)


@dataclass(frozen=True)
class SeatTest:
    """One of a family of tests against a fair share, with its Holm-adjusted p-value."""

    label: str
    wins: int
    trials: int
    fair: Fraction
    p_value: float
    holm: float

    @property
    def share(self) -> stats.Share:
        """Wins among the single-winner games, with the Wilson interval."""
        return stats.share(self.wins, self.trials)


def bot_outcome(record: GameRecord, bot: str) -> Outcome:
    """One outcome for a bot in a game, however many seats it holds (see the module docstring)."""
    mine = {seat for seat, name in enumerate(record.seats) if name == bot}
    won = set(record.winners)
    if not won:
        return Outcome.TIE
    if not won & mine:
        return Outcome.LOSS
    return Outcome.WIN if won <= mine else Outcome.TIE


class Results:
    """What a list of game records says (see the module docstring)."""

    def __init__(self, spec: TournamentSpec, records: list[GameRecord]):
        self.spec = spec
        self.records = sorted(records, key=lambda r: r.index)
        self.seat_labels = seat_names(spec.game, spec.players)
        held = Counter(spec.bots)
        self.by_bot: dict[str, Tally] = {name: Tally(name, seats=held[name], every_seat=held[name] == spec.players)
                                         for name in dict.fromkeys(spec.bots)}
        self.by_seat = [Tally(label) for label in self.seat_labels]
        self.first_mover = Tally("first mover")
        self.later_movers = Tally("later movers")
        for record in self.records:
            for bot, tally in self.by_bot.items():
                tally.add(bot_outcome(record, bot),
                          max(s for s, name in zip(record.scores, record.seats, strict=True) if name == bot))
            for seat in range(len(record.seats)):
                outcome = record.outcome(seat)
                score = record.scores[seat]
                self.by_seat[seat].add(outcome, score)
                if record.first == seat:
                    self.first_mover.add(outcome, score)
                else:
                    self.later_movers.add(outcome, score)

    @property
    def games(self) -> int:
        """Games counted so far."""
        return len(self.records)

    def lengths(self) -> list[int]:
        """Player decisions per game."""
        return [r.moves for r in self.records]

    def first_mover_decisive(self) -> tuple[int, int]:
        """(first-mover wins, games with a single winner): the counts for a test of a fair share."""
        single = [r for r in self.records if len(r.winners) == 1]
        return sum(r.winners[0] == r.first for r in single), len(single)

    def design(self) -> Design:
        """Which first-mover test this tournament's design allows (see the module docstring)."""
        spec = self.spec
        same = len(set(spec.bots)) == 1
        if spec.players == 2 and spec.rotate:
            return Design.PAIRS
        if not spec.rotate:
            return Design.SAME_BOT if same else Design.BY_BOT if spec.players == 2 else Design.NONE
        return Design.NONE

    def first_mover_test(self) -> FirstMoverTest:
        """The first-mover finding from a design that separates moving first from bot strength."""
        design = self.design()
        if design is Design.SAME_BOT:
            wins, single = self.first_mover_decisive()
            fair = Fraction(1, self.spec.players)
            return FirstMoverTest(design, wins, single - wins, trials=single, fair=fair,
                                  p_value=stats.binomial_test(wins, single, fair) if single else None)
        if design is Design.PAIRS:
            better = worse = even = 0
            for one, two in self._pairs():
                if one.first < 0:
                    continue
                first_points = _POINTS[one.outcome(one.first)] + _POINTS[two.outcome(two.first)]
                if first_points > 1:
                    better += 1
                elif first_points < 1:
                    worse += 1
                else:
                    even += 1
            return FirstMoverTest(design, better, worse, even, better + worse,
                                  p_value=stats.sign_test(better, worse) if better + worse else None)
        if design is Design.BY_BOT:
            bot = self.spec.bots[0]
            cells = [[0, 0], [0, 0]]  # [A moved first, A moved second] x [A won, A lost]
            for r in self.records:
                if r.first < 0 or len(r.winners) != 1:
                    continue
                seat = r.lineup.index(0)
                cells[0 if r.first == seat else 1][0 if r.winners[0] == seat else 1] += 1
            (a, b), (c, d) = cells
            table = ((a, b), (c, d))
            counted = a + b > 0 and c + d > 0
            return FirstMoverTest(design, a + d, b + c, trials=a + b + c + d, table=table, bot=bot,
                                  p_value=stats.fisher_exact(a, b, c, d) if counted else None)
        return FirstMoverTest(design)

    def _pairs(self) -> list[tuple[GameRecord, GameRecord]]:
        """The complete pairs of games (two players, rotated seats) in order."""
        by_index = {r.index: r for r in self.records}
        out = []
        for block in range(self.spec.games // 2):
            one, two = by_index.get(2 * block), by_index.get(2 * block + 1)
            if one is not None and two is not None:
                out.append((one, two))
        return out

    def seat_tests(self) -> list[SeatTest]:
        """Every seat and the first mover tested against a fair share, Holm-adjusted; [] unless the same bot
        sits in every fixed seat (the only design in which seat shares are independent and unconfounded)."""
        if self.design() is not Design.SAME_BOT:
            return []
        fair = Fraction(1, self.spec.players)
        single = [r for r in self.records if len(r.winners) == 1]
        rows = [(label, sum(r.winners[0] == seat for r in single)) for seat, label in enumerate(self.seat_labels)]
        rows.append(("first mover", sum(r.winners[0] == r.first for r in single)))
        ps = [stats.binomial_test(w, len(single), fair) for _label, w in rows]
        return [SeatTest(label, w, len(single), fair, p, h)
                for (label, w), p, h in zip(rows, ps, stats.holm(ps), strict=True)]

    def tied_games(self) -> int:
        """Games in which nobody won alone."""
        return sum(len(r.winners) != 1 for r in self.records)

    def margins(self, perspective: str = "first") -> list[int]:
        """Score margins per game: of the first mover (``"first"``), of a seat (``"seat 0"``) or of a bot by name.

        A bot that sits in several seats of a game counts from its first seat.
        """
        return [r.margin(seat) for r, seat in self._seats_of(perspective)]

    def scores(self, perspective: str = "first") -> list[int]:
        """Scores per game from the same points of view as :meth:`margins`."""
        return [r.scores[seat] for r, seat in self._seats_of(perspective)]

    def _seats_of(self, perspective: str) -> list[tuple[GameRecord, int]]:
        """(record, seat) for each game, the seat being the one the point of view names."""
        out = []
        for r in self.records:
            if perspective == "first":
                seat = r.first
            elif perspective.startswith("seat "):
                seat = int(perspective.split()[1])
            elif perspective in r.seats:
                seat = r.seats.index(perspective)
            else:
                continue
            if 0 <= seat < len(r.scores):
                out.append((r, seat))
        return out

    def paired(self) -> Paired | None:
        """The paired comparison, when two different bots swapped seats in two-player pairs; else None."""
        spec = self.spec
        if not (spec.rotate and spec.players == 2 and spec.bots[0] != spec.bots[1]):
            return None
        a_better = b_better = even = pairs = 0
        for one, two in self._pairs():
            pairs += 1
            a_points = sum(_POINTS[r.outcome(r.lineup.index(0))] for r in (one, two))
            b_points = sum(_POINTS[r.outcome(r.lineup.index(1))] for r in (one, two))
            if a_points > b_points:
                a_better += 1
            elif b_points > a_points:
                b_better += 1
            else:
                even += 1
        return Paired(spec.bots[0], spec.bots[1], pairs, a_better, b_better, even)

    def rows(self) -> list[tuple[str, Tally]]:
        """(group, tally) rows for tables and charts: each bot, each seat, the first mover."""
        rows = [("bot", t) for t in self.by_bot.values()]
        rows += [("seat", t) for t in self.by_seat]
        rows.append(("first mover", self.first_mover))
        return rows

    def outcome_counts(self) -> Counter:
        """How many games each number of winners had (0 = draw)."""
        return Counter(len(r.winners) for r in self.records)


def records_csv(spec: TournamentSpec, records: list[GameRecord]) -> str:
    """One CSV row per game: seats, first mover, scores, winners, outcome per seat, length."""
    labels = seat_names(spec.game, spec.players)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(
        ["game", "seed", *(f"bot {s}" for s in labels), "first mover", *(f"score {s}" for s in labels),
         "winners", *(f"outcome {s}" for s in labels), "moves", "actions"]
    )
    for r in sorted(records, key=lambda r: r.index):
        writer.writerow(
            [r.index + 1, spec.seeds(r.index), *r.seats, labels[r.first] if r.first >= 0 else "",
             *r.scores, " ".join(labels[w] for w in r.winners) or "none",
             *(r.outcome(s).value for s in range(spec.players)), r.moves, r.actions]
        )
    return out.getvalue()


def summary_csv(results: Results) -> str:
    """The results table as CSV: wins, ties, losses and each share with its 95% Wilson interval."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["group", "name", "games", "wins", "ties", "losses", "win share", "win low", "win high",
                     "tie share", "tie low", "tie high", "loss share", "loss low", "loss high", "mean score"])
    for group, t in results.rows():
        cells = []
        for s in (t.win, t.tie, t.loss):
            interval = ["", ""] if t.every_seat else [f"{s.low:.4f}", f"{s.high:.4f}"]
            cells += [f"{s.value:.4f}", *interval]
        writer.writerow([group, t.label, t.games, t.wins, t.ties, t.losses, *cells, f"{t.mean_score()[0]:.2f}"])
    return out.getvalue()
