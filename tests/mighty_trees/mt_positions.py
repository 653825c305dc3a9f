"""Mighty Trees positions for tests: a scripted deal, actions in notation, and seeded random play to a moment."""

from __future__ import annotations

import random

from treegames import core
from treegames import mighty_trees as mt

PIEDMONT = "Piedmont Oak-Hickory Forest"


def start(hands, habitat=PIEDMONT, first=1, **options):
    """A game after the habitat, the scripted deal (hands[p] = 3 card names) and the first player."""
    state = mt.new_game(len(hands), **options).new_initial_state()
    state = state.apply(state.parse_action(f"habitat {habitat}"))
    for i in range(3):
        for hand in hands:
            state = state.apply(state.parse_action(f"draw {hand[i]}"))
    return state.apply(state.parse_action(f"first P{first}"))


def do(state, *texts):
    """Apply actions written in notation, one after another."""
    for text in texts:
        state = state.apply(state.parse_action(text))
    return state


def play_until(seed: int, players: int, stop, limit: int = 3000, tries: int = 60):
    """Random (seeded) play until ``stop(state)``, trying seeds seed, seed+1, ... (card data may change)."""
    for attempt in range(seed, seed + tries):
        rng = random.Random(attempt)
        bot = core.RandomBot(rng)
        state = mt.new_game(players).new_initial_state()
        for _ in range(limit):
            if stop(state):
                return state
            if state.is_terminal():
                break
            state = state.apply(state.sample_chance(rng) if state.current_player == core.CHANCE else bot.choose(state))
    raise AssertionError("position not reached")
