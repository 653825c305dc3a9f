"""Random-playout conformance: every game keeps the shared protocol of treegames.core at every step.

The second half checks the completed protocol the same way over every game: every game
declares a GameType with an option schema; ``new_game`` refuses what the schema does not
allow; every state pickles, copies and deep-copies to an equal state, is immutable, has
``last_event`` as a property and ``describe``, parses notation in ``apply``, lists the
actions at a named place, and is never stuck: a state that is not terminal always has a
legal action (random and greedy playouts of every game).
"""

from __future__ import annotations

import copy
import dataclasses
import json
import pickle
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import treegames
from treegames import core
from treegames.search import CoachBot

GAMES = [
    ("aspens", {}),
    ("aspens", {"setup": 6}),
    ("bosk", {"players": 2}),
    ("bosk", {"players": 4}),
    ("mighty_trees", {"players": 2}),
    ("mighty_trees", {"players": 5}),
    ("pig", {}),  # the fourth game: a plug-in under tests/plugins, registered by its own entry point
    ("pig", {"players": 4, "goal": 20}),
]


def module_allows_draws(game) -> bool:
    """Only Mighty Trees ends in a draw (its max_turns option)."""
    return game.name == "mighty_trees"


def make(module: str, options: dict):
    """A game from its module's new_game."""
    return treegames.game_module(module).new_game(**options)


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


@pytest.mark.slow  # whole random games in every game and option: make test runs them, test-quick does not
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


@pytest.mark.parametrize("module", list(core.game_names()))
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


@pytest.mark.slow  # whole random games in every game and option: make test runs them, test-quick does not
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


# ============================================================================ the completed protocol

PROTOCOL_GAMES = [
    ("aspens", {}),
    ("aspens", {"setup": 5, "cascade_timing": "end-of-turn"}),
    ("bosk", {"players": 2}),
    ("bosk", {"players": 3}),
    ("bosk", {"players": 4}),
    ("mighty_trees", {"players": 2}),
    ("mighty_trees", {"players": 4, "two_sided_disasters": True}),
    ("pig", {"players": 3, "goal": 50}),
]
PROTOCOL_IDS = [f"{name}-{'-'.join(str(v) for v in options.values()) or 'default'}" for name, options in PROTOCOL_GAMES]
PRODUCT = ["aspens", "bosk", "mighty_trees"]
"""The product's games (treegames' own entry points)."""
NAMES = list(core.game_names())
"""Every registered game: the product's and the tests' Pig (tests/plugins/pig)."""

def make_game(name: str, options: dict):
    """A game from its package's new_game."""
    return treegames.game_module(name).new_game(**options)


def places_of(state, action) -> list[str]:
    """The places (as actions_at names them) that a player's action involves, per game."""
    name = state.game.name
    if name == "aspens":
        cell = getattr(action, "cell", None)
        return [_aspens_name(cell)] if cell is not None else []
    if name == "pig":
        return [str(action)]  # its places are its two moves, 'roll' and 'hold'
    if name == "bosk":
        kind = action.kind.value
        if kind in ("tree", "autumn tree"):
            return [f"{chr(97 + action.col)}{action.row + 1}"]
        if kind in ("leaf", "squirrel"):
            return [f"{chr(65 + action.col)}{action.row + 1}"]
        return []
    from treegames.mighty_trees.data import DECK  # the card names

    out = []
    if action.card >= 0 and action.verb.value not in ("habitat",):
        out.append(DECK[action.card].name)
    if action.verb.value == "grow":
        out.append(f"P{state.mover + 1} understory {action.slot + 1}")
    elif action.verb.value == "discard" and action.place != "hand":
        out.append(f"P{state.mover + 1} {action.place} {action.slot + 1}")
    if action.verb.value == "plant" and action.player >= 0:
        out += [f"P{action.player + 1}", f"P{action.player + 1} {action.place} {action.slot + 1}"]
    if action.verb.value == "disaster" and action.player >= 0:
        out.append(f"P{action.player + 1}")
    return out


def _aspens_name(cell) -> str:
    from treegames.aspens import cell_name

    return cell_name(cell)


def playout(game, seed: int, greedy: bool):
    """Every state of one seeded game: RandomBots, or GreedyBots made from the GameType."""
    kind = "greedy" if greedy else "random"
    bots = [game.game_type.bots[kind](random.Random(seed * 10 + p)) for p in range(game.num_players)]
    return core.play(game, bots, random.Random(seed), keep=True)


# ---------------------------------------------------------------------------- game types and options


