"""Random playouts: an engine's fused ``random_playout`` is the one-action-at-a-time loop, draw for draw.

The coach's random playouts go through :func:`treegames.core.random_playout`, which uses an engine's own
fused playout where it has one. The fused one must end in the same state, with the same history, having
used the random stream exactly as RandomBot and ``sample_chance`` would, from any position.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from treegames import core


def step_by_step(state, rng: random.Random):
    """The reference: RandomBot's and sample_chance's draws applied one action at a time."""
    bot = core.RandomBot(rng)
    while not state.is_terminal():
        state = state.apply(core.sample_chance(state, rng) if state.current_player == core.CHANCE else bot.choose(state))
    return state


def position(name: str, seed: int, steps: int):
    """A position ``steps`` random actions into a seeded game of ``name`` (2 players where it has a choice)."""
    game_type = core.games()[name]
    game = game_type.new_game(**({"players": 2} if len(game_type.players) > 1 else {}))
    rng = random.Random(seed)
    state = game.new_initial_state()
    bot = core.RandomBot(rng)
    for _ in range(steps):
        if state.is_terminal():
            break
        state = state.apply(core.sample_chance(state, rng) if state.current_player == core.CHANCE else bot.choose(state))
    return state


FUSED = sorted(name for name, t in core.games().items()
               if hasattr(position(name, 0, 0), "random_playout"))


def test_aspens_and_bosk_have_fused_playouts():
    assert {"aspens", "bosk"} <= set(FUSED)


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 120), draws=st.integers(0, 10**6))
def test_a_bosk_playout_from_any_seat_count_and_moment_matches_the_loop_down_to_its_last_step(players, seed, steps, draws):
    """Leaf Placement runs are fused: the final state, the one before it and the last event are the loop's."""
    game = core.games()["bosk"].new_game(players=players)
    rng, state = random.Random(seed), game.new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        state = state.apply(core.sample_chance(state, rng) if state.current_player == core.CHANCE
                            else core.RandomBot(rng).choose(state))
    one, fused = random.Random(draws), random.Random(draws)
    expected, got = step_by_step(state, one), core.random_playout(state, fused, 100_000)
    assert got == expected and got.history == expected.history
    assert got.previous == expected.previous and got.last_event == expected.last_event
    assert fused.getstate() == one.getstate()


@pytest.mark.parametrize("name", sorted(core.games()))
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 400), draws=st.integers(0, 10**6))
def test_a_random_playout_ends_where_the_one_action_loop_ends_with_the_same_draws(name, seed, steps, draws):
    start = position(name, seed, steps)
    one, fused = random.Random(draws), random.Random(draws)
    expected = step_by_step(start, one)
    got = core.random_playout(start, fused, 100_000)
    assert got == expected
    assert got.history == expected.history
    assert got.scores() == expected.scores() and got.winners() == expected.winners()
    assert fused.getstate() == one.getstate(), "the fused playout used the random stream differently"


def test_a_playout_that_cannot_end_within_its_limit_says_so():
    start = position("aspens", 1, 0)
    with pytest.raises(RuntimeError, match="did not end after 5 actions"):
        core.random_playout(start, random.Random(1), 5)
