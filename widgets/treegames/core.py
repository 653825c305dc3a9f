"""The one protocol every treegames engine follows, and the machinery they share.

The shape follows OpenSpiel's Python games: a *game type* declares what a game
is (its name, player counts, option schema, bots); a *game* is the rules with
chosen options; a *state* is one moment of play.  Engines import nothing from
ipywidgets, ipycanvas or IPython, so they run (and are tested) without Jupyter.

The games
---------
``treegames.games()`` (also :func:`games` here) maps each registered game's name to
its :class:`GameType`; ``treegames.game_module(name)`` is its engine package.  Games
register themselves as plug-ins through an entry point (:mod:`treegames.plugins`).
Every game package has the same modules for the same jobs:

* ``data.py`` -- boards or cards and the rulebook's numbers, loaded and checked;
* ``actions.py`` -- the vocabularies (phases, action kinds), the action values
  and their notation (``parse_action``; a ``NotationError`` per game);
* ``words.py`` -- ``explain()``, ``describe()`` and ``last_event`` texts (Mighty
  Trees writes its ``last_event`` sentence as it applies an action, in the engine);
* ``engine.py`` -- the game class, the option schema ``OPTIONS`` (with
  ``OPTION_DEFAULTS``) and the immutable state machine;
* ``bots.py`` -- ``GreedyBot(rng)``;
* extras by job: ``odds.py`` (exact chance maths), ``scoring.py`` (Bosk majorities).

Imports only go down that list (data <- actions <- words <- engine <- bots <-
the package; an extra sits where it is needed, e.g. Aspens' odds.py between data
and actions), so there are no import cycles (``tests/test_layering.py`` checks).  The package declares
``GAME_TYPE`` and re-exports the names views need (``from treegames import
aspens; aspens.new_game()``).

Game types and options
----------------------
:class:`GameType` holds ``name``, ``title``, ``players`` (allowed counts),
``has_chance``, ``has_hidden_information``, ``options`` (a tuple of
:class:`Option`, with ``"players"`` among them when more than one count is
allowed) and ``bots`` (the engine declares ``{"greedy": GreedyBot, "random": RandomBot}``;
the game's plug-in, :mod:`treegames.plugins`, adds the coach, ``"coach-easy"``/``"coach-medium"``/
``"coach-hard"`` from :mod:`treegames.search`; each called as ``Bot(rng)``).  An :class:`Option` has ``name``, ``values`` (the
closed list of allowed values in display order; a ``range`` for a whole-number
option such as ``max_turns``, which a form shows as a number box), ``default``
and ``meaning`` (one line for a form's label).  ``GameType.defaults()`` and
``GameType.option(name)`` read the schema.

Each package has ``new_game(**options)`` taking the schema's option names as
keywords; an unknown option or a value outside ``values`` raises
:class:`OptionError` (a ``ValueError``) naming the option and the allowed
values.  A :class:`Game` has ``name``, ``num_players``, ``options`` (a JSON-safe
dict, written into saved games; Mighty Trees keeps the player count in
``num_players`` only), ``game_type``, ``new_game_options()`` (the keywords that
make an equal game), ``new_initial_state()`` and ``state_from_json(text)``.

States
------
A :class:`State` is immutable: ``apply(action)`` returns a *new* state and never
changes the old one, so undo and time travel are just a list of states.  Every
state of every game has

* ``current_player`` -- a player index, or :data:`CHANCE` / :data:`TERMINAL`;
* ``phase`` -- the rulebook step now in force (a ``StrEnum``);
* ``legal_actions()`` -- the actions allowed now (at a chance node: its
  outcomes).  A state that is not terminal always has at least one;
* ``chance_outcomes()`` -- at chance nodes only, ``(action, Fraction)`` pairs
  whose probabilities sum exactly to 1;
* ``apply(action)`` -- the next state.  ``action`` is an action value or its
  notation as a string (which is parsed first: ``apply("end")`` is
  ``apply(parse_action("end"))``).  Anything not legal raises
  :class:`IllegalAction` (a ``ValueError``) naming the broken rule, and text
  that is not notation raises the game's ``NotationError``, a subclass of
  :class:`NotationError` and so of ``IllegalAction``; either way the state is
  unchanged;
* ``actions_at(place)`` -- the legal actions that involve one named place
  (an Aspens hex ``"D5"``; a Bosk intersection ``"c4"`` or square ``"C4"``; a
  Mighty Trees card name, ``"P2"`` or ``"P2 understory 1"``), for views that
  turn a click into actions.  A place with nothing to do gives ``[]``; text
  that names no place raises the game's ``NotationError``;
* ``is_terminal()``, ``scores()`` (a tuple of ints), ``winners()`` (a tuple of
  player indices, empty until the game is over; a shared victory holds several,
  a draw none);
* ``history`` -- the tuple of actions applied so far (chance outcomes included);
* ``to_json()`` -- a saved game (see *Saved games*);
* ``explain()`` -- plain words on what the rules say at this moment, naming the
  rulebook section;
* ``describe(action)`` -- one sentence on what an action (or its notation) does
  from this state, for an event log;
* ``last_event`` -- a property: one sentence on what the last action did,
  automatic consequences included;
* ``parse_action(text)`` -- the action written as ``str(action)``;
* ``pickle``, ``copy.copy`` and ``copy.deepcopy`` work (a copy is the state
  itself: it is immutable; a pickle holds the options and the notation).

Equality: two states are equal when they belong to equal games, hold the same
position and have the same history; ``last_event`` and caches are not part of
it.  Mighty Trees states also have ``view_for(player)`` (hidden hands).

Actions are small immutable values (enums, named tuples, frozen dataclasses)
whose ``str`` is readable ASCII notation that ``parse_action`` reads back.

The shared machinery
--------------------
:class:`FrozenState` is the base of every engine's state class: the immutability
guard, a generated per-class copier that makes the writable draft ``apply``
builds the next state in, equality and hashing from the declared ``_FIELDS``,
the history as an O(1) chain, pickling and copying.  :class:`GameBase` gives
games equality, ``game_type`` and ``state_from_json``; :func:`merge_options`
checks ``new_game``'s keywords against a schema.

Bots
----
``GreedyBot(rng)`` in every game and :class:`RandomBot` here, each with
``choose(state) -> action``.  :func:`play` and :func:`step` drive them.

Chance
------
Dice, the first player and card draws are chance nodes with exact
``fractions.Fraction`` odds.  Sampling takes an injected ``random.Random``;
nothing in treegames touches the global ``random`` module.

Saved games
-----------
``to_json()`` writes the game's name, options and history in notation.
``state_from_json`` never trusts the file: it rebuilds the state by replaying
the recorded history through the rules, so a tampered file can only ever yield
a state the rules allow.  Malformed, truncated or tampered text raises
:class:`SavedGameError` (a ``ValueError``) naming the field or history entry at
fault; a bad value is quoted once, cut to about 80 characters.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar, Protocol, runtime_checkable

__all__ = [
    "CHANCE",
    "TERMINAL",
    "SAVE_FORMAT",
    "MAX_NOTATION",
    "PARENT",
    "IllegalAction",
    "NotationError",
    "SavedGameError",
    "OptionError",
    "Option",
    "GameType",
    "Game",
    "State",
    "GameBase",
    "FrozenState",
    "Bot",
    "RandomBot",
    "game_names",
    "games",
    "game_module",
    "merge_options",
    "quote",
    "plural",
    "bits",
    "sample_chance",
    "replay",
    "random_playout",
    "winning_action",
    "first_winning_action",
    "handed_win_chance",
    "exact_handed_win_chance",
    "least_handing",
    "best_first",
    "step",
    "play",
    "save_json",
    "load_json",
    "check_options",
]

CHANCE = -1
"""``current_player`` at a chance node (a die roll, a shuffle, a draw)."""

TERMINAL = -2
"""``current_player`` once the game is over."""

SAVE_FORMAT = "treegames-save/1"
"""The ``format`` field written by every ``to_json()``."""

MAX_NOTATION = 200
"""No action's notation is longer than this many characters; longer text is refused unread."""

