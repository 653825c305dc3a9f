"""Aspens: a two-player hex game of growing forests (engine; no UI imports).

``new_game(setup=2, **options)`` makes a game; its states follow the protocol of
:mod:`treegames.core`.  See :mod:`treegames.aspens.data` for the board and our
interpretation of the missing board diagrams, :mod:`treegames.aspens.odds` for the
exact production odds, and :mod:`treegames.aspens.bots` for :class:`GreedyBot`.

Phases (``state.phase``, a :class:`Phase`) follow the rulebook's steps
----------------------------------------------------------------------
``choose-first-player`` (Setup d, chance 1/2 each) -> ``seed-starting-forests``
(How to Get Started 1) -> ``grow-starting-forests`` (How to Get Started 2) -> then
each turn ``roll-sun`` and ``roll-wind`` (two chance nodes, 1/6 per face; 2. Gain
Trees happens at once when the Wind die lands) -> ``plant`` (3A Grow Up, 3B Grow
Out, end-turn; 4. Cascades resolve automatically) -> ... -> ``game-over``.

Notation
--------
``first Aspen``, ``seed D5``, ``grow-up D5``, ``grow-out E6`` (also read as
``grow-out NE from D5 to E6``; the history records this long form with a canonical
source: the rolled direction first, then the two beside it), ``end-turn``,
``sun 4``, ``wind NE``.  Hexes use the board's names (row letter A-O, column 1-15).

Our interpretation (where the rulebook is silent)
-------------------------------------------------
* **Seeding order.**  Players alternate single trees, the first player first,
  until each has one tree beside every water tile; a player's tree may go beside
  any water tile it has not used yet (an empty space next to water), so the
  opponent's tree beside the same water tile is allowed.
* **Growing stage.**  Both players take 4 trees from the bag when the stage starts;
  the first player places all 4 (one action each), then the other player.
* **Dice.**  Two chance nodes per turn, Sun then Wind (6 outcomes of exactly 1/6
  each).  Gain Trees is applied when the Wind die lands, for both players at once;
  ``state.last_gain`` and ``state.last_event`` give the arithmetic.
* **Ending a turn** is an explicit ``end-turn`` action, legal only while holding at
  most 5 trees (:data:`HOLD_LIMIT`); with 0 trees it is the only action.  Held
  trees stay in hand and are added to on later rolls.
* **What "can no longer reach" means (cascades).**  Look at each connected area of
  empty spaces (hex neighbours; water and the board edge are walls).  A player can
  reach an area if one of its spaces touches it (any Wind will come up some turn).
  An area touched by the spaces of exactly one player is closed off for the other
  and is filled for free, one tree per space, for the player who touches it.  Both
  directions are checked: an area closed off for the mover goes to the opponent.
  (With the default timing only the mover can ever gain, because every piece of a
  split area touches the tree just planted; the general check stays as a guard.)
  Areas touched by nobody stay empty (cannot happen on these boards).  Cascades are
  part of "Taking a Turn", so they are not checked while seeding or growing the
  starting forests (otherwise the very first seed would close off the whole board).
* **When cascades are checked** is the named option ``cascade_timing``:
  ``"each-tree"`` (default; the rulebook says "immediately", so the filled spaces
  can be grown out from in the same turn) or ``"end-of-turn"`` (once, at
  ``end-turn``).  The game also ends mid-turn the moment no empty space remains.
* **Running out of trees.**  The bag holds ``trees_per_player`` trees (option,
  default 120).  A gain or cascade never stalls: once the bag is empty, the rest
  are replacement pieces (the rulebook's first suggestion), counted by
  ``state.replacements(player)``; the bag count stays at 0.
* **No stack limit.**  3A Grow Up works on any space the player owns, however
  tall (the engine keeps heights of :data:`TALL` = 255 and more exactly), so a
  player holding trees can always plant one and then end the turn.
* **Grow-out actions** are identified by their target hex only (one legal action
  per distinct effect); a written source and direction, when given, must be valid.

Options (``OPTIONS``, the schema in ``GAME_TYPE``): ``setup`` 2-7,
``cascade_timing`` ("each-tree" | "end-of-turn"), ``trees_per_player`` (int
1-10000, default 120).  ``game.options`` lists all of them with their values.

Modules: :mod:`.data` (the board, the players and the rulebook's numbers),
:mod:`.actions` (phases, the action values and notation), :mod:`.words`
(explanations, descriptions, ``last_event``, the text picture), :mod:`.engine`
(the game and its states), :mod:`.odds` (exact production odds), :mod:`.bots`
(GreedyBot).  ``state.actions_at("D5")`` lists the legal actions on a hex;
``apply`` takes an action or its notation.
"""

from ..core import GameType, RandomBot
from .actions import (
    END_TURN,
    CascadeTiming,
    ChooseFirst,
    EndTurn,
    GrowOut,
    GrowUp,
    NotationError,
    Phase,
    RollSun,
    RollWind,
    Seed,
)
from .bots import GreedyBot
from .data import (
    ASPEN,
    HOLD_LIMIT,
    PINE,
    PLAYER_NAMES,
    SETUPS,
    WATER_LAYOUTS,
    Board,
    Direction,
    Hex,
    cell_name,
    make_board,
    parse_cell,
)
from .engine import OPTION_DEFAULTS, OPTIONS, TALL, AspensGame, AspensState, new_game
from .odds import (
    SUN_FACES,
    WIND_FACES,
    expected_gain,
    gain_distribution,
    production_probability,
    rulebook_chart,
    variance_gain,
)

GAME_TYPE = GameType(
    name="aspens",
    title="Aspens",
    players=(2,),
    has_chance=True,
    has_hidden_information=False,
    options=OPTIONS,
    bots={"greedy": GreedyBot, "random": RandomBot},  # the plug-in (plugin.py) adds the coach
)
"""What Aspens is: 2 players, chance (first player, Sun and Wind dice), nothing hidden, its options."""

__all__ = [
    "GAME_TYPE",
    "OPTIONS",
    "SETUPS",
    "WATER_LAYOUTS",
    "Board",
    "Direction",
    "Hex",
    "cell_name",
    "make_board",
    "parse_cell",
    "ASPEN",
    "PINE",
    "PLAYER_NAMES",
    "OPTION_DEFAULTS",
    "END_TURN",
    "HOLD_LIMIT",
    "TALL",
    "AspensGame",
    "AspensState",
    "CascadeTiming",
    "ChooseFirst",
    "EndTurn",
    "GrowOut",
    "GrowUp",
    "NotationError",
    "Phase",
    "RollSun",
    "RollWind",
    "Seed",
    "new_game",
    "GreedyBot",
    "SUN_FACES",
    "WIND_FACES",
    "expected_gain",
    "gain_distribution",
    "production_probability",
    "rulebook_chart",
    "variance_gain",
]
