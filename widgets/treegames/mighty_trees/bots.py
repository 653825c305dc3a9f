"""GreedyBot: a player for Mighty Trees that plans its whole Battle Phase.

The heuristic
-------------
The bot tries every sequence of its own actions this turn (3 Sols allow at
most three), looks at the position each sequence ends in, and plays the first
action of the best sequence; it plans again after every action.  A position is
scored from the mover's seat, with public cards and its own Command only (no
other hand, no draw order):

    my progress - the best opponent's progress + what my Command is worth

* progress = 10 per canopy tree + 6 per understory tree + 30 for one canopy
  tree with an understory tree beside it (one growth from a capture: under
  the printed rule the next turn captures at once, so the bot attacks or
  strikes a rival's understory tree there when it can) + 100 for holding 2
  canopy trees (only under the ``capture_at_round_end`` variant does that
  position last: a capture when the round ends, unless one falls first, so
  the bot knocks down a rival's full canopy when it can) + 1000 per habitat
  captured (the printed rule's capture at once scores it in the same
  action);
* the Command: 0.8 per tree that fits the lasting conditions (the habitat,
  trends and lingering disasters: clouds pass), 0.05 per tree that does not,
  0.5 per disaster, 0.35 per trend, 0.3 per cloud, and 0.25 per empty place
  (the Regroup Phase refills it with an unknown card).

A planting (+6) is worth more than a growth (+4), so the bot fills its
understory before it grows: a spare tree for an attacker, and (variant)
more trees win ties at the round's end.  The 30 for "one growth away" was
tried at 0, 30, 60 and 120 (200 greedy games at 2, 4 and 6 players, both
rules): 0-60 gave seat shares within a few points of each other under the
printed rule; 120 made the bot hold that position instead of growing under
the variant (most games drawn), so 30 it is.  ``bench_mighty_trees_balance.py``
prints the figures under both rules.  So a cloud is played when it lets a tree be planted this turn, a trend or
disaster when it kills more of a rival's trees than of the bot's own (or makes
its Command plantable), a planting attacks when the attack wins, and a spare
Sol discards a tree that fits nowhere.  Only one discard is tried: the least
useful card; removing its own trees is never tried.  ``end`` is played when no
sequence beats the present position; when a Sol must still be spent, the best
sequence is played anyway.  Ties go to the first action in ``legal_actions()``
order, so the bot is deterministic.  A chosen action that could hand the
next player a win in one (:func:`treegames.core.least_handing`) gives way to
the best-planned one that hands the least (then the rest, in legal order).
Chance nodes are not the bot's business (core.step samples them).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ..core import best_first, least_handing, winning_action
from .actions import Verb
from .data import DECK, HABITATS, MAX_VALUE, MIN_VALUE, SLOTS, Element, Kind

if TYPE_CHECKING:
    from .actions import Action
    from .engine import MightyTreesState

__all__ = ["GreedyBot", "progress", "score", "command_value"]

CANOPY_VALUE = 10.0
UNDERSTORY_VALUE = 6.0
FULL_CANOPY_VALUE = 100.0
ONE_GROW_VALUE = 30.0
"""A canopy tree plus an understory tree: the next turn's growth captures (the printed rule: at once)."""
WIN_VALUE = 1000.0
FIT_TREE_VALUE = 0.8
UNFIT_TREE_VALUE = 0.05
CARD_VALUE = {Kind.CLOUD: 0.3, Kind.TREND: 0.35, Kind.DISASTER: 0.5}
EMPTY_PLACE_VALUE = 0.25
PLAN_DEPTH = 3
"""Actions looked ahead within the turn (3 Sols buy at most three)."""


def progress(state: MightyTreesState, player: int) -> float:
    """How close ``player`` is to capturing the habitat, from the trees on their side."""
    lo = SLOTS * player
    canopy = SLOTS - state.canopy_slots[lo : lo + SLOTS].count(-1)  # an empty slot holds -1, a tree its card id
    under = SLOTS - state.under[lo : lo + SLOTS].count(-1)
    value = CANOPY_VALUE * canopy + UNDERSTORY_VALUE * under + WIN_VALUE * state.captured[player]
    if canopy == SLOTS - 1 and under:
        value += ONE_GROW_VALUE
    return value + (FULL_CANOPY_VALUE if canopy == SLOTS else 0.0)


def lasting_conditions(state: MightyTreesState) -> tuple[int, int]:
    """(temperature, water) from the habitat, trends and lingering disasters: what holds after clouds pass."""
    key = (state.habitat, state.trends, state.weather_items)
    found = _CONDITIONS.get(key)
    if found is None:
        if len(_CONDITIONS) > _CACHE_LIMIT:
            _CONDITIONS.clear()
        found = _CONDITIONS[key] = _lasting_conditions(state)
    return found


def _lasting_conditions(state: MightyTreesState) -> tuple[int, int]:
    """lasting_conditions, computed."""
    h = HABITATS[state.habitat]
    t, w = h.temperature, h.water
    shifts = [(c.affects, c.change) for c in state.trend_cards]
    shifts += [(c.element, c.strength) for c, _owner, _rounds in state.weather if c.kind is Kind.DISASTER]
    for axis, change in shifts:
        if axis is Element.TEMPERATURE:
            t += change
        else:
            w += change
    return max(MIN_VALUE, min(MAX_VALUE, t)), max(MIN_VALUE, min(MAX_VALUE, w))