QUOTE_LIMIT = 80
"""How much of a bad value an error message quotes."""

PARENT = object()
"""A :class:`FrozenState` ``_RESET`` value: the field holds the state the new one was made from."""

Action = Hashable


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message names the rule."""


class NotationError(IllegalAction):
    """Text that is not action notation; each game raises its own subclass."""


class SavedGameError(ValueError):
    """A saved game that is malformed, truncated or breaks the rules."""


class OptionError(ValueError):
    """An unknown option or a value it does not allow; the message names it and the allowed values."""


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``repr(value)`` cut to about ``limit`` characters, for error messages."""
    size = len(value) if isinstance(value, str) else None
    if size is not None and size > 4 * limit:
        value = value[: 4 * limit]  # never build the repr of a huge string
    text = repr(value)
    if len(text) > limit:
        suffix = f"... ({size} chars)" if size is not None else "..."
        text = text[: limit - len(suffix)] + suffix
    return text


def plural(count: int, noun: str, many: str | None = None) -> str:
    """'1 tree', '2 trees', '0 cards': the count with its noun in the right number (``many`` if irregular)."""
    return f"{count} {noun if count == 1 else (many or noun + 's')}"


def check_notation(text: object, error: type[NotationError] = NotationError) -> str:
    """``text`` if it is a string short enough to be notation; else ``error`` saying why."""
    if not isinstance(text, str):
        raise error(f"an action in notation is text, not {type(text).__name__}")
    if len(text) > MAX_NOTATION:
        raise error(f"{quote(text)} is {len(text)} characters long; no action is longer than {MAX_NOTATION}")
    return text


