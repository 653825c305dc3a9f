"""Games as plug-ins: each game registers one :class:`GamePlugin` under the entry point group ``treegames.games``.

A game's package holds its engine (which imports neither the search nor the UI) and a ``plugin`` module
whose ``GAME`` object composes the engine with what is built on top of it: the coach's bots and its
tuning (budget scale, playout policy, review budget) and the lab's words for what paired games share.
``pyproject.toml`` names that object::

    [project.entry-points."treegames.games"]
    mygame = "mypackage.plugin:GAME"

:func:`plugins` reads the entry points once and checks each object; a plug-in that cannot load, is not a
:class:`GamePlugin` or registers under another name than its game's raises :class:`PluginError` naming the
entry point. Menus list the games by ``order``, then by name. Nothing here names a game.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from types import ModuleType
from typing import Any, Protocol

from .core import GameType, OptionError, quote

__all__ = ["ENTRY_POINT_GROUP", "GamePlugin", "Observer", "resolve", "PluginError", "plugins", "plugin", "game_names"]

ENTRY_POINT_GROUP = "treegames.games"
"""The entry point group every game registers its :class:`GamePlugin` in."""


class PluginError(OptionError):
    """A game plug-in that cannot be used (it failed to load, or is not what it says it is)."""


class Observer(Protocol):
    """What one seat of a shared table may see, for a game with hidden information (its plug-in's ``observer``).

    A game without hidden information has none: every seat sees the whole state (its ``to_json()``).
    """

    def view(self, state: Any, seat: int | None) -> Any:
        """What ``seat`` sees (None: a spectator, who sees only what is public)."""

    def view_to_json(self, view: Any) -> dict:
        """A view as the JSON-safe dict the tables send."""

    def view_from_json(self, data: dict | str) -> Any:
        """The view :meth:`view_to_json` wrote (ValueError if it names something the game does not have)."""

    def explain(self, state: Any, seat: int | None) -> str:
        """The engine's explanation of this moment for ``seat``'s eyes."""

    def places(self, state: Any, seat: int) -> dict[str, list[str]]:
        """Every place ``seat`` can see, with the notation of its legal actions there."""

    def private_words(self, before: Any, action: Any) -> dict[int, str]:
        """Seat -> its own sentence for ``action`` where that differs from the public one (a card drawn to it)."""


@dataclass(frozen=True)
class GamePlugin:
    """One game as the rest of treegames sees it: its engine and type, with every bot (the coach's included)."""

    game_type: GameType
    """The game's type, its ``bots`` holding the engine's own bots and the coach's levels."""
    engine: ModuleType
    """The engine package: ``new_game(**options)``, ``GAME_TYPE``, ``GreedyBot`` and ``PLAYER_NAMES``."""
    order: int = 100
    """Where menus list the game (lower first; ties by name)."""
    coach_scale: Mapping[int, int] = field(default_factory=dict, compare=False)
    """Players -> how many times the coach's base budget a move gets (where playouts are much quicker)."""
    coach_rollout: str = "random"
    """The coach's playout policy in this game: ``"random"`` or ``"greedy"`` (``treegames.search.Rollout``)."""
    review_iterations: int = 120
    """Playouts per position when a finished game is reviewed."""
    evaluation: str | None = None
    """Where the game's evaluation lives, "module:object" (a ``treegames.search.evaluation.WinModel``), or None."""
    shared_chance: str = "the same chance seed: the same first-player draw and the same random numbers"
    """What two lab games with the same chance seed share, in a phrase (the lab's paired comparison says it)."""
    observer: Observer | None = None
    """For a game with hidden information: what each seat of a shared table may see (else None)."""
    picture: str | None = None
    """``"module:function"`` of the view drawing a table small for the teacher overview: called with the state
    (or, with an observer, the public view) it returns a ``Scene``. Named, not imported, so that loading a
    plug-in never loads the UI."""
    preheat: int = 1
    """Kernels the class server keeps ready for the game's Play page (``<name>/play.ipynb``)."""
    experiments: tuple[str, ...] = ()
    """``"module:Class"`` of each class experiment this game brings (a :class:`treegames.experiments.Domain`
    subclass: its kind, student page, settings and exact chances), listed on the teacher's experiment page."""

    def load(self, reference: str) -> Any:
        """The object a ``"module:attribute"`` field names, imported now (PluginError naming it if it cannot be)."""
        return resolve(reference, self.name)

    @property
    def name(self) -> str:
        """The game's name, as saved games and tables store it."""
        return self.game_type.name

    @property
    def title(self) -> str:
        """The game's name for people."""
        return self.game_type.title


@functools.cache
def plugins() -> dict[str, GamePlugin]:
    """Every registered game's plug-in by name, in menu order (the entry points are read once)."""
    found: dict[str, GamePlugin] = {}
    for point in entry_points(group=ENTRY_POINT_GROUP):
        try:
            obj = point.load()
        except Exception as err:  # noqa: BLE001 - any failure is reported with the entry point's name
            raise PluginError(f"the game plug-in {quote(point.name)} ({point.value}) failed to load: "
                              f"{type(err).__name__}: {err}") from err
        if not isinstance(obj, GamePlugin):
            raise PluginError(f"the game plug-in {quote(point.name)} ({point.value}) is a "
                              f"{type(obj).__name__}, not a GamePlugin")
        if obj.name != point.name:
            raise PluginError(f"the game plug-in {quote(point.name)} ({point.value}) is the game "
                              f"{quote(obj.name)}: an entry point's name must be its game's name")
        if obj.name in found and found[obj.name] is not obj:
            raise PluginError(f"two plug-ins register the game {quote(obj.name)}")
        found[obj.name] = obj
    if not found:
        raise PluginError(f"no game is registered under the entry point group {quote(ENTRY_POINT_GROUP)}: "
                          "install treegames (pip install -e .) so that its games are registered")
    return {p.name: p for p in sorted(found.values(), key=lambda p: (p.order, p.name))}


def resolve(reference: str, game: str = "") -> Any:
    """The object ``"package.module:attribute"`` names; PluginError naming the game and the reference if none."""
    module, _, attribute = str(reference).partition(":")
    try:
        return getattr(importlib.import_module(module), attribute)
    except (ImportError, AttributeError, ValueError) as err:
        raise PluginError(f"the game plug-in {quote(game)} names {quote(reference)}, which cannot be loaded: "
                          f"{type(err).__name__}: {err}") from err


def game_names() -> tuple[str, ...]:
    """The registered games' names, in the order a menu lists them."""
    return tuple(plugins())


def plugin(name: str) -> GamePlugin:
    """The plug-in of the game called ``name``; OptionError naming the games if there is none."""
    found = plugins()
    if not isinstance(name, str) or name not in found:
        raise OptionError(f"there is no game {quote(name)}; the games are: {', '.join(found)}")
    return found[name]
