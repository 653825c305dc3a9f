"""Monte Carlo tree search (UCT) for every treegames game, with exact chance and determinized hidden cards.

No UI imports.  A :class:`Search` is built for one decision: a state and the player
to move in it (:meth:`Search.move_to` carries its tree on to a later decision the
tree reached, as the coach does within a turn).  Each *iteration* (one playout)

1. takes a world (:class:`~.worlds.WorldSampler`: the state itself, or in Mighty
   Trees the unseen cards dealt at random);
2. walks down the tree: at a player's node it picks the child with the best UCT
   score among the actions legal in this world (availability counts, as in
   single-observer information-set MCTS); at a chance node it draws an outcome with
   the engine's exact odds (:func:`treegames.core.sample_chance`);
3. adds one new node, then plays the game out with the :class:`Rollout` policy
   (random or greedy moves);
4. credits every node on the path with the result for the player who chose it.

Budgets (:class:`Budget`) count iterations, seconds, or both (whichever ends
first).  With an iteration budget the search is deterministic for a seed: all its
random numbers come from the injected ``random.Random``.  ``think`` can be called
again to continue the same tree ("think longer"); it stops early when the
``cancel`` callable (or ``threading.Event``) says so and reports
:class:`Progress` to a callback.  :meth:`Search.statistics` gives, per root move,
the playouts, wins, win share and the lab's Wilson interval.
"""

from __future__ import annotations

import math
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .. import core
from ..lab.stats import wilson_interval
from .worlds import WorldSampler

__all__ = ["Rollout", "Prior", "Budget", "Progress", "MoveStats", "Search", "SearchError", "EXPLORATION",
           "MAX_ROLLOUT", "FAVOURITE_PRIOR", "PUCT_EXPLORATION", "ASK_AFTER", "UNTRIED_VALUE"]

EXPLORATION = math.sqrt(2)
"""The UCT exploration constant (rewards lie in [0, 1])."""

MAX_ROLLOUT = 100_000
"""Safety bound on the actions of one playout (every engine ends far sooner)."""

REPORT_EVERY = 16
"""Progress is reported (and cancel checked) every this many iterations."""

FAVOURITE_PRIOR = 0.5
"""With :attr:`Prior.GREEDY`, the share of the prior on the game's GreedyBot's move (the rest is spread evenly)."""

PUCT_EXPLORATION = 1.5
"""With a prior, the weight of prior times sqrt(parent's playouts) / (1 + the move's playouts) in PUCT."""

ASK_AFTER = 16
"""With a prior, the heuristic is asked at the root at once and at a deeper node once it has this many playouts
(asking at every node made a move 1.7 times slower in the quickest game; the nodes that matter are visited often)."""

UNTRIED_VALUE = 0.5
"""With a prior, the value a move counts before its first playout (a coin flip)."""


class SearchError(ValueError):
    """A search that cannot be run: no decision to make, or a bad budget."""


class Rollout(StrEnum):
    """How a playout chooses moves once it leaves the tree."""

    RANDOM = "random"
    GREEDY = "greedy"


class Prior(StrEnum):
    """What the search believes about moves before any playout.

    NONE: plain UCT, every legal move tried once before any is tried twice. GREEDY: PUCT, with
    :data:`FAVOURITE_PRIOR` on the move the game's GreedyBot would play at that node, so a budget
    smaller than the number of legal moves spends itself on the heuristic's choice and its rivals
    rather than on one noisy playout of each move (with 25 playouts and 40 legal moves, plain UCT
    chooses among single random playouts, and in the game with the widest choice that lost every game to
    RandomBot).
    """

    NONE = "none"
    GREEDY = "greedy"


@dataclass(frozen=True)
class Budget:
    """How long to think: a number of iterations, a number of seconds, or both (the first reached ends it)."""

    iterations: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise SearchError("a budget needs iterations or seconds (or both)")
        if self.iterations is not None and (type(self.iterations) is not int or self.iterations < 1):
            raise SearchError(f"iterations must be a whole number of at least 1, not {self.iterations!r}")
        if self.seconds is not None and (isinstance(self.seconds, bool) or not isinstance(self.seconds, int | float)
                                         or not self.seconds > 0):
            raise SearchError(f"seconds must be a positive number, not {self.seconds!r}")