def draw_below(rng: random.Random, options: int) -> int:
    """A uniform whole number below ``options`` (at least 1), drawn exactly as ``rng.randrange`` draws it."""
    if options < 1:
        raise ValueError(f"nothing to draw among {options} options")  # randrange's error; never a silent loop
    width = options.bit_length()
    pick = rng.getrandbits(width)
    while pick >= options:
        pick = rng.getrandbits(width)
    return pick


def bits(mask: int) -> list[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


# --------------------------------------------------------------------------
# Options and game types


@dataclass(frozen=True)
class Option:
    """One named option of a game: its allowed values, default and meaning."""

    name: str
    """The keyword for ``new_game()``, e.g. ``"setup"``, ``"players"``, ``"cascade_timing"``."""
    values: tuple | range
    """The allowed values in display order (a closed list), or a ``range`` of whole numbers."""
    default: Any
    """The value used when ``new_game`` is not given this option."""
    meaning: str
    """One line, for the New game form's label or tooltip."""

    def allows(self, value: object) -> bool:
        """Whether ``value`` is one of the allowed values (same type: 1.0 and True are not 1)."""
        if isinstance(self.values, range):
            return type(value) is int and value in self.values
        return any(type(value) is type(v) and value == v for v in self.values)

    def shown_values(self) -> str:
        """The allowed values in words, for messages: '2, 3, 4' or 'a whole number from 1 to 200'."""
        if isinstance(self.values, range):
            return f"a whole number from {self.values.start} to {self.values.stop - 1}"
        return ", ".join(repr(v) for v in self.values)

    def check(self, value: object) -> None:
        """OptionError naming this option and its allowed values unless ``value`` is allowed."""
        if not self.allows(value):
            if isinstance(self.values, range):
                raise OptionError(f"option {self.name!r} must be {self.shown_values()}, not {quote(value)}")
            values = self.values
            if len(values) > 2 and all(type(v) is int for v in values) and list(values) == list(
                range(values[0], values[0] + len(values))
            ):
                raise OptionError(
                    f"option {self.name!r} must be from {values[0]} to {values[-1]} "
                    f"(one of {self.shown_values()}), not {quote(value)}"
                )
            raise OptionError(f"option {self.name!r} must be one of {self.shown_values()}, not {quote(value)}")


def merge_options(schema: Sequence[Option], given: dict[str, Any]) -> dict[str, Any]:
    """Every option of ``schema`` (in schema order) with ``given`` values over the defaults; OptionError if bad."""
    names = {o.name: o for o in schema}
    for key, value in given.items():
        option = names.get(key)
        if option is None:
            raise OptionError(f"unknown option {quote(key)}; the options are: {', '.join(names)}")
        option.check(value)
    return {o.name: given.get(o.name, o.default) for o in schema}


@dataclass(frozen=True)
class GameType:
    """What a game is, declared once per game: its names, player counts, chance, hidden information, options and bots."""

    name: str
    """``"aspens"`` | ``"bosk"`` | ``"mighty_trees"``: the package name."""
    title: str
    """``"Aspens"`` | ``"Bosk"`` | ``"Mighty Trees"``: for people."""
    players: tuple[int, ...]
    """The allowed player counts, e.g. ``(2,)`` or ``(2, 3, 4)``."""
    has_chance: bool
    """Whether the game has chance nodes (dice, draws, a random first player)."""
    has_hidden_information: bool
    """Whether a player cannot see everything (Mighty Trees hands)."""
    options: tuple[Option, ...]
    """The option schema; includes ``"players"`` when more than one count is allowed."""
    bots: dict[str, Callable] = field(compare=False)
    """``{"greedy": GreedyBot, "random": RandomBot, "coach-easy": ..., ...}``; each is called as ``Bot(rng)``."""

    def defaults(self) -> dict[str, Any]:
        """Option name -> default, in schema order."""
        return {o.name: o.default for o in self.options}

    def option(self, name: str) -> Option:
        """The option called ``name``; OptionError naming the options if there is none."""
        for option in self.options:
            if option.name == name:
                return option
        raise OptionError(f"{self.title} has no option {quote(name)}; the options are: "
                          f"{', '.join(o.name for o in self.options)}")

    def new_game(self, **options: Any) -> Game:
        """A game of this type with the named options (the package's ``new_game``)."""
        return game_module(self.name).new_game(**options)


def game_names() -> tuple[str, ...]:
    """The registered games' names, in the order a menu lists them (:mod:`treegames.plugins`)."""
    from .plugins import game_names as registered

    return registered()


def game_module(name: str):
    """The engine package of the game called ``name`` (its plug-in loaded on first use); OptionError if none."""
    from .plugins import plugin

    return plugin(name).engine


def games() -> dict[str, GameType]:
    """Every registered game's :class:`GameType` (its bots with the coach's), by name, in menu order."""
    from .plugins import plugins

    return {name: p.game_type for name, p in plugins().items()}


def check_options(given: dict[str, Any], allowed: dict[str, Sequence | type]) -> None:
    """Raise OptionError naming the option and its allowed values if any is wrong.

    ``allowed`` maps each option name to either a sequence of allowed values or
    a type (``bool``, ``int``) the value must have.  (Engines use
    :func:`merge_options` with an :class:`Option` schema; this is the older,
    schema-free form.)
    """
    for key, value in given.items():
        if key not in allowed:
            raise OptionError(f"unknown option {quote(key)}; the options are: {', '.join(sorted(allowed))}")
        rule = allowed[key]
        if isinstance(rule, type):
            if not isinstance(value, rule) or (rule is int and isinstance(value, bool)):
                raise OptionError(f"option {key!r} must be of type {rule.__name__}, not {quote(value)}")
        elif not any(type(value) is type(v) and value == v for v in rule):
            shown = ", ".join(repr(v) for v in rule)
            raise OptionError(f"option {key!r} must be one of {shown}, not {quote(value)}")


# --------------------------------------------------------------------------
# The protocol as types


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

    @property
    def history(self) -> tuple:
        """Every action so far."""
        ...

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

    def describe(self, action: Action) -> str: ...

    def parse_action(self, text: str) -> Action: ...

    def actions_at(self, place: str) -> list: ...


# --------------------------------------------------------------------------
# The machinery every engine shares


class GameBase:
    """What every game class shares: equality by options, its GameType, loading saved games."""

    name: ClassVar[str]
    num_players: int
    options: dict[str, Any]

    @property
    def game_type(self) -> GameType:
        """This game's :class:`GameType` as its plug-in registers it (every bot, the coach's included)."""
        from .plugins import plugin

        return plugin(self.name).game_type

    def new_game_options(self) -> dict[str, Any]:
        """The keywords that make an equal game with ``new_game(**...)``."""
        if len(self.game_type.players) > 1:
            return {"players": self.num_players, **self.options}
        return dict(self.options)

    def state_from_json(self, text: str) -> FrozenState:
        """Rebuild a saved state by replaying its history; SavedGameError if bad."""
        return load_json(self, text)  # type: ignore[return-value]

    def _identity(self) -> tuple:
        """What makes two games the same game."""
        return (self.name, self.num_players, tuple(sorted(self.options.items())))

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, GameBase):
            return NotImplemented
        return self.name == other.name and self.num_players == other.num_players and self.options == other.options

    def __hash__(self) -> int:
        return hash(self._identity())


