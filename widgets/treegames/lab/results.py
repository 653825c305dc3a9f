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
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from dataclasses import dataclass, field

from . import stats
from .tournament import GameRecord, Outcome, TournamentSpec, seat_names

__all__ = ["Tally", "Paired", "Results", "records_csv", "summary_csv"]


@dataclass
class Tally:
    """Wins, ties and losses of one bot, seat or role."""

    label: str
    wins: int = 0
    ties: int = 0
    losses: int = 0
    scores: list[int] = field(default_factory=list)

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


class Results:
    """What a list of game records says (see the module docstring)."""

    def __init__(self, spec: TournamentSpec, records: list[GameRecord]):
        self.spec = spec
        self.records = sorted(records, key=lambda r: r.index)
        self.seat_labels = seat_names(spec.game, spec.players)
        self.by_bot: dict[str, Tally] = {name: Tally(name) for name in dict.fromkeys(spec.bots)}
        self.by_seat = [Tally(label) for label in self.seat_labels]
        self.first_mover = Tally("first mover")
        self.later_movers = Tally("later movers")
        for record in self.records:
            for seat, bot in enumerate(record.seats):
                outcome = record.outcome(seat)
                score = record.scores[seat]
                self.by_bot[bot].add(outcome, score)
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
        by_index = {r.index: r for r in self.records}
        a_better = b_better = even = pairs = 0
        for block in range(spec.games // 2):
            one, two = by_index.get(2 * block), by_index.get(2 * block + 1)
            if one is None or two is None:
                continue
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
            cells += [f"{s.value:.4f}", f"{s.low:.4f}", f"{s.high:.4f}"]
        writer.writerow([group, t.label, t.games, t.wins, t.ties, t.losses, *cells, f"{t.mean_score()[0]:.2f}"])
    return out.getvalue()
