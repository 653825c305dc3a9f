"""Pig, a dice race: the fourth game that proves treegames' plug-ins (tests only, never part of the product).

The engine is :mod:`pig_game.engine`; :mod:`pig_game.plugin` composes it with the coach, and
:mod:`pig_game.play` is its Play page. ``pyproject.toml`` beside this package registers ``GAME`` under the
entry point group ``treegames.games``; nothing in ``treegames`` names Pig.
"""

from .engine import (  # noqa: F401 - the package's names, as the treegames engines re-export theirs
    FACES,
    GAME_TYPE,
    HOLD,
    OPTIONS,
    PLAYER_NAMES,
    ROLL,
    Action,
    GreedyBot,
    Kind,
    NotationError,
    Phase,
    PigGame,
    PigState,
    new_game,
    parse_action,
)