def restore_state(name: str, options: dict[str, Any], history: list[str]) -> FrozenState:
    """The state of game ``name`` made with ``options`` after the notation ``history`` (for pickle)."""
    return replay(game_module(name).new_game(**options), history)  # type: ignore[return-value]


def _make_copier(cls: type, draft: type) -> Callable:
    """Generate ``cls._child(self, action)``: a writable draft copy of every slot, with ``action`` on the history.

    Like ``dataclasses``, the code is written out once per class, one assignment per
    slot, so copying costs no loop and no ``getattr``.  Slots named in ``_RESET``
    start from their reset value instead of the parent's.
    """
    slots: list[str] = []
    for klass in reversed(cls.__mro__):
        for name in klass.__dict__.get("__slots__", ()):
            if name not in slots and name not in ("__dict__", "__weakref__"):
                slots.append(name)
    env: dict[str, Any] = {"_new": object.__new__, "_Draft": draft}
    lines = ["def _child(self, action):", "    s = _new(_Draft)"]
    for name in slots:
        if name == "_trail":
            lines.append("    s._trail = (self._trail, action)")
        elif name == "_history":
            lines.append("    s._history = None")
        elif name in cls._RESET and cls._RESET[name] is PARENT:
            lines.append(f"    s.{name} = self")
        elif name in cls._RESET:
            env[f"_reset_{name}"] = cls._RESET[name]
            lines.append(f"    s.{name} = _reset_{name}")
        else:
            lines.append(f"    s.{name} = self.{name}")
    lines.append("    return s")
    exec("\n".join(lines), env)  # noqa: S102 - generated from slot names only, as dataclasses does
    copier = env["_child"]
    copier.__qualname__ = f"{cls.__qualname__}._child"
    copier.__doc__ = "A writable copy with ``action`` appended to the history (apply freezes it before returning)."
    return copier


