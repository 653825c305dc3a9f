"""Coach benchmark: a strength ladder per game, coach-medium's time per move, random v greedy playouts.

Run as ``python benchmarks/bench_coach.py`` (what ``make bench`` runs: the timings, then an SPRT
ladder of coach-medium against GreedyBot only, each match at most 6 minutes: about half an hour on
2 cores), ``--full`` (the issue's ladder: every level against GreedyBot and against the level below,
each SPRT match at most 40 minutes; hours in all), ``--quick``
(a few games, minutes), or choose ``--games N``, ``--levels`` and ``--only GAME``.

* **Against random play** -- per game, each level against RandomBot in seat-rotated
  batches, a sequential test that stops once the wins say p < 0.05 (one-sided, exact):
  the check that would have caught the coach losing to random play in Aspens.
* **Ladder** -- per game (2 players; Bosk also 4): each coach level against
  GreedyBot, and each level against the one below, as SPRT matches
  (:class:`treegames.lab.SequentialMatch`): seat-rotated blocks with one seed each,
  H0 at the fair share (50%, or 25% with four players) against H1 five points above,
  alpha = beta = 0.05, stopped as soon as the test decides, at the cap of games
  (``--cap``, at most the lab's 200 for a coach) or at ``--minutes`` of wall time
  (40 by default, the issue's limit for 2 workers).  Each line gives the decision,
  the LLR with its bounds, the games it took and the mean score per game with its
  95% interval.  ``--fixed`` plays the old fixed-size ladder (``--games`` each)
  with Wilson intervals instead.
* **Time per move** -- coach-medium's wall time per decision over positions from
  GreedyBot games (mean and slowest), against the aim of at most 2 s.
* **Root-parallel** -- the wall time of one search tree against two (the second in a
  lab worker process, :mod:`treegames.search.parallel`) at coach-medium's and
  coach-hard's budgets: where the second process pays, and where its start-up does not.
* **Rollouts** -- playouts per second with random and with greedy playouts from
  the same positions, and a short match at equal thinking time per move.
* **Stakes** -- how much a single move is worth, the ceiling on what any search can
  gain over GreedyBot one move at a time: at positions from GreedyBot games, the
  win chance of GreedyBot's own choice and of its next-best alternatives when both
  players continue as GreedyBot (common random numbers: playout k of every move uses
  the same seed).  The best alternative is picked on the first half of the playouts
  and measured on the second, so the gap is not inflated by picking the luckiest.
  The line gives the mean gap and the playouts per move a search would need to tell
  a gap that size apart (95%, paired).
* **Kept trees** (``--kept N``) -- at N in-turn decisions of Bosk 2p, is coach-hard's
  move from the tree kept from its decision before (topped up to its budget) as good
  as from a fresh search? How often each agrees with a fresh search under another
  seed and with one deep tree.

The machine's load average is printed: on a shared 2-core machine the timings are noisy.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from typing import Any

from treegames import core
from treegames.lab import (
    Decision,
    SequentialMatch,
    Sprt,
    TournamentRun,
    TournamentSpec,
    binomial_test,
    default_workers,
    wilson_interval,
)
from treegames.lab.tournament import MAX_COACH_GAMES
from treegames.search import (
    Budget,
    CoachBot,
    CoachMedium,
    Level,
    ParallelSearch,
    Rollout,
    Search,
    coach_choice,
    iterations_for,
    rollout_for,
)

LADDER = [("aspens", 2), ("bosk", 2), ("bosk", 4), ("mighty_trees", 2)]
"""The games and player counts of the ladder."""

LEVELS = ("coach-easy", "coach-medium", "coach-hard")


def new_game(name: str, players: int) -> core.Game:
    """A game with ``players`` seats."""
    game_type = core.games()[name]
    return game_type.new_game(**({"players": players} if len(game_type.players) > 1 else {}))


def matchups(players: int, levels: tuple[str, ...] = LEVELS, greedy_only: bool = False) -> list[tuple[str, ...]]:
    """The line-ups of the ladder: each level v greedy, then (unless ``greedy_only``) each level v the one below."""
    ups = [(level, *("greedy",) * (players - 1)) for level in levels]
    for low, high in zip(levels, levels[1:] if not greedy_only else (), strict=False):
        ups.append((high, *(low,) * (players - 1)))
    return ups


def ladder(name: str, players: int, games: int, workers: int, levels: tuple[str, ...] = LEVELS,
           greedy_only: bool = False, match: tuple[str, str] | None = None) -> None:
    """Play and print one game's ladder (or only the one ``match``: its first bot against the second in every other seat)."""
    ups = [(match[0], *(match[1],) * (players - 1))] if match else matchups(players, levels, greedy_only)
    for bots in ups:
        spec = TournamentSpec(name, bots, games, seed=2026)
        start = time.perf_counter()
        results = TournamentRun(spec, workers=workers).run()
        tally = results.by_bot[bots[0]]
        low, high = wilson_interval(tally.wins, tally.games)
        print(f"ladder {name} {players}p {bots[0]} v {bots[1]}: {tally.wins}-{tally.ties}-{tally.losses} "
              f"(W-T-L of {tally.games}), wins {100 * tally.wins / tally.games:.1f}% "
              f"(95% {100 * low:.1f}-{100 * high:.1f}%), fair share {100 / players:.0f}%, "
              f"{time.perf_counter() - start:.0f} s", flush=True)


