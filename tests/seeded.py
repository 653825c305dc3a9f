"""Helpers for engine tests: seeded random games move by move, and every outcome of the chance before a decision."""

from __future__ import annotations

import random
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

from treegames import core


def random_moves(game: Any, seeds: int) -> Iterator[tuple[Any, Any, Any]]:
    """(position, move, position after) at every decision of games ``0..seeds-1``, each played at random with its seed."""
    for seed in range(seeds):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player == core.CHANCE:
                state = state.apply(core.sample_chance(state, rng))
                continue
            action = rng.choice(state.legal_actions())
            after = state.apply(action)
            yield state, action, after
            state = after


def next_decisions(state: Any, chance: Fraction = Fraction(1)) -> Iterator[tuple[Any, Fraction]]:
    """Every position where someone next decides (or the game is over) after the dice or draws from ``state``, with its exact chance."""
    if state.current_player != core.CHANCE:
        yield state, chance
        return
    for outcome, p in state.chance_outcomes():
        yield from next_decisions(state.apply(outcome), chance * p)
