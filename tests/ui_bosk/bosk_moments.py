"""Seeded Bosk moments for the view tests: bot games stopped at each kind of moment (imported by tests)."""

from __future__ import annotations

import random

from treegames import bosk, core


def play_until(players: int, seed: int, stop, bots=None):
    """A seeded game of GreedyBots (chance from ``seed``) advanced until ``stop(state)`` is true."""
    game = bosk.new_game(players)
    rng = random.Random(seed)
    bots = bots or [bosk.GreedyBot(random.Random(seed * 10 + p)) for p in range(players)]
    state = game.new_initial_state()
    while not stop(state):
        if state.is_terminal():
            raise AssertionError("the game ended before the wanted moment")
        state = core.step(state, bots, rng)
    return state


def covering_moment(players: int = 2, seed: int = 1):
    """A leaf placement where at least one target square costs leaves to cover."""
    for s in range(seed, seed + 40):
        try:
            return play_until(players, s, lambda st: st.phase is bosk.Phase.LEAF_PLACEMENT and any(
                (pile := st.pile(*st.park.square_rc(sq))) and pile[-1] != st.current_player
                for sq in range(st.park.num_squares)
                if bosk.Action(bosk.Kind.LEAF, *st.park.square_rc(sq)) in st.legal_actions()))
        except AssertionError:
            continue
    raise AssertionError("no covering moment found")