def _make_key(cls: type) -> Callable:
    """Generate ``cls._key(self)``: the tuple of the position fields ``cls._FIELDS``."""
    body = "".join(f"self.{name}, " for name in cls._FIELDS)
    env: dict[str, Any] = {}
    exec(f"def _key(self):\n    return ({body})", env)  # noqa: S102 - generated from field names only
    key = env["_key"]
    key.__qualname__ = f"{cls.__qualname__}._key"
    key.__doc__ = "The position fields: with the game and the history, what makes this state what it is."
    return key


class FrozenState:
    """The base of every engine's state: immutable, with a generated copier, equality, history, pickle and copy.

    A subclass declares ``__slots__`` (every field), ``_FIELDS`` (the fields that make
    the position: equality and hashing use them, with the game and the history) and
    ``_RESET`` (fields that a new state starts afresh, name -> value, e.g. caches and
    "what the last action did"; the value :data:`PARENT` stores the state it was made from).  It then gets

    * ``cls._Draft``: a writable subclass; ``self._child(action)`` returns a draft copy
      of ``self`` with ``action`` appended to the history, which ``apply`` edits and then
      freezes with ``draft.__class__ = cls``; ``cls._blank(game)`` is an empty draft;
    * ``history`` (a chain of (earlier chain, action) pairs, so apply is O(1));
    * ``__eq__`` / ``__hash__``, ``__copy__`` / ``__deepcopy__`` (the state itself),
      ``__reduce__`` (options and notation, replayed on load) and ``_remember`` for caches.
    """

    __slots__ = ("game", "_trail", "_history")

    _FIELDS: ClassVar[tuple[str, ...]] = ()
    _RESET: ClassVar[dict[str, Any]] = {}
    _Draft: ClassVar[type]
    _child: Callable[..., Any]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.__dict__.get("_is_draft"):
            return
        draft = type(
            f"_{cls.__name__}Draft",
            (cls,),
            {
                "__slots__": (),
                "__setattr__": object.__setattr__,
                "__delattr__": object.__delattr__,  # both, or CPython's fast slot stores stay off
                "__module__": cls.__module__,
                "__doc__": f"A {cls.__name__} under construction inside apply: writable until frozen.",
                "_is_draft": True,
            },
        )
        cls._Draft = draft
        cls._child = _make_copier(cls, draft)
        cls._key = _make_key(cls)  # type: ignore[method-assign]

    @classmethod
    def _blank(cls, game: Any) -> Any:
        """A writable draft with no history, for the initial state (fill every field, then freeze it)."""
        s = object.__new__(cls._Draft)
        s.game = game
        s._trail = None
        s._history = ()
        return s

    def _draft(self) -> Any:
        """A writable copy with the same history (for tests that build an edge position by hand)."""
        s = self._child(None)
        s._trail = self._trail
        s._history = self._history
        return s

    def _advance(self, action: Any) -> Any:
        """This draft moved on by ``action`` in place, as ``_child`` would copy it but keeping its parent link.

        For an engine's fused playout only, on a draft nobody else holds: the state before is not kept.
        """
        self._trail = (self._trail, action)
        self._history = None
        for name, value in self._RESET.items():
            if value is not PARENT:
                setattr(self, name, value)
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a {type(self).__name__} is immutable; apply an action to get a new state")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a {type(self).__name__} is immutable; apply an action to get a new state")

    def _remember(self, name: str, value: object) -> None:
        """Fill a private cache (derived data, never the position)."""
        object.__setattr__(self, name, value)

    @property
    def history(self) -> tuple:
        """Every action applied so far, chance outcomes included, oldest first."""
        history = self._history
        if history is None:
            actions = []
            trail = self._trail
            while trail is not None:
                trail, action = trail
                actions.append(action)
            actions.reverse()
            history = tuple(actions)
            object.__setattr__(self, "_history", history)
        return history

    @property
    def last_action(self) -> Any:
        """The action that led to this state, or None at the start."""
        return self._trail[1] if self._trail is not None else None

    @property
    def num_players(self) -> int:
        """The number of players."""
        return self.game.num_players

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, FrozenState) or type(other) is not type(self):
            return NotImplemented
        return (
            (self.game is other.game or self.game == other.game)
            and self._key() == other._key()
            and self.history == other.history
        )

    def __hash__(self) -> int:
        return hash((self.game, self._key(), len(self.history)))

    def __copy__(self) -> FrozenState:
        return self  # immutable

    def __deepcopy__(self, memo: dict) -> FrozenState:
        return self  # immutable

    def __reduce__(self) -> tuple:
        return (restore_state, (self.game.name, self.game.new_game_options(), [str(a) for a in self.history]))

    def to_json(self) -> str:
        """The saved game: name, options and history in notation."""
        return save_json(self.game, self.history)


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