_CACHE_LIMIT = 50_000
"""Entries a bot's cache keeps before it starts afresh (the keys are a few small numbers each)."""
_CONDITIONS: dict[tuple, tuple[int, int]] = {}
"""lasting_conditions by (habitat, trends, weather): a pure function of those, asked thousands of times a turn."""
_COMMANDS: dict[tuple, float] = {}
"""command_value by (habitat, trends, weather, the Command): a pure function of those."""


def card_value(card, temperature: int, water: int) -> float:
    """What one card in the Command is worth to the bot under the given lasting conditions."""
    if card.kind is Kind.TREE:
        return FIT_TREE_VALUE if card.fits(temperature, water) else UNFIT_TREE_VALUE
    return CARD_VALUE[card.kind]


def command_value(state: MightyTreesState, player: int) -> float:
    """What ``player``'s Command is worth: its cards, plus the empty places Regroup will refill."""
    if state.habitat < 0:
        return 0.0
    key = (state.habitat, state.trends, state.weather_items, state.hands[player])
    found = _COMMANDS.get(key)
    if found is None:
        if len(_COMMANDS) > _CACHE_LIMIT:
            _COMMANDS.clear()
        t, w = lasting_conditions(state)
        hand = state.hand(player)
        found = _COMMANDS[key] = sum(card_value(c, t, w) for c in hand) + EMPTY_PLACE_VALUE * max(0, 3 - len(hand))
    return found


def score(state: MightyTreesState, me: int) -> float:
    """``me``'s progress minus the best opponent's, plus what ``me``'s Command is worth."""
    others = float("-inf")
    for p in range(state.num_players):
        if p != me:
            value = progress(state, p)
            if value > others:
                others = value
    return progress(state, me) - others + command_value(state, me)


class GreedyBot:
    """Plans its Battle Phase by trying every sequence of its own actions (see the module docstring)."""

    guard = True
    """Whether a move that ends the turn is weighed for handing a rival a win in one (core.least_handing);
    the coach's greedy playouts switch it off (a sampling policy, as fast as before the check)."""

    def __init__(self, rng: random.Random | None = None):
        self.rng = rng  # the heuristic is deterministic (ties go to the first legal action); kept for the protocol

    def choose(self, state: MightyTreesState) -> Action:
        """The chosen action for the player to move."""
        win = winning_action(state)  # a capture that wins now is taken now, never planned for later in the turn
        if win is not None:
            return win
        best, valued, after = self._planned(state)
        if not self.guard or not state.can_rival_win_soon(state.current_player):  # no move can hand a win
            return best

        def play(action: Action) -> MightyTreesState:
            """The position after a listed legal move (the plan's own, when it made one)."""
            found = after.get(action)
            return found if found is not None else state._apply(action)

        return least_handing(state, best_first(best, valued, state.legal_actions()), self.heuristic, play)

    def heuristic(self, state: MightyTreesState) -> Action:
        """The planned move, a win in one before all: how a weighed turn is finished."""
        win = winning_action(state)
        return win if win is not None else self._planned(state)[0]

    def _planned(self, state: MightyTreesState) -> tuple[Action, list[tuple[float, Action]], dict]:
        """(the first action of the best plan this turn, each planned first action with its plan's value, the
        position after each)."""
        me = state.current_player
        legal = state.legal_actions()
        end = next((a for a in legal if a.verb is Verb.END), None)
        best, best_value = end, score(state, me) if end is not None else float("-inf")
        valued = [] if end is None else [(best_value, end)]
        seen: dict[tuple, float] = {}  # one turn's plans reach the same position in several orders
        after = {}
        for action in self._moves(state):
            after[action] = child = state._apply(action)  # listed legal: no check
            value = self._plan(child, me, PLAN_DEPTH - 1, seen)
            valued.append((value, action))
            if value > best_value + 1e-9:
                best, best_value = action, value
        return (best if best is not None else legal[0]), valued, after

    def _plan(self, state: MightyTreesState, me: int, depth: int, seen: dict[tuple, float]) -> float:
        """The best score reachable from ``state`` with at most ``depth`` more of ``me``'s actions this turn."""
        if depth == 0 or state.current_player != me:  # another player's turn, chance or the end
            return score(state, me)
        key = (state._key(), depth)
        found = seen.get(key)
        if found is not None:
            return found
        value = score(state, me)
        for action in self._moves(state):
            found = self._plan(state._apply(action), me, depth - 1, seen)  # listed legal: no check
            if found > value:
                value = found
        seen[key] = value
        return value

    def _moves(self, state: MightyTreesState) -> list[Action]:
        """The actions worth trying: every play, and one discard (the least useful card in the Command)."""
        moves, discards = [], []
        for action in state.legal_actions():
            if action.verb is Verb.END:
                continue
            if action.verb is Verb.DISCARD:
                if action.place == "hand":
                    discards.append(action)
                continue
            moves.append(action)
        if discards:
            t, w = lasting_conditions(state)
            moves.append(min(discards, key=lambda a: card_value(DECK[a.card], t, w)))
        return moves

    def __repr__(self) -> str:
        return "GreedyBot()"
