"""TEMPORARY: the protocol names of PLAN.md (GAME_TYPE, actions_at, describe) until issue 9 is on main.

Deleted once ``treegames.<game>.GAME_TYPE`` and ``state.actions_at`` exist.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Option:
    """Stand-in for core.Option."""

    name: str
    values: tuple | range
    default: Any
    meaning: str


@dataclass(frozen=True)
class GameType:
    """Stand-in for core.GameType."""

    name: str
    title: str
    players: tuple
    has_chance: bool
    has_hidden_information: bool
    options: tuple
    bots: dict = field(compare=False)

    def defaults(self) -> dict:
        """Option name -> default."""
        return {o.name: o.default for o in self.options}

    def option(self, name: str) -> Option:
        """The option called name."""
        return next(o for o in self.options if o.name == name)


def game_type_of(module):
    """The module's GAME_TYPE, or a stand-in for Aspens."""
    found = getattr(module, "GAME_TYPE", None)
    if found is not None:
        return found
    from .. import core

    return GameType("aspens", "Aspens", (2,), True, False, (
        Option("setup", tuple(module.SETUPS), 2, "which water layout the board uses"),
        Option("cascade_timing", ("each-tree", "end-of-turn"), "each-tree", "when closed-off land is filled"),
    ), {"greedy": module.GreedyBot, "random": core.RandomBot})


def actions_at(state, place: str) -> list:
    """The legal actions involving a place (the engine's, or found by the cell name)."""
    method = getattr(state, "actions_at", None)
    if method is not None:
        return method(place)
    from ..aspens import cell_name

    return [a for a in state.legal_actions() if getattr(a, "cell", None) is not None and cell_name(a.cell) == place]


def describe(state, action) -> str:
    """The engine's words for an action (its notation until describe exists)."""
    method = getattr(state, "describe", None)
    return method(action) if method is not None else str(action)