class _Number:
    """A JSON number too long to be anything in a saved game (kept unparsed, so no digit limit trips)."""

    def __init__(self, digits: str):
        self.digits = digits

    def __repr__(self) -> str:
        return f"a {len(self.digits)}-digit number"


def _json_int(digits: str) -> int | _Number:
    """JSON integers: short ones as int, absurdly long ones as a _Number (Python refuses > 4300 digits)."""
    return int(digits) if len(digits) <= 100 else _Number(digits)


def _json_float(digits: str) -> float | _Number:
    """JSON reals: short ones as float, absurdly long ones as a _Number."""
    return float(digits) if len(digits) <= 100 else _Number(digits)


def _replay_error(index: int, entry: str, err: Exception) -> SavedGameError:
    """The SavedGameError for a history entry that cannot be replayed, quoting it once."""
    shown = quote(entry)
    reason = str(err).replace(shown + ": ", "").replace(shown, "it")
    if len(reason) > 4 * QUOTE_LIMIT:
        reason = reason[: 4 * QUOTE_LIMIT] + "..."
    return SavedGameError(f"history[{index}] {shown} cannot be replayed: {reason}")


def load_json(game: Game, text: str) -> State:
    """Rebuild a state of ``game`` from ``text`` by replaying it; SavedGameError naming the field if bad."""
    if not isinstance(text, (str, bytes)):
        raise SavedGameError(f"a saved game is JSON text, not {type(text).__name__}")
    try:
        data = json.loads(text, parse_int=_json_int, parse_float=_json_float)
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise SavedGameError(f"the saved game is not valid JSON (truncated?): {err}") from None
    except RecursionError:
        raise SavedGameError("the saved game is nested too deeply to be a treegames save") from None
    except ValueError as err:  # anything else json or int() refuses
        raise SavedGameError(f"the saved game is not valid JSON: {quote(str(err))}") from None
    if not isinstance(data, dict):
        raise SavedGameError("the saved game must be a JSON object with format, game, options and history")
    for key in ("format", "game", "options", "history"):
        if key not in data:
            raise SavedGameError(f"the saved game has no {key!r} field")
    if data["format"] != SAVE_FORMAT:
        raise SavedGameError(f"field 'format' must be {SAVE_FORMAT!r}, not {quote(data['format'])}")
    if data["game"] != game.name:
        raise SavedGameError(f"field 'game' is {quote(data['game'])}, but this is a {game.name!r} game")
    if data["options"] != game.options:
        raise SavedGameError(
            f"field 'options' is {quote(data['options'])}, but this game was made with {game.options!r}"
        )
    history = data["history"]
    if not isinstance(history, list):
        raise SavedGameError(f"field 'history' must be a list of actions in notation (strings), not {quote(history)}")
    for index, entry in enumerate(history):
        if not isinstance(entry, str):
            raise SavedGameError(
                f"field 'history' entry history[{index}] must be an action in notation (a string), "
                f"not {quote(entry)}"
            )
    state = game.new_initial_state()
    for index, entry in enumerate(history):
        if len(entry) > MAX_NOTATION:
            raise SavedGameError(
                f"history[{index}] {quote(entry)} is {len(entry)} characters long; "
                f"no action is longer than {MAX_NOTATION}"
            )
        try:
            action = state.parse_action(entry)
            state = state.apply(action)
        except ValueError as err:  # IllegalAction and notation errors alike
            raise _replay_error(index, entry, err) from None
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


