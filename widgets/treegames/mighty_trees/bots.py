"""GreedyBot: a one-step look-ahead player for Mighty Trees.

The heuristic
-------------
For each legal action the bot looks at the position that action leads to, as
the mover would see it (``view_for``: no other hand, no draw order), and scores
it as

    my progress - the best opponent's progress    (+1000 if I have won)

where progress = 10 per canopy tree + 4 per understory tree that can still
grow + 1.5 per understory tree that cannot.  It takes the action with the
highest score, preferring ``end`` unless an action strictly improves on
the present position.  When it must spend its first Sol and nothing helps, it
discards the least useful card from its Command: an unplantable tree first,
then a tree that cannot grow, a cloud or trend, a disaster, and a good tree
last.  Ties go to the first action in ``legal_actions()`` order.  Chance
nodes are not the bot's business (core.step samples them).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from .actions import Verb
from .data import DECK, Kind

if TYPE_CHECKING:
    from .engine import MightyTreesState, PlayerView

__all__ = ["GreedyBot", "progress", "score"]

CANOPY_VALUE = 10.0
GROWER_VALUE = 4.0
NON_GROWER_VALUE = 1.5
WIN_VALUE = 1000.0


def progress(view: PlayerView, player: int) -> float:
    """How close ``player`` is to capturing the habitat, from the trees on their side."""
    value = CANOPY_VALUE * sum(t is not None for t in view.canopy[player])
    for tree in view.understory[player]:
        if tree is not None:
            value += GROWER_VALUE if tree.can_grow else NON_GROWER_VALUE
    return value + WIN_VALUE * view.captured[player]


def score(view: PlayerView) -> float:
    """The viewer's progress minus the best opponent's."""
    me = view.player
    others = [progress(view, p) for p in range(len(view.captured)) if p != me]
    return progress(view, me) - max(others)


def usefulness(view: PlayerView, card_id: int) -> int:
    """How much a card in the Command is worth keeping (0 = discard it first)."""
    card = DECK[card_id]
    if card.kind is Kind.TREE:
        if view.habitat is None or not card.fits(view.temperature, view.water):
            return 0
        return 4 if card.can_grow else 1
    return 3 if card.kind is Kind.DISASTER else 2


class GreedyBot:
    """Plays the action whose resulting position scores best for it (see the module docstring)."""

    def __init__(self, rng: random.Random | None = None):
        self.rng = rng  # the heuristic is deterministic (ties go to the first legal action); kept for the protocol

    def choose(self, state: MightyTreesState):
        """The chosen action for the player to move."""
        me = state.current_player
        now = score(state.view_for(me))
        best, best_value = None, now
        for action in state.legal_actions():
            if action.verb is Verb.END:
                continue
            value = score(state.apply(action).view_for(me))
            if value > best_value:
                best, best_value = action, value
        if best is not None:
            return best
        legal = state.legal_actions()
        if any(a.verb is Verb.END for a in legal):
            return next(a for a in legal if a.verb is Verb.END)
        view = state.view_for(me)
        discards = [a for a in legal if a.verb is Verb.DISCARD and a.place == "hand"]
        if discards:
            return min(discards, key=lambda a: usefulness(view, a.card))
        neutral = [a for a in legal if score(state.apply(a).view_for(me)) >= now]
        return (neutral or legal)[0]

    def __repr__(self) -> str:
        return "GreedyBot()"