@dataclass(frozen=True)
class Progress:
    """How far a ``think`` call is: iterations this call, in the whole tree, its share done and seconds spent."""

    done: int
    total_iterations: int
    fraction: float
    elapsed: float
    finished: bool = False


@dataclass(frozen=True)
class MoveStats:
    """One root move: its playouts, outright wins, mean reward, win share and 95% Wilson interval."""

    action: Any
    notation: str
    description: str
    visits: int
    wins: int
    reward: float
    low: float
    high: float

    @property
    def share(self) -> float:
        """Wins / playouts (0.0 before any playout)."""
        return self.wins / self.visits if self.visits else 0.0

    def text(self) -> str:
        """'seed K6: wins 64% (58–70%) of 412 playouts'."""
        noun = "playout" if self.visits == 1 else "playouts"
        return (f"{self.notation}: wins {100 * self.share:.0f}% ({100 * self.low:.0f}–{100 * self.high:.0f}%) "
                f"of {self.visits} {noun}")


class _Node:
    """A tree node: the player who chose the move into it, its children by action, its counts and availability."""

    __slots__ = ("player", "children", "visits", "reward", "wins", "avail", "favourite", "favourite_at", "state", "legal",
                 "descents")

    def __init__(self, player: int):
        self.player = player
        self.children: dict[Any, _Node] = {}
        self.visits = 0
        self.reward = 0.0
        self.wins = 0
        self.avail: dict[Any, int] = {}
        self.favourite: Any = None  # with a prior: the GreedyBot's move here (asked at the root, or after ASK_AFTER)
        self.state: Any = None  # with nothing hidden: the state this node stands for (kept, not recomputed)
        self.legal: list | None = None  # with nothing hidden: its legal actions
        self.favourite_at = -1  # the favourite's index in the legal moves where it was chosen (-1: none)
        self.descents = 0  # playouts that went on from here to a child (PUCT's parent count)

    def __getstate__(self) -> dict[str, Any]:
        """What a pickle keeps: all but the kept state and legal moves, which the receiver works out again as it walks
        (a pickled state replays its whole history on load: seconds for a tree of a few thousand playouts)."""
        return {name: getattr(self, name) for name in self.__slots__ if name not in ("state", "legal")}

    def __setstate__(self, values: dict[str, Any]) -> None:
        """A node from a pickle, its state and legal moves to be worked out on the next walk through it."""
        self.state = self.legal = None
        for name, value in values.items():
            setattr(self, name, value)


def progress_report(budget: Budget, done: int, total: int, start: float, finished: bool = False) -> Progress:
    """The report after ``done`` iterations of a ``think`` call begun at ``start`` (``total`` in the whole tree)."""
    elapsed = time.perf_counter() - start
    shares = []
    if budget.iterations is not None:
        shares.append(done / budget.iterations)
    if budget.seconds is not None:
        shares.append(elapsed / budget.seconds)
    fraction = 1.0 if finished else min(1.0, max(shares))
    return Progress(done, total, fraction, elapsed, finished)


def _cancel_check(cancel: Callable[[], bool] | threading.Event | None) -> Callable[[], bool]:
    """A callable that says whether to stop, from a callable, a threading.Event or None."""
    if cancel is None:
        return lambda: False
    if isinstance(cancel, threading.Event):
        return cancel.is_set
    if callable(cancel):
        return cancel
    raise SearchError(f"cancel must be a callable or a threading.Event, not {type(cancel).__name__}")


def _index_of(legal: list, action: Any) -> int:
    """The index of ``action`` in ``legal`` (-1 if it is not there)."""
    for index, other in enumerate(legal):
        if other == action:
            return index
    return -1


def _enter(node: _Node, state: Any, action: Any, keep: bool) -> Any:
    """The state after ``action`` in ``state``, which ``node`` stands for: kept on the node when ``keep``."""
    if node.state is not None:
        return node.state
    after = state.apply(action)
    if keep:
        node.state = after
    return after