def winning_action(state: State) -> Action | None:
    """A legal action after which the game is over with the mover its only winner (the first in legal order), or None.

    Every bot but RandomBot (the baseline of pure chance) takes such a move when it has one. An engine may
    offer its own ``winning_action()`` giving the same answer faster (trying only the moves that can end its
    game); it is used when present.
    """
    fast = getattr(state, "winning_action", None)
    if fast is not None:
        return fast()
    return first_winning_action(state)


def first_winning_action(state: State) -> Action | None:
    """:func:`winning_action` by trying every legal action in order (what an engine's faster one must agree with)."""
    me = state.current_player
    if me < 0:
        return None
    for action in state.legal_actions():
        after = state.apply(action)
        if after.is_terminal() and after.winners() == (me,):
            return action
    return None


def handed_win_chance(after: State, me: int, finish: Callable[[State], Action] | None = None) -> Fraction:
    """The exact chance that ``me``'s turn, from ``after`` on, ends with a rival the winner or holding a win in one.

    ``finish`` plays the rest of ``me``'s turn (a bot's own heuristic); without it a position where ``me`` is
    still to play hands nothing yet. A game over counts 1 when ``me`` is not among its winners (0 for a draw).
    Chance before the next player's decision is summed exactly: the chance that this player has a
    :func:`winning_action` there. An engine may offer its own
    ``handed_win_chance(me)`` for a position where ``me``'s turn is over, giving the same answer faster (a
    draw that only fills ``me``'s hand cannot change it); it is used when present.
    """
    while finish is not None and after.current_player == me:
        after = after.apply(finish(after))
    fast = getattr(after, "handed_win_chance", None)
    if fast is not None and after.current_player != me:
        return fast(me)
    return exact_handed_win_chance(after, me, finish)


