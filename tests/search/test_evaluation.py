"""Evaluations: each player's chance to win, from every game's features; the fit and the calibration they rest on."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from treegames import core
from treegames.search import Budget, CoachEasy, Search, SearchError
from treegames.search.evaluation import (
    EvaluationError,
    Sample,
    WinModel,
    brier,
    calibration,
    fit,
    model_for,
    self_play,
    softmax,
)

GAMES_WITH_ONE = ["aspens", "bosk", "mighty_trees"]


def position(name: str, seed: int, steps: int, players: int = 2):
    """A position ``steps`` random actions into a seeded game."""
    game_type = core.games()[name]
    game = game_type.new_game(**({"players": players} if len(game_type.players) > 1 else {}))
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        state = state.apply(core.sample_chance(state, rng) if state.current_player == core.CHANCE
                            else rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("name", GAMES_WITH_ONE)
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 300))
def test_every_position_gets_finite_chances_that_sum_to_one(name, seed, steps):
    state = position(name, seed, steps)
    model = model_for(name)
    chances = model.chances(state)
    assert len(chances) == state.game.num_players
    assert math.isclose(sum(chances), 1.0) and all(0.0 <= c <= 1.0 for c in chances)
    assert len(model.features(state, 0)) == len(model.names) == len(model.weights)


@pytest.mark.parametrize("name", GAMES_WITH_ONE)
def test_a_finished_game_is_given_its_real_result(name):
    state = position(name, 3, 100_000)
    assert state.is_terminal()
    chances = model_for(name).chances(state)
    winners = state.winners()
    assert all(chances[p] > 0 for p in winners) and all(chances[p] == 0 for p in range(len(chances)) if p not in winners)


def test_four_bosk_players_get_four_chances():
    state = position("bosk", 1, 60, players=4)
    assert len(model_for("bosk").chances(state)) == 4


def test_a_game_without_an_evaluation_says_so():
    with pytest.raises(EvaluationError, match="has no evaluation"):
        model_for("pig")
    with pytest.raises(SearchError, match="has no evaluation"):
        Search(position("pig", 1, 3), random.Random(1), leaf_depth=2)


def test_the_fit_recovers_the_weights_that_made_the_outcomes():
    """Synthetic two-player samples drawn from a known logistic model: the fit lands near its weights."""
    rng = random.Random(7)
    truth = (1.5, -0.8)
    samples = []
    for _ in range(4000):
        rows = tuple((rng.gauss(0, 1), rng.gauss(0, 1)) for _ in range(2))
        chance = softmax([sum(w * x for w, x in zip(truth, row, strict=True)) for row in rows])[0]
        won = rng.random() < chance
        samples.append(Sample(rows, (1.0, 0.0) if won else (0.0, 1.0), 0.5))
    weights = fit(samples)
    assert weights == pytest.approx(truth, abs=0.15)


def test_nothing_to_fit_is_refused():
    with pytest.raises(EvaluationError, match="nothing to fit"):
        fit([])


@pytest.mark.slow
def test_the_fitted_mighty_trees_evaluation_beats_the_fair_share_on_other_seeds_and_is_calibrated():
    name = "mighty_trees"
    game = core.games()[name].new_game()
    model = model_for(name)
    held_out = self_play(game, model, ("greedy", "random"), 80, seed=99)
    assert brier(model, held_out) < 0.2, "better than guessing a half each time (0.25)"
    for row in calibration(model, held_out, bins=5):
        if row.count >= 60:
            assert abs(row.predicted - row.observed) < 0.15, row
    flat = model.with_weights((0.0,) * len(model.weights))
    assert brier(flat, held_out) == pytest.approx(0.25)


def test_a_search_with_evaluated_leaves_plays_a_legal_move_in_every_game():
    for name in GAMES_WITH_ONE:
        state = position(name, 11, 40)
        while state.current_player < 0 and not state.is_terminal():
            state = state.apply(core.sample_chance(state, random.Random(1)))
        search = Search(state, random.Random(2), leaf_depth=4)
        search.think(Budget(iterations=30))
        assert search.best() in state.legal_actions()
        assert CoachEasy(random.Random(3), leaf_depth=0).choose(state) in state.legal_actions()


def test_a_leaf_depth_must_be_a_whole_number_of_actions():
    state = position("aspens", 1, 10)
    while state.current_player < 0:
        state = state.apply(core.sample_chance(state, random.Random(1)))
    with pytest.raises(SearchError, match="leaf_depth"):
        Search(state, random.Random(1), leaf_depth=-1)


def test_a_model_with_other_weights_keeps_its_features():
    model = WinModel(("x",), (1.0,), lambda state, p: (float(p),))
    assert model.with_weights([2]).weights == (2.0,) and model.with_weights([2]).features is model.features
