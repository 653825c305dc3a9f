"""A thin adapter that registers the treegames games as OpenSpiel Python games (optional extra ``openspiel``).

``pip install treegames[openspiel]`` brings ``open_spiel``; then ``import
treegames.openspiel`` registers ``treegames_aspens``, ``treegames_bosk`` and
``treegames_mighty_trees`` with :func:`pyspiel.register_game`, so
``pyspiel.load_game("treegames_bosk(players=4)")`` gives a game OpenSpiel's
algorithms (its MCTS, random simulation tests) can run on.  Importing this
module without ``open_spiel`` installed raises ImportError; nothing else in
treegames imports it.

How our protocol maps onto OpenSpiel's:

* a state wraps one immutable treegames state (so a clone is the same object);
* actions are integers: each game's :class:`ActionIds` numbers the notation
  strings (``str(action)``) in the order this process first meets them, up to
  ``MAX_ACTION_IDS``.  The numbers are stable within a process, not across runs:
  save games with treegames' notation, not with these ids;
* chance outcomes carry the engine's exact odds as floats;
* returns: a sole winner 1, a shared win split equally, everyone else 0 (so a
  draw gives 0 to all: general-sum);
* Mighty Trees is imperfect-information: a player's observation string is their
  ``view_for(player)``, which shows only what they may see.
"""

from __future__ import annotations

import threading
from typing import Any

import pyspiel

from . import core

__all__ = ["ActionIds", "MAX_ACTION_IDS", "MAX_GAME_LENGTH", "short_name", "register"]

MAX_ACTION_IDS = 20_000
"""The declared ``num_distinct_actions`` (a bound on the notations any game of ours uses)."""

MAX_GAME_LENGTH = 200_000
"""The declared ``max_game_length`` (the lab's bound on the actions of one game)."""



def short_name(game: str) -> str:
    """The OpenSpiel short name of one of our games."""
    core.game_module(game)  # OptionError for a game that is not registered
    return f"treegames_{game}"


class ActionIds:
    """Notation <-> integer ids for one game, assigned on first sight (thread-safe)."""

    def __init__(self) -> None:
        self._ids: dict[str, int] = {}
        self._texts: list[str] = []
        self._lock = threading.Lock()

    def id_of(self, action: Any) -> int:
        """The id of an action (by its notation), giving it the next free id if new."""
        text = str(action)
        found = self._ids.get(text)
        if found is not None:
            return found
        with self._lock:
            if text not in self._ids:
                if len(self._texts) >= MAX_ACTION_IDS:
                    raise ValueError(f"more than {MAX_ACTION_IDS} distinct actions: raise MAX_ACTION_IDS")
                self._ids[text] = len(self._texts)
                self._texts.append(text)
            return self._ids[text]

    def text_of(self, action_id: int) -> str:
        """The notation of an id; ValueError if no action has it yet."""
        if not 0 <= action_id < len(self._texts):
            raise ValueError(f"no action has id {action_id} yet")
        return self._texts[action_id]


_ACTION_IDS: dict[str, ActionIds] = {}
"""Each registered game's ids, made when the game is first registered with pyspiel."""


def _game_type(name: str) -> pyspiel.GameType:
    """OpenSpiel's description of one of our games."""
    ours = core.games()[name]
    hidden = ours.has_hidden_information
    params = {"players": min(ours.players)} if len(ours.players) > 1 else {}
    return pyspiel.GameType(
        short_name=short_name(name),
        long_name=f"treegames {ours.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(pyspiel.GameType.Information.IMPERFECT_INFORMATION if hidden
                     else pyspiel.GameType.Information.PERFECT_INFORMATION),
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(ours.players),
        min_num_players=min(ours.players),
        provides_information_state_string=not hidden,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification=params,
    )


