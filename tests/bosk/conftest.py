"""Shared positions for the Bosk tests (a worked 2-player spring on the 2-player side)."""

from __future__ import annotations

import pytest

from treegames import core
from treegames.bosk import new_game

# Maple (player 1) starts; players alternate Maple, Oak, Maple, ...
SPRING_2P = [
    "tree 1 at c3", "tree 1 at d3",
    "tree 1 at f3", "tree 1 at e4",
    "tree 2 at c5", "tree 2 at b6",
    "tree 2 at f5", "tree 2 at g6",
    "tree 3 at d2", "tree 3 at c7",
    "tree 3 at e6", "tree 3 at f7",
    "tree 4 at b4", "tree 4 at d5",
    "tree 4 at g4", "tree 4 at e2",
]


def _play(game, actions):
    """Replay notation from the start of ``game``."""
    return core.replay(game, actions)


@pytest.fixture
def game2():
    """A default 2-player game."""
    return new_game(2)


@pytest.fixture
def spring_done(game2):
    """The worked spring: all 16 trees grown, summer not yet scored."""
    return _play(game2, ["start player 1", *SPRING_2P])


@pytest.fixture
def autumn(game2):
    """After the worked spring, summer, and the wind board on the north side (wind blows south)."""
    return _play(game2, ["start player 1", *SPRING_2P, "score summer", "wind from north"])


@pytest.fixture
def play():
    """Apply notation strings to a state, one by one."""

    def run(state, *actions):
        for text in actions:
            state = state.apply(state.parse_action(text))
        return state

    return run
