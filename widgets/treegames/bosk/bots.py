"""A simple heuristic Bosk bot.

GreedyBot's heuristic, one step at a time:

* **Spring**: grow its highest remaining tree where it most improves its summer
  margin (its points minus the best rival's) on that tree's row and column;
  ties go to the intersection nearest the centre (more room for leaves).
* **Initial wind**: place the wind board so the first wind gives its value-1
  trees the longest run of squares before the edge.
* **Falling leaves**: try every allowed tree and tile, playing each path out
  greedily (below), and keep the one with the best winter-margin gain minus
  0.25 per leaf tile value (so big tiles are not wasted on small gains).
* **Leaf placement / squirrel**: the square that most improves its winter
  margin (its region points minus the best rival's), counting a covering cost
  as 0.5 per returned leaf; ties go to the square with more room ahead.

A chosen move that could hand the next player a win in one (Winter's scoring
won by them: :func:`treegames.core.least_handing`) gives way to the next best
that hands the least (leaves and the squirrel by the same value; otherwise in
legal order).

Moves still equally good after those tie-breaks are chosen between with the
bot's own ``rng`` (seeded: the same seed plays the same game).  The rollouts it
uses to value a tree and tile play the first of equally good squares, so the
valuation itself does not draw from the rng.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from .. import core
from .actions import Kind, Phase
from .scoring import summer_points, winter_points

if TYPE_CHECKING:
    from .engine import BoskState

__all__ = ["GreedyBot"]

TILE_PENALTY = 0.25
"""Winter-margin points a leaf tile must earn per leaf of its value to be worth playing."""

COVER_PENALTY = 0.5
"""Winter-margin points charged per active leaf returned when covering."""


def _first(ties: list) -> Any:
    """The first of equally good moves (legal order)."""
    return ties[0]


def _margin(points: tuple[int, ...], me: int) -> int:
    """My points minus the best rival's."""
    return points[me] - max(v for p, v in enumerate(points) if p != me)


def control_counts(state: BoskState) -> list[list[int]]:
    """Per region, how many squares each player controls (top leaf or squirrel)."""
    park = state.park
    counts = [[0] * state.num_players for _ in park.region_names]
    for sq in range(park.num_squares):
        owner = state.controller(*park.square_rc(sq))
        if owner is not None:
            counts[park.terrain[sq]][owner] += 1
    return counts


def _winter_gain(state: BoskState, counts: list[list[int]], me: int, sq: int) -> int:
    """Change of my winter margin if I take control of square ``sq``."""
    park = state.park
    old = state.controller(*park.square_rc(sq))
    if old == me:
        return 0
    region = counts[park.terrain[sq]]
    after = list(region)
    after[me] += 1
    if old is not None:
        after[old] -= 1
    return _margin(winter_points(after), me) - _margin(winter_points(region), me)


def _take(state: BoskState, counts: list[list[int]], me: int, sq: int) -> None:
    """Update ``counts`` for me taking control of ``sq`` (before the state changes)."""
    park = state.park
    old = state.controller(*park.square_rc(sq))
    if old != me:
        region = counts[park.terrain[sq]]
        region[me] += 1
        if old is not None:
            region[old] -= 1


