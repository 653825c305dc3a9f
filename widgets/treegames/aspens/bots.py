"""GreedyBot for Aspens (RandomBot comes from :mod:`treegames.core`).

The heuristic, one placement at a time (no look-ahead beyond the current tree):

* **Seeding**: the empty space beside an unused water tile closest to the centre
  (the rulebook's strategy tip), preferring more empty neighbours.
* **Growing the starting forests**: the tallest own stack still below 7 trees, so
  production is steady (each tree below 7 adds exactly 1/6 to a space's odds).
* **Planting**: a grow-out that ends the game won (:func:`treegames.core.winning_action`) is played at
  once; otherwise every legal action gets a value and the best is played, unless it could hand the
  opponent a win in one after the dice (:func:`treegames.core.least_handing`: then the best that hands
  the least):

  - grow out: 1 for the space, plus every space a cascade would fill at once,
    plus 0.25 per opponent space next to the target (contesting and blocking the
    opponent's frontier), plus 0.1 per empty space next to it (room to grow);
  - grow up: ``PRODUCTION_WEIGHT`` x the rise in that space's production odds
    (1/6 below 7 trees, 0 from 7 on) x the share of the board still empty;
  - end turn (only while holding at most 5): ``HOLD_VALUE`` - keep a tree for a
    better Wind rather than waste it.

Ties are broken with the injected ``random.Random``, so the bot is deterministic
for a given seed.
"""

from __future__ import annotations

import random

from .. import core
from .actions import END_TURN, EndTurn, GrowOut, GrowUp, Phase, Seed
from .data import Hex, distance
from .engine import AspensState, dilated
from .odds import production_probability

__all__ = ["GreedyBot", "PRODUCTION_WEIGHT", "HOLD_VALUE", "BLOCK_WEIGHT", "ROOM_WEIGHT"]

PRODUCTION_WEIGHT = 12.0
"""Value, in spaces, of a space producing on every roll from now on (tuned: 12 won 40/40 v RandomBot).

On an empty board one more tree on a 1-6 stack (+1/6) is worth 2 spaces, so the bot
builds production first and turns to territory as the board fills up."""
HOLD_VALUE = 0.3
"""Value of ending the turn with trees kept for later."""
BLOCK_WEIGHT = 0.25
"""Value per opponent space next to a grow-out target."""
ROOM_WEIGHT = 0.1
"""Value per empty space next to a grow-out target."""


RISE = tuple(float(production_probability(h + 1) - production_probability(h)) for h in range(257))
"""How much one more tree raises a space's production odds, by its current height."""


class GreedyBot:
    """Plays the best-valued single placement now (see the module docstring); ties by rng."""

    guard = True
    """Whether a move that ends the turn is weighed for handing a rival a win in one (core.least_handing);
    the coach's greedy playouts switch it off (a sampling policy, as fast as before the check)."""

    def __init__(self, rng: random.Random | None = None):
        self.rng = rng if rng is not None else random.Random(0)

    def __repr__(self) -> str:
        return "GreedyBot()"

    def choose(self, state: AspensState) -> object:
        """The action this bot plays in ``state``."""
        if state.current_player == core.CHANCE:
            return core.sample_chance(state, self.rng)
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        win = core.winning_action(state)  # a grow-out that fills the board with this bot ahead is taken at once
        if win is not None:
            return win
        share = _empty_share(state)
        scored = [(self.value(state, a, share), i) for i, a in enumerate(actions)]
        best = max(v for v, _ in scored)
        pick = self.rng.choice([i for v, i in scored if v == best])
        if not self.guard:
            return actions[pick]
        ranked = core.best_first(actions[pick], ((v, actions[i]) for v, i in scored))
        return core.least_handing(state, ranked, self.heuristic)

    def heuristic(self, state: AspensState) -> object:
        """The move the values rank first (legal order among equals), a win in one before all: how a weighed turn is finished."""
        win = core.winning_action(state)
        if win is not None:
            return win
        share = _empty_share(state)
        return max(state.legal_actions(), key=lambda a: self.value(state, a, share))

    def value(self, state: AspensState, action: object, share: float | None = None) -> float:
        """How much this bot likes ``action`` in ``state`` (higher is better)."""
        if isinstance(action, Seed):
            return -distance(action.cell) + 0.01 * _empty_neighbours(state, action.cell)
        if isinstance(action, GrowUp):
            height = state.height(action.cell)
            if state.phase is Phase.GROW_START:
                return RISE[min(height, 256)] + 0.01 * height
            if share is None:
                share = _empty_share(state)
            return PRODUCTION_WEIGHT * RISE[min(height, 255)] * share
        if isinstance(action, GrowOut):
            return 1.0 + _cascade_gain(state, action) + _frontier_value(state, action.cell)
        if isinstance(action, EndTurn) or action is END_TURN:
            return HOLD_VALUE
        return 0.0


def _empty_share(state: AspensState) -> float:
    """The share of playable spaces still empty."""
    geo = state._geo
    empty = state._empty()
    return empty.bit_count() / geo.playable.bit_count()


def _empty_neighbours(state: AspensState, cell: Hex) -> int:
    """How many empty spaces touch ``cell``."""
    geo = state._geo
    return (dilated(1 << geo.bit[cell]) & state._empty()).bit_count()


def _frontier_value(state: AspensState, cell: Hex) -> float:
    """Blocking and room-to-grow value of planting on ``cell``."""
    geo = state._geo
    around = dilated(1 << geo.bit[cell])
    theirs = (around & state._own[1 - state.current_player]).bit_count()
    room = (around & state._empty()).bit_count()
    return BLOCK_WEIGHT * theirs + ROOM_WEIGHT * room


def _cascade_gain(state: AspensState, action: GrowOut) -> int:
    """Spaces a cascade would fill for the mover (minus any it would hand the opponent)."""
    p = state.current_player
    b = state._geo.bit[action.cell]
    empty_after = state._empty() & ~(1 << b)
    if not state._may_seal(p, b, empty_after):
        return 0
    after = state.apply(action)
    mine = after.scores()[p] - state.scores()[p] - 1
    theirs = after.scores()[1 - p] - state.scores()[1 - p]
    return mine - theirs