def rewards(state: Any) -> tuple[tuple[float, ...], tuple[int, ...]]:
    """Each player's reward (a win 1, a shared win split, else 0) and who won outright, at a terminal state."""
    winners = state.winners()
    n = state.num_players
    if not winners:
        return (0.0,) * n, ()
    share = 1.0 / len(winners)
    return tuple(share if p in winners else 0.0 for p in range(n)), (winners if len(winners) == 1 else ())


class Search:
    """UCT search for the player to move in ``state`` (see the module docstring); ``think`` runs it."""

    def __init__(self, state: Any, rng: random.Random, rollout: Rollout | str = Rollout.RANDOM,
                 exploration: float = EXPLORATION, prior: Prior | str = Prior.NONE, leaf_depth: int | None = None):
        if not isinstance(rng, random.Random):
            raise SearchError(f"rng must be a random.Random, not {type(rng).__name__}")
        player = state.current_player
        if state.is_terminal() or player < 0:
            raise SearchError("there is no move to search for: the game is over or chance acts next")
        try:
            self.rollout = Rollout(rollout)
        except ValueError:
            raise SearchError(f"rollout must be one of {', '.join(r.value for r in Rollout)}, "
                              f"not {rollout!r}") from None
        try:
            self.prior = Prior(prior)
        except ValueError:
            raise SearchError(f"prior must be one of {', '.join(p.value for p in Prior)}, not {prior!r}") from None
        if leaf_depth is not None and (type(leaf_depth) is not int or leaf_depth < 0):
            raise SearchError(f"leaf_depth must be None (play out to the end) or a whole number of actions, "
                              f"not {leaf_depth!r}")
        self.leaf_depth = leaf_depth
        self._model = None
        if leaf_depth is not None:
            from .evaluation import EvaluationError, model_for

            try:
                self._model = model_for(state.game.name)
            except EvaluationError as err:
                raise SearchError(str(err)) from None
        self.state = state
        self.player = player
        self.rng = rng
        self.exploration = exploration
        self.worlds = WorldSampler(state, player)
        self.keeps_states = not self.worlds.hidden
        """Nodes keep their states and legal actions (nothing hidden: a node stands for one state)."""
        self.root = _Node(core.CHANCE)
        self.iterations = 0
        self._legal = list(state.legal_actions())
        self._policy = self._rollout_bot()
        self._advisor = self._prior_bot()

    def _prior_bot(self) -> core.Bot | None:
        """The bot whose move gets the prior (None: plain UCT, or a game without a GreedyBot)."""
        if self.prior is Prior.NONE:
            return None
        greedy = getattr(core.game_module(self.state.game.name), "GreedyBot", None)
        return None if greedy is None else greedy(random.Random(self.rng.getrandbits(64)))

    def _rollout_bot(self) -> core.Bot:
        """The bot that plays the playouts."""
        if self.rollout is Rollout.GREEDY:
            bot = core.game_module(self.state.game.name).GreedyBot(self.rng)
            if hasattr(bot, "guard"):  # a playout samples the heuristic's games: no hand-over check (as before it)
                bot.guard = False
            return bot
        return core.RandomBot(self.rng)

    # ------------------------------------------------------------ moving on

    def move_to(self, action: Any, state: Any) -> int:
        """Search ``state`` next, which the game reached by ``action`` from this search's root and at most one more
        action: the node standing for it becomes the root with its playouts (how many are kept; 0: a new tree).

        Only a tree whose nodes keep their states can find it (nothing hidden); elsewhere, or if the tree never
        reached ``state``, the search starts again at ``state`` with an empty tree (its random numbers go on).
        """
        player = state.current_player
        if state.is_terminal() or player < 0:
            raise SearchError("there is no move to search for: the game is over or chance acts next")
        node = self._node_for(action, state)
        self.state, self.player = state, player
        self.worlds = WorldSampler(state, player)
        self._legal = list(node.legal) if node is not None and node.legal is not None else list(state.legal_actions())
        self.root = node if node is not None else _Node(core.CHANCE)
        self.iterations = self.root.visits
        return self.iterations

    def _node_for(self, action: Any, state: Any) -> _Node | None:
        """The node below ``action`` at the root, or one of its children, that stands for ``state`` (None: none kept)."""
        if not self.keeps_states:
            return None
        child = self.root.children.get(action)
        if child is None:
            return None
        reached = _enter(child, self.state, action, True)  # worked out again if the tree came through a pickle
        if reached == state:
            return child
        further = getattr(state, "last_action", None)  # FrozenState's; a plug-in state without it keeps no grandchild
        grandchild = child.children.get(further)
        if grandchild is None or reached.is_terminal():
            return None
        return grandchild if _enter(grandchild, reached, further, True) == state else None

    # ------------------------------------------------------------ running

    def think(self, budget: Budget, cancel: Callable[[], bool] | threading.Event | None = None,
              progress: Callable[[Progress], None] | None = None) -> int:
        """Run iterations until the budget is spent or ``cancel`` says stop; the iterations run by this call."""
        if not isinstance(budget, Budget):
            raise SearchError(f"budget must be a Budget, not {type(budget).__name__}")
        stop = _cancel_check(cancel)
        start = time.perf_counter()
        deadline = None if budget.seconds is None else start + budget.seconds
        done = 0
        while budget.iterations is None or done < budget.iterations:
            if done % REPORT_EVERY == 0:
                if stop() or (deadline is not None and done and time.perf_counter() >= deadline):
                    break
                if progress is not None and done:
                    progress(self._progress(budget, done, start))
            self.iterate()
            done += 1
            if deadline is not None and budget.iterations is None and time.perf_counter() >= deadline:
                break
        if progress is not None:
            progress(self._progress(budget, done, start, finished=True))
        return done

    def _progress(self, budget: Budget, done: int, start: float, finished: bool = False) -> Progress:
        """The progress report after ``done`` iterations of this call."""
        return progress_report(budget, done, self.iterations, start, finished)

    def iterate(self) -> None:
        """One playout: select and expand in a sampled world, play out, and credit the path.

        With nothing hidden, a node stands for one state whatever the playout, so each node keeps its state and
        legal actions the first time they are computed: the walk down the tree makes no copies (the same moves,
        the same random numbers, about a sixth less work in Bosk).
        """
        rng = self.rng
        keep = self.keeps_states
        state = self.worlds.sample(rng)
        node = self.root
        path = [node]
        while not state.is_terminal():
            player = state.current_player
            if player == core.CHANCE:
                action = core.sample_chance(state, rng)
                child = node.children.get(action)
                if child is None:
                    child = node.children[action] = _Node(core.CHANCE)
                    state = _enter(child, state, action, keep)
                    path.append(child)
                    break
                node = child
                state = _enter(child, state, action, keep)
                path.append(node)
                continue
            legal = node.legal
            if legal is None:
                legal = state.legal_actions()
                if keep:
                    node.legal = legal
            if self._advisor is None:
                action, expanded = self._select(node, legal, player)
            else:
                action, expanded = self._select_puct(node, state, legal, player)
            node = node.children[action]
            state = _enter(node, state, action, keep)
            path.append(node)
            if expanded:
                break
        if self._model is None:
            state = self._play_out(state)
            reward, outright = rewards(state)
        else:  # a short playout, then the evaluation's chances where the game goes on
            state = self._play_for(state, self.leaf_depth)
            reward, outright = rewards(state) if state.is_terminal() else (self._model.chances(state), ())
        for visited in path:
            visited.visits += 1
            if visited.player >= 0:
                visited.reward += reward[visited.player]
                if visited.player in outright:
                    visited.wins += 1
        self.iterations += 1

    def _select(self, node: _Node, legal: list, player: int) -> tuple[Any, bool]:
        """The action to follow from ``node``: an untried legal one at random, else the best UCT score.

        ``node.avail`` counts, per action, the visits in which it was legal (the parent's
        visits when nothing is hidden), so a move tried late is not starved of exploration.
        """
        children, avail = node.children, node.avail
        untried = []
        for action in legal:
            avail[action] = avail.get(action, 0) + 1
            if action not in children:
                untried.append(action)
        if untried:
            action = untried[self.rng.randrange(len(untried))]
            children[action] = _Node(player)
            return action, True
        best, best_score = None, -1.0
        c = self.exploration
        log = math.log
        for action in legal:
            child = children[action]
            score = child.reward / child.visits + c * math.sqrt(log(avail[action]) / child.visits)
            if score > best_score:
                best, best_score = action, score
        return best, False

    def _select_puct(self, node: _Node, state: Any, legal: list, player: int) -> tuple[Any, bool]:
        """The action to follow from ``node`` (``legal`` in ``state``) by PUCT: mean reward plus the prior's pull,
        which fades with playouts."""
        keep = self.keeps_states
        if node.favourite is None and (node is self.root or node.visits >= ASK_AFTER):
            node.favourite = self._advisor.choose(state)
            node.favourite_at = _index_of(legal, node.favourite)
        favourite, children, count = node.favourite, node.children, len(legal)
        if favourite is None:  # not asked yet: every move alike
            others, chosen = 1.0 / count, -1
        else:  # where cards are hidden, each world has its own legal moves: find the favourite among them
            others = (1.0 - FAVOURITE_PRIOR) / (count - 1) if count > 1 else 0.0
            chosen = node.favourite_at if keep else _index_of(legal, favourite)
        favoured = FAVOURITE_PRIOR if count > 1 else 1.0
        get = children.get
        if keep:  # nothing hidden: every child is legal here, and its visits are the node's descents
            total = 1 + node.descents
        else:
            total = 1
            for action in legal:
                child = get(action)
                if child is not None:
                    total += child.visits
        pull = PUCT_EXPLORATION * math.sqrt(total)
        best, best_score = None, -math.inf
        for index, action in enumerate(legal):
            child = get(action)
            visits = child.visits if child is not None else 0
            prior = favoured if index == chosen else others
            if visits:
                score = child.reward / visits + pull * prior / (1 + visits)
            else:
                score = UNTRIED_VALUE + pull * prior
            if score > best_score:
                best, best_score = action, score
        node.descents += 1
        if best not in children:
            children[best] = _Node(player)
            return best, True
        return best, False

    def _play_out(self, state: Any) -> Any:
        """Play ``state`` to the end with the rollout policy and exact chance."""
        rng, choose, chance, sample = self.rng, self._policy.choose, core.CHANCE, core.sample_chance
        if self.rollout is Rollout.RANDOM:  # RandomBot's draws, through the engine's fused playout if it has one
            return core.random_playout(state, rng, MAX_ROLLOUT)
        for _ in range(MAX_ROLLOUT):
            if state.is_terminal():
                return state
            if state.current_player == chance:
                state = state.apply(sample(state, rng))
            else:
                state = state.apply(choose(state))
        raise RuntimeError(f"{state.game.name}: a playout did not end after {MAX_ROLLOUT} actions")

    def _play_for(self, state: Any, actions: int) -> Any:
        """``actions`` more actions of the rollout policy and exact chance (fewer if the game ends)."""
        rng, choose, chance, sample = self.rng, self._policy.choose, core.CHANCE, core.sample_chance
        for _ in range(actions):
            if state.is_terminal():
                break
            state = state.apply(sample(state, rng) if state.current_player == chance else choose(state))
        return state

    # ------------------------------------------------------------ results

    def statistics(self) -> list[MoveStats]:
        """Every legal root move's statistics, most playouts first (then the prior's favourite, higher reward, the engine's order)."""
        out = []
        favourite = self.root_favourite()
        for index, action in enumerate(self._legal):
            child = self.root.children.get(action)
            visits = child.visits if child else 0
            wins = child.wins if child else 0
            reward = child.reward / visits if visits else 0.0
            low, high = wilson_interval(wins, visits)
            out.append((-visits, action != favourite, -reward, index,
                        MoveStats(action, str(action), self.state.describe(action), visits, wins, reward, low, high)))
        out.sort(key=lambda row: row[:4])
        return [row[4] for row in out]

    def root_favourite(self) -> Any:
        """The prior's favourite move at the root (None with plain UCT or before the first playout)."""
        return self.root.favourite

    def best(self) -> Any:
        """The move with the most playouts (the first legal move before any)."""
        return self.statistics()[0].action