def sprt_ladder(name: str, players: int, workers: int, levels: tuple[str, ...] = LEVELS,
                greedy_only: bool = False, match: tuple[str, str] | None = None, cap: int = MAX_COACH_GAMES,
                minutes: float = 40.0, not_worse: bool = False, seed: int = 2026) -> None:
    """Play and print one game's ladder as SPRT matches, each stopped by its test, its cap or its time limit.

    ``not_worse``: the test asks "is it worse?" instead (H0 five points below the fair share, H1 at it):
    accepting H1 rejects "worse" (issue 33's least aim for Aspens). ``seed``: the match's seed (one per match,
    so a match with the same seed replays the same games)."""
    ups = [(match[0], *(match[1],) * (players - 1))] if match else matchups(players, levels, greedy_only)
    for bots in ups:
        spec = TournamentSpec(name, bots, cap - cap % players, seed=seed)
        fair = 1 / players
        test = Sprt(fair - 0.05, fair) if not_worse else Sprt.fair_share(players)
        start = time.perf_counter()
        # one block a chunk: the test sees each block once played, and the time limit loses at most one a worker
        # (the lab's default chunks of 10 games took a worker 7 minutes in Bosk 4p, coach-hard v coach-medium:
        # 0 blocks counted in a 6-minute match, and up to 20 games dropped at any limit)
        shown = [0]
        run = SequentialMatch(spec, test, workers=workers, chunk_blocks=1,
                              progress=lambda status, t0=start, seen=shown: show_progress(status, t0, seen)).start()
        if not run.wait(minutes * 60):
            run.cancel()
        status = run.status()
        stopped = "" if status.decision is not Decision.CONTINUE or status.capped else f", stopped at {minutes:g} min"
        print(f"sprt {name} {players}p {bots[0]} v {bots[1]} (seed {seed}): {status.decision} ({test.describe()}); "
              f"LLR {status.llr:+.2f} after {status.games} games ({status.blocks} blocks); "
              f"score per game {status.estimate.text()}{stopped}; {time.perf_counter() - start:.0f} s",
              flush=True)
        if run.failed:
            print(f"sprt {name} {players}p {bots[0]} v {bots[1]}: FAILED: {run.failed}", flush=True)


def show_progress(status: Any, start: float, shown: list[int]) -> None:
    """A line when more blocks are counted, so a 40-minute match shows where it stands (``shown``: games shown)."""
    if status.games > shown[0]:
        shown[0] = status.games
        print(f"  ... LLR {status.llr:+.2f} after {status.games} games, {time.perf_counter() - start:.0f} s", flush=True)