def _make_game_class(name: str) -> type:
    """The pyspiel.Game subclass for one of our games."""
    spiel_type = _game_type(name)
    ids = _ACTION_IDS.setdefault(name, ActionIds())

    class TreegamesGame(pyspiel.Game):
        """One of our games as an OpenSpiel game (see the module docstring)."""

        def __init__(self, params: dict | None = None):
            params = dict(params or {})
            options = {"players": int(params["players"])} if "players" in params else {}
            self.ours = core.games()[name].new_game(**options)
            info = pyspiel.GameInfo(
                num_distinct_actions=MAX_ACTION_IDS,
                max_chance_outcomes=MAX_ACTION_IDS,
                num_players=self.ours.num_players,
                min_utility=0.0,
                max_utility=1.0,
                utility_sum=None,
                max_game_length=MAX_GAME_LENGTH,
            )
            super().__init__(spiel_type, info, params)

        def new_initial_state(self) -> TreegamesState:
            """The state before the first action."""
            return TreegamesState(self, self.ours.new_initial_state())

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
            """Observation strings: the whole state, or a Mighty Trees player's view."""
            return _Observer()

    class TreegamesState(pyspiel.State):
        """One of our immutable states behind OpenSpiel's mutable state API."""

        def __init__(self, game: TreegamesGame, ours: Any):
            super().__init__(game)
            self.ours = ours

        def current_player(self) -> int:
            """The player to act, or OpenSpiel's chance / terminal ids."""
            player = self.ours.current_player
            if player == core.CHANCE:
                return pyspiel.PlayerId.CHANCE
            if player == core.TERMINAL:
                return pyspiel.PlayerId.TERMINAL
            return player

        def _legal_actions(self, player: int) -> list[int]:
            """The legal actions' ids, ascending (OpenSpiel's convention)."""
            return sorted(ids.id_of(a) for a in self.ours.legal_actions())

        def chance_outcomes(self) -> list[tuple[int, float]]:
            """(id, probability) of each chance outcome, from the engine's exact odds."""
            return sorted((ids.id_of(a), float(p)) for a, p in self.ours.chance_outcomes())

        def _apply_action(self, action: int) -> None:
            """Apply the action with this id (through the engine's notation)."""
            self.ours = self.ours.apply(ids.text_of(action))

        def _action_to_string(self, player: int, action: int) -> str:
            """The action's notation."""
            return ids.text_of(action)

        def is_terminal(self) -> bool:
            """Whether the game is over."""
            return self.ours.is_terminal()

        def returns(self) -> list[float]:
            """Each player's return: 1 for a sole winner, a shared win split, else 0 (0 for all until the end)."""
            n = self.ours.num_players
            winners = self.ours.winners() if self.ours.is_terminal() else ()
            return [1.0 / len(winners) if p in winners else 0.0 for p in range(n)]

        def information_state_string(self, player: int | None = None) -> str:
            """Perfect-information games: the whole history in notation."""
            return " ".join(str(a) for a in self.ours.history)

        def observation_string(self, player: int | None = None) -> str:
            """What ``player`` sees (a Mighty Trees view), or the whole position in notation."""
            return _Observer().string_from(self, player)

        def __str__(self) -> str:
            return " ".join(str(a) for a in self.ours.history)

    TreegamesGame.__name__ = TreegamesGame.__qualname__ = f"{name.title().replace('_', '')}SpielGame"
    TreegamesState.__name__ = TreegamesState.__qualname__ = f"{name.title().replace('_', '')}SpielState"
    return TreegamesGame


class _Observer:
    """String observations (no tensors)."""

    def __init__(self) -> None:
        self.tensor = None
        self.dict: dict = {}

    def set_from(self, state: Any, player: int) -> None:
        """Nothing to fill: this observer gives strings only."""

    def string_from(self, state: Any, player: int | None) -> str:
        """A Mighty Trees player's view, or the history in notation for a perfect-information game."""
        ours = state.ours
        if ours.game.game_type.has_hidden_information and player is not None and player >= 0:
            return repr(ours.view_for(player))
        return " ".join(str(a) for a in ours.history)


def register() -> list[str]:
    """Register every game with pyspiel (once per process); their short names."""
    names = []
    registered = set(pyspiel.registered_names())
    for name in core.game_names():
        if short_name(name) not in registered:
            pyspiel.register_game(_game_type(name), _make_game_class(name))
        names.append(short_name(name))
    return names


register()
