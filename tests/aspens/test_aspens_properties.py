"""Hypothesis property tests over seeds and random legal play."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from treegames import core
from treegames.aspens import (
    END_TURN,
    ChooseFirst,
    GrowOut,
    GrowUp,
    Phase,
    RollSun,
    RollWind,
    Seed,
    new_game,
)
from treegames.aspens.data import SETUPS, Direction
from treegames.core import CHANCE, IllegalAction

GAMES = {(setup, timing): new_game(setup, cascade_timing=timing) for setup in SETUPS
         for timing in ("each-tree", "end-of-turn")}  # fmt: skip

setups = st.sampled_from(SETUPS)
timings = st.sampled_from(["each-tree", "end-of-turn"])
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def random_game(setup: int, timing: str, seed: int) -> list:
    """Every state of a seeded RandomBot game."""
    rng = random.Random(seed)
    return core.play(GAMES[(setup, timing)], [core.RandomBot(rng)] * 2, rng, keep=True)


def all_candidate_actions(state) -> list:
    """Every action of every kind on every hex of the board, legal or not."""
    out: list = [END_TURN, ChooseFirst(0), ChooseFirst(1)]
    out += [RollSun(s) for s in range(1, 9)] + [RollWind(d) for d in Direction]
    for cell in state.board.cells:
        out += [Seed(cell), GrowUp(cell), GrowOut(cell)]
    return out


def regions(state) -> list[tuple[set, set]]:
    """Connected areas of empty spaces (plain search) with the players touching each."""
    board, empty = state.board, set(state.empty_cells())
    seen: set = set()
    out = []
    for start in empty - seen:
        if start in seen:
            continue
        area, stack, touching = {start}, [start], set()
        seen.add(start)
        while stack:
            cell = stack.pop()
            for n in board.neighbors(cell):
                if n in empty and n not in seen:
                    seen.add(n)
                    area.add(n)
                    stack.append(n)
                if state.owner(n) is not None:
                    touching.add(state.owner(n))
        out.append((area, touching))
    return out


@pytest.mark.slow  # a second or more of CPU: make test runs it, test-quick does not
@settings(max_examples=60, deadline=None)
@given(setups, timings, seeds)
def test_every_game_ends_and_scores_sum_to_the_playable_count(setup, timing, seed):
    states = random_game(setup, timing, seed)
    final = states[-1]
    assert final.is_terminal() and not final.empty_cells()
    assert sum(final.scores()) == GAMES[(setup, timing)].playable_count == (148 if setup <= 4 else 147)
    assert final.winners()
    for before, after in zip(states, states[1:], strict=False):
        assert sum(after.scores()) >= sum(before.scores())
        assert len(after.history) == len(before.history) + 1


@settings(max_examples=25, deadline=None)
@given(setups, seeds, st.data())
def test_apply_never_mutates_and_refuses_every_illegal_action(setup, seed, data):
    states = random_game(setup, "each-tree", seed)
    picks = data.draw(st.lists(st.integers(0, len(states) - 1), min_size=3, max_size=6))
    for state in (states[i] for i in picks):
        key, text = state._key(), state.to_json()
        legal = state.legal_actions()
        for action in legal:
            state.apply(action)
        for action in all_candidate_actions(state):
            if action in legal:
                continue
            try:
                state.apply(action)
            except IllegalAction as err:
                assert str(err)
            else:
                raise AssertionError(f"{action} was accepted but is not in legal_actions()")
        assert state._key() == key and state.to_json() == text


@settings(max_examples=30, deadline=None)
@given(setups, timings, seeds, st.data())
def test_json_round_trips_to_an_equal_state(setup, timing, seed, data):
    states = random_game(setup, timing, seed)
    state = states[data.draw(st.integers(0, len(states) - 1))]
    again = state.game.state_from_json(state.to_json())
    assert again == state and hash(again) == hash(state)


@settings(max_examples=30, deadline=None)
@given(setups, timings, seeds)
def test_chance_outcomes_sum_to_one_and_legal_lists_agree(setup, timing, seed):
    rng = random.Random(seed)
    for state in random_game(setup, timing, seed)[::5]:
        outcomes = state.chance_outcomes()
        if state.current_player == CHANCE:
            assert sum(p for _, p in outcomes) == 1 and all(isinstance(p, Fraction) for _, p in outcomes)
            assert [a for a, _ in outcomes] == state.legal_actions()
        else:
            assert outcomes == []
        legal = state.legal_actions()
        assert len(set(legal)) == len(legal), "one action per distinct effect"
        if legal and state.current_player >= 0:
            assert state.random_action(rng) in legal
            targets = state.legal_targets()
            assert set(targets["grow-out"]) == {a.cell for a in legal if isinstance(a, GrowOut)}
            assert set(targets["grow-up"]) == {a.cell for a in legal if isinstance(a, GrowUp)}
            assert set(targets["seed"]) == {a.cell for a in legal if isinstance(a, Seed)}


@pytest.mark.slow  # a second or more of CPU: make test runs it, test-quick does not
@settings(max_examples=20, deadline=None)
@given(setups, seeds)
def test_no_area_stays_closed_off_after_a_tree(setup, seed):
    """Cascades (each-tree): after every action in the turns, each empty area touches both players."""
    for state in random_game(setup, "each-tree", seed)[::3]:
        if state.phase in (Phase.PLANT, Phase.ROLL_SUN, Phase.ROLL_WIND):
            for area, touching in regions(state):
                assert touching == {0, 1}, f"{len(area)} spaces closed off for one player: {state.summary()}"


@settings(max_examples=10, deadline=None)
@given(seeds)
def test_random_action_is_uniform_over_legal_actions(seed):
    """Every legal action of one position can come out of random_action, and nothing else."""
    states = random_game(2, "each-tree", seed)
    state = next(s for s in states[len(states) // 3:] if s.phase is Phase.PLANT and s.hand(s.current_player))
    legal = set(state.legal_actions())
    rng = random.Random(seed)
    drawn = {state.random_action(rng) for _ in range(60 * len(legal))}
    assert drawn == legal


@settings(max_examples=10, deadline=None)
@given(setups, seeds)
def test_every_legal_action_has_words(setup, seed):
    """describe() has a sentence for every legal action, and every state says what just happened."""
    for state in random_game(setup, "each-tree", seed)[::11]:
        assert state.last_event and state.explain()
        for action in state.legal_actions():
            sentence = state.describe(action)
            assert sentence.endswith(".") and len(sentence) > 10
