"""TEMPORARY: Bosk's protocol names (GAME_TYPE, last_event as a property) until the protocol refactor is on main.

:func:`game_module` returns ``treegames.bosk`` itself once it has ``GAME_TYPE``;
until then a stand-in module whose ``GAME_TYPE`` is built from the engine's
own option data (``OPTION_CHOICES`` / ``OPTION_DEFAULTS``).  Delete this file
when ``treegames.bosk.GAME_TYPE`` exists.
"""

from __future__ import annotations

from functools import cache
from types import SimpleNamespace

from ... import bosk, core


@cache
def game_module():
    """``treegames.bosk`` (or a stand-in with a GAME_TYPE while the engine has none)."""
    if hasattr(bosk, "GAME_TYPE"):
        return bosk
    options = [core.Option("players", (2, 3, 4), 2, "how many players (3 play inside the 4-player side's border)")]
    options += [core.Option(name, tuple(values), bosk.OPTION_DEFAULTS[name], f"our interpretation: {name}")
                for name, values in bosk.OPTION_CHOICES.items()]
    game_type = core.GameType(name="bosk", title="Bosk", players=(2, 3, 4), has_chance=True,
                              has_hidden_information=False, options=tuple(options),
                              bots={"greedy": bosk.GreedyBot, "random": core.RandomBot})
    return SimpleNamespace(GAME_TYPE=game_type, new_game=bosk.new_game, __name__="treegames.bosk")