def test_games_lists_every_game_type_by_name():
    types = treegames.games()
    assert list(types) == NAMES == [*PRODUCT, "pig"]
    for name, game_type in types.items():
        module = treegames.game_module(name)
        package = "pig_game" if name == "pig" else f"treegames.{name}"
        assert isinstance(game_type, core.GameType) and game_type.name == name
        # the plug-in's type is the engine's own, with the coach's bots added (the engine never imports the coach)
        assert module.GAME_TYPE == game_type and module.__name__ == package
        assert set(module.GAME_TYPE.bots) == {"greedy", "random"}
        assert game_type.title and game_type.players and all(type(n) is int for n in game_type.players)
        assert set(game_type.bots) == {"greedy", "random", "coach-easy", "coach-medium", "coach-hard"}
        assert game_type.bots["random"] is core.RandomBot
        assert all(issubclass(game_type.bots[f"coach-{level}"], CoachBot) for level in ("easy", "medium", "hard"))
        assert module.GreedyBot is game_type.bots["greedy"]
        game = module.new_game()
        assert game.game_type is game_type and game.num_players == min(game_type.players)


def test_game_module_refuses_an_unknown_game():
    with pytest.raises(core.OptionError, match="aspens, bosk, mighty_trees"):
        treegames.game_module("chess")


@pytest.mark.parametrize("name", NAMES)
def test_the_option_schema_is_complete(name):
    game_type = treegames.game_module(name).GAME_TYPE
    names = [o.name for o in game_type.options]
    assert len(set(names)) == len(names)
    assert ("players" in names) == (len(game_type.players) > 1)
    assert game_type.defaults() == {o.name: o.default for o in game_type.options}
    for option in game_type.options:
        assert isinstance(option, core.Option) and game_type.option(option.name) is option
        assert option.meaning.strip() and option.allows(option.default)
        assert isinstance(option.values, (tuple, range)) and len(option.values) >= 2
    with pytest.raises(core.OptionError, match="no option 'colour'"):
        game_type.option("colour")
    made = treegames.game_module(name).new_game()
    saved = {k: v for k, v in game_type.defaults().items() if k != "players"}
    assert {k: made.options[k] for k in saved} == saved, "new_game() uses the schema's defaults"
    assert json.loads(json.dumps(made.options)) == made.options


@pytest.mark.parametrize("name", NAMES)
def test_every_allowed_option_value_makes_a_game(name):
    game_type = treegames.game_module(name).GAME_TYPE
    for option in game_type.options:
        values = option.values
        for value in (values[0], values[-1]) if isinstance(values, range) else values:
            game = game_type.new_game(**{option.name: value})
            got = game.num_players if option.name == "players" else game.options[option.name]
            assert got == value
            assert game.new_initial_state().legal_actions()


@pytest.mark.parametrize("name", NAMES)
def test_new_game_refuses_an_unknown_option_naming_the_options(name):
    game_type = treegames.game_module(name).GAME_TYPE
    with pytest.raises(core.OptionError, match="no_such_option") as err:
        game_type.new_game(no_such_option=1)
    assert all(o.name in str(err.value) for o in game_type.options)


@pytest.mark.parametrize("name", NAMES)
def test_new_game_refuses_a_value_outside_the_schema_naming_the_allowed_values(name):
    game_type = treegames.game_module(name).GAME_TYPE
    for option in game_type.options:
        values = option.values
        bad = [values.stop, values.start - 1, 2.0, "10"] if isinstance(values, range) else ["nonsense", 99, 1.5]
        for value in bad:
            if option.allows(value):
                continue
            with pytest.raises(core.OptionError) as err:
                game_type.new_game(**{option.name: value})
            message = str(err.value)
            assert option.name in message and option.shown_values() in message


# ---------------------------------------------------------------------------- states


def check_protocol_state(state, game, rng: random.Random) -> None:
    """The completed protocol's promises at one state."""
    assert isinstance(state, core.FrozenState)
    event = state.last_event
    assert isinstance(event, str) and event.strip(), "last_event is a property holding a sentence"
    assert "last_event" not in type(state)._FIELDS, "last_event is not part of equality"
    legal = state.legal_actions()
    if not state.is_terminal():
        assert legal, f"a state that is not terminal has a legal action ({state.phase})"
    for action in rng.sample(legal, min(3, len(legal))):
        text = state.describe(action)
        assert isinstance(text, str) and text.strip()
        assert state.describe(str(action)) == text, "describe reads notation too"
    if state.current_player >= 0:
        for action in rng.sample(legal, min(4, len(legal))):
            for place in places_of(state, action):
                found = state.actions_at(place)
                assert action in found, f"{action} is missing from actions_at({place!r})"
                assert all(a in legal for a in found)


