"""Peer check of the coach against OpenSpiel's MCTS on the same positions, at equal wall-clock time.

Run as ``python benchmarks/bench_coach_openspiel.py`` (needs the ``openspiel``
extra; without open_spiel it says so and exits) or with ``--quick``.

For Aspens and two-player Bosk (perfect information: OpenSpiel's MCTS would see
Mighty Trees' hidden cards, so that game is left out) it

* measures each searcher's simulations per second on positions from GreedyBot games;
* gives both the same thinking time per position and counts how often they choose
  the same move;
* gives both the same number of playouts (simulations) per position and counts the same, beside how often
  our own search agrees with itself under another seed (what noise alone allows);
* plays a short seat-swapped match at that thinking time per move (Bosk only:
  Aspens games are long) and gives our coach's share of decided games with its
  95% Wilson interval.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from treegames import core
from treegames.lab import wilson_interval
from treegames.search import Budget, CoachBot, Search

try:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts

    from treegames import openspiel as adapter
except ImportError as err:  # the optional extra is not installed
    pyspiel = None
    MISSING = str(err)

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))
from bench_coach import positions  # noqa: E402


def spiel_state(game, ours):
    """The pyspiel state holding one of our states."""
    state = game.new_initial_state()
    state.ours = ours
    return state


def spiel_bot(game, simulations: int, seed: int):
    """OpenSpiel's MCTS with single random rollouts."""
    return mcts.MCTSBot(game, 1.4, max(2, simulations), mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed)),
                        random_state=np.random.RandomState(seed), solve=False)


def rates(name: str, players: int, states: list, seconds: float) -> tuple[float, float]:
    """(our playouts/s, OpenSpiel's simulations/s) on the same positions."""
    ours = done = 0
    start = time.perf_counter()
    for i, state in enumerate(states):
        done += Search(state, random.Random(i)).think(Budget(seconds=seconds / len(states)))
    ours = done / (time.perf_counter() - start)
    game = pyspiel.load_game(f"{adapter.short_name(name)}(players={players})" if name == "bosk"
                             else adapter.short_name(name))
    sims = 50
    start = time.perf_counter()
    for i, state in enumerate(states):
        spiel_bot(game, sims, i).step(spiel_state(game, state))
    theirs = sims * len(states) / (time.perf_counter() - start)
    return ours, theirs


def agreement(name: str, players: int, states: list, seconds: float, ours_rate: float, their_rate: float) -> None:
    """How often both searchers choose the same move with the same thinking time."""
    game = pyspiel.load_game(f"{adapter.short_name(name)}(players={players})" if name == "bosk"
                             else adapter.short_name(name))
    same = 0
    for i, state in enumerate(states):
        search = Search(state, random.Random(i))
        search.think(Budget(iterations=max(2, int(ours_rate * seconds))))
        spiel = spiel_state(game, state)
        theirs = spiel_bot(game, int(their_rate * seconds), i).step(spiel)
        same += str(search.best()) == spiel.action_to_string(spiel.current_player(), theirs)
    print(f"peer {name} {players}p: the same move in {same} of {len(states)} positions at {seconds:.2f} s each "
          f"({max(2, int(ours_rate * seconds))} of our playouts v {max(2, int(their_rate * seconds))} OpenSpiel simulations)",
          flush=True)


def agreement_at_playouts(name: str, players: int, states: list, playouts: int) -> None:
    """How often both searchers choose the same move with the same number of playouts (simulations), beside how
    often our own search agrees with itself under another seed (the agreement that noise alone allows)."""
    game = pyspiel.load_game(f"{adapter.short_name(name)}(players={players})" if name == "bosk"
                             else adapter.short_name(name))
    same = ours_again = 0
    for i, state in enumerate(states):
        first, second = Search(state, random.Random(i)), Search(state, random.Random(10_000 + i))
        first.think(Budget(iterations=playouts))
        second.think(Budget(iterations=playouts))
        spiel = spiel_state(game, state)
        theirs = spiel_bot(game, playouts, i).step(spiel)
        same += str(first.best()) == spiel.action_to_string(spiel.current_player(), theirs)
        ours_again += first.best() == second.best()
    print(f"peer {name} {players}p at equal playouts ({playouts} each): the same move as OpenSpiel's MCTS in {same} of "
          f"{len(states)} positions; our search with another seed agrees with itself in {ours_again} of {len(states)}",
          flush=True)


class SpielAsBot:
    """OpenSpiel's MCTS behind our bot protocol."""

    def __init__(self, game, simulations: int, seed: int):
        self.game, self.bot = game, spiel_bot(game, simulations, seed)

    def choose(self, state):
        """OpenSpiel's move, as our action."""
        spiel = spiel_state(self.game, state)
        return state.parse_action(spiel.action_to_string(spiel.current_player(), self.bot.step(spiel)))


def match(players: int, games: int, seconds: float, ours_rate: float, their_rate: float) -> None:
    """Our coach v OpenSpiel's MCTS in Bosk at equal time per move, seats swapped."""
    game = core.games()["bosk"].new_game(players=players)
    spiel_game = pyspiel.load_game(f"treegames_bosk(players={players})")
    wins = decided = 0
    for index in range(games):
        seat = index % 2
        bots = [None, None]
        bots[seat] = CoachBot(random.Random(index), iterations=max(2, int(ours_rate * seconds)))
        bots[1 - seat] = SpielAsBot(spiel_game, int(their_rate * seconds), index)
        winners = core.play(game, bots, random.Random(index // 2)).winners()
        if len(winners) == 1:
            decided += 1
            wins += winners[0] == seat
    low, high = wilson_interval(wins, decided) if decided else (0.0, 1.0)
    print(f"peer bosk {players}p match at {seconds:.2f} s per move: our coach won {wins} of {decided} decided games "
          f"(95% {100 * low:.0f}-{100 * high:.0f}%) of {games}", flush=True)


def main() -> None:
    """Print the peer check."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer positions and games")
    quick = parser.parse_args().quick
    if pyspiel is None:
        print(f"peer check skipped: the openspiel extra is not installed ({MISSING})")
        return
    seconds = 0.25 if quick else 1.0
    for name, players in (("bosk", 2), ("aspens", 2)):
        states = positions(name, players, 4 if quick else 12, seed=11)
        ours, theirs = rates(name, players, states, 2.0 if quick else 6.0)
        print(f"peer {name} {players}p: ours {ours:.0f} playouts/s, OpenSpiel MCTS {theirs:.0f} simulations/s",
              flush=True)
        agreement(name, players, states, seconds, ours, theirs)
        agreement_at_playouts(name, players, states, 100 if quick else 200)
        if name == "bosk":
            match(players, 4 if quick else 40, seconds, ours, theirs)


if __name__ == "__main__":
    main()