def one_sided_p(wins: int, games: int) -> float:
    """The exact chance of at least ``wins`` wins in ``games`` if each game were a coin flip."""
    return binomial_test(wins, games) / 2 if 2 * wins > games else 1.0


def versus_random(name: str, players: int, level: str, workers: int, cap: int) -> None:
    """A sequential test of ``level`` against RandomBot: seat-rotated batches until p < 0.05 (or ``cap`` games).

    Losing to random play is a defect, not a lack of strength (issue 33); the sequential test says so in
    as few games as the evidence allows, which matters at full budget in Aspens (minutes a game).
    """
    bots = (level, *("random",) * (players - 1))
    wins = games = batch = 0
    start = time.perf_counter()
    while one_sided_p(wins, games) >= 0.05 and games < cap:
        size = max(players, workers)
        results = TournamentRun(TournamentSpec(name, bots, size, seed=3000 + batch), workers=workers).run()
        wins += results.by_bot[level].wins
        games += results.by_bot[level].games
        batch += 1
    verdict = "beats random play" if one_sided_p(wins, games) < 0.05 else "NOT shown to beat random play"
    print(f"v random {name} {players}p {level}: {wins} wins of {games} seat-rotated games, one-sided "
          f"p = {one_sided_p(wins, games):.4f}: {verdict} ({time.perf_counter() - start:.0f} s)", flush=True)


def positions(name: str, players: int, count: int, seed: int = 5) -> list:
    """Decision points with two or more moves, taken from GreedyBot games."""
    game_type = core.games()[name]
    rng = random.Random(seed)
    out: list = []
    while len(out) < count:
        state = new_game(name, players).new_initial_state()
        bot = game_type.bots["greedy"](rng)
        while not state.is_terminal() and len(out) < count:
            if state.current_player == core.CHANCE:
                state = state.apply(core.sample_chance(state, rng))
                continue
            if len(state.legal_actions()) > 1 and rng.random() < 0.1:
                out.append(state)
            state = state.apply(bot.choose(state))
    return out


def time_per_move(name: str, players: int, count: int) -> None:
    """Print coach-medium's wall seconds per decision (mean and slowest)."""
    bot = CoachMedium(random.Random(1))
    times = []
    states = positions(name, players, count)
    for state in states:
        start = time.perf_counter()
        bot.choose(state)
        times.append(time.perf_counter() - start)
    print(f"time coach-medium {name} {players}p: mean {statistics.mean(times):.2f} s, "
          f"slowest {max(times):.2f} s per move over {len(times)} positions ({bot.budget(states[0])} playouts; aim <= 2 s)",
          flush=True)


def playout_rates(name: str, players: int, seconds: float) -> dict[Rollout, float]:
    """Playouts per second of each rollout policy, searching the same positions."""
    states = positions(name, players, 4, seed=9)
    rates = {}
    for rollout in Rollout:
        done = 0
        start = time.perf_counter()
        for i, state in enumerate(states):
            done += Search(state, random.Random(i), rollout=rollout).think(Budget(seconds=seconds / len(states)))
        rates[rollout] = done / (time.perf_counter() - start)
    return rates


