"""The one protocol every treegames engine follows, and the helpers built on it.

The shape follows OpenSpiel's Python games: a *game* describes the rules and
options; a *state* is one moment of play.  Engines import nothing from
ipywidgets, ipycanvas or IPython, so they run (and are tested) without Jupyter.

The protocol
------------
Each game module (``treegames.aspens``, ``treegames.bosk``,
``treegames.mighty_trees``) has ``new_game(**options) -> Game``.

A :class:`Game` has

* ``name`` -- a short identifier such as ``"aspens"``;
* ``num_players``;
* ``options`` -- a dict of the named options it was made with (JSON-safe);
* ``new_initial_state()`` -- the state before the first action;
* ``state_from_json(text)`` -- rebuild a saved state (see *Saved games*).

A :class:`State` is immutable: ``apply(action)`` returns a *new* state and
never changes the old one, so undo and time travel are just a list of states.
A state has

* ``current_player`` -- a player index, or :data:`CHANCE` / :data:`TERMINAL`;
* ``phase`` -- the rulebook step now in force, a short string;
* ``legal_actions()`` -- the actions allowed now (at a chance node: its outcomes);
* ``chance_outcomes()`` -- at chance nodes only, ``(action, Fraction)`` pairs
  whose probabilities sum exactly to 1;
* ``apply(action)`` -- the next state; raises :class:`IllegalAction` (a
  ``ValueError``) naming the broken rule for anything not legal, leaving the
  state as it was;
* ``is_terminal()``, ``scores()`` (a tuple of ints), ``winners()`` (a tuple of
  player indices, empty until the game is over; a shared victory holds several);
* ``history`` -- the tuple of actions applied so far (chance outcomes included);
* ``to_json()`` -- a saved game;
* ``explain()`` -- plain words on what the rules say at this moment, naming the
  rulebook section;
* ``parse_action(text)`` -- the action written as ``str(action)``.

Actions are small immutable values (enums, tuples, frozen dataclasses) whose
``str`` is readable notation that ``parse_action`` reads back.

Chance
------
Dice, the first player and card draws are chance nodes with exact
``fractions.Fraction`` odds.  Sampling takes an injected ``random.Random``;
nothing in treegames touches the global ``random`` module.

Saved games
-----------
``to_json()`` writes the game's name, options and history in notation.
``state_from_json`` never trusts the file: it rebuilds the state by replaying
the recorded history through the rules, so a tampered file can only ever
yield a state the rules allow.  Malformed, truncated or tampered text raises
:class:`SavedGameError` (a ``ValueError``) naming the field at fault.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Hashable, Iterable, Sequence
from fractions import Fraction
from typing import Any, Protocol, runtime_checkable

__all__ = [
    "CHANCE",
    "TERMINAL",
    "SAVE_FORMAT",
    "IllegalAction",
    "SavedGameError",
    "Game",
    "State",
    "Bot",
    "RandomBot",
    "sample_chance",
    "replay",
    "play",
    "check_options",
    "check_player_count",
]

CHANCE = -1
"""``current_player`` at a chance node (a die roll, a shuffle, a draw)."""

TERMINAL = -2
"""``current_player`` once the game is over."""

SAVE_FORMAT = "treegames-save/1"
"""The ``format`` field written by every ``to_json()``."""

Action = Hashable


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message names the rule."""


class SavedGameError(ValueError):
    """A saved game that is malformed, truncated or breaks the rules."""


@runtime_checkable
class Game(Protocol):
    """The rules and options of one game; makes states."""

    name: str
    num_players: int
    options: dict[str, Any]

    def new_initial_state(self) -> State:
        """The state before the first action (often a chance node)."""
        ...

    def state_from_json(self, text: str) -> State:
        """Rebuild a saved state by replaying its history through the rules."""
        ...


@runtime_checkable
class State(Protocol):
    """One immutable moment of play."""

    history: tuple

    @property
    def current_player(self) -> int:
        """A player index, or CHANCE, or TERMINAL."""
        ...

    @property
    def phase(self) -> str:
        """The rulebook step in force now."""
        ...

    def legal_actions(self) -> list: ...

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]: ...

    def apply(self, action: Action) -> State: ...

    def is_terminal(self) -> bool: ...

    def scores(self) -> tuple[int, ...]: ...

    def winners(self) -> tuple[int, ...]: ...

    def to_json(self) -> str: ...

    def explain(self) -> str: ...

    def parse_action(self, text: str) -> Action: ...


# --------------------------------------------------------------------------
# Options


def check_options(given: dict[str, Any], allowed: dict[str, Sequence | type]) -> None:
    """Raise ValueError naming the option and its allowed values if any is wrong.

    ``allowed`` maps each option name to either a sequence of allowed values or
    a type (``bool``, ``int``) the value must have.
    """
    for key, value in given.items():
        if key not in allowed:
            raise ValueError(f"unknown option {key!r}; the options are: {', '.join(sorted(allowed))}")
        rule = allowed[key]
        if isinstance(rule, type):
            if not isinstance(value, rule) or (rule is int and isinstance(value, bool)):
                raise ValueError(f"option {key!r} must be of type {rule.__name__}, not {value!r}")
        elif not any(type(value) is type(v) and value == v for v in rule):
            shown = ", ".join(repr(v) for v in rule)
            raise ValueError(f"option {key!r} must be one of {shown}, not {value!r}")