def exact_handed_win_chance(after: State, me: int, finish: Callable[[State], Action] | None = None) -> Fraction:
    """:func:`handed_win_chance` by summing over every chance outcome (what an engine's faster one must agree with)."""
    mover = after.current_player
    if mover == CHANCE:
        return sum((p * exact_handed_win_chance(after.apply(o), me, finish) for o, p in after.chance_outcomes()),
                   Fraction(0))
    if mover == me and finish is not None:
        return exact_handed_win_chance(after.apply(finish(after)), me, finish)
    if mover == TERMINAL:
        winners = after.winners()
        return Fraction(1) if winners and me not in winners else Fraction(0)
    if mover < 0 or mover == me:
        return Fraction(0)
    return Fraction(1) if winning_action(after) is not None else Fraction(0)


def least_handing(state: State, ranked: Iterable[Action], finish: Callable[[State], Action] | None = None,
                  play: Callable[[Action], State] | None = None) -> Action:
    """The first of ``ranked`` (a bot's legal moves, best first) among those least likely to hand an opponent a win in one.

    Our design for "avoid handing the opponent a win in one", shared by every bot. The bot's first choice
    stands when the mover is still to play after it (the bot looks again then) or when it hands nothing.
    When it ends the turn with a chance of a rival winning (at once, or by a game-ending move), every other move is
    weighed by the turn it leads to, the rest of the turn played by ``finish`` (the bot's own heuristic),
    and the first that hands the least (nothing at all, if it can) is played. ``play`` makes the position after
    a ranked move (default ``state.apply``; a bot whose moves are listed legal may skip the checks).
    ValueError when ``ranked`` is empty.
    """
    me = state.current_player
    play = state.apply if play is None else play
    ranked = iter(ranked)
    best = next(ranked, None)
    if best is None:
        raise ValueError("least_handing needs at least one move")
    least = handed_win_chance(play(best), me)
    for action in ranked:
        if least == 0:
            break
        chance = handed_win_chance(play(action), me, finish)
        if chance < least:
            best, least = action, chance
    return best


def best_first(chosen: Action, valued: Iterable[tuple[Any, Action]] = (), rest: Iterable[Action] = ()) -> Iterator[Action]:
    """A bot's ranking for :func:`least_handing`: ``chosen``, then ``valued``'s actions by value, highest first
    (their given order among equals), then ``rest``; each action once, worked out only as far as it is read."""
    yield chosen
    seen = {chosen}
    for _value, action in sorted(valued, key=lambda pair: pair[0], reverse=True):  # reverse keeps ties in order
        if action not in seen:
            seen.add(action)
            yield action
    for action in rest:
        if action not in seen:
            seen.add(action)
            yield action


def random_playout(state: State, rng: random.Random, limit: int) -> State:
    """The end of the game when every player plays uniformly at random and chance is sampled exactly, from ``state``.

    The draws are those of :class:`RandomBot` and :func:`sample_chance` applied one
    action at a time.  An engine may offer its own ``random_playout(rng, limit)``
    doing the same faster (the same draws, the same final state and history); it
    is used when present.  RuntimeError after ``limit`` actions with no end.
    """
    fused = getattr(state, "random_playout", None)
    if fused is not None:
        return fused(rng, limit)
    fast = getattr(state, "random_action", None)
    for _ in range(limit):
        if state.is_terminal():
            return state
        if state.current_player == CHANCE:
            state = state.apply(sample_chance(state, rng))
        elif fast is not None:
            state = state.apply(state.random_action(rng))
        else:
            state = state.apply(rng.choice(state.legal_actions()))
    if state.is_terminal():
        return state
    raise RuntimeError(f"{state.game.name}: a random playout did not end after {limit} actions")


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
