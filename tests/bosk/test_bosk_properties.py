"""Property tests for 2, 3 and 4 players: games end, leaves are conserved, apply never mutates,
saved games round-trip, and every action that is not legal is refused naming a rule."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from treegames import core
from treegames.bosk import LEAVES_PER_PLAYER, Action, Kind, Phase, new_game

RULE_NAMES = re.compile(
    r"Setup|Spring|Summer|Autumn|Falling Leaves|Leaf Placement|Covering other leaves|Squirrel|Winter|"
    r"End of the Game"
)


def all_actions(game) -> list[Action]:
    """Every action of every kind on this park, legal or not (edges included)."""
    n = game.park.size
    acts = [Action(Kind.START, value=p) for p in range(game.num_players)]
    acts += [Action(Kind.SUMMER), Action(Kind.WINTER)]
    acts += [Action(Kind.WIND, value=d) for d in range(4)]
    for r in range(n + 1):
        for c in range(n + 1):
            acts += [Action(Kind.TREE, r, c, v) for v in (1, 2, 3, 4)]
            acts += [Action(Kind.CHOOSE, r, c, t) for t in (2, 3, 4, 5, 6, 7, 8, 0)]
    for r in range(n):
        for c in range(n):
            acts += [Action(Kind.LEAF, r, c), Action(Kind.SQUIRREL, r, c)]
    return acts


def random_game(players: int, seed: int) -> list:
    """Every state of one seeded random game."""
    rng = random.Random(seed)
    return core.play(new_game(players), [core.RandomBot(rng)] * players, rng, keep=True)


def check_leaf_conservation(state) -> None:
    """Board + supply + active = 36 for every player."""
    for p in range(state.num_players):
        total = state.leaves_on_board(p) + state.supply_of(p) + state.active_of(p)
        assert total == LEAVES_PER_PLAYER, (p, state.history[-1:])
        assert state.supply_of(p) >= 0 and state.active_of(p) >= 0


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_games_end_conserve_leaves_and_never_mutate(players, seed):
    states = random_game(players, seed)
    final = states[-1]
    assert final.is_terminal() and len(final.winners()) == 1
    for before, after in zip(states, states[1:], strict=False):
        check_leaf_conservation(after)
        assert after.history[:-1] == before.history
        assert after.previous is before
    # apply never mutates: re-applying a recorded action leaves the old state equal and rebuilds the next
    rng = random.Random(seed)
    for k in rng.sample(range(len(states) - 1), 10):
        state, nxt = states[k], states[k + 1]
        key = state._key()
        again = state.apply(nxt.history[-1])
        assert state._key() == key and again == nxt and again is not nxt


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_json_round_trips_to_an_equal_state(players, seed):
    states = random_game(players, seed)
    rng = random.Random(seed)
    game = new_game(players)
    for state in [states[0], states[-1], *rng.sample(states, 3)]:
        again = game.state_from_json(state.to_json())
        assert again == state and hash(again) == hash(state)
        assert again.explain() == state.explain()


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_every_non_legal_action_is_refused_naming_a_rule(players, seed):
    states = random_game(players, seed)
    universe = all_actions(new_game(players))
    rng = random.Random(seed)
    for state in rng.sample(states, 8):
        legal = set(state.legal_actions())
        key = state._key()
        for action in legal:
            assert state.apply(action).history[-1] == action
        for action in rng.sample([a for a in universe if a not in legal], 40):
            with pytest.raises(core.IllegalAction) as err:
                state.apply(action)
            assert RULE_NAMES.search(str(err.value)), str(err.value)
        assert state._key() == key


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_notation_round_trips_and_random_action_is_legal(players, seed):
    states = random_game(players, seed)
    rng = random.Random(seed)
    for state in states[:-1]:
        legal = state.legal_actions()
        for action in legal[:20]:
            assert state.parse_action(str(action)) == action
        assert state.random_action(rng) in legal
        assert state.explain() and state.last_event
        if state.current_player == core.CHANCE:
            assert state.phase is Phase.START_PLAYER and state.chance_outcomes()
        else:
            assert state.chance_outcomes() == []