def equal_time_match(name: str, players: int, rates: dict[Rollout, float], per_move: float, games: int) -> None:
    """Random-playout coach v greedy-playout coach, each with the playouts it manages in ``per_move`` seconds."""
    budgets = {r: max(2, int(rates[r] * per_move)) for r in Rollout}
    wins = {r: 0 for r in Rollout}
    game = new_game(name, players)
    for index in range(games):
        order = [Rollout.RANDOM, Rollout.GREEDY] if index % 2 == 0 else [Rollout.GREEDY, Rollout.RANDOM]
        seats = [order[p % 2] for p in range(players)]
        bots = [CoachBot(random.Random(100 * index + p), iterations=budgets[r], rollout=r)
                for p, r in enumerate(seats)]
        final = core.play(game, bots, random.Random(index // 2))
        winners = final.winners()
        if len(winners) == 1:
            wins[seats[winners[0]]] += 1
    k, n = wins[Rollout.RANDOM], wins[Rollout.RANDOM] + wins[Rollout.GREEDY]
    low, high = wilson_interval(k, n) if n else (0.0, 1.0)
    print(f"rollouts {name} {players}p at {per_move:.2f} s per move ({budgets[Rollout.RANDOM]} random v "
          f"{budgets[Rollout.GREEDY]} greedy playouts): random-playout coach won {k} of {n} decided games "
          f"(95% {100 * low:.0f}-{100 * high:.0f}%) of {games}", flush=True)


def continuation_wins(state: Any, player: int, seed: int) -> int:
    """1 if ``player`` wins when every seat plays GreedyBot from ``state`` (dice and draws from ``seed``), else 0."""
    rng = random.Random(seed)
    greedy = core.game_module(state.game.name).GreedyBot(rng)
    while not state.is_terminal():
        state = state.apply(core.sample_chance(state, rng) if state.current_player == core.CHANCE
                            else greedy.choose(state))
    return 1 if state.winners() == (player,) else 0


def stakes(name: str, players: int, count: int, playouts: int, alternatives: int = 5) -> None:
    """Print what the best of GreedyBot's top alternatives gains over its own choice, per move (see the docstring)."""
    half = playouts // 2
    gaps, paired = [], []
    greedy_type = core.game_module(name).GreedyBot
    for index, state in enumerate(positions(name, players, count, seed=17)):
        player, legal = state.current_player, state.legal_actions()
        chosen = greedy_type(random.Random(index)).choose(state)
        others = [a for a in legal if a != chosen]
        random.Random(index).shuffle(others)
        value = getattr(greedy_type(random.Random(0)), "value", None)
        if value is not None:  # GreedyBot's own ranking where it has one
            others.sort(key=lambda a: -value(state, a))
        wins = {a: [continuation_wins(state.apply(a), player, 1000 + k) for k in range(playouts)]
                for a in [chosen, *others[:alternatives]]}
        rival = max(others[:alternatives], key=lambda a: sum(wins[a][:half]))
        diffs = [x - y for x, y in zip(wins[rival][half:], wins[chosen][half:], strict=True)]
        gaps.append(statistics.mean(diffs))
        paired.append(statistics.pstdev(diffs))
    gap = statistics.mean(gaps)
    spread = statistics.mean(paired)
    need = (1.96 * spread / abs(gap)) ** 2 if gap else float("inf")
    print(f"stakes {name} {players}p: the best of GreedyBot's top {alternatives} alternatives wins "
          f"{100 * gap:+.1f} points more than its own choice (mean over {count} positions, "
          f"{playouts - half} paired playouts each; per position {min(gaps) * 100:+.0f} to {max(gaps) * 100:+.0f}); "
          f"telling that gap apart takes about {need:.0f} playouts per move", flush=True)


def parallel_speed(name: str, players: int, iterations: int, count: int) -> None:
    """Print the wall time of one tree against two root-parallel trees (a worker process) at the same budget."""
    times: dict[str, list[float]] = {"one tree": [], "two trees": []}
    used = 0
    for i, state in enumerate(positions(name, players, count, seed=13)):
        start = time.perf_counter()
        Search(state, random.Random(i), rollout=rollout_for(name)).think(Budget(iterations=iterations))
        times["one tree"].append(time.perf_counter() - start)
        search = ParallelSearch(state, random.Random(i), rollout=rollout_for(name), trees=2)
        start = time.perf_counter()
        search.think(Budget(iterations=iterations))
        times["two trees"].append(time.perf_counter() - start)
        used += search.used_processes
    one, two = statistics.median(times["one tree"]), statistics.median(times["two trees"])
    print(f"parallel {name} {players}p {iterations} playouts: one tree {one:.2f} s, two trees {two:.2f} s "
          f"(median of {count}; x{one / two:.2f}; a worker process in {used} of {count})", flush=True)


def kept_positions(name: str, players: int, count: int) -> list[tuple[Any, Any]]:
    """``count`` pairs (a decision, the next one by the same mover after coach-medium's move) from seeded games."""
    pairs: list[tuple[Any, Any]] = []
    seed = 0
    while len(pairs) < count:
        rng, bot = random.Random(seed), CoachMedium(random.Random(seed), keep_tree=False)
        state = new_game(name, players).new_initial_state()
        while not state.is_terminal() and len(pairs) < count:
            if state.current_player == core.CHANCE:
                state = state.apply(core.sample_chance(state, rng))
                continue
            legal = state.legal_actions()
            after = state.apply(bot.choose(state) if len(legal) > 1 else legal[0])
            if (len(legal) > 1 and after.current_player == state.current_player and not after.is_terminal()
                    and len(after.legal_actions()) > 2 and rng.random() < 0.3):
                pairs.append((state, after))
            state = after
        seed += 1
    return pairs


def kept_trees(name: str, players: int, count: int) -> None:
    """Are coach-hard's moves from a kept tree as good as from a fresh one? Agreement with fresh and deep searches.

    At each in-turn decision: K, the move from the search of the decision before, moved on and topped up to
    the budget (what the coach does); A and C, fresh searches under two other seeds; R, one tree of five times
    the budget. If K is as good as A, K agrees with C and R about as often as A does.
    """
    budget = iterations_for(Level.HARD, name, players)
    rollout = rollout_for(name)

    def searched(state: Any, seed: int) -> ParallelSearch:
        """Coach-hard's search of ``state`` (two trees, here)."""
        search = ParallelSearch(state, random.Random(seed), rollout=rollout, trees=2, prior="greedy",
                                processes=False)
        search.think(Budget(iterations=budget))
        return search

    agree = {"K=C": 0, "A=C": 0, "K=R": 0, "A=R": 0, "C=R": 0}
    kept_total = 0
    start = time.perf_counter()
    pairs = kept_positions(name, players, count)
    for i, (before, state) in enumerate(pairs):
        kept = searched(before, 3000 + i)
        kept_total += kept.move_to(state.last_action, state)
        if budget > kept.iterations:
            kept.think(Budget(iterations=budget - kept.iterations))
        k = coach_choice(state, kept)
        a = coach_choice(state, searched(state, 1000 + i))
        c = coach_choice(state, searched(state, 2000 + i))
        deep = Search(state, random.Random(4000 + i), rollout=rollout, prior="greedy")
        deep.think(Budget(iterations=5 * budget))
        r = coach_choice(state, deep)
        for key, same in (("K=C", k == c), ("A=C", a == c), ("K=R", k == r), ("A=R", a == r), ("C=R", c == r)):
            agree[key] += same
    print(f"kept trees {name} {players}p, {len(pairs)} in-turn positions, coach-hard's {budget} playouts: "
          f"{kept_total / len(pairs):.0f} kept on average; agreements "
          + ", ".join(f"{key} {value}" for key, value in agree.items())
          + f" (K kept tree, A and C fresh, R one tree of {5 * budget}); {time.perf_counter() - start:.0f} s",
          flush=True)


def main() -> None:
    """Print the coach's figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a few games per match-up")
    parser.add_argument("--full", action="store_true", help="every level, 200 games per match-up (many hours)")
    parser.add_argument("--games", type=int, default=None, help="games per ladder match-up (default 200)")
    parser.add_argument("--only", action="append", help="a game name; may be repeated (default: every game)")
    parser.add_argument("--skip-ladder", action="store_true", help="timings and rollouts only")
    parser.add_argument("--skip-timing", action="store_true", help="the ladder only")
    parser.add_argument("--rollout-games", type=int, default=None, help="games of the equal-time rollout match")
    parser.add_argument("--levels", default=None, help="comma-separated coach levels for the ladder")
    parser.add_argument("--greedy-only", action="store_true", help="the ladder's match-ups against GreedyBot only")
    parser.add_argument("--match", default=None, help="one ladder match-up only, as FIRST,OTHERS (e.g. coach-hard,greedy)")
    parser.add_argument("--players", type=int, action="append", help="only these player counts (may be repeated)")
    parser.add_argument("--stakes", type=int, default=None, help="positions of the stakes measure (0: skip)")
    parser.add_argument("--workers", type=int, default=default_workers(), help="lab worker processes")
    parser.add_argument("--fixed", action="store_true", help="the fixed-size ladder (--games each) instead of SPRT")
    parser.add_argument("--cap", type=int, default=None, help=f"an SPRT match's most games (default {MAX_COACH_GAMES})")
    parser.add_argument("--minutes", type=float, default=None, help="an SPRT match's most minutes (default 40)")
    parser.add_argument("--seed", type=int, default=2026, help="an SPRT match's seed (default 2026)")
    parser.add_argument("--kept", type=int, default=0,
                        help="positions of the kept-tree check in Bosk 2p (coach-hard's moves from kept and fresh trees)")
    parser.add_argument("--not-worse", action="store_true",
                        help="SPRT of 'worse' (H0 five points below the fair share) against 'not worse' (H1 at it)")
    args = parser.parse_args()
    games = args.games or (6 if args.quick else 200 if args.full else 20)
    rollout_games = args.rollout_games if args.rollout_games is not None else (4 if args.quick else 40)
    levels = tuple(args.levels.split(",")) if args.levels else LEVELS if args.full else LEVELS[:2]
    sprt_levels = tuple(args.levels.split(",")) if args.levels else LEVELS if args.full else ("coach-medium",)
    greedy_only = args.greedy_only or not (args.full or args.levels)
    match = tuple(args.match.split(",")) if args.match else None
    if match is not None and len(match) != 2:
        parser.error("--match takes two bot names, FIRST,OTHERS")
    print(f"coach load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores (timings are noisy)")
    chosen = [(g, p) for g, p in LADDER if (not args.only or g in args.only) and (not args.players or p in args.players)]
    for name, players in chosen if not args.skip_timing else ():
        time_per_move(name, players, 6 if args.quick else 20)
    for name, players in chosen if not args.skip_timing else ():
        for budget in (200, 800):  # coach-medium's and coach-hard's playouts in Aspens and Mighty Trees
            parallel_speed(name, players, budget * (5 if name == "bosk" else 1), 3 if args.quick else 6)
    for name, players in chosen if not args.skip_timing else ():
        rates = playout_rates(name, players, 2.0 if args.quick else 8.0)
        print(f"rollouts {name} {players}p playouts/s: random {rates[Rollout.RANDOM]:.0f}, "
              f"greedy {rates[Rollout.GREEDY]:.0f}", flush=True)
        if rollout_games:
            equal_time_match(name, players, rates, 0.25, rollout_games)
    if args.kept:
        kept_trees("bosk", 2, args.kept)
    stake_positions = args.stakes if args.stakes is not None else (2 if args.quick else 8)
    for name, players in chosen if not args.skip_timing and stake_positions else ():
        stakes(name, players, stake_positions, 40 if args.quick else 200)
    if not args.skip_ladder and match is None:
        for name, players in chosen:
            for level in levels:
                versus_random(name, players, level, args.workers, cap=20 if args.quick else 40)
    if not args.skip_ladder:
        for name, players in chosen:
            if args.fixed:
                ladder(name, players, games, args.workers, levels, args.greedy_only, match)
            else:
                sprt_ladder(name, players, args.workers, sprt_levels, greedy_only, match,
                            cap=args.cap or (20 if args.quick else MAX_COACH_GAMES),
                            minutes=args.minutes or (2 if args.quick else 40 if args.full else 6),
                            not_worse=args.not_worse, seed=args.seed)
    print(f"coach load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
