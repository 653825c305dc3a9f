"""Random-playout conformance: every game keeps the shared protocol of treegames.core at every step."""

from __future__ import annotations

import dataclasses
import importlib
import random
from fractions import Fraction

import pytest

from treegames import core

GAMES = [
    ("aspens", {}),
    ("aspens", {"setup": 6}),
    ("bosk", {"players": 2}),
    ("bosk", {"players": 4}),
    ("mighty_trees", {"players": 2}),
    ("mighty_trees", {"players": 5}),
]


def module_allows_draws(game) -> bool:
    """Only Mighty Trees ends in a draw (its max_turns option)."""
    return game.name == "mighty_trees"


def make(module: str, options: dict):
    """A game from its module's new_game."""
    return importlib.import_module(f"treegames.{module}").new_game(**options)


def check_state(state, game) -> None:
    """The protocol's promises at one state."""
    assert isinstance(state.phase, str) and state.phase
    assert isinstance(state.explain(), str) and state.explain().strip()
    player = state.current_player
    if state.is_terminal():
        assert player == core.TERMINAL and state.legal_actions() == []
        assert set(state.winners()) <= set(range(game.num_players))  # empty only for a draw (Mighty Trees)
        assert state.winners() or module_allows_draws(game)
    elif player == core.CHANCE:
        outcomes = state.chance_outcomes()
        assert outcomes and sum(p for _, p in outcomes) == 1
        assert all(isinstance(p, Fraction) and p > 0 for _, p in outcomes)
        assert [a for a, _ in outcomes] == list(state.legal_actions())
    else:
        assert 0 <= player < game.num_players
        assert state.legal_actions(), "a player to move always has something to do"
        assert state.winners() == ()
    scores = state.scores()
    assert len(scores) == game.num_players and all(isinstance(s, int) for s in scores)


@pytest.mark.parametrize("module, options", GAMES, ids=[f"{m}-{o}" for m, o in GAMES])
@pytest.mark.parametrize("seed", [1, 2])
def test_random_playout_keeps_the_protocol(module, options, seed):
    game = make(module, options)
    assert isinstance(game, core.Game) and game.name == module
    rng = random.Random(seed)
    bots = [core.RandomBot(random.Random(seed * 10 + p)) for p in range(game.num_players)]
    state = game.new_initial_state()
    assert isinstance(state, core.State)
    snapshots = 0
    while not state.is_terminal():
        check_state(state, game)
        action = core.sample_chance(state, rng) if state.current_player == core.CHANCE else \
            bots[state.current_player].choose(state)
        assert state.parse_action(str(action)) == action, f"notation must read back: {action}"
        before = state.to_json()
        nxt = state.apply(action)
        assert state.to_json() == before, "apply must not change the old state"
        assert nxt.history == state.history + (action,)
        if rng.random() < 0.02:
            assert game.state_from_json(nxt.to_json()) == nxt
            snapshots += 1
        state = nxt
    check_state(state, game)
    assert game.state_from_json(state.to_json()) == state


@pytest.mark.parametrize("module, options", GAMES[::2], ids=[m for m, _ in GAMES[::2]])
def test_an_illegal_action_is_refused_and_changes_nothing(module, options):
    game = make(module, options)
    state = game.new_initial_state()
    legal = state.legal_actions()
    before = state.to_json()
    with pytest.raises(core.IllegalAction) as err:
        state.apply("not an action")
    assert str(err.value)
    assert state.to_json() == before and state.legal_actions() == legal


@pytest.mark.parametrize("module", ["aspens", "bosk", "mighty_trees"])
def test_a_bad_option_names_the_allowed_values(module):
    with pytest.raises(ValueError, match="no_such_option") as err:
        make(module, {"no_such_option": 1})
    assert any(name in str(err.value) for name in make(module, {}).options), "the message lists the real options"


JUNK = (None, 1.0, True, "E", (1.5, 2.0), -1, 10**6)


def variants(action):
    """The action with one field at a time replaced by a value of the wrong type or range."""
    if dataclasses.is_dataclass(action):
        names = [f.name for f in dataclasses.fields(action)]
        build = lambda **kw: dataclasses.replace(action, **kw)  # noqa: E731
    elif hasattr(action, "_replace"):
        names = list(action._fields)
        build = action._replace
    else:
        return
    for name in names:
        for junk in JUNK:
            try:
                yield build(**{name: junk})
            except (TypeError, ValueError):
                continue


@pytest.mark.parametrize("module, options", GAMES[::2], ids=[m for m, _ in GAMES[::2]])
def test_actions_with_wrong_typed_fields_are_refused_or_saved_faithfully(module, options):
    """A tampered action either raises IllegalAction or leads to a state whose save reloads equal."""
    game = make(module, options)
    rng = random.Random(3)
    bots = [core.RandomBot(random.Random(30 + p)) for p in range(game.num_players)]
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal() and checked < 400:
        if rng.random() < 0.15:
            for legal in state.legal_actions()[:3]:
                for bad in variants(legal):
                    before = state.to_json()
                    try:
                        nxt = state.apply(bad)
                    except core.IllegalAction:
                        assert state.to_json() == before
                        continue
                    assert game.state_from_json(nxt.to_json()) == nxt, f"{bad!r} was accepted but cannot be saved"
                    checked += 1
        action = core.sample_chance(state, rng) if state.current_player == core.CHANCE else \
            bots[state.current_player].choose(state)
        state = state.apply(action)
