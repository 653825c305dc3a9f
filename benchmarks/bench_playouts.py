"""Playout speed: the engines' hot paths (``apply``, ``legal_actions``, the state copy) and the coach's playouts.

Run as ``python benchmarks/bench_playouts.py`` (what ``make bench`` runs), or compare this
checkout with an earlier commit side by side in one run::

    git worktree add /tmp/before HEAD~1
    python benchmarks/bench_playouts.py --against /tmp/before/widgets

With ``--against`` each figure is measured in fresh interpreters, alternating
this tree and the other one (``--rounds`` times each, the best kept), so both see
the same machine load (rates are per CPU second of the measuring process); the last column is the speed-up (this tree's rate divided
by the other's).  Machines differ up to 3x between sessions: compare ratios, not
absolute figures across runs.

Figures per game (2 players; Bosk also 4):

* ``playouts/s`` -- whole random games from the start (RandomBot, exact chance);
* ``apply/s`` and ``legal/s`` -- ``apply`` and ``legal_actions`` over the states of those games;
* ``copy/s`` -- the engine's state copy (``_child``), the base of every ``apply``;
* ``search/s`` -- coach playouts per second (the game's rollout policy, from mid-game positions);
* ``coach/s`` -- the same in coach-hard's whole search (its budget, the greedy prior, one tree) of each of
  those positions once: deep trees, where walking down one can cost as much as a short playout.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

GAMES = [("aspens", 2), ("bosk", 2), ("bosk", 4), ("mighty_trees", 2)]
FIGURES = ("playouts/s", "apply/s", "legal/s", "copy/s", "search/s", "coach/s")


def _new_game(name: str, players: int):
    """A game with ``players`` seats."""
    from treegames import core

    game_type = core.games()[name]
    return game_type.new_game(**({"players": players} if len(game_type.players) > 1 else {}))


def _rate(work, seconds: float) -> float:
    """Units of ``work`` (it returns how many it did) per CPU second of this process, over about ``seconds``.

    CPU time, not wall time: on a shared machine another process's load then slows
    the figure much less (cache and core sharing still do)."""
    done, start = 0, time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        done += work()
    return done / elapsed


def measure(name: str, players: int, seconds: float) -> dict[str, float]:
    """This interpreter's figures for one game."""
    from treegames import core
    from treegames.search import Budget, Search, rollout_for
    from treegames.search.bots import Level, iterations_for
    from treegames.search.mcts import Prior

    game = _new_game(name, players)
    rng = random.Random(7)
    bot = core.RandomBot(rng)

    def one_playout() -> int:
        state = game.new_initial_state()
        while not state.is_terminal():
            state = state.apply(core.sample_chance(state, rng) if state.current_player == core.CHANCE
                                else bot.choose(state))
        return 1

    figures = {"playouts/s": _rate(one_playout, seconds)}
    pairs, states = [], []  # (state, action) along a few random games, for apply and legal_actions alone
    play = random.Random(3)
    while len(pairs) < 3000:
        state = game.new_initial_state()
        while not state.is_terminal() and len(pairs) < 3000:
            action = (core.sample_chance(state, play) if state.current_player == core.CHANCE
                      else play.choice(state.legal_actions()))
            pairs.append((state, action))
            states.append(state)
            state = state.apply(action)
    figures["apply/s"] = _rate(lambda: sum(1 for s, a in pairs if s.apply(a) is not None), seconds)
    figures["legal/s"] = _rate(lambda: sum(1 for s in states if s.legal_actions() is not None), seconds)
    figures["copy/s"] = _rate(lambda: sum(1 for s, a in pairs if s._child(a) is not None), seconds)
    decisions = [s for s in states if s.current_player >= 0 and len(s.legal_actions()) > 1][::97][:6]
    search_rng = random.Random(11)
    rollout = rollout_for(name)
    figures["search/s"] = _rate(
        lambda: Search(decisions[search_rng.randrange(len(decisions))], search_rng, rollout=rollout)
        .think(Budget(iterations=20)), seconds)
    hard = iterations_for(Level.HARD, name, players)
    start = time.process_time()  # fixed work: one search of each decision, whatever the speed
    for k, decision in enumerate(decisions):
        Search(decision, random.Random(k), rollout=rollout, prior=Prior.GREEDY).think(Budget(iterations=hard))
    figures["coach/s"] = hard * len(decisions) / (time.process_time() - start)
    return figures


def run_in(tree: str | None, name: str, players: int, seconds: float) -> dict[str, float]:
    """The figures measured in a fresh interpreter importing treegames from ``tree`` (None: this checkout)."""
    here = Path(__file__).resolve()
    env = dict(os.environ)
    widgets = str(Path(tree).resolve()) if tree else str(here.parents[1] / "widgets")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (widgets, env.get("PYTHONPATH", "")) if p)
    out = subprocess.run([sys.executable, str(here), "--child", name, str(players), str(seconds)],
                         env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    """Print the figures (and the speed-up over ``--against``)."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--against", help="another checkout's widgets/ folder, measured side by side")
    parser.add_argument("--seconds", type=float, default=1.0, help="seconds per figure")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds per tree (best kept)")
    parser.add_argument("--only", action="append", help="a game name; may be repeated")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        name, players, seconds = args.child
        print(json.dumps(measure(name, int(players), float(seconds))))
        return
    print(f"playouts load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    for name, players in GAMES:
        if args.only and name not in args.only:
            continue
        trees = [None, args.against] if args.against else [None]
        best: list[dict[str, float]] = [{} for _ in trees]
        for _ in range(args.rounds if args.against else 1):
            for i, tree in enumerate(trees):
                for key, value in run_in(tree, name, players, args.seconds).items():
                    best[i][key] = max(best[i].get(key, 0.0), value)
        for key in FIGURES:
            line = f"playouts {name} {players}p {key:<11} {best[0][key]:>10,.0f}"
            if args.against:
                line += f"   before {best[1][key]:>10,.0f}   x{best[0][key] / best[1][key]:.2f}"
            print(line, flush=True)
    print(f"playouts load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