def check_player_count(players: object, allowed: range, game: str) -> None:
    """Raise ValueError naming the allowed numbers of players unless ``players`` is one of them."""
    if type(players) is not int or players not in allowed:
        raise ValueError(f"{game} is for {allowed.start} to {allowed.stop - 1} players, not {players!r}")


# --------------------------------------------------------------------------
# Saved games


def save_json(game: Game, history: Iterable[Action]) -> str:
    """The saved-game text for a history of actions in the given game."""
    return json.dumps(
        {
            "format": SAVE_FORMAT,
            "game": game.name,
            "options": game.options,
            "history": [str(a) for a in history],
        }
    )


def load_json(game: Game, text: str) -> State:
    """Rebuild a state of ``game`` from ``text`` by replaying it; SavedGameError if bad."""
    if not isinstance(text, (str, bytes)):
        raise SavedGameError(f"a saved game is JSON text, not {type(text).__name__}")
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise SavedGameError(f"the saved game is not valid JSON (truncated?): {err}") from None
    except RecursionError:
        raise SavedGameError("the saved game is nested too deeply to be a treegames save") from None
    if not isinstance(data, dict):
        raise SavedGameError("the saved game must be a JSON object with format, game, options and history")
    for field in ("format", "game", "options", "history"):
        if field not in data:
            raise SavedGameError(f"the saved game has no {field!r} field")
    if data["format"] != SAVE_FORMAT:
        raise SavedGameError(f"field 'format' must be {SAVE_FORMAT!r}, not {data['format']!r}")
    if data["game"] != game.name:
        raise SavedGameError(f"field 'game' is {data['game']!r}, but this is a {game.name!r} game")
    if data["options"] != game.options:
        raise SavedGameError(
            f"field 'options' is {data['options']!r}, but this game was made with {game.options!r}"
        )
    history = data["history"]
    if not isinstance(history, list) or not all(isinstance(a, str) for a in history):
        raise SavedGameError("field 'history' must be a list of actions in notation (strings)")
    state = game.new_initial_state()
    for index, text_action in enumerate(history):
        try:
            action = state.parse_action(text_action)
            state = state.apply(action)
        except ValueError as err:  # IllegalAction and notation errors alike
            raise SavedGameError(f"history[{index}] {text_action!r} cannot be replayed: {err}") from None
    return state


# --------------------------------------------------------------------------
# Chance


def sample_chance(state: State, rng: random.Random) -> Action:
    """Draw one outcome of a chance node with its exact probability, using ``rng``.

    A state may offer its own exact sampler, ``state.sample_chance(rng)`` (a card draw
    among many cards, say), which is then used instead of building every outcome.
    """
    fast: Callable[[random.Random], Action] | None = getattr(state, "sample_chance", None)
    if fast is not None and state.current_player == CHANCE:
        return fast(rng)
    outcomes = state.chance_outcomes()
    if not outcomes:
        raise IllegalAction(f"there is no chance event now (phase {state.phase!r})")
    denominator = math.lcm(*(p.denominator for _, p in outcomes))
    ticket = rng.randrange(denominator)
    for action, probability in outcomes:
        share = probability.numerator * (denominator // probability.denominator)
        if ticket < share:
            return action
        ticket -= share
    raise ValueError("chance outcomes do not sum to 1")  # pragma: no cover - engines are tested


# --------------------------------------------------------------------------
# Bots and play


class Bot(Protocol):
    """Anything that picks an action for the player to move."""

    def choose(self, state: State) -> Action: ...


class RandomBot:
    """Picks uniformly among the legal actions, using an injected random.Random."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose(self, state: State) -> Action:
        """A uniformly random legal action (the state's own fast sampler if it has one)."""
        fast: Callable[[random.Random], Action] | None = getattr(state, "random_action", None)
        if fast is not None:
            return fast(self.rng)
        return self.rng.choice(state.legal_actions())

    def __repr__(self) -> str:
        return "RandomBot()"


def replay(game: Game, actions: Iterable[Action]) -> State:
    """The state reached by applying ``actions`` (strings or actions) from the start."""
    state = game.new_initial_state()
    for action in actions:
        if isinstance(action, str):
            action = state.parse_action(action)
        state = state.apply(action)
    return state


def step(state: State, bots: Sequence[Bot], rng: random.Random) -> State:
    """One action further: a chance outcome drawn with ``rng``, or the mover's bot's choice."""
    if state.is_terminal():
        raise IllegalAction("the game is over; no more actions")
    if state.current_player == CHANCE:
        return state.apply(sample_chance(state, rng))
    return state.apply(bots[state.current_player].choose(state))


def play(
    game: Game,
    bots: Sequence[Bot],
    rng: random.Random,
    keep: bool = False,
    max_actions: int = 1_000_000,
) -> State | list[State]:
    """Play one whole game with ``bots`` (one per player); the final state, or every state if ``keep``."""
    if len(bots) != game.num_players:
        raise ValueError(f"play needs {game.num_players} bots, one per player, not {len(bots)}")
    state = game.new_initial_state()
    states = [state]
    for _ in range(max_actions):  # the body of step(), inlined: this loop is what benchmarks time
        if state.is_terminal():
            break
        if state.current_player == CHANCE:
            state = state.apply(sample_chance(state, rng))
        else:
            state = state.apply(bots[state.current_player].choose(state))
        if keep:
            states.append(state)
    else:
        raise RuntimeError(f"{game.name}: no end after {max_actions} actions")
    return states if keep else state
