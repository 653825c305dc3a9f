"""The OpenSpiel adapter (optional extra ``openspiel``): our games as pyspiel games, checked by OpenSpiel itself.

Skipped when open_spiel is not installed.
"""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from treegames import core  # noqa: E402
from treegames import openspiel as adapter  # noqa: E402

pytestmark = pytest.mark.slow  # seconds of search or processes per test: not in make test-quick

SPECS = ["treegames_aspens", "treegames_bosk", "treegames_bosk(players=3)", "treegames_mighty_trees",
         "treegames_mighty_trees(players=4)"]


def test_every_game_is_registered_under_its_short_name():
    names = adapter.register()
    assert names == [f"treegames_{name}" for name in core.game_names()]
    assert names == [adapter.short_name(name) for name in core.game_names()]
    assert set(names) <= set(pyspiel.registered_names())


@pytest.mark.parametrize("spec", SPECS)
def test_openspiels_random_simulation_test_passes(spec):
    game = pyspiel.load_game(spec)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_a_game_played_through_pyspiel_is_the_same_game_as_ours():
    game = pyspiel.load_game("treegames_bosk(players=2)")
    rng = random.Random(3)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            ids, probabilities = zip(*state.chance_outcomes(), strict=True)
            assert abs(sum(probabilities) - 1.0) < 1e-12
            state.apply_action(rng.choices(ids, probabilities)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    ours = core.replay(core.games()["bosk"].new_game(players=2), [str(a) for a in state.ours.history])
    assert ours == state.ours
    assert state.returns() == [1.0 if p in ours.winners() and len(ours.winners()) == 1 else
                               (1.0 / len(ours.winners()) if p in ours.winners() else 0.0) for p in range(2)]


def test_mighty_trees_observations_show_only_the_players_view():
    game = pyspiel.load_game("treegames_mighty_trees")
    state = game.new_initial_state()
    rng = random.Random(1)
    while state.is_chance_node():
        ids, probabilities = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(ids, probabilities)[0])
    player = state.current_player()
    seen = state.observation_string(player)
    assert seen == repr(state.ours.view_for(player))
    other = state.clone()
    ours = other.ours._draft()  # swap a card between the other player's Command and the draw pile
    theirs, pile = core.bits(ours.hands[1 - player])[0], ours.draw[0]
    hands = list(ours.hands)
    hands[1 - player] = hands[1 - player] & ~(1 << theirs) | (1 << pile)
    ours.hands, ours.draw = tuple(hands), tuple(sorted(set(ours.draw) - {pile} | {theirs}))
    ours.__class__ = type(state.ours)
    other.ours = ours
    assert other.observation_string(player) == seen
    assert other.observation_string(1 - player) != state.observation_string(1 - player)


def test_openspiels_mcts_plays_a_legal_move_in_our_games():
    mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")
    np = pytest.importorskip("numpy")
    for spec in ("treegames_bosk", "treegames_aspens"):
        game = pyspiel.load_game(spec)
        state = game.new_initial_state()
        rng = random.Random(2)
        while state.is_chance_node() or len(state.legal_actions()) < 2:
            if state.is_chance_node():
                ids, probabilities = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(ids, probabilities)[0])
            else:
                state.apply_action(state.legal_actions()[0])
        bot = mcts.MCTSBot(game, 1.4, 20, mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)),
                           random_state=np.random.RandomState(1))
        assert bot.step(state) in state.legal_actions()
