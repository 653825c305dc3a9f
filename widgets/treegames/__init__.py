"""treegames: engines and widgets for Aspens, Bosk and Mighty Trees.

``games()`` lists every game's :class:`~treegames.core.GameType` by name and
``game_module(name)`` gives its engine package. Each game is a plug-in found through the
entry point group ``treegames.games`` (:mod:`treegames.plugins`); see :mod:`treegames.core`
for the protocol every game follows.
"""

from .core import game_module, games

__version__ = "0.1.0"

__all__ = ["games", "game_module", "__version__"]