class GreedyBot:
    """Plays the move with the best immediate gain in its score margin (see the module docstring)."""

    guard = True
    """Whether a move that ends the turn is weighed for handing a rival a win in one (core.least_handing);
    the coach's greedy playouts switch it off (a sampling policy, as fast as before the check)."""

    def __init__(self, rng: random.Random | None = None):
        self.rng = rng or random.Random(0)

    def _pick(self, ties: list):
        """One of several equally good moves, drawn with the bot's rng (no draw when there is one)."""
        return ties[0] if len(ties) == 1 else ties[self.rng.randrange(len(ties))]

    def __repr__(self) -> str:
        return "GreedyBot()"

    def choose(self, state: BoskState):
        """The heuristic's action for the player to move (a move that wins the game at once first)."""
        win = core.winning_action(state)  # only Winter's scoring ends a game: its one action, when it wins
        if win is not None:
            return win
        chosen = self._heuristic(state, self._pick)
        if not self.guard:
            return chosen
        return core.least_handing(state, self._ranked(state, chosen), self.heuristic)

    def heuristic(self, state: BoskState):
        """The heuristic's move with the first of equal moves, a win in one before all: how a weighed turn is finished."""
        win = core.winning_action(state)
        return win if win is not None else self._heuristic(state, _first)

    def _heuristic(self, state: BoskState, pick: Callable[[list], Any]):
        """The heuristic's choice for the phase in force (see the module docstring), ``pick`` choosing among equals."""
        phase = state.phase
        if phase is Phase.SPRING:
            return self._spring(state, pick)
        if phase is Phase.WIND:
            return self._wind(state, pick)
        if phase is Phase.FALLING_LEAVES:
            return self._falling(state, pick)
        if phase is Phase.LEAF_PLACEMENT or phase is Phase.SQUIRREL:
            return pick(self._best_squares(state, control_counts(state))[0])
        return state.legal_actions()[0]

    @staticmethod
    def _ranked(state: BoskState, chosen) -> Iterator:
        """The chosen action, then the rest (a leaf or the squirrel by the same winter value), worked out only when read."""
        if state.phase is Phase.LEAF_PLACEMENT or state.phase is Phase.SQUIRREL:
            return core.best_first(chosen, _valued_squares(state))
        return core.best_first(chosen, rest=state.legal_actions())

    def _spring(self, state: BoskState, pick: Callable[[list], Any]):
        """Highest tree where it best improves the summer margin on its two trails."""
        park = state.park
        me = state.current_player
        value = max(state.trees_in_hand(me))
        centre = park.size / 2
        best, best_key = [], None
        for action in state.legal_actions():
            if action.value != value:
                continue
            key = (self._summer_gain(state, me, action.row, action.col, value),
                   -abs(action.row - centre) - abs(action.col - centre))
            if best_key is None or key > best_key:
                best, best_key = [action], key
            elif key == best_key:
                best.append(action)
        return pick(best)

    @staticmethod
    def _summer_gain(state: BoskState, me: int, row: int, col: int, value: int) -> int:
        """Change of my summer margin on the row and column trails through (row, col)."""
        n = state.num_players
        size = state.park.size
        gain = 0
        for cells in ([(row, c) for c in range(1, size)], [(r, col) for r in range(1, size)]):
            totals = [0] * n
            for r, c in cells:
                tree = state.tree_at_intersection(r, c)
                if tree:
                    totals[tree[0]] += tree[1]
            before = _margin(summer_points(totals), me)
            totals[me] += value
            gain += _margin(summer_points(totals), me) - before
        return gain

    def _wind(self, state: BoskState, pick: Callable[[list], Any]):
        """The side whose first wind gives my value-1 trees the longest runs."""
        me = state.current_player
        size = state.park.size
        mine = [rc for rc, (owner, value) in state.trees_on_board().items() if owner == me and value == 1]
        best, best_room = [], -1
        for action in state.legal_actions():
            dr, dc = _blow(state, action.value)
            room = 0
            for r, c in mine:
                room += (size - r) if dr > 0 else r if dr < 0 else (size - c) if dc > 0 else c
            if room > best_room:
                best, best_room = [action], room
            elif room == best_room:
                best.append(action)
        return pick(best)

    def _falling(self, state: BoskState, pick: Callable[[list], Any]):
        """The tree and tile whose greedy path gains most, net of the tile's size."""
        best, best_score = [], None
        for action in state.legal_actions():
            gain = self._rollout(state.apply(action), state.current_player)
            score = gain - TILE_PENALTY * action.value
            if best_score is None or score > best_score:
                best, best_score = [action], score
            elif score == best_score:
                best.append(action)
        return pick(best)

    def _rollout(self, state: BoskState, me: int) -> float:
        """Total winter-margin gain of finishing this turn greedily."""
        counts = control_counts(state)
        total = 0.0
        while state.current_player == me and state.phase in (Phase.LEAF_PLACEMENT, Phase.SQUIRREL):
            action, score = self._best_square(state, counts)
            _take(state, counts, me, state.park.square(action.row, action.col))
            total += score
            state = state.apply(action)
        return total

    def _best_square(self, state: BoskState, counts: list[list[int]]):
        """(action, score) of the first best square for the next leaf or the squirrel (for rollouts)."""
        best, score = self._best_squares(state, counts)
        return best[0], score

    @staticmethod
    def _best_squares(state: BoskState, counts: list[list[int]]):
        """([equally best actions], score) for the next leaf or the squirrel."""
        me = state.current_player
        ahead = state.park.ahead_squares[state.wind_direction.index]
        best, best_key = [], None
        for action in state.legal_actions():
            key = _square_key(state, counts, me, ahead, action)
            if best_key is None or key > best_key:
                best, best_key = [action], key
            elif key == best_key:
                best.append(action)
        return best, best_key[0]


def _square_key(state: BoskState, counts: list[list[int]], me: int, ahead: tuple, action) -> tuple[float, int]:
    """(winter-margin gain less the covering penalty, squares ahead) of ``me``'s leaf or squirrel on ``action``'s square."""
    sq = state.park.square(action.row, action.col)
    score = float(_winter_gain(state, counts, me, sq))
    if action.kind is Kind.LEAF:
        score -= COVER_PENALTY * state.covering_cost(action.row, action.col)
    return score, len(ahead[sq])


def _valued_squares(state: BoskState) -> Iterator[tuple[tuple[float, int], Any]]:
    """(value, action) for each legal leaf or squirrel square, in legal order, worked out only when read."""
    counts, me = control_counts(state), state.current_player
    ahead = state.park.ahead_squares[state.wind_direction.index]
    for action in state.legal_actions():
        yield _square_key(state, counts, me, ahead, action), action


def _blow(state: BoskState, side: int) -> tuple[int, int]:
    """The (row, col) step of the first wind if the wind board goes on side ``side``."""
    return state.game.wind_spots(side)[0].direction.step