def check_copies(state, pickled: bool) -> None:
    """copy.copy, copy.deepcopy (and, if ``pickled``, pickle) give an equal state that plays on the same."""
    copies = [copy.copy(state), copy.deepcopy(state), copy.deepcopy([state, state])[1]]
    if pickled:
        copies.append(pickle.loads(pickle.dumps(state)))
    for again in copies:
        assert again == state and hash(again) == hash(state)
        assert again.history == state.history and again.legal_actions() == state.legal_actions()
        assert again.last_event == state.last_event


@pytest.mark.parametrize("name, options", PROTOCOL_GAMES, ids=PROTOCOL_IDS)
@pytest.mark.parametrize("greedy", [False, True], ids=["random", "greedy"])
def test_playouts_keep_the_completed_protocol(name, options, greedy):
    game = make_game(name, options)
    states = playout(game, seed=5, greedy=greedy)
    rng = random.Random(9)
    assert states[-1].is_terminal()
    for index, state in enumerate(states):
        check_protocol_state(state, game, rng)
        check_copies(state, pickled=index % 23 == 0 or index == len(states) - 1)
        if index and index % 17 == 0:
            before, action = states[index - 1], state.history[-1]
            assert before.apply(str(action)) == before.apply(action) == state, "apply parses notation"


@pytest.mark.parametrize("name, options", PROTOCOL_GAMES[::2], ids=PROTOCOL_IDS[::2])
def test_states_are_immutable(name, options):
    game = make_game(name, options)
    state = playout(game, seed=3, greedy=False)[10]
    slots = [s for klass in type(state).__mro__ for s in getattr(klass, "__slots__", ())]
    assert slots
    for slot in slots:
        with pytest.raises(AttributeError, match="immutable"):
            setattr(state, slot, None)
        with pytest.raises(AttributeError, match="immutable"):
            delattr(state, slot)
    with pytest.raises(AttributeError):
        state.anything_new = 1


@pytest.mark.parametrize("name", NAMES)
def test_notation_errors_are_illegal_actions_and_change_nothing(name):
    module = treegames.game_module(name)
    assert issubclass(module.NotationError, core.NotationError)
    assert issubclass(module.NotationError, core.IllegalAction)
    state = module.new_game().new_initial_state()
    before = state.to_json()
    for text in ("fly to the moon", "", "x" * 10_000, "end ١", 7):
        if isinstance(text, str):
            with pytest.raises(module.NotationError) as err:
                state.apply(text)
            assert len(str(err.value)) < 400, "a bad text is quoted short"
        with pytest.raises(module.NotationError):
            state.parse_action(text)
        with pytest.raises(module.NotationError):
            state.actions_at(text)
    assert state.to_json() == before


@pytest.mark.parametrize("name", NAMES)
def test_a_huge_number_in_a_saved_game_names_the_entry(name):
    game = treegames.game_module(name).new_game()
    data = json.loads(game.new_initial_state().to_json())
    text = json.dumps(data)[:-2] + "9" * 5000 + "]}"
    with pytest.raises(core.SavedGameError, match=r"history\[0\].*5000-digit number"):
        game.state_from_json(text)
    data["history"] = ["first " + "9" * 5000]
    with pytest.raises(core.SavedGameError, match=r"history\[0\]") as err:
        game.state_from_json(json.dumps(data))
    assert len(str(err.value)) < 400


@pytest.mark.parametrize("name", NAMES)
def test_a_huge_saved_game_entry_is_quoted_once_and_short(name):
    game = treegames.game_module(name).new_game()
    rng = random.Random(1)
    state = core.play(game, [core.RandomBot(rng)] * game.num_players, rng, keep=True)[30]
    data = json.loads(state.to_json())
    for bad, mark in (("z" * 10_000_000, "z"), ("grow " + "1" * 150, "1"), ("seed " + "Q" * 120, "Q")):
        data["history"][4] = bad
        with pytest.raises(core.SavedGameError, match=r"history\[4\]") as err:
            game.state_from_json(json.dumps(data))
        message = str(err.value)
        assert len(message) < 400 and message.count(mark) <= 90, "quoted at most once, cut to about 80"
    data["options"] = {"x": "y" * 1_000_000}
    with pytest.raises(core.SavedGameError, match="'options'") as err:
        game.state_from_json(json.dumps(data))
    assert len(str(err.value)) < 400


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(PROTOCOL_GAMES), st.integers(0, 10**6), st.booleans())
def test_no_state_short_of_the_end_is_ever_stuck(spec, seed, greedy):
    """Property: in random and greedy playouts of every game, a state that is not terminal has a legal action."""
    name, options = spec
    for state in playout(make_game(name, options), seed, greedy):
        assert state.is_terminal() or state.legal_actions(), f"stuck at {state.phase} after {len(state.history)}"
        if state.current_player >= 0:
            assert not state.is_terminal()
